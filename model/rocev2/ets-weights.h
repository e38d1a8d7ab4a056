/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ETS_WEIGHTS_H
#define ETS_WEIGHTS_H

#include "ns3/attribute-helper.h"

#include <array>
#include <cstdint>
#include <iostream>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Enhanced Transmission Selection weights (IEEE 802.1Q-2018 clause 37, from
 * 802.1Qaz): the share of a port's bandwidth each traffic class gets when several are
 * backlogged, as relative weights per priority 0..6 (priority 7, the CNPs, stays
 * strict). A RoceSwitch with Dwrr serves each priority a quantum of DwrrQuantum x its
 * weight per round. Text form "PRIO:WEIGHT,..." (e.g. "3:3,4:1"); a priority not
 * named has weight 1; "" = equal weights.
 */
class EtsWeights
{
  public:
    EtsWeights();
    /**
     * \param text "PRIO:WEIGHT,..." (PRIO 0..6, WEIGHT 1..100, each PRIO once) or ""
     * \throws std::invalid_argument naming the entry and what is allowed
     */
    static EtsWeights Parse(const std::string& text);

    /// \return the weight of priority \p prio (0..7)
    uint32_t Get(uint8_t prio) const
    {
        return m_weight[prio];
    }

    /// \return a bit per priority the text named (its traffic classes)
    uint8_t GetNamedMask() const
    {
        return m_named;
    }

    /// \return whether every weight is 1
    bool IsEqual() const;
    /// \return the text form (the priorities named)
    std::string ToString() const;

  private:
    std::array<uint32_t, 8> m_weight; //!< by priority
    uint8_t m_named{0};               //!< GetNamedMask
};

std::ostream& operator<<(std::ostream& os, const EtsWeights& w);
std::istream& operator>>(std::istream& is, EtsWeights& w);

ATTRIBUTE_HELPER_HEADER(EtsWeights);

} // namespace ns3

#endif // ETS_WEIGHTS_H
