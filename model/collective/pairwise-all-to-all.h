/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PAIRWISE_ALL_TO_ALL_H
#define PAIRWISE_ALL_TO_ALL_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Pairwise-exchange all-to-all: S is the send buffer per rank, S/N bytes
 * for each destination. In step k = 1..N-1 rank i sends to i+k and receives from
 * i-k; step k+1 starts on a rank when its step-k block has arrived.
 * Time (N-1)(alpha + S/(N B)).
 */
class PairwiseAllToAll : public CollectiveAlgorithm
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

#endif // PAIRWISE_ALL_TO_ALL_H
