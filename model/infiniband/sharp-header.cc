/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sharp-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharpHeader");

NS_OBJECT_ENSURE_REGISTERED(SharpHeader);

TypeId
SharpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SharpHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<SharpHeader>();
    return tid;
}

TypeId
SharpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
SharpHeader::Print(std::ostream& os) const
{
    os << "SHARP "
       << (kind == AGGREGATE ? "aggregate"
           : kind == RESULT  ? "result"
                             : "?")
       << " tree " << tree << " epoch " << epoch << " operation " << operation << " frame " << frame
       << "/" << frames << " payload " << payload;
}

uint32_t
SharpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
SharpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(kind);
    start.WriteU8(0);
    start.WriteHtonU16(tree);
    start.WriteHtonU16(epoch);
    start.WriteHtonU32(operation);
    start.WriteHtonU16(frame);
    start.WriteHtonU16(frames);
    start.WriteHtonU16(payload);
}

uint32_t
SharpHeader::Deserialize(Buffer::Iterator start)
{
    kind = start.ReadU8();
    start.ReadU8();
    tree = start.ReadNtohU16();
    epoch = start.ReadNtohU16();
    operation = start.ReadNtohU32();
    frame = start.ReadNtohU16();
    frames = start.ReadNtohU16();
    payload = start.ReadNtohU16();
    return SIZE;
}

} // namespace ns3
