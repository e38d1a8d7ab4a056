/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_TREE_H
#define NCCL_TREE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The trees of NCCL's tree algorithm (doc/collectives.md, "The tree on GPU
 * servers"): a double binary tree over the servers (ncclGetDtree, src/graph/trees.cc),
 * and inside each server a chain of its GPUs.
 *
 * Ranks are numbered as hosts: rank = server x G + local GPU, and local GPU j owns NIC
 * j (its rail). Tree channel k (NCCL's search channel k / 2) uses NIC h = (k / 2) mod G:
 * NCCL's tree search on Hopper with NVSwitches (src/graph/search.cc, pattern TREE) starts
 * search channel j at NET j mod nNets, enters at that NIC's local GPU h and runs
 * through the next GPUs, h, h+1, ..., h-1: the chain. ncclTopoPreset (src/graph/connect.cc)
 * links the chain (GPU h+i's parent is GPU h+i-1) and connectTrees joins the chain heads:
 * GPU h of a server has as parent GPU h of its parent server and as children GPU h+1 and
 * GPU h of its child servers, so every edge between servers stays on rail h. NCCL gives
 * search channel j tree 0 on channel j and tree 1 on channel j + nChannels; here they are
 * channels 2j (tree 0) and 2j + 1 (tree 1).
 *
 * Applies when the ranks are >= 2 whole servers of G >= 2 GPUs (RailRingOrder's rule);
 * otherwise every rank is its own server (G = 1): the double binary tree over all ranks.
 */
class NcclTree
{
  public:
    /// No rank or node (a root's parent).
    static constexpr uint32_t NONE = UINT32_MAX;

    /// A tree over communicator ranks.
    struct RankTree
    {
        uint32_t root{NONE};                         //!< the rank without parent
        std::vector<uint32_t> parent;                //!< per rank, NONE at the root
        std::vector<std::vector<uint32_t>> children; //!< per rank, in NCCL's down[] order
        uint32_t depth{0};                           //!< edges from the deepest rank to the root
    };

    /**
     * \param ranks communicator ranks N
     * \param gpusPerServer G (0 or 1: one-NIC hosts, the tree over all ranks)
     */
    NcclTree(uint32_t ranks, uint32_t gpusPerServer);

    /// \return true if the ranks are >= 2 whole servers of >= 2 GPUs (chains in servers)
    bool IsServerTree() const;
    /// \return the nodes of the double binary tree: N / G servers, or N ranks
    uint32_t GetNNodes() const;
    /// \return G (1 when not IsServerTree)
    uint32_t GetGpusPerNode() const;

    /**
     * \param channel a tree channel
     * \return the binary tree (0 or 1) of the double binary tree \p channel carries
     */
    static uint32_t GetTreeIndex(uint32_t channel);

    /**
     * \param channel a tree channel
     * \return the local GPU whose NIC \p channel uses: the head of its chain in every
     * server, (channel / 2) mod G (0 when not IsServerTree)
     */
    uint32_t GetHeadGpu(uint32_t channel) const;

    /**
     * \param channel a tree channel
     * \return the local GPUs of \p channel's chain, head first (h, h+1, ..., h-1)
     */
    std::vector<uint32_t> GetChain(uint32_t channel) const;

    /**
     * \param channel a tree channel
     * \return \p channel's tree over the ranks: tree GetTreeIndex(channel) of the double
     * binary tree over the nodes, each node expanded into its chain from GetHeadGpu
     */
    RankTree GetTree(uint32_t channel) const;

    /**
     * NCCL's double binary tree over \p nodes nodes (ncclGetDtree): tree 0 is ncclGetBtree
     * (node 0 the root with one child, the largest power of two below nodes; below it the
     * in-order tree, where p with lowest set bit 2^k has children p -+ 2^(k-1)); tree 1
     * mirrors it (node p at place nodes-1-p) for an even count, shifts it by one (node p
     * at place p-1) for an odd one.
     * \param nodes the node count, >= 1
     * \param tree 0 or 1
     * \param parent out: per node its parent, NONE at the root
     * \param children out: per node its children, NCCL's down0 before down1
     */
    static void GetNodeTree(uint32_t nodes,
                            uint32_t tree,
                            std::vector<uint32_t>& parent,
                            std::vector<std::vector<uint32_t>>& children);

  private:
    uint32_t m_ranks; //!< N
    uint32_t m_gpus;  //!< G (1 when not a server tree)
    uint32_t m_nodes; //!< N / G
};

} // namespace ns3

#endif // NCCL_TREE_H
