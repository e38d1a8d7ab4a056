/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_COLLECTIVE_H
#define RING_COLLECTIVE_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The ring collectives that move one segment per step: reduce-scatter and
 * all-gather (Attribute Operation). N-1 steps of S/N bytes, time
 * (N-1)(alpha + S/(N B)).
 *
 * Reduce-scatter: rank i ends with segment i (bytes [S i/N, S (i+1)/N)) reduced over
 * all ranks. All-gather: rank i contributes segment i of S/N bytes (S is the gathered
 * size per rank) and ends with all of them. The schedules are the same; only
 * reduce-scatter reduces what it receives.
 *
 * On GPU servers each channel has its own ring, as RingAllreduce's (RailRingOrder).
 */
class RingCollective : public CollectiveAlgorithm
{
  public:
    /// What the ring does with what arrives.
    enum Operation
    {
        REDUCE_SCATTER, //!< reduce it into the own copy (CollectiveOp::REDUCE_SCATTER)
        ALL_GATHER      //!< keep it (CollectiveOp::ALL_GATHER)
    };

    /// \return the TypeId
    static TypeId GetTypeId();
    RingCollective();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;
    uint32_t GetUnitOwner(uint32_t unit) const override;

  private:
    Operation m_operation{REDUCE_SCATTER}; //!< reduce-scatter or all-gather
    uint32_t m_gpusPerServer;              //!< attribute GpusPerServer, 0 = one-NIC hosts
    bool m_pxn;                            //!< attribute Pxn
};

} // namespace ns3

#endif // RING_COLLECTIVE_H
