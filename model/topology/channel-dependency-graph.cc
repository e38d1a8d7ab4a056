/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "channel-dependency-graph.h"

#include "ns3/directed-cycle.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

ChannelDependencyGraph::ChannelDependencyGraph(Ptr<const TopologyGraph> graph,
                                               Ptr<const RouteTable> routes,
                                               bool useClasses)
    : m_graph(graph),
      m_routes(routes),
      m_classes(useClasses ? std::max<uint8_t>(1, routes->GetNumClasses()) : 1)
{
}

uint32_t
ChannelDependencyGraph::Index(uint32_t node, uint32_t port, uint8_t cls) const
{
    return (m_portBase[node] + port) * m_classes + cls;
}

ChannelDependencyGraph::Result
ChannelDependencyGraph::Compute(uint64_t budget)
{
    const uint32_t nNodes = m_graph->GetNNodes();
    m_portBase.assign(nNodes + 1, 0);
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        m_portBase[n + 1] = m_portBase[n] + static_cast<uint32_t>(m_graph->GetPorts(n).size());
    }
    const uint32_t nChannels = m_portBase[nNodes] * m_classes;
    m_channels.assign(nChannels, Channel{0, 0, 0});
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        for (uint32_t p = 0; p < m_graph->GetPorts(n).size(); ++p)
        {
            for (uint8_t c = 0; c < m_classes; ++c)
            {
                m_channels[Index(n, p, c)] = Channel{n, p, c};
            }
        }
    }
    // Destinations: one host per set of attachment switches and routes (hosts with the
    // same attachment switches and the same candidates, and path layers, at every switch
    // share every switch-to-switch dependency; engines that balance per destination,
    // as minhop, ftree and dfsssp do, give hosts of one switch different routes).
    // Sources: every switch a host attaches to, entered from one of its host ports in
    // class 0, or in the path's layer (ClassRule::PATH_LAYER).
    const std::vector<uint32_t>& hosts = m_graph->GetHosts();
    const std::vector<uint32_t>& switches = m_graph->GetSwitches();
    const bool layers =
        m_classes > 1 && m_routes->GetClassRule() == RouteTable::ClassRule::PATH_LAYER;
    auto sameRoutes = [&](uint32_t a, uint32_t b) {
        for (uint32_t sw : switches)
        {
            if (m_routes->GetCandidates(sw, a).ptr != m_routes->GetCandidates(sw, b).ptr ||
                (layers && m_routes->GetPathLayer(sw, a) != m_routes->GetPathLayer(sw, b)))
            {
                return false;
            }
        }
        return true;
    };
    std::map<std::vector<uint32_t>, std::vector<uint32_t>> byAttach; // attachment -> ranks
    std::vector<uint32_t> destinations;
    std::vector<std::pair<uint32_t, uint32_t>> sources; // (switch, host port)
    std::vector<uint8_t> isSource(nNodes, 0);
    for (uint32_t rank = 0; rank < hosts.size(); ++rank)
    {
        std::vector<uint32_t> attach;
        for (const auto& port : m_graph->GetPorts(hosts[rank]))
        {
            attach.push_back(port.peer);
            if (isSource[port.peer] == 0)
            {
                isSource[port.peer] = 1;
                sources.emplace_back(port.peer, port.peerPort);
            }
        }
        std::sort(attach.begin(), attach.end());
        std::vector<uint32_t>& seen = byAttach[attach];
        if (std::none_of(seen.begin(), seen.end(), [&](uint32_t r) { return sameRoutes(r, rank); }))
        {
            seen.push_back(rank);
            destinations.push_back(rank);
        }
    }
    std::vector<std::vector<uint32_t>> edges(nChannels);
    std::vector<uint32_t> stamp(nChannels, 0);
    std::vector<uint32_t> frontier;
    uint64_t work = 0;
    uint32_t round = 0;
    // Follow the packets of one destination from (node, arrival port, class); the
    // channel they arrived on depends on each channel they may leave by.
    auto expand = [&](uint32_t dst, uint32_t node, uint32_t inPort, uint8_t cls, uint32_t from) {
        const auto& ports = m_graph->GetPorts(node);
        for (uint32_t out : m_routes->GetCandidates(node, dst))
        {
            ++work;
            if (m_graph->IsHost(ports[out].peer))
            {
                continue;
            }
            const uint8_t next =
                m_classes > 1 ? m_routes->NextClass(node, inPort, out, cls) : uint8_t{0};
            const uint32_t to = Index(node, out, next);
            if (from != UINT32_MAX &&
                std::find(edges[from].begin(), edges[from].end(), to) == edges[from].end())
            {
                edges[from].push_back(to);
            }
            if (stamp[to] != round)
            {
                stamp[to] = round;
                frontier.push_back(to);
            }
        }
    };
    for (uint32_t dst : destinations)
    {
        ++round;
        frontier.clear();
        for (const auto& [sw, hostPort] : sources)
        {
            expand(dst, sw, hostPort, layers ? m_routes->GetPathLayer(sw, dst) : 0, UINT32_MAX);
        }
        while (!frontier.empty())
        {
            if (budget != 0 && work > budget)
            {
                return Result::NOT_CHECKED;
            }
            const uint32_t ch = frontier.back();
            frontier.pop_back();
            const Channel& c = m_channels[ch];
            const TopologyGraph::Port& far = m_graph->GetPorts(c.node)[c.port];
            expand(dst, far.peer, far.peerPort, c.cls, ch);
        }
    }
    m_cycle.clear();
    for (uint32_t ch : FindDirectedCycle(edges))
    {
        m_cycle.push_back(m_channels[ch]);
    }
    return m_cycle.empty() ? Result::ACYCLIC : Result::CYCLIC;
}

const std::vector<ChannelDependencyGraph::Channel>&
ChannelDependencyGraph::GetCycle() const
{
    return m_cycle;
}

std::string
ChannelDependencyGraph::DescribeCycle(uint32_t maxChannels) const
{
    std::ostringstream os;
    for (uint32_t i = 0; i < m_cycle.size(); ++i)
    {
        if (i == maxChannels)
        {
            os << "... -> ";
            break;
        }
        os << m_cycle[i].node << ":" << m_cycle[i].port << ":" << +m_cycle[i].cls << " -> ";
    }
    if (!m_cycle.empty())
    {
        os << m_cycle[0].node << ":" << m_cycle[0].port << ":" << +m_cycle[0].cls;
    }
    return os.str();
}

} // namespace ns3
