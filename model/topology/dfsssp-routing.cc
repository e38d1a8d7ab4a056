/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dfsssp-routing.h"

#include "routing-engine-registry.h"

#include "ns3/directed-cycle.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DfssspRouting");

static RoutingEngineRegistration g_registration(
    "dfsssp",
    "OpenSM dfsssp: weight-balanced shortest paths, each (source, destination) on a virtual "
    "layer (SL = VL) whose channel dependencies are acyclic (Domke et al., IPDPS 2011)",
    [] { return Ptr<RoutingEngine>(Create<DfssspRouting>()); });

DfssspRouting::DfssspRouting()
    : m_maxLayers(MAX_LAYERS)
{
}

std::string
DfssspRouting::GetName() const
{
    return "dfsssp";
}

bool
DfssspRouting::Fits(const TopologyGraph& /* graph */) const
{
    return true;
}

void
DfssspRouting::SetMaxLayers(uint8_t layers)
{
    if (layers < 1 || layers > MAX_LAYERS)
    {
        throw std::invalid_argument("dfsssp: " + std::to_string(layers) +
                                    " virtual layers invalid (allowed 1.." +
                                    std::to_string(MAX_LAYERS) + ")");
    }
    m_maxLayers = layers;
}

uint8_t
DfssspRouting::GetMaxLayers() const
{
    return m_maxLayers;
}

void
DfssspRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const uint32_t nNodes = graph.GetNNodes();
    const uint32_t nHosts = graph.GetNHosts();
    const std::vector<uint32_t>& hosts = graph.GetHosts();
    const std::vector<uint32_t>& switches = graph.GetSwitches();
    // channel id of (node, port): base[node] + port
    std::vector<uint32_t> base(nNodes + 1, 0);
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        base[n + 1] = base[n] + static_cast<uint32_t>(graph.GetPorts(n).size());
    }
    const uint32_t nChannels = base[nNodes];
    std::vector<uint64_t> weight(nChannels, 1);
    // hosts attached to each switch: the sources of its paths
    std::vector<uint32_t> hostsAt(nNodes, 0);
    for (uint32_t h : hosts)
    {
        for (const auto& p : graph.GetPorts(h))
        {
            if (graph.IsLinkUp(p.link))
            {
                hostsAt[p.peer]++;
            }
        }
    }
    std::vector<uint32_t> sources;
    for (uint32_t s : switches)
    {
        if (hostsAt[s] > 0 && !graph.IsSwitchDown(s))
        {
            sources.push_back(s);
        }
    }
    for (const AttachGroup& g : GroupHostsByAttachment(graph))
    {
        SetLastHop(graph, g, table);
    }

    // ---- SSSP: one Dijkstra per destination, then the weights grow by the routes ----
    constexpr uint64_t INF = UINT64_MAX;
    std::vector<uint64_t> dist(nNodes);
    std::vector<uint32_t> next(nNodes);
    using Item = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    // paths with at least two switch-to-switch channels (shorter ones have no dependency)
    std::vector<std::pair<uint32_t, uint32_t>> paths; // (source switch, destination rank)
    std::vector<uint32_t> pathChannels;               // concatenated
    std::vector<uint32_t> pathStart{0};               // per path, into pathChannels
    for (uint32_t d = 0; d < nHosts; ++d)
    {
        std::fill(dist.begin(), dist.end(), INF);
        std::fill(next.begin(), next.end(), RouteTable::NO_PORT);
        for (const auto& p : graph.GetPorts(hosts[d]))
        {
            if (graph.IsLinkUp(p.link) && !graph.IsSwitchDown(p.peer) && dist[p.peer] != 0)
            {
                dist[p.peer] = 0;
                heap.emplace(0, p.peer);
            }
        }
        while (!heap.empty())
        {
            const auto [du, u] = heap.top();
            heap.pop();
            if (du != dist[u])
            {
                continue;
            }
            for (const auto& p : graph.GetPorts(u))
            {
                const uint32_t v = p.peer;
                if (graph.IsHost(v) || !graph.IsLinkUp(p.link) || graph.IsSwitchDown(v))
                {
                    continue;
                }
                // v reaches u over its port p.peerPort
                const uint64_t nd = du + weight[base[v] + p.peerPort];
                if (nd < dist[v])
                {
                    dist[v] = nd;
                    next[v] = p.peerPort;
                    heap.emplace(nd, v);
                }
            }
        }
        for (uint32_t s : switches)
        {
            if (dist[s] != 0 && dist[s] != INF)
            {
                table.SetRoute(s, d, table.InternSinglePort(next[s]));
            }
        }
        for (uint32_t s : sources)
        {
            if (dist[s] == 0 || dist[s] == INF)
            {
                continue; // the destination's own switch, or unreachable (Finish names it)
            }
            const size_t first = pathChannels.size();
            for (uint32_t u = s; dist[u] != 0; u = graph.GetPorts(u)[next[u]].peer)
            {
                weight[base[u] + next[u]] += hostsAt[s];
                pathChannels.push_back(base[u] + next[u]);
            }
            if (pathChannels.size() - first >= 2)
            {
                paths.emplace_back(s, d);
                pathStart.push_back(static_cast<uint32_t>(pathChannels.size()));
            }
            else
            {
                pathChannels.resize(first);
            }
        }
    }

    // ---- virtual layers: break each layer's dependency cycles at the weakest edge ----
    std::vector<uint8_t> layer(paths.size(), 0);
    std::vector<std::vector<uint32_t>> edges(nChannels);
    std::unordered_map<uint64_t, uint32_t> count; // (a << 32 | b) -> paths
    auto key = [](uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; };
    auto uses = [&](size_t p, uint64_t k) {
        for (uint32_t i = pathStart[p] + 1; i < pathStart[p + 1]; ++i)
        {
            if (key(pathChannels[i - 1], pathChannels[i]) == k)
            {
                return true;
            }
        }
        return false;
    };
    uint32_t layers = 1;
    uint32_t moves = 0;
    for (uint32_t l = 0; l < layers; ++l)
    {
        while (true)
        {
            for (auto& e : edges)
            {
                e.clear();
            }
            count.clear();
            for (size_t p = 0; p < paths.size(); ++p)
            {
                if (layer[p] != l)
                {
                    continue;
                }
                for (uint32_t i = pathStart[p] + 1; i < pathStart[p + 1]; ++i)
                {
                    const uint32_t a = pathChannels[i - 1];
                    const uint32_t b = pathChannels[i];
                    if (count[key(a, b)]++ == 0)
                    {
                        edges[a].push_back(b);
                    }
                }
            }
            const std::vector<uint32_t> cycle = FindDirectedCycle(edges);
            if (cycle.empty())
            {
                break;
            }
            if (l + 1 >= m_maxLayers)
            {
                throw std::invalid_argument(
                    "routing 'dfsssp' needs more than " + std::to_string(m_maxLayers) +
                    " virtual layers (data VLs) on this topology: layer " + std::to_string(l) +
                    " still has a channel dependency cycle of " + std::to_string(cycle.size()) +
                    " channels; allowed at most " + std::to_string(m_maxLayers) +
                    " layers (use updown, which needs one)");
            }
            uint64_t weakest = 0;
            uint32_t fewest = UINT32_MAX;
            for (size_t i = 0; i < cycle.size(); ++i)
            {
                const uint64_t k = key(cycle[i], cycle[(i + 1) % cycle.size()]);
                const uint32_t c = count[k];
                if (c < fewest)
                {
                    fewest = c;
                    weakest = k;
                }
            }
            for (size_t p = 0; p < paths.size(); ++p)
            {
                if (layer[p] == l && uses(p, weakest))
                {
                    layer[p] = static_cast<uint8_t>(l + 1);
                    moves++;
                }
            }
            layers = std::max(layers, l + 2);
        }
    }
    NS_LOG_INFO("dfsssp: " << paths.size() << " paths of 2+ channels, " << moves << " layer moves, "
                           << layers << " virtual layers");
    table.SetClassRule(RouteTable::ClassRule::PATH_LAYER, static_cast<uint8_t>(layers));
    for (size_t p = 0; p < paths.size(); ++p)
    {
        if (layer[p] != 0)
        {
            table.SetPathLayer(paths[p].first, paths[p].second, layer[p]);
        }
    }
}

} // namespace ns3
