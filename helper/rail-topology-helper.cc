/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-topology-helper.h"

#include "ns3/log.h"
#include "ns3/topology-registry.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(RailTopologyHelper);
static TopologyRegistration<RailTopologyHelper> g_registration(
    "rail",
    "GPU servers on rails: GPU i of every server on rail leaf i; rail-only (Wang et al. "
    "2023) or rail-optimized with spines (Qian et al. 2024)",
    {{"servers", "Servers"}, {"rail-spines", "Spines"}},
    true);

TypeId
RailTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RailTopologyHelper")
            .SetParent<TopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<RailTopologyHelper>()
            .AddAttribute("Servers",
                          "Number of GPU servers, >= 1.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RailTopologyHelper::m_servers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Spines",
                          "Spine switches joining the rail leaves; 0 = rail-only (no switch "
                          "joins two rails).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RailTopologyHelper::m_spines),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RailTopologyHelper::RailTopologyHelper()
    : m_servers(4),
      m_spines(0)
{
    NS_LOG_FUNCTION(this);
}

Ptr<TopologyGraph>
RailTopologyHelper::Build() const
{
    if (m_servers == 0)
    {
        throw std::invalid_argument("rail: servers = 0 is not allowed (must be >= 1)");
    }
    const uint32_t gpus = m_gpusPerServer;
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        for (uint32_t r = 0; r < gpus; ++r)
        {
            g->AddHost(s);
        }
    }
    std::vector<uint32_t> leaf(gpus);
    for (uint32_t r = 0; r < gpus; ++r)
    {
        leaf[r] = g->AddSwitch(0, r, r);
    }
    std::vector<uint32_t> spine(m_spines);
    for (uint32_t i = 0; i < m_spines; ++i)
    {
        spine[i] = g->AddSwitch(1, 0, i);
    }
    for (uint32_t h = 0; h < m_servers * gpus; ++h)
    {
        g->AddLink(g->GetHosts()[h], leaf[h % gpus], m_hostRate, m_hostDelay, 0);
    }
    for (uint32_t r = 0; r < gpus; ++r)
    {
        for (uint32_t i = 0; i < m_spines; ++i)
        {
            g->AddLink(leaf[r], spine[i], m_fabricRate, m_fabricDelay, 1);
        }
    }
    TopologyGraph::Shape shape;
    shape.type = "rail";
    shape.servers = m_servers;
    shape.railSpines = m_spines;
    shape.switchNames = TopologyGraph::Shape::SwitchNames::BY_TIER; // "rail0", "spine1"
    shape.tierNames = {"rail", "spine"};
    // a rail leaf joins one GPU of every server: spread, as the spines
    shape.spreadsAllSwitches = true;
    shape.partitionGroups = "";
    shape.partitionSpread = m_spines > 0 ? "rail leaves and spines" : "rail leaves";
    std::ostringstream label;
    if (m_spines == 0)
    {
        label << "rail-only (" << gpus << " rails)";
    }
    else
    {
        label << "rail-optimized (" << gpus << " rails, " << m_spines << " spines)";
    }
    shape.label = label.str();
    return Finish(g, shape);
}

TopologyHelper::Size
RailTopologyHelper::GetSize() const
{
    Size s;
    s.hosts = SaturatingMultiply(m_servers, m_gpusPerServer);
    s.switches = SaturatingAdd(m_gpusPerServer, m_spines);
    s.cables = SaturatingAdd(s.hosts, SaturatingMultiply(m_gpusPerServer, m_spines));
    return s;
}

} // namespace ns3
