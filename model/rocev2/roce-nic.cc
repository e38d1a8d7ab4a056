/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic.h"

#include "roce-net-device.h"

#include "ns3/aeth-header.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-simulator.h"
#include "ns3/fct-attribution.h"
#include "ns3/imm-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
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
            .AddAttribute("EcnEchoInAck",
                          "Receive side: every ACK echoes whether the data packets it "
                          "acknowledges arrived ECN CE, in its BTH BECN bit, and a change of "
                          "CE state is acknowledged at once (RFC 8257 3.2's DCTCP receiver), "
                          "so that an ACK covers packets of one state. Off: ACKs carry BECN "
                          "0 and CE only makes CNPs. Default false; the congestion control's "
                          "registration sets it (DCTCP: true).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_ackEcnEcho),
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
            .AddAttribute("IpPriority",
                          "Traffic class (802.1p priority) of the host IP stack's packets "
                          "(NetDevice::Send, e.g. ns-3's TCP): the NIC writes DSCP = 8 x "
                          "priority into their IPv4 header (the PCP too with UseVlan), which "
                          "the switches classify by. Lossless only if the switches' "
                          "ns3::SharedBufferMmu::LosslessPriorities hold it; 0 = best effort",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceNic::m_ipPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("IpSendDelay",
                          "Host stack send path of an IP packet, per packet (time): from the "
                          "application's send to the frame queued in the NIC. Default 1.6 us: "
                          "Linux 5.4.80's measured best-case send path of a short message, "
                          "1.475-1.71 us (system call, transport, IP and driver; Ousterhout, "
                          "'A Linux Kernel Implementation of the Homa Transport Protocol', "
                          "USENIX ATC 2021, HomaModule perf.txt, January 2021 timelines)",
                          TimeValue(NanoSeconds(1600)),
                          MakeTimeAccessor(&RoceNic::m_ipSendDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IpReceiveDelay",
                          "Host stack receive path of an IP packet, per packet (time): from "
                          "the frame's arrival at the NIC to the stack having it. Default "
                          "3.15 us: the same measurement's receive path, 3.08-3.22 us "
                          "(interrupt, NAPI, SoftIRQ, IP, transport, thread wakeup, system "
                          "call)",
                          TimeValue(NanoSeconds(3150)),
                          MakeTimeAccessor(&RoceNic::m_ipReceiveDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IpQueuePackets",
                          "IP packets the NIC holds for the wire (IpSendDelay included); when "
                          "full it stops its transmit queue (NetDeviceQueueInterface) and the "
                          "stack's queue disc holds the next ones, as a driver's full ring "
                          "does (1000: Linux's default txqueuelen of an Ethernet device)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RoceNic::m_ipQueuePackets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("IpDrop",
                            "An IP packet of the host stack the NIC dropped (queue full, an "
                            "unknown destination, a protocol other than IPv4)",
                            MakeTraceSourceAccessor(&RoceNic::m_ipDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddAttribute("IntEnabled",
                          "In-band network telemetry for INT-based congestion control (HPCC, "
                          "Li et al., SIGCOMM 2019): data frames carry an INT block "
                          "(IntHeader, 44 bytes after the BTH's extended headers, DSCP bit "
                          "RoceFrame::INT_DSCP_BIT set) that switches fill, ACKs echo the "
                          "block of the data packet they acknowledge, and the sender's "
                          "congestion control reads it (RdmaAckSample::intHeader). The "
                          "fabric helpers set it from the congestion control (usesInt). "
                          "Default false: no block, no per-packet work. Set it before the "
                          "queue pairs are created.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNic::m_intEnabled),
                          MakeBooleanChecker())
            .AddTraceSource("Enqueue",
                            "A frame joined the NIC's egress: an ACK, NAK or CNP its control "
                            "queue of its priority, a host-stack IP packet the IP queue (at "
                            "IpPriority), or a data frame the moment the port pulls it (data "
                            "waits unbuilt in its queue pair): (priority, frame)",
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
    m_ipFrames.clear();
    m_txQueue = nullptr;
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
    // Flow control towards the host's traffic control layer, as a driver's stopped
    // transmit queue (netif_stop_queue): IpQueuePackets held, the stack's queue disc
    // keeps the next ones.
    if (!device->GetObject<NetDeviceQueueInterface>())
    {
        device->AggregateObject(CreateObject<NetDeviceQueueInterface>());
    }
}

Ptr<RdmaQueuePair>
RoceNic::CreateQueuePair(uint32_t peerHost, uint8_t priority, uint16_t entropy)
{
    Ptr<RdmaQueuePair> qp = AddQueuePair(peerHost, priority, entropy);
    if (QpnSlot(qp->GetLocalQpn()) == m_templates.size())
    {
        m_templates.emplace_back(); // a new QPN (else a released one's, overwritten)
    }
    if (m_intEnabled)
    {
        m_qpInt.resize(m_templates.size());
        m_qpInt[QpnSlot(qp->GetLocalQpn())] = IntHeader(); // nothing to echo yet
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
    return RoceFrame::HeaderBytes(f) + m_mtu + RoceEthernetHeader::WIRE_OVERHEAD_BYTES +
           (m_intEnabled ? IntHeader::SIZE : 0);
}

uint32_t
RoceNic::GetAckWireBytes() const
{
    RoceFrameFields f;
    f.useVlan = m_useVlan;
    f.opcode = RdmaOpcode::ACKNOWLEDGE;
    f.hasAeth = true;
    return RoceFrame::HeaderBytes(f) + RoceEthernetHeader::WIRE_OVERHEAD_BYTES +
           (m_intEnabled ? IntHeader::SIZE : 0);
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
    return m_controlMask != 0 || !m_ipFrames.empty() || HasActiveQueuePairs();
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
    // IP packets of the host stack take turns with RDMA data, packet by packet.
    const bool ipReady =
        __builtin_expect(!m_ipFrames.empty(), false) && ((pausedMask >> m_ipPriority) & 1) == 0;
    if (ipReady && m_ipTurn)
    {
        return DequeueIp(frame);
    }
    const Time now = FabricSimulator::Now();
    RdmaQueuePair* qp = NextSender(now, [pausedMask](const RdmaQueuePair& q) {
        return (pausedMask & (1U << q.GetPriority())) != 0;
    });
    if (qp == nullptr)
    {
        return ipReady && DequeueIp(frame);
    }
    m_ipTurn = ipReady;
    RdmaSegment s = qp->NextSegment(now, m_fullPacketWireBytes);
    ChargeInjection(*qp, s.payloadBytes, now);
    BuildData(*qp, s, frame);
    if (__builtin_expect(m_rewriteFrames, false))
    {
        RewriteData(*qp, s, frame);
    }
    if (__builtin_expect(GetAttribution() != nullptr, false))
    {
        frame.view.journey = GetAttribution()->NewData(*qp, s);
    }
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
    FrameTemplates& t = m_templates[QpnSlot(qp.GetLocalQpn())];
    RdmaSegment middle;
    middle.opcode = RdmaOpcode::WRITE_MIDDLE;
    RoceFrame::Describe(DataFrameFields(qp, middle), t.data);
    RoceFrame::Describe(ControlFrameFields(qp, RdmaOpcode::ACKNOWLEDGE, 0, 0, false), t.ack);
    RoceFrame::Describe(ControlFrameFields(qp, RdmaOpcode::CNP, 0, 0, false), t.cnp);
    if (m_intEnabled)
    {
        // Data and ACKs carry the INT block (CNPs do not): the DSCP bit says so.
        for (RoceFrameView* v : {&t.data, &t.ack})
        {
            v->dscp |= RoceFrame::INT_DSCP_BIT;
            v->frameBytes += IntHeader::SIZE;
        }
    }
}

void
RoceNic::BuildData(const RdmaQueuePair& qp, const RdmaSegment& s, RoceParsedFrame& frame) const
{
    // What RoceFrame::Describe(DataFrameFields(qp, s)) gives, from the queue pair's
    // template: the same view without building the fields of every packet.
    frame.Assign(m_templates[QpnSlot(qp.GetLocalQpn())].data);
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
    if (__builtin_expect(RdmaOpcode::ReadResponseHasAeth(s.opcode), false))
    {
        v.hasAeth = true;
        v.aethSyndrome = AethHeader::ResponderSyndrome(false);
        v.aethMsn = s.msn;
        v.frameBytes += AethHeader::SIZE;
    }
    // With INT, no records yet: the first switch's WriteInt gives the frame its block.
    RoceFrame::CompleteParsed(frame);
}

void
RoceNic::QueueControl(const RdmaQueuePair& qp, uint8_t opcode, uint32_t psn, uint32_t msn, bool nak)
{
    const FrameTemplates& t = m_templates[QpnSlot(qp.GetLocalQpn())];
    // Written in place: one copy of the template's view, none of a temporary.
    RoceParsedFrame frame(opcode == RdmaOpcode::CNP ? t.cnp : t.ack);
    if (opcode != RdmaOpcode::CNP)
    {
        // ControlFrameFields' ACK/NAK, from the template.
        RoceFrameView& v = frame.view;
        v.psn = psn;
        v.aethMsn = msn;
        v.aethSyndrome =
            nak ? qp.GetResponder().GetNakSyndrome() : AethHeader::ResponderSyndrome(false);
        v.becn = qp.GetCeEcho(); // false unless EcnEchoInAck (RdmaNic::Deliver sets it)
        // The endpoint delay of the data packet this answers, in the IPv4
        // Identification (RFC 6864 4.1: an atomic datagram's ID carries no meaning).
        v.ipId = EncodeEchoHops(m_echoTtl) | m_echoIpId;
        if (m_intEnabled)
        {
            // The records of the data packet it answers (none: an empty block).
            // The latest records of this queue pair's data (an ACK a timer sends too),
            // carried with the view (bytes only if something asks for them).
            const uint32_t i = QpnSlot(qp.GetLocalQpn());
            IntHeader echo = i < m_qpInt.size() ? m_qpInt[i] : IntHeader();
            echo.SetEcho(true);
            RoceFrame::WriteInt(frame, echo);
        }
        if (__builtin_expect(GetAttribution() != nullptr, false))
        {
            frame.view.journey = GetAttribution()->NewAck(qp);
        }
    }
    SendControl(frame);
}

void
RoceNic::QueueAethFrame(const RdmaQueuePair& qp, uint32_t psn, uint32_t msn, uint8_t syndrome)
{
    RoceParsedFrame frame(m_templates[QpnSlot(qp.GetLocalQpn())].ack);
    frame.view.psn = psn;
    frame.view.aethMsn = msn;
    frame.view.aethSyndrome = syndrome;
    SendControl(frame);
}

void
RoceNic::SendControl(RoceParsedFrame& frame)
{
    RoceFrame::CompleteParsed(frame);
    if (__builtin_expect(m_rewriteFrames, false))
    {
        RewriteControl(frame);
    }
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

RoceNic::IdealFraming
RoceNic::GetIdealFraming() const
{
    RoceFrameFields f;
    f.opcode = RdmaOpcode::WRITE_MIDDLE;
    return {RoceFrame::HeaderBytes(f) + RoceEthernetHeader::WIRE_OVERHEAD_BYTES, 16, 4};
}

void
RoceNic::RewriteData(const RdmaQueuePair& /* qp */,
                     const RdmaSegment& /* s */,
                     RoceParsedFrame& /* frame */)
{
}

void
RoceNic::RewriteControl(RoceParsedFrame& /* frame */)
{
}

void
RoceNic::ReceiveFrame(RoceNetDevice& /* dev */, RoceParsedFrame& frame)
{
    const RoceFrameView& view = frame.view;
    if (__builtin_expect(GetAttribution() != nullptr, false))
    {
        NoteArrival(view);
    }
    if (m_stalledMask != 0 &&
        ((m_stalledMask >> (view.hasVlan ? view.pcp : view.dscp >> 3)) & 1) != 0)
    {
        m_stalledDrops++;
        return;
    }
    if (__builtin_expect(!view.isRoce, false))
    {
        ReceiveIp(frame);
        return;
    }
    if (m_intEnabled)
    {
        ReceiveIntFrame(frame);
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
        DecodeEchoHops(ipId),
        view.becn,
        nullptr,
        view.rethDmaLen);
    m_echoTtl = RoceFrame::INITIAL_TTL;
}

void
RoceNic::NoteArrival(const RoceFrameView& view)
{
    const uint32_t slot = QpnSlot(view.destQp);
    if (view.journey == 0)
    {
        // Not followed (or not RDMA): its data or ACK still replaces the last one.
        const uint8_t op = view.bthOpcode;
        if (view.isRoce && (op == RdmaOpcode::ACKNOWLEDGE || RdmaOpcode::IsData(op)) &&
            slot < m_qps.size() && m_qps[slot])
        {
            GetAttribution()->OnUnfollowedArrival(*m_qps[slot], op == RdmaOpcode::ACKNOWLEDGE);
        }
    }
    else if (slot < m_qps.size() && m_qps[slot])
    {
        GetAttribution()->OnArrival(view.journey, *m_qps[slot]);
    }
    else
    {
        GetAttribution()->Forget(view.journey);
    }
}

void
RoceNic::ReceiveIntFrame(RoceParsedFrame& frame)
{
    const RoceFrameView& view = frame.view;
    const uint8_t op = view.bthOpcode;
    IntHeader h;
    const bool hasInt = RoceFrame::HasInt(view) && RoceFrame::ReadInt(frame, h);
    if (m_hostModel && RdmaOpcode::IsData(op))
    {
        m_hostInt.push_back(h); // the host model is one FIFO server: in arrival order
        ReceiveThroughHost(view, FabricSimulator::Now());
        return;
    }
    m_echoTtl = view.ttl;
    if (RdmaOpcode::IsData(op))
    {
        if (QpnSlot(view.destQp) < m_qpInt.size())
        {
            m_qpInt[QpnSlot(view.destQp)] = h;
        }
    }
    const uint32_t intBytes = RoceFrame::HasInt(view) ? IntHeader::SIZE : 0;
    const uint16_t ipId = view.ipId;
    Deliver(
        view.destQp,
        op,
        view.psn,
        view.aethSyndrome,
        [&view, op, intBytes] {
            // The frame minus IPv4, UDP, BTH, optional RETH/ImmDt, INT and the ICRC.
            return view.frameBytes -
                   (view.l3Offset + 20 + 8 + 12 + (RdmaOpcode::HasReth(op) ? 16 : 0) +
                    (RdmaOpcode::HasImm(op) ? 4 : 0) + intBytes + 4);
        },
        view.ackReq,
        view.ecn == ECN_CE,
        FabricSimulator::Now(),
        op == RdmaOpcode::ACKNOWLEDGE ? DecodeEchoDelaySteps(ipId) : 0,
        DecodeEchoHops(ipId),
        view.becn,
        op == RdmaOpcode::ACKNOWLEDGE && hasInt ? &h : nullptr,
        view.rethDmaLen);
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
    const uint32_t payload = view.frameBytes -
                             (view.l3Offset + 20 + 8 + 12 + (RdmaOpcode::HasReth(op) ? 16 : 0) +
                              (RdmaOpcode::HasImm(op) ? 4 : 0) + 4) -
                             (m_intEnabled && RoceFrame::HasInt(view) ? IntHeader::SIZE : 0);
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
    if (m_intEnabled && !m_hostInt.empty())
    {
        if (QpnSlot(a.destQp) < m_qpInt.size())
        {
            m_qpInt[QpnSlot(a.destQp)] = m_hostInt.front();
        }
        m_hostInt.pop_front();
    }
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

void
RoceNic::SetHostCount(uint32_t hosts)
{
    m_hostCount = hosts;
}

bool
RoceNic::SendPacket(RoceNetDevice& /* dev */, Ptr<Packet> packet, uint16_t protocol)
{
    // IPv4 only: the switches route IPv4 destinations (RoceSwitch); IPv6 is not carried.
    Ipv4Header ip;
    if (protocol != RoceEthernetHeader::ETHERTYPE_IPV4 ||
        packet->PeekHeader(ip) < Ipv4Header().GetSerializedSize())
    {
        m_ipDrops++;
        m_ipDropTrace(packet);
        return false;
    }
    // The next hop is the destination host itself (routed by the switches): its
    // address gives its host index, hence its MAC, without ARP.
    const uint32_t dstHost = HostIndexOf(ip.GetDestination());
    if (dstHost >= m_hostCount || dstHost == m_hostIndex)
    {
        m_ipDrops++;
        m_ipDropTrace(packet);
        return false;
    }
    // One more packet held (delayed by the stack or queued): at IpQueuePackets the
    // transmit queue stops, so the stack's queue disc holds the next ones.
    m_ipHeld++;
    if (m_ipHeld >= m_ipQueuePackets)
    {
        if (Ptr<NetDeviceQueueInterface> q = m_device->GetObject<NetDeviceQueueInterface>())
        {
            m_txQueue = q->GetTxQueue(0);
            m_txQueue->Stop();
        }
    }
    if (m_ipSendDelay.IsZero())
    {
        QueueIp(packet, dstHost);
    }
    else
    {
        Simulator::Schedule(m_ipSendDelay, &RoceNic::QueueIp, this, packet, dstHost);
    }
    return true;
}

void
RoceNic::QueueIp(Ptr<Packet> packet, uint32_t dstHost)
{
    if (m_ipFrames.size() >= m_ipQueuePackets)
    {
        // (Only a stack that sends into a stopped transmit queue gets here.)
        m_ipHeld--;
        m_ipDrops++;
        m_ipDropTrace(packet);
        return;
    }
    // The class: DSCP = 8 x IpPriority, the ECN bits as the stack set them.
    Ipv4Header ip;
    packet->RemoveHeader(ip);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(m_ipPriority << 3));
    ip.EnableChecksum();
    packet->AddHeader(ip);
    RoceEthernetHeader eth;
    eth.SetSource(m_mac);
    eth.SetDestination(HostMac(dstHost));
    eth.SetEtherType(RoceEthernetHeader::ETHERTYPE_IPV4);
    if (m_useVlan)
    {
        eth.SetVlan(m_ipPriority, false, 0);
    }
    packet->AddHeader(eth);
    if (packet->GetSize() < MIN_FRAME_BYTES)
    {
        // IEEE 802.3 minimum frame: 64 bytes with the FCS; the receiver's IPv4
        // trims the padding by the header's total length. Zero bytes (a sized Packet
        // is zero-filled; AddPaddingAtEnd leaves its bytes unwritten).
        packet->AddAtEnd(Create<Packet>(MIN_FRAME_BYTES - packet->GetSize()));
    }
    RoceFrameView view;
    RoceFrame::Peek(*packet, view);
    RoceParsedFrame& queued = m_ipFrames.emplace_back(RoceParsedFrame(packet, view));
    if (__builtin_expect(m_queueTraced, false))
    {
        TraceEnqueue(m_ipPriority, queued, false);
    }
    m_ipSent++;
    m_device->NotifyDataAvailable();
}

bool
RoceNic::DequeueIp(RoceParsedFrame& frame)
{
    frame = std::move(m_ipFrames.front());
    m_ipFrames.pop_front();
    if (__builtin_expect(m_queueTraced, false))
    {
        TraceDequeue(m_ipPriority, frame, false);
    }
    m_ipTurn = false;
    m_ipHeld--;
    if (m_txQueue && m_txQueue->IsStopped() && m_ipHeld < m_ipQueuePackets)
    {
        // Woken from an event of its own: the stack sends from the wake at once, and
        // this port is pulling a frame now.
        Simulator::ScheduleNow(&NetDeviceQueue::Wake, m_txQueue);
    }
    return true;
}

void
RoceNic::ReceiveIp(RoceParsedFrame& frame)
{
    if (!frame.view.isIpv4)
    {
        return; // nothing else reaches a host (pause frames stop at its port)
    }
    Ptr<Packet> p = frame.GetPacket()->Copy();
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    m_ipReceived++;
    if (m_ipReceiveDelay.IsZero())
    {
        m_device->DeliverUp(p, eth.GetEtherType(), eth.GetSource());
        return;
    }
    Simulator::Schedule(m_ipReceiveDelay,
                        &RoceNetDevice::DeliverUp,
                        m_device,
                        p,
                        eth.GetEtherType(),
                        Address(eth.GetSource()));
}

uint64_t
RoceNic::GetIpSent() const
{
    return m_ipSent;
}

uint64_t
RoceNic::GetIpReceived() const
{
    return m_ipReceived;
}

uint64_t
RoceNic::GetIpDrops() const
{
    return m_ipDrops;
}

} // namespace ns3
