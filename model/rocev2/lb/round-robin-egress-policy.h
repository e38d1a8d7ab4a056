/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROUND_ROBIN_EGRESS_POLICY_H
#define ROUND_ROBIN_EGRESS_POLICY_H

#include "egress-port-policy.h"

#include <array>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Per-packet round-robin spraying: successive packets that share a
 * candidate set take its ports in turn.
 *
 * One counter per candidate set (a small fixed table indexed by a hash of the
 * set's first port and size; sets that collide share a counter, which still
 * cycles). In a fat tree every upward packet of a switch shares one set, so the
 * up ports carry equal packet counts, deterministically and without an RNG.
 */
class RoundRobinEgressPolicy : public EgressPortPolicy
{
  public:
    static TypeId GetTypeId();
    RoundRobinEgressPolicy();
    uint32_t Select(const RoceSwitch& sw,
                    const uint32_t* candidates,
                    uint32_t n,
                    const RoceFrameView& frame) override;

  private:
    std::array<uint32_t, 256> m_next; //!< round-robin position per candidate-set slot
};

} // namespace ns3

#endif // ROUND_ROBIN_EGRESS_POLICY_H
