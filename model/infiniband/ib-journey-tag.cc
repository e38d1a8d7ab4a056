/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-journey-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbJourneyTag);

TypeId
IbJourneyTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbJourneyTag")
                            .SetParent<Tag>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IbJourneyTag>();
    return tid;
}

TypeId
IbJourneyTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbJourneyTag::IbJourneyTag() = default;

IbJourneyTag::IbJourneyTag(uint32_t journey)
    : m_journey(journey)
{
}

uint32_t
IbJourneyTag::GetSerializedSize() const
{
    return 4;
}

void
IbJourneyTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_journey);
}

void
IbJourneyTag::Deserialize(TagBuffer i)
{
    m_journey = i.ReadU32();
}

void
IbJourneyTag::Print(std::ostream& os) const
{
    os << "journey=" << m_journey;
}

uint32_t
IbJourneyTag::GetJourney() const
{
    return m_journey;
}

} // namespace ns3
