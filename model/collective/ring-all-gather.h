/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALL_GATHER_H
#define RING_ALL_GATHER_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Ring all-gather: rank i contributes segment i of S/N bytes (S is the
 * gathered size per rank); N-1 steps of S/N bytes. Time (N-1)(alpha + S/(N B)).
 */
class RingAllGather : public CollectiveAlgorithm
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

#endif // RING_ALL_GATHER_H
