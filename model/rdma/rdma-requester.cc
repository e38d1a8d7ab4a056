/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-requester.h"

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
      m_sendTimes(64, 0)
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
    m.firstPsn = m_endPsn;
    m.endPsn = m_endPsn + (bytes + mtu - 1) / mtu;
    m.postTime = FabricSimulator::Now();
    m.kind = kind;
    m.sendShift = sendShift;
    m_endPsn = m.endPsn;
    m_messages.push_back(m);
    m_qp.NotifyWake();
}

bool
RdmaRequester::HasDataToSend() const
{
    return m_retxPending || m_nextPsn < m_endPsn;
}

bool
RdmaRequester::IsWindowBlocked() const
{
    // A selective retransmission fills the hole that holds the window: never blocked.
    if (!m_cc || m_nextPsn == m_unaPsn || m_retxPending)
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
    // Remember the send time for RTT samples; the ring holds [una, next).
    if (psn - m_unaPsn >= m_sendTimes.size())
    {
        std::vector<int64_t> grown(m_sendTimes.size() * 2, 0);
        for (uint64_t p = m_unaPsn; p < m_nextPsn; ++p)
        {
            grown[p & (grown.size() - 1)] = m_sendTimes[p & (m_sendTimes.size() - 1)];
        }
        m_sendTimes.swap(grown);
    }
    m_sendTimes[psn & (m_sendTimes.size() - 1)] = now.GetTimeStep();
}

RdmaSegment
RdmaRequester::NextSegment(Time now, uint32_t wireBytes)
{
    NS_ASSERT(HasDataToSend());
    RdmaSegment s;
    if (m_retxPending && m_retxPsn >= m_unaPsn && m_retxPsn < m_nextPsn)
    {
        // Selective repeat: resend only the PSN the responder NAKed.
        s = MakeSegment(m_retxPsn);
        s.retransmission = true;
        m_retxPending = false;
        m_retransmitted++;
        RecordSendTime(s.psn, now);
    }
    else
    {
        m_retxPending = false;
        s = MakeSegment(m_nextPsn);
        s.retransmission = m_nextPsn < m_maxSentPsn;
        if (s.retransmission)
        {
            m_retransmitted++;
        }
        RecordSendTime(m_nextPsn, now);
        m_nextPsn++;
        m_maxSentPsn = std::max(m_maxSentPsn, m_nextPsn);
    }
    // NIC-driven spraying: cycle over NicEntropy source ports in the dynamic range.
    const uint32_t nicEntropy = m_qp.m_nicEntropy;
    if (nicEntropy > 1)
    {
        uint64_t slot = (m_packetsSent / m_qp.m_entropyBurst) % nicEntropy;
        s.entropy = static_cast<uint16_t>(0xC000 | ((m_qp.m_entropy + slot) & 0x3FFF));
    }
    else
    {
        s.entropy = m_qp.m_entropy;
    }
    m_packetsSent++;

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
        m_cc->OnPacketSent(s.payloadBytes);
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

void
RdmaRequester::ReceiveAck(uint32_t wirePsn,
                          Time now,
                          int64_t remoteDelaySteps,
                          uint32_t echoedHops,
                          bool ecnEcho,
                          const IntHeader* ackInt)
{
    uint64_t psn = UnwrapPsn(wirePsn, m_unaPsn);
    if (psn + 1 <= m_unaPsn || psn >= m_maxSentPsn)
    {
        return; // old or impossible
    }
    uint64_t newlyAcked = psn + 1 - m_unaPsn;
    RdmaAckSample sample;
    sample.ackedPackets = static_cast<uint32_t>(newlyAcked);
    sample.ackedBytes = newlyAcked * m_qp.m_mtu;
    sample.rtt = now - TimeStep(m_sendTimes[psn & (m_sendTimes.size() - 1)]);
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
    if (m_retxPending && m_retxPsn < m_unaPsn)
    {
        m_retxPending = false; // the hole was filled by the original after all
    }
    m_consecutiveTimeouts = 0;
    m_rnrInARow = 0;
    if (m_cc)
    {
        m_cc->OnAck(sample);
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
    m_qp.m_recoveryOps->OnNak(*this, expected);
    if (m_cc)
    {
        m_cc->OnNack();
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
        m_retxPending = true;
        m_retxPsn = psn;
    }
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
    m_retxPending = false;
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
    m_retxPending = false;
    m_rtoDeadline = Time(0);
    m_qp.NotifyError(flushed);
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
    m_nextPsn = m_unaPsn;
    m_retxPending = false;
    if (m_cc)
    {
        m_cc->OnTimeout();
    }
    WakeIfData();
}

uint64_t
RdmaRequester::GetOutstandingBytes() const
{
    return (m_nextPsn - m_unaPsn) * m_qp.m_mtu;
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
