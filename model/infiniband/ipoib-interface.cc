/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ipoib-interface.h"

#include "ib-net-device.h"
#include "ipoib-frame.h"
#include "ipoib-header.h"

#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IpoibInterface");

NS_OBJECT_ENSURE_REGISTERED(IpoibInterface);

TypeId
IpoibInterface::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IpoibInterface")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<IpoibInterface>()
            .AddAttribute("QueuePairNumber",
                          "QPN of the IPoIB UD queue pair (24 bits; BTH DestQP of the packets "
                          "it receives, DETH SrcQP of those it sends). Default 0x800000: a "
                          "chosen value above the RC QPNs the HCA hands out from 1 upward, so "
                          "that a pcap tells IPoIB from RDMA by QPN too (a driver takes "
                          "whatever its HCA allocates)",
                          UintegerValue(0x800000),
                          MakeUintegerAccessor(&IpoibInterface::m_qpn),
                          MakeUintegerChecker<uint32_t>(2, 0xFFFFFE))
            .AddAttribute("QKey",
                          "Q_Key of the IPoIB broadcast group, in every packet's DETH; a "
                          "packet with another one is dropped. Default 0x00000B1B: the Q_Key "
                          "OpenSM gives the IPoIB broadcast groups it creates "
                          "(OSM_IPOIB_BROADCAST_MGRP_QKEY, include/opensm/osm_base.h; RFC 4391 "
                          "leaves it to the group's creator)",
                          UintegerValue(DEFAULT_QKEY),
                          MakeUintegerAccessor(&IpoibInterface::m_qKey),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PKey",
                          "P_Key in the BTH. Default 0xFFFF: the default partition 0x7FFF "
                          "with the full-membership bit (OpenSM's partition-config.txt)",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&IpoibInterface::m_pKey),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ServiceLevel",
                          "SL of the IPoIB packets (0..15): the switches map it to a VL by "
                          "their SL-to-VL tables, as any packet's. Default 0: the SL of "
                          "OpenSM's IPoIB broadcast group unless its partition says sl=",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IpoibInterface::m_sl),
                          MakeUintegerChecker<uint8_t>(0, 15))
            .AddAttribute("IpSendDelay",
                          "Host stack send path of an IP packet, per packet (time), as "
                          "ns3::RoceNic::IpSendDelay: 1.6 us, Linux 5.4.80's measured best "
                          "case (Ousterhout, USENIX ATC 2021, HomaModule perf.txt); measured "
                          "with an Ethernet driver, taken here for the IPoIB driver",
                          TimeValue(NanoSeconds(1600)),
                          MakeTimeAccessor(&IpoibInterface::m_ipSendDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IpReceiveDelay",
                          "Host stack receive path of an IP packet, per packet (time), as "
                          "ns3::RoceNic::IpReceiveDelay: 3.15 us, the same measurement's "
                          "receive path",
                          TimeValue(NanoSeconds(3150)),
                          MakeTimeAccessor(&IpoibInterface::m_ipReceiveDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IpQueuePackets",
                          "IP packets the interface holds for the wire (IpSendDelay "
                          "included); when full it stops its transmit queue and the stack's "
                          "queue disc holds the next ones. Default 128: Linux IPoIB's send "
                          "queue (the ipoib module's send_queue_size, IPOIB_TX_RING_SIZE in "
                          "drivers/infiniband/ulp/ipoib/ipoib.h)",
                          UintegerValue(128),
                          MakeUintegerAccessor(&IpoibInterface::m_ipQueuePackets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("IpDrop",
                            "An IP packet dropped: not IPv4, no neighbour entry for its "
                            "destination, over the MTU, or a received packet for another "
                            "QPN or Q_Key",
                            MakeTraceSourceAccessor(&IpoibInterface::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

IpoibInterface::IpoibInterface()
    : m_qpn(0x800000),
      m_qKey(DEFAULT_QKEY),
      m_pKey(0xFFFF),
      m_sl(0),
      m_ipSendDelay(NanoSeconds(1600)),
      m_ipReceiveDelay(NanoSeconds(3150)),
      m_ipQueuePackets(128)
{
}

IpoibInterface::~IpoibInterface() = default;

void
IpoibInterface::DoDispose()
{
    m_device = nullptr;
    m_txQueue = nullptr;
    m_queue.clear();
    Object::DoDispose();
}

uint8_t
IpoibInterface::GetAddressType()
{
    static const uint8_t type = Address::Register();
    return type;
}

void
IpoibInterface::Setup(Ptr<IbNetDevice> device, uint32_t hostIndex, uint16_t lid, uint8_t vl)
{
    m_device = device;
    m_hostIndex = hostIndex;
    m_lid = lid;
    m_vl = vl;
    device->SetAddress(GetHardwareAddress());
    device->SetSendCallback(MakeCallback(&IpoibInterface::Send, this));
    // Flow control towards the traffic control layer, as a driver's stopped queue.
    if (!device->GetObject<NetDeviceQueueInterface>())
    {
        device->AggregateObject(CreateObject<NetDeviceQueueInterface>());
    }
}

Address
IpoibInterface::GetHardwareAddress() const
{
    uint8_t b[HW_ADDRESS_BYTES] = {};
    b[0] = 0; // flags: datagram mode only (RFC 4755's connected-mode bit clear)
    b[1] = static_cast<uint8_t>(m_qpn >> 16);
    b[2] = static_cast<uint8_t>(m_qpn >> 8);
    b[3] = static_cast<uint8_t>(m_qpn);
    for (int i = 0; i < 8; ++i)
    {
        b[4 + i] = static_cast<uint8_t>(DEFAULT_GID_PREFIX >> (56 - 8 * i));
    }
    const uint64_t guid = 0x0200000000000000ULL | (static_cast<uint64_t>(m_hostIndex) + 1);
    for (int i = 0; i < 8; ++i)
    {
        b[12 + i] = static_cast<uint8_t>(guid >> (56 - 8 * i));
    }
    return Address(GetAddressType(), b, HW_ADDRESS_BYTES);
}

void
IpoibInterface::AddNeighbour(Ipv4Address ip, uint16_t lid, uint32_t qpn)
{
    m_neighbours[ip.Get()] = Neighbour{lid, qpn};
}

uint32_t
IpoibInterface::GetNNeighbours() const
{
    return static_cast<uint32_t>(m_neighbours.size());
}

uint32_t
IpoibInterface::GetQpn() const
{
    return m_qpn;
}

uint8_t
IpoibInterface::GetServiceLevel() const
{
    return m_sl;
}

uint8_t
IpoibInterface::GetVl() const
{
    return m_vl;
}

Ptr<IbNetDevice>
IpoibInterface::GetDevice() const
{
    return m_device;
}

void
IpoibInterface::Drop(Ptr<const Packet> packet)
{
    m_drops++;
    m_dropTrace(packet);
}

bool
IpoibInterface::Send(Ptr<Packet> packet, const Address& /* dest */, uint16_t protocol)
{
    // IPv4 only; the next hop is the destination host itself (one IP subnet over the
    // IB subnet), resolved by the neighbour table instead of ARP.
    Ipv4Header ip;
    if (protocol != IpoibHeader::ETHERTYPE_IPV4 ||
        packet->PeekHeader(ip) < Ipv4Header().GetSerializedSize() ||
        packet->GetSize() > m_device->GetMtu())
    {
        Drop(packet);
        return false;
    }
    auto it = m_neighbours.find(ip.GetDestination().Get());
    if (it == m_neighbours.end())
    {
        NS_LOG_WARN("no neighbour entry for " << ip.GetDestination() << ": dropped");
        Drop(packet);
        return false;
    }
    m_held++;
    if (m_held >= m_ipQueuePackets)
    {
        if (Ptr<NetDeviceQueueInterface> q = m_device->GetObject<NetDeviceQueueInterface>())
        {
            m_txQueue = q->GetTxQueue(0);
            m_txQueue->Stop();
        }
    }
    if (m_ipSendDelay.IsZero())
    {
        Queue(packet, it->second);
    }
    else
    {
        Simulator::Schedule(m_ipSendDelay, &IpoibInterface::Queue, this, packet, it->second);
    }
    return true;
}

void
IpoibInterface::Queue(Ptr<Packet> packet, Neighbour to)
{
    IpoibFrameFields f;
    f.sl = m_sl;
    f.vl = m_vl;
    f.dlid = to.lid;
    f.slid = m_lid;
    f.pKey = m_pKey;
    f.destQp = to.qpn;
    f.psn = m_psn;
    m_psn = (m_psn + 1) & 0xFFFFFF;
    f.qKey = m_qKey;
    f.srcQp = m_qpn;
    f.type = IpoibHeader::ETHERTYPE_IPV4;
    IpoibFrame::Encapsulate(packet, f);
    m_queue.push_back(packet);
    m_sent++;
    m_device->NotifyDataAvailable();
}

Ptr<Packet>
IpoibInterface::Dequeue()
{
    Ptr<Packet> p = m_queue.front();
    m_queue.pop_front();
    m_held--;
    if (m_txQueue && m_txQueue->IsStopped() && m_held < m_ipQueuePackets)
    {
        // From an event of its own: the stack sends from the wake at once, and the
        // port is pulling a packet now.
        Simulator::ScheduleNow(&NetDeviceQueue::Wake, m_txQueue);
    }
    return p;
}

void
IpoibInterface::Receive(Ptr<Packet> packet)
{
    Ptr<Packet> p = packet->Copy();
    IpoibFrameFields f;
    if (!IpoibFrame::Decapsulate(p, f) || f.destQp != m_qpn || f.qKey != m_qKey ||
        f.type != IpoibHeader::ETHERTYPE_IPV4)
    {
        Drop(packet);
        return;
    }
    m_received++;
    // The sender's hardware address: its QPN and GID (the GUID from its LID's host is
    // not known here; the flags and QPN are what the stack could use).
    uint8_t from[HW_ADDRESS_BYTES] = {};
    from[1] = static_cast<uint8_t>(f.srcQp >> 16);
    from[2] = static_cast<uint8_t>(f.srcQp >> 8);
    from[3] = static_cast<uint8_t>(f.srcQp);
    const Address source(GetAddressType(), from, HW_ADDRESS_BYTES);
    if (m_ipReceiveDelay.IsZero())
    {
        m_device->DeliverUp(p, f.type, source);
        return;
    }
    Simulator::Schedule(m_ipReceiveDelay, &IbNetDevice::DeliverUp, m_device, p, f.type, source);
}

uint64_t
IpoibInterface::GetIpSent() const
{
    return m_sent;
}

uint64_t
IpoibInterface::GetIpReceived() const
{
    return m_received;
}

uint64_t
IpoibInterface::GetIpDrops() const
{
    return m_drops;
}

} // namespace ns3
