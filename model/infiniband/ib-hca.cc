/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-hca.h"

#include "ib-journey-tag.h"
#include "ib-net-device.h"
#include "ipoib-frame.h"
#include "ipoib-header.h"
#include "ipoib-interface.h"

#include "ns3/aeth-header.h"
#include "ns3/bth-header.h"
#include "ns3/fabric-simulator.h"
#include "ns3/fct-attribution.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rounded-time.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbHca");

NS_OBJECT_ENSURE_REGISTERED(IbHca);

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
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddTraceSource("PKeyViolation",
                            "A packet dropped because its BTH P_Key matches no entry of the "
                            "port's P_Key table (source LID, P_Key)",
                            MakeTraceSourceAccessor(&IbHca::m_pKeyViolationTrace),
                            "ns3::IbHca::PKeyViolationCallback");
    return tid;
}

IbHca::IbHca()
    : m_lid(0)
{
    m_mtu = 4096;
}

IbHca::~IbHca() = default;

void
IbHca::DoDispose()
{
    for (auto& s : m_staged)
    {
        s = nullptr;
    }
    for (auto& c : m_control)
    {
        c.clear();
    }
    m_device = nullptr;
    m_ipoib = nullptr;
    RdmaNic::DoDispose();
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
    // Process frees a packet's blocks when its tail is in.
    device->SetReceiverHoldTime(RoundedTxTime(device->GetDataRate(), device->GetMaxPacketBytes()));
    device->SetHeadCallback(MakeCallback(&IbHca::Head, this));
    device->SetDequeueCallback(MakeCallback(&IbHca::Dequeue, this));
    device->SetFrameCallback(MakeCallback(&IbHca::ReceiveFrame, this));
    // The port's MTU as a NetDevice (the largest packet its protocol stack may send):
    // IPoIB's in datagram mode, the IB MTU less the 4-byte encapsulation header
    // (RFC 4391 section 4: 2044 with a 2048 IB MTU, 4092 with 4096).
    device->SetMtu(static_cast<uint16_t>(m_mtu - IpoibHeader::SIZE));
}

void
IbHca::EnableIpoib(Ptr<IpoibInterface> ipoib)
{
    NS_ABORT_MSG_IF(!m_device, "IbHca::EnableIpoib before Setup");
    NS_ABORT_MSG_IF(m_ipoib, "IbHca::EnableIpoib: enabled already");
    m_ipoib = ipoib;
    ipoib->Setup(m_device, m_hostIndex, m_lid, VlOf(ipoib->GetServiceLevel()));
}

Ptr<IpoibInterface>
IbHca::GetIpoib() const
{
    return m_ipoib;
}

uint64_t
IbHca::GetUnclaimedDatagrams() const
{
    return m_unclaimedDatagrams;
}

uint16_t
IbHca::PKeyOf(const RdmaQueuePair& qp) const
{
    const uint32_t slot = QpnSlot(qp.GetLocalQpn());
    return slot < m_qpPKey.size() ? m_qpPKey[slot] : BthHeader::DEFAULT_PKEY;
}

bool
IbHca::PKeyAllowed(uint16_t pKey) const
{
    for (uint16_t k : m_pKeyTable)
    {
        if (PKeysMatch(k, pKey))
        {
            return true;
        }
    }
    return false;
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
    Ptr<RdmaQueuePair> qp = AddQueuePair(peerHost, sl, 0);
    if (QpnSlot(qp->GetLocalQpn()) == m_peerLid.size())
    {
        m_peerLid.push_back(peerLid);
    }
    else
    {
        m_peerLid[QpnSlot(qp->GetLocalQpn())] = peerLid; // a released QPN, given out again
    }
    return qp;
}

void
IbHca::ConnectQueuePair(Ptr<RdmaQueuePair> qp, uint32_t peerQpn)
{
    SetPeerQpn(*qp, peerQpn);
}

void
IbHca::SetPKeyTable(const std::vector<uint16_t>& table)
{
    m_pKeyTable = table;
}

void
IbHca::SetQueuePairPKey(const RdmaQueuePair& qp, uint16_t pKey)
{
    const uint32_t slot = QpnSlot(qp.GetLocalQpn());
    if (m_qpPKey.size() <= slot)
    {
        m_qpPKey.resize(slot + 1, BthHeader::DEFAULT_PKEY);
    }
    m_qpPKey[slot] = pKey;
}

uint64_t
IbHca::GetPKeyViolations() const
{
    return m_pKeyViolations;
}

bool
IbHca::PKeysMatch(uint16_t a, uint16_t b)
{
    // IBTA Vol. 1 10.9.3: the same partition (low 15 bits), not both limited members
    return ((a ^ b) & 0x7FFF) == 0 && ((a | b) & 0x8000) != 0;
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
IbHca::NotifyPort()
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
    // IP packets (IPoIB) take turns with RDMA data on their VL, packet by packet.
    const bool ipReady = __builtin_expect(m_ipoib != nullptr, false) && IpoibWaits(vl);
    if (ipReady && m_ipoibTurn)
    {
        m_ipoibTurn = false;
        return m_ipoib->Dequeue();
    }
    const Time now = Simulator::Now();
    RdmaQueuePair* qp =
        NextSender(now, [this, vl](const RdmaQueuePair& q) { return VlOf(q.GetPriority()) != vl; });
    if (qp == nullptr)
    {
        return ipReady ? m_ipoib->Dequeue() : nullptr;
    }
    m_ipoibTurn = ipReady;
    RdmaSegment s = qp->NextSegment(now, GetFullPacketBytes());
    ChargeInjection(*qp, s.payloadBytes, now);
    return BuildData(*qp, s);
}

bool
IbHca::IpoibWaits(uint8_t vl) const
{
    return vl == m_ipoib->GetVl() && m_ipoib->HasPacket();
}

Ptr<Packet>
IbHca::BuildData(const RdmaQueuePair& qp, const RdmaSegment& s)
{
    Ptr<Packet> p = Create<Packet>(s.payloadBytes);
    IbFrameFields f;
    f.sl = qp.GetPriority();
    f.vl = VlOf(f.sl);
    f.dlid = m_peerLid[QpnSlot(qp.GetLocalQpn())];
    f.slid = m_lid;
    if (!m_qpPKey.empty())
    {
        f.pKey = PKeyOf(qp);
    }
    DataFields(qp, s, f);
    IbFrame::Encapsulate(p, f);
    if (__builtin_expect(GetAttribution() != nullptr, false))
    {
        p->AddPacketTag(IbJourneyTag(GetAttribution()->NewData(qp, s)));
    }
    return p;
}

void
IbHca::QueueControl(const RdmaQueuePair& qp, uint8_t opcode, uint32_t psn, uint32_t msn, bool nak)
{
    Ptr<Packet> p = Create<Packet>();
    IbFrameFields f;
    // ACK/NAK: the AckPriority attribute's service level (default: the QP's own, as the
    // responder QP's address vector gives it); a CNP (BECN) on the QP's.
    f.sl = opcode == RdmaOpcode::CNP ? qp.GetPriority() : AckPriorityOf(qp);
    f.vl = VlOf(f.sl);
    f.dlid = m_peerLid[QpnSlot(qp.GetLocalQpn())];
    f.slid = m_lid;
    if (!m_qpPKey.empty())
    {
        f.pKey = PKeyOf(qp);
    }
    ControlFields(qp, opcode, psn, msn, nak, f);
    IbFrame::Encapsulate(p, f);
    if (GetAttribution() != nullptr && opcode != RdmaOpcode::CNP)
    {
        if (const uint32_t journey = GetAttribution()->NewAck(qp); journey != 0)
        {
            p->AddPacketTag(IbJourneyTag(journey));
        }
    }
    m_control[f.vl].push_back(p);
    m_device->NotifyDataAvailable();
}

void
IbHca::ReceiveDatagram(Ptr<Packet> p, const IbFrameView& v, Time txIn)
{
    Simulator::Schedule(txIn, &IbHca::ProcessDatagram, this, p, v.vl);
}

void
IbHca::ProcessDatagram(Ptr<Packet> p, uint8_t vl)
{
    m_device->ReleaseBlocks(vl, IbFrame::Blocks(p->GetSize()));
    if (!m_ipoib)
    {
        m_unclaimedDatagrams++; // no UD queue pair here: the HCA discards it
        return;
    }
    m_ipoib->Receive(p);
}

void
IbHca::ReceiveFrame(Ptr<IbNetDevice> /* dev */, Ptr<Packet> p, const IbFrameView& v, Time txIn)
{
    if (__builtin_expect(v.opcode == IpoibFrame::OPCODE_UD_SEND_ONLY, false))
    {
        ReceiveDatagram(p, v, txIn);
        return;
    }
    // The head is in; the transport acts once the tail is (in the running event's
    // context, as Simulator::Schedule would). The header fields are all it needs.
    static const FabricSimulator::CallOps process{&IbHca::ProcessCall,
                                                  &FabricSimulator::DestroyPayload<IbFrameView>};
    IbFrameView view = v;
    if (__builtin_expect(GetAttribution() != nullptr, false))
    {
        IbJourneyTag tag;
        view.journey = p->PeekPacketTag(tag) ? tag.GetJourney() : 0;
    }
    FabricSimulator::ScheduleCall(FabricSimulator::Context(),
                                  txIn.GetTimeStep(),
                                  &process,
                                  this,
                                  view);
}

void
IbHca::ProcessCall(void* hca, void* payload)
{
    static_cast<IbHca*>(hca)->Process(*static_cast<const IbFrameView*>(payload));
}

void
IbHca::Process(const IbFrameView& v)
{
    m_device->ReleaseBlocks(v.vl, IbFrame::Blocks(v.packetBytes));
    if (__builtin_expect(!m_pKeyTable.empty(), false) && !PKeyAllowed(v.pKey))
    {
        // A foreign partition's packet: the port discards it before the transport sees
        // it (IBTA Vol. 1 10.9.4, P_Key violation), so the sender never gets an answer.
        m_pKeyViolations++;
        m_pKeyViolationTrace(v.slid, v.pKey);
        if (__builtin_expect(v.journey != 0, false))
        {
            GetAttribution()->Forget(v.journey);
        }
        return;
    }
    if (__builtin_expect(GetAttribution() != nullptr, false))
    {
        const uint32_t slot = QpnSlot(v.destQp);
        if (v.journey == 0)
        {
            // Not followed: its data or ACK still replaces the last one.
            if ((v.opcode == RdmaOpcode::ACKNOWLEDGE || RdmaOpcode::IsData(v.opcode)) &&
                slot < m_qps.size() && m_qps[slot])
            {
                GetAttribution()->OnUnfollowedArrival(*m_qps[slot],
                                                      v.opcode == RdmaOpcode::ACKNOWLEDGE);
            }
        }
        else if (slot < m_qps.size() && m_qps[slot])
        {
            GetAttribution()->OnArrival(v.journey, *m_qps[slot]);
        }
        else
        {
            GetAttribution()->Forget(v.journey);
        }
    }
    Deliver(
        v.destQp,
        v.opcode,
        v.psn,
        v.aethSyndrome,
        [&v] { return v.payloadBytes; },
        v.ackReq,
        v.fecn,
        Simulator::Now(),
        0,
        0,
        false,
        nullptr,
        v.rethDmaLen);
}

} // namespace ns3
