/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-tree.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NcclTree");

NcclTree::NcclTree(uint32_t ranks, uint32_t gpusPerServer)
    : m_ranks(ranks),
      m_gpus(1),
      m_nodes(ranks)
{
    if (gpusPerServer >= 2 && ranks % gpusPerServer == 0 && ranks / gpusPerServer >= 2)
    {
        m_gpus = gpusPerServer;
        m_nodes = ranks / gpusPerServer;
    }
    NS_LOG_FUNCTION(this << ranks << gpusPerServer << m_nodes);
}

bool
NcclTree::IsServerTree() const
{
    return m_gpus > 1;
}

uint32_t
NcclTree::GetNNodes() const
{
    return m_nodes;
}

uint32_t
NcclTree::GetGpusPerNode() const
{
    return m_gpus;
}

uint32_t
NcclTree::GetTreeIndex(uint32_t channel)
{
    return channel % 2;
}

uint32_t
NcclTree::GetHeadGpu(uint32_t channel) const
{
    return (channel / 2) % m_gpus;
}

std::vector<uint32_t>
NcclTree::GetChain(uint32_t channel) const
{
    const uint32_t head = GetHeadGpu(channel);
    std::vector<uint32_t> chain;
    chain.reserve(m_gpus);
    for (uint32_t i = 0; i < m_gpus; ++i)
    {
        chain.push_back((head + i) % m_gpus);
    }
    return chain;
}

void
NcclTree::GetNodeTree(uint32_t nodes,
                      uint32_t tree,
                      std::vector<uint32_t>& parent,
                      std::vector<std::vector<uint32_t>>& children)
{
    NS_ASSERT(nodes >= 1 && tree < 2);
    // ncclGetBtree on places 0..nodes-1: place p with lowest set bit b has parent
    // (p ^ b) | 2b, or p ^ b when that is out of range; the children of a place are
    // then its down0 (p - b/2) and down1 (p + b/2, lowered while out of range), in
    // ascending order.
    std::vector<uint32_t> placeParent(nodes, NONE);
    std::vector<std::vector<uint32_t>> placeKids(nodes);
    for (uint32_t p = 1; p < nodes; ++p)
    {
        const uint32_t bit = p & (~p + 1);
        const uint64_t up = (p ^ bit) | (static_cast<uint64_t>(bit) << 1);
        placeParent[p] = up < nodes ? static_cast<uint32_t>(up) : p ^ bit;
        placeKids[placeParent[p]].push_back(p);
    }
    // node at each place: tree 0 the identity; tree 1 mirrors (even) or shifts (odd)
    std::vector<uint32_t> nodeAt(nodes);
    for (uint32_t r = 0; r < nodes; ++r)
    {
        uint32_t p = r;
        if (tree == 1)
        {
            p = (nodes % 2 == 0) ? nodes - 1 - r : (r + nodes - 1) % nodes;
        }
        nodeAt[p] = r;
    }
    parent.assign(nodes, NONE);
    children.assign(nodes, {});
    for (uint32_t p = 0; p < nodes; ++p)
    {
        const uint32_t r = nodeAt[p];
        if (placeParent[p] != NONE)
        {
            parent[r] = nodeAt[placeParent[p]];
        }
        for (uint32_t k : placeKids[p])
        {
            children[r].push_back(nodeAt[k]);
        }
    }
}

NcclTree::RankTree
NcclTree::GetTree(uint32_t channel) const
{
    std::vector<uint32_t> nodeParent;
    std::vector<std::vector<uint32_t>> nodeKids;
    GetNodeTree(m_nodes, GetTreeIndex(channel), nodeParent, nodeKids);
    const std::vector<uint32_t> chain = GetChain(channel);
    RankTree t;
    t.parent.assign(m_ranks, NONE);
    t.children.assign(m_ranks, {});
    for (uint32_t s = 0; s < m_nodes; ++s)
    {
        const uint32_t head = s * m_gpus + chain[0];
        // ncclTopoPreset: the chain, each GPU's parent its predecessor (down[0] first) ...
        for (uint32_t i = 1; i < m_gpus; ++i)
        {
            const uint32_t r = s * m_gpus + chain[i];
            const uint32_t up = s * m_gpus + chain[i - 1];
            t.parent[r] = up;
            t.children[up].push_back(r);
        }
        // ... connectTrees: the head's parent is the parent server's head, and the child
        // servers' heads follow the chain in its down[]
        if (nodeParent[s] == NONE)
        {
            t.root = head;
        }
        else
        {
            t.parent[head] = nodeParent[s] * m_gpus + chain[0];
        }
        for (uint32_t k : nodeKids[s])
        {
            t.children[head].push_back(k * m_gpus + chain[0]);
        }
    }
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        uint32_t d = 0;
        for (uint32_t q = r; t.parent[q] != NONE; q = t.parent[q])
        {
            ++d;
        }
        t.depth = std::max(t.depth, d);
    }
    return t;
}

} // namespace ns3
