/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ECMP_EGRESS_POLICY_H
#define ECMP_EGRESS_POLICY_H

#include "egress-port-policy.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Flow-hash ECMP: the 5-tuple hashed with the switch's seed, so one flow
 * keeps one path and different switches decorrelate their choices.
 */
class EcmpEgressPolicy : public EgressPortPolicy
{
  public:
    static TypeId GetTypeId();
    uint32_t Select(const RoceSwitch& sw,
                    const uint32_t* candidates,
                    uint32_t n,
                    const RoceFrameView& frame) override;
};

} // namespace ns3

#endif // ECMP_EGRESS_POLICY_H
