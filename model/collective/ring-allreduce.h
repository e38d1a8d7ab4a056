/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALLREDUCE_H
#define RING_ALLREDUCE_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Ring allreduce (Patarasuk and Yuan; NCCL's ring): a ring reduce-scatter of N-1
 * steps followed by a ring all-gather of N-1 steps, each moving S/N bytes per rank.
 *
 * Time on an alpha-beta network without chunking: 2(N-1)(alpha + S/(N B)).
 * With ChunkBytes each segment is cut into chunks that travel the ring
 * independently (chunk c of step k+1 waits only for chunk c of step k).
 */
class RingAllreduce : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;
};

} // namespace ns3

#endif // RING_ALLREDUCE_H
