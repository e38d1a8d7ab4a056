/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-receive-queue.h"
#include "ns3/rdma-requester.h"
#include "ns3/rdma-responder.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

class FctAttribution;

class RdmaRecoveryOps;

/**
 * \ingroup ai-fabric
 * \brief A Reliable Connected queue pair: the RDMA transport shared by RoCEv2 and IB.
 *
 * Two halves and a strategy: the RdmaRequester sends (segmentation, PSNs, pacing
 * and window, ACK/NAK processing, the retransmission timer), the RdmaResponder
 * receives (placement, ACK/NAK/CNP generation, completions), and the
 * RdmaRecoveryOps chosen by the Recovery attribute handles what is out of order:
 * - GoBackN (RdmaGoBackN, IBTA RC): the responder drops any packet beyond ePSN
 *   and NAKs ePSN once; the requester resends everything from that PSN.
 * - SelectiveRepeat (RdmaSelectiveRepeat, IRN-like): out-of-order placement, a
 *   NAK once ReorderThreshold later PSNs have arrived, once per hole; only the
 *   NAKed PSN is resent.
 * Both ends must use the same scheme (set it with Config::SetDefault). The queue
 * pair holds the identity, the attributes both halves read and the callbacks.
 *
 * Two-sided verbs: a SEND consumes a receive posted on the responder's receive queue
 * (RdmaReceiveQueue: the queue pair's own, ReceiveQueueDepth of them kept posted, or
 * its adapter's shared one); without one the responder answers an RNR NAK carrying
 * its MinRnrTimer code, and the requester resends from that PSN after the time the
 * code stands for, at most RnrRetry times in a row before the queue pair enters the
 * error state (the Error trace source).
 *
 * Transport retries (IBTA vol. 1, 9.7.6.1.3: retry_cnt): when nothing is acknowledged
 * for RetransmitTimeout the requester resends from the oldest unacknowledged PSN. Once
 * RetryCount + 1 timeouts in a row have passed without progress and the stall has lasted
 * (RetryCount + 1) x RetryTimeout (the local ACK timeout the retries are counted in,
 * NCCL's 4.29 s by default; RetransmitTimeout is the model's shorter resend timer), the
 * queue pair enters the error state, as an HCA's does when its peer is gone (a failed
 * server). With RetryTimeout = RetransmitTimeout this is IBTA's rule exactly.
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
    /// Error trace: (the queue pair, work requests completed in error) when it enters the
    /// error state (RNR retries or transport retries exhausted).
    typedef void (*ErrorTracedCallback)(Ptr<const RdmaQueuePair>, uint64_t);
    /// RetransmitTimeout trace: (the queue pair, the oldest unacknowledged PSN it resends from).
    typedef void (*TimeoutTracedCallback)(Ptr<const RdmaQueuePair>, uint64_t);
    /// RnrRetry's value for "retry for ever" (ibv_modify_qp(3): rnr_retry 7).
    static constexpr uint32_t RNR_RETRY_INFINITE = 7;
    /// What the responder sends back for a data packet.
    using Reply = RdmaReply;
    using Response = RdmaReply::Response;

    /// Loss recovery scheme (see the class description).
    enum Recovery
    {
        GO_BACK_N = 0,
        SELECTIVE_REPEAT = 1,
    };

    static TypeId GetTypeId();
    RdmaQueuePair();
    /**
     * A new queue pair with \p prototype's attribute values (nothing else of its state):
     * what CreateFromDefaults copies, as ns-3's TcpCongestionOps::Fork copies a controller.
     */
    RdmaQueuePair(const RdmaQueuePair& prototype);
    RdmaQueuePair& operator=(const RdmaQueuePair&) = delete;
    ~RdmaQueuePair() override;

    /**
     * A new queue pair with the attribute defaults, the same as
     * CreateObject<RdmaQueuePair>() gives, copied from a prototype made with
     * CreateObject when the defaults last changed (Config::SetDefault): ns-3.37's
     * ObjectBase::ConstructSelf resolves and serializes each attribute, ~110,000
     * instructions a queue pair, against ~10,000 to check the defaults and copy.
     */
    static Ptr<RdmaQueuePair> CreateFromDefaults();

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

    /// Report this queue pair's sender-side waits to \p attribution (nullptr: off); it
    /// gives the queue pair a slot of its own there (FctAttribution::AddQueuePair).
    void SetAttribution(FctAttribution* attribution);

    /// \return the slot SetAttribution got (FctAttribution's index of this queue pair)
    uint32_t GetAttributionSlot() const
    {
        return m_attributionSlot;
    }

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
    /**
     * Call \p ack(\p target, *this, psn, msn) when the responder's coalescing timer
     * (AckCoalescingTime) sends an ACK of \p psn (24-bit wire value) and \p msn on its
     * own, outside any arrival: the NIC queues it as it queues the ACKs ReceiveData returns.
     */
    void SetAckFunction(void (*ack)(void* target, RdmaQueuePair& qp, uint32_t psn, uint32_t msn),
                        void* target);

    // ---- requester (sender) half: the NIC's calls, passed to RdmaRequester ----
    /// Post a WRITE-with-immediate of `bytes` bytes under the given message id.
    void PostWrite(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
    {
        m_requester.PostWrite(messageId, bytes, tag, kind);
    }

    /// Post an RDMA READ of `bytes` bytes (0 allowed) from the peer (RdmaRequester::PostRead).
    void PostRead(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
    {
        m_requester.PostRead(messageId, bytes, tag, kind);
    }

    /**
     * A READ request (24-bit wire PSN, RETH DMA length \p dmaLength) arrived at this
     * queue pair's responder half: queues its responses (sent as this queue pair's
     * data) and \return the NAK to send, or nothing, and whether a CNP is due.
     */
    Reply ReceiveReadRequest(uint32_t wirePsn, uint64_t dmaLength, bool ceMarked, Time now);

    /// A READ response of \p payloadBytes arrived: \return whether a CNP is due.
    bool ReceiveReadResponse(uint32_t wirePsn, uint32_t payloadBytes, bool ceMarked, Time now)
    {
        const bool cnp = m_responder.TakeCnp(ceMarked, now);
        m_requester.ReceiveReadResponse(wirePsn, payloadBytes, now);
        return cnp;
    }

    /// READ response payload bytes received in order by this queue pair's READs.
    uint64_t GetReadBytes() const
    {
        return m_requester.GetReadBytes();
    }

    /// Post a SEND-with-immediate of `bytes` bytes: it consumes a receive at the peer.
    void PostSend(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
    {
        m_requester.PostSend(messageId, bytes, tag, kind);
    }

    bool HasDataToSend() const
    {
        return m_requester.HasDataToSend();
    }

    /// True if window and pacing allow a packet now.
    bool CanSend(Time now) const
    {
        return m_requester.CanSend(now);
    }

    /// Earliest time pacing allows the next packet (window permitting).
    Time GetNextSendTime() const
    {
        return m_requester.GetNextSendTime();
    }

    bool IsWindowBlocked() const
    {
        return m_requester.IsWindowBlocked();
    }

    /// Take the next packet: advances the PSN, arms the timer, charges pacing.
    RdmaSegment NextSegment(Time now, uint32_t wireBytes)
    {
        return m_requester.NextSegment(now, wireBytes);
    }

    /// Cumulative ACK for every PSN up to and including psn (24-bit wire value);
    /// \p remoteDelaySteps is the endpoint delay the ACK echoes, in time steps (0 if none);
    /// \p echoedHops the switch hops of the data packet it acknowledges (0 if none);
    /// \p ackInt the INT records the ACK echoes (nullptr if none).
    /// \p ecnEcho whether the ACK echoes ECN CE for the packets it acknowledges.
    void ReceiveAck(uint32_t wirePsn,
                    Time now,
                    int64_t remoteDelaySteps = 0,
                    uint32_t echoedHops = 0,
                    bool ecnEcho = false,
                    const IntHeader* ackInt = nullptr)
    {
        m_requester.ReceiveAck(wirePsn, now, remoteDelaySteps, echoedHops, ecnEcho, ackInt);
    }

    /// NAK (PSN sequence error): the peer expects wirePsn next.
    void ReceiveNak(uint32_t wirePsn, Time /* now */)
    {
        m_requester.ReceiveNak(wirePsn);
    }

    void ReceiveCnp()
    {
        m_requester.ReceiveCnp();
    }

    /// Trim NACK (UET packet trimming): packet wirePsn was cut to its header on its way;
    /// resend it at once (it acknowledges nothing).
    void ReceiveTrimNack(uint32_t wirePsn)
    {
        m_requester.ReceiveTrimNack(wirePsn);
    }

    /// UET SACK: packet wirePsn is missing below enough later arrivals; resend it.
    bool ReceiveSackLoss(uint32_t wirePsn, Time* lostAt = nullptr)
    {
        return m_requester.ReceiveSackLoss(wirePsn, lostAt);
    }

    /// RNR NAK of the SEND starting at wirePsn, with RNR timer code \p timerCode.
    void ReceiveRnrNak(uint32_t wirePsn, uint8_t timerCode, Time now)
    {
        m_requester.ReceiveRnrNak(wirePsn, timerCode, now);
    }

    /// \return whether the queue pair is in the error state (RNR or transport retries
    /// exhausted, or ModifyToError)
    bool IsInError() const
    {
        return m_requester.IsInError();
    }

    /**
     * Move the queue pair to the error state now (ibv_modify_qp(3) to IBV_QPS_ERR): its
     * work requests complete in error (Error fires). What a host's queue pairs do when
     * the host fails (RdmaFabric::FailHost): its process is gone. No-op if in error.
     */
    void ModifyToError()
    {
        m_requester.ModifyToError();
    }

    const RdmaRequester& GetRequester() const
    {
        return m_requester;
    }

    uint64_t GetOutstandingBytes() const
    {
        return m_requester.GetOutstandingBytes();
    }

    uint64_t GetRetransmittedPackets() const
    {
        return m_requester.GetRetransmittedPackets();
    }

    uint64_t GetTimeouts() const
    {
        return m_requester.GetTimeouts();
    }

    std::size_t GetPendingMessages() const
    {
        return m_requester.GetPendingMessages();
    }

    // ---- responder (receiver) half: passed to RdmaResponder ----
    /// Announce a message the peer will send to this QP (the posted receive WQE).
    void PostReceive(uint64_t tag)
    {
        m_responder.PostReceive(tag);
    }

    /**
     * The application posts \p n receive work requests (ibv_post_recv) to this queue
     * pair's receive queue (the adapter's shared one if it has one): each SEND that
     * arrives consumes one.
     */
    void PostReceives(uint32_t n);
    /// \return the receive queue SENDs to this queue pair consume
    Ptr<RdmaReceiveQueue> GetReceiveQueue() const;
    /// Make SENDs to this queue pair consume \p srq's receives (the adapter's SRQ).
    void SetSharedReceiveQueue(Ptr<RdmaReceiveQueue> srq);

    /// \return RNR NAKs this responder sent
    uint64_t GetRnrNaksSent() const
    {
        return m_responder.GetRnrNaksSent();
    }

    /// A data packet arrived: decides placement and what to send back.
    Reply ReceiveData(uint32_t wirePsn,
                      uint8_t opcode,
                      uint32_t payloadBytes,
                      bool ackRequest,
                      bool ceMarked,
                      Time now)
    {
        return m_responder.ReceiveData(wirePsn, opcode, payloadBytes, ackRequest, ceMarked, now);
    }

    /// Acknowledge now the in-order packets not yet acknowledged, if any: true with
    /// the ACK's \p psn and \p msn (RdmaResponder::TakePendingAck).
    bool TakePendingAck(uint32_t& psn, uint32_t& msn)
    {
        return m_responder.TakePendingAck(psn, msn);
    }

    /// The CE state the next ACK echoes (ECN echo in ACKs; false unless SetCeEcho).
    bool GetCeEcho() const
    {
        return m_responder.GetCeEcho();
    }

    /// Set the CE state the next ACK echoes (RdmaNic with ECN echo in ACKs).
    void SetCeEcho(bool ce)
    {
        m_responder.SetCeEcho(ce);
    }

    const RdmaResponder& GetResponder() const
    {
        return m_responder;
    }

    uint64_t GetDeliveredBytes() const
    {
        return m_responder.GetDeliveredBytes();
    }

    uint64_t GetOutOfOrderPackets() const
    {
        return m_responder.GetOutOfOrderPackets();
    }

    uint64_t GetDuplicatePackets() const
    {
        return m_responder.GetDuplicatePackets();
    }

    /// Arrivals of a PSN that had already arrived once (placed or discarded).
    uint64_t GetSpuriousRetransmissions() const
    {
        return m_responder.GetSpuriousRetransmissions();
    }

    /// ACKs this responder sent (returned by ReceiveData or sent by its coalescing timer).
    uint64_t GetAcksSent() const
    {
        return m_responder.GetAcksSent();
    }

    /// NAKs this responder sent.
    uint64_t GetNaksSent() const
    {
        return m_responder.GetNaksSent();
    }

    /// Largest distance (packets) of an arrival beyond the expected PSN.
    uint64_t GetMaxReorderDistance() const
    {
        return m_responder.GetMaxReorderDistance();
    }

    /**
     * \return true if neither half has work: nothing posted to send or unacknowledged,
     * no posted receive waiting for its message, nothing held beyond the expected PSN
     * (the queue pair may be released; RdmaFabric's QpIdleTimeout)
     */
    bool IsIdle() const
    {
        return m_requester.GetPendingMessages() == 0 && !m_requester.HasDataToSend() &&
               m_responder.GetPendingReceives() == 0 && m_responder.GetHeldPackets() == 0;
    }

    /// The loss recovery scheme (attribute Recovery).
    Recovery GetRecovery() const;
    /// Its strategy object.
    Ptr<RdmaRecoveryOps> GetRecoveryOps() const;

  protected:
    void DoDispose() override;
    void NotifyConstructionCompleted() override;

  private:
    friend class RdmaRequester;
    friend class RdmaResponder;

    /// Tell the owner this queue pair may send (the wake function, else the callback).
    void NotifyWake();
    /// The responder's coalescing timer sends an ACK (the ack function's call).
    void NotifyAckDue(uint32_t psn, uint32_t msn);
    /// The requester completed a message.
    void NotifySent(const RdmaMessage& message);
    /// The responder completed a message.
    void NotifyDelivered(uint64_t tag, uint64_t bytes);
    /// The requester entered the error state; \p messages completed in error.
    void NotifyError(uint64_t messages);
    void SetRecovery(Recovery recovery);

    // The requester first: its PSNs, pacing and window are what the NIC's round robin
    // reads of each active queue pair per frame.
    uint8_t m_priority{3};
    RdmaRequester m_requester;
    RdmaResponder m_responder;
    Ptr<RdmaRecoveryOps> m_recoveryOps; //!< the scheme m_recovery names

    uint32_t m_localQpn{0};
    uint32_t m_peerQpn{0};
    uint32_t m_localHost{0};
    uint32_t m_peerHost{0};
    uint16_t m_entropy{49152};

    // Attributes
    uint32_t m_mtu;
    uint32_t m_ackInterval;
    Time m_ackCoalescingTime;
    Time m_rto;
    Time m_cnpInterval;
    Recovery m_recovery;
    uint32_t m_reorderThreshold;
    uint32_t m_nicEntropy;
    uint32_t m_entropyBurst;
    uint32_t m_maxRdAtomic;                 //!< MaxRdAtomic: outstanding READ requests at most
    FctAttribution* m_attribution{nullptr}; //!< SetAttribution (none: off)
    uint32_t m_attributionSlot{0};          //!< its slot in m_attribution

    SendCompleteCallback m_sendComplete;
    DeliveredCallback m_delivered;
    WakeCallback m_wake;
    void (*m_wakeFunction)(void*, RdmaQueuePair&){nullptr}; //!< SetWakeFunction, or nullptr
    void* m_wakeTarget{nullptr};                            //!< its first argument
    /// SetAckFunction, or nullptr
    void (*m_ackFunction)(void*, RdmaQueuePair&, uint32_t, uint32_t){nullptr};
    void* m_ackTarget{nullptr}; //!< its first argument

    // Two-sided verbs (after what the per-packet path reads).
    uint32_t m_receiveQueueDepth; //!< ReceiveQueueDepth attribute
    Time m_recvRepostDelay;       //!< RecvRepostDelay attribute
    uint32_t m_rnrRetry;          //!< RnrRetry attribute (7: infinite)
    uint32_t m_retryCount{7};     //!< RetryCount attribute (retry_cnt)
    Time m_retryTimeout;          //!< RetryTimeout attribute (NCCL_IB_TIMEOUT's)
    uint8_t m_minRnrTimer;        //!< MinRnrTimer attribute (RNR timer code)
    Ptr<RdmaReceiveQueue> m_rq;   //!< the receive queue SENDs consume (own or shared)
    TracedCallback<Ptr<const RdmaQueuePair>, uint64_t> m_errorTrace;   //!< Error
    TracedCallback<Ptr<const RdmaQueuePair>, uint64_t> m_timeoutTrace; //!< RetransmitTimeout
};

} // namespace ns3

#endif // RDMA_QUEUE_PAIR_H
