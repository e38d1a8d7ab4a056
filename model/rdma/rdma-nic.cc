/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "fct-attribution.h"
#include "rdma-opcode.h"

#include "ns3/abort.h"
#include "ns3/aeth-header.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute("QpnReuseDelay",
                          "A released queue pair's QPN is given to a new queue pair only this "
                          "long after its release, so that a frame of the old connection still "
                          "in the fabric (a late duplicate, ACK or CNP) finds no queue pair and "
                          "is dropped and counted, never taken by the new one. Default 10 ms: "
                          "over twice the RdmaQueuePair RetransmitTimeout (4.19 ms), far beyond "
                          "any queueing a finished exchange's frames see",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RdmaNic::m_qpnReuseDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("QpnBase",
                          "The first QPN the adapter gives a queue pair; the next new ones "
                          "follow in allocation order (QpnBase + 1, + 2, ...), released "
                          "ones come back after QpnReuseDelay. QPNs 0 and 1 are the "
                          "InfiniBand management QPs (IBTA Vol. 1: QP0 the Subnet Management "
                          "Interface, QP1 the General Services Interface; Wireshark reads "
                          "data to QP 1 as a management datagram), "
                          "so 2 at least. Default 16: RXE_MIN_QP_INDEX of Linux's software "
                          "RoCE HCA (drivers/infiniband/sw/rxe/rxe_param.h), whose pool "
                          "gives QPNs from there upward; ConnectX HCAs likewise show small "
                          "QPNs above the reserved ones in perftest (e.g. 0x32 and 0x3a on "
                          "an mlx5 InfiniBand port, linux-rdma/perftest issue 132). Set it "
                          "before the first queue pair",
                          UintegerValue(DEFAULT_QPN_BASE),
                          MakeUintegerAccessor(&RdmaNic::SetQpnBase, &RdmaNic::GetQpnBase),
                          MakeUintegerChecker<uint32_t>(2, MAX_QPN))
            .AddAttribute("SharedReceiveQueueDepth",
                          "A shared receive queue (SRQ, ibv_create_srq): SENDs to any of the "
                          "adapter's queue pairs consume receives from one queue, this many "
                          "posted at the start and each consumed one posted again its queue "
                          "pair's RecvRepostDelay after its message completed (queue pairs' "
                          "own ReceiveQueueDepth is then unused). 0 = no SRQ: each queue pair "
                          "has its own receive queue",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_srqDepth),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AckPriority",
                          "Class of the ACK and NAK frames a responder sends: -1 = its queue "
                          "pair's own class (RoCEv2: the data's 802.1p priority and DSCP; "
                          "InfiniBand: its service level, hence virtual lane), as a NIC does: "
                          "a response uses the responder QP's address vector (IBTA, RC "
                          "responder), and NVIDIA's RoCE defaults put RoCE traffic on one "
                          "class (3) and only CNPs on their own (6); the HPCC-derived "
                          "simulators ship ACK_HIGH_PRIO 0, 'ACK has same priority with data "
                          "packet'. 0..7 (RoCEv2) or 0..15 (InfiniBand service level) = that "
                          "class for every ACK and NAK (ACK_HIGH_PRIO 1 is 7 here)",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&RdmaNic::m_ackPriority),
                          MakeIntegerChecker<int32_t>(-1, 15))
            .AddAttribute("QpCacheSize",
                          "QP contexts the NIC holds on chip (an LRU cache). A packet of a "
                          "queue pair whose context is not cached waits for its fetch over "
                          "PCIe (QpCacheMissLatency); other queue pairs send meanwhile. 0 = "
                          "unlimited: every context on chip, no fetch ever (the default, and "
                          "the behaviour before the model: a NIC's cache size is not "
                          "published; commercial RNICs lose message rate only past some "
                          "hundreds to thousands of connections: SRNIC, NSDI 2023; ScalaRNIC, "
                          "ISCAS 2023, a 47% drop at a few thousand). See doc/qp-cache.md",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_qpCacheSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("QpCacheMissLatency",
                          "Time to fetch a QP context that is not cached, from host memory "
                          "over PCIe (one DMA read round trip). Default 1 us: the order of a "
                          "small DMA read's round trip measured on servers (Neugebauer et al., "
                          "'Understanding PCIe performance for end host networking', SIGCOMM "
                          "2018; Kalia et al., USENIX ATC 2016, on PCIe transactions as the "
                          "cost that shapes RDMA performance)",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RdmaNic::m_qpCacheMissLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("QpCacheMaxFetches",
                          "QP-context fetches the NIC keeps under way at once (a further "
                          "miss waits for one to complete). Default 8, an assumption (NICs "
                          "keep several DMA reads outstanding; the figure is not published). "
                          "Only with QpCacheSize > 0",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RdmaNic::m_qpCacheMaxFetches),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "InjectionCap",
                "Most payload the NIC takes from its host interface (PCIe) per "
                "second and direction: data packets to other servers on its own rail (a "
                "GPU of the same local index, HostsPerServer) leave no faster than this "
                "when it is below the link rate (bit/s); PXN data for another rail crosses "
                "the PCIe of the NIC on that rail, which is not charged. 0 = no cap (default): "
                "the link rate alone. PCIe Gen5 x16: 32 GT/s x 16 lanes, "
                "128b/130b, 256-byte TLP payloads with 24 bytes of TLP framing, "
                "header and LCRC ~ 57.6 GB/s = 460.8 Gb/s (PCI-SIG PCIe 5.0 base "
                "specification; Neugebauer et al., SIGCOMM 2018)",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&RdmaNic::SetInjectionCap, &RdmaNic::GetInjectionCap),
                MakeDataRateChecker())
            .AddAttribute(
                "HostsPerServer",
                "Hosts (GPUs) per server, numbered server x G + GPU: data to a "
                "peer of the same server moves in the scale-up domain and data to "
                "another rail (local index) leaves by PXN through another GPU's NIC: "
                "neither is held by InjectionCap. Default 1: every peer is on another server. "
                "The scenario runner sets it from --gpus-per-server",
                UintegerValue(1),
                MakeUintegerAccessor(&RdmaNic::m_hostsPerServer),
                MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("MessageSent",
                            "A message's last byte was acknowledged (sender completion)",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageSentTrace),
                            "ns3::RdmaNic::MessageSentTracedCallback")
            .AddTraceSource("MessageDelivered",
                            "A message's last byte was placed (receiver completion)",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageDeliveredTrace),
                            "ns3::RdmaNic::MessageDeliveredTracedCallback")
            .AddTraceSource("CnpSent",
                            "This NIC's queue pair, as DCQCN's notification point, sent a "
                            "congestion notification packet for ECN-marked data: (queue pair); "
                            "one call per CNP GetCnpsSent counts",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpSentTrace),
                            "ns3::RdmaNic::CnpTracedCallback")
            .AddTraceSource("CnpReceived",
                            "A congestion notification packet arrived for this NIC's queue "
                            "pair (DCQCN's reaction point): (queue pair); one call per CNP "
                            "GetCnpsReceived counts",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpReceivedTrace),
                            "ns3::RdmaNic::CnpTracedCallback")
            .AddTraceSource("QpCreated",
                            "The fabric connected a new queue pair of this NIC and gave it "
                            "its congestion controller: (queue pair). Connect per-QP traces "
                            "here (its controller's Rate, Window, Cwnd, Alpha)",
                            MakeTraceSourceAccessor(&RdmaNic::m_qpCreatedTrace),
                            "ns3::RdmaNic::QpCreatedTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_qpnReuseDelay(MilliSeconds(10)),
      m_qpCacheMissLatency(MicroSeconds(1))
{
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    m_wakeAt = -1;
    for (const Ptr<FabricEvent>& wake : m_wakeEvents)
    {
        wake->Disable(); // as EventId::Cancel would: none runs after disposal
    }
    m_wakeEvents.clear(); // (those in the event list go with it)
    m_idleWakeEvents.clear();
    m_active.clear(); // (raw pointers into the queue pairs)
    m_srq = nullptr;
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    m_freeQpns.clear();
    m_qpLru.clear();
    m_qpLruPos.clear();
    m_qpCtx.clear();
    m_qpFetchSerial.clear();
    m_qpFetchWait.clear();
    Object::DoDispose();
}

void
RdmaNic::SetAttribution(FctAttribution* attribution)
{
    m_attribution = attribution;
    for (const Ptr<RdmaQueuePair>& qp : m_qps)
    {
        if (qp)
        {
            qp->SetAttribution(attribution);
        }
    }
}

void
RdmaNic::SetInjectionCap(DataRate cap)
{
    m_injectionCap = cap;
    m_injectionCapped = cap.GetBitRate() != 0;
}

DataRate
RdmaNic::GetInjectionCap() const
{
    return m_injectionCap;
}

Ptr<RdmaQueuePair>
RdmaNic::AddQueuePair(uint32_t peerHost, uint8_t priority, uint16_t entropy)
{
    Ptr<RdmaQueuePair> qp = RdmaQueuePair::CreateFromDefaults();
    qp->SetAttribute("Mtu", UintegerValue(m_mtu));
    NS_ABORT_MSG_IF(m_qps.size() > MAX_QPN - m_qpnBase,
                    "host " << m_hostIndex << ": no QPN left above QpnBase " << m_qpnBase
                            << " (QPNs are 24 bits)");
    uint32_t qpn = m_qpnBase + static_cast<uint32_t>(m_qps.size()); // in allocation order
    if (!m_freeQpns.empty() &&
        m_freeQpns.front().second + m_qpnReuseDelay.GetTimeStep() <= Simulator::Now().GetTimeStep())
    {
        qpn = m_freeQpns.front().first; // released long enough ago: no frame of it is left
        m_freeQpns.pop_front();
    }
    qp->SetIdentity(qpn, 0, m_hostIndex, peerHost, priority, entropy);
    // Woken by a plain function (per ACK), not a wake callback.
    qp->SetCallbacks(MakeCallback(&RdmaNic::MessageSent, this),
                     MakeCallback(&RdmaNic::MessageDelivered, this),
                     RdmaQueuePair::WakeCallback());
    qp->SetWakeFunction(&RdmaNic::WakeQueuePair, this);
    qp->SetAckFunction(&RdmaNic::SendCoalescedAck, this);
    qp->SetAttribution(m_attribution);
    if (m_srqDepth != 0)
    {
        if (!m_srq)
        {
            m_srq = Create<RdmaReceiveQueue>(m_srqDepth, true);
        }
        qp->SetSharedReceiveQueue(m_srq);
    }
    if (QpnSlot(qpn) == m_qps.size())
    {
        m_qps.push_back(qp);
        m_isActive.push_back(false);
    }
    else
    {
        m_qps[QpnSlot(qpn)] = qp;
    }
    m_qpsCreated++;
    m_liveQps++;
    return qp;
}

void
RdmaNic::NotifyQueuePairCreated(Ptr<RdmaQueuePair> qp)
{
    m_qpCreatedTrace(qp);
}

void
RdmaNic::ReleaseQueuePair(uint32_t qpn)
{
    const uint32_t slot = QpnSlot(qpn); // (a QPN below QpnBase wraps: beyond every slot)
    NS_ABORT_MSG_IF(slot >= m_qps.size() || !m_qps[slot],
                    "ReleaseQueuePair: QPN " << qpn << " is not a live queue pair of host "
                                             << m_hostIndex);
    Ptr<RdmaQueuePair> qp = m_qps[slot];
    NS_LOG_FUNCTION(this << qpn);
    if (m_isActive[slot])
    {
        // Out of the round robin as NextSender takes a queue pair out (swap with the last).
        auto it = std::find(m_active.begin(), m_active.end(), PeekPointer(qp));
        *it = m_active.back();
        m_active.pop_back();
        m_isActive[slot] = false;
    }
    m_releasedRetransmitted += qp->GetRetransmittedPackets();
    m_releasedTimeouts += qp->GetTimeouts();
    m_releasedOutOfOrder += qp->GetOutOfOrderPackets();
    m_releasedSpurious += qp->GetSpuriousRetransmissions();
    m_releasedReadBytes += qp->GetReadBytes();
    m_releasedRnrNaks += qp->GetRnrNaksSent();
    m_releasedRnrRetries += qp->GetRequester().GetRnrRetries();
    m_releasedQpErrors += qp->IsInError() ? 1 : 0;
    if (m_qpCacheSize != 0)
    {
        QpCacheForget(qpn);
    }
    qp->Dispose();
    m_qps[slot] = nullptr;
    m_liveQps--;
    m_freeQpns.emplace_back(qpn, Simulator::Now().GetTimeStep());
}

uint64_t
RdmaNic::GetQpCacheMisses() const
{
    return m_qpCacheMisses;
}

uint64_t
RdmaNic::GetQpCacheHits() const
{
    return m_qpCacheHits;
}

bool
RdmaNic::IsQpContextCached(uint32_t qpn) const
{
    if (m_qpCacheSize == 0)
    {
        return QpnSlot(qpn) < m_qps.size() && m_qps[QpnSlot(qpn)];
    }
    const uint32_t slot = QpnSlot(qpn);
    return slot < m_qpCtx.size() &&
           (m_qpCtx[slot] == QpCtx::CACHED || m_qpCtx[slot] == QpCtx::FETCHED);
}

void
RdmaNic::QpCacheGrow(std::size_t slots)
{
    if (m_qpCtx.size() < slots)
    {
        m_qpCtx.resize(slots, QpCtx::NONE);
        m_qpLruPos.resize(slots, m_qpLru.end());
        m_qpFetchSerial.resize(slots, 0);
    }
}

void
RdmaNic::QpCacheForget(uint32_t qpn)
{
    const uint32_t idx = QpnSlot(qpn);
    QpCacheGrow(idx + 1);
    switch (m_qpCtx[idx])
    {
    case QpCtx::CACHED:
        m_qpLru.erase(m_qpLruPos[idx]);
        m_qpLruPos[idx] = m_qpLru.end();
        break;
    case QpCtx::FETCHED:
        m_qpPinned--;
        break;
    case QpCtx::FETCHING:
        m_qpFetching--;
        m_qpFetchSerial[idx]++; // its completion, when it runs, is ignored
        break;
    case QpCtx::WAITING: // its m_qpFetchWait entry is skipped
    case QpCtx::NONE:
        break;
    }
    m_qpCtx[idx] = QpCtx::NONE;
    QpCacheStartWaiting(); // a slot or an entry may have come free
}

bool
RdmaNic::QpContextReady(RdmaQueuePair& qp)
{
    const uint32_t qpn = qp.GetLocalQpn();
    const uint32_t idx = QpnSlot(qpn);
    QpCacheGrow(idx + 1);
    switch (m_qpCtx[idx])
    {
    case QpCtx::CACHED:
        m_qpCacheHits++;
        m_qpLru.splice(m_qpLru.end(), m_qpLru, m_qpLruPos[idx]); // most recently used
        return true;
    case QpCtx::FETCHED:
        // Its first packet since the fetch: the context is now an ordinary entry.
        m_qpPinned--;
        m_qpCtx[idx] = QpCtx::CACHED;
        m_qpLruPos[idx] = m_qpLru.insert(m_qpLru.end(), qpn);
        if (!m_qpFetchWait.empty())
        {
            QpCacheStartWaiting(); // an entry became evictable
        }
        return true;
    case QpCtx::WAITING:
    case QpCtx::FETCHING:
        return false;
    case QpCtx::NONE:
        break;
    }
    // A miss: the context is fetched now if a fetch slot and an entry are free, else
    // when they are (in miss order: the NIC's fetch engine works on its own, whether
    // or not the port is sending).
    m_qpCacheMisses++;
    if (m_attribution != nullptr)
    {
        m_attribution->OnQpCacheMiss(qp);
    }
    NS_LOG_LOGIC("host " << m_hostIndex << " QPN " << qpn << " context miss");
    if (m_qpFetchWait.empty() && QpCacheStartFetch(qpn))
    {
        return false;
    }
    m_qpCtx[idx] = QpCtx::WAITING;
    m_qpFetchWait.push_back(qpn);
    return false;
}

bool
RdmaNic::QpCacheStartFetch(uint32_t qpn)
{
    // An entry: a free one, else the least recently used cached one (fetched-not-used
    // and fetching entries are not evicted).
    if (m_qpFetching >= m_qpCacheMaxFetches)
    {
        return false;
    }
    const std::size_t occupied = m_qpLru.size() + m_qpPinned + m_qpFetching;
    if (occupied >= m_qpCacheSize)
    {
        if (m_qpLru.empty())
        {
            return false;
        }
        const uint32_t victim = m_qpLru.front();
        m_qpLru.pop_front();
        m_qpCtx[QpnSlot(victim)] = QpCtx::NONE;
        m_qpLruPos[QpnSlot(victim)] = m_qpLru.end();
    }
    m_qpCtx[QpnSlot(qpn)] = QpCtx::FETCHING;
    m_qpFetching++;
    const uint64_t serial = ++m_qpFetchSerial[QpnSlot(qpn)];
    Simulator::Schedule(m_qpCacheMissLatency,
                        &RdmaNic::QpContextFetched,
                        Ptr<RdmaNic>(this),
                        qpn,
                        serial);
    return true;
}

void
RdmaNic::QpCacheStartWaiting()
{
    while (!m_qpFetchWait.empty())
    {
        const uint32_t qpn = m_qpFetchWait.front();
        if (QpnSlot(qpn) < m_qpCtx.size() && m_qpCtx[QpnSlot(qpn)] == QpCtx::WAITING)
        {
            if (!QpCacheStartFetch(qpn))
            {
                return; // no slot or no entry yet
            }
        }
        m_qpFetchWait.pop_front();
    }
}

void
RdmaNic::QpContextFetched(uint32_t qpn, uint64_t serial)
{
    const uint32_t slot = QpnSlot(qpn);
    if (slot >= m_qpCtx.size() || m_qpFetchSerial[slot] != serial ||
        m_qpCtx[slot] != QpCtx::FETCHING)
    {
        return; // its queue pair was released meanwhile (QpCacheForget counted it)
    }
    m_qpCtx[slot] = QpCtx::FETCHED;
    m_qpFetching--;
    m_qpPinned++;
    QpCacheStartWaiting(); // the slot goes to the next waiting context
    NotifyPort();          // it may send now
}

void
RdmaNic::SetPeerQpn(RdmaQueuePair& qp, uint32_t peerQpn)
{
    qp.SetIdentity(qp.GetLocalQpn(),
                   peerQpn,
                   qp.GetLocalHost(),
                   qp.GetPeerHost(),
                   qp.GetPriority(),
                   qp.GetEntropy());
}

void
RdmaNic::SendCoalescedAck(void* nic, RdmaQueuePair& qp, uint32_t psn, uint32_t msn)
{
    static_cast<RdmaNic*>(nic)->QueueControl(qp, RdmaOpcode::ACKNOWLEDGE, psn, msn, false);
}

void
RdmaNic::WakeQueuePair(void* nic, RdmaQueuePair& qp)
{
    RdmaNic* self = static_cast<RdmaNic*>(nic);
    const uint32_t idx = self->QpnSlot(qp.GetLocalQpn());
    if (!self->m_isActive[idx])
    {
        self->m_isActive[idx] = true;
        self->m_active.push_back(&qp);
    }
    self->NotifyPort();
}

void
RdmaNic::WakeIfCurrent(uint64_t generation)
{
    if (m_wakeAt < 0 || generation != m_wakeGeneration)
    {
        return; // superseded by an earlier wake-up, or the adapter was disposed
    }
    m_wakeAt = -1;
    NotifyPort();
}

void
RdmaNic::WarnDropped(const char* what, uint32_t value)
{
    NS_LOG_WARN(what << value << " dropped");
}

void
RdmaNic::ChangeCeEcho(RdmaQueuePair& qp, bool ce)
{
    uint32_t psn = 0;
    uint32_t msn = 0;
    if (qp.TakePendingAck(psn, msn))
    {
        QueueControl(qp, RdmaOpcode::ACKNOWLEDGE, psn, msn, false);
    }
    qp.SetCeEcho(ce);
}

void
RdmaNic::DataFields(const RdmaQueuePair& qp, const RdmaSegment& s, RdmaTransportFields& f)
{
    f.opcode = s.opcode;
    f.destQp = qp.GetPeerQpn();
    f.ackReq = s.ackRequest;
    f.psn = static_cast<uint32_t>(s.psn & 0xFFFFFF);
    f.payloadBytes = s.payloadBytes;
    if (RdmaOpcode::HasReth(s.opcode))
    {
        f.hasReth = true;
        f.rethVa = s.offset;
        f.rethRKey = qp.GetPeerQpn();
        f.rethDmaLen = static_cast<uint32_t>(s.messageBytes);
    }
    if (RdmaOpcode::HasImm(s.opcode))
    {
        f.hasImm = true;
        f.imm = static_cast<uint32_t>(s.psn);
    }
    if (RdmaOpcode::ReadResponseHasAeth(s.opcode))
    {
        f.hasAeth = true;
        f.aethSyndrome = AethHeader::ResponderSyndrome(false);
        f.aethMsn = s.msn;
    }
}

void
RdmaNic::DeliverRead(RdmaQueuePair& qp,
                     uint8_t opcode,
                     uint32_t psn,
                     uint32_t bytesAfterHeaders,
                     uint32_t rethDmaLen,
                     bool congested,
                     Time now)
{
    bool cnp = false;
    if (opcode == RdmaOpcode::READ_REQUEST)
    {
        const RdmaQueuePair::Reply r = qp.ReceiveReadRequest(psn, rethDmaLen, congested, now);
        cnp = r.cnp;
        if (r.response != RdmaQueuePair::Response::NONE)
        {
            QueueControl(qp,
                         RdmaOpcode::ACKNOWLEDGE,
                         r.ackPsn,
                         r.msn,
                         r.response == RdmaQueuePair::Response::NAK);
        }
    }
    else
    {
        const uint32_t aeth = RdmaOpcode::ReadResponseHasAeth(opcode) ? AethHeader::SIZE : 0;
        const uint32_t payload = bytesAfterHeaders >= aeth ? bytesAfterHeaders - aeth : 0;
        cnp = qp.ReceiveReadResponse(psn, payload, congested, now);
    }
    if (cnp && !m_ackEcnEcho) // READ responses are data: CE on them makes a CNP too
    {
        m_cnpsSent++;
        m_cnpSentTrace(&qp);
        QueueControl(qp, RdmaOpcode::CNP, 0, 0, false);
    }
}

void
RdmaNic::ControlFields(const RdmaQueuePair& qp,
                       uint8_t opcode,
                       uint32_t psn,
                       uint32_t msn,
                       bool nak,
                       RdmaTransportFields& f)
{
    f.opcode = opcode;
    f.destQp = qp.GetPeerQpn();
    f.psn = psn;
    if (opcode == RdmaOpcode::CNP)
    {
        f.becn = true;
    }
    else
    {
        f.hasAeth = true;
        f.aethMsn = msn;
        f.aethSyndrome =
            nak ? qp.GetResponder().GetNakSyndrome() : AethHeader::ResponderSyndrome(false);
    }
}

uint32_t
RdmaNic::GetHostIndex() const
{
    return m_hostIndex;
}

uint32_t
RdmaNic::GetMtu() const
{
    return m_mtu;
}

std::vector<Ptr<RdmaQueuePair>>
RdmaNic::GetQueuePairs() const
{
    std::vector<Ptr<RdmaQueuePair>> live;
    live.reserve(m_liveQps);
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            live.push_back(qp);
        }
    }
    return live;
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePair(uint32_t qpn) const
{
    return QpnSlot(qpn) >= m_qps.size() ? nullptr : m_qps[QpnSlot(qpn)];
}

uint64_t
RdmaNic::GetQueuePairsCreated() const
{
    return m_qpsCreated;
}

uint32_t
RdmaNic::GetLiveQueuePairs() const
{
    return m_liveQps;
}

uint32_t
RdmaNic::GetQpnSlots() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint32_t
RdmaNic::GetQpnBase() const
{
    return m_qpnBase;
}

void
RdmaNic::SetQpnBase(uint32_t base)
{
    NS_ABORT_MSG_IF(m_qpsCreated != 0 && base != m_qpnBase,
                    "RdmaNic::QpnBase: host " << m_hostIndex << " already has queue pairs "
                                              << "from QPN " << m_qpnBase
                                              << "; set it before the first one");
    m_qpnBase = base;
}

uint64_t
RdmaNic::GetStaleFrames() const
{
    return m_staleFrames;
}

uint64_t
RdmaNic::GetReadBytes() const
{
    uint64_t n = m_releasedReadBytes;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetReadBytes();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetRetransmittedPackets() const
{
    uint64_t n = m_releasedRetransmitted;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetRetransmittedPackets();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetTimeouts() const
{
    uint64_t n = m_releasedTimeouts;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetTimeouts();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetOutOfOrderPackets() const
{
    uint64_t n = m_releasedOutOfOrder;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetOutOfOrderPackets();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetSpuriousRetransmissions() const
{
    uint64_t n = m_releasedSpurious;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetSpuriousRetransmissions();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetRnrNaksSent() const
{
    uint64_t n = m_releasedRnrNaks;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetRnrNaksSent();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetRnrRetries() const
{
    uint64_t n = m_releasedRnrRetries;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            n += qp->GetRequester().GetRnrRetries();
        }
    }
    return n;
}

uint64_t
RdmaNic::GetQpErrors() const
{
    uint64_t n = m_releasedQpErrors;
    for (const auto& qp : m_qps)
    {
        if (qp && qp->IsInError())
        {
            n++;
        }
    }
    return n;
}

Ptr<RdmaReceiveQueue>
RdmaNic::GetSharedReceiveQueue() const
{
    return m_srq;
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

void
RdmaNic::MessageSent(Ptr<RdmaQueuePair> qp, const RdmaMessage& m)
{
    m_messageSentTrace(qp, m);
}

void
RdmaNic::MessageDelivered(Ptr<RdmaQueuePair> qp, uint64_t tag, uint64_t bytes)
{
    m_messageDeliveredTrace(qp, tag, bytes);
}

} // namespace ns3
