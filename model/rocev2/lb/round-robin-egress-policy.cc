/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "round-robin-egress-policy.h"

#include "ns3/load-balancing-registry.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoundRobinEgressPolicy");

NS_OBJECT_ENSURE_REGISTERED(RoundRobinEgressPolicy);

static LoadBalancingRegistration g_lbRegistration({"roundrobin",
                                                   "equal-cost ports in turn, packet by packet",
                                                   "ns3::RoundRobinEgressPolicy",
                                                   true,
                                                   LoadBalancingRegistry::IB_NONE});

TypeId
RoundRobinEgressPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoundRobinEgressPolicy")
                            .SetParent<EgressPortPolicy>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoundRobinEgressPolicy>();
    return tid;
}

RoundRobinEgressPolicy::RoundRobinEgressPolicy()
{
    m_next.fill(0);
}

uint32_t
RoundRobinEgressPolicy::Select(const RoceSwitch& /* sw */,
                               const uint32_t* candidates,
                               uint32_t n,
                               const RoceFrameView& /* frame */)
{
    // Keyed by the set's content (not its address) so runs are reproducible.
    uint32_t key = ((candidates[0] + 1) * 0x9E3779B1U) ^ (n * 0x85EBCA77U);
    uint32_t& next = m_next[key >> 24];
    uint32_t i = next % n;
    next = i + 1;
    return candidates[i];
}

} // namespace ns3
