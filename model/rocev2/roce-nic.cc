/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic.h"

#include "roce-net-device.h"

#include "ns3/aeth-header.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-simulator.h"
#include "ns3/imm-header.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/reth-header.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/rounded-time.h"
#include "ns3/simulator.h"
#include "ns3/trace-sinks.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");

NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{
constexpr uint32_t HOST_IP_BASE = 0x0A000001; // host i is 10.0.0.1 + i
constexpr uint8_t ECN_ECT0 = 0x2;
constexpr uint8_t ECN_CE = 0x3;
} // namespace

TypeId
RoceNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNic")
            .SetParent<RdmaNic>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceNic>()
            .AddAttribute("Mtu",
                          "Payload bytes per RDMA packet (RoCEv2 path MTU; 1024 and 4096 are "
                          "the common NIC settings)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RoceNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("ControlPriority",
                          "Priority (DSCP / 8 and 802.1p) of CNP frames; 7 is served first by "
                          "strict-priority switch schedulers. ACKs and NAKs take "
                          "ns3::RdmaNic::AckPriority (default: the data's class)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RoceNic::m_controlPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("UseVlan",
                          "Tag frames with 802.1Q (PCP = priority) instead of relying on DSCP",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_useVlan),
                          MakeBooleanChecker())
            .AddAttribute("EcnCapable",
                          "Send data as ECN-capable (ECT(0)) so switches can mark it",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNic::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("HostDelay",
                          "Receive side: time from a data packet's arrival at the NIC to "
                          "the host having it (PCIe transfer, DMA, completion), per packet "
                          "(time). The ACK goes out then and echoes the packet's endpoint "
                          "delay (Swift's remote/endpoint delay, Kumar et al. 2020, "
                          "section 3.1). Default 0: the NIC answers at once.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RoceNic::SetHostDelay, &RoceNic::GetHostDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "HostDrainRate",
                "Receive side: rate at which the host (PCIe/memory) takes data "
                "payload from the NIC (bit/s); below the arrival rate, packets "
                "queue in the NIC and their endpoint delay grows. Default 0 = "
                "infinite (no receive queue).",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&RoceNic::SetHostDrainRate, &RoceNic::GetHostDrainRate),
                MakeDataRateChecker())
            .AddTraceSource("Enqueue",
                            "A frame joined the NIC's egress: an ACK, NAK or CNP its control "
                            "queue of its priority, or a data frame the moment the port pulls "
                            "it (data waits unbuilt in its queue pair): (priority, frame)",
                            MakeTraceSourceAccessor(&RoceNic::m_enqueueTrace),
                            "ns3::RoceNic::QueueFrameTracedCallback")
            .AddTraceSource("Dequeue",
                            "A frame left the NIC's egress for the wire: (priority, frame)",
                            MakeTraceSourceAccessor(&RoceNic::m_dequeueTrace),
                            "ns3::RoceNic::QueueFrameTracedCallback")
            .AddTraceSource("QueueLength",
                            "A control queue's length changed: (priority, bytes of ACK, NAK "
                            "and CNP frames waiting, Ethernet frames without FCS), as "
                            "GetControlQueueBytes returns it",
                            MakeTraceSourceAccessor(&RoceNic::m_queueLengthTrace),
                            "ns3::RoceNic::QueueLengthTracedCallback");
    return tid;
}

RoceNic::RoceNic()
    : m_controlPriority(7),
      m_useVlan(false),
      m_ecnCapable(true),
      m_hostDelay(Time(0)),
      m_hostDrainRate(DataRate(0))
{
    m_mtu = 1000;
    m_enqueueTrace.SetFlag(&m_queueTraced);
    m_dequeueTrace.SetFlag(&m_queueTraced);
    m_queueLengthTrace.SetFlag(&m_queueTraced);
}

RoceNic::~RoceNic() = default;

void
RoceNic::DoDispose()
{
    for (auto& q : m_control)
    {
        q.clear();
    }
    m_controlMask = 0;
    m_controlBytes.fill(0);
    m_device = nullptr;
    RdmaNic::DoDispose();
}

uint64_t
RoceNic::GetControlQueueBytes(uint8_t prio) const
{
    return m_controlBytes.at(prio);
}

void
RoceNic::TraceEnqueue(uint8_t prio, RoceParsedFrame& frame, bool queued)
{
    if (HasSinks(m_enqueueTrace))
    {
        m_enqueueTrace(prio, frame.GetPacket());
    }
    if (queued && HasSinks(m_queueLengthTrace))
    {
        m_queueLengthTrace(prio, m_controlBytes[prio]);
    }
}

void
RoceNic::TraceDequeue(uint8_t prio, RoceParsedFrame& frame, bool queued)
{
    if (HasSinks(m_dequeueTrace))
    {
        m_dequeueTrace(prio, frame.GetPacket());
    }
    if (queued && HasSinks(m_queueLengthTrace))
    {
        m_queueLengthTrace(prio, m_controlBytes[prio]);
    }
}

Ipv4Address
RoceNic::HostAddress(uint32_t hostIndex)
{
    return Ipv4Address(HOST_IP_BASE + hostIndex);
}

uint32_t
RoceNic::HostIndexOf(Ipv4Address ip)
{
    return ip.Get() - HOST_IP_BASE;
}

uint32_t
RoceNic::HostIndexOf(uint32_t ip)
{
    return ip - HOST_IP_BASE;
}

Mac48Address
RoceNic::HostMac(uint32_t hostIndex)
{
    // Locally administered unicast: 02:00:hh:hh:hh:hh.
    uint8_t b[6] = {0x02,
                    0x00,
                    static_cast<uint8_t>(hostIndex >> 24),
                    static_cast<uint8_t>(hostIndex >> 16),
                    static_cast<uint8_t>(hostIndex >> 8),
                    static_cast<uint8_t>(hostIndex)};
    Mac48Address mac;
    mac.CopyFrom(b);
    return mac;
}

void
RoceNic::Setup(Ptr<RoceNetDevice> device, uint32_t hostIndex, Ipv4Address ip, Mac48Address mac)
{
    if (m_ackPriority > 7)
    {
        throw std::invalid_argument("RoCEv2 AckPriority " + std::to_string(m_ackPriority) +
                                    " invalid (allowed: -1 = the data's class, or 0..7)");
    }
    m_device = device;
    m_hostIndex = hostIndex;
    m_ip = ip;
    m_mac = mac;
    device->SetAddress(mac);
    device->SetOwner(this);
}

Ptr<RdmaQueuePair>
RoceNic::CreateQueuePair(uint32_t peerHost, uint8_t priority, uint16_t entropy)
{
    Ptr<RdmaQueuePair> qp = AddQueuePair(peerHost, priority, entropy);
    if (qp->GetLocalQpn() > m_templates.size())
    {
        m_templates.emplace_back(); // a new QPN (else a released one's, overwritten)
    }
    MakeFrameTemplates(*qp);
    m_fullPacketWireBytes = GetFullPacketWireBytes(); // (Mtu, UseVlan may change after Setup)
    return qp;
}

void
RoceNic::ConnectQueuePair(Ptr<RdmaQueuePair> qp, uint32_t peerQpn)
{
    SetPeerQpn(*qp, peerQpn);
    MakeFrameTemplates(*qp);
}

Ipv4Address
RoceNic::GetIpv4() const
{
    return m_ip;
}

Ptr<RoceNetDevice>
RoceNic::GetDevice() const
{
    return m_device;
}

uint32_t
RoceNic::GetFullPacketWireBytes() const
{
    RoceFrameFields f;
    f.useVlan = m_useVlan;
    f.opcode = RdmaOpcode::WRITE_MIDDLE;
    f.payloadBytes = m_mtu;
    return RoceFrame::HeaderBytes(f) + m_mtu + RoceEthernetHeader::WIRE_OVERHEAD_BYTES;
}

uint32_t
RoceNic::GetAckWireBytes() const
{
    RoceFrameFields f;
    f.useVlan = m_useVlan;
    f.opcode = RdmaOpcode::ACKNOWLEDGE;
    f.hasAeth = true;
    return RoceFrame::HeaderBytes(f) + RoceEthernetHeader::WIRE_OVERHEAD_BYTES;
}

void
RoceNic::NotifyPort()
{
    m_device->NotifyDataAvailable();
}

bool
RoceNic::HasFrame(const RoceNetDevice& /* dev */, uint8_t /* pausedMask */) const
{
    // Without a control frame or a queue pair in the round robin the pull at the end
    // of this frame would find nothing, and whatever changes that signals the port
    // (WakeQueuePair, QueueControl, a pause's end), which then pulls, or asks for the
    // frame's end, itself: no event. Windows, pacing and PFC decide at dequeue time
    // (an exact answer for active queue pairs would repeat its scan).
    return m_controlMask != 0 || HasActiveQueuePairs();
}

bool
RoceNic::DequeueFrame(RoceNetDevice& /* dev */, uint8_t pausedMask, RoceParsedFrame& frame)
{
    if (const uint32_t ready = m_controlMask & ~pausedMask & 0xFFU; ready != 0)
    {
        // ACK, NAK and CNP frames before data, the highest priority not paused first.
        const uint32_t prio = 31 - __builtin_clz(ready);
        FrameFifo<RoceParsedFrame>& q = m_control[prio];
        frame = std::move(q.front());
        q.pop_front();
        if (q.empty())
        {
            m_controlMask &= ~(1U << prio);
        }
        m_controlBytes[prio] -= frame.view.frameBytes;
        if (__builtin_expect(m_queueTraced, false))
        {
            TraceDequeue(static_cast<uint8_t>(prio), frame, true);
        }
        return true;
    }
    const Time now = FabricSimulator::Now();
    RdmaQueuePair* qp = NextSender(now, [pausedMask](const RdmaQueuePair& q) {
        return (pausedMask & (1U << q.GetPriority())) != 0;
    });
    if (qp == nullptr)
    {
        return false;
    }
    RdmaSegment s = qp->NextSegment(now, m_fullPacketWireBytes);
    BuildData(*qp, s, frame);
    if (__builtin_expect(m_queueTraced, false))
    {
        TraceEnqueue(qp->GetPriority(), frame, false);
        TraceDequeue(qp->GetPriority(), frame, false);
    }
    return true;
}

RoceFrameFields
RoceNic::DataFrameFields(const RdmaQueuePair& qp, const RdmaSegment& s) const
{
    RoceFrameFields f;
    f.srcMac = m_mac;
    f.dstMac = HostMac(qp.GetPeerHost());
    f.useVlan = m_useVlan;
    f.pcp = qp.GetPriority();
    f.srcIp = m_ip;
    f.dstIp = HostAddress(qp.GetPeerHost());
    f.dscp = static_cast<uint8_t>(qp.GetPriority() << 3);
    f.ecn = m_ecnCapable ? ECN_ECT0 : 0;
    f.udpSrcPort = s.entropy != 0 ? s.entropy : qp.GetEntropy();
    DataFields(qp, s, f);
    return f;
}

RoceFrameFields
RoceNic::ControlFrameFields(const RdmaQueuePair& qp,
                            uint8_t opcode,
                            uint32_t psn,
                            uint32_t msn,
                            bool nak) const
{
    RoceFrameFields f;
    f.srcMac = m_mac;
    f.dstMac = HostMac(qp.GetPeerHost());
    f.useVlan = m_useVlan;
    f.pcp = opcode == RdmaOpcode::CNP ? m_controlPriority : AckPriorityOf(qp);
    f.srcIp = m_ip;
    f.dstIp = HostAddress(qp.GetPeerHost());
    f.dscp = static_cast<uint8_t>(f.pcp << 3);
    f.ecn = 0;
    f.udpSrcPort = qp.GetEntropy();
    ControlFields(qp, opcode, psn, msn, nak, f);
    return f;
}

void
RoceNic::MakeFrameTemplates(const RdmaQueuePair& qp)
{
    // A payload-less WRITE middle, an ACK and a CNP of this queue pair: everything
    // but the per-packet fields BuildData and QueueControl fill in.
    FrameTemplates& t = m_templates[qp.GetLocalQpn() - 1];
    RdmaSegment middle;
    middle.opcode = RdmaOpcode::WRITE_MIDDLE;
    RoceFrame::Describe(DataFrameFields(qp, middle), t.data);
    RoceFrame::Describe(ControlFrameFields(qp, RdmaOpcode::ACKNOWLEDGE, 0, 0, false), t.ack);
    RoceFrame::Describe(ControlFrameFields(qp, RdmaOpcode::CNP, 0, 0, false), t.cnp);
}

void
RoceNic::BuildData(const RdmaQueuePair& qp, const RdmaSegment& s, RoceParsedFrame& frame) const
{
    // What RoceFrame::Describe(DataFrameFields(qp, s)) gives, from the queue pair's
    // template: the same view without building the fields of every packet.
    frame.Assign(m_templates[qp.GetLocalQpn() - 1].data);
    RoceFrameView& v = frame.view;
    if (s.entropy != 0)
    {
        v.udpSrc = s.entropy;
    }
    v.bthOpcode = s.opcode;
    v.ackReq = s.ackRequest;
    v.psn = static_cast<uint32_t>(s.psn & 0xFFFFFF);
    v.frameBytes += s.payloadBytes;
    if (RdmaOpcode::HasReth(s.opcode))
    {
        v.hasReth = true;
        v.rethVa = s.offset;
        v.rethRKey = qp.GetPeerQpn();
        v.rethDmaLen = static_cast<uint32_t>(s.messageBytes);
        v.frameBytes += RethHeader::SIZE;
    }
    if (RdmaOpcode::HasImm(s.opcode))
    {
        v.hasImm = true;
        v.imm = static_cast<uint32_t>(s.psn);
        v.frameBytes += ImmHeader::SIZE;
    }
    RoceFrame::CompleteParsed(frame);
}

void
RoceNic::QueueControl(const RdmaQueuePair& qp, uint8_t opcode, uint32_t psn, uint32_t msn, bool nak)
{
    const FrameTemplates& t = m_templates[qp.GetLocalQpn() - 1];
    // Written in place: one copy of the template's view, none of a temporary.
    RoceParsedFrame frame(opcode == RdmaOpcode::CNP ? t.cnp : t.ack);
    if (opcode != RdmaOpcode::CNP)
    {
        // ControlFrameFields' ACK/NAK, from the template.
        RoceFrameView& v = frame.view;
        v.psn = psn;
        v.aethMsn = msn;
        v.aethSyndrome = AethHeader::ResponderSyndrome(nak);
        // The endpoint delay of the data packet this answers, in the IPv4
        // Identification (RFC 6864 4.1: an atomic datagram's ID carries no meaning).
        v.ipId = EncodeEchoHops(m_echoTtl) | m_echoIpId;
    }
    RoceFrame::CompleteParsed(frame);
    const uint8_t prio = frame.view.dscp >> 3; // the template's class (the PCP too)
    if (m_controlMask == 0 && m_device->CanTransmitNow(prio))
    {
        // What the queue and the port's pull would do at once (a receiver's port is
        // mostly idle): straight to the wire.
        if (__builtin_expect(m_queueTraced, false))
        {
            TraceEnqueue(prio, frame, false);
            TraceDequeue(prio, frame, false);
        }
        m_device->TransmitNow(frame);
        return;
    }
    m_controlBytes[prio] += frame.view.frameBytes;
    if (__builtin_expect(m_queueTraced, false))
    {
        TraceEnqueue(prio, frame, true);
    }
    m_control[prio].push_back(std::move(frame));
    m_controlMask |= static_cast<uint8_t>(1U << prio);
    m_device->NotifyDataAvailable();
}

void
RoceNic::ReceiveFrame(RoceNetDevice& /* dev */, RoceParsedFrame& frame)
{
    const RoceFrameView& view = frame.view;
    if (m_stalledMask != 0 &&
        ((m_stalledMask >> (view.hasVlan ? view.pcp : view.dscp >> 3)) & 1) != 0)
    {
        m_stalledDrops++;
        return;
    }
    const uint8_t op = view.bthOpcode;
    if (m_hostModel && RdmaOpcode::IsData(op))
    {
        ReceiveThroughHost(view, FabricSimulator::Now());
        return;
    }
    // The TTL whose hop count the ACK of this (data) frame echoes: kept for every frame
    // (no branch), encoded only by an ACK or NAK the delivery sends (QueueControl); an
    // ACK sent later (coalescing timer) echoes none, and the sender uses the route's.
    m_echoTtl = view.ttl;
    const uint16_t ipId = view.ipId;
    Deliver(
        view.destQp,
        op,
        view.psn,
        view.aethSyndrome,
        [&view, op] {
            // The frame minus IPv4, UDP, BTH, optional RETH/ImmDt and the ICRC.
            return view.frameBytes -
                   (view.l3Offset + 20 + 8 + 12 + (RdmaOpcode::HasReth(op) ? 16 : 0) +
                    (RdmaOpcode::HasImm(op) ? 4 : 0) + 4);
        },
        view.ackReq,
        view.ecn == ECN_CE,
        FabricSimulator::Now(),
        op == RdmaOpcode::ACKNOWLEDGE ? DecodeEchoDelaySteps(ipId) : 0,
        DecodeEchoHops(ipId));
    m_echoTtl = RoceFrame::INITIAL_TTL;
}

void
RoceNic::SetHostDelay(Time delay)
{
    m_hostDelay = delay;
    m_hostModel = !m_hostDelay.IsZero() || m_hostDrainRate.GetBitRate() != 0;
}

void
RoceNic::SetHostDrainRate(DataRate rate)
{
    m_hostDrainRate = rate;
    m_hostModel = !m_hostDelay.IsZero() || m_hostDrainRate.GetBitRate() != 0;
}

Time
RoceNic::GetHostDelay() const
{
    return m_hostDelay;
}

DataRate
RoceNic::GetHostDrainRate() const
{
    return m_hostDrainRate;
}

int64_t
RoceNic::DecodeEchoDelaySteps(uint16_t ipId)
{
    return (ipId & ECHO_DELAY_MASK) == 0 ? 0 : DecodeEchoDelay(ipId).GetTimeStep();
}

uint16_t
RoceNic::EncodeEchoDelay(Time delay)
{
    const int64_t units = delay.GetNanoSeconds() / ECHO_DELAY_UNIT_NS;
    return static_cast<uint16_t>(std::min<int64_t>(std::max<int64_t>(units, 0), ECHO_DELAY_MASK));
}

Time
RoceNic::DecodeEchoDelay(uint16_t ipId)
{
    return NanoSeconds(static_cast<int64_t>(ipId & ECHO_DELAY_MASK) * ECHO_DELAY_UNIT_NS);
}

void
RoceNic::ReceiveThroughHost(const RoceFrameView& view, Time now)
{
    // One FIFO server: the host takes a packet's payload at HostDrainRate once it has
    // taken the packets before it, then HostDelay later the packet is the host's (and
    // the transport answers). The endpoint delay is that time minus the arrival.
    const uint8_t op = view.bthOpcode;
    const uint32_t payload =
        view.frameBytes - (view.l3Offset + 20 + 8 + 12 + (RdmaOpcode::HasReth(op) ? 16 : 0) +
                           (RdmaOpcode::HasImm(op) ? 4 : 0) + 4);
    Time done = std::max(now, m_hostBusyUntil);
    if (m_hostDrainRate.GetBitRate() != 0)
    {
        done += RoundedTxTime(m_hostDrainRate, payload);
    }
    m_hostBusyUntil = done;
    const Time at = done + m_hostDelay;
    HostArrival a;
    a.destQp = view.destQp;
    a.psn = view.psn;
    a.payload = payload;
    a.opcode = op;
    a.syndrome = view.aethSyndrome;
    a.ackReq = view.ackReq;
    a.congested = view.ecn == ECN_CE;
    a.ttl = view.ttl;
    a.arrival = now;
    Simulator::Schedule(at - now, &RoceNic::DeliverFromHost, this, a);
}

void
RoceNic::DeliverFromHost(HostArrival a)
{
    const Time now = Simulator::Now();
    m_echoTtl = a.ttl;
    m_echoIpId = EncodeEchoDelay(now - a.arrival);
    const uint32_t payload = a.payload;
    Deliver(
        a.destQp,
        a.opcode,
        a.psn,
        a.syndrome,
        [payload] { return payload; },
        a.ackReq,
        a.congested,
        now);
    m_echoTtl = RoceFrame::INITIAL_TTL;
    m_echoIpId = 0;
}

void
RoceNic::SetReceiveStalled(uint8_t priorities)
{
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        const bool stall = ((priorities >> prio) & 1) != 0;
        if (stall != (((m_stalledMask >> prio) & 1) != 0))
        {
            m_device->SetPeerPaused(prio, stall);
        }
    }
    m_stalledMask = priorities;
}

uint64_t
RoceNic::GetStalledDrops() const
{
    return m_stalledDrops;
}

} // namespace ns3
