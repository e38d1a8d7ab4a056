/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecmp-egress-policy.h"

#include "ns3/load-balancing-registry.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-switch.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EcmpEgressPolicy);

static LoadBalancingRegistration g_lbRegistration(
    {"ecmp",
     "flow-hash ECMP: one path per flow (5-tuple hash); on InfiniBand the Subnet Manager's static "
     "LFT spread",
     "ns3::EcmpEgressPolicy",
     false,
     LoadBalancingRegistry::IB_STATIC});

TypeId
EcmpEgressPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpEgressPolicy")
                            .SetParent<EgressPortPolicy>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<EcmpEgressPolicy>();
    return tid;
}

uint32_t
EcmpEgressPolicy::Select(const RoceSwitch& sw,
                         const uint32_t* candidates,
                         uint32_t n,
                         const RoceFrameView& frame)
{
    return candidates[RoceFrame::HashIndex(RoceFrame::FlowHash(frame, sw.GetHashSeed()), n)];
}

} // namespace ns3
