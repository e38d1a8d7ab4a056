/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PLANNED_RECEIVE_TRANSPORT_H
#define PLANNED_RECEIVE_TRANSPORT_H

#include "ns3/collective-transport.h"
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
class PlannedReceiveTransport : public CollectiveTransport
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

    uint32_t GetNRanks() const override;
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;
    void BeginOperation(uint64_t tagBase, uint32_t nTransfers) override;
    void ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel) override;
    void AbandonOperation(uint64_t tagBase, uint32_t nTransfers) override;
    /// Dropped: the owner posts the receives (PostReceive).
    void Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel) override;
    bool IsLocal(uint32_t rank) const override;
    bool NeedsTransferOrder() const override;
    void Abort() override;

  protected:
    void DoDispose() override;

  private:
    Ptr<CollectiveTransport> m_inner;
};

} // namespace ns3

#endif // PLANNED_RECEIVE_TRANSPORT_H
