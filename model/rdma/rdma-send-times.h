/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SEND_TIMES_H
#define RDMA_SEND_TIMES_H

#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A requester's send times by PSN (ns-3 time steps), in 32 bits an entry.
 *
 * A ring indexed by PSN modulo its size (a power of two), holding the send time of
 * each packet in flight for RTT samples. Without congestion control a 1 MB flow has a
 * thousand packets in flight, so these rings were 7.8 KB a host in an 8,192-host
 * permutation; an entry now keeps its time as an offset from the ring's base (a
 * 4.3 ms span at picoseconds), and the ring rebases when a send time leaves the span.
 * Only if the times it must keep (the PSNs from the oldest unacknowledged one to the
 * highest sent) span more than that does it switch to 64-bit entries. Entries never
 * written, or cleared when the ring grows, read 0, as the 64-bit ring did; an entry
 * outside the live PSNs Set names is not kept across a rebase (the requester reads
 * only live ones).
 */
class RdmaSendTimes
{
  public:
    /// A ring of \p size entries (a power of two), each reading 0 (no memory until the
    /// first Set).
    explicit RdmaSendTimes(uint64_t size);

    /// \return the number of entries (a power of two)
    uint64_t Size() const
    {
        return m_mask + 1;
    }

    /// \return the send time of \p psn (0 if never written)
    int64_t Get(uint64_t psn) const
    {
        if (__builtin_expect(m_narrow == nullptr, false))
        {
            return m_wide != nullptr ? m_wide[psn & m_mask] : 0;
        }
        const uint32_t e = m_narrow[psn & m_mask];
        return e == ZERO ? 0 : m_base + e;
    }

    /**
     * Set the send time of \p psn to \p ticks (not earlier than any time set before);
     * the entries of PSNs [\p liveFrom, \p liveEnd) must keep their times.
     */
    void Set(uint64_t psn, int64_t ticks, uint64_t liveFrom, uint64_t liveEnd)
    {
        // (Before the first Set, m_base is INT64_MAX: no offset fits.)
        const uint64_t offset = static_cast<uint64_t>(ticks - m_base);
        if (__builtin_expect(m_wide == nullptr && offset < ZERO, true))
        {
            m_narrow[psn & m_mask] = static_cast<uint32_t>(offset);
            return;
        }
        SetSlow(psn, ticks, liveFrom, liveEnd);
    }

    /// Grow to \p size entries (a power of two, larger), keeping the times of PSNs
    /// [\p from, \p end); every other entry reads 0.
    void Grow(uint64_t size, uint64_t from, uint64_t end);

    /// \return true if the ring keeps 64-bit entries (its live times spanned > 4.3 ms)
    bool IsWide() const
    {
        return m_wide != nullptr;
    }

  private:
    static constexpr uint32_t ZERO = 0xFFFFFFFFU; //!< a narrow entry reading time 0

    /// Set's other cases: the first Set, a rebase, or the switch to 64-bit entries.
    [[gnu::noinline]] void SetSlow(uint64_t psn,
                                   int64_t ticks,
                                   uint64_t liveFrom,
                                   uint64_t liveEnd);

    std::unique_ptr<uint32_t[]> m_narrow; //!< offsets from m_base (or ZERO), by PSN
    std::unique_ptr<int64_t[]> m_wide;    //!< the times at full width, once narrow fails
    int64_t m_base{INT64_MAX};            //!< time of narrow offset 0 (none yet: INT64_MAX)
    uint64_t m_mask;                      //!< entries - 1
};

} // namespace ns3

#endif // RDMA_SEND_TIMES_H
