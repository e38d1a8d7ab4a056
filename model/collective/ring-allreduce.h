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
 *
 * On GPU servers (GpusPerServer G >= 2 dividing N, >= 2 servers) each channel has its
 * own ring, as NCCL builds it: channel c enters and leaves every server through NIC
 * c mod G (RailRingOrder); elsewhere every channel uses the ring 0, 1, ..., N-1.
 */
class RingAllreduce : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    RingAllreduce();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;

  private:
    uint32_t m_gpusPerServer; //!< attribute GpusPerServer, 0 = one-NIC hosts
    bool m_pxn;               //!< attribute Pxn
};

} // namespace ns3

#endif // RING_ALLREDUCE_H
