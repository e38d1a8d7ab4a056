/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-partition.h"

#include "ns3/topology-graph.h"

#ifdef AI_FABRIC_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>
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
    return {"group", "block"};
}

namespace
{
/// \return block of \p i among \p n items cut into \p parts contiguous blocks
uint32_t
BlockOf(uint64_t i, uint64_t n, uint64_t parts)
{
    return static_cast<uint32_t>(i * parts / n);
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
    std::vector<uint32_t> part(n, 0);
    if (method == "block")
    {
        if (ranks > n)
        {
            throw std::invalid_argument("rank partition 'block': " + std::to_string(ranks) +
                                        " ranks for " + std::to_string(n) +
                                        " nodes (allowed: at most one rank per node)");
        }
        for (uint32_t node = 0; node < n; ++node)
        {
            part[node] = BlockOf(node, n, ranks);
        }
        return part;
    }
    if (method != "group")
    {
        throw std::invalid_argument("rank partition method '" + method +
                                    "' is unknown (allowed: group, block)");
    }
    // The top tier joins every group: spread it; the others go with their group.
    uint32_t topTier = 0;
    for (uint32_t node = 0; node < n; ++node)
    {
        topTier = std::max(topTier, graph.GetTier(node));
    }
    std::vector<uint32_t> groups;
    std::vector<uint32_t> top;
    for (uint32_t node = 0; node < n; ++node)
    {
        if (topTier >= 2 && graph.GetTier(node) == topTier)
        {
            top.push_back(node);
        }
        else
        {
            groups.push_back(graph.GetGroup(node));
        }
    }
    std::sort(groups.begin(), groups.end());
    groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
    if (ranks > groups.size())
    {
        throw std::invalid_argument("rank partition 'group': " + std::to_string(ranks) +
                                    " ranks for " + std::to_string(groups.size()) +
                                    " groups (pods) (allowed: at most one rank per group; "
                                    "or --mpi-partition=block)");
    }
    for (uint32_t node = 0; node < n; ++node)
    {
        if (topTier >= 2 && graph.GetTier(node) == topTier)
        {
            continue;
        }
        const auto it = std::lower_bound(groups.begin(), groups.end(), graph.GetGroup(node));
        part[node] = BlockOf(it - groups.begin(), groups.size(), ranks);
    }
    for (std::size_t i = 0; i < top.size(); ++i)
    {
        part[top[i]] = BlockOf(i, top.size(), ranks);
    }
    return part;
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
