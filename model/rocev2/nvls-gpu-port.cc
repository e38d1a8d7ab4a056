/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-gpu-port.h"

#include "roce-net-device.h"
#include "roce-nic.h"

#include "ns3/log.h"
#include "ns3/nvls-header.h"
#include "ns3/packet.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlsGpuPort");

NS_OBJECT_ENSURE_REGISTERED(NvlsGpuPort);

TypeId
NvlsGpuPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NvlsGpuPort")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<NvlsGpuPort>()
            .AddAttribute("Priority",
                          "802.1Q priority of NVLS contributions (and of the sums the switch "
                          "returns): a lossless class of their own, which the crossbar's NVLS "
                          "engine pauses (PFC) when its buffer fills. 4: the class after the "
                          "RDMA one (3), so the switch's shared-buffer accounting of RDMA "
                          "traffic and the engine's never pause the same class",
                          UintegerValue(4),
                          MakeUintegerAccessor(&NvlsGpuPort::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("MulticastPriority",
                          "802.1Q priority of NVLS multicasts (and of their copies): a class "
                          "apart from contributions, so that a head whose copies fill the "
                          "switch is paused in its multicasts only and its contributions, which "
                          "other slices wait for, keep going (NVLink keeps requests and "
                          "responses in separate virtual channels for the same reason). 5",
                          UintegerValue(5),
                          MakeUintegerAccessor(&NvlsGpuPort::m_multicastPriority),
                          MakeUintegerChecker<uint8_t>(0, 7));
    return tid;
}

NvlsGpuPort::NvlsGpuPort() = default;

NvlsGpuPort::~NvlsGpuPort() = default;

void
NvlsGpuPort::DoDispose()
{
    m_nic = nullptr;
    m_device = nullptr;
    m_inner = nullptr;
    m_pending[0].clear();
    m_pending[1].clear();
    m_sliceCallback = SliceCallback();
    Object::DoDispose();
}

void
NvlsGpuPort::Attach(Ptr<RoceNic> nic)
{
    m_nic = nic;
    m_inner = PeekPointer(nic);
    m_device = nic->GetDevice();
    m_host = nic->GetHostIndex();
    m_mtu = nic->GetMtu();
    m_device->SetOwner(this);
}

void
NvlsGpuPort::SetSliceCallback(SliceCallback cb)
{
    m_sliceCallback = cb;
}

uint8_t
NvlsGpuPort::GetPriority() const
{
    return m_priority;
}

uint8_t
NvlsGpuPort::GetMulticastPriority() const
{
    return m_multicastPriority;
}

uint64_t
NvlsGpuPort::GetFramesSent() const
{
    return m_sent;
}

uint64_t
NvlsGpuPort::GetFramesReceived() const
{
    return m_received;
}

void
NvlsGpuPort::SendSlice(uint8_t kind,
                       uint16_t group,
                       uint32_t slice,
                       uint16_t owner,
                       uint8_t members,
                       uint64_t bytes)
{
    NS_ABORT_MSG_IF(!m_device, "NvlsGpuPort::SendSlice before Attach");
    const uint64_t frames = std::max<uint64_t>(1, (bytes + m_mtu - 1) / m_mtu);
    NS_ABORT_MSG_IF(frames > 0xFFFF,
                    "NVLS slice of " << bytes << " bytes needs " << frames
                                     << " frames; at most 65535 (smaller chunks)");
    m_pending[kind == NvlsHeader::MULTICAST ? 1 : 0].push_back(
        Pending{kind, members, group, slice, owner, static_cast<uint16_t>(frames), 0, bytes});
    m_device->NotifyDataAvailable();
}

void
NvlsGpuPort::BuildNext(uint8_t pausedMask, RoceParsedFrame& frame)
{
    uint8_t q = m_nextQueue;
    if (!QueueReady(q, pausedMask))
    {
        q = static_cast<uint8_t>(q ^ 1);
    }
    m_nextQueue = static_cast<uint8_t>(q ^ 1);
    Pending& s = m_pending[q].front();
    const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(s.remaining, m_mtu));
    NvlsHeader h;
    h.kind = s.kind;
    h.members = s.members;
    h.group = s.group;
    h.slice = s.slice;
    h.frame = s.next;
    h.frames = s.frames;
    h.owner = s.owner;
    h.payload = static_cast<uint16_t>(payload);
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddHeader(h);
    RoceEthernetHeader eth;
    eth.SetSource(RoceNic::HostMac(m_host));
    eth.SetDestination(RoceNic::HostMac(s.owner));
    eth.SetEtherType(NvlsHeader::ETHERTYPE);
    eth.SetVlan(ClassOf(q), false, 0);
    p->AddHeader(eth);
    if (p->GetSize() < RoceNic::MIN_FRAME_BYTES)
    {
        p->AddAtEnd(Create<Packet>(RoceNic::MIN_FRAME_BYTES - p->GetSize()));
    }
    RoceFrameView view;
    RoceFrame::Peek(*p, view);
    frame = RoceParsedFrame(p, view);
    s.remaining -= payload;
    if (++s.next == s.frames)
    {
        m_pending[q].pop_front();
    }
    m_sent++;
}

bool
NvlsGpuPort::DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame)
{
    // Frame by frame with the NIC when both have one.
    const bool mine = Ready(pausedMask);
    if (mine && m_myTurn)
    {
        m_myTurn = false;
        BuildNext(pausedMask, frame);
        return true;
    }
    if (m_inner->DequeueFrame(dev, pausedMask, frame))
    {
        m_myTurn = mine;
        return true;
    }
    if (mine)
    {
        BuildNext(pausedMask, frame);
        return true;
    }
    return false;
}

bool
NvlsGpuPort::HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const
{
    return Ready(pausedMask) || m_inner->HasFrame(dev, pausedMask);
}

void
NvlsGpuPort::ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame)
{
    if (frame.view.etherType != NvlsHeader::ETHERTYPE)
    {
        m_inner->ReceiveFrame(dev, frame);
        return;
    }
    Ptr<Packet> p = frame.GetPacket()->Copy();
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    NvlsHeader h;
    p->RemoveHeader(h);
    m_received++;
    const uint64_t key =
        (static_cast<uint64_t>(h.kind) << 48) | (static_cast<uint64_t>(h.group) << 32) | h.slice;
    uint32_t& got = m_arrived[key];
    if (++got < h.frames)
    {
        return;
    }
    m_arrived.erase(key);
    NS_LOG_LOGIC("host " << m_host << ": slice " << h.slice << " kind " << +h.kind << " in");
    if (!m_sliceCallback.IsNull())
    {
        m_sliceCallback(m_host, h.kind, h.group, h.slice);
    }
}

bool
NvlsGpuPort::SendPacket(RoceNetDevice& dev, Ptr<Packet> packet, uint16_t protocol)
{
    return m_inner->SendPacket(dev, packet, protocol);
}

} // namespace ns3
