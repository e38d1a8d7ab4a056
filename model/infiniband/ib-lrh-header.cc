/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-lrh-header.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbLrhHeader);

IbLrhHeader::IbLrhHeader()
    : m_vl(0),
      m_lver(0),
      m_sl(0),
      m_lnh(LNH_IBA_LOCAL),
      m_dlid(0),
      m_pktLen(0),
      m_slid(0)
{
}

TypeId
IbLrhHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbLrhHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IbLrhHeader>();
    return tid;
}

TypeId
IbLrhHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbLrhHeader::Print(std::ostream& os) const
{
    os << "LRH VL=" << +m_vl << " SL=" << +m_sl << " LNH=" << +m_lnh << " DLID=" << m_dlid
       << " PktLen=" << m_pktLen << " SLID=" << m_slid;
}

uint32_t
IbLrhHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbLrhHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(static_cast<uint8_t>((m_vl << 4) | (m_lver & 0xF)));
    start.WriteU8(static_cast<uint8_t>((m_sl << 4) | (m_lnh & 0x3)));
    start.WriteHtonU16(m_dlid);
    start.WriteHtonU16(m_pktLen & 0x7FF);
    start.WriteHtonU16(m_slid);
}

uint32_t
IbLrhHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b = start.ReadU8();
    m_vl = b >> 4;
    m_lver = b & 0xF;
    b = start.ReadU8();
    m_sl = b >> 4;
    m_lnh = b & 0x3;
    m_dlid = start.ReadNtohU16();
    m_pktLen = start.ReadNtohU16() & 0x7FF;
    m_slid = start.ReadNtohU16();
    return SIZE;
}

void
IbLrhHeader::SetVl(uint8_t vl)
{
    NS_ABORT_MSG_IF(vl > 15, "LRH VL " << +vl << " out of range (0..15)");
    m_vl = vl;
}

uint8_t
IbLrhHeader::GetVl() const
{
    return m_vl;
}

void
IbLrhHeader::SetLVer(uint8_t v)
{
    m_lver = v & 0xF;
}

uint8_t
IbLrhHeader::GetLVer() const
{
    return m_lver;
}

void
IbLrhHeader::SetSl(uint8_t sl)
{
    NS_ABORT_MSG_IF(sl > 15, "LRH SL " << +sl << " out of range (0..15)");
    m_sl = sl;
}

uint8_t
IbLrhHeader::GetSl() const
{
    return m_sl;
}

void
IbLrhHeader::SetLnh(uint8_t lnh)
{
    m_lnh = lnh & 0x3;
}

uint8_t
IbLrhHeader::GetLnh() const
{
    return m_lnh;
}

void
IbLrhHeader::SetDlid(uint16_t lid)
{
    m_dlid = lid;
}

uint16_t
IbLrhHeader::GetDlid() const
{
    return m_dlid;
}

void
IbLrhHeader::SetPacketLengthWords(uint16_t words)
{
    NS_ABORT_MSG_IF(words > 0x7FF, "LRH PktLen " << words << " words exceeds 11 bits");
    m_pktLen = words;
}

uint16_t
IbLrhHeader::GetPacketLengthWords() const
{
    return m_pktLen;
}

void
IbLrhHeader::SetSlid(uint16_t lid)
{
    m_slid = lid;
}

uint16_t
IbLrhHeader::GetSlid() const
{
    return m_slid;
}

} // namespace ns3
