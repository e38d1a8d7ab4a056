/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaQueuePair;
struct RdmaMessage;

/**
 * \ingroup ai-fabric
 * \brief What every RDMA host adapter has, whatever its framing: the queue pairs (by
 * local QPN - 1), the message-completion trace sources, and the counters summed over
 * its queue pairs. RoceNic (RoCEv2 framing) and IbHca (InfiniBand framing) derive from
 * it; how frames are built, scheduled and parsed stays theirs.
 */
class RdmaNic : public Object
{
  public:
    /// MessageSent trace: (queue pair, the message) when its last byte is acknowledged.
    typedef void (*MessageSentTracedCallback)(Ptr<const RdmaQueuePair>, const RdmaMessage&);
    /// MessageDelivered trace: (queue pair, tag, bytes) when its last byte is placed.
    typedef void (*MessageDeliveredTracedCallback)(Ptr<const RdmaQueuePair>, uint64_t, uint64_t);

    /// \return the TypeId
    static TypeId GetTypeId();

    /// \return the queue pairs, by local QPN - 1
    const std::vector<Ptr<RdmaQueuePair>>& GetQueuePairs() const;
    /// \return packets resent, over all queue pairs
    uint64_t GetRetransmittedPackets() const;
    /// \return retransmission timeouts, over all queue pairs
    uint64_t GetTimeouts() const;
    /// \return data packets that arrived out of order, over all queue pairs
    uint64_t GetOutOfOrderPackets() const;
    /// \return arrivals of a PSN that had already arrived, over all queue pairs
    uint64_t GetSpuriousRetransmissions() const;
    /// \return congestion notifications (CNPs, BECNs) sent
    uint64_t GetCnpsSent() const;
    /// \return congestion notifications received
    uint64_t GetCnpsReceived() const;

  protected:
    /// Dispose every queue pair and forget them (a subclass's DoDispose calls it where
    /// its own state no longer needs them).
    void DisposeQueuePairs();
    /// The queue pairs' sender-completion hook: fires MessageSent.
    void MessageSent(Ptr<RdmaQueuePair> qp, const RdmaMessage& m);
    /// The queue pairs' receiver-completion hook: fires MessageDelivered.
    void MessageDelivered(Ptr<RdmaQueuePair> qp, uint64_t tag, uint64_t bytes);

    std::vector<Ptr<RdmaQueuePair>> m_qps; //!< by local QPN - 1
    uint64_t m_cnpsSent{0};                //!< congestion notifications sent
    uint64_t m_cnpsReceived{0};            //!< congestion notifications received

  private:
    TracedCallback<Ptr<const RdmaQueuePair>, const RdmaMessage&> m_messageSentTrace;
    TracedCallback<Ptr<const RdmaQueuePair>, uint64_t, uint64_t> m_messageDeliveredTrace;
};

} // namespace ns3

#endif // RDMA_NIC_H
