/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RESPONDER_H
#define RDMA_RESPONDER_H

#include "ns3/event-id.h"
#include "ns3/frame-fifo.h"
#include "ns3/nstime.h"
#include "ns3/tag-run-queue.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup ai-fabric
 * What the responder sends back for one data packet: an ACK, a NAK or nothing,
 * and whether a CNP is due.
 */
struct RdmaReply
{
    /// The acknowledgement kind.
    enum class Response : uint8_t
    {
        NONE = 0,
        ACK = 1,
        NAK = 2,
    };

    Response response{Response::NONE}; //!< an ACK, a NAK or nothing
    uint32_t ackPsn{0};                //!< the PSN the ACK/NAK carries (24-bit wire value)
    uint32_t msn{0};                   //!< the MSN it carries
    bool cnp{false};                   //!< a CNP is due (ECN-marked, interval passed)
};

/**
 * \ingroup ai-fabric
 * \brief The responder (receiver) half of an RC queue pair.
 *
 * In-order packets are placed and counted towards their message (a completion
 * hands the posted receive's tag to the queue pair's Delivered callback). ACKs are
 * coalesced as NICs do (IBTA lets one ACK cover every PSN up to the one it
 * carries): one goes back at least every AckInterval in-order packets and at most
 * AckCoalescingTime after the oldest packet it covers arrived (a lazy timer per
 * queue pair, armed only while a packet is un-acknowledged), and at once at every
 * message end, for a packet with AckReq set and when the expected PSN jumps over
 * packets held beyond it. A NAK (which acknowledges every PSN below the one it
 * names) goes at once too. A packet beyond the expected
 * PSN is the queue pair's RdmaRecoveryOps' to handle (discard and NAK, or hold
 * it with Hold); duplicates are re-ACKed. At most one CNP per CnpInterval when
 * packets arrive ECN-marked (DCQCN's notification point). Reorder statistics:
 * out-of-order arrivals, the largest reorder distance and spurious
 * retransmissions (arrivals of a PSN that had already arrived once, whether it
 * was placed or discarded).
 *
 * Part of RdmaQueuePair (a member, not an Object): it reads the queue pair's
 * attributes and reports deliveries through it.
 */
class RdmaResponder
{
  public:
    explicit RdmaResponder(RdmaQueuePair& qp);
    ~RdmaResponder();
    RdmaResponder(const RdmaResponder&) = delete;
    RdmaResponder& operator=(const RdmaResponder&) = delete;

    /// Cancel the coalescing timer (the queue pair's disposal).
    void Dispose();

    /// Announce a message the peer will send (the posted receive WQE).
    void PostReceive(uint64_t tag);
    /// A data packet arrived: decides placement and what to send back.
    RdmaReply ReceiveData(uint32_t wirePsn,
                          uint8_t opcode,
                          uint32_t payloadBytes,
                          bool ackRequest,
                          bool ceMarked,
                          Time now);

    /**
     * An RDMA READ request for \p dmaLength bytes arrived (IBTA vol. 1 chapter 9): at the
     * expected PSN it consumes one PSN per response packet and is answered with
     * responses from its PSN (\p respond true; \p firstPsn, \p msn: what they
     * carry); a duplicate (below the expected PSN) is answered again from its PSN;
     * one beyond the expected PSN is discarded and NAKed (PSN sequence error, once),
     * whatever the recovery scheme. \p cnp: whether a CNP is due (\p ceMarked).
     * \return the NAK to send, or nothing
     */
    RdmaReply ReceiveReadRequest(uint32_t wirePsn,
                                 uint64_t dmaLength,
                                 bool ceMarked,
                                 Time now,
                                 bool& respond,
                                 uint64_t& firstPsn,
                                 uint32_t& msn);
    /// A READ response arrived at this queue pair (the requester's side) \p ceMarked
    /// at \p now: whether a CNP is due (at most one per CnpInterval, as for data).
    bool TakeCnp(bool ceMarked, Time now);

    /// READ requests answered (duplicates included).
    uint64_t GetReadRequests() const
    {
        return m_readRequests;
    }

    // What an RdmaRecoveryOps does with a packet beyond the expected PSN.
    /// Remember that psn arrived and was discarded; counts a spurious arrival if
    /// it had arrived before.
    void MarkSeen(uint64_t psn);
    /// Place psn now and hold its slot until the expected PSN reaches it; false
    /// (and counted as duplicate and spurious) if it is already held.
    bool Hold(uint64_t psn, uint32_t payloadBytes, bool last);
    /// A NAK naming the expected PSN (and marking it outstanding).
    RdmaReply NakExpected();
    /// An RNR NAK naming the expected PSN (no receive for the SEND starting there).
    RdmaReply RnrNakExpected();

    /// \return the AETH syndrome of the last NAK made (NakExpected: PSN sequence error;
    /// RnrNakExpected: RNR with the queue pair's MinRnrTimer)
    uint8_t GetNakSyndrome() const
    {
        return m_nakSyndrome;
    }

    /// A NAK for the expected PSN was sent and the PSN has not arrived since.
    bool IsNakOutstanding() const;
    /// Packets held beyond the expected PSN.
    uint32_t GetHeldPackets() const;
    /// \return the PSN expected next (every PSN below it has arrived)
    uint64_t GetExpectedPsn() const;
    /// \return bit i set if PSN \p base + i (i < 64) has arrived: below the expected PSN,
    /// or held beyond it (selective repeat; UET's SACK bitmap)
    uint64_t GetReceivedBitmap(uint64_t base) const;
    /// Posted receives whose message has not completed (its first one may be arriving).
    std::size_t GetPendingReceives() const;
    /**
     * Acknowledge now the in-order packets not yet acknowledged, if any: true with the
     * ACK's \p psn and \p msn (counted as sent; the caller sends it).
     */
    bool TakePendingAck(uint32_t& psn, uint32_t& msn);

    /// The CE state of the packets the next ACK covers (RdmaQueuePair::GetCeEcho).
    bool GetCeEcho() const
    {
        return m_ceEcho;
    }

    /// Set the CE state the next ACK echoes.
    void SetCeEcho(bool ce)
    {
        m_ceEcho = ce;
    }

    /// The queue pair's ReorderThreshold attribute (packets).
    uint32_t GetReorderThreshold() const;

    uint64_t GetDeliveredBytes() const;
    uint64_t GetOutOfOrderPackets() const;
    uint64_t GetDuplicatePackets() const;
    uint64_t GetSpuriousRetransmissions() const;
    uint64_t GetNaksSent() const;
    /// RNR NAKs sent (SENDs that found no posted receive).
    uint64_t GetRnrNaksSent() const;
    /// ACKs sent: returned by ReceiveData or sent by the coalescing timer.
    uint64_t GetAcksSent() const;
    uint64_t GetMaxReorderDistance() const;

  private:
    uint64_t Unwrap(uint32_t wirePsn) const;
    /// Make the receive ring hold PSNs up to m_ePsn + distance; false if too far.
    bool EnsureRxRing(uint64_t distance);
    /// A SEND packet at the expected PSN: its first packet takes a posted receive.
    /// \return false if it is a first packet and none is posted (RNR)
    bool TakeReceive(uint8_t opcode);
    /// Account one in-order packet (bytes and completion); true if it ended a message.
    bool Consume(uint32_t payloadBytes, bool last);
    /// The last packet of a message was consumed: complete it. \return true
    [[gnu::noinline]] bool EndMessage();
    /// The reply to a packet at the expected PSN, arrived at \p now.
    RdmaReply ReceiveExpected(uint32_t& slot,
                              uint32_t payloadBytes,
                              bool last,
                              bool ackRequest,
                              Time now);
    /// The first in-order packet since the last ACK arrived at \p now and was not
    /// acknowledged: it must be by now + AckCoalescingTime.
    void StartAckDeadline(Time now);
    /// The coalescing timer: send the ACK that is due, or wait for a later deadline.
    void AckTimeout();

    RdmaQueuePair& m_qp; //!< the queue pair this half belongs to

    uint64_t m_ePsn{0};            //!< next PSN expected
    uint32_t m_msn{0};             //!< messages completed
    uint32_t m_unackedPackets{0};  //!< in-order packets since the last ACK (or NAK)
    bool m_ackTimerPending{false}; //!< m_ackTimer is scheduled
    /// When the oldest un-acknowledged in-order packet must be acknowledged (valid
    /// while m_unackedPackets > 0; a pending timer that fires earlier waits again)
    Time m_ackDeadline;
    EventId m_ackTimer; //!< the lazy coalescing timer
    uint64_t m_acksSent{0};
    bool m_nakOutstanding{false}; //!< a NAK for m_ePsn was sent
    bool m_cnpSent{false};
    bool m_ceEcho{false};         //!< CE state the next ACK echoes (ECN echo)
    Time m_lastCnp;               //!< last CNP sent for this QP
    uint64_t m_rxMessageBytes{0}; //!< bytes of the message being received
    TagRunQueue m_rxTags;         //!< posted receives (tags), in order, as runs
    uint64_t m_deliveredBytes{0};
    uint64_t m_outOfOrder{0};
    uint64_t m_duplicates{0};
    /// Ring by PSN over [ePSN, ePSN + size): 0 = not received, else payload bytes
    /// with bit 31 set for a message's last packet (go-back-N: 1 = seen, discarded).
    std::vector<uint32_t> m_rxRing;
    uint32_t m_rxAbove{0}; //!< PSNs held beyond ePSN (Hold)
    uint64_t m_spurious{0};
    uint64_t m_naksSent{0};
    uint64_t m_maxReorder{0};
    uint64_t m_readRequests{0}; //!< GetReadRequests
    uint64_t m_rnrNaksSent{0};
    uint8_t m_nakSyndrome{0x60}; //!< GetNakSyndrome
    bool m_rxSend{false};        //!< the message being received is a SEND (took a receive)
};

} // namespace ns3

#endif // RDMA_RESPONDER_H
