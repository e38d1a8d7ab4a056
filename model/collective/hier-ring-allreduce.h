/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HIER_RING_ALLREDUCE_H
#define HIER_RING_ALLREDUCE_H

#include "hierarchical-allreduce.h"

namespace ns3
{

/**
 * \brief NCCL-like hierarchical ring allreduce over GPU servers ("hierring").
 *
 * With G GPUs per server and ranks numbered server * G + GPU (the topology's host
 * order): (1) reduce-scatter on a ring of each server's G GPUs (the scale-up
 * domain), leaving GPU i with 1/G of the server's sum; (2) ring allreduce of that
 * 1/G among GPU i of every server (one ring per rail, all rails at once); (3)
 * all-gather on each server's ring. The schedule is the 2-D ring (HierarchicalAllreduce)
 * with rows = servers, X = G. Per GPU it sends 2 (G-1)/G N bytes on the scale-up
 * domain and 2 (S-1)/(S G) N bytes on its rail, against 2 (SG-1)/(SG) N for a flat
 * ring whose every step waits for the slowest (inter-server) hop.
 */
class HierRingAllreduce : public HierarchicalAllreduce
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    HierRingAllreduce();
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;

  private:
    uint32_t m_gpusPerServer; //!< attribute GpusPerServer
};

} // namespace ns3

#endif // HIER_RING_ALLREDUCE_H
