/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "directed-cycle.h"

#include <algorithm>

namespace ns3
{

std::vector<uint32_t>
FindDirectedCycle(const std::vector<std::vector<uint32_t>>& edges)
{
    // Colours: 0 unseen, 1 on the current path, 2 finished. An edge to a vertex on
    // the path closes a cycle: the path from that vertex on.
    const auto n = static_cast<uint32_t>(edges.size());
    std::vector<uint8_t> colour(n, 0);
    std::vector<uint32_t> path;
    std::vector<uint32_t> nextEdge; // per path entry: the next of its edges to follow
    for (uint32_t root = 0; root < n; ++root)
    {
        if (colour[root] != 0)
        {
            continue;
        }
        path.assign(1, root);
        nextEdge.assign(1, 0);
        colour[root] = 1;
        while (!path.empty())
        {
            const uint32_t u = path.back();
            if (nextEdge.back() == edges[u].size())
            {
                colour[u] = 2;
                path.pop_back();
                nextEdge.pop_back();
                continue;
            }
            const uint32_t v = edges[u][nextEdge.back()++];
            if (colour[v] == 1)
            {
                return {std::find(path.begin(), path.end(), v), path.end()};
            }
            if (colour[v] == 0)
            {
                colour[v] = 1;
                path.push_back(v);
                nextEdge.push_back(0);
            }
        }
    }
    return {};
}

} // namespace ns3
