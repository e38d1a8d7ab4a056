/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-ethernet-header.h"

#include "ns3/address-utils.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceEthernetHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceEthernetHeader);

RoceEthernetHeader::RoceEthernetHeader()
    : m_hasVlan(false),
      m_pcp(0),
      m_dei(false),
      m_vid(0),
      m_etherType(ETHERTYPE_IPV4)
{
}

TypeId
RoceEthernetHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceEthernetHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceEthernetHeader>();
    return tid;
}

TypeId
RoceEthernetHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceEthernetHeader::Print(std::ostream& os) const
{
    os << m_src << " > " << m_dst;
    if (m_hasVlan)
    {
        os << " vlan " << m_vid << " pcp " << +m_pcp << (m_dei ? " dei" : "");
    }
    os << " type 0x" << std::hex << m_etherType << std::dec;
}

uint32_t
RoceEthernetHeader::GetSerializedSize() const
{
    return m_hasVlan ? TAGGED_SIZE : UNTAGGED_SIZE;
}

void
RoceEthernetHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    WriteTo(i, m_dst);
    WriteTo(i, m_src);
    if (m_hasVlan)
    {
        i.WriteHtonU16(ETHERTYPE_VLAN);
        i.WriteHtonU16((uint16_t(m_pcp) << 13) | (uint16_t(m_dei) << 12) | m_vid);
    }
    i.WriteHtonU16(m_etherType);
}

uint32_t
RoceEthernetHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    ReadFrom(i, m_dst);
    ReadFrom(i, m_src);
    uint16_t type = i.ReadNtohU16();
    m_hasVlan = (type == ETHERTYPE_VLAN);
    if (m_hasVlan)
    {
        uint16_t tci = i.ReadNtohU16();
        m_pcp = tci >> 13;
        m_dei = (tci >> 12) & 1;
        m_vid = tci & 0x0FFF;
        type = i.ReadNtohU16();
    }
    else
    {
        m_pcp = 0;
        m_dei = false;
        m_vid = 0;
    }
    m_etherType = type;
    return GetSerializedSize();
}

void
RoceEthernetHeader::SetDestination(Mac48Address dst)
{
    m_dst = dst;
}

Mac48Address
RoceEthernetHeader::GetDestination() const
{
    return m_dst;
}

void
RoceEthernetHeader::SetSource(Mac48Address src)
{
    m_src = src;
}

Mac48Address
RoceEthernetHeader::GetSource() const
{
    return m_src;
}

void
RoceEthernetHeader::SetEtherType(uint16_t type)
{
    m_etherType = type;
}

uint16_t
RoceEthernetHeader::GetEtherType() const
{
    return m_etherType;
}

void
RoceEthernetHeader::SetVlan(uint8_t pcp, bool dei, uint16_t vid)
{
    if (pcp > 7)
    {
        NS_FATAL_ERROR("RoceEthernetHeader: 802.1Q PCP " << +pcp << " out of range (allowed 0..7)");
    }
    if (vid > 0x0FFF)
    {
        NS_FATAL_ERROR("RoceEthernetHeader: 802.1Q VID " << vid
                                                         << " out of range (allowed 0..4095)");
    }
    m_hasVlan = true;
    m_pcp = pcp;
    m_dei = dei;
    m_vid = vid;
}

void
RoceEthernetHeader::ClearVlan()
{
    m_hasVlan = false;
    m_pcp = 0;
    m_dei = false;
    m_vid = 0;
}

bool
RoceEthernetHeader::HasVlan() const
{
    return m_hasVlan;
}

uint8_t
RoceEthernetHeader::GetPcp() const
{
    return m_pcp;
}

bool
RoceEthernetHeader::GetDei() const
{
    return m_dei;
}

uint16_t
RoceEthernetHeader::GetVid() const
{
    return m_vid;
}

} // namespace ns3
