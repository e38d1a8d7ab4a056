/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "min-hop-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MinHopRouting");

static RoutingEngineRegistration g_registration(
    "minhop",
    "OpenSM minhop: one shortest path per destination, the least-loaded port per switch",
    [] { return Ptr<RoutingEngine>(Create<MinHopRouting>()); });

std::string
MinHopRouting::GetName() const
{
    return "minhop";
}

bool
MinHopRouting::Fits(const TopologyGraph& /* graph */) const
{
    return true;
}

void
MinHopRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const uint32_t n = graph.GetNNodes();
    const uint32_t nHosts = graph.GetNHosts();
    const std::vector<AttachGroup> groups = GroupHostsByAttachment(graph);
    // hop counts from each attachment group (hosts do not transit)
    std::vector<std::vector<uint32_t>> dist(groups.size(),
                                            std::vector<uint32_t>(n, TopologyGraph::UNREACHABLE));
    std::vector<uint32_t> groupOf(nHosts, 0);
    std::vector<uint32_t> queue;
    for (uint32_t g = 0; g < groups.size(); ++g)
    {
        std::vector<uint32_t>& dg = dist[g];
        queue.clear();
        for (uint32_t s : groups[g].switches)
        {
            dg[s] = 0;
            queue.push_back(s);
        }
        for (size_t head = 0; head < queue.size(); ++head)
        {
            const uint32_t u = queue[head];
            for (const auto& p : graph.GetPorts(u))
            {
                if (dg[p.peer] == TopologyGraph::UNREACHABLE && !graph.IsHost(p.peer) &&
                    graph.IsLinkUp(p.link))
                {
                    dg[p.peer] = dg[u] + 1;
                    queue.push_back(p.peer);
                }
            }
        }
        for (uint32_t rank : groups[g].hosts)
        {
            groupOf[rank] = g;
        }
        SetLastHop(graph, groups[g], table);
    }
    std::vector<uint32_t> load;
    for (uint32_t s : graph.GetSwitches())
    {
        if (graph.IsSwitchDown(s))
        {
            continue;
        }
        const auto& sp = graph.GetPorts(s);
        load.assign(sp.size(), 0);
        // the attachment switches' own hosts load their host ports first
        for (uint32_t d = 0; d < nHosts; ++d)
        {
            if (dist[groupOf[d]][s] == 0)
            {
                for (uint32_t p : table.GetCandidates(s, d))
                {
                    ++load[p];
                }
            }
        }
        for (uint32_t d = 0; d < nHosts; ++d) // LID order
        {
            const std::vector<uint32_t>& dg = dist[groupOf[d]];
            if (dg[s] == 0 || dg[s] == TopologyGraph::UNREACHABLE)
            {
                continue; // last hop set above, or unreachable (Finish names the hole)
            }
            uint32_t best = RouteTable::NO_PORT;
            for (uint32_t p = 0; p < sp.size(); ++p)
            {
                if (dg[sp[p].peer] + 1 == dg[s] && !graph.IsHost(sp[p].peer) &&
                    graph.IsLinkUp(sp[p].link) &&
                    (best == RouteTable::NO_PORT || load[p] < load[best]))
                {
                    best = p;
                }
            }
            ++load[best];
            table.SetRoute(s, d, table.InternSinglePort(best));
        }
    }
}

} // namespace ns3
