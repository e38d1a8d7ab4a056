/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "up-down-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UpDownRouting");

static RoutingEngineRegistration g_registration(
    "updown",
    "up*/down* (Autonet, Schroeder et al. 1991): deadlock-free on any graph",
    [] { return Ptr<RoutingEngine>(Create<UpDownRouting>()); });

std::string
UpDownRouting::GetName() const
{
    return "updown";
}

bool
UpDownRouting::Fits(const TopologyGraph& /* graph */) const
{
    return true; // any connected graph
}

std::vector<uint32_t>
UpDownRouting::Levels(const TopologyGraph& graph)
{
    uint32_t top = 0;
    for (uint32_t s : graph.GetSwitches())
    {
        top = std::max(top, graph.GetTier(s));
    }
    std::vector<uint32_t> level(graph.GetNNodes(), TopologyGraph::UNREACHABLE);
    std::vector<uint32_t> queue;
    for (uint32_t s : graph.GetSwitches())
    {
        if (top > 0 ? graph.GetTier(s) == top : queue.empty())
        {
            level[s] = 0;
            queue.push_back(s);
        }
    }
    for (size_t head = 0; head < queue.size(); ++head)
    {
        uint32_t u = queue[head];
        for (const auto& p : graph.GetPorts(u))
        {
            if (level[p.peer] == TopologyGraph::UNREACHABLE && !graph.IsHost(p.peer) &&
                graph.IsLinkUp(p.link))
            {
                level[p.peer] = level[u] + 1;
                queue.push_back(p.peer);
            }
        }
    }
    return level;
}

void
UpDownRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const uint32_t n = graph.GetNNodes();
    const std::vector<uint32_t> level = Levels(graph);
    // u -> v is up iff (level, id) of v is smaller
    auto isUp = [&level](uint32_t u, uint32_t v) {
        return level[v] < level[u] || (level[v] == level[u] && v < u);
    };
    const uint32_t INF = TopologyGraph::UNREACHABLE;
    std::vector<uint32_t> dist(n);
    std::vector<uint8_t> downOnly(n);
    std::vector<uint32_t> frontier;
    std::vector<uint32_t> next;
    std::vector<uint32_t> order;
    std::vector<uint32_t> ports;
    for (const auto& grp : GroupHostsByAttachment(graph))
    {
        std::fill(dist.begin(), dist.end(), INF);
        std::fill(downOnly.begin(), downOnly.end(), 0);
        frontier.clear();
        order.clear();
        for (uint32_t s : grp.switches)
        {
            dist[s] = 0;
            downOnly[s] = 1; // the last hop to the host is down
            frontier.push_back(s);
        }
        uint32_t d = 0;
        while (!frontier.empty())
        {
            next.clear();
            for (uint32_t x : frontier)
            {
                for (const auto& p : graph.GetPorts(x))
                {
                    uint32_t q = p.peer;
                    if (graph.IsHost(q) || !graph.IsLinkUp(p.link) ||
                        (dist[q] != INF && dist[q] <= d))
                    {
                        continue;
                    }
                    // q would forward to x: legal if q -> x is up, or down onto a down-only route
                    bool up = isUp(q, x);
                    if (!up && !downOnly[x])
                    {
                        continue;
                    }
                    if (dist[q] == INF)
                    {
                        dist[q] = d + 1;
                        next.push_back(q);
                    }
                    if (!up)
                    {
                        downOnly[q] = 1;
                    }
                }
            }
            order.insert(order.end(), next.begin(), next.end());
            frontier.swap(next);
            ++d;
        }
        SetLastHop(graph, grp, table);
        for (uint32_t q : order)
        {
            const auto& qp = graph.GetPorts(q);
            ports.clear();
            for (uint32_t p = 0; p < qp.size(); ++p)
            {
                uint32_t x = qp[p].peer;
                if (graph.IsHost(x) || !graph.IsLinkUp(qp[p].link) || dist[x] + 1 != dist[q])
                {
                    continue;
                }
                bool up = isUp(q, x);
                if (downOnly[q] ? (!up && downOnly[x]) : up)
                {
                    ports.push_back(p);
                }
            }
            uint32_t set = table.InternPortSet(ports);
            for (uint32_t rank : grp.hosts)
            {
                table.SetRoute(q, rank, set);
            }
        }
    }
}

} // namespace ns3
