/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOWLET_EGRESS_POLICY_H
#define FLOWLET_EGRESS_POLICY_H

#include "egress-port-policy.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Flowlet switching (LetFlow / CONGA style): a flow keeps its port while
 * its packets come closer together than FlowletTimeout; after a longer idle gap
 * the next packet starts a new flowlet on a newly chosen port (random, as
 * LetFlow does, or the least-loaded egress queue).
 *
 * If the timeout exceeds the delay difference between paths, a new flowlet
 * cannot overtake the previous one, so there is no reordering. Per-flow state
 * lives in a fixed table (TableSize entries, allocated once) indexed by the
 * 5-tuple hash; a slot holds the full hash, so two flows that collide on a slot
 * evict each other (the newcomer starts a flowlet) instead of sharing a path.
 */
class FlowletEgressPolicy : public EgressPortPolicy
{
  public:
    /// How a new flowlet chooses its port.
    enum NewPathChoice
    {
        RANDOM = 0,
        LEAST_LOADED = 1,
    };

    static TypeId GetTypeId();
    FlowletEgressPolicy();
    uint32_t Select(const RoceSwitch& sw,
                    const uint32_t* candidates,
                    uint32_t n,
                    const RoceFrameView& frame) override;
    /// Use ns-3 RNG stream `stream`; returns the number of streams used (1).
    int64_t AssignStreams(int64_t stream) override;
    /// Flowlets started so far (new flows included).
    uint64_t GetFlowletCount() const;

  protected:
    void DoDispose() override;

  private:
    struct Entry
    {
        int64_t lastSeen{0}; //!< ns-3 time steps of the flow's last packet here
        uint32_t hash{0};    //!< full flow hash (0 = empty slot)
        uint16_t index{0};   //!< position of the port in the candidate list
        uint16_t port{0};    //!< the port itself, to check the candidate list still matches
    };

    uint32_t Choose(const RoceSwitch& sw, const uint32_t* candidates, uint32_t n);

    Ptr<UniformRandomVariable> m_rng;
    Time m_timeout;
    uint32_t m_tableSize;
    NewPathChoice m_choice;
    std::vector<Entry> m_table;
    uint64_t m_flowlets;
};

} // namespace ns3

#endif // FLOWLET_EGRESS_POLICY_H
