/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DRAGONFLY_ROUTE_TAG_H
#define DRAGONFLY_ROUTE_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Per-packet state of a non-minimal (Valiant / UGAL) DragonFly route.
 *
 * The source router attaches it when it sends a packet through an intermediate
 * group; every router of the first phase forwards towards that group, and the
 * first router of the intermediate group removes it (phase 1 = the minimal table),
 * so a tag present means phase 0. Minimal packets never carry it: the common path
 * stays tag-free and allocation-free.
 */
class DragonflyRouteTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    DragonflyRouteTag();
    /// \param group intermediate group
    explicit DragonflyRouteTag(uint32_t group);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    /// \return the intermediate group
    uint32_t GetIntermediateGroup() const;
    /// \param group the intermediate group
    void SetIntermediateGroup(uint32_t group);

  private:
    uint32_t m_group; //!< intermediate group of the Valiant path
};

} // namespace ns3

#endif // DRAGONFLY_ROUTE_TAG_H
