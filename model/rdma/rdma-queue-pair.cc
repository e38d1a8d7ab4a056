/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "rdma-opcode.h"
#include "rounded-time.h"

#include "ns3/enum.h"
#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
constexpr uint64_t PSN_MASK = 0xFFFFFF;   // the BTH carries 24 bits
constexpr uint32_t RX_LAST = 0x80000000U; // receive ring: the slot ends a message
// Receive ring cap: 2^20 packets (1 GB at a 1000-byte MTU) is far beyond any
// reordering a fabric produces; a packet further ahead is dropped, like an
// out-of-window packet, and recovered by the sender.
constexpr uint64_t RX_RING_MAX = 1U << 20;
} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet (IB path MTU: 256..4096; RoCEv2 NICs "
                          "commonly use 1024 or 4096)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RdmaQueuePair::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("AckInterval",
                          "The receiver acknowledges every this many in-order packets, and "
                          "always at a message's last packet (1 = every packet, as the "
                          "HPCC-derived simulators do)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("RetransmitTimeout",
                          "Local ACK timeout: go back to the oldest unacknowledged PSN when "
                          "nothing was acknowledged for this long. Default 4.096 us x 2^10 "
                          "(IB timeout exponent 10): far above any queueing delay of a "
                          "lossless fabric, so it only fires after a real loss",
                          TimeValue(NanoSeconds(4194304)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("CnpInterval",
                          "DCQCN notification point: at most one CNP per QP per interval "
                          "(50 us in Zhu et al. 2015)",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaQueuePair::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Recovery",
                          "Loss recovery: GoBackN (IBTA RC: out-of-order packets are dropped "
                          "and NAKed, the sender resends from the NAKed PSN) or "
                          "SelectiveRepeat (IRN-like: out-of-order placement, NAK after "
                          "ReorderThreshold later arrivals, only the NAKed PSN is resent). "
                          "Sender and receiver must agree",
                          EnumValue(RdmaQueuePair::GO_BACK_N),
                          MakeEnumAccessor(&RdmaQueuePair::m_recovery),
                          MakeEnumChecker(RdmaQueuePair::GO_BACK_N,
                                          "GoBackN",
                                          RdmaQueuePair::SELECTIVE_REPEAT,
                                          "SelectiveRepeat"))
            .AddAttribute("ReorderThreshold",
                          "Selective repeat: the receiver NAKs a missing PSN once this many "
                          "later PSNs have arrived (packets). Like TCP's duplicate-ACK "
                          "threshold, but sized for packet spraying, whose reordering depth "
                          "is the queueing difference between paths (tens of packets); 1 = "
                          "NAK at the first out-of-order arrival, as IRN does",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaQueuePair::m_reorderThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1U << 20))
            .AddAttribute("NicEntropy",
                          "Number of UDP source ports a QP's data packets cycle over "
                          "(NIC-driven spraying); 1 = one port per QP (plain RoCEv2)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_nicEntropy),
                          MakeUintegerChecker<uint32_t>(1, 16384))
            .AddAttribute("EntropyBurst",
                          "Packets sent with one entropy value before moving to the next "
                          "(NicEntropy > 1); 1 = per-packet spraying",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_entropyBurst),
                          MakeUintegerChecker<uint32_t>(1, 1U << 20));
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_mtu(1000),
      m_ackInterval(1),
      m_rto(NanoSeconds(4194304)),
      m_cnpInterval(MicroSeconds(50)),
      m_recovery(GO_BACK_N),
      m_reorderThreshold(64),
      m_nicEntropy(1),
      m_entropyBurst(1),
      m_sendTimes(64, 0),
      m_rxRing(64, 0)
{
}

RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    m_timer.Cancel();
    if (m_cc)
    {
        m_cc->Dispose();
        m_cc = nullptr;
    }
    m_sendComplete = SendCompleteCallback();
    m_delivered = DeliveredCallback();
    m_wake = WakeCallback();
    m_wakeFunction = nullptr;
    Object::DoDispose();
}

void
RdmaQueuePair::SetIdentity(uint32_t localQpn,
                           uint32_t peerQpn,
                           uint32_t localHost,
                           uint32_t peerHost,
                           uint8_t priority,
                           uint16_t entropy)
{
    m_localQpn = localQpn;
    m_peerQpn = peerQpn;
    m_localHost = localHost;
    m_peerHost = peerHost;
    m_priority = priority;
    m_entropy = entropy;
}

uint32_t
RdmaQueuePair::GetLocalQpn() const
{
    return m_localQpn;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

uint32_t
RdmaQueuePair::GetLocalHost() const
{
    return m_localHost;
}

uint32_t
RdmaQueuePair::GetPeerHost() const
{
    return m_peerHost;
}

uint8_t
RdmaQueuePair::GetPriority() const
{
    return m_priority;
}

uint16_t
RdmaQueuePair::GetEntropy() const
{
    return m_entropy;
}

void
RdmaQueuePair::SetCongestionControl(Ptr<RdmaCongestionControl> cc, const RdmaCcContext& ctx)
{
    m_cc = cc;
    m_lineRateBps = ctx.lineRate.GetBitRate();
    m_cc->SetChangeCallback(MakeCallback(&RdmaQueuePair::OnCcChange, this));
    m_cc->Start(ctx);
    m_ccWindowBytes = m_cc->GetWindowBytes(); // (Start sets it without a change callback)
}

Ptr<RdmaCongestionControl>
RdmaQueuePair::GetCongestionControl() const
{
    return m_cc;
}

void
RdmaQueuePair::SetCallbacks(SendCompleteCallback sent,
                            DeliveredCallback delivered,
                            WakeCallback wake)
{
    m_sendComplete = sent;
    m_delivered = delivered;
    m_wake = wake;
}

void
RdmaQueuePair::SetWakeFunction(void (*wake)(void* target, RdmaQueuePair& qp), void* target)
{
    m_wakeFunction = wake;
    m_wakeTarget = target;
}

void
RdmaQueuePair::NotifyWake()
{
    if (m_wakeFunction != nullptr)
    {
        m_wakeFunction(m_wakeTarget, *this);
    }
    else if (!m_wake.IsNull())
    {
        m_wake(this);
    }
}

void
RdmaQueuePair::OnCcChange()
{
    m_ccWindowBytes = m_cc->GetWindowBytes();
    if (HasDataToSend())
    {
        NotifyWake();
    }
}

void
RdmaQueuePair::PostWrite(uint64_t messageId, uint64_t bytes, uint64_t tag, uint8_t kind)
{
    NS_ASSERT_MSG(bytes > 0, "an RDMA WRITE carries at least one byte");
    RdmaMessage m;
    m.id = messageId;
    m.tag = tag;
    m.bytes = bytes;
    m.firstPsn = m_endPsn;
    m.endPsn = m_endPsn + (bytes + m_mtu - 1) / m_mtu;
    m.postTime = FabricSimulator::Now();
    m.kind = kind;
    m_endPsn = m.endPsn;
    m_messages.push_back(m);
    NotifyWake();
}

void
RdmaQueuePair::PostReceive(uint64_t tag)
{
    m_rxTags.push_back(tag);
}

bool
RdmaQueuePair::HasDataToSend() const
{
    return m_retxPending || m_nextPsn < m_endPsn;
}

bool
RdmaQueuePair::IsWindowBlocked() const
{
    // A selective retransmission fills the hole that holds the window: never blocked.
    if (!m_cc || m_nextPsn == m_unaPsn || m_retxPending)
    {
        return false; // one packet may always be in flight
    }
    return (m_nextPsn - m_unaPsn + 1) * m_mtu > m_ccWindowBytes;
}

bool
RdmaQueuePair::CanSend(Time now) const
{
    return HasDataToSend() && now >= m_nextAvail && !IsWindowBlocked();
}

Time
RdmaQueuePair::GetNextSendTime() const
{
    return m_nextAvail;
}

const RdmaMessage*
RdmaQueuePair::MessageOf(uint64_t psn) const
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
RdmaQueuePair::MakeSegment(uint64_t psn) const
{
    const RdmaMessage* m = MessageOf(psn);
    RdmaSegment s;
    s.psn = psn;
    uint64_t index = psn - m->firstPsn;
    uint64_t nPackets = m->endPsn - m->firstPsn;
    s.offset = index * m_mtu;
    s.payloadBytes = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, m->bytes - s.offset));
    s.messageBytes = m->bytes;
    bool first = index == 0;
    bool last = index + 1 == nPackets;
    s.opcode = first && last ? RdmaOpcode::WRITE_ONLY_IMM
               : first       ? RdmaOpcode::WRITE_FIRST
               : last        ? RdmaOpcode::WRITE_LAST_IMM
                             : RdmaOpcode::WRITE_MIDDLE;
    s.ackRequest = last;
    return s;
}

void
RdmaQueuePair::RecordSendTime(uint64_t psn, Time now)
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
RdmaQueuePair::NextSegment(Time now, uint32_t wireBytes)
{
    NS_ASSERT(HasDataToSend());
    RdmaSegment s;
    if (m_retxPending && m_retxPsn >= m_unaPsn && m_retxPsn < m_nextPsn)
    {
        // Selective repeat: resend only the PSN the receiver NAKed.
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
    uint64_t slot = m_nicEntropy > 1 ? (m_packetsSent / m_entropyBurst) % m_nicEntropy : 0;
    s.entropy = static_cast<uint16_t>(0xC000 | ((m_entropy + slot) & 0x3FFF));
    if (m_nicEntropy <= 1)
    {
        s.entropy = m_entropy;
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
    if (m_rtoDeadline.IsZero())
    {
        RestartTimer();
    }
    return s;
}

uint64_t
RdmaQueuePair::Unwrap(uint32_t wirePsn, uint64_t reference) const
{
    // The 64-bit PSN nearest to reference whose low 24 bits are wirePsn.
    uint64_t base = reference & ~PSN_MASK;
    uint64_t candidate = base | wirePsn;
    const uint64_t half = (PSN_MASK + 1) / 2;
    if (candidate + half < reference)
    {
        candidate += PSN_MASK + 1;
    }
    else if (candidate > reference + half && candidate >= PSN_MASK + 1)
    {
        candidate -= PSN_MASK + 1;
    }
    return candidate;
}

void
RdmaQueuePair::ReceiveAck(uint32_t wirePsn, Time now)
{
    uint64_t psn = Unwrap(wirePsn, m_unaPsn);
    if (psn + 1 <= m_unaPsn || psn >= m_maxSentPsn)
    {
        return; // old or impossible
    }
    uint64_t newlyAcked = psn + 1 - m_unaPsn;
    RdmaAckSample sample;
    sample.ackedPackets = static_cast<uint32_t>(newlyAcked);
    sample.ackedBytes = newlyAcked * m_mtu;
    sample.rtt = now - TimeStep(m_sendTimes[psn & (m_sendTimes.size() - 1)]);
    sample.remoteDelay = Time(0); // the receiving NIC answers at once (no host delay modelled)
    sample.hops = m_cc ? m_cc->GetContext().hops : 0;
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
    if (m_cc)
    {
        m_cc->OnAck(sample);
    }
    CompleteMessages();
    RestartTimer();
    if (HasDataToSend())
    {
        NotifyWake();
    }
}

void
RdmaQueuePair::ReceiveNak(uint32_t wirePsn, Time /* now */)
{
    uint64_t expected = Unwrap(wirePsn, m_unaPsn);
    if (expected < m_unaPsn || expected > m_maxSentPsn)
    {
        return;
    }
    if (m_recovery == SELECTIVE_REPEAT)
    {
        // A NAK acknowledges everything before the PSN it names; resend only that PSN.
        m_unaPsn = std::max(m_unaPsn, expected);
        m_nextPsn = std::max(m_nextPsn, m_unaPsn);
        if (expected < m_nextPsn)
        {
            m_retxPending = true;
            m_retxPsn = expected;
        }
    }
    else
    {
        // A NAK acknowledges everything before the PSN it names, then go back N.
        m_unaPsn = expected;
        m_nextPsn = expected;
    }
    if (m_cc)
    {
        m_cc->OnNack();
    }
    CompleteMessages();
    RestartTimer();
    if (HasDataToSend())
    {
        NotifyWake();
    }
}

void
RdmaQueuePair::ReceiveCnp()
{
    if (m_cc)
    {
        m_cc->OnCnp();
    }
}

void
RdmaQueuePair::CompleteMessages()
{
    while (!m_messages.empty() && m_messages.front().endPsn <= m_unaPsn)
    {
        RdmaMessage m = m_messages.front();
        m_messages.pop_front();
        if (!m_sendComplete.IsNull())
        {
            m_sendComplete(this, m);
        }
    }
}

void
RdmaQueuePair::RestartTimer()
{
    // Lazy timer: an ACK only moves the deadline. Cancelling and rescheduling per
    // ACK would leave one dead event per ACK in the event list for a whole RTO
    // (4 ms): tens of thousands of them, making every event cost more.
    if (m_unaPsn < m_nextPsn)
    {
        m_rtoDeadline = FabricSimulator::Now() + m_rto;
        if (!m_timerPending)
        {
            m_timerPending = true;
            m_timer = Simulator::Schedule(m_rto, &RdmaQueuePair::Timeout, this);
        }
    }
    else
    {
        m_rtoDeadline = Time(0); // disarmed; a pending event finds nothing to do
    }
}

void
RdmaQueuePair::Timeout()
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
        m_timer = Simulator::Schedule(m_rtoDeadline - now, &RdmaQueuePair::Timeout, this);
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
    if (HasDataToSend())
    {
        NotifyWake();
    }
}

uint64_t
RdmaQueuePair::GetOutstandingBytes() const
{
    return (m_nextPsn - m_unaPsn) * m_mtu;
}

uint64_t
RdmaQueuePair::GetRetransmittedPackets() const
{
    return m_retransmitted;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

std::size_t
RdmaQueuePair::GetPendingMessages() const
{
    return m_messages.size();
}

bool
RdmaQueuePair::EnsureRxRing(uint64_t distance)
{
    if (distance < m_rxRing.size())
    {
        return true;
    }
    if (distance >= RX_RING_MAX)
    {
        return false;
    }
    // Rare: grow to the next power of two that holds the distance twice over.
    std::size_t size = m_rxRing.size();
    while (size <= distance * 2 && size < RX_RING_MAX)
    {
        size *= 2;
    }
    std::vector<uint32_t> grown(size, 0);
    for (uint64_t p = m_ePsn; p < m_ePsn + m_rxRing.size(); ++p)
    {
        grown[p & (size - 1)] = m_rxRing[p & (m_rxRing.size() - 1)];
    }
    m_rxRing.swap(grown);
    return true;
}

bool
RdmaQueuePair::Consume(uint32_t payloadBytes, bool last)
{
    m_rxMessageBytes += payloadBytes;
    m_unackedPackets++;
    if (!last)
    {
        return false;
    }
    m_msn++;
    uint64_t tag = 0;
    if (!m_rxTags.empty())
    {
        tag = m_rxTags.front();
        m_rxTags.pop_front();
    }
    uint64_t bytes = m_rxMessageBytes;
    m_rxMessageBytes = 0;
    if (!m_delivered.IsNull())
    {
        m_delivered(this, tag, bytes);
    }
    return true;
}

RdmaQueuePair::Reply
RdmaQueuePair::ReceiveData(uint32_t wirePsn,
                           uint8_t opcode,
                           uint32_t payloadBytes,
                           bool ackRequest,
                           bool ceMarked,
                           Time now)
{
    Reply reply;
    if (ceMarked && (!m_cnpSent || now - m_lastCnp >= m_cnpInterval))
    {
        reply.cnp = true;
        m_cnpSent = true;
        m_lastCnp = now;
    }
    uint64_t psn = Unwrap(wirePsn, m_ePsn);
    reply.msn = m_msn & PSN_MASK;
    if (psn < m_ePsn)
    {
        // Duplicate (a resend of something already placed): re-ACK.
        m_duplicates++;
        m_spurious++;
        reply.ackPsn = (m_ePsn - 1) & PSN_MASK;
        reply.response = Response::ACK;
        return reply;
    }
    uint64_t distance = psn - m_ePsn;
    if (!EnsureRxRing(distance))
    {
        m_outOfOrder++;
        reply.response = Response::NONE;
        return reply; // beyond any reorder window: as if lost
    }
    const uint64_t mask = m_rxRing.size() - 1;
    uint32_t& slot = m_rxRing[psn & mask];
    bool last = RdmaOpcode::IsLast(opcode);
    if (distance > 0)
    {
        m_outOfOrder++;
        m_maxReorder = std::max(m_maxReorder, distance);
        if (m_recovery == GO_BACK_N)
        {
            // Go-back-N receivers drop it (remembering it was seen, for statistics)
            // and NAK once per expected PSN.
            if (slot != 0)
            {
                m_spurious++;
            }
            slot = 1;
            if (m_nakOutstanding)
            {
                reply.response = Response::NONE;
                return reply;
            }
            m_nakOutstanding = true;
            m_naksSent++;
            reply.ackPsn = m_ePsn & PSN_MASK;
            reply.response = Response::NAK;
            return reply;
        }
        if (slot != 0)
        {
            m_duplicates++;
            m_spurious++;
            reply.response = Response::NONE;
            return reply;
        }
        // Selective repeat: place it now (its PSN gives its offset) and hold its slot.
        slot = payloadBytes | (last ? RX_LAST : 0);
        m_rxAbove++;
        m_deliveredBytes += payloadBytes;
        if (!m_nakOutstanding && m_rxAbove >= m_reorderThreshold)
        {
            m_nakOutstanding = true;
            m_naksSent++;
            reply.ackPsn = m_ePsn & PSN_MASK;
            reply.response = Response::NAK;
            return reply;
        }
        reply.response = Response::NONE;
        return reply;
    }
    // The expected PSN.
    if (slot != 0)
    {
        m_spurious++; // go-back-N: it had arrived before and was discarded
        slot = 0;
    }
    m_ePsn++;
    m_nakOutstanding = false;
    m_deliveredBytes += payloadBytes;
    bool ended = Consume(payloadBytes, last);
    bool jumped = false;
    while (m_rxAbove > 0)
    {
        uint32_t& next = m_rxRing[m_ePsn & mask];
        if (next == 0)
        {
            break;
        }
        uint32_t v = next;
        next = 0;
        m_rxAbove--;
        m_ePsn++;
        jumped = true;
        ended |= Consume(v & ~RX_LAST, (v & RX_LAST) != 0);
    }
    reply.msn = m_msn & PSN_MASK;
    if (m_rxAbove >= m_reorderThreshold)
    {
        // Another hole with enough later arrivals: NAK it now (acknowledges all below).
        m_nakOutstanding = true;
        m_naksSent++;
        m_unackedPackets = 0;
        reply.ackPsn = m_ePsn & PSN_MASK;
        reply.response = Response::NAK;
        return reply;
    }
    if (ended || jumped || ackRequest || m_unackedPackets >= m_ackInterval)
    {
        m_unackedPackets = 0;
        reply.ackPsn = (m_ePsn - 1) & PSN_MASK;
        reply.response = Response::ACK;
        return reply;
    }
    reply.response = Response::NONE;
    return reply;
}

uint64_t
RdmaQueuePair::GetDeliveredBytes() const
{
    return m_deliveredBytes;
}

uint64_t
RdmaQueuePair::GetOutOfOrderPackets() const
{
    return m_outOfOrder;
}

uint64_t
RdmaQueuePair::GetDuplicatePackets() const
{
    return m_duplicates;
}

uint64_t
RdmaQueuePair::GetSpuriousRetransmissions() const
{
    return m_spurious;
}

uint64_t
RdmaQueuePair::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaQueuePair::GetMaxReorderDistance() const
{
    return m_maxReorder;
}

RdmaQueuePair::Recovery
RdmaQueuePair::GetRecovery() const
{
    return m_recovery;
}

} // namespace ns3
