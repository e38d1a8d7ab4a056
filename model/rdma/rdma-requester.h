/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_REQUESTER_H
#define RDMA_REQUESTER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-congestion-control.h"

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
};

/**
 * \ingroup ai-fabric
 * A message posted on a queue pair (an RDMA WRITE with immediate, or a SEND with
 * immediate).
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
     * RNR NAK: the responder had no receive for the SEND starting at wirePsn (which
     * acknowledges every PSN below it). The requester goes back to that PSN and sends
     * nothing for the time of RNR timer code \p timerCode; after RnrRetry such NAKs in a
     * row without progress (7: never) the queue pair goes to the error state instead.
     */
    void ReceiveRnrNak(uint32_t wirePsn, uint8_t timerCode, Time now);
    /// \return whether the queue pair is in the error state (RNR retries exhausted)
    bool IsInError() const;
    /// \return RNR NAKs received
    uint64_t GetRnrNaksReceived() const;
    /// \return resends after an RNR NAK's wait (one per RNR NAK that did not end in error)
    uint64_t GetRnrRetries() const;
    /// \return messages completed in error (the one whose retries ran out and those
    /// flushed behind it or posted after, as IBTA's error state flushes work requests)
    uint64_t GetErrorMessages() const;

    // What an RdmaRecoveryOps does with a NAK that acknowledged everything below psn.
    /// Resend everything from psn on (go-back-N).
    void GoBackTo(uint64_t psn);
    /// Resend only psn, then continue with new data (selective repeat).
    void ResendOnly(uint64_t psn);

    uint64_t GetOutstandingBytes() const;
    uint64_t GetRetransmittedPackets() const;
    uint64_t GetTimeouts() const;
    std::size_t GetPendingMessages() const;

    /// Cancel the timer and drop the controller (the queue pair's DoDispose).
    void Dispose();

  private:
    /// Post a message whose packets have opcode WRITE_* minus \p sendShift.
    void Post(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind, uint8_t sendShift);
    /// RNR retries exhausted: the queue pair enters the error state.
    [[gnu::cold]] void EnterError();
    void RestartTimer();
    void Timeout();
    void CompleteMessages();
    void OnCcChange();
    /// Tell the queue pair's owner there is data to send, if there is.
    void WakeIfData();
    const RdmaMessage* MessageOf(uint64_t psn) const;
    /// The segment carrying psn (which must belong to a posted message).
    RdmaSegment MakeSegment(uint64_t psn) const;
    /// Record the send time of psn in the ring of [una, next) send times.
    void RecordSendTime(uint64_t psn, Time now);

    // What the NIC's round robin reads of each active queue pair per frame
    // (HasDataToSend, CanSend, IsWindowBlocked, GetNextSendTime): first and together.
    uint64_t m_nextPsn{0};                //!< next PSN to send (snd_nxt)
    uint64_t m_endPsn{0};                 //!< one past the last PSN of the posted messages
    uint64_t m_unaPsn{0};                 //!< oldest unacknowledged PSN (snd_una)
    Time m_nextAvail;                     //!< pacing: earliest time of the next packet
    uint64_t m_ccWindowBytes{UINT64_MAX}; //!< m_cc's window, refreshed at each change
    Ptr<RdmaCongestionControl> m_cc;
    bool m_retxPending{false}; //!< selective repeat: m_retxPsn must be resent

    RdmaQueuePair& m_qp; //!< the queue pair this half belongs to

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
    uint32_t m_rnrInARow{0};   //!< RNR NAKs since the last ACK that made progress
    bool m_error{false};       //!< the error state (RNR retries exhausted)
    uint64_t m_rnrNaks{0};
    uint64_t m_rnrRetries{0};
    uint64_t m_errorMessages{0};
};

} // namespace ns3

#endif // RDMA_REQUESTER_H
