/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "leaf-spine-topology-helper.h"

#include "ns3/log.h"
#include "ns3/topology-registry.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeafSpineTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(LeafSpineTopologyHelper);
static TopologyRegistration<LeafSpineTopologyHelper> g_registration(
    "leafspine",
    "two-tier leaf-spine (folded Clos)",
    {{"leaves", "Leaves"}, {"spines", "Spines"}, {"hosts-per-switch", "HostsPerLeaf"}},
    true);

TypeId
LeafSpineTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LeafSpineTopologyHelper")
            .SetParent<TopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<LeafSpineTopologyHelper>()
            .AddAttribute("Leaves",
                          "Number of leaf (ToR) switches, >= 1.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&LeafSpineTopologyHelper::m_leaves),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Spines",
                          "Number of spine switches, >= 1.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&LeafSpineTopologyHelper::m_spines),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostsPerLeaf",
                          "Hosts attached to each leaf, >= 1.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&LeafSpineTopologyHelper::m_hostsPerLeaf),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LinksPerPair",
                          "Parallel cables between every leaf and every spine, >= 1.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&LeafSpineTopologyHelper::m_linksPerPair),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

LeafSpineTopologyHelper::LeafSpineTopologyHelper()
{
    NS_LOG_FUNCTION(this);
}

static void
RequirePositive(const char* name, uint32_t v)
{
    if (v == 0)
    {
        std::ostringstream os;
        os << "leaf-spine: " << name << " = 0 is not allowed (must be >= 1)";
        throw std::invalid_argument(os.str());
    }
}

Ptr<TopologyGraph>
LeafSpineTopologyHelper::Build() const
{
    RequirePositive("leaves", m_leaves);
    RequirePositive("spines", m_spines);
    RequirePositive("hosts per leaf", m_hostsPerLeaf);
    RequirePositive("links per leaf-spine pair", m_linksPerPair);
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t i = 0; i < m_hostsPerLeaf; ++i)
        {
            g->AddHost(l);
        }
    }
    std::vector<uint32_t> leaf(m_leaves);
    std::vector<uint32_t> spine(m_spines);
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        leaf[l] = g->AddSwitch(0, l, l);
    }
    for (uint32_t s = 0; s < m_spines; ++s)
    {
        spine[s] = g->AddSwitch(1, 0, s);
    }
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t i = 0; i < m_hostsPerLeaf; ++i)
        {
            g->AddLink(g->GetHosts()[l * m_hostsPerLeaf + i], leaf[l], m_hostRate, m_hostDelay, 0);
        }
    }
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            for (uint32_t p = 0; p < m_linksPerPair; ++p)
            {
                g->AddLink(leaf[l], spine[s], m_fabricRate, m_fabricDelay, 1);
            }
        }
    }
    TopologyGraph::Shape shape;
    shape.type = "leafspine";
    shape.switchNames = TopologyGraph::Shape::SwitchNames::BY_TIER; // "leaf0", "spine1"
    shape.tierNames = {"leaf", "spine"};
    shape.partitionGroups = "leaves";
    shape.partitionSpread = "spines";
    std::ostringstream label;
    label << "leaf-spine (" << m_leaves << " leaves, " << m_spines << " spines, " << m_hostsPerLeaf
          << " hosts per leaf";
    if (m_linksPerPair > 1)
    {
        label << ", " << m_linksPerPair << " links per pair";
    }
    label << ")";
    shape.label = label.str();
    return Finish(g, shape);
}

TopologyHelper::Size
LeafSpineTopologyHelper::GetSize() const
{
    Size s;
    s.hosts = uint64_t{m_leaves} * m_hostsPerLeaf;
    s.switches = uint64_t{m_leaves} + m_spines;
    s.cables =
        SaturatingAdd(s.hosts, SaturatingMultiply(uint64_t{m_leaves} * m_spines, m_linksPerPair));
    return s;
}

} // namespace ns3
