/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "deth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DethHeader");

NS_OBJECT_ENSURE_REGISTERED(DethHeader);

DethHeader::DethHeader()
    : m_qkey(0),
      m_sourceQp(0)
{
}

TypeId
DethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DethHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<DethHeader>();
    return tid;
}

TypeId
DethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
DethHeader::Print(std::ostream& os) const
{
    os << "DETH Q_Key 0x" << std::hex << m_qkey << " SrcQP 0x" << m_sourceQp << std::dec;
}

uint32_t
DethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
DethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_qkey);
    start.WriteU8(0); // reserved
    start.WriteU8(static_cast<uint8_t>(m_sourceQp >> 16));
    start.WriteHtonU16(static_cast<uint16_t>(m_sourceQp & 0xFFFF));
}

uint32_t
DethHeader::Deserialize(Buffer::Iterator start)
{
    m_qkey = start.ReadNtohU32();
    start.ReadU8(); // reserved
    m_sourceQp = static_cast<uint32_t>(start.ReadU8()) << 16;
    m_sourceQp |= start.ReadNtohU16();
    return SIZE;
}

void
DethHeader::SetQKey(uint32_t qkey)
{
    m_qkey = qkey;
}

uint32_t
DethHeader::GetQKey() const
{
    return m_qkey;
}

void
DethHeader::SetSourceQp(uint32_t qpn)
{
    NS_ABORT_MSG_IF(qpn > 0xFFFFFF, "DETH SrcQP " << qpn << " does not fit 24 bits");
    m_sourceQp = qpn;
}

uint32_t
DethHeader::GetSourceQp() const
{
    return m_sourceQp;
}

} // namespace ns3
