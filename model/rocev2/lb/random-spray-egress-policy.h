/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANDOM_SPRAY_EGRESS_POLICY_H
#define RANDOM_SPRAY_EGRESS_POLICY_H

#include "egress-port-policy.h"

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Per-packet random spraying: every packet takes a uniformly random
 * candidate port, independently of its flow (one ns-3 RNG stream per switch).
 *
 * Balances load over many packets without any switch state, at the price of
 * reordering within a flow: pair it with reorder-tolerant receivers
 * (RdmaQueuePair::Recovery = SelectiveRepeat).
 */
class RandomSprayEgressPolicy : public EgressPortPolicy
{
  public:
    static TypeId GetTypeId();
    RandomSprayEgressPolicy();
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
};

} // namespace ns3

#endif // RANDOM_SPRAY_EGRESS_POLICY_H
