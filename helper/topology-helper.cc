/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-helper.h"

#include "ns3/fabric-topology.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(TopologyHelper);

TypeId
TopologyHelper::GetTypeId()
{
    // Defaults: 100 Gb/s and 1 us cables, as in the HPCC-derived simulators' example
    // topologies.
    static TypeId tid =
        TypeId("ns3::TopologyHelper")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute("HostLinkRate",
                          "Rate of every host-to-switch (or router) cable.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&TopologyHelper::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("HostLinkDelay",
                          "Propagation delay of every host-to-switch cable (fibre ~5 ns/m).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&TopologyHelper::m_hostDelay),
                          MakeTimeChecker())
            .AddAttribute("FabricLinkRate",
                          "Rate of every switch-to-switch cable (DragonFly: local and global).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&TopologyHelper::m_fabricRate),
                          MakeDataRateChecker())
            .AddAttribute("FabricLinkDelay",
                          "Propagation delay of every switch-to-switch cable (DragonFly: "
                          "of the local ones; GlobalLinkDelay for the global ones).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&TopologyHelper::m_fabricDelay),
                          MakeTimeChecker());
    return tid;
}

Ptr<FabricTopology>
TopologyHelper::CreateTopology() const
{
    Ptr<TopologyGraph> graph = Build();
    Ptr<FabricTopology> topology = CreateObject<FabricTopology>();
    topology->Create(graph);
    return topology;
}

void
TopologyHelper::SetLinks(DataRate hostRate, Time hostDelay, DataRate fabricRate, Time fabricDelay)
{
    m_hostRate = hostRate;
    m_hostDelay = hostDelay;
    m_fabricRate = fabricRate;
    m_fabricDelay = fabricDelay;
}

uint64_t
TopologyHelper::SaturatingMultiply(uint64_t a, uint64_t b)
{
    uint64_t product;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

uint64_t
TopologyHelper::SaturatingAdd(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

Ptr<TopologyGraph>
TopologyHelper::Finish(Ptr<TopologyGraph> graph, const TopologyGraph::Shape& shape)
{
    graph->SetShape(shape);
    graph->Validate();
    NS_LOG_INFO(graph->Describe());
    return graph;
}

} // namespace ns3
