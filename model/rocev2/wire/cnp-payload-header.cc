/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cnp-payload-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CnpPayloadHeader");

NS_OBJECT_ENSURE_REGISTERED(CnpPayloadHeader);

TypeId
CnpPayloadHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CnpPayloadHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CnpPayloadHeader>();
    return tid;
}

TypeId
CnpPayloadHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
CnpPayloadHeader::Print(std::ostream& os) const
{
    os << "CNP reserved(16)";
}

uint32_t
CnpPayloadHeader::GetSerializedSize() const
{
    return SIZE;
}

void
CnpPayloadHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(0, SIZE);
}

uint32_t
CnpPayloadHeader::Deserialize(Buffer::Iterator start)
{
    start.Next(SIZE);
    return SIZE;
}

} // namespace ns3
