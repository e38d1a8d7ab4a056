/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EGRESS_PORT_POLICY_H
#define EGRESS_PORT_POLICY_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

struct RoceFrameView;
class RoceSwitch;

/**
 * \ingroup ai-fabric
 * \brief How a switch picks one egress port among the routing engine's candidates.
 *
 * The routing engine says which ports lead towards the destination (all minimal
 * next hops for ECMP); the policy picks one per packet. ECMP hashes the flow;
 * spraying, adaptive and flowlet policies (load-balancing issue) plug in here.
 */
class EgressPortPolicy : public Object
{
  public:
    static TypeId GetTypeId();
    /// Pick one of the n candidate ports (n >= 2; a single candidate is taken directly).
    virtual uint32_t Select(const RoceSwitch& sw,
                            const uint32_t* candidates,
                            uint32_t n,
                            const RoceFrameView& frame) = 0;
    /// Fix the random streams of a randomized policy; returns how many it used.
    virtual int64_t AssignStreams(int64_t stream);
};

} // namespace ns3

#endif // EGRESS_PORT_POLICY_H
