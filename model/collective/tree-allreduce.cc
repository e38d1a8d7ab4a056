/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tree-allreduce.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"

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
    static TypeId tid = TypeId("ns3::TreeAllreduce")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<TreeAllreduce>();
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

/// In-order binary tree on positions 1..n: parent[p] (0 = root) and children.
void
BuildInOrderTree(uint32_t n,
                 std::vector<uint32_t>& parent,
                 std::vector<std::vector<uint32_t>>& kids)
{
    parent.assign(n + 1, 0);
    kids.assign(n + 1, {});
    for (uint32_t p = 1; p <= n; ++p)
    {
        uint32_t low = p & (~p + 1);
        if (low == 1)
        {
            continue; // odd positions are leaves
        }
        kids[p].push_back(p - low / 2);
        // right child: the largest p + 2^j <= n with 2^j < low (covers (p, min(p+low-1, n)])
        for (uint32_t step = low / 2; step >= 1; step /= 2)
        {
            if (p + step <= n)
            {
                kids[p].push_back(p + step);
                break;
            }
        }
    }
    for (uint32_t p = 1; p <= n; ++p)
    {
        for (uint32_t k : kids[p])
        {
            parent[k] = p;
        }
    }
}

} // namespace

void
TreeAllreduce::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t c = ChunksFor(GetBytes() / 2);
    SetNUnits(2 * c); // unit = tree * c + chunk
    if (n < 2)
    {
        return;
    }
    std::vector<uint32_t> parent;
    std::vector<std::vector<uint32_t>> kids;
    BuildInOrderTree(n, parent, kids);
    for (uint32_t tree = 0; tree < 2; ++tree)
    {
        // rank of position p in this tree
        std::vector<uint32_t> rankOf(n + 1);
        for (uint32_t r = 0; r < n; ++r)
        {
            uint32_t p = r + 1;
            if (tree == 1)
            {
                // mirror for even n makes A's leaves (odd p) B's inner nodes; a shift
                // does it for odd n
                p = (n % 2 == 0) ? n + 1 - p : p % n + 1;
            }
            rankOf[p] = r;
        }
        // order nodes leaves-first (post-order) so children's sends exist before parents'
        std::vector<uint32_t> order;
        std::vector<uint32_t> stack;
        uint32_t root = 0;
        for (uint32_t p = 1; p <= n; ++p)
        {
            if (parent[p] == 0)
            {
                root = p;
            }
        }
        stack.push_back(root);
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
        std::vector<uint32_t> upFrom(static_cast<size_t>(n + 1) * c); // p -> parent
        std::vector<uint32_t> downTo(static_cast<size_t>(n + 1) * c); // parent -> p
        std::vector<uint32_t> deps;
        for (uint32_t ch = 0; ch < c; ++ch)
        {
            uint32_t u = tree * c + ch;
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
