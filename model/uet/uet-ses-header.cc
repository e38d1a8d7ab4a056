/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-ses-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetSesHeader);

TypeId
UetSesHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetSesHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetSesHeader>();
    return tid;
}

TypeId
UetSesHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
UetSesHeader::GetSerializedSize() const
{
    return SIZE;
}

void
UetSesHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(opcode & 0x3F);
    i.WriteU8(flags);
    i.WriteHtonU16(messageId);
    i.WriteU8(indexGeneration);
    i.WriteU8(static_cast<uint8_t>(jobId >> 16));
    i.WriteHtonU16(static_cast<uint16_t>(jobId & 0xFFFF));
    i.WriteHtonU16(pidOnFep & 0x0FFF);
    i.WriteHtonU16(resourceIndex & 0x0FFF);
    i.WriteHtonU64(bufferOffset);
    i.WriteHtonU32(initiator);
    i.WriteHtonU64(memoryKey);
    if ((flags & FLAG_SOM) != 0)
    {
        i.WriteHtonU64(headerData);
    }
    else
    {
        i.WriteHtonU32(payloadLength);
        i.WriteHtonU32(messageOffset);
    }
    i.WriteHtonU32(requestLength);
}

uint32_t
UetSesHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    opcode = i.ReadU8() & 0x3F;
    flags = i.ReadU8();
    messageId = i.ReadNtohU16();
    indexGeneration = i.ReadU8();
    jobId = static_cast<uint32_t>(i.ReadU8()) << 16;
    jobId |= i.ReadNtohU16();
    pidOnFep = i.ReadNtohU16() & 0x0FFF;
    resourceIndex = i.ReadNtohU16() & 0x0FFF;
    bufferOffset = i.ReadNtohU64();
    initiator = i.ReadNtohU32();
    memoryKey = i.ReadNtohU64();
    if ((flags & FLAG_SOM) != 0)
    {
        headerData = i.ReadNtohU64();
    }
    else
    {
        payloadLength = i.ReadNtohU32();
        messageOffset = i.ReadNtohU32();
    }
    requestLength = i.ReadNtohU32();
    return i.GetDistanceFrom(start);
}

void
UetSesHeader::Print(std::ostream& os) const
{
    os << "SES opcode=" << +opcode << " flags=0x" << std::hex << +flags << std::dec
       << " msg=" << messageId << " offset=" << bufferOffset << " length=" << requestLength;
}

} // namespace ns3
