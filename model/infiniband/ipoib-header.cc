/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ipoib-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IpoibHeader");

NS_OBJECT_ENSURE_REGISTERED(IpoibHeader);

IpoibHeader::IpoibHeader()
    : m_type(ETHERTYPE_IPV4),
      m_reserved(0)
{
}

TypeId
IpoibHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IpoibHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IpoibHeader>();
    return tid;
}

TypeId
IpoibHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IpoibHeader::Print(std::ostream& os) const
{
    os << "IPoIB type 0x" << std::hex << m_type << std::dec;
}

uint32_t
IpoibHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IpoibHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_type);
    start.WriteHtonU16(0); // reserved
}

uint32_t
IpoibHeader::Deserialize(Buffer::Iterator start)
{
    m_type = start.ReadNtohU16();
    m_reserved = start.ReadNtohU16();
    return SIZE;
}

void
IpoibHeader::SetType(uint16_t type)
{
    m_type = type;
}

uint16_t
IpoibHeader::GetType() const
{
    return m_type;
}

uint16_t
IpoibHeader::GetReserved() const
{
    return m_reserved;
}

} // namespace ns3
