/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_QUEUED_FRAME_H
#define ROCE_QUEUED_FRAME_H

#include "ns3/roce-frame.h"
#include "ns3/roce-header-contexts.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A frame waiting in a switch's egress queue, with its queue's tag, in 12 bytes
 * (with a pool's link, a quarter of a cache line).
 *
 * A RoceParsedFrame takes two cache lines (128 bytes): its view keeps every header
 * field decoded, most of them at full width and many only some frames have (RETH,
 * PFC quanta). A fat-tree permutation queues hundreds of frames per host in its
 * switches at once (k=24: 2.1 M frames), so the queued frames are most of a large
 * fabric's memory and of the lines each hop touches. Packed, a RoCEv2 data frame, ACK,
 * NAK or CNP (BTH with at most one of ImmDt and AETH, no RETH, UDP port 4791, untagged
 * or 802.1Q) fits 12 bytes: the fields at the widths their headers give them (24-bit
 * DestQP and PSN, 16-bit frame length, a 16-bit 802.1Q TCI), the constants of such a
 * frame (EtherType 0x0800, IPv4 protocol 17, UDP port 4791, L3 offset 14 or 18) left
 * out, and the fields a flow's frames at a hop share (addresses, QP and opcode, ports,
 * P_Key, DSCP, TTL, ImmDt or MSN, length, IP ID, and the tag: a switch's ingress port
 * and priority group) stored once in RoceHeaderContexts, the frame keeping their
 * 24-bit id beside its own PSN, ECN and BTH flags and its ready time in 32 bits
 * (ReadyEpochs). Any other frame (a WRITE first/only or READ request with its
 * RETH, an IP frame, a frame with both ImmDt and AETH, a frame FctAttribution follows, a
 * frame whose bytes or INT block are written) keeps its full form in a pooled
 * RoceParsedFrame the slot names by index, the tag beside it. Unpacking (MoveTo) gives back the
 * view field for field, the frame's bytes or INT block and its ready time: the switch's outputs do
 * not change.
 *
 * Packing pays in memory only where many frames wait at once, and costs ~280
 * instructions a frame (pack and unpack) where a whole frame's two copies cost ~60.
 * So the first frames queued at once in the process (SetWholeBudget, 4,096 by
 * default: 0.6 MB of pooled frames) stay whole, fitting or not, and only the frames
 * queued beyond them are packed: a fabric with short queues never packs, one that
 * queues millions of frames packs nearly all of them.
 */
class RoceQueuedFrame
{
  public:
    /// Take \p frame (left empty, as a move leaves it) and its queue's tag \p tag
    /// (GetTag): whole while the budget lasts, else packed if it fits.
    explicit RoceQueuedFrame(RoceParsedFrame&& frame, uint32_t tag = 0)
    {
        WholePool& w = s_whole;
        if (__builtin_expect(w.made - w.freeCount < w.budget && w.freeCount != 0, true))
        {
            // Whole, in a pooled frame (it holds nothing): the view and ready time copied.
            Adopt(w.free[--w.freeCount], frame, tag);
            return;
        }
        Take(frame, tag); // out of line: a new pooled frame, or packing
    }

    RoceQueuedFrame(const RoceQueuedFrame&) = delete;
    RoceQueuedFrame& operator=(const RoceQueuedFrame&) = delete;

    ~RoceQueuedFrame()
    {
        if (m_ctxBits != 0 || m_whole != NO_WHOLE)
        {
            ReleaseHeld(); // out of line: a dequeued slot holds nothing
        }
    }

    /// \return true if a frame of view \p v can be packed (else it is kept whole); a
    /// frame whose bytes or INT block are written, or whose ready time or header set
    /// has no room in the packed form at the moment, is kept whole too
    static bool Fits(const RoceFrameView& v);

    /**
     * Keep frames whole while fewer than \p frames are kept whole in the process
     * (queued frames, from every switch); 0: pack every frame that fits.
     * \return the budget before
     */
    static uint32_t SetWholeBudget(uint32_t frames);

    /// SetWholeBudget to the GlobalValue RoceQueuedFrameWholeBudget (default 4,096):
    /// RoceFabricHelper calls it when it installs a fabric.
    static void ApplyWholeBudgetGlobalValue();

    /// \return the frames kept whole at present (in every switch's queues)
    static uint32_t GetWholeFrames();

    /// Move the frame into \p out (whatever \p out held is released); this slot is
    /// left empty. \return its tag (GetTag)
    uint32_t MoveTo(RoceParsedFrame& out)
    {
        if (__builtin_expect(m_ctxBits == 0 && out.m_held == 0, true))
        {
            // The pooled frame's view copied out, the frame back on the free list (it
            // has room for every frame made).
            WholePool& w = s_whole;
            RoceParsedFrame* full = w.frames[m_whole];
            out.m_held = full->m_held;
            full->m_held = 0;
            out.view = full->view;
            out.readyTicks = full->readyTicks;
            w.free[w.freeCount++] = m_whole;
            m_whole = NO_WHOLE;
            return m_tag;
        }
        return Give(out); // out of line: unpacking
    }

    /// \return the tag the frame was queued with
    uint32_t GetTag() const
    {
        return m_ctxBits == 0 ? m_tag : RoceHeaderContexts::Get(m_ctxBits >> CTX_SHIFT).tag;
    }

    /// \return the frame's bytes (RoceFrameView::frameBytes)
    uint32_t GetFrameBytes() const
    {
        return m_ctxBits == 0 ? s_whole.frames[m_whole]->view.frameBytes
                              : RoceHeaderContexts::Get(m_ctxBits >> CTX_SHIFT).frameBytes;
    }

    /// \return the frame's ready time (RoceParsedFrame::readyTicks)
    int64_t GetReadyTicks() const
    {
        return m_ctxBits == 0 ? s_whole.frames[m_whole]->readyTicks : UnpackReady(m_ready);
    }

    /// \return true if the frame is kept whole in a pooled full frame (it does not fit,
    /// or the whole-frame budget was not used up when it was queued)
    bool IsOverflow() const
    {
        return m_ctxBits == 0;
    }

  private:
    /// The pooled whole frames: a queued frame takes one and gives it back; a frame on
    /// the free list holds nothing. Plain data, never destroyed: a queue emptied during
    /// static destruction (a switch an ns-3 registry still holds at exit) may give its
    /// frame back after any static object would be gone.
    struct WholePool
    {
        RoceParsedFrame** frames; //!< every frame made, by index
        uint32_t* free;           //!< the free frames' indices (room for every frame made)
        uint32_t freeCount;       //!< frames on the free list
        uint32_t made;            //!< frames made (made - freeCount are in queues)
        uint32_t budget;          //!< keep frames whole while fewer are in queues
    };

    static constexpr uint32_t NO_WHOLE = 0xFFFFFFFFU; //!< m_whole of an empty slot

    /**
     * The high bits of packed frames' ready times. A packed frame keeps the low 31 bits
     * of its ready time (in time steps) and one bit naming which of two epochs (ready
     * time >> 31, 2.1 ms at picoseconds) holds the rest; an epoch's entry is reused
     * once no packed frame refers to it. A frame whose epoch has no free entry (two
     * other epochs still referenced: a frame waiting for milliseconds) is kept whole.
     */
    struct ReadyEpochs
    {
        int64_t epoch[2]; //!< ready time >> 31 of the frames naming entry 0 or 1
        uint32_t live[2]; //!< packed frames naming each entry
    };

    static WholePool s_whole;            //!< the process's pooled whole frames
    static ReadyEpochs s_epochs;         //!< the packed frames' ready-time epochs
    static constexpr int READY_LOW = 31; //!< ready-time bits a packed frame keeps

    /// \return the ready time a packed frame keeps as \p packed (m_ready)
    static int64_t UnpackReady(uint32_t packed)
    {
        const uint32_t e = packed >> READY_LOW;
        return static_cast<int64_t>(static_cast<uint64_t>(s_epochs.epoch[e]) << READY_LOW) |
               static_cast<int64_t>(packed & ((1U << READY_LOW) - 1));
    }

    /// The constructor's other cases: a new pooled frame, or \p frame packed.
    [[gnu::noinline]] void Take(RoceParsedFrame& frame, uint32_t tag);
    /// MoveTo's other cases: unpack into \p out, or \p out held something.
    [[gnu::noinline]] uint32_t Give(RoceParsedFrame& out);
    /// Keep \p frame whole in a pooled frame.
    void TakeWhole(RoceParsedFrame& frame, uint32_t tag);

    /// Hold \p frame whole in pooled frame \p index (it holds nothing): its held
    /// packet, view and ready time; and \p tag.
    void Adopt(uint32_t index, RoceParsedFrame& frame, uint32_t tag)
    {
        RoceParsedFrame* full = s_whole.frames[index];
        full->m_held = frame.m_held;
        frame.m_held = 0;
        full->view = frame.view;
        full->readyTicks = frame.readyTicks;
        m_ctxBits = 0;
        m_tag = tag;
        m_whole = index;
    }

    /// \return the index of a pooled frame from the free list, or of a new one
    static uint32_t NewWhole();

    /// Give back what the slot holds: the pooled full frame, or the packed frame's header
    /// set and ready-time epoch.
    [[gnu::noinline]] void ReleaseHeld();

    // Flag bits of RoceHeaderContexts::Key::flags (the same for a flow at a hop).
    static constexpr uint16_t F_IPV4 = 1U << 0;   //!< isIpv4
    static constexpr uint16_t F_VLAN = 1U << 1;   //!< hasVlan
    static constexpr uint16_t F_IMM = 1U << 2;    //!< hasImm (immOrMsn is imm)
    static constexpr uint16_t F_AETH = 1U << 3;   //!< hasAeth
    static constexpr uint16_t F_DEI = 1U << 4;    //!< dei
    static constexpr uint16_t F_MIGREQ = 1U << 5; //!< migReq
    static constexpr uint16_t F_ROCE = 1U << 6;   //!< isRoce

    // Bits of m_ctxBits' low byte (each frame's own).
    static constexpr uint8_t B_FECN = 1U << 0;   //!< fecn
    static constexpr uint8_t B_BECN = 1U << 1;   //!< becn
    static constexpr uint8_t B_ACKREQ = 1U << 2; //!< ackReq
    static constexpr uint8_t B_SE = 1U << 3;     //!< se
    static constexpr uint8_t PAD_SHIFT = 4;      //!< padCnt, 2 bits
    static constexpr uint8_t ECN_SHIFT = 6;      //!< ecn, 2 bits
    static constexpr uint32_t CTX_SHIFT = 8;     //!< the header set's id above the bits

    /// Packed: the RoceHeaderContexts id of the shared fields (24 bits, never 0) << 8 |
    /// the B_* bits, padCnt and ecn. 0: the frame is whole (m_whole) or the slot empty.
    uint32_t m_ctxBits;

    union {
        struct
        {
            uint32_t m_psn;   //!< packed: aethSyndrome << 24 | psn (24 bits)
            uint32_t m_ready; //!< packed: ready-time epoch entry << 31 | low 31 bits
        };

        struct
        {
            uint32_t m_tag; //!< whole: the tag (GetTag)
            /// Whole: the index of the pooled RoceParsedFrame holding the frame, its bytes
            /// and ready time (NO_WHOLE: the slot is empty).
            uint32_t m_whole;
        };
    };
};

} // namespace ns3

#endif // ROCE_QUEUED_FRAME_H
