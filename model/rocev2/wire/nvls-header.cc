/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlsHeader");

NS_OBJECT_ENSURE_REGISTERED(NvlsHeader);

TypeId
NvlsHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NvlsHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<NvlsHeader>();
    return tid;
}

TypeId
NvlsHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
NvlsHeader::Print(std::ostream& os) const
{
    static const char* const names[] = {"?", "contribution", "result", "multicast"};
    os << "NVLS " << names[kind <= MULTICAST ? kind : 0] << " group " << group << " slice " << slice
       << " frame " << frame << "/" << frames << " members " << +members << " owner " << owner
       << " payload " << payload;
}

uint32_t
NvlsHeader::GetSerializedSize() const
{
    return SIZE;
}

void
NvlsHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(kind);
    start.WriteU8(members);
    start.WriteHtonU16(group);
    start.WriteHtonU32(slice);
    start.WriteHtonU16(frame);
    start.WriteHtonU16(frames);
    start.WriteHtonU16(owner);
    start.WriteHtonU16(payload);
}

uint32_t
NvlsHeader::Deserialize(Buffer::Iterator start)
{
    kind = start.ReadU8();
    members = start.ReadU8();
    group = start.ReadNtohU16();
    slice = start.ReadNtohU32();
    frame = start.ReadNtohU16();
    frames = start.ReadNtohU16();
    owner = start.ReadNtohU16();
    payload = start.ReadNtohU16();
    return SIZE;
}

} // namespace ns3
