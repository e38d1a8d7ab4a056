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
 * \brief Local adaptive routing: each packet takes the candidate port with the
 * fewest bytes ahead of it, per packet.
 *
 * Load is the sum over the port's eight priority queues (default) or only the
 * packet's own priority queue (PerPriority), plus the unsent bytes of the frame
 * on the wire (CountWireBytes). Ties (common when ports are idle) are broken by
 * TieBreak: uniformly at random (spreads idle traffic like spraying) or by the
 * flow hash (idle flows keep one path, like ECMP).
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
    /// Bytes ahead of a new packet on this port (queues, plus the frame on the wire).
    uint64_t PortLoad(const RoceSwitch& sw, uint32_t port, uint8_t prio) const;

    Ptr<UniformRandomVariable> m_rng;
    bool m_perPriority;
    bool m_countWireBytes;
    uint32_t m_loadQuantum;
    TieBreak m_tieBreak;
};

} // namespace ns3

#endif // ADAPTIVE_EGRESS_POLICY_H
