/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-requester.h"

#include "fct-attribution.h"
#include "rdma-opcode.h"
#include "rdma-psn.h"
#include "rdma-queue-pair.h"
#include "rdma-rnr-timer.h"
#include "recovery/rdma-recovery-ops.h"
#include "rounded-time.h"

#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRequester");

RdmaRequester::RdmaRequester(RdmaQueuePair& qp)
    : m_qp(qp),
      m_sendTimes(64)
{
}

RdmaRequester::~RdmaRequester() = default;

void
RdmaRequester::Dispose()
{
    m_timer.Cancel();
    if (m_cc)
    {
        m_cc->Dispose();
        m_cc = nullptr;
    }
}

void
RdmaRequester::SetCongestionControl(Ptr<RdmaCongestionControl> cc, const RdmaCcContext& ctx)
{
    m_cc = cc;
    m_lineRateBps = ctx.lineRate.GetBitRate();
    m_cc->SetChangeCallback(MakeCallback(&RdmaRequester::OnCcChange, this));
    m_cc->Start(ctx);
    m_ccWindowBytes = m_cc->GetWindowBytes(); // (Start sets it without a change callback)
    m_sendTimesOn = m_cc->UsesRttSamples() || m_trimActive;
}

Ptr<RdmaCongestionControl>
RdmaRequester::GetCongestionControl() const
{
    return m_cc;
}

void
RdmaRequester::WakeIfData()
{
    if (HasDataToSend())
    {
        m_qp.NotifyWake();
    }
}

void
RdmaRequester::OnCcChange()
{
    m_ccWindowBytes = m_cc->GetWindowBytes();
    if (__builtin_expect(m_trimWaitsCredit, false))
    {
        NextTrimRetx(); // (a resend that waited for credit may go now)
        if (!m_trimWaitsCredit)
        {
            // Every packet in flight was NACKed: the wait for credit was no loss (as
            // uet-htsim's timer runs only while a packet is in flight).
            RestartTimer();
        }
    }
    WakeIfData();
}

void
RdmaRequester::PostWrite(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
{
    Post(messageId, bytes, tag, kind, 0);
}

void
RdmaRequester::PostSend(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
{
    Post(messageId, bytes, tag, kind, RdmaOpcode::WRITE_TO_SEND);
}

void
RdmaRequester::Post(uint64_t messageId,
                    uint64_t bytes,
                    uint64_t tag,
                    uint8_t kind,
                    uint8_t sendShift)
{
    NS_ASSERT_MSG(bytes > 0, "an RDMA WRITE or SEND carries at least one byte");
    if (m_error)
    {
        m_errorMessages++; // the error state flushes what is posted (IBTA vol. 1 ch. 10)
        return;
    }
    const uint32_t mtu = m_qp.m_mtu;
    RdmaMessage m;
    m.id = messageId;
    m.tag = tag;
    m.bytes = bytes;
    m.firstPsn = m_postedEndPsn;
    m.endPsn = m_postedEndPsn + (bytes + mtu - 1) / mtu;
    m.postTime = FabricSimulator::Now();
    m.kind = kind;
    m.sendShift = sendShift;
    m_messages.push_back(m);
    // Admitted at once unless a READ beyond MaxRdAtomic waits before it.
    if (m_endPsn == m_postedEndPsn)
    {
        m_endPsn = m.endPsn;
    }
    m_postedEndPsn = m.endPsn;
    if (__builtin_expect(m_qp.m_attribution != nullptr, false))
    {
        m_qp.m_attribution->OnPost(m_qp, m);
    }
    m_qp.NotifyWake();
}

bool
RdmaRequester::HasDataToSend() const
{
    return m_pending != 0 || m_nextPsn < m_endPsn;
}

bool
RdmaRequester::IsWindowBlocked() const
{
    // A selective retransmission fills the hole that holds the window, READ responses
    // are the peer's requests' answers: never blocked.
    if (!m_cc || m_nextPsn == m_unaPsn || m_pending != 0)
    {
        return false; // one packet may always be in flight
    }
    return (m_nextPsn - m_unaPsn + 1) * m_qp.m_mtu > m_ccWindowBytes;
}

bool
RdmaRequester::CanSend(Time now) const
{
    return HasDataToSend() && now >= m_nextAvail && !IsWindowBlocked();
}

uint64_t
RdmaRequester::GetMessageIdOf(uint64_t psn) const
{
    const RdmaMessage* m = MessageOf(psn);
    return m != nullptr ? m->id : 0;
}

Time
RdmaRequester::GetNextSendTime() const
{
    return m_nextAvail;
}

const RdmaMessage*
RdmaRequester::MessageOf(uint64_t psn) const
{
    // Messages are contiguous in PSN space; the one holding psn is almost always the
    // oldest unacknowledged one (new sends of small windows, go-back-N), else search.
    if (!m_messages.empty() && psn < m_messages.front().endPsn)
    {
        return &m_messages.front();
    }
    auto it = std::upper_bound(m_messages.begin(),
                               m_messages.end(),
                               psn,
                               [](uint64_t v, const RdmaMessage& m) { return v < m.endPsn; });
    NS_ASSERT(it != m_messages.end());
    return &*it;
}

RdmaSegment
RdmaRequester::MakeSegment(uint64_t psn) const
{
    const uint32_t mtu = m_qp.m_mtu;
    const RdmaMessage* m = MessageOf(psn);
    if (__builtin_expect(m->isRead, false))
    {
        return MakeReadRequest(*m, psn);
    }
    RdmaSegment s;
    s.psn = psn;
    uint64_t index = psn - m->firstPsn;
    uint64_t nPackets = m->endPsn - m->firstPsn;
    s.offset = index * mtu;
    s.payloadBytes = static_cast<uint32_t>(std::min<uint64_t>(mtu, m->bytes - s.offset));
    s.messageBytes = m->bytes;
    bool first = index == 0;
    bool last = index + 1 == nPackets;
    s.opcode = first && last ? RdmaOpcode::WRITE_ONLY_IMM
               : first       ? RdmaOpcode::WRITE_FIRST
               : last        ? RdmaOpcode::WRITE_LAST_IMM
                             : RdmaOpcode::WRITE_MIDDLE;
    s.opcode -= m->sendShift; // a SEND's opcode of the same place (0 for a WRITE)
    s.ackRequest = last;
    return s;
}

void
RdmaRequester::RecordSendTime(uint64_t psn, Time now)
{
    // Remember the send time for RTT samples; the ring holds [una, next), and the
    // times of [una, highest sent) are read. Not kept where nothing reads them.
    if (!m_sendTimesOn)
    {
        return;
    }
    if (psn - m_unaPsn >= m_sendTimes.Size())
    {
        // (A READ's request moves next past all its response PSNs: it may grow more.)
        uint64_t size = m_sendTimes.Size() * 2;
        while (psn - m_unaPsn >= size)
        {
            size *= 2;
        }
        m_sendTimes.Grow(size, m_unaPsn, m_nextPsn);
    }
    m_sendTimes.Set(psn, now.GetTimeStep(), m_unaPsn, std::max(m_maxSentPsn, psn + 1));
}

RdmaSegment
RdmaRequester::NextSegment(Time now, uint32_t wireBytes)
{
    NS_ASSERT(HasDataToSend());
    RdmaSegment s;
    bool nextTrimRetx = false;
    if ((m_pending & PENDING_RETX) != 0 && m_retxPsn >= m_unaPsn && m_retxPsn < m_nextPsn)
    {
        // Selective repeat: resend only the PSN the responder NAKed.
        s = MakeSegment(m_retxPsn);
        s.retransmission = true;
        m_pending &= ~PENDING_RETX;
        m_retransmitted++;
        RecordSendTime(s.psn, now);
        nextTrimRetx = !m_trimRetx.empty();
    }
    else if (__builtin_expect((m_pending & PENDING_READ_RESPONSE) != 0, false))
    {
        m_pending &= ~PENDING_RETX;
        return NextReadResponse(now, wireBytes);
    }
    else
    {
        m_pending = 0;
        s = MakeSegment(m_nextPsn);
        s.retransmission = m_nextPsn < m_maxSentPsn;
        if (s.retransmission)
        {
            m_retransmitted++;
        }
        RecordSendTime(m_nextPsn, now);
        // A READ request consumes the PSNs of all its responses (IBTA vol. 1 ch. 9).
        if (__builtin_expect(s.opcode == RdmaOpcode::READ_REQUEST, false))
        {
            m_readRetries += s.retransmission;
            m_nextPsn = MessageOf(m_nextPsn)->endPsn;
        }
        else
        {
            m_nextPsn++;
        }
        m_maxSentPsn = std::max(m_maxSentPsn, m_nextPsn);
    }
    s.entropy = NextEntropy();
    ChargePacing(now, wireBytes, s.payloadBytes);
    if (__builtin_expect(nextTrimRetx, false))
    {
        NextTrimRetx(); // (after this resend's charge: RCCC's credit is spent)
    }
    // AckReq on the packet that fills the window, as well as on a message's last: the
    // requester must wait for an ACK now, and a coalescing responder (AckInterval,
    // AckCoalescingTime) answers an AckReq at once instead of after its coalescing time.
    // IBTA lets a requester set AckReq on any request packet; hfi1 sets it when it sends
    // one packet and waits (RVT_S_SEND_ONE), Falcon when its window is at most 2.
    s.ackRequest = s.ackRequest || IsWindowBlocked();
    if (m_rtoDeadline.IsZero())
    {
        RestartTimer();
    }
    return s;
}

inline uint16_t
RdmaRequester::NextEntropy()
{
    // NIC-driven spraying: cycle over NicEntropy source ports in the dynamic range.
    const uint32_t nicEntropy = m_qp.m_nicEntropy;
    uint16_t entropy;
    if (nicEntropy > 1)
    {
        uint64_t slot = (m_packetsSent / m_qp.m_entropyBurst) % nicEntropy;
        entropy = static_cast<uint16_t>(0xC000 | ((m_qp.m_entropy + slot) & 0x3FFF));
    }
    else
    {
        entropy = m_qp.m_entropy;
    }
    m_packetsSent++;
    return entropy;
}

inline void
RdmaRequester::ChargePacing(Time now, uint32_t wireBytes, uint32_t payloadBytes)
{
    // Pacing at the controller's rate, charged with the packet's bytes on the wire.
    const uint64_t rateBps = m_cc ? m_cc->GetRateBps() : 0;
    if (rateBps > 0 && rateBps < m_lineRateBps)
    {
        // The gap of a packet at the paced rate: a 128-bit division, so kept until the
        // rate or the packet size changes (the controller moves its rate per RTT or per
        // timer, packets go out per microsecond).
        if (rateBps != m_paceBps || wireBytes != m_paceWireBytes)
        {
            m_paceBps = rateBps;
            m_paceWireBytes = wireBytes;
            m_paceGap = RoundedTxTime(DataRate(rateBps), wireBytes);
        }
        m_nextAvail = std::max(now, m_nextAvail) + m_paceGap;
    }
    else
    {
        m_nextAvail = now;
    }
    if (m_cc)
    {
        m_cc->OnPacketSent(payloadBytes);
    }
}

void
RdmaRequester::ReceiveAck(uint32_t wirePsn,
                          Time now,
                          int64_t remoteDelaySteps,
                          uint32_t echoedHops,
                          bool ecnEcho,
                          const IntHeader* ackInt)
{
    uint64_t psn = UnwrapPsn(wirePsn, m_unaPsn);
    if (__builtin_expect(m_readsAdmitted != 0, false))
    {
        psn = CapAckAtRead(psn); // never past a READ's missing responses
    }
    if (psn + 1 <= m_unaPsn || psn >= m_maxSentPsn)
    {
        return; // old or impossible
    }
    uint64_t newlyAcked = psn + 1 - m_unaPsn;
    RdmaAckSample sample;
    sample.ackedPackets = static_cast<uint32_t>(newlyAcked);
    sample.ackedBytes = newlyAcked * m_qp.m_mtu;
    sample.rtt = now - TimeStep(m_sendTimes.Get(psn));
    sample.remoteDelay = TimeStep(remoteDelaySteps); // the ACK's echo (RoceNic HostDelay)
    // The hop count the ACK echoes (RoCEv2: the data packet's TTL), else the route's.
    sample.hops = echoedHops != 0 ? echoedHops : (m_cc ? m_cc->GetContext().hops : 0);
    sample.intHeader = ackInt;
    sample.ecnEcho = ecnEcho;
    m_unaPsn = psn + 1;
    if (m_nextPsn < m_unaPsn)
    {
        m_nextPsn = m_unaPsn;
    }
    if ((m_pending & PENDING_RETX) != 0 && m_retxPsn < m_unaPsn)
    {
        m_pending &= ~PENDING_RETX; // the hole was filled by the original after all
    }
    m_consecutiveTimeouts = 0;
    m_rnrInARow = 0;
    if (m_cc)
    {
        m_cc->OnAck(sample);
    }
    if (__builtin_expect(m_trimActive, false))
    {
        TrimAck();
    }
    CompleteMessages();
    RestartTimer();
    WakeIfData();
}

void
RdmaRequester::ReceiveNak(uint32_t wirePsn)
{
    uint64_t expected = UnwrapPsn(wirePsn, m_unaPsn);
    if (expected < m_unaPsn || expected > m_maxSentPsn)
    {
        return;
    }
    if (__builtin_expect(m_readsAdmitted != 0, false))
    {
        // Not past a READ whose responses are missing: re-issue it from there.
        expected = std::min(expected, ReadBarrier());
    }
    m_qp.m_recoveryOps->OnNak(*this, expected);
    if (m_cc)
    {
        m_cc->OnLossNack();
    }
    CompleteMessages();
    RestartTimer();
    WakeIfData();
}

void
RdmaRequester::GoBackTo(uint64_t psn)
{
    m_unaPsn = psn;
    m_nextPsn = psn;
}

void
RdmaRequester::ResendOnly(uint64_t psn)
{
    m_unaPsn = std::max(m_unaPsn, psn);
    m_nextPsn = std::max(m_nextPsn, m_unaPsn);
    if (psn < m_nextPsn)
    {
        m_pending |= PENDING_RETX;
        m_retxPsn = psn;
    }
}

void
RdmaRequester::ReceiveTrimNack(uint32_t wirePsn)
{
    const uint64_t psn = UnwrapPsn(wirePsn, m_unaPsn);
    if (psn < m_unaPsn || psn >= m_maxSentPsn)
    {
        return; // acknowledged meanwhile, or not sent: nothing to resend
    }
    m_trimNacks++;
    // A resend trimmed again is out of flight again.
    m_trimOut.erase(std::remove(m_trimOut.begin(), m_trimOut.end(), psn), m_trimOut.end());
    if (std::find(m_trimRetx.begin(), m_trimRetx.end(), psn) == m_trimRetx.end() &&
        !((m_pending & PENDING_RETX) != 0 && m_retxPsn == psn))
    {
        m_trimRetx.push_back(psn);
    }
    m_trimActive = true;
    m_sendTimesOn = true; // (the resend's time is read)
    if (m_cc)
    {
        m_cc->OnNack();
    }
    NextTrimRetx();
    RestartTimer(); // the receiver answers: no timeout while NACKs come back
    WakeIfData();
}

bool
RdmaRequester::ReceiveSackLoss(uint32_t wirePsn, Time* lostAt)
{
    const uint64_t psn = UnwrapPsn(wirePsn, m_unaPsn);
    if (psn < m_unaPsn || psn >= m_maxSentPsn || psn >= m_nextPsn ||
        ((m_pending & PENDING_RETX) != 0 && m_retxPsn == psn) ||
        std::find(m_trimRetx.begin(), m_trimRetx.end(), psn) != m_trimRetx.end())
    {
        return false; // acknowledged, not sent, or queued for a resend already
    }
    const auto out = std::find(m_trimOut.begin(), m_trimOut.end(), psn);
    if (out != m_trimOut.end())
    {
        // Resent already: lost again only if still missing two base RTTs after the resend
        // (the SACKs that showed the first loss are older than the resend).
        const Time sent = TimeStep(m_sendTimes.Get(psn));
        const Time rtt = m_cc ? m_cc->GetContext().baseRtt : m_qp.m_rto;
        if (FabricSimulator::Now() - sent < 2 * rtt)
        {
            if (lostAt != nullptr)
            {
                *lostAt = sent + 2 * rtt; // (the caller asks again then)
            }
            return false;
        }
        m_trimOut.erase(out); // its resend was lost too
    }
    m_sackResends++;
    m_trimRetx.push_back(psn);
    m_trimActive = true;
    m_sendTimesOn = true; // (the resend's time is read)
    if (m_cc)
    {
        m_cc->OnLossNack();
    }
    NextTrimRetx();
    WakeIfData();
    return true;
}

uint64_t
RdmaRequester::GetSackResends() const
{
    return m_sackResends;
}

void
RdmaRequester::NextTrimRetx()
{
    m_trimWaitsCredit = false;
    // Acknowledged meanwhile: nothing to resend.
    m_trimRetx.erase(std::remove_if(m_trimRetx.begin(),
                                    m_trimRetx.end(),
                                    [this](uint64_t psn) { return psn < m_unaPsn; }),
                     m_trimRetx.end());
    m_trimActive = !m_trimRetx.empty() || !m_trimOut.empty();
    if (m_trimRetx.empty() || ((m_pending & PENDING_RETX) != 0 && m_retxPsn >= m_unaPsn))
    {
        return; // none, or one resend at a time: the pending one goes first
    }
    // The lowest hole first: it is what holds the cumulative ACK back.
    const auto lowest = std::min_element(m_trimRetx.begin(), m_trimRetx.end());
    // The window counts the resends in flight; one below all of them may always go
    // (else resends above a hole would wait for an ACK that waits for the hole).
    const uint64_t window = m_cc ? m_ccWindowBytes : std::numeric_limits<uint64_t>::max();
    if (!m_trimOut.empty() && (m_trimOut.size() + 1) * m_qp.m_mtu > window &&
        *lowest > *std::min_element(m_trimOut.begin(), m_trimOut.end()))
    {
        return;
    }
    m_trimWaitsCredit = m_cc && !m_cc->MayResend();
    if (m_trimWaitsCredit)
    {
        return; // no credit: the resend waits for the next grant (OnCcChange)
    }
    m_pending |= PENDING_RETX;
    m_retxPsn = *lowest;
    m_trimOut.push_back(*lowest);
    m_trimRetx.erase(lowest);
}

void
RdmaRequester::TrimAck()
{
    m_trimOut.erase(std::remove_if(m_trimOut.begin(),
                                   m_trimOut.end(),
                                   [this](uint64_t psn) { return psn < m_unaPsn; }),
                    m_trimOut.end());
    NextTrimRetx();
}

uint64_t
RdmaRequester::GetTrimNacks() const
{
    return m_trimNacks;
}

void
RdmaRequester::ReceiveCnp()
{
    if (m_cc)
    {
        m_cc->OnCnp();
    }
}

void
RdmaRequester::ReceiveRnrNak(uint32_t wirePsn, uint8_t timerCode, Time now)
{
    const uint64_t psn = UnwrapPsn(wirePsn, m_unaPsn);
    if (m_error || psn < m_unaPsn || psn > m_maxSentPsn)
    {
        return;
    }
    m_rnrNaks++;
    if (psn > m_unaPsn)
    {
        m_rnrInARow = 0; // it acknowledges PSNs below its own: progress
    }
    // Everything below psn is acknowledged; psn and what follows it were dropped.
    m_unaPsn = psn;
    m_nextPsn = psn;
    m_pending &= ~PENDING_RETX;
    CompleteMessages();
    const uint32_t retry = m_qp.m_rnrRetry;
    if (retry != RdmaQueuePair::RNR_RETRY_INFINITE && m_rnrInARow >= retry)
    {
        EnterError();
        return;
    }
    m_rnrInARow++;
    m_rnrRetries++;
    // Resend from psn once the timer the NAK names has run (IBTA 9.7.5.2.8).
    m_nextAvail = now + RdmaRnrTimer::Decode(timerCode);
    if (m_qp.m_attribution != nullptr)
    {
        m_qp.m_attribution->OnRnrWait(m_qp, m_nextAvail);
    }
    RestartTimer(); // disarmed: nothing is outstanding while it waits
    WakeIfData();
}

void
RdmaRequester::EnterError()
{
    NS_LOG_FUNCTION(this << m_unaPsn);
    m_error = true;
    // The work request whose retries ran out completes in error, the rest are flushed.
    const uint64_t flushed = m_messages.size();
    m_errorMessages += flushed;
    m_messages.clear();
    m_nextPsn = m_unaPsn;
    m_endPsn = m_unaPsn;
    m_postedEndPsn = m_unaPsn;
    m_readsAdmitted = 0;
    m_pending &= ~PENDING_RETX;
    m_rtoDeadline = Time(0);
    m_qp.NotifyError(flushed);
}

void
RdmaRequester::ModifyToError()
{
    if (!m_error)
    {
        EnterError();
    }
}

bool
RdmaRequester::IsInError() const
{
    return m_error;
}

uint64_t
RdmaRequester::GetRnrNaksReceived() const
{
    return m_rnrNaks;
}

uint64_t
RdmaRequester::GetRnrRetries() const
{
    return m_rnrRetries;
}

uint64_t
RdmaRequester::GetErrorMessages() const
{
    return m_errorMessages;
}

void
RdmaRequester::CompleteMessages()
{
    while (!m_messages.empty() && m_messages.front().endPsn <= m_unaPsn)
    {
        RdmaMessage m = m_messages.front();
        m_messages.pop_front();
        if (__builtin_expect(m.isRead, false))
        {
            m_readsAdmitted--;
            AdmitWaiting();
        }
        m_qp.NotifySent(m);
    }
}

void
RdmaRequester::RestartTimer()
{
    // Lazy timer: an ACK only moves the deadline. Cancelling and rescheduling per
    // ACK would leave one dead event per ACK in the event list for a whole RTO
    // (4 ms): tens of thousands of them, making every event cost more.
    if (m_unaPsn < m_nextPsn)
    {
        const Time rto = m_qp.m_rto;
        m_rtoDeadline = FabricSimulator::Now() + rto;
        if (!m_timerPending)
        {
            m_timerPending = true;
            m_timer = Simulator::Schedule(rto, &RdmaRequester::Timeout, this);
        }
    }
    else
    {
        m_rtoDeadline = Time(0); // disarmed; a pending event finds nothing to do
    }
}

void
RdmaRequester::Timeout()
{
    m_timerPending = false;
    if (m_rtoDeadline.IsZero())
    {
        return; // everything was acknowledged since the timer was set
    }
    const Time now = FabricSimulator::Now();
    if (now < m_rtoDeadline)
    {
        m_timerPending = true;
        m_timer = Simulator::Schedule(m_rtoDeadline - now, &RdmaRequester::Timeout, this);
        return; // restarted by an ACK meanwhile
    }
    m_rtoDeadline = Time(0);
    NS_LOG_FUNCTION(this << m_unaPsn << m_nextPsn);
    m_timeouts++;
    m_consecutiveTimeouts++;
    m_qp.m_timeoutTrace(Ptr<const RdmaQueuePair>(&m_qp), m_unaPsn);
    if (m_consecutiveTimeouts == 1)
    {
        m_stallStart = now - m_qp.m_rto; // the last progress (or send) before it
    }
    if (m_consecutiveTimeouts > m_qp.m_retryCount &&
        now - m_stallStart >= m_qp.m_retryTimeout * (m_qp.m_retryCount + 1))
    {
        // retry_cnt resends in a row went unanswered: the peer is gone (IBTA 9.7.6.1.3).
        EnterError();
        return;
    }
    m_nextPsn = m_unaPsn;
    m_pending &= ~PENDING_RETX;
    m_trimRetx.clear(); // everything from m_unaPsn goes again
    m_trimOut.clear();
    m_trimActive = false;
    if (m_cc)
    {
        m_cc->OnTimeout();
    }
    WakeIfData();
}

// ---- RDMA READ ----

void
RdmaRequester::PostRead(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
{
    const uint32_t mtu = m_qp.m_mtu;
    RdmaMessage m;
    m.id = messageId;
    m.tag = tag;
    m.bytes = bytes;
    m.firstPsn = m_postedEndPsn;
    // One PSN per response packet; a zero-length READ has one (empty) response.
    m.endPsn = m_postedEndPsn + std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    m.postTime = FabricSimulator::Now();
    m.kind = kind;
    m.isRead = true;
    m_messages.push_back(m);
    if (m_endPsn == m_postedEndPsn && m_readsAdmitted < m_qp.m_maxRdAtomic)
    {
        m_endPsn = m.endPsn;
        m_readsAdmitted++;
    }
    m_postedEndPsn = m.endPsn;
    m_qp.NotifyWake();
}

void
RdmaRequester::AdmitWaiting()
{
    // The send queue is in order: a READ over the limit holds what was posted after it.
    while (m_endPsn < m_postedEndPsn)
    {
        const RdmaMessage* m = MessageOf(m_endPsn);
        if (m->isRead)
        {
            if (m_readsAdmitted >= m_qp.m_maxRdAtomic)
            {
                break;
            }
            m_readsAdmitted++;
        }
        m_endPsn = m->endPsn;
    }
}

RdmaSegment
RdmaRequester::MakeReadRequest(const RdmaMessage& m, uint64_t psn) const
{
    // A re-issued READ asks for the rest of the message from the first missing
    // response: its RETH's address and length move on by the bytes already received.
    RdmaSegment s;
    s.psn = psn;
    s.opcode = RdmaOpcode::READ_REQUEST;
    s.offset = (psn - m.firstPsn) * m_qp.m_mtu;
    s.messageBytes = m.bytes > s.offset ? m.bytes - s.offset : 0;
    s.payloadBytes = 0;
    return s;
}

uint64_t
RdmaRequester::ReadBarrier() const
{
    for (const RdmaMessage& m : m_messages)
    {
        if (m.isRead && m.endPsn > m_unaPsn)
        {
            return std::max(m_unaPsn, m.firstPsn);
        }
    }
    return UINT64_MAX;
}

uint64_t
RdmaRequester::CapAckAtRead(uint64_t psn)
{
    const uint64_t barrier = ReadBarrier();
    if (psn < barrier)
    {
        return psn;
    }
    // The responder processed the READ (an ACK of a later packet can overtake its
    // responses, which go out as data): apply the rest once the responses are in.
    m_deferredAckPsn = std::max(m_deferredAckPsn, psn + 1);
    return barrier - 1; // below m_unaPsn if barrier is m_unaPsn: nothing acknowledged
}

void
RdmaRequester::ReceiveReadResponse(uint32_t wirePsn, uint32_t payloadBytes, Time now)
{
    const uint64_t psn = UnwrapPsn(wirePsn, m_unaPsn);
    const uint64_t expected = ReadBarrier();
    if (psn < expected || psn >= m_maxSentPsn)
    {
        return; // a duplicate (already received), or no READ waits for it
    }
    if (psn != expected)
    {
        // Responses come in PSN order: the ones from expected on are lost (or their
        // request was). Everything before expected is implicitly acknowledged (the
        // responder handled the READ); re-issue the READ from expected, once.
        m_unaPsn = expected;
        if (m_readRetryPsn != expected)
        {
            m_readRetryPsn = expected;
            GoBackTo(expected);
        }
        m_consecutiveTimeouts = 0;
        CompleteMessages();
        RestartTimer();
        WakeIfData();
        return;
    }
    // In order: acknowledges everything up to it (IBTA's implied acknowledgement).
    m_unaPsn = psn + 1;
    if (m_nextPsn < m_unaPsn)
    {
        m_nextPsn = m_unaPsn;
    }
    if (m_readRetryPsn != UINT64_MAX && m_readRetryPsn < m_unaPsn)
    {
        m_readRetryPsn = UINT64_MAX;
    }
    if ((m_pending & PENDING_RETX) != 0 && m_retxPsn < m_unaPsn)
    {
        m_pending &= ~PENDING_RETX;
    }
    m_readBytes += payloadBytes;
    m_consecutiveTimeouts = 0;
    CompleteMessages();
    if (m_deferredAckPsn != 0)
    {
        const uint64_t acked = m_deferredAckPsn - 1;
        m_deferredAckPsn = 0;
        if (acked >= m_unaPsn)
        {
            ReceiveAck(static_cast<uint32_t>(acked & RDMA_PSN_MASK), now);
            return; // (which restarts the timer and wakes)
        }
    }
    RestartTimer();
    WakeIfData();
}

void
RdmaRequester::QueueReadResponse(uint64_t firstPsn, uint64_t bytes, uint32_t msn)
{
    const uint32_t mtu = m_qp.m_mtu;
    while (!m_readResponses.empty() && m_readResponses.back().firstPsn >= firstPsn)
    {
        m_readResponses.pop_back();
    }
    if (!m_readResponses.empty() && m_readResponses.back().endPsn > firstPsn)
    {
        m_readResponses.back().endPsn = firstPsn;
        if (m_readResponses.back().nextPsn >= firstPsn)
        {
            m_readResponses.pop_back();
        }
    }
    ReadResponseJob j;
    j.firstPsn = firstPsn;
    j.nextPsn = firstPsn;
    j.endPsn = firstPsn + std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    j.bytes = bytes;
    j.msn = msn;
    m_readResponses.push_back(j);
    m_pending |= PENDING_READ_RESPONSE;
    m_qp.NotifyWake();
}

RdmaSegment
RdmaRequester::NextReadResponse(Time now, uint32_t wireBytes)
{
    const uint32_t mtu = m_qp.m_mtu;
    ReadResponseJob& j = m_readResponses.front();
    const uint64_t index = j.nextPsn - j.firstPsn;
    const uint64_t packets = std::max<uint64_t>(1, (j.bytes + mtu - 1) / mtu);
    RdmaSegment s;
    s.psn = j.nextPsn;
    s.offset = index * mtu;
    s.payloadBytes =
        j.bytes > s.offset ? static_cast<uint32_t>(std::min<uint64_t>(mtu, j.bytes - s.offset)) : 0;
    s.messageBytes = j.bytes;
    s.msn = j.msn;
    const bool first = index == 0;
    const bool last = index + 1 == packets;
    s.opcode = first && last ? RdmaOpcode::READ_RESPONSE_ONLY
               : first       ? RdmaOpcode::READ_RESPONSE_FIRST
               : last        ? RdmaOpcode::READ_RESPONSE_LAST
                             : RdmaOpcode::READ_RESPONSE_MIDDLE;
    if (++j.nextPsn >= j.endPsn)
    {
        m_readResponses.pop_front();
        if (m_readResponses.empty())
        {
            m_pending &= ~PENDING_READ_RESPONSE;
        }
    }
    m_readResponsesSent++;
    s.entropy = NextEntropy();
    ChargePacing(now, wireBytes, s.payloadBytes);
    return s;
}

uint64_t
RdmaRequester::GetReadBytes() const
{
    return m_readBytes;
}

uint64_t
RdmaRequester::GetReadRetries() const
{
    return m_readRetries;
}

uint64_t
RdmaRequester::GetReadResponsesSent() const
{
    return m_readResponsesSent;
}

uint32_t
RdmaRequester::GetOutstandingReads() const
{
    return m_readsAdmitted;
}

uint64_t
RdmaRequester::GetOutstandingBytes() const
{
    return (m_nextPsn - m_unaPsn) * m_qp.m_mtu;
}

uint64_t
RdmaRequester::GetBacklogBytes() const
{
    const uint64_t resends = m_trimRetx.size() + ((m_pending & PENDING_RETX) != 0 ? 1 : 0);
    return (m_endPsn - m_nextPsn + resends) * m_qp.m_mtu;
}

uint64_t
RdmaRequester::GetRetransmittedPackets() const
{
    return m_retransmitted;
}

uint64_t
RdmaRequester::GetTimeouts() const
{
    return m_timeouts;
}

std::size_t
RdmaRequester::GetPendingMessages() const
{
    return m_messages.size();
}

} // namespace ns3
