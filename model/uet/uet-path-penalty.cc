/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-path-penalty.h"

namespace ns3
{

namespace
{
constexpr uint16_t DYNAMIC_PORTS = 0xC000; //!< RdmaRequester's entropies: 0xC000 | 14 bits
constexpr uint16_t LOW14 = 0x3FFF;         //!< their varying bits
} // namespace

UetPathPenalty::UetPathPenalty(uint32_t entropies, uint16_t base, uint8_t maxPenalty)
    : m_base(base & LOW14),
      m_max(maxPenalty),
      m_penalty(entropies, 0),
      m_slotOf(RING, 0)
{
}

uint32_t
UetPathPenalty::SlotOf(uint16_t entropy) const
{
    return ((entropy & LOW14) - m_base) & LOW14;
}

uint16_t
UetPathPenalty::EntropyOf(uint32_t slot) const
{
    return static_cast<uint16_t>(DYNAMIC_PORTS | ((m_base + slot) & LOW14));
}

uint16_t
UetPathPenalty::Choose(uint16_t entropy, uint32_t psn)
{
    const auto n = static_cast<uint32_t>(m_penalty.size());
    uint32_t slot = SlotOf(entropy);
    if (slot >= n)
    {
        slot = 0; // (not one of the cycle's: a recycled one the cycle does not hold)
    }
    if (m_penalty[slot] != 0)
    {
        // uet-htsim UecMpBitmap::nextEntropy: the penalty of the entropy the cycle came
        // to drops by one; the next ones with a penalty are skipped as they are.
        m_penalty[slot]--;
        uint32_t next = slot;
        for (uint32_t i = 1; i < n; ++i)
        {
            const uint32_t s = (slot + i) % n;
            if (m_penalty[s] == 0)
            {
                next = s;
                break;
            }
        }
        if (next != slot)
        {
            slot = next;
            entropy = EntropyOf(slot);
            m_avoided++;
        }
    }
    m_slotOf[psn & (RING - 1)] = static_cast<uint16_t>(slot);
    return entropy;
}

void
UetPathPenalty::OnLoss(uint32_t psn)
{
    const uint16_t slot = m_slotOf[psn & (RING - 1)];
    if (slot < m_penalty.size())
    {
        m_penalty[slot] = m_max;
        m_penalized++;
    }
}

uint64_t
UetPathPenalty::GetAvoided() const
{
    return m_avoided;
}

uint64_t
UetPathPenalty::GetPenalized() const
{
    return m_penalized;
}

} // namespace ns3
