/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "random-spray-egress-policy.h"

#include "ns3/load-balancing-registry.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RandomSprayEgressPolicy");

NS_OBJECT_ENSURE_REGISTERED(RandomSprayEgressPolicy);

static LoadBalancingRegistration g_lbRegistration({"spray",
                                                   "a uniformly random equal-cost port per packet",
                                                   "ns3::RandomSprayEgressPolicy",
                                                   true,
                                                   LoadBalancingRegistry::IB_NONE});

TypeId
RandomSprayEgressPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RandomSprayEgressPolicy")
                            .SetParent<EgressPortPolicy>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RandomSprayEgressPolicy>();
    return tid;
}

RandomSprayEgressPolicy::RandomSprayEgressPolicy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

void
RandomSprayEgressPolicy::DoDispose()
{
    m_rng = nullptr;
    EgressPortPolicy::DoDispose();
}

int64_t
RandomSprayEgressPolicy::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
RandomSprayEgressPolicy::Select(const RoceSwitch& /* sw */,
                                const uint32_t* candidates,
                                uint32_t n,
                                const RoceFrameView& /* frame */)
{
    return candidates[m_rng->GetInteger(0, n - 1)];
}

} // namespace ns3
