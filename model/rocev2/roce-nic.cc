/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-nic.h"

#include "roce-net-device.h"

#include "ns3/aeth-header.h"
#include "ns3/boolean.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/imm-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/reth-header.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNic");

NS_OBJECT_ENSURE_REGISTERED(RoceNic);

namespace
{
constexpr uint32_t HOST_IP_BASE = 0x0A000001; // host i is 10.0.0.1 + i
constexpr uint8_t ECN_ECT0 = 0x2;
constexpr uint8_t ECN_CE = 0x3;
constexpr uint8_t AETH_NAK = 0x60; // syndrome bits 6..5 = 11: NAK

/// ReceiveFrame's warning for a frame it drops (\p what, then \p value), out of
/// line: its stream code would make every arrival save and restore registers.
[[gnu::cold, gnu::noinline]] void
WarnDropped(const char* what, uint32_t value)
{
    NS_LOG_WARN(what << value << " dropped");
}
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
                          "Priority (DSCP / 8 and 802.1p) of ACK, NAK and CNP frames; 7 is "
                          "served first by strict-priority switch schedulers",
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
                          MakeBooleanChecker());
    return tid;
}

RoceNic::RoceNic()
    : m_hostIndex(0),
      m_mtu(1000),
      m_controlPriority(7),
      m_useVlan(false),
      m_ecnCapable(true),
      m_rrNext(0)
{
}

RoceNic::~RoceNic() = default;

void
RoceNic::DoDispose()
{
    m_wakeAt = -1;
    for (const Ptr<FabricEvent>& wake : m_wakeEvents)
    {
        wake->Disable(); // as EventId::Cancel did: none runs after disposal
    }
    m_wakeEvents.clear(); // (those in the event list go with it)
    m_idleWakeEvents.clear();
    DisposeQueuePairs();
    m_active.clear(); // (raw pointers into the queue pairs, now disposed)
    m_control.clear();
    m_device = nullptr;
    Object::DoDispose();
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
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->SetAttribute("Mtu", UintegerValue(m_mtu));
    uint32_t qpn = static_cast<uint32_t>(m_qps.size()) + 1;
    qp->SetIdentity(qpn, 0, m_hostIndex, peerHost, priority, entropy);
    // Woken by a plain function (per ACK), not a wake callback.
    qp->SetCallbacks(MakeCallback(&RoceNic::MessageSent, this),
                     MakeCallback(&RoceNic::MessageDelivered, this),
                     RdmaQueuePair::WakeCallback());
    qp->SetWakeFunction(&RoceNic::WakeQueuePair, this);
    m_qps.push_back(qp);
    m_isActive.push_back(false);
    m_templates.emplace_back();
    MakeFrameTemplates(*qp);
    m_fullPacketWireBytes = GetFullPacketWireBytes(); // (Mtu, UseVlan may change after Setup)
    return qp;
}

void
RoceNic::ConnectQueuePair(Ptr<RdmaQueuePair> qp, uint32_t peerQpn)
{
    qp->SetIdentity(qp->GetLocalQpn(),
                    peerQpn,
                    m_hostIndex,
                    qp->GetPeerHost(),
                    qp->GetPriority(),
                    qp->GetEntropy());
    MakeFrameTemplates(*qp);
}

uint32_t
RoceNic::GetHostIndex() const
{
    return m_hostIndex;
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
RoceNic::GetMtu() const
{
    return m_mtu;
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
RoceNic::WakeQueuePair(void* nic, RdmaQueuePair& qp)
{
    RoceNic* self = static_cast<RoceNic*>(nic);
    uint32_t idx = qp.GetLocalQpn() - 1;
    if (!self->m_isActive[idx])
    {
        self->m_isActive[idx] = true;
        self->m_active.push_back(&qp);
    }
    self->m_device->NotifyDataAvailable();
}

namespace
{
/// One pacing wake-up of a NIC: it wakes the NIC only if no earlier wake-up was asked
/// for since it was scheduled (what cancelling it would do, without an EventId).
class NicWakeEvent : public FabricEvent
{
  public:
    NicWakeEvent(RoceNic* nic, void (RoceNic::*wake)(uint64_t), std::vector<FabricEvent*>* idle)
        : m_nic(nic),
          m_wake(wake),
          m_idle(idle)
    {
    }

    /// Make this the NIC's wake-up number \p generation (before it is scheduled).
    void SetGeneration(uint64_t generation)
    {
        m_generation = generation;
    }

  private:
    void Notify() override
    {
        m_idle->push_back(this); // out of the event list: free for the next wake-up
        (m_nic->*m_wake)(m_generation);
    }

    RoceNic* m_nic; //!< not owned: the NIC outlives its pending wake-ups (see DoDispose)
    void (RoceNic::*m_wake)(uint64_t);
    std::vector<FabricEvent*>* m_idle; //!< the NIC's m_idleWakeEvents
    uint64_t m_generation{0};          //!< which wake-up of the NIC this is
};
} // namespace

void
RoceNic::WakeIfCurrent(uint64_t generation)
{
    if (m_wakeAt < 0 || generation != m_wakeGeneration)
    {
        return; // superseded by an earlier wake-up, or the NIC was disposed
    }
    m_wakeAt = -1;
    WakeUp();
}

void
RoceNic::WakeUp()
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
    return !m_control.empty() || !m_active.empty();
}

bool
RoceNic::DequeueFrame(RoceNetDevice& /* dev */, uint8_t pausedMask, RoceParsedFrame& frame)
{
    if (!m_control.empty() && !(pausedMask & (1U << m_controlPriority)))
    {
        frame = std::move(m_control.front());
        m_control.pop_front();
        return true;
    }
    Time now = FabricSimulatorImpl::NowFast();
    Time earliest = Time::Max();
    std::size_t n = m_active.size();
    for (std::size_t i = 0; i < n && !m_active.empty(); ++i)
    {
        if (m_rrNext >= m_active.size())
        {
            m_rrNext = 0;
        }
        RdmaQueuePair* qp = m_active[m_rrNext];
        if (!qp->HasDataToSend())
        {
            // Done for now: leave the round-robin until the QP wakes again.
            m_isActive[qp->GetLocalQpn() - 1] = false;
            m_active[m_rrNext] = m_active.back();
            m_active.pop_back();
            continue;
        }
        if (pausedMask & (1U << qp->GetPriority()))
        {
            m_rrNext++;
            continue;
        }
        if (qp->CanSend(now))
        {
            m_rrNext++;
            RdmaSegment s = qp->NextSegment(now, m_fullPacketWireBytes);
            BuildData(*qp, s, frame);
            return true;
        }
        if (!qp->IsWindowBlocked())
        {
            earliest = std::min(earliest, qp->GetNextSendTime());
        }
        m_rrNext++;
    }
    if (earliest != Time::Max() && earliest > now)
    {
        // One wake-up, the earliest asked for; a later one still in the event list
        // does nothing when it runs (as a cancelled event would).
        const int64_t at = earliest.GetTimeStep();
        if (m_wakeAt < 0 || m_wakeAt > at)
        {
            m_wakeAt = at;
            if (m_idleWakeEvents.empty())
            {
                m_wakeEvents.push_back(
                    Create<NicWakeEvent>(this, &RoceNic::WakeIfCurrent, &m_idleWakeEvents));
                m_idleWakeEvents.push_back(PeekPointer(m_wakeEvents.back()));
            }
            auto* wake = static_cast<NicWakeEvent*>(m_idleWakeEvents.back());
            m_idleWakeEvents.pop_back();
            wake->SetGeneration(++m_wakeGeneration);
            wake->Ref(); // the simulator's reference, released when it has run
            FabricSimulatorImpl::ScheduleWithContextFast(Simulator::GetContext(),
                                                         at - now.GetTimeStep(),
                                                         wake,
                                                         nullptr);
        }
    }
    return false;
}

RoceFrameFields
RoceNic::DataFields(const RdmaQueuePair& qp, const RdmaSegment& s) const
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
    return f;
}

RoceFrameFields
RoceNic::ControlFields(const RdmaQueuePair& qp,
                       uint8_t opcode,
                       uint32_t psn,
                       uint32_t msn,
                       bool nak) const
{
    RoceFrameFields f;
    f.srcMac = m_mac;
    f.dstMac = HostMac(qp.GetPeerHost());
    f.useVlan = m_useVlan;
    f.pcp = m_controlPriority;
    f.srcIp = m_ip;
    f.dstIp = HostAddress(qp.GetPeerHost());
    f.dscp = static_cast<uint8_t>(m_controlPriority << 3);
    f.ecn = 0;
    f.udpSrcPort = qp.GetEntropy();
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
        f.aethSyndrome = nak ? static_cast<uint8_t>(AETH_NAK | AethHeader::NAK_PSN_SEQUENCE_ERROR)
                             : AethHeader::CREDITS_INVALID;
    }
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
    RoceFrame::Describe(DataFields(qp, middle), t.data);
    RoceFrame::Describe(ControlFields(qp, RdmaOpcode::ACKNOWLEDGE, 0, 0, false), t.ack);
    RoceFrame::Describe(ControlFields(qp, RdmaOpcode::CNP, 0, 0, false), t.cnp);
}

void
RoceNic::BuildData(const RdmaQueuePair& qp, const RdmaSegment& s, RoceParsedFrame& frame) const
{
    // What RoceFrame::Describe(DataFields(qp, s)) gives, from the queue pair's
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
        // ControlFields' ACK/NAK, from the template.
        RoceFrameView& v = frame.view;
        v.psn = psn;
        v.aethMsn = msn;
        v.aethSyndrome = nak ? static_cast<uint8_t>(AETH_NAK | AethHeader::NAK_PSN_SEQUENCE_ERROR)
                             : AethHeader::CREDITS_INVALID;
    }
    RoceFrame::CompleteParsed(frame);
    if (m_control.empty() && m_device->CanTransmitNow(m_controlPriority))
    {
        // What the queue and the port's pull would do at once (a receiver's port is
        // mostly idle): straight to the wire.
        m_device->TransmitNow(frame);
        return;
    }
    m_control.push_back(std::move(frame));
    m_device->NotifyDataAvailable();
}

void
RoceNic::ReceiveFrame(RoceNetDevice& /* dev */, RoceParsedFrame& frame)
{
    const RoceFrameView& view = frame.view;
    if (view.destQp == 0 || view.destQp > m_qps.size())
    {
        WarnDropped("frame for unknown QP ", view.destQp);
        return;
    }
    RdmaQueuePair* qp = PeekPointer(m_qps[view.destQp - 1]);
    Time now = FabricSimulatorImpl::NowFast();
    uint8_t op = view.bthOpcode;
    if (op == RdmaOpcode::ACKNOWLEDGE)
    {
        if ((view.aethSyndrome & 0x60) == AETH_NAK)
        {
            qp->ReceiveNak(view.psn, now);
        }
        else
        {
            qp->ReceiveAck(view.psn, now);
        }
        return;
    }
    if (op == RdmaOpcode::CNP)
    {
        m_cnpsReceived++;
        qp->ReceiveCnp();
        return;
    }
    if (!RdmaOpcode::IsData(op))
    {
        WarnDropped("unsupported opcode ", op);
        return;
    }
    // Payload = frame minus IPv4, UDP, BTH, optional RETH/ImmDt and the ICRC.
    uint32_t headers = view.l3Offset + 20 + 8 + 12 + (RdmaOpcode::HasReth(op) ? 16 : 0) +
                       (RdmaOpcode::HasImm(op) ? 4 : 0) + 4;
    uint32_t payload = view.frameBytes - headers;
    const RdmaQueuePair::Reply r =
        qp->ReceiveData(view.psn, op, payload, view.ackReq, view.ecn == ECN_CE, now);
    if (r.cnp)
    {
        m_cnpsSent++;
        QueueControl(*qp, RdmaOpcode::CNP, 0, 0, false);
    }
    if (r.response == RdmaQueuePair::Response::ACK)
    {
        QueueControl(*qp, RdmaOpcode::ACKNOWLEDGE, r.ackPsn, r.msn, false);
    }
    else if (r.response == RdmaQueuePair::Response::NAK)
    {
        QueueControl(*qp, RdmaOpcode::ACKNOWLEDGE, r.ackPsn, r.msn, true);
    }
}

} // namespace ns3
