/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PLANNED_RECEIVE_TRANSPORT_H
#define PLANNED_RECEIVE_TRANSPORT_H

#include "ns3/forwarding-collective-transport.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A CollectiveTransport in front of another that leaves the posting of receives
 * (Expect) to its owner: the collective algorithms of a training step
 * (CollectiveInstancePool per-rank) post on it, and their Expect calls are dropped,
 * because several algorithm objects share a communicator's connections and each object
 * would post its runs' receives in its own order; the pool posts every receive itself
 * (PostReceive), in the order the connection will carry the messages. Everything else
 * goes to the inner transport; completions come from the inner transport.
 */
class PlannedReceiveTransport : public ForwardingCollectiveTransport
{
  public:
    static TypeId GetTypeId();
    PlannedReceiveTransport();
    ~PlannedReceiveTransport() override;

    /// The transport that carries the messages.
    void SetInner(Ptr<CollectiveTransport> inner);
    Ptr<CollectiveTransport> GetInner() const;
    /// The inner transport's Expect (the owner's receive, in connection order).
    void PostReceive(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel);

    /// Dropped: the owner posts the receives (PostReceive).
    void Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel) override;
};

} // namespace ns3

#endif // PLANNED_RECEIVE_TRANSPORT_H
