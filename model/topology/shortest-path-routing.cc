/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shortest-path-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ShortestPathRouting");

static RoutingEngineRegistration g_registration("ecmp", "ECMP over all shortest paths", [] {
    return Ptr<RoutingEngine>(Create<ShortestPathRouting>());
});

std::string
ShortestPathRouting::GetName() const
{
    return "ecmp";
}

bool
ShortestPathRouting::Fits(const TopologyGraph& /* graph */) const
{
    return true;
}

void
ShortestPathRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const uint32_t n = graph.GetNNodes();
    std::vector<uint32_t> dist(n);
    std::vector<uint32_t> queue;
    std::vector<uint32_t> ports;
    queue.reserve(n);
    for (const auto& grp : GroupHostsByAttachment(graph))
    {
        std::fill(dist.begin(), dist.end(), TopologyGraph::UNREACHABLE);
        queue.clear();
        for (uint32_t s : grp.switches)
        {
            dist[s] = 0;
            queue.push_back(s);
        }
        for (size_t head = 0; head < queue.size(); ++head)
        {
            uint32_t u = queue[head];
            for (const auto& p : graph.GetPorts(u))
            {
                if (dist[p.peer] == TopologyGraph::UNREACHABLE && !graph.IsHost(p.peer) &&
                    graph.IsLinkUp(p.link))
                {
                    dist[p.peer] = dist[u] + 1;
                    queue.push_back(p.peer);
                }
            }
        }
        SetLastHop(graph, grp, table);
        // queue holds the reached switches in BFS order; skip the attachment ones
        for (size_t i = grp.switches.size(); i < queue.size(); ++i)
        {
            uint32_t s = queue[i];
            const auto& sp = graph.GetPorts(s);
            ports.clear();
            for (uint32_t p = 0; p < sp.size(); ++p)
            {
                if (dist[sp[p].peer] + 1 == dist[s] && !graph.IsHost(sp[p].peer) &&
                    graph.IsLinkUp(sp[p].link))
                {
                    ports.push_back(p);
                }
            }
            uint32_t set = table.InternPortSet(ports);
            for (uint32_t rank : grp.hosts)
            {
                table.SetRoute(s, rank, set);
            }
        }
    }
}

} // namespace ns3
