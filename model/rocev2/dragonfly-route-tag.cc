/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dragonfly-route-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DragonflyRouteTag);

TypeId
DragonflyRouteTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DragonflyRouteTag")
                            .SetParent<Tag>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<DragonflyRouteTag>();
    return tid;
}

TypeId
DragonflyRouteTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

DragonflyRouteTag::DragonflyRouteTag()
    : m_group(0)
{
}

DragonflyRouteTag::DragonflyRouteTag(uint32_t group)
    : m_group(group)
{
}

uint32_t
DragonflyRouteTag::GetSerializedSize() const
{
    return 4;
}

void
DragonflyRouteTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_group);
}

void
DragonflyRouteTag::Deserialize(TagBuffer i)
{
    m_group = i.ReadU32();
}

void
DragonflyRouteTag::Print(std::ostream& os) const
{
    os << "intermediate-group=" << m_group;
}

uint32_t
DragonflyRouteTag::GetIntermediateGroup() const
{
    return m_group;
}

void
DragonflyRouteTag::SetIntermediateGroup(uint32_t group)
{
    m_group = group;
}

} // namespace ns3
