/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_REQUESTER_H
#define RDMA_REQUESTER_H

#include "ns3/event-id.h"
#include "ns3/frame-fifo.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-send-times.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup ai-fabric
 * One packet the sender is about to put on the wire, independent of framing
 * (RoCEv2 or InfiniBand): the NIC turns it into headers.
 */
struct RdmaSegment
{
    uint64_t psn{0};          //!< 64-bit packet sequence number (wire carries the low 24 bits)
    uint32_t payloadBytes{0}; //!< payload of this packet
    uint8_t opcode{0};        //!< IBTA RC opcode (WRITE or SEND first/middle/last/only [with imm])
    bool ackRequest{false};   //!< AckReq bit: a message's last packet, or the window is full
    uint64_t messageBytes{0}; //!< DMA length, for the RETH of a first/only packet
    uint64_t offset{0};       //!< byte offset in the message (the RETH VA of this packet)
    bool retransmission{false}; //!< this PSN was sent before
    uint16_t entropy{0};        //!< UDP source port for this packet (NIC-driven spraying)
    uint32_t msn{0};            //!< READ response with an AETH: the MSN it carries
};

/**
 * \ingroup ai-fabric
 * A message posted on a queue pair (an RDMA WRITE with immediate, a SEND with
 * immediate, or an RDMA READ: isRead, whose PSNs are those of its response packets).
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
    bool isRead{false};   //!< an RDMA READ: the peer's responses bring the bytes here
    /// 0 for a WRITE; RdmaOpcode::WRITE_TO_SEND for a SEND (subtracted from the WRITE
    /// opcode of each packet)
    uint8_t sendShift{0};
};

/**
 * \ingroup ai-fabric
 * \brief The requester (sender) half of an RC queue pair.
 *
 * Messages are segmented at the MTU into IBTA RC WRITE packets with consecutive
 * PSNs; cumulative ACKs complete them; a NAK (PSN sequence error) names the PSN
 * the responder expects, and the queue pair's RdmaRecoveryOps decides what to
 * resend (GoBackTo or ResendOnly); a lazy retransmission timer covers lost tails
 * by going back to the oldest unacknowledged PSN. The congestion controller sets
 * the pacing rate and the window. With NicEntropy > 1 the UDP source port of data
 * packets cycles over that many values (one per EntropyBurst packets).
 *
 * RDMA READ (IBTA vol. 1 chapter 9): a READ request is one packet (BTH + RETH) at
 * the message's first PSN, and the request consumes as many PSNs as the response has
 * packets; the responses (with those PSNs) are its acknowledgement. At most
 * MaxRdAtomic READs are outstanding: a READ beyond that, and everything posted after
 * it, waits (the send queue is in order). A response beyond the one expected, a NAK,
 * or the timer re-issues the READ from the first missing PSN (go-back-N). An ACK or
 * NAK never acknowledges past a READ whose responses have not all arrived (an ACK of
 * a later WRITE waits for them). The responder half's READ responses are sent from
 * here too (QueueReadResponse), paced as data, outside the window.
 *
 * Part of RdmaQueuePair (a member, not an Object): it reads the queue pair's
 * attributes and reports completions and wake-ups through it.
 */
class RdmaRequester
{
  public:
    explicit RdmaRequester(RdmaQueuePair& qp);
    ~RdmaRequester();
    RdmaRequester(const RdmaRequester&) = delete;
    RdmaRequester& operator=(const RdmaRequester&) = delete;

    void SetCongestionControl(Ptr<RdmaCongestionControl> cc, const RdmaCcContext& ctx);
    Ptr<RdmaCongestionControl> GetCongestionControl() const;

    /// Post a WRITE-with-immediate of `bytes` bytes under the given id.
    void PostWrite(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind);
    /// Post a SEND-with-immediate of `bytes` bytes under the given id (it consumes a
    /// receive the peer posted; without one the peer answers an RNR NAK).
    void PostSend(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind);
    bool HasDataToSend() const;
    /// True if window and pacing allow a packet now.
    bool CanSend(Time now) const;
    /// Earliest time pacing allows the next packet (window permitting).
    Time GetNextSendTime() const;
    bool IsWindowBlocked() const;
    /// \return the id of the message PSN \p psn belongs to (posted, not completed)
    uint64_t GetMessageIdOf(uint64_t psn) const;
    /// Take the next packet: advances the PSN, arms the timer, charges pacing.
    RdmaSegment NextSegment(Time now, uint32_t wireBytes);
    /// Cumulative ACK for every PSN up to and including psn (24-bit wire value).
    void ReceiveAck(uint32_t wirePsn,
                    Time now,
                    int64_t remoteDelaySteps = 0,
                    uint32_t echoedHops = 0,
                    bool ecnEcho = false,
                    const IntHeader* ackInt = nullptr);
    /// NAK (PSN sequence error): the peer expects wirePsn next.
    void ReceiveNak(uint32_t wirePsn);
    void ReceiveCnp();
    /**
     * Trim NACK (UET packet trimming; UetNic): data packet wirePsn lost its payload on
     * its way. It is resent next (behind a selective retransmission already due, in
     * NACK order) within the window, acknowledging nothing; the controller hears OnNack
     * and the retransmission timer restarts (the receiver is answering).
     */
    void ReceiveTrimNack(uint32_t wirePsn);
    /// UET SACK: the receiver's bitmap shows packet wirePsn missing below enough later
    /// arrivals; resend it as a trimmed one is (unless it is being resent already), and
    /// tell the controller of a loss (OnLossNack). Missing is lost once it was sent two base
    /// RTTs ago; before, \p lostAt (if given) says when. \return whether it queued a resend
    bool ReceiveSackLoss(uint32_t wirePsn, Time* lostAt = nullptr);
    /// \return packets queued for a resend by ReceiveSackLoss
    uint64_t GetSackResends() const;
    /// \return trim NACKs received for packets still unacknowledged
    uint64_t GetTrimNacks() const;
    /**
     * RNR NAK: the responder had no receive for the SEND starting at wirePsn (which
     * acknowledges every PSN below it). The requester goes back to that PSN and sends
     * nothing for the time of RNR timer code \p timerCode; after RnrRetry such NAKs in a
     * row without progress (7: never) the queue pair goes to the error state instead.
     */
    void ReceiveRnrNak(uint32_t wirePsn, uint8_t timerCode, Time now);
    /// \return whether the queue pair is in the error state (RNR or transport retries
    /// exhausted)
    bool IsInError() const;
    /// Enter the error state now, if not in it (RdmaQueuePair::ModifyToError).
    void ModifyToError();
    /// \return RNR NAKs received
    uint64_t GetRnrNaksReceived() const;
    /// \return resends after an RNR NAK's wait (one per RNR NAK that did not end in error)
    uint64_t GetRnrRetries() const;
    /// \return messages completed in error (the one whose retries ran out and those
    /// flushed behind it or posted after, as IBTA's error state flushes work requests)
    uint64_t GetErrorMessages() const;

    // ---- RDMA READ ----
    /// Post an RDMA READ of `bytes` bytes (0 allowed) from the peer under the given id.
    void PostRead(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind);
    /// A READ response packet of \p payloadBytes arrived (24-bit wire PSN).
    void ReceiveReadResponse(uint32_t wirePsn, uint32_t payloadBytes, Time now);
    /// Send the responses to a READ (the responder half's): PSNs from \p firstPsn,
    /// \p bytes bytes, AETH MSN \p msn. Queued responses at or beyond \p firstPsn
    /// are dropped first (a duplicate request re-executes the READ from there).
    void QueueReadResponse(uint64_t firstPsn, uint64_t bytes, uint32_t msn);
    /// READ response payload bytes accepted in order (bytes the READs brought here).
    uint64_t GetReadBytes() const;
    /// READ requests re-issued after a gap in the responses, a NAK or a timeout.
    uint64_t GetReadRetries() const;
    /// READ response packets sent (the responder half's).
    uint64_t GetReadResponsesSent() const;
    /// READs admitted (within MaxRdAtomic) and not complete.
    uint32_t GetOutstandingReads() const;

    // What an RdmaRecoveryOps does with a NAK that acknowledged everything below psn.
    /// Resend everything from psn on (go-back-N).
    void GoBackTo(uint64_t psn);
    /// Resend only psn, then continue with new data (selective repeat).
    void ResendOnly(uint64_t psn);

    uint64_t GetOutstandingBytes() const;
    /// \return bytes still to send: unsent PSNs and resends due, one MTU each (UET RCCC's
    /// credit target reads it)
    uint64_t GetBacklogBytes() const;
    uint64_t GetRetransmittedPackets() const;
    uint64_t GetTimeouts() const;
    std::size_t GetPendingMessages() const;

    /// Cancel the timer and drop the controller (the queue pair's DoDispose).
    void Dispose();

  private:
    /// Post a message whose packets have opcode WRITE_* minus \p sendShift.
    void Post(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind, uint8_t sendShift);
    /// RNR or transport retries exhausted: the queue pair enters the error state.
    [[gnu::cold]] void EnterError();
    void RestartTimer();
    void Timeout();
    void CompleteMessages();
    void OnCcChange();
    /// Tell the queue pair's owner there is data to send, if there is.
    void WakeIfData();
    const RdmaMessage* MessageOf(uint64_t psn) const;
    /// The segment carrying psn (which must belong to a posted message).
    [[gnu::always_inline]] inline RdmaSegment MakeSegment(uint64_t psn) const;
    /// Record the send time of psn in the ring of [una, next) send times.
    void RecordSendTime(uint64_t psn, Time now);
    /// The entropy of the next data packet (NicEntropy cycling).
    uint16_t NextEntropy();
    /// Charge pacing (at the controller's rate) and the controller with one packet.
    void ChargePacing(Time now, uint32_t wireBytes, uint32_t payloadBytes);
    /// The READ request segment of \p m re-issued from \p psn.
    [[gnu::noinline]] RdmaSegment MakeReadRequest(const RdmaMessage& m, uint64_t psn) const;
    /// The next READ response packet (m_readResponses' front).
    RdmaSegment NextReadResponse(Time now, uint32_t wireBytes);
    /// Admit the posted messages waiting behind the MaxRdAtomic limit that now fit.
    void AdmitWaiting();
    /// The first PSN an ACK or NAK may not acknowledge: the first missing response
    /// PSN of the oldest incomplete READ already sent (UINT64_MAX if none).
    uint64_t ReadBarrier() const;
    /// \p psn capped so that it acknowledges nothing at or past ReadBarrier (an ACK
    /// beyond is remembered and applied once the READ's responses are in).
    uint64_t CapAckAtRead(uint64_t psn);

    // What the NIC's round robin reads of each active queue pair per frame
    // (HasDataToSend, CanSend, IsWindowBlocked, GetNextSendTime): first and together.
    uint64_t m_nextPsn{0};                //!< next PSN to send (snd_nxt)
    uint64_t m_endPsn{0};                 //!< one past the last PSN of the posted messages
    uint64_t m_unaPsn{0};                 //!< oldest unacknowledged PSN (snd_una)
    Time m_nextAvail;                     //!< pacing: earliest time of the next packet
    uint64_t m_ccWindowBytes{UINT64_MAX}; //!< m_cc's window, refreshed at each change
    Ptr<RdmaCongestionControl> m_cc;
    /// What besides new data there is to send: PENDING_RETX (selective repeat: m_retxPsn
    /// must be resent) and PENDING_READ_RESPONSE (m_readResponses); one test for both
    uint8_t m_pending{0};
    static constexpr uint8_t PENDING_RETX = 1;
    static constexpr uint8_t PENDING_READ_RESPONSE = 2;
    uint32_t m_readsAdmitted{0}; //!< READs admitted and not complete (0: no READ cost)

    RdmaQueuePair& m_qp; //!< the queue pair this half belongs to

    std::deque<RdmaMessage> m_messages; //!< posted, not yet acknowledged, in PSN order
    uint64_t m_maxSentPsn{0};           //!< one past the highest PSN ever sent
    uint64_t m_lineRateBps{0};          //!< the controller's line rate (its context's)
    uint64_t m_paceBps{0};              //!< rate m_paceGap is for
    uint32_t m_paceWireBytes{0};        //!< packet size m_paceGap is for
    Time m_paceGap;                     //!< one packet's time at m_paceBps
    RdmaSendTimes m_sendTimes;          //!< ring of send times (ns-3 time steps) by PSN
    EventId m_timer;                    //!< pending timeout event (may fire early and re-arm)
    bool m_timerPending{false};         //!< m_timer is scheduled (what IsRunning asks, cheaply)
    /// Keep send times: the controller reads RTT samples (UsesRttSamples), or trim recovery
    /// (which reads resend times) has begun; else nothing reads them.
    bool m_sendTimesOn{true};
    Time m_rtoDeadline; //!< when the retransmission timer expires; 0 = disarmed
    uint64_t m_retransmitted{0};
    uint64_t m_timeouts{0};
    uint32_t m_consecutiveTimeouts{0};
    Time m_stallStart; //!< when the timeouts in a row began (less one RetransmitTimeout)
    uint64_t m_retxPsn{0};
    bool m_trimActive{false};      //!< m_trimRetx or m_trimOut holds a PSN (ACKs look once)
    bool m_trimWaitsCredit{false}; //!< a trim resend waits for credit (MayResend: RCCC)
    // Trim recovery (UET; ReceiveTrimNack). Vectors, not deques: empty ones cost a queue
    // pair no allocation.
    std::vector<uint64_t> m_trimRetx; //!< trim-NACKed PSNs to resend, in NACK order
    std::vector<uint64_t> m_trimOut;  //!< of them, resent and not acknowledged or NACKed
    uint64_t m_sackResends{0};        //!< GetSackResends
    uint64_t m_trimNacks{0};          //!< GetTrimNacks
    /**
     * The next trim-NACKed PSN still unacknowledged becomes the pending retransmission,
     * if none is pending and the congestion window holds one more resent packet: the
     * resends of trimmed packets are in flight as new data would be (uet-htsim: a NACK
     * takes the packet out of flight, its resend waits for the window), so an incast
     * that trims does not resend its whole excess every round trip.
     */
    [[gnu::noinline]] void NextTrimRetx();
    /// An ACK moved m_unaPsn: resends below it are done; the window may take more.
    [[gnu::noinline]] void TrimAck();
    uint64_t m_packetsSent{0}; //!< every data packet sent (entropy cycling)

    /// A READ the responder half answers: PSNs [nextPsn, endPsn) still to send.
    struct ReadResponseJob
    {
        uint64_t firstPsn{0}; //!< PSN of the first response (the request's)
        uint64_t nextPsn{0};  //!< next response PSN to send
        uint64_t endPsn{0};   //!< one past the last
        uint64_t bytes{0};    //!< the request's DMA length
        uint32_t msn{0};      //!< AETH MSN
    };

    uint64_t m_postedEndPsn{0};          //!< one past the last PSN posted (m_endPsn: admitted)
    uint64_t m_deferredAckPsn{0};        //!< an ACK beyond a READ's missing responses (+1; 0: none)
    uint64_t m_readRetryPsn{UINT64_MAX}; //!< PSN a READ was last re-issued from
    uint64_t m_readBytes{0};
    uint64_t m_readRetries{0};
    uint64_t m_readResponsesSent{0};
    FrameFifo<ReadResponseJob> m_readResponses; //!< responses to send, in PSN order
    uint32_t m_rnrInARow{0};                    //!< RNR NAKs since the last ACK that made progress
    bool m_error{false};                        //!< the error state (RNR retries exhausted)
    uint64_t m_rnrNaks{0};
    uint64_t m_rnrRetries{0};
    uint64_t m_errorMessages{0};
};

} // namespace ns3

#endif // RDMA_REQUESTER_H
