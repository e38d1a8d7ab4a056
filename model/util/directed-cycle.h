/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DIRECTED_CYCLE_H
#define DIRECTED_CYCLE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief One cycle of a directed graph given as adjacency lists (edges[u]: the
 * vertices u points to), in edge order (each vertex points to the next, the last to
 * the first); empty if the graph is acyclic. Deterministic: the first cycle an
 * iterative depth-first search meets, from vertex 0 up, following edges in order.
 * Iterative, so chains longer than the stack allows recursion are fine.
 */
std::vector<uint32_t> FindDirectedCycle(const std::vector<std::vector<uint32_t>>& edges);

} // namespace ns3

#endif // DIRECTED_CYCLE_H
