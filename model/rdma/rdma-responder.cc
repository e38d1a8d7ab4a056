/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-responder.h"

#include "rdma-opcode.h"
#include "rdma-psn.h"
#include "rdma-queue-pair.h"
#include "rdma-receive-queue.h"
#include "recovery/rdma-recovery-ops.h"

#include "ns3/aeth-header.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
constexpr uint32_t RX_LAST = 0x80000000U; // receive ring: the slot ends a message
// Receive ring cap: 2^20 packets (1 GB at a 1000-byte MTU) is far beyond any
// reordering a fabric produces; a packet further ahead is dropped, like an
// out-of-window packet, and recovered by the requester.
constexpr uint64_t RX_RING_MAX = 1U << 20;
} // namespace

RdmaResponder::RdmaResponder(RdmaQueuePair& qp)
    : m_qp(qp),
      m_rxRing(64, 0)
{
}

RdmaResponder::~RdmaResponder() = default;

void
RdmaResponder::Dispose()
{
    m_ackTimer.Cancel();
    m_ackTimerPending = false;
}

void
RdmaResponder::PostReceive(uint64_t tag)
{
    m_rxTags.push_back(tag);
}

bool
RdmaResponder::EnsureRxRing(uint64_t distance)
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
RdmaResponder::Consume(uint32_t payloadBytes, bool last)
{
    m_rxMessageBytes += payloadBytes;
    m_unackedPackets++;
    return last && EndMessage();
}

bool
RdmaResponder::EndMessage()
{
    m_msn++;
    uint64_t tag = 0;
    if (!m_rxTags.empty())
    {
        tag = m_rxTags.front();
        m_rxTags.pop_front();
    }
    uint64_t bytes = m_rxMessageBytes;
    m_rxMessageBytes = 0;
    if (m_rxSend)
    {
        m_rxSend = false;
        m_qp.m_rq->Completed(m_qp.m_recvRepostDelay); // the application re-posts it
    }
    m_qp.NotifyDelivered(tag, bytes);
    return true;
}

void
RdmaResponder::MarkSeen(uint64_t psn)
{
    uint32_t& slot = m_rxRing[psn & (m_rxRing.size() - 1)];
    if (slot != 0)
    {
        m_spurious++;
    }
    slot = 1;
}

bool
RdmaResponder::Hold(uint64_t psn, uint32_t payloadBytes, bool last)
{
    uint32_t& slot = m_rxRing[psn & (m_rxRing.size() - 1)];
    if (slot != 0)
    {
        m_duplicates++;
        m_spurious++;
        return false;
    }
    slot = payloadBytes | (last ? RX_LAST : 0);
    m_rxAbove++;
    m_deliveredBytes += payloadBytes;
    return true;
}

bool
RdmaResponder::TakePendingAck(uint32_t& psn, uint32_t& msn)
{
    if (m_unackedPackets == 0)
    {
        return false;
    }
    m_unackedPackets = 0;
    m_acksSent++;
    psn = (m_ePsn - 1) & RDMA_PSN_MASK;
    msn = m_msn & RDMA_PSN_MASK;
    return true;
}

RdmaReply
RdmaResponder::NakExpected()
{
    m_nakOutstanding = true;
    m_naksSent++;
    m_unackedPackets = 0; // the NAK acknowledges every PSN below the one it names
    m_nakSyndrome = 0x60 | AethHeader::NAK_PSN_SEQUENCE_ERROR;
    RdmaReply reply;
    reply.response = RdmaReply::Response::NAK;
    reply.ackPsn = m_ePsn & RDMA_PSN_MASK;
    reply.msn = m_msn & RDMA_PSN_MASK;
    return reply;
}

RdmaReply
RdmaResponder::RnrNakExpected()
{
    // IBTA 9.7.5.2.8: the SEND's packets are dropped and the RNR NAK names its first
    // PSN; later packets beyond it are discarded as out of order (no other NAK: one is
    // outstanding) until the requester resends from it.
    m_nakOutstanding = true;
    m_rnrNaksSent++;
    m_unackedPackets = 0;
    m_nakSyndrome = static_cast<uint8_t>(0x20 | (m_qp.m_minRnrTimer & 0x1F));
    RdmaReply reply;
    reply.response = RdmaReply::Response::NAK;
    reply.ackPsn = m_ePsn & RDMA_PSN_MASK;
    reply.msn = m_msn & RDMA_PSN_MASK;
    return reply;
}

bool
RdmaResponder::TakeReceive(uint8_t opcode)
{
    if (!RdmaOpcode::StartsSend(opcode))
    {
        return true; // a SEND's middle or last packet: its first took the receive
    }
    if (!m_qp.m_rq->Take())
    {
        return false;
    }
    m_rxSend = true;
    return true;
}

uint64_t
RdmaResponder::GetRnrNaksSent() const
{
    return m_rnrNaksSent;
}

bool
RdmaResponder::IsNakOutstanding() const
{
    return m_nakOutstanding;
}

uint32_t
RdmaResponder::GetHeldPackets() const
{
    return m_rxAbove;
}

uint64_t
RdmaResponder::GetExpectedPsn() const
{
    return m_ePsn;
}

uint64_t
RdmaResponder::GetReceivedBitmap(uint64_t base) const
{
    uint64_t bitmap = 0;
    for (uint32_t i = 0; i < 64; ++i)
    {
        const uint64_t psn = base + i;
        if (psn < m_ePsn)
        {
            bitmap |= uint64_t{1} << i;
        }
        else if (psn - m_ePsn >= m_rxRing.size())
        {
            break; // (not received yet: beyond the ring)
        }
        else if (m_rxRing[psn & (m_rxRing.size() - 1)] != 0)
        {
            bitmap |= uint64_t{1} << i;
        }
    }
    return bitmap;
}

std::size_t
RdmaResponder::GetPendingReceives() const
{
    return m_rxTags.size();
}

uint32_t
RdmaResponder::GetReorderThreshold() const
{
    return m_qp.m_reorderThreshold;
}

RdmaReply
RdmaResponder::ReceiveData(uint32_t wirePsn,
                           uint8_t opcode,
                           uint32_t payloadBytes,
                           bool ackRequest,
                           bool ceMarked,
                           Time now)
{
    bool cnp = false;
    if (ceMarked && (!m_cnpSent || now - m_lastCnp >= m_qp.m_cnpInterval))
    {
        cnp = true;
        m_cnpSent = true;
        m_lastCnp = now;
    }
    const uint64_t psn = UnwrapPsn(wirePsn, m_ePsn);
    RdmaReply reply;
    if (psn < m_ePsn)
    {
        // Duplicate (a resend of something already placed): re-ACK at once.
        m_duplicates++;
        m_spurious++;
        m_unackedPackets = 0;
        reply.response = RdmaReply::Response::ACK;
        reply.ackPsn = (m_ePsn - 1) & RDMA_PSN_MASK;
        reply.msn = m_msn & RDMA_PSN_MASK;
    }
    else if (const uint64_t distance = psn - m_ePsn; !EnsureRxRing(distance))
    {
        m_outOfOrder++; // beyond any reorder window: as if lost
    }
    else if (distance > 0)
    {
        m_outOfOrder++;
        m_maxReorder = std::max(m_maxReorder, distance);
        reply = m_qp.m_recoveryOps->OnBeyondExpected(*this,
                                                     psn,
                                                     payloadBytes,
                                                     RdmaOpcode::IsLast(opcode));
    }
    else if (__builtin_expect(RdmaOpcode::IsSend(opcode), false) && !TakeReceive(opcode))
    {
        reply = RnrNakExpected(); // no receive posted: receiver not ready
    }
    else
    {
        reply = ReceiveExpected(m_rxRing[psn & (m_rxRing.size() - 1)],
                                payloadBytes,
                                RdmaOpcode::IsLast(opcode),
                                ackRequest,
                                now);
    }
    reply.cnp = cnp;
    m_acksSent += reply.response == RdmaReply::Response::ACK;
    return reply;
}

bool
RdmaResponder::TakeCnp(bool ceMarked, Time now)
{
    if (ceMarked && (!m_cnpSent || now - m_lastCnp >= m_qp.m_cnpInterval))
    {
        m_cnpSent = true;
        m_lastCnp = now;
        return true;
    }
    return false;
}

RdmaReply
RdmaResponder::ReceiveReadRequest(uint32_t wirePsn,
                                  uint64_t dmaLength,
                                  bool ceMarked,
                                  Time now,
                                  bool& respond,
                                  uint64_t& firstPsn,
                                  uint32_t& msn)
{
    const bool cnp = TakeCnp(ceMarked, now);
    const uint64_t psn = UnwrapPsn(wirePsn, m_ePsn);
    const uint32_t mtu = m_qp.m_mtu;
    RdmaReply reply;
    respond = false;
    if (psn < m_ePsn)
    {
        // A duplicate: the requester re-issued it (responses lost). Execute it again
        // from its PSN, with the current MSN (IBTA vol. 1 ch. 9: duplicate READs are
        // re-executed, not ignored).
        m_duplicates++;
        m_spurious++;
        m_readRequests++;
        respond = true;
        firstPsn = psn;
        msn = m_msn & RDMA_PSN_MASK;
    }
    else if (psn > m_ePsn)
    {
        // Beyond the expected PSN: discarded; a NAK (once) makes the requester go back.
        m_outOfOrder++;
        m_maxReorder = std::max(m_maxReorder, psn - m_ePsn);
        if (!m_nakOutstanding)
        {
            reply = NakExpected();
        }
    }
    else
    {
        // Expected: consumes one PSN per response packet; the responses acknowledge
        // every request before it (no ACK of those is due any more).
        uint32_t& slot = m_rxRing[psn & (m_rxRing.size() - 1)];
        if (slot != 0)
        {
            m_spurious++; // go-back-N: it had arrived before and was discarded
            slot = 0;
        }
        const uint64_t packets = std::max<uint64_t>(1, (dmaLength + mtu - 1) / mtu);
        m_ePsn += packets;
        m_nakOutstanding = false;
        m_unackedPackets = 0;
        m_msn++;
        m_readRequests++;
        respond = true;
        firstPsn = psn;
        msn = m_msn & RDMA_PSN_MASK;
        // Selective repeat: packets held beyond the READ are in order now.
        const uint64_t mask = m_rxRing.size() - 1;
        while (m_rxAbove > 0)
        {
            uint32_t& next = m_rxRing[m_ePsn & mask];
            if (next == 0)
            {
                break;
            }
            const uint32_t v = next;
            next = 0;
            m_rxAbove--;
            m_ePsn++;
            Consume(v & ~RX_LAST, (v & RX_LAST) != 0);
        }
        if (m_unackedPackets > 0)
        {
            // Acknowledged at once (the ACK may overtake the responses: the requester
            // holds an ACK beyond a READ until its responses are in).
            m_unackedPackets = 0;
            m_acksSent++;
            reply.response = RdmaReply::Response::ACK;
            reply.ackPsn = (m_ePsn - 1) & RDMA_PSN_MASK;
            reply.msn = m_msn & RDMA_PSN_MASK;
        }
    }
    reply.cnp = cnp;
    return reply;
}

RdmaReply
RdmaResponder::ReceiveExpected(uint32_t& slot,
                               uint32_t payloadBytes,
                               bool last,
                               bool ackRequest,
                               Time now)
{
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
    const uint64_t mask = m_rxRing.size() - 1;
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
    if (m_rxAbove > 0)
    {
        RdmaReply nak = m_qp.m_recoveryOps->OnAdvancedWithHeld(*this);
        if (nak.response != RdmaReply::Response::NONE)
        {
            m_unackedPackets = 0;
            return nak;
        }
    }
    RdmaReply reply;
    reply.msn = m_msn & RDMA_PSN_MASK;
    if (ended || jumped || ackRequest || m_unackedPackets >= m_qp.m_ackInterval)
    {
        m_unackedPackets = 0;
        reply.ackPsn = (m_ePsn - 1) & RDMA_PSN_MASK;
        reply.response = RdmaReply::Response::ACK;
    }
    else if (m_unackedPackets == 1)
    {
        StartAckDeadline(now);
    }
    return reply;
}

void
RdmaResponder::StartAckDeadline(Time now)
{
    const Time bound = m_qp.m_ackCoalescingTime;
    if (bound.IsZero())
    {
        return;
    }
    // Lazy, as the requester's retransmission timer: an ACK sent meanwhile does not
    // cancel the event (which then finds nothing to do, or a later deadline); at most
    // one event per queue pair is in the event list.
    m_ackDeadline = now + bound;
    if (!m_ackTimerPending)
    {
        m_ackTimerPending = true;
        m_ackTimer = Simulator::Schedule(bound, &RdmaResponder::AckTimeout, this);
    }
}

void
RdmaResponder::AckTimeout()
{
    m_ackTimerPending = false;
    if (m_unackedPackets == 0)
    {
        return; // acknowledged since (by count, a message end, a NAK)
    }
    const Time now = Simulator::Now();
    if (now < m_ackDeadline)
    {
        m_ackTimerPending = true;
        m_ackTimer = Simulator::Schedule(m_ackDeadline - now, &RdmaResponder::AckTimeout, this);
        return; // the packets it was set for were acknowledged; later ones wait less long
    }
    m_unackedPackets = 0;
    m_acksSent++;
    m_qp.NotifyAckDue((m_ePsn - 1) & RDMA_PSN_MASK, m_msn & RDMA_PSN_MASK);
}

uint64_t
RdmaResponder::GetDeliveredBytes() const
{
    return m_deliveredBytes;
}

uint64_t
RdmaResponder::GetOutOfOrderPackets() const
{
    return m_outOfOrder;
}

uint64_t
RdmaResponder::GetDuplicatePackets() const
{
    return m_duplicates;
}

uint64_t
RdmaResponder::GetSpuriousRetransmissions() const
{
    return m_spurious;
}

uint64_t
RdmaResponder::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaResponder::GetAcksSent() const
{
    return m_acksSent;
}

uint64_t
RdmaResponder::GetMaxReorderDistance() const
{
    return m_maxReorder;
}

} // namespace ns3
