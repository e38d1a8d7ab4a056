/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-congestion-control.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * One packet the sender is about to put on the wire, independent of framing
 * (RoCEv2 or InfiniBand): the NIC turns it into headers.
 */
struct RdmaSegment
{
    uint64_t psn{0};            //!< 64-bit packet sequence number (wire carries the low 24 bits)
    uint32_t payloadBytes{0};   //!< payload of this packet
    uint8_t opcode{0};          //!< IBTA RC opcode (WRITE first/middle/last/only [with imm])
    bool ackRequest{false};     //!< AckReq bit: last packet of a message
    uint64_t messageBytes{0};   //!< DMA length, for the RETH of a first/only packet
    uint64_t offset{0};         //!< byte offset in the message (the RETH VA of this packet)
    bool retransmission{false}; //!< this PSN was sent before
    uint16_t entropy{0};        //!< UDP source port for this packet (NIC-driven spraying)
};

/**
 * \ingroup ai-fabric
 * A message posted on a queue pair (an RDMA WRITE with immediate).
 */
struct RdmaMessage
{
    uint64_t id{0};       //!< unique id (fct.csv's flow_id)
    uint64_t tag{0};      //!< the application's tag, returned in completions
    uint64_t bytes{0};    //!< message size
    uint64_t firstPsn{0}; //!< PSN of its first packet
    uint64_t endPsn{0};   //!< one past the PSN of its last packet
    Time postTime;        //!< when the application posted it
    uint8_t kind{0};      //!< application-defined kind (for output)
};

/**
 * \ingroup ai-fabric
 * \brief A Reliable Connected queue pair: the RDMA transport shared by RoCEv2 and IB.
 *
 * Sender half: messages are segmented at the MTU into IBTA RC WRITE packets with
 * consecutive PSNs; cumulative ACKs complete them; a NAK (PSN sequence error)
 * names the PSN the receiver expects; a retransmission timer covers lost tails.
 * A congestion controller sets the pacing rate and window. With NicEntropy > 1
 * the UDP source port of data packets cycles over that many values (one value
 * per EntropyBurst packets), so flow-hash ECMP switches spread one QP over paths.
 *
 * Recovery (both halves must agree; set it with Config::SetDefault):
 * - GoBackN (IBTA RC): the receiver drops any packet beyond ePSN and NAKs ePSN
 *   once; the sender resends everything from that PSN. Reordering therefore
 *   looks like loss: each reordering costs a NAK and a burst of resends.
 * - SelectiveRepeat (IRN-like): the receiver places out-of-order WRITE packets
 *   (each carries its offset, implied by its PSN) and keeps a bitmap of received
 *   PSNs beyond ePSN. It NAKs ePSN only once ReorderThreshold distinct later PSNs
 *   have arrived (reordering is not loss), once per hole. The sender retransmits
 *   exactly the NAKed PSN and then continues with new data. When the hole fills,
 *   the cumulative ACK jumps over everything already received, and a remaining
 *   hole with enough later arrivals is NAKed at once. A timeout goes back to the
 *   oldest unacknowledged PSN (the receiver discards what it already holds).
 *
 * Receiver half: placement as above, an ACK every AckInterval packets, at every
 * message end and when ePSN jumps, duplicate detection, and at most one CNP per
 * CnpInterval when packets arrive ECN-marked (DCQCN's notification point).
 * Reorder statistics: out-of-order arrivals, the largest reorder distance and
 * spurious retransmissions (arrivals of a PSN that had already arrived once,
 * whether it was placed or, under go-back-N, discarded).
 *
 * The NIC owns framing and scheduling: it asks CanSend()/NextSegment() when the
 * wire is free, and passes parsed ACK/NAK/CNP/data events in.
 */
class RdmaQueuePair : public Object
{
  public:
    /// Sender-side completion: (qp, message) once its last byte is acknowledged.
    typedef Callback<void, Ptr<RdmaQueuePair>, const RdmaMessage&> SendCompleteCallback;
    /// Receiver-side completion: (qp, tag, bytes) once its last byte is placed.
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t> DeliveredCallback;
    /// Tell the NIC this QP may have something to send (new data, window opened).
    typedef Callback<void, Ptr<RdmaQueuePair>> WakeCallback;
    /// What the receiver half wants sent back: an ACK, a NAK or a CNP.
    enum class Response : uint8_t
    {
        NONE = 0,
        ACK = 1,
        NAK = 2,
    };

    /// Loss recovery scheme (see the class description).
    enum Recovery
    {
        GO_BACK_N = 0,
        SELECTIVE_REPEAT = 1,
    };

    static TypeId GetTypeId();
    RdmaQueuePair();
    ~RdmaQueuePair() override;

    // Identity, set by the NIC when it creates the QP.
    void SetIdentity(uint32_t localQpn,
                     uint32_t peerQpn,
                     uint32_t localHost,
                     uint32_t peerHost,
                     uint8_t priority,
                     uint16_t entropy);
    uint32_t GetLocalQpn() const;
    uint32_t GetPeerQpn() const;
    uint32_t GetLocalHost() const;
    uint32_t GetPeerHost() const;
    uint8_t GetPriority() const;
    uint16_t GetEntropy() const;

    void SetCongestionControl(Ptr<RdmaCongestionControl> cc, const RdmaCcContext& ctx);
    Ptr<RdmaCongestionControl> GetCongestionControl() const;
    void SetCallbacks(SendCompleteCallback sent, DeliveredCallback delivered, WakeCallback wake);
    /**
     * Call \p wake(\p target, *this) where the wake callback would be called (it then
     * is not): a plain function for an owner that is woken after most ACKs, without a
     * Callback's copy of the queue pair's Ptr per call.
     */
    void SetWakeFunction(void (*wake)(void* target, RdmaQueuePair& qp), void* target);

    // ---- sender half ----
    /// Post a WRITE-with-immediate of `bytes` bytes; returns the message id.
    void PostWrite(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind);
    /// Announce a message the peer will send to this QP (the posted receive WQE).
    void PostReceive(uint64_t tag);
    bool HasDataToSend() const;
    /// True if window and pacing allow a packet now.
    bool CanSend(Time now) const;
    /// Earliest time pacing allows the next packet (window permitting).
    Time GetNextSendTime() const;
    bool IsWindowBlocked() const;
    /// Take the next packet: advances the PSN, arms the timer, charges pacing.
    RdmaSegment NextSegment(Time now, uint32_t wireBytes);
    /// Cumulative ACK for every PSN up to and including psn (24-bit wire value).
    void ReceiveAck(uint32_t wirePsn, Time now);
    /// NAK (PSN sequence error): the peer expects wirePsn next.
    void ReceiveNak(uint32_t wirePsn, Time now);
    void ReceiveCnp();
    uint64_t GetOutstandingBytes() const;
    uint64_t GetRetransmittedPackets() const;
    uint64_t GetTimeouts() const;
    std::size_t GetPendingMessages() const;

    // ---- receiver half ----
    /// What the receiver sends back for one data packet.
    struct Reply
    {
        Response response{Response::NONE}; //!< an ACK, a NAK or nothing
        uint32_t ackPsn{0};                //!< the PSN the ACK/NAK carries (24-bit wire value)
        uint32_t msn{0};                   //!< the MSN it carries
        bool cnp{false};                   //!< a CNP is due (ECN-marked, interval passed)
    };

    /// A data packet arrived: decides placement and what to send back.
    Reply ReceiveData(uint32_t wirePsn,
                      uint8_t opcode,
                      uint32_t payloadBytes,
                      bool ackRequest,
                      bool ceMarked,
                      Time now);
    uint64_t GetDeliveredBytes() const;
    uint64_t GetOutOfOrderPackets() const;
    uint64_t GetDuplicatePackets() const;
    /// Arrivals of a PSN that had already arrived once (placed or discarded).
    uint64_t GetSpuriousRetransmissions() const;
    /// NAKs this receiver sent.
    uint64_t GetNaksSent() const;
    /// Largest distance (packets) of an arrival beyond the expected PSN.
    uint64_t GetMaxReorderDistance() const;
    Recovery GetRecovery() const;

  protected:
    void DoDispose() override;

  private:
    uint64_t Unwrap(uint32_t wirePsn, uint64_t reference) const;
    void RestartTimer();
    void Timeout();
    void CompleteMessages();
    void OnCcChange();
    /// Tell the owner this queue pair may send (the wake function, else the callback).
    void NotifyWake();
    uint32_t PayloadOf(uint64_t psn) const;
    const RdmaMessage* MessageOf(uint64_t psn) const;
    /// The segment carrying psn (which must belong to a posted message).
    RdmaSegment MakeSegment(uint64_t psn) const;
    /// Record the send time of psn in the ring of [una, next) send times.
    void RecordSendTime(uint64_t psn, Time now);
    /// Make the receive ring hold PSNs up to m_ePsn + distance; false if too far.
    bool EnsureRxRing(uint64_t distance);
    /// Account one in-order packet (bytes and completion); true if it ended a message.
    bool Consume(uint32_t payloadBytes, bool last);

    // What the NIC's round robin reads of each active queue pair per frame
    // (HasDataToSend, CanSend, IsWindowBlocked, GetPriority, GetNextSendTime): first
    // and together, a line or two of the object instead of five scattered ones.
    uint64_t m_nextPsn{0};                //!< next PSN to send (snd_nxt)
    uint64_t m_endPsn{0};                 //!< one past the last PSN of the posted messages
    uint64_t m_unaPsn{0};                 //!< oldest unacknowledged PSN (snd_una)
    Time m_nextAvail;                     //!< pacing: earliest time of the next packet
    uint64_t m_ccWindowBytes{UINT64_MAX}; //!< m_cc's window, refreshed at each change
    Ptr<RdmaCongestionControl> m_cc;
    uint32_t m_mtu; //!< attribute Mtu
    uint8_t m_priority{3};
    bool m_retxPending{false}; //!< selective repeat: m_retxPsn must be resent

    uint32_t m_localQpn{0};
    uint32_t m_peerQpn{0};
    uint32_t m_localHost{0};
    uint32_t m_peerHost{0};
    uint16_t m_entropy{49152};

    // Attributes
    uint32_t m_ackInterval;
    Time m_rto;
    Time m_cnpInterval;
    Recovery m_recovery;
    uint32_t m_reorderThreshold;
    uint32_t m_nicEntropy;
    uint32_t m_entropyBurst;

    SendCompleteCallback m_sendComplete;
    DeliveredCallback m_delivered;
    WakeCallback m_wake;
    void (*m_wakeFunction)(void*, RdmaQueuePair&){nullptr}; //!< SetWakeFunction, or nullptr
    void* m_wakeTarget{nullptr};                            //!< its first argument

    // sender state
    std::deque<RdmaMessage> m_messages; //!< posted, not yet acknowledged, in PSN order
    uint64_t m_maxSentPsn{0};           //!< one past the highest PSN ever sent
    uint64_t m_lineRateBps{0};          //!< the controller's line rate (its context's)
    uint64_t m_paceBps{0};              //!< rate m_paceGap is for
    uint32_t m_paceWireBytes{0};        //!< packet size m_paceGap is for
    Time m_paceGap;                     //!< one packet's time at m_paceBps
    std::vector<int64_t> m_sendTimes;   //!< ring of send times (ns-3 time steps) by PSN
    EventId m_timer;                    //!< pending timeout event (may fire early and re-arm)
    bool m_timerPending{false};         //!< m_timer is scheduled (what IsRunning asks, cheaply)
    Time m_rtoDeadline;                 //!< when the retransmission timer expires; 0 = disarmed
    uint64_t m_retransmitted{0};
    uint64_t m_timeouts{0};
    uint32_t m_consecutiveTimeouts{0};
    uint64_t m_retxPsn{0};
    uint64_t m_packetsSent{0}; //!< every data packet sent (entropy cycling)

    // receiver state
    uint64_t m_ePsn{0};           //!< next PSN expected
    uint32_t m_msn{0};            //!< messages completed
    uint32_t m_unackedPackets{0}; //!< in-order packets since the last ACK
    bool m_nakOutstanding{false}; //!< a NAK for m_ePsn was sent
    Time m_lastCnp;               //!< last CNP sent for this QP
    bool m_cnpSent{false};
    uint64_t m_rxMessageBytes{0};  //!< bytes of the message being received
    std::deque<uint64_t> m_rxTags; //!< posted receives (tags), in order
    uint64_t m_deliveredBytes{0};
    uint64_t m_outOfOrder{0};
    uint64_t m_duplicates{0};
    /// Ring by PSN over [ePSN, ePSN + size): 0 = not received, else payload bytes
    /// with bit 31 set for a message's last packet (go-back-N: 1 = seen, discarded).
    std::vector<uint32_t> m_rxRing;
    uint32_t m_rxAbove{0}; //!< selective repeat: PSNs held beyond ePSN
    uint64_t m_spurious{0};
    uint64_t m_naksSent{0};
    uint64_t m_maxReorder{0};
};

} // namespace ns3

#endif // RDMA_QUEUE_PAIR_H
