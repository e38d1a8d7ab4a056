/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FORWARDING_COLLECTIVE_TRANSPORT_H
#define FORWARDING_COLLECTIVE_TRANSPORT_H

#include "ns3/collective-transport.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * A collective transport in front of another: every call goes on to the transport
 * behind it (SetForwardTo) unless a subclass changes it, as ns-3's queue-disc classes
 * pass packets on to their children. FastForwardTransport (skips steady messages) and
 * PlannedReceiveTransport (posts receives in advance) build on it.
 */
class ForwardingCollectiveTransport : public CollectiveTransport
{
  public:
    static TypeId GetTypeId();
    ForwardingCollectiveTransport();
    ~ForwardingCollectiveTransport() override;

    uint32_t GetNRanks() const override;
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;
    void BeginOperation(uint64_t tagBase, uint32_t nTransfers) override;
    void ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel) override;
    void AbandonOperation(uint64_t tagBase, uint32_t nTransfers) override;
    void Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel) override;
    bool IsLocal(uint32_t rank) const override;
    bool NeedsTransferOrder() const override;
    void Abort() override;

  protected:
    void DoDispose() override;
    /// The transport the calls go on to (a subclass's SetInner sets it).
    void SetForwardTo(Ptr<CollectiveTransport> next);
    /// \return that transport (null before SetForwardTo)
    CollectiveTransport* GetForwardTo() const;

  private:
    Ptr<CollectiveTransport> m_next; //!< where the calls go on to
};

} // namespace ns3

#endif // FORWARDING_COLLECTIVE_TRANSPORT_H
