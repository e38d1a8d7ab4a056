/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tree-allreduce.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"

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
                          "Shrink ChunkBytes for a deep tree as NCCL does for the Simple "
                          "protocol's tree (src/enqueue.cc, 'Optimize chunkSize / nSteps'): "
                          "halve it while S / (Channels x chunk) < 8 x depth and chunk > 128 "
                          "KiB, then while < 4 x depth and chunk > 64 KiB, then while < depth "
                          "and chunk > 32 KiB, so the pipeline has enough chunks to fill the "
                          "tree. Off: ChunkBytes as set.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TreeAllreduce::m_adaptChunk),
                          MakeBooleanChecker());
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

namespace
{

constexpr uint32_t NO_PARENT = UINT32_MAX;

/// NCCL's binary tree on positions 0..n-1 (ncclGetBtree, src/graph/trees.cc): position
/// 0 is the root with one child, the largest power of two below n; below it the
/// in-order tree, where p with lowest set bit 2^k has children p -+ 2^(k-1) (the right
/// one lowered while out of range) and parent (p ^ 2^k) | 2^(k+1), or p ^ 2^k when that
/// is out of range.
void
BuildNcclBtree(uint32_t n, std::vector<uint32_t>& parent, std::vector<std::vector<uint32_t>>& kids)
{
    parent.assign(n, NO_PARENT);
    kids.assign(n, {});
    for (uint32_t p = 1; p < n; ++p)
    {
        uint32_t bit = p & (~p + 1);
        uint64_t up = (p ^ bit) | (static_cast<uint64_t>(bit) << 1);
        parent[p] = up < n ? static_cast<uint32_t>(up) : p ^ bit;
        kids[parent[p]].push_back(p);
    }
}
} // namespace

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
    // Slices of S / max(Channels, 2): slice k runs on tree k % 2 and channel
    // k % Channels, so with NCCL's even channel counts channel k carries tree k % 2
    // (NCCL: channel c tree 0, channel c + nChannels tree 1); one channel carries both.
    uint32_t nCh = GetNChannels();
    uint32_t slices = std::max<uint32_t>(nCh, 2);
    std::vector<uint32_t> parent;
    std::vector<std::vector<uint32_t>> kids;
    BuildNcclBtree(n, parent, kids);
    m_chunk = m_chunkBytes;
    if (m_adaptChunk && m_chunk > 0 && n >= 2)
    {
        // depth: edges from the deepest leaf to the root (both trees have the same)
        uint32_t depth = 0;
        for (uint32_t p = 0; p < n; ++p)
        {
            uint32_t d = 0;
            for (uint32_t q = p; parent[q] != NO_PARENT; q = parent[q])
            {
                ++d;
            }
            depth = std::max(depth, d);
        }
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
    for (uint32_t slice = 0; slice < slices; ++slice)
    {
        uint32_t tree = slice % 2;
        SetBuildChannel(slice % nCh);
        // rank of position p in this tree: tree 0 puts rank r at position r; tree 1
        // mirrors it for even n and shifts it by one for odd n (ncclGetDtree), so most
        // of tree 0's leaves are tree 1's inner nodes
        std::vector<uint32_t> rankOf(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            uint32_t p = r;
            if (tree == 1)
            {
                p = (n % 2 == 0) ? n - 1 - r : (r + n - 1) % n;
            }
            rankOf[p] = r;
        }
        // order nodes leaves-first (post-order) so children's sends exist before parents'
        std::vector<uint32_t> order;
        std::vector<uint32_t> stack{0};
        const uint32_t root = 0;
        while (!stack.empty())
        {
            uint32_t p = stack.back();
            stack.pop_back();
            order.push_back(p); // pre-order; reversed below
            for (uint32_t k : kids[p])
            {
                stack.push_back(k);
            }
        }
        std::vector<uint32_t> upFrom(static_cast<size_t>(n) * c); // p -> parent
        std::vector<uint32_t> downTo(static_cast<size_t>(n) * c); // parent -> p
        std::vector<uint32_t> deps;
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
                for (uint32_t k : kids[p])
                {
                    deps.push_back(upFrom[k * c + ch]);
                }
                upFrom[p * c + ch] =
                    AddTransfer(rankOf[p], rankOf[parent[p]], u, u + 1, true, deps);
            }
            for (uint32_t p : order)
            {
                for (uint32_t k : kids[p])
                {
                    deps.clear();
                    if (p == root)
                    {
                        for (uint32_t k2 : kids[p])
                        {
                            deps.push_back(upFrom[k2 * c + ch]);
                        }
                    }
                    else
                    {
                        deps.push_back(downTo[p * c + ch]);
                    }
                    downTo[k * c + ch] = AddTransfer(rankOf[p], rankOf[k], u, u + 1, false, deps);
                }
            }
        }
    }
}

} // namespace ns3
