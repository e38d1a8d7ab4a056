/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_REDUCE_SCATTER_H
#define RING_REDUCE_SCATTER_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Ring reduce-scatter: N-1 steps of S/N bytes; rank i ends with segment i
 * (bytes [S i/N, S (i+1)/N)) reduced over all ranks. Time (N-1)(alpha + S/(N B)).
 */
class RingReduceScatter : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;
    uint32_t GetUnitOwner(uint32_t unit) const override;
};

} // namespace ns3

#endif // RING_REDUCE_SCATTER_H
