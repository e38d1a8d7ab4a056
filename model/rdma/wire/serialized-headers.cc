/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "serialized-headers.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SerializedHeaders);

TypeId
SerializedHeaders::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SerializedHeaders")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<SerializedHeaders>();
    return tid;
}

TypeId
SerializedHeaders::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint8_t*
SerializedHeaders::Data()
{
    return m_bytes.data();
}

const uint8_t*
SerializedHeaders::Data() const
{
    return m_bytes.data();
}

void
SerializedHeaders::SetSize(uint32_t bytes)
{
    NS_ABORT_MSG_IF(bytes > MAX_BYTES,
                    "SerializedHeaders: " << bytes << " bytes (allowed <= " << MAX_BYTES << ")");
    m_size = bytes;
}

uint32_t
SerializedHeaders::GetSerializedSize() const
{
    return m_size;
}

void
SerializedHeaders::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes.data(), m_size);
}

uint32_t
SerializedHeaders::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes.data(), m_size);
    return m_size;
}

void
SerializedHeaders::Print(std::ostream& os) const
{
    os << "serialized headers, " << m_size << " bytes";
}

} // namespace ns3
