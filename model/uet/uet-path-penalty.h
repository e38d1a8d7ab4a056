/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_PATH_PENALTY_H
#define UET_PATH_PENALTY_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief One PDC's memory of failed paths (UET's multipath path-failure handling, as
 * uet-htsim's bitmap spraying keeps it: htsim/sim/uec_mp.cpp UecMpBitmap): each entropy
 * of the PDC's spray cycle has a penalty; a loss on it (a packet the receiver reports
 * missing) sets it to the maximum, and each time the cycle comes to a penalized entropy
 * its penalty drops by one and the packet takes the next entropy without one instead.
 * A dead path is thus tried once every (maximum + 1) cycles, not on every cycle, until
 * the routing converges around it.
 */
class UetPathPenalty
{
  public:
    /**
     * \param entropies entropies in the cycle (UetNic SprayEntropies)
     * \param base the PDC's first entropy (UDP source port of cycle slot 0)
     * \param maxPenalty the penalty a loss sets (cycles skipped)
     */
    UetPathPenalty(uint32_t entropies, uint16_t base, uint8_t maxPenalty);

    /**
     * The entropy data packet \p psn goes out on: \p entropy (the cycle's), or if it
     * is penalized (one less now) the next one without a penalty. Remembered by PSN.
     * \return the UDP source port to send on
     */
    uint16_t Choose(uint16_t entropy, uint32_t psn);
    /// Data packet \p psn was lost: penalize the entropy it last went out on.
    void OnLoss(uint32_t psn);
    /// \return packets moved off a penalized entropy
    uint64_t GetAvoided() const;
    /// \return losses that penalized an entropy
    uint64_t GetPenalized() const;

  private:
    static constexpr uint32_t RING = 1024; //!< PSNs remembered (a power of two)

    /// \return cycle slot of UDP source port \p entropy
    uint32_t SlotOf(uint16_t entropy) const;
    /// \return the UDP source port of cycle slot \p slot
    uint16_t EntropyOf(uint32_t slot) const;

    uint16_t m_base;                //!< the PDC's first entropy (14 low bits)
    uint8_t m_max;                  //!< penalty a loss sets
    std::vector<uint8_t> m_penalty; //!< by cycle slot
    std::vector<uint16_t> m_slotOf; //!< cycle slot of the last send of PSN & (RING - 1)
    uint64_t m_avoided{0};          //!< GetAvoided
    uint64_t m_penalized{0};        //!< GetPenalized
};

} // namespace ns3

#endif // UET_PATH_PENALTY_H
