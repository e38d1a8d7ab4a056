/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-hca.h"

#include "ib-net-device.h"

#include "ns3/aeth-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbHca");

NS_OBJECT_ENSURE_REGISTERED(IbHca);

namespace
{
constexpr uint8_t AETH_NAK = 0x60; // syndrome bits 6..5 = 11: NAK
} // namespace

TypeId
IbHca::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbHca")
            .SetParent<RdmaNic>()
            .SetGroupName("AiFabric")
            .AddConstructor<IbHca>()
            .AddAttribute("Mtu",
                          "Payload bytes per packet: the IB path MTU (256, 512, 1024, 2048 or "
                          "4096; 4096 is the usual setting)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&IbHca::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096));
    return tid;
}

IbHca::IbHca()
    : m_hostIndex(0),
      m_lid(0),
      m_mtu(4096),
      m_rrNext(0)
{
}

IbHca::~IbHca() = default;

void
IbHca::DoDispose()
{
    m_wakeEvent.Cancel();
    DisposeQueuePairs();
    for (auto& s : m_staged)
    {
        s = nullptr;
    }
    for (auto& c : m_control)
    {
        c.clear();
    }
    m_device = nullptr;
    Object::DoDispose();
}

void
IbHca::Setup(Ptr<IbNetDevice> device, uint32_t hostIndex, uint16_t lid)
{
    if (m_mtu != 256 && m_mtu != 512 && m_mtu != 1024 && m_mtu != 2048 && m_mtu != 4096)
    {
        throw std::invalid_argument("IB MTU " + std::to_string(m_mtu) +
                                    " invalid (allowed: 256, 512, 1024, 2048, 4096)");
    }
    m_device = device;
    m_hostIndex = hostIndex;
    m_lid = lid;
    device->SetHeadCallback(MakeCallback(&IbHca::Head, this));
    device->SetDequeueCallback(MakeCallback(&IbHca::Dequeue, this));
    device->SetFrameCallback(MakeCallback(&IbHca::ReceiveFrame, this));
}

uint8_t
IbHca::VlOf(uint8_t sl) const
{
    return sl % m_device->GetNumDataVls();
}

Ptr<RdmaQueuePair>
IbHca::CreateQueuePair(uint32_t peerHost, uint16_t peerLid, uint8_t sl)
{
    NS_ABORT_MSG_IF(sl > 15, "service level " << +sl << " invalid (0..15)");
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->SetAttribute("Mtu", UintegerValue(m_mtu));
    uint32_t qpn = static_cast<uint32_t>(m_qps.size()) + 1;
    qp->SetIdentity(qpn, 0, m_hostIndex, peerHost, sl, 0);
    qp->SetCallbacks(MakeCallback(&IbHca::MessageSent, this),
                     MakeCallback(&IbHca::MessageDelivered, this),
                     MakeCallback(&IbHca::Wake, this));
    m_qps.push_back(qp);
    m_peerLid.push_back(peerLid);
    m_qpSl.push_back(sl);
    m_isActive.push_back(false);
    return qp;
}

void
IbHca::ConnectQueuePair(Ptr<RdmaQueuePair> qp, uint32_t peerQpn)
{
    qp->SetIdentity(qp->GetLocalQpn(),
                    peerQpn,
                    m_hostIndex,
                    qp->GetPeerHost(),
                    qp->GetPriority(),
                    qp->GetEntropy());
}

uint32_t
IbHca::GetHostIndex() const
{
    return m_hostIndex;
}

uint16_t
IbHca::GetLid() const
{
    return m_lid;
}

Ptr<IbNetDevice>
IbHca::GetDevice() const
{
    return m_device;
}

uint32_t
IbHca::GetMtu() const
{
    return m_mtu;
}

uint32_t
IbHca::GetFullPacketBytes() const
{
    return IbFrame::HeaderBytes(RdmaOpcode::WRITE_MIDDLE, false) + m_mtu;
}

uint32_t
IbHca::GetAckBytes() const
{
    return IbFrame::HeaderBytes(RdmaOpcode::ACKNOWLEDGE, true);
}

void
IbHca::Wake(Ptr<RdmaQueuePair> qp)
{
    uint32_t idx = qp->GetLocalQpn() - 1;
    if (!m_isActive[idx])
    {
        m_isActive[idx] = true;
        m_active.push_back(qp->GetLocalQpn());
    }
    m_device->NotifyDataAvailable();
}

void
IbHca::WakeUp()
{
    m_device->NotifyDataAvailable();
}

uint32_t
IbHca::Head(Ptr<IbNetDevice> /* dev */, uint8_t vl)
{
    if (!m_staged[vl])
    {
        m_staged[vl] = BuildNext(vl);
    }
    return m_staged[vl] ? m_staged[vl]->GetSize() : 0;
}

Ptr<Packet>
IbHca::Dequeue(Ptr<IbNetDevice> /* dev */, uint8_t vl)
{
    Ptr<Packet> p = m_staged[vl];
    m_staged[vl] = nullptr;
    return p;
}

Ptr<Packet>
IbHca::BuildNext(uint8_t vl)
{
    if (!m_control[vl].empty())
    {
        Ptr<Packet> p = m_control[vl].front();
        m_control[vl].pop_front();
        return p;
    }
    Time now = Simulator::Now();
    Time earliest = Time::Max();
    std::size_t n = m_active.size();
    for (std::size_t i = 0; i < n && !m_active.empty(); ++i)
    {
        if (m_rrNext >= m_active.size())
        {
            m_rrNext = 0;
        }
        uint32_t qpn = m_active[m_rrNext];
        Ptr<RdmaQueuePair> qp = m_qps[qpn - 1];
        if (!qp->HasDataToSend())
        {
            m_isActive[qpn - 1] = false;
            m_active[m_rrNext] = m_active.back();
            m_active.pop_back();
            continue;
        }
        if (VlOf(m_qpSl[qpn - 1]) != vl)
        {
            m_rrNext++;
            continue;
        }
        if (qp->CanSend(now))
        {
            m_rrNext++;
            RdmaSegment s = qp->NextSegment(now, GetFullPacketBytes());
            return BuildData(qp, s);
        }
        if (!qp->IsWindowBlocked())
        {
            earliest = std::min(earliest, qp->GetNextSendTime());
        }
        m_rrNext++;
    }
    if (earliest != Time::Max() && earliest > now)
    {
        if (!m_wakeEvent.IsRunning() || Simulator::GetDelayLeft(m_wakeEvent) > earliest - now)
        {
            m_wakeEvent.Cancel();
            m_wakeEvent = Simulator::Schedule(earliest - now, &IbHca::WakeUp, this);
        }
    }
    return nullptr;
}

Ptr<Packet>
IbHca::BuildData(Ptr<RdmaQueuePair> qp, const RdmaSegment& s)
{
    Ptr<Packet> p = Create<Packet>(s.payloadBytes);
    uint32_t idx = qp->GetLocalQpn() - 1;
    IbFrameFields f;
    f.sl = m_qpSl[idx];
    f.vl = VlOf(f.sl);
    f.dlid = m_peerLid[idx];
    f.slid = m_lid;
    f.opcode = s.opcode;
    f.destQp = qp->GetPeerQpn();
    f.ackReq = s.ackRequest;
    f.psn = static_cast<uint32_t>(s.psn & 0xFFFFFF);
    f.payloadBytes = s.payloadBytes;
    if (RdmaOpcode::HasReth(s.opcode))
    {
        f.hasReth = true;
        f.rethVa = s.offset;
        f.rethRKey = qp->GetPeerQpn();
        f.rethDmaLen = static_cast<uint32_t>(s.messageBytes);
    }
    if (RdmaOpcode::HasImm(s.opcode))
    {
        f.hasImm = true;
        f.imm = static_cast<uint32_t>(s.psn);
    }
    IbFrame::Encapsulate(p, f);
    return p;
}

void
IbHca::QueueControl(Ptr<RdmaQueuePair> qp, uint8_t opcode, uint32_t psn, uint32_t msn, bool nak)
{
    Ptr<Packet> p = Create<Packet>();
    uint32_t idx = qp->GetLocalQpn() - 1;
    IbFrameFields f;
    f.sl = m_qpSl[idx];
    f.vl = VlOf(f.sl);
    f.dlid = m_peerLid[idx];
    f.slid = m_lid;
    f.opcode = opcode;
    f.destQp = qp->GetPeerQpn();
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
    IbFrame::Encapsulate(p, f);
    m_control[f.vl].push_back(p);
    m_device->NotifyDataAvailable();
}

void
IbHca::ReceiveFrame(Ptr<IbNetDevice> /* dev */, Ptr<Packet> p, const IbFrameView& v, Time txIn)
{
    // The head is in; the transport acts once the tail is.
    Simulator::Schedule(txIn, &IbHca::Process, this, p, v);
}

void
IbHca::Process(Ptr<Packet> /* p */, IbFrameView v)
{
    m_device->ReleaseBlocks(v.vl, IbFrame::Blocks(v.packetBytes));
    if (v.destQp == 0 || v.destQp > m_qps.size())
    {
        NS_LOG_WARN("packet for unknown QP " << v.destQp << " dropped");
        return;
    }
    Ptr<RdmaQueuePair> qp = m_qps[v.destQp - 1];
    Time now = Simulator::Now();
    if (v.opcode == RdmaOpcode::ACKNOWLEDGE)
    {
        if ((v.aethSyndrome & 0x60) == AETH_NAK)
        {
            qp->ReceiveNak(v.psn, now);
        }
        else
        {
            qp->ReceiveAck(v.psn, now);
        }
        return;
    }
    if (v.opcode == RdmaOpcode::CNP)
    {
        m_cnpsReceived++;
        qp->ReceiveCnp();
        return;
    }
    if (!RdmaOpcode::IsData(v.opcode))
    {
        NS_LOG_WARN("unsupported opcode " << +v.opcode << " dropped");
        return;
    }
    const RdmaQueuePair::Reply r =
        qp->ReceiveData(v.psn, v.opcode, v.payloadBytes, v.ackReq, v.fecn, now);
    if (r.cnp)
    {
        m_cnpsSent++;
        QueueControl(qp, RdmaOpcode::CNP, 0, 0, false);
    }
    if (r.response == RdmaQueuePair::Response::ACK)
    {
        QueueControl(qp, RdmaOpcode::ACKNOWLEDGE, r.ackPsn, r.msn, false);
    }
    else if (r.response == RdmaQueuePair::Response::NAK)
    {
        QueueControl(qp, RdmaOpcode::ACKNOWLEDGE, r.ackPsn, r.msn, true);
    }
}

} // namespace ns3
