/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fat-tree-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FatTreeRouting");

static RoutingEngineRegistration g_registration(
    "ftree",
    "fat-tree D-mod-K (OpenSM ftree; Zahavi et al. 2010): one path per destination, shift "
    "permutations contention free on a full fat-tree; deadlock-free",
    [] { return Ptr<RoutingEngine>(Create<FatTreeRouting>()); });

std::string
FatTreeRouting::GetName() const
{
    return "ftree";
}

bool
FatTreeRouting::Fits(const TopologyGraph& graph) const
{
    if (graph.GetNSwitches() == 0)
    {
        return false;
    }
    for (uint32_t id = 0; id < graph.GetNLinks(); ++id)
    {
        const TopologyGraph::Link& l = graph.GetLink(id);
        const bool hostA = graph.IsHost(l.a);
        const bool hostB = graph.IsHost(l.b);
        if (hostA || hostB)
        {
            if (graph.GetTier(hostA ? l.b : l.a) != 0)
            {
                return false; // a host on a non-leaf switch
            }
            continue;
        }
        const uint32_t ta = graph.GetTier(l.a);
        const uint32_t tb = graph.GetTier(l.b);
        if (ta + 1 != tb && tb + 1 != ta)
        {
            return false; // a cable within a tier or skipping one
        }
    }
    return true;
}

std::vector<uint32_t>
FatTreeRouting::LeafOrder(const TopologyGraph& graph)
{
    const uint32_t nHosts = graph.GetNHosts();
    std::vector<uint32_t> index(nHosts, TopologyGraph::UNREACHABLE);
    uint32_t next = 0;
    for (uint32_t s : graph.GetSwitches())
    {
        if (graph.GetTier(s) != 0)
        {
            continue;
        }
        for (const auto& p : graph.GetPorts(s))
        {
            if (graph.IsHost(p.peer))
            {
                const uint32_t rank = graph.GetHostIndex(p.peer);
                if (index[rank] == TopologyGraph::UNREACHABLE)
                {
                    index[rank] = next++;
                }
            }
        }
    }
    for (uint32_t& i : index)
    {
        if (i == TopologyGraph::UNREACHABLE)
        {
            i = next++; // a host without a cable: last (no switch routes to it anyway)
        }
    }
    return index;
}

void
FatTreeRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const uint32_t nHosts = graph.GetNHosts();
    const auto& switches = graph.GetSwitches();
    const auto& hosts = graph.GetHosts();
    uint32_t top = 0;
    for (uint32_t s : switches)
    {
        top = std::max(top, graph.GetTier(s));
    }
    // W_t: product of the up-port counts of the tiers below t (the whole graph, failed
    // cables included, so that a failure does not renumber the spread elsewhere)
    std::vector<uint32_t> maxUp(top + 1, 1);
    for (uint32_t s : switches)
    {
        uint32_t up = 0;
        for (const auto& p : graph.GetPorts(s))
        {
            up += !graph.IsHost(p.peer) && graph.GetTier(p.peer) > graph.GetTier(s) ? 1 : 0;
        }
        maxUp[graph.GetTier(s)] = std::max(maxUp[graph.GetTier(s)], up);
    }
    std::vector<uint64_t> weight(top + 1, 1);
    for (uint32_t t = 1; t <= top; ++t)
    {
        weight[t] = std::min<uint64_t>(weight[t - 1] * maxUp[t - 1], uint64_t(1) << 40);
    }
    // row of a switch in the flat per-switch host vectors
    std::vector<uint32_t> row(graph.GetNNodes(), TopologyGraph::UNREACHABLE);
    for (uint32_t i = 0; i < switches.size(); ++i)
    {
        row[switches[i]] = i;
    }
    std::vector<uint32_t> byTier(switches.begin(), switches.end());
    std::stable_sort(byTier.begin(), byTier.end(), [&graph](uint32_t a, uint32_t b) {
        return graph.GetTier(a) < graph.GetTier(b);
    });
    // below[s][d]: d reachable from s going only down; reach[s][d]: up then down
    std::vector<uint8_t> below(static_cast<size_t>(switches.size()) * nHosts, 0);
    std::vector<uint8_t> reach;
    for (uint32_t s : byTier)
    {
        uint8_t* b = &below[static_cast<size_t>(row[s]) * nHosts];
        for (const auto& p : graph.GetPorts(s))
        {
            if (!graph.IsLinkUp(p.link))
            {
                continue;
            }
            if (graph.IsHost(p.peer))
            {
                b[graph.GetHostIndex(p.peer)] = 1;
            }
            else if (graph.GetTier(p.peer) < graph.GetTier(s))
            {
                const uint8_t* c = &below[static_cast<size_t>(row[p.peer]) * nHosts];
                for (uint32_t d = 0; d < nHosts; ++d)
                {
                    b[d] |= c[d];
                }
            }
        }
    }
    reach = below;
    for (auto it = byTier.rbegin(); it != byTier.rend(); ++it)
    {
        const uint32_t s = *it;
        uint8_t* r = &reach[static_cast<size_t>(row[s]) * nHosts];
        for (const auto& p : graph.GetPorts(s))
        {
            if (graph.IsLinkUp(p.link) && !graph.IsHost(p.peer) &&
                graph.GetTier(p.peer) > graph.GetTier(s))
            {
                const uint8_t* c = &reach[static_cast<size_t>(row[p.peer]) * nHosts];
                for (uint32_t d = 0; d < nHosts; ++d)
                {
                    r[d] |= c[d];
                }
            }
        }
    }
    const std::vector<uint32_t> leafIndex = LeafOrder(graph);
    std::vector<uint32_t> ports;
    std::vector<uint32_t> fallback;
    uint32_t fallbackFor = TopologyGraph::UNREACHABLE;
    for (uint32_t s : switches)
    {
        if (graph.IsSwitchDown(s))
        {
            continue;
        }
        const uint32_t tier = graph.GetTier(s);
        const auto& sp = graph.GetPorts(s);
        const uint8_t* b = &below[static_cast<size_t>(row[s]) * nHosts];
        for (uint32_t d = 0; d < nHosts; ++d)
        {
            ports.clear();
            const bool down = b[d] != 0;
            for (uint32_t p = 0; p < sp.size(); ++p)
            {
                const uint32_t q = sp[p].peer;
                if (!graph.IsLinkUp(sp[p].link))
                {
                    continue;
                }
                if (graph.IsHost(q))
                {
                    if (down && q == hosts[d])
                    {
                        ports.push_back(p);
                    }
                    continue;
                }
                const size_t at = static_cast<size_t>(row[q]) * nHosts + d;
                if (down ? graph.GetTier(q) < tier && below[at]
                         : graph.GetTier(q) > tier && reach[at])
                {
                    ports.push_back(p);
                }
            }
            if (ports.empty())
            {
                // No up*&#47;down* route (a failed cable cut this switch's down path and
                // its up side reaches the destination only through it): no up*&#47;down*
                // path of another switch enters here for d, so a shortest path keeps
                // the table complete without adding a dependency real traffic follows.
                if (fallbackFor != d)
                {
                    graph.Distances(hosts[d], fallback);
                    fallbackFor = d;
                }
                for (uint32_t p = 0; p < sp.size() && ports.empty(); ++p)
                {
                    if (graph.IsLinkUp(sp[p].link) &&
                        fallback[sp[p].peer] != TopologyGraph::UNREACHABLE &&
                        fallback[sp[p].peer] + 1 == fallback[s])
                    {
                        ports.push_back(p);
                    }
                }
                if (ports.empty())
                {
                    continue; // unreachable: RouteTable::Finish names the hole
                }
            }
            // ports are in port order; D-mod-K picks one
            const uint32_t pick =
                static_cast<uint32_t>((leafIndex[d] / weight[tier]) % ports.size());
            table.SetRoute(s, d, table.InternSinglePort(ports[pick]));
        }
    }
}

} // namespace ns3
