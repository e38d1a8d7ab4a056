/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "route-table.h"

#include "ns3/log.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RouteTable");

RouteTable::RouteTable(Ptr<const TopologyGraph> graph, const std::string& engine)
    : m_graph(graph),
      m_engine(engine),
      m_nHosts(graph->GetNHosts()),
      m_rowOf(graph->GetNNodes(), NO_ROW),
      m_hostSet(graph->GetNNodes(), NO_SET),
      m_setOffset(1, 0),
      m_rule(ClassRule::NONE),
      m_numClasses(1)
{
    uint32_t rows = 0;
    for (uint32_t s : graph->GetSwitches())
    {
        m_rowOf[s] = rows++;
    }
    m_sets.assign(static_cast<size_t>(rows) * m_nHosts, NO_SET);
    for (uint32_t h : graph->GetHosts())
    {
        std::vector<uint32_t> all;
        for (uint32_t p = 0; p < graph->GetPorts(h).size(); ++p)
        {
            if (graph->IsPortUp(h, p))
            {
                all.push_back(p);
            }
        }
        if (!all.empty())
        {
            m_hostSet[h] = InternPortSet(all);
        }
    }
}

Ptr<const TopologyGraph>
RouteTable::GetGraph() const
{
    return m_graph;
}

const std::string&
RouteTable::GetEngineName() const
{
    return m_engine;
}

uint8_t
RouteTable::GetNumClasses() const
{
    return m_numClasses;
}

RouteTable::ClassRule
RouteTable::GetClassRule() const
{
    return m_rule;
}

uint32_t
RouteTable::InternPortSet(const std::vector<uint32_t>& in)
{
    std::vector<uint32_t>& ports = m_scratch;
    ports.assign(in.begin(), in.end());
    std::sort(ports.begin(), ports.end());
    ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
    auto it = m_intern.find(ports);
    if (it != m_intern.end())
    {
        return it->second;
    }
    uint32_t id = m_setOffset.size() - 1;
    m_pool.insert(m_pool.end(), ports.begin(), ports.end());
    m_setOffset.push_back(m_pool.size());
    m_intern.emplace(ports, id);
    return id;
}

uint32_t
RouteTable::InternSinglePort(uint32_t port)
{
    if (port >= m_singlePort.size())
    {
        m_singlePort.resize(port + 1, NO_PORT);
    }
    if (m_singlePort[port] == NO_PORT)
    {
        m_singlePort[port] = InternPortSet({port});
    }
    return m_singlePort[port];
}

RouteTable::PathMode
RouteTable::GetPathMode() const
{
    return m_pathMode;
}

void
RouteTable::SetPathMode(PathMode mode)
{
    m_pathMode = mode;
}

void
RouteTable::SetClassRule(ClassRule rule, uint8_t numClasses)
{
    m_rule = rule;
    m_numClasses = numClasses == 0 ? 1 : numClasses;
    m_portOffset.assign(m_graph->GetNNodes() + 1, 0);
    for (uint32_t n = 0; n < m_graph->GetNNodes(); ++n)
    {
        m_portOffset[n + 1] = m_portOffset[n] + m_graph->GetPorts(n).size();
    }
    const uint32_t total = m_portOffset.back();
    m_portKind.assign(total, PortKind::FABRIC);
    m_portDim.assign(total, 0);
    m_portWrap.assign(total, 0);
    m_layers.clear();
    if (rule == ClassRule::PATH_LAYER)
    {
        m_layers.assign(static_cast<size_t>(m_graph->GetNSwitches()) * m_nHosts, 0);
    }
    for (uint32_t n = 0; n < m_graph->GetNNodes(); ++n)
    {
        const auto& ports = m_graph->GetPorts(n);
        for (uint32_t p = 0; p < ports.size(); ++p)
        {
            if (m_graph->IsHost(n) || m_graph->IsHost(ports[p].peer))
            {
                m_portKind[m_portOffset[n] + p] = PortKind::HOST;
            }
        }
    }
}

void
RouteTable::SetPathLayer(uint32_t node, uint32_t dstHostIndex, uint8_t layer)
{
    NS_ABORT_MSG_IF(m_rule != ClassRule::PATH_LAYER || m_rowOf[node] == NO_ROW,
                    "SetPathLayer: needs SetClassRule(PATH_LAYER) and a switch node");
    NS_ABORT_MSG_IF(layer >= m_numClasses,
                    "SetPathLayer: layer " << +layer << " of " << +m_numClasses);
    m_layers[static_cast<size_t>(m_rowOf[node]) * m_nHosts + dstHostIndex] = layer;
}

void
RouteTable::SetPortInfo(uint32_t node, uint32_t port, PortKind kind, uint8_t dim, bool wrap)
{
    NS_ASSERT_MSG(!m_portOffset.empty(), "SetClassRule first");
    uint32_t i = m_portOffset[node] + port;
    m_portKind[i] = kind;
    m_portDim[i] = dim;
    m_portWrap[i] = wrap ? 1 : 0;
}

void
RouteTable::Finish()
{
    for (uint32_t s : m_graph->GetSwitches())
    {
        for (uint32_t d = 0; d < m_nHosts && !m_graph->IsSwitchDown(s); ++d)
        {
            if (GetCandidates(s, d).empty())
            {
                std::ostringstream os;
                os << "routing engine '" << m_engine << "' found no route from switch " << s
                   << " to host rank " << d << " (node " << m_graph->GetHosts()[d] << ")";
                throw std::logic_error(os.str());
            }
        }
    }
    m_intern.clear();
    m_scratch = std::vector<uint32_t>();
    m_singlePort = std::vector<uint32_t>();
    const uint32_t nSets = GetNPortSets();
    if (nSets <= UINT8_MAX + 1u)
    {
        m_sets8.assign(m_sets.begin(), m_sets.end()); // (ids < nSets: no NO_SET left)
        m_setWidth = 1;
    }
    else if (nSets <= UINT16_MAX + 1u)
    {
        m_sets16.assign(m_sets.begin(), m_sets.end());
        m_setWidth = 2;
    }
    if (m_setWidth != 4)
    {
        m_sets = std::vector<uint32_t>();
    }
}

uint32_t
RouteTable::GetNPortSets() const
{
    return m_setOffset.size() - 1;
}

size_t
RouteTable::GetMemoryBytes() const
{
    return (m_sets.size() + m_pool.size() + m_setOffset.size() + m_rowOf.size() +
            m_hostSet.size()) *
               sizeof(uint32_t) +
           m_sets8.size() + m_sets16.size() * sizeof(uint16_t) + m_portKind.size() * 3 +
           m_layers.size();
}

} // namespace ns3
