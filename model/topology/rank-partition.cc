/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-partition.h"

#include "ns3/topology-graph.h"

#ifdef AI_FABRIC_MPI
#include "ns3/mpi-interface.h"
#endif
#ifdef AI_FABRIC_METIS
#include <metis.h>
#endif

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace ns3
{

uint32_t
RankPartition::GetLocalRank()
{
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled())
    {
        return MpiInterface::GetSystemId();
    }
#endif
    return 0;
}

uint32_t
RankPartition::GetNRanks()
{
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled())
    {
        return MpiInterface::GetSize();
    }
#endif
    return 1;
}

std::vector<std::string>
RankPartition::GetMethods()
{
    return {"group", "block", "graph"};
}

bool
RankPartition::HasGraphPartitioner()
{
#ifdef AI_FABRIC_METIS
    return true;
#else
    return false;
#endif
}

namespace
{

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();

/// \return block of \p i among \p n items cut into \p parts contiguous blocks
uint32_t
BlockOf(uint64_t i, uint64_t n, uint64_t parts)
{
    return static_cast<uint32_t>(i * parts / n);
}

/// \return true if \p graph's hosts are the GPUs of servers with a scale-up crossbar each
bool
HasServers(const TopologyGraph& graph)
{
    const TopologyGraph::Shape& s = graph.GetShape();
    return s.gpusPerServer > 1 && s.servers > 0 &&
           static_cast<uint64_t>(s.servers) * s.gpusPerServer == graph.GetNHosts();
}

/// \return the highest tier of a fabric switch (scale-up crossbars left out)
uint32_t
TopTier(const TopologyGraph& graph)
{
    uint32_t top = 0;
    for (uint32_t sw : graph.GetSwitches())
    {
        if (!graph.IsScaleUpSwitch(sw))
        {
            top = std::max(top, graph.GetTier(sw));
        }
    }
    return top;
}

/// \return true for a switch "group" spreads over the ranks by index: the top tier of
/// a tiered fabric (it joins every group) and a rail fabric's leaves (each joins one
/// GPU of every server)
bool
IsSpread(const TopologyGraph& graph, uint32_t topTier, uint32_t node)
{
    if (graph.IsHost(node) || graph.IsScaleUpSwitch(node))
    {
        return false;
    }
    return graph.GetShape().spreadsAllSwitches || (topTier >= 1 && graph.GetTier(node) == topTier);
}

/// "group" on a graph with groups (TopologyGraph::GetGroup) or servers
std::vector<uint32_t>
GroupPartition(const TopologyGraph& graph, uint32_t ranks)
{
    const uint32_t n = graph.GetNNodes();
    const uint32_t topTier = TopTier(graph);
    const bool servers = HasServers(graph);
    const TopologyGraph::Shape& shape = graph.GetShape();
    std::vector<uint32_t> part(n, NONE);

    // Spread switches: per tier, by index in node order.
    std::map<uint32_t, std::vector<uint32_t>> spread; // tier -> switches
    for (uint32_t sw : graph.GetSwitches())
    {
        if (IsSpread(graph, topTier, sw))
        {
            spread[graph.GetTier(sw)].push_back(sw);
        }
    }
    for (const auto& [tier, nodes] : spread)
    {
        for (std::size_t i = 0; i < nodes.size(); ++i)
        {
            part[nodes[i]] = BlockOf(i, nodes.size(), ranks);
        }
    }

    // The groups of the other nodes, in ascending order.
    std::vector<uint32_t> groups;
    for (uint32_t node = 0; node < n; ++node)
    {
        if (part[node] == NONE && !graph.IsScaleUpSwitch(node))
        {
            groups.push_back(graph.GetGroup(node));
        }
    }
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    auto groupIndex = [&groups](uint32_t group) {
        return std::lower_bound(groups.begin(), groups.end(), group) - groups.begin();
    };

    if (!servers)
    {
        if (ranks > groups.size())
        {
            throw std::invalid_argument("rank partition 'group': " + std::to_string(ranks) +
                                        " ranks for " + std::to_string(groups.size()) +
                                        " groups (pods) (allowed: at most one rank per group; "
                                        "or --mpi-partition=block or graph)");
        }
        for (uint32_t node = 0; node < n; ++node)
        {
            if (part[node] == NONE)
            {
                part[node] = BlockOf(groupIndex(graph.GetGroup(node)), groups.size(), ranks);
            }
        }
        return part;
    }

    // Servers whole (GPUs and crossbar), in contiguous blocks of equal server count.
    if (ranks > shape.servers)
    {
        throw std::invalid_argument(
            "rank partition 'group': " + std::to_string(ranks) + " ranks for " +
            std::to_string(shape.servers) +
            " servers (allowed: at most one rank per server, a server's GPUs and scale-up "
            "crossbar staying on one rank; or --mpi-partition=block or graph)");
    }
    const uint32_t gpus = shape.gpusPerServer;
    // GPUs of each group on each rank: a group's switches go where most of them are.
    std::vector<std::vector<uint32_t>> gpusOn(groups.size(), std::vector<uint32_t>(ranks, 0));
    for (uint32_t s = 0; s < shape.servers; ++s)
    {
        const uint32_t rank = BlockOf(s, shape.servers, ranks);
        part[shape.firstScaleUpSwitch + s] = rank;
        for (uint32_t j = 0; j < gpus; ++j)
        {
            const uint32_t host = graph.GetHosts()[s * gpus + j];
            part[host] = rank;
            gpusOn[groupIndex(graph.GetGroup(host))][rank]++;
        }
    }
    for (uint32_t node = 0; node < n; ++node)
    {
        if (part[node] != NONE)
        {
            continue;
        }
        const std::vector<uint32_t>& on = gpusOn[groupIndex(graph.GetGroup(node))];
        const auto most = std::max_element(on.begin(), on.end()); // the lowest rank on a tie
        part[node] = *most > 0 ? static_cast<uint32_t>(most - on.begin())
                               : BlockOf(groupIndex(graph.GetGroup(node)), groups.size(), ranks);
    }
    return part;
}

/// "graph": METIS on the switches, hosts merged into theirs
std::vector<uint32_t>
GraphPartition(const TopologyGraph& graph, uint32_t ranks, const std::string& method)
{
    const uint32_t n = graph.GetNNodes();
    if (ranks == 1)
    {
        return std::vector<uint32_t>(n, 0);
    }
    const std::vector<uint32_t>& switches = graph.GetSwitches();
    const uint32_t units = switches.size();
    if (ranks > units)
    {
        throw std::invalid_argument("rank partition '" + method + "': " + std::to_string(ranks) +
                                    " ranks for " + std::to_string(units) +
                                    " switches (allowed: at most one rank per switch, its "
                                    "hosts with it; or --mpi-partition=block)");
    }
#ifndef AI_FABRIC_METIS
    throw std::invalid_argument(
        "rank partition '" + method +
        "' needs METIS, which only a build with -DAI_FABRIC_MPI=ON links (libmetis-dev); "
        "allowed in this build: block" +
        (graph.GetShape().hasGroups ? std::string(", group") : std::string()));
#else
    // A unit per switch; a host joins the switch of its first cable.
    std::vector<uint32_t> unitOf(n, NONE);
    for (uint32_t u = 0; u < units; ++u)
    {
        unitOf[switches[u]] = u;
    }
    std::vector<idx_t> vwgt(units, 1);
    for (uint32_t host : graph.GetHosts())
    {
        const auto& ports = graph.GetPorts(host);
        if (ports.empty() || graph.IsHost(ports[0].peer))
        {
            throw std::invalid_argument("rank partition '" + method + "': host node " +
                                        std::to_string(host) +
                                        " hangs from no switch (allowed: hosts cabled to a "
                                        "switch)");
        }
        unitOf[host] = unitOf[ports[0].peer];
        vwgt[unitOf[host]]++;
    }
    std::vector<uint32_t> part(n, 0);
    // Cable weight: the longest delay over this cable's (so a cable 8x shorter than the
    // longest counts as 8), at most 1024.
    int64_t longest = 0;
    for (uint32_t l = 0; l < graph.GetNLinks(); ++l)
    {
        longest = std::max(longest, graph.GetLink(l).delay.GetTimeStep());
    }
    std::vector<std::map<uint32_t, idx_t>> adj(units);
    for (uint32_t l = 0; l < graph.GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = graph.GetLink(l);
        const uint32_t a = unitOf[link.a];
        const uint32_t b = unitOf[link.b];
        if (a == b)
        {
            continue;
        }
        const int64_t d = link.delay.GetTimeStep();
        const int64_t w = d <= 0 ? 1024 : std::clamp<int64_t>((longest + d / 2) / d, 1, 1024);
        adj[a][b] += static_cast<idx_t>(w);
        adj[b][a] += static_cast<idx_t>(w);
    }
    std::vector<idx_t> xadj{0};
    std::vector<idx_t> adjncy;
    std::vector<idx_t> adjwgt;
    for (const auto& row : adj)
    {
        for (const auto& [peer, w] : row)
        {
            adjncy.push_back(static_cast<idx_t>(peer));
            adjwgt.push_back(w);
        }
        xadj.push_back(static_cast<idx_t>(adjncy.size()));
    }
    idx_t nvtxs = static_cast<idx_t>(units);
    idx_t ncon = 1;
    idx_t nparts = static_cast<idx_t>(ranks);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;      // METIS's own generator: the same result every run
    options[METIS_OPTION_NUMBERING] = 0; // C numbering
    options[METIS_OPTION_CONTIG] = 0;
    // METIS's default imbalance for k-way, 1.03 (ufactor 30), made explicit.
    options[METIS_OPTION_UFACTOR] = 30;
    // METIS's two methods: k-way (multilevel k-way refinement) and recursive bisection;
    // of those that leave no rank empty (k-way may, on a few heavy vertices), the one
    // whose largest rank has the fewest nodes, then the smaller weighted cut, then k-way.
    using Method = int (*)(idx_t*,
                           idx_t*,
                           idx_t*,
                           idx_t*,
                           idx_t*,
                           idx_t*,
                           idx_t*,
                           idx_t*,
                           real_t*,
                           real_t*,
                           idx_t*,
                           idx_t*,
                           idx_t*);
    const std::pair<const char*, Method> methods[] = {
        {"METIS_PartGraphKway", METIS_PartGraphKway},
        {"METIS_PartGraphRecursive", METIS_PartGraphRecursive}};
    idx_t bestCut = -1;
    idx_t bestLargest = 0;
    for (const auto& [name, partGraph] : methods)
    {
        idx_t cut = 0;
        std::vector<idx_t> unitPart(units, 0);
        const int rc = partGraph(&nvtxs,
                                 &ncon,
                                 xadj.data(),
                                 adjncy.empty() ? nullptr : adjncy.data(),
                                 vwgt.data(),
                                 nullptr,
                                 adjncy.empty() ? nullptr : adjwgt.data(),
                                 &nparts,
                                 nullptr,
                                 nullptr,
                                 options,
                                 &cut,
                                 unitPart.data());
        if (rc != METIS_OK)
        {
            throw std::invalid_argument("rank partition '" + method + "': " + name +
                                        " failed (status " + std::to_string(rc) + ") on " +
                                        std::to_string(units) + " switches and " +
                                        std::to_string(ranks) + " ranks");
        }
        // Ranks numbered in the order of their first node, so the numbering is canonical.
        std::vector<uint32_t> rankOf(ranks, NONE);
        std::vector<uint32_t> candidate(n, 0);
        uint32_t next = 0;
        for (uint32_t node = 0; node < n; ++node)
        {
            const uint32_t p = static_cast<uint32_t>(unitPart[unitOf[node]]);
            if (rankOf[p] == NONE)
            {
                rankOf[p] = next++;
            }
            candidate[node] = rankOf[p];
        }
        std::vector<idx_t> weight(ranks, 0);
        for (uint32_t u = 0; u < units; ++u)
        {
            weight[unitPart[u]] += vwgt[u];
        }
        const idx_t largest = *std::max_element(weight.begin(), weight.end());
        if (next == ranks &&
            (bestCut < 0 || largest < bestLargest || (largest == bestLargest && cut < bestCut)))
        {
            bestCut = cut;
            bestLargest = largest;
            part = std::move(candidate);
        }
    }
    if (bestCut < 0)
    {
        throw std::invalid_argument("rank partition '" + method + "': METIS left a rank empty " +
                                    "on " + std::to_string(units) + " switches and " +
                                    std::to_string(ranks) + " ranks (use fewer ranks)");
    }
    return part;
#endif
}

/// The partition methods (--mpi-partition)
enum class Method
{
    GROUP, //!< the topology's groups whole (servers, pods, leaves, ...)
    BLOCK, //!< node ids in contiguous blocks
    GRAPH, //!< METIS on the switches
};

/// \return the method named \p method (GROUP for an unknown name when \p known is null)
/// \param known set to whether the name is one of the methods
Method
MethodNamed(const std::string& method, bool* known)
{
    static const std::pair<const char*, Method> methods[] = {{"group", Method::GROUP},
                                                             {"block", Method::BLOCK},
                                                             {"graph", Method::GRAPH}};
    for (const auto& [name, m] : methods)
    {
        if (method == name)
        {
            *known = true;
            return m;
        }
    }
    *known = false;
    return Method::GROUP;
}

} // namespace

std::vector<uint32_t>
RankPartition::Partition(const TopologyGraph& graph, uint32_t ranks, const std::string& method)
{
    const uint32_t n = graph.GetNNodes();
    if (ranks == 0)
    {
        throw std::invalid_argument("rank partition: 0 ranks (allowed: 1 or more)");
    }
    bool known = false;
    const Method m = MethodNamed(method, &known);
    if (!known)
    {
        throw std::invalid_argument("rank partition method '" + method +
                                    "' is unknown (allowed: group, block, graph)");
    }
    if (m == Method::BLOCK)
    {
        if (ranks > n)
        {
            throw std::invalid_argument("rank partition 'block': " + std::to_string(ranks) +
                                        " ranks for " + std::to_string(n) +
                                        " nodes (allowed: at most one rank per node)");
        }
        std::vector<uint32_t> part(n, 0);
        for (uint32_t node = 0; node < n; ++node)
        {
            part[node] = BlockOf(node, n, ranks);
        }
        return part;
    }
    if (m == Method::GRAPH || !graph.GetShape().hasGroups)
    {
        return GraphPartition(graph, ranks, method);
    }
    return GroupPartition(graph, ranks);
}

std::string
RankPartition::Describe(const TopologyGraph& graph, const std::string& method)
{
    const std::string graphText = "METIS on the switches, each host with its switch: "
                                  "balanced nodes, fewest cables cut (short ones last)";
    bool known = false;
    const Method m = MethodNamed(method, &known); // (an unknown name: group's text)
    if (m == Method::BLOCK)
    {
        return "node ids in contiguous blocks";
    }
    if (m == Method::GRAPH)
    {
        return graphText;
    }
    const TopologyGraph::Shape& s = graph.GetShape();
    if (!s.hasGroups)
    {
        return "a topology file has no groups: " + graphText;
    }
    // what the family keeps whole and what it spreads (its helper says)
    const std::string& grouped = s.partitionGroups;
    const std::string spread =
        s.partitionSpread.empty() && TopTier(graph) >= 1 ? "the top tier" : s.partitionSpread;
    std::string text;
    if (HasServers(graph))
    {
        text = "servers (GPUs and scale-up crossbar) whole in contiguous blocks";
        if (!grouped.empty())
        {
            text += ", " + grouped + " with the rank of most of their GPUs";
        }
    }
    else
    {
        text = grouped + " with their hosts in contiguous blocks";
    }
    if (!spread.empty())
    {
        text += ", " + spread + " spread by index";
    }
    return text;
}

RankPartition::Stats
RankPartition::GetStats(const TopologyGraph& graph, const std::vector<uint32_t>& partition)
{
    Stats s;
    uint32_t ranks = 0;
    for (uint32_t r : partition)
    {
        ranks = std::max(ranks, r + 1);
    }
    s.nodes.assign(ranks, 0);
    s.hosts.assign(ranks, 0);
    s.remoteCables.assign(ranks, 0);
    for (uint32_t node = 0; node < partition.size(); ++node)
    {
        s.nodes[partition[node]]++;
        if (graph.IsHost(node))
        {
            s.hosts[partition[node]]++;
        }
    }
    for (uint32_t l = 0; l < graph.GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = graph.GetLink(l);
        const uint32_t a = partition[link.a];
        const uint32_t b = partition[link.b];
        if (a != b)
        {
            s.cutCables++;
            s.remoteCables[a]++;
            s.remoteCables[b]++;
            const int64_t d = link.delay.GetTimeStep();
            s.minCutDelayTicks = s.minCutDelayTicks < 0 ? d : std::min(s.minCutDelayTicks, d);
        }
    }
    return s;
}

} // namespace ns3
