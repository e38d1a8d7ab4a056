/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-net-device.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/mac48-address.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaNetDevice);

TypeId
RdmaNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNetDevice").SetParent<NetDevice>().SetGroupName("AiFabric");
    return tid;
}

bool
RdmaNetDevice::IsBroadcast() const
{
    return false;
}

Address
RdmaNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
RdmaNetDevice::IsMulticast() const
{
    return false;
}

Address
RdmaNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetMulticast(Ipv4Address("224.0.0.0"));
}

Address
RdmaNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
RdmaNetDevice::IsPointToPoint() const
{
    return true;
}

bool
RdmaNetDevice::IsBridge() const
{
    return false;
}

bool
RdmaNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& /* source */,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

bool
RdmaNetDevice::NeedsArp() const
{
    return false;
}

bool
RdmaNetDevice::SupportsSendFrom() const
{
    return false;
}

Ptr<Node>
RdmaNetDevice::GetNode() const
{
    return m_node;
}

void
RdmaNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
RdmaNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
RdmaNetDevice::GetMtu() const
{
    return m_mtu;
}

void
RdmaNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
RdmaNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

void
RdmaNetDevice::DeliverUp(Ptr<Packet> packet, uint16_t protocol, const Address& from)
{
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, packet, protocol, from, GetAddress(), NetDevice::PACKET_HOST);
    }
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, protocol, from);
    }
}

void
RdmaNetDevice::DoDispose()
{
    m_node = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

} // namespace ns3
