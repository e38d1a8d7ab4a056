/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "subnet-manager.h"

#include "ns3/abort.h"
#include "ns3/routing-engine.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace ns3
{

SubnetManager::SubnetManager(Ptr<const TopologyGraph> graph)
    : m_graph(graph)
{
    if (graph->GetNHosts() + graph->GetNSwitches() >= 0xBFFF)
    {
        throw std::invalid_argument("subnet of " + std::to_string(graph->GetNNodes()) +
                                    " nodes exceeds the 49151 unicast LIDs of one IB subnet");
    }
    m_switchIndexOfNode.assign(graph->GetNNodes(), 0xFFFFFFFFu);
    const auto& sw = graph->GetSwitches();
    for (uint32_t i = 0; i < sw.size(); ++i)
    {
        m_switchIndexOfNode[sw[i]] = i;
    }
}

void
SubnetManager::Run(const std::string& engine)
{
    Program(RoutingEngine::BuildTable(engine, m_graph));
}

void
SubnetManager::Program(Ptr<const RouteTable> routes)
{
    m_routes = routes;
    uint32_t nHosts = m_graph->GetNHosts();
    uint32_t nLids = nHosts + m_graph->GetNSwitches() + 1;
    const auto& sw = m_graph->GetSwitches();
    m_lft.assign(sw.size(), std::vector<uint16_t>(nLids, NO_PORT));
    for (uint32_t i = 0; i < sw.size(); ++i)
    {
        // A failed switch (every cable down) gets no routes: nothing reaches it.
        for (uint32_t h = 0; h < nHosts && !m_graph->IsSwitchDown(sw[i]); ++h)
        {
            RouteTable::PortSpan c = routes->GetCandidates(sw[i], h);
            if (c.empty())
            {
                throw std::logic_error("subnet manager: switch node " + std::to_string(sw[i]) +
                                       " has no route to host " + std::to_string(h));
            }
            uint16_t dlid = GetHostLid(h);
            m_lft[i][dlid] = static_cast<uint16_t>(c[dlid % c.size()]);
        }
    }
}

uint32_t
SubnetManager::Reroute()
{
    NS_ABORT_MSG_IF(!m_routes, "SubnetManager::Reroute before Run or Program");
    std::vector<std::vector<uint16_t>> before = m_lft;
    Program(RoutingEngine::BuildTable(m_routes->GetEngineName(), m_graph));
    uint32_t changed = 0;
    for (uint32_t i = 0; i < m_lft.size(); ++i)
    {
        for (uint32_t dlid = 0; dlid < m_lft[i].size(); ++dlid)
        {
            changed += m_lft[i][dlid] != before[i][dlid] ? 1 : 0;
        }
    }
    return changed;
}

Ptr<const RouteTable>
SubnetManager::GetRoutes() const
{
    return m_routes;
}

uint16_t
SubnetManager::GetHostLid(uint32_t host) const
{
    return static_cast<uint16_t>(host + 1);
}

uint16_t
SubnetManager::GetSwitchLid(uint32_t switchIndex) const
{
    return static_cast<uint16_t>(m_graph->GetNHosts() + 1 + switchIndex);
}

const std::vector<uint16_t>&
SubnetManager::GetLft(uint32_t node) const
{
    uint32_t i = m_switchIndexOfNode.at(node);
    if (i == 0xFFFFFFFFu || i >= m_lft.size())
    {
        throw std::invalid_argument("node " + std::to_string(node) + " is not a programmed switch");
    }
    return m_lft[i];
}

uint8_t
SubnetManager::GetRequiredVls() const
{
    return m_routes ? std::max<uint8_t>(1, m_routes->GetNumClasses()) : 1;
}

bool
SubnetManager::HasPathSls() const
{
    return m_routes && m_routes->GetClassRule() == RouteTable::ClassRule::PATH_LAYER &&
           m_routes->GetNumClasses() > 1;
}

uint8_t
SubnetManager::GetPathSl(uint32_t src, uint32_t dst) const
{
    if (!HasPathSls())
    {
        return 0;
    }
    const TopologyGraph::Port& port = m_graph->GetPorts(m_graph->GetHosts().at(src)).at(0);
    return m_routes->GetPathLayer(port.peer, dst);
}

std::array<uint8_t, 16>
SubnetManager::GetSl2Vl(uint8_t numDataVls)
{
    std::array<uint8_t, 16> map{};
    for (uint8_t sl = 0; sl < 16; ++sl)
    {
        map[sl] = sl % std::max<uint8_t>(1, numDataVls);
    }
    return map;
}

void
SubnetManager::SetPartitions(const std::vector<uint16_t>& pKeys)
{
    if (pKeys.size() != m_graph->GetNHosts())
    {
        throw std::invalid_argument("partitions for " + std::to_string(pKeys.size()) +
                                    " hosts; the subnet has " +
                                    std::to_string(m_graph->GetNHosts()));
    }
    m_pKeys.clear();
    for (uint16_t k : pKeys)
    {
        // Full membership (bit 15), as partitions.conf's "full" members; 0 = default.
        m_pKeys.push_back(k == 0 ? uint16_t{0xFFFF} : static_cast<uint16_t>(k | 0x8000));
    }
}

std::vector<uint16_t>
SubnetManager::GetPKeyTable(uint32_t host) const
{
    if (m_pKeys.empty())
    {
        return {};
    }
    return {m_pKeys.at(host)};
}

uint16_t
SubnetManager::GetPKey(uint32_t host) const
{
    return m_pKeys.empty() ? uint16_t{0xFFFF} : m_pKeys.at(host);
}

void
SubnetManager::SetQosPolicy(const IbQosPolicy& policy)
{
    m_qos = std::make_unique<IbQosPolicy>(policy);
}

const IbQosPolicy*
SubnetManager::GetQosPolicy() const
{
    return m_qos.get();
}

std::string
SubnetManager::DumpLfts() const
{
    std::ostringstream os;
    const auto& sw = m_graph->GetSwitches();
    char buf[128];
    for (uint32_t i = 0; i < m_lft.size(); ++i)
    {
        uint32_t last = static_cast<uint32_t>(m_lft[i].size()) - 1;
        std::snprintf(buf,
                      sizeof(buf),
                      "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016llx (node %u):\n",
                      last,
                      GetSwitchLid(i),
                      static_cast<unsigned long long>(0x0002c90000000000ULL + sw[i]),
                      sw[i]);
        os << buf << "  Lid  Out   Destination\n       Port     Info\n";
        uint32_t valid = 0;
        for (uint32_t dlid = 1; dlid < m_lft[i].size(); ++dlid)
        {
            if (m_lft[i][dlid] == NO_PORT)
            {
                continue;
            }
            std::snprintf(buf,
                          sizeof(buf),
                          "0x%04x %03u : (Channel Adapter portguid 0x%016llx: 'host %u')\n",
                          dlid,
                          static_cast<unsigned>(m_lft[i][dlid]),
                          static_cast<unsigned long long>(0x0002c90100000000ULL + dlid),
                          dlid - 1);
            os << buf;
            valid++;
        }
        os << valid << " lids in use\n";
    }
    return os.str();
}

} // namespace ns3
