/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flowlet-egress-policy.h"

#include "ns3/enum.h"
#include "ns3/load-balancing-registry.h"
#include "ns3/log.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowletEgressPolicy");

NS_OBJECT_ENSURE_REGISTERED(FlowletEgressPolicy);

static LoadBalancingRegistration g_lbRegistration(
    {"flowlet",
     "a new port per flowlet, after an idle gap (LetFlow, Vanini et al. NSDI 2017)",
     "ns3::FlowletEgressPolicy",
     true,
     LoadBalancingRegistry::IB_NONE});

TypeId
FlowletEgressPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletEgressPolicy")
            .SetParent<EgressPortPolicy>()
            .SetGroupName("AiFabric")
            .AddConstructor<FlowletEgressPolicy>()
            .AddAttribute("FlowletTimeout",
                          "Idle gap after which a flow's next packet may take a new port. "
                          "Must exceed the delay difference between paths to avoid "
                          "reordering; CONGA used 500 us and LetFlow 50-500 us for TCP, "
                          "default 10 us here for RDMA at 100 Gb/s (a few base RTTs)",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&FlowletEgressPolicy::m_timeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "TableSize",
                "Flow-state slots per switch (16 bytes each); more slots, fewer evictions",
                UintegerValue(4096),
                MakeUintegerAccessor(&FlowletEgressPolicy::m_tableSize),
                MakeUintegerChecker<uint32_t>(1, 1U << 24))
            .AddAttribute("NewPathChoice",
                          "Port of a new flowlet: Random (LetFlow) or LeastLoaded (the "
                          "candidate with the fewest bytes queued over all priorities)",
                          EnumValue(FlowletEgressPolicy::RANDOM),
                          MakeEnumAccessor(&FlowletEgressPolicy::m_choice),
                          MakeEnumChecker(FlowletEgressPolicy::RANDOM,
                                          "Random",
                                          FlowletEgressPolicy::LEAST_LOADED,
                                          "LeastLoaded"));
    return tid;
}

FlowletEgressPolicy::FlowletEgressPolicy()
    : m_rng(CreateObject<UniformRandomVariable>()),
      m_timeout(MicroSeconds(10)),
      m_tableSize(4096),
      m_choice(RANDOM),
      m_flowlets(0)
{
}

void
FlowletEgressPolicy::DoDispose()
{
    m_rng = nullptr;
    m_table.clear();
    EgressPortPolicy::DoDispose();
}

int64_t
FlowletEgressPolicy::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint64_t
FlowletEgressPolicy::GetFlowletCount() const
{
    return m_flowlets;
}

uint32_t
FlowletEgressPolicy::Choose(const RoceSwitch& sw, const uint32_t* candidates, uint32_t n)
{
    uint32_t start = m_rng->GetInteger(0, n - 1);
    if (m_choice == RANDOM)
    {
        return start;
    }
    uint32_t best = start;
    uint64_t bestLoad = UINT64_MAX;
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t idx = (start + i) % n;
        const uint64_t load = sw.GetPortBytes(candidates[idx]);
        if (load < bestLoad)
        {
            bestLoad = load;
            best = idx;
        }
    }
    return best;
}

uint32_t
FlowletEgressPolicy::Select(const RoceSwitch& sw,
                            const uint32_t* candidates,
                            uint32_t n,
                            const RoceFrameView& frame)
{
    if (m_table.empty())
    {
        m_table.resize(m_tableSize); // once, at the first packet (Attributes are final)
    }
    uint32_t h = RoceFrame::FlowHash(frame, sw.GetHashSeed()) | 1; // never 0 (empty)
    Entry& e = m_table[h % m_tableSize];
    int64_t now = Simulator::Now().GetTimeStep();
    bool sameFlowlet = e.hash == h && now - e.lastSeen <= m_timeout.GetTimeStep() && e.index < n &&
                       candidates[e.index] == e.port;
    if (!sameFlowlet)
    {
        e.hash = h;
        e.index = static_cast<uint16_t>(Choose(sw, candidates, n));
        e.port = static_cast<uint16_t>(candidates[e.index]);
        m_flowlets++;
    }
    e.lastSeen = now;
    return e.port;
}

} // namespace ns3
