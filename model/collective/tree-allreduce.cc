/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tree-allreduce.h"

#include "nccl-tree.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TreeAllreduce");

NS_OBJECT_ENSURE_REGISTERED(TreeAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"tree",
     CollectiveOp::ALLREDUCE,
     "double binary tree (Sanders, Speck and Traeff 2009; NCCL tree)",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<TreeAllreduce>()); },
     false});

TypeId
TreeAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TreeAllreduce")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<TreeAllreduce>()
            .AddAttribute("AdaptChunk",
                          "Shrink ChunkBytes for a deep tree as NCCL up to 2.19 did for the "
                          "Simple protocol's tree (src/enqueue.cc, 'Optimize chunkSize / "
                          "nSteps'; NCCL 2.20 removed it): halve it while S / (Channels x "
                          "chunk) < 8 x depth and chunk > 128 KiB, then while < 4 x depth and "
                          "chunk > 64 KiB, then while < depth and chunk > 32 KiB, so the "
                          "pipeline has enough chunks to fill the tree; depth counts the edges "
                          "from the deepest rank to the root. Off: ChunkBytes as set (NCCL "
                          "2.30's Simple tree).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TreeAllreduce::m_adaptChunk),
                          MakeBooleanChecker())
            .AddAttribute("GpusPerServer",
                          "GPUs per server, one NIC each (ranks server * G + GPU): with G >= 2 "
                          "dividing the ranks into >= 2 servers the double binary tree spans "
                          "the servers and each server runs a chain of its GPUs from the GPU "
                          "whose NIC the channel uses, (channel / 2) mod G (NCCL's trees: "
                          "src/graph/search.cc, connect.cc, trees.cc); the scenario runner "
                          "sets it from --gpus-per-server. 0 or 1 = one-NIC hosts: the double "
                          "binary tree over all ranks.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TreeAllreduce::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

CollectiveOp
TreeAllreduce::GetOp() const
{
    return CollectiveOp::ALLREDUCE;
}

std::string
TreeAllreduce::GetName() const
{
    return "tree";
}

uint32_t
TreeAllreduce::GetChunkBytes() const
{
    return m_chunk;
}

bool
TreeAllreduce::BuildsChannels() const
{
    return true;
}

void
TreeAllreduce::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    // Slices of S / max(Channels, 2): slice k runs on channel k % Channels and carries
    // tree k % 2 (NcclTree: NCCL's channel j tree 0, its copy j + nChannels tree 1), so
    // with NCCL's even channel counts every channel carries one tree; one channel
    // carries both.
    uint32_t nCh = GetNChannels();
    uint32_t slices = std::max<uint32_t>(nCh, 2);
    const NcclTree layout(n, m_gpusPerServer);
    m_chunk = m_chunkBytes;
    if (m_adaptChunk && m_chunk > 0 && n >= 2)
    {
        // depth: edges from the deepest rank to the root (every channel's tree has it)
        const uint32_t depth = layout.GetTree(0).depth;
        uint64_t s = GetChannelBytes();
        const std::pair<uint32_t, uint64_t> rules[] = {{8, 131072}, {4, 65536}, {1, 32768}};
        for (const auto& [perDepth, floor] : rules)
        {
            while (s / (static_cast<uint64_t>(nCh) * m_chunk) < perDepth * depth && m_chunk > floor)
            {
                m_chunk /= 2;
            }
        }
    }
    uint32_t saved = m_chunkBytes;
    m_chunkBytes = m_chunk;
    uint32_t c = ChunksFor(GetChannelBytes() / slices);
    m_chunkBytes = saved;
    if (static_cast<uint64_t>(slices) * c > 0xffffffffULL)
    {
        throw std::invalid_argument("tree allreduce: " + std::to_string(slices) + " slices x " +
                                    std::to_string(c) + " chunks exceed 2^32 units");
    }
    SetNUnits(slices * c); // unit = slice * c + chunk
    if (n < 2)
    {
        return;
    }
    std::vector<uint32_t> upFrom(static_cast<size_t>(n) * c); // rank -> parent
    std::vector<uint32_t> downTo(static_cast<size_t>(n) * c); // parent -> rank
    std::vector<uint32_t> order;
    std::vector<uint32_t> stack;
    std::vector<uint32_t> deps;
    for (uint32_t slice = 0; slice < slices; ++slice)
    {
        SetBuildChannel(slice % nCh);
        const NcclTree::RankTree tree = layout.GetTree(slice);
        const uint32_t root = tree.root;
        // order ranks leaves-first (post-order) so children's sends exist before parents'
        order.clear();
        stack.assign(1, root);
        while (!stack.empty())
        {
            uint32_t p = stack.back();
            stack.pop_back();
            order.push_back(p); // pre-order; reversed below
            for (uint32_t k : tree.children[p])
            {
                stack.push_back(k);
            }
        }
        // Chunk by chunk, up then down: chunk ch goes down from the root while chunk
        // ch + 1 still goes up (its sends depend only on its own chunk's arrivals).
        for (uint32_t ch = 0; ch < c; ++ch)
        {
            uint32_t u = slice * c + ch;
            for (auto it = order.rbegin(); it != order.rend(); ++it)
            {
                uint32_t p = *it;
                if (p == root)
                {
                    continue;
                }
                deps.clear();
                for (uint32_t k : tree.children[p])
                {
                    deps.push_back(upFrom[k * c + ch]);
                }
                upFrom[p * c + ch] = AddTransfer(p, tree.parent[p], u, u + 1, true, deps);
            }
            for (uint32_t p : order)
            {
                for (uint32_t k : tree.children[p])
                {
                    deps.clear();
                    if (p == root)
                    {
                        for (uint32_t k2 : tree.children[p])
                        {
                            deps.push_back(upFrom[k2 * c + ch]);
                        }
                    }
                    else
                    {
                        deps.push_back(downTo[p * c + ch]);
                    }
                    downTo[k * c + ch] = AddTransfer(p, k, u, u + 1, false, deps);
                }
            }
        }
    }
}

} // namespace ns3
