/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TREE_ALLREDUCE_H
#define TREE_ALLREDUCE_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NCCL-style double binary tree allreduce (Sanders, Speck and Traeff 2009).
 *
 * Two binary trees each carry half of the data, built as NCCL builds them
 * (ncclGetDtree, src/graph/trees.cc): tree A puts rank r at position r of NCCL's
 * binary tree (position 0 the root with one child, the largest power of two below
 * N; below it the in-order tree, p with lowest set bit 2^k having children
 * p -+ 2^(k-1)), so its leaves are the odd ranks; tree B mirrors it (even N) or
 * shifts it by one (odd N), so most leaves of A are inner nodes of B and every rank sends and
 * receives about S in each direction. Each half is cut into chunks (ChunkBytes);
 * a node reduces chunk c from its children and sends it up, the root turns it
 * around, and each node forwards it down once it arrived from its parent, while
 * later chunks still go up: both trees, up and down, run at once, as NCCL's
 * ncclPatternTreeUpDown does. Pipelined time ~ 2 S/B + 2 depth x (alpha + chunk/B).
 *
 * AdaptChunk (default on) shrinks the chunk for deep trees as NCCL up to 2.19 did.
 *
 * Channels: the data is cut into max(Channels, 2) slices; slice k runs on tree
 * k % 2 over channel k % Channels. With NCCL's even channel counts each channel
 * carries one tree, as NCCL's connectTrees gives channel c tree 0 and channel
 * c + nChannels tree 1 (src/graph/connect.cc).
 *
 * On GPU servers (GpusPerServer G >= 2 dividing the ranks into >= 2 servers) the
 * double binary tree spans the servers and each server runs a chain of its G GPUs from
 * the GPU whose NIC the channel uses, as NCCL builds its trees (NcclTree); elsewhere
 * every rank is a node of the double binary tree.
 */
class TreeAllreduce : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;
    /// The chunk size the last Setup used (ChunkBytes after AdaptChunk).
    uint32_t GetChunkBytes() const;

  protected:
    void BuildSchedule() override;
    bool BuildsChannels() const override;

  private:
    bool m_adaptChunk{true};     //!< attribute AdaptChunk
    uint32_t m_gpusPerServer{0}; //!< attribute GpusPerServer, 0 = one-NIC hosts
    uint32_t m_chunk{0};         //!< chunk size of the last Setup
};

} // namespace ns3

#endif // TREE_ALLREDUCE_H
