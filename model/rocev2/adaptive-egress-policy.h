/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ADAPTIVE_EGRESS_POLICY_H
#define ADAPTIVE_EGRESS_POLICY_H

#include "egress-port-policy.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Local adaptive routing: each packet takes the candidate port whose
 * egress queue holds the fewest bytes (RoceSwitch::GetQueueBytes), per packet.
 *
 * Load is the sum over the port's eight priority queues (default) or only the
 * packet's own priority queue (PerPriority). Ties (common when queues are
 * empty) go to the first least-loaded port found when scanning from a start
 * chosen by TieBreak: a random candidate (one RNG draw per packet; spreads idle
 * traffic like spraying) or the flow hash (idle flows keep one path, like ECMP).
 * The decision is local to the switch: congestion beyond the next hop is seen
 * only through PFC back-pressure filling this switch's queue.
 */
class AdaptiveEgressPolicy : public EgressPortPolicy
{
  public:
    /// How ties between equally loaded ports are broken.
    enum TieBreak
    {
        RANDOM = 0,
        FLOW_HASH = 1,
    };

    static TypeId GetTypeId();
    AdaptiveEgressPolicy();
    uint32_t Select(const RoceSwitch& sw,
                    const uint32_t* candidates,
                    uint32_t n,
                    const RoceFrameView& frame) override;
    /// Use ns-3 RNG stream `stream`; returns the number of streams used (1).
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    Ptr<UniformRandomVariable> m_rng;
    bool m_perPriority;
    TieBreak m_tieBreak;
};

} // namespace ns3

#endif // ADAPTIVE_EGRESS_POLICY_H
