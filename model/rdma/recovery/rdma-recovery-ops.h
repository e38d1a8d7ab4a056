/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RECOVERY_OPS_H
#define RDMA_RECOVERY_OPS_H

#include "ns3/object.h"
#include "ns3/rdma-responder.h"

#include <cstdint>
#include <string>

namespace ns3
{

class RdmaRequester;

/**
 * \ingroup ai-fabric
 * \brief How a queue pair recovers from loss and reordering: what the responder
 * does with a packet beyond the PSN it expects, and what the requester resends
 * after a NAK (compare ns-3's TcpRecoveryOps).
 *
 * Both ends of a connection must use the same scheme. The in-order path, ACKs,
 * duplicates and the retransmission timeout (back to the oldest unacknowledged
 * PSN) are common to every scheme and stay in the halves; a subclass sees only
 * the out-of-order events, so the common case costs no virtual call.
 */
class RdmaRecoveryOps : public Object
{
  public:
    static TypeId GetTypeId();
    ~RdmaRecoveryOps() override;

    /// The scheme's name (the RdmaQueuePair::Recovery value that selects it).
    virtual std::string GetName() const = 0;

    /**
     * A data packet arrived \p distance > 0 PSNs beyond the expected PSN.
     * \return what to send back (the caller adds a due CNP)
     */
    virtual RdmaReply OnBeyondExpected(RdmaResponder& responder,
                                       uint64_t psn,
                                       uint32_t payloadBytes,
                                       bool last) = 0;

    /**
     * After in-order packets advanced the expected PSN while packets are still
     * held beyond it (only a scheme that holds them gets here).
     * \return a NAK for the next hole, or a reply with Response::NONE
     */
    virtual RdmaReply OnAdvancedWithHeld(RdmaResponder& responder);

    /// A NAK arrived that acknowledges everything below \p expectedPsn.
    virtual void OnNak(RdmaRequester& requester, uint64_t expectedPsn) = 0;
};

} // namespace ns3

#endif // RDMA_RECOVERY_OPS_H
