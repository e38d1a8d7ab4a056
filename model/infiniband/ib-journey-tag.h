/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_JOURNEY_TAG_H
#define IB_JOURNEY_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The FctAttribution journey of an InfiniBand packet (--attribution=1): a
 * packet tag an HCA adds to its data packets and ACKs only with attribution on, read
 * by the ports it crosses. Not part of the packet's bytes.
 */
class IbJourneyTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IbJourneyTag();
    /// \param journey the journey id (nonzero)
    explicit IbJourneyTag(uint32_t journey);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    /// \return the journey id
    uint32_t GetJourney() const;

  private:
    uint32_t m_journey{0}; //!< FctAttribution journey id
};

} // namespace ns3

#endif // IB_JOURNEY_TAG_H
