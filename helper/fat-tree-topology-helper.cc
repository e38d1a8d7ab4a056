/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/topology-registry.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(FatTreeTopologyHelper);
static TopologyRegistration<FatTreeTopologyHelper> g_registration(
    "fattree",
    "k-ary three-tier fat-tree (Al-Fares et al. 2008)",
    {{"k", "K"}},
    true);

TypeId
FatTreeTopologyHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FatTreeTopologyHelper")
            .SetParent<TopologyHelper>()
            .SetGroupName("AiFabric")
            .AddConstructor<FatTreeTopologyHelper>()
            .AddAttribute("K",
                          "Switch radix k (even, >= 2); k^3/4 hosts at the default edge "
                          "population (Al-Fares et al. 2008).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&FatTreeTopologyHelper::m_k),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostsPerEdge",
                          "Hosts per edge switch; 0 means k/2 (non-blocking, Al-Fares). "
                          "More than k/2 oversubscribes the edge.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FatTreeTopologyHelper::m_hostsPerEdge),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

FatTreeTopologyHelper::FatTreeTopologyHelper()
{
    NS_LOG_FUNCTION(this);
}

Ptr<TopologyGraph>
FatTreeTopologyHelper::Build() const
{
    const uint32_t k = m_k;
    if (k == 0 || k % 2 != 0)
    {
        std::ostringstream os;
        os << "fat-tree: k = " << k << " is not allowed (k must be even and >= 2)";
        throw std::invalid_argument(os.str());
    }
    const uint32_t half = k / 2;
    const uint32_t hpe = m_hostsPerEdge == 0 ? half : m_hostsPerEdge;
    Ptr<TopologyGraph> g = Create<TopologyGraph>();

    // hosts first so that node id == rank
    std::vector<uint32_t> hosts;
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t i = 0; i < hpe; ++i)
            {
                hosts.push_back(g->AddHost(pod));
            }
        }
    }
    std::vector<uint32_t> edge(k * half);
    std::vector<uint32_t> agg(k * half);
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            edge[pod * half + e] = g->AddSwitch(0, pod, e);
        }
        for (uint32_t a = 0; a < half; ++a)
        {
            agg[pod * half + a] = g->AddSwitch(1, pod, a);
        }
    }
    std::vector<uint32_t> core(half * half);
    for (uint32_t c = 0; c < half * half; ++c)
    {
        core[c] = g->AddSwitch(2, k, c);
    }
    // port order on an edge switch: its hosts, then the aggregation switches
    for (uint32_t e = 0; e < k * half; ++e)
    {
        for (uint32_t i = 0; i < hpe; ++i)
        {
            g->AddLink(hosts[e * hpe + i], edge[e], m_hostRate, m_hostDelay, 0);
        }
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                g->AddLink(edge[pod * half + e],
                           agg[pod * half + a],
                           m_fabricRate,
                           m_fabricDelay,
                           1);
            }
        }
    }
    // core c joins aggregation switch c / (k/2) of every pod
    for (uint32_t c = 0; c < half * half; ++c)
    {
        for (uint32_t pod = 0; pod < k; ++pod)
        {
            g->AddLink(agg[pod * half + c / half], core[c], m_fabricRate, m_fabricDelay, 2);
        }
    }
    TopologyGraph::Shape s;
    s.type = "fattree";
    s.switchNames = TopologyGraph::Shape::SwitchNames::BY_TIER; // "pod0-edge1", "core3"
    s.tierNames = {"edge", "agg", "core"};
    s.groupedTiers = 2;
    s.groupPrefix = "pod";
    s.partitionGroups = "pods";
    s.partitionSpread = "cores";
    s.k = k;
    std::ostringstream label;
    label << "k=" << k << " fat-tree";
    if (hpe != half)
    {
        label << " (" << hpe << " hosts per edge, " << hpe << ":" << half << " oversubscribed)";
    }
    s.label = label.str();
    return Finish(g, s);
}

TopologyHelper::Size
FatTreeTopologyHelper::GetSize() const
{
    const uint64_t k = m_k;
    const uint64_t half = k / 2;
    const uint64_t hpe = m_hostsPerEdge == 0 ? half : m_hostsPerEdge;
    const uint64_t edges = k * half; // k <= 2^32: no wrap in 64 bits
    Size s;
    s.hosts = SaturatingMultiply(edges, hpe);
    s.switches = 2 * edges + half * half;
    // host cables, edge-aggregation (half per edge), aggregation-core (k per core)
    s.cables = SaturatingAdd(s.hosts, edges * half + half * half * k);
    return s;
}

} // namespace ns3
