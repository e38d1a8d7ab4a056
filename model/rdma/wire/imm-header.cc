/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "imm-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ImmHeader");

NS_OBJECT_ENSURE_REGISTERED(ImmHeader);

ImmHeader::ImmHeader()
    : m_imm(0)
{
}

TypeId
ImmHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ImmHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<ImmHeader>();
    return tid;
}

TypeId
ImmHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
ImmHeader::Print(std::ostream& os) const
{
    os << "ImmDt 0x" << std::hex << m_imm << std::dec;
}

uint32_t
ImmHeader::GetSerializedSize() const
{
    return SIZE;
}

void
ImmHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_imm);
}

uint32_t
ImmHeader::Deserialize(Buffer::Iterator start)
{
    m_imm = start.ReadNtohU32();
    return SIZE;
}

void
ImmHeader::SetImmediate(uint32_t imm)
{
    m_imm = imm;
}

uint32_t
ImmHeader::GetImmediate() const
{
    return m_imm;
}

} // namespace ns3
