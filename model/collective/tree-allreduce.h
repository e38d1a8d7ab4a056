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
 * Two binary trees each carry half of the data; tree A is the in-order tree on
 * positions 1..N (node p with lowest set bit 2^k has children p -+ 2^(k-1)), so
 * its leaves are the odd positions; tree B mirrors it (even N) or shifts it by one
 * (odd N), so most leaves of A are inner nodes of B and every rank sends and
 * receives about S in each direction. Each half is cut into chunks (ChunkBytes);
 * a node reduces chunk c from its children and sends it up, the root turns it
 * around, and each node forwards it down once it arrived from its parent.
 * Pipelined time ~ 2 S/B + depth x (alpha + chunk/B).
 */
class TreeAllreduce : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;
};

} // namespace ns3

#endif // TREE_ALLREDUCE_H
