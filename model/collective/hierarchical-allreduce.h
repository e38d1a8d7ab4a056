/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HIERARCHICAL_ALLREDUCE_H
#define HIERARCHICAL_ALLREDUCE_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief 2-D (hierarchical) ring allreduce on an X x Y grid of ranks (rank
 * r = x + X y): ring reduce-scatter along X (rows), ring allreduce of the S/X
 * owned bytes along Y (columns), ring all-gather along X.
 *
 * Time 2(X-1)(alpha + S/(X B)) + 2(Y-1)(alpha + S/(X Y B)).
 */
class HierarchicalAllreduce : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;
    HierarchicalAllreduce();

  protected:
    void BuildSchedule() override;

  private:
    uint32_t m_x; //!< ranks per row (attribute X)
    uint32_t m_y; //!< rows (attribute Y)
};

} // namespace ns3

#endif // HIERARCHICAL_ALLREDUCE_H
