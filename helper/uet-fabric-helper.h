/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_FABRIC_HELPER_H
#define UET_FABRIC_HELPER_H

#include "ns3/roce-fabric-helper.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Builds an Ultra Ethernet fabric (--fabric=uet): RoceFabricHelper's Ethernet
 * switches and cables with PFC off (no lossless class), a UetNic on every host
 * (per-packet spraying, selective recovery, trim NACKs) and, with SetTrimming, a
 * UetTrimmer on every switch (its attributes from SetTrimmerAttribute).
 */
class UetFabricHelper : public RoceFabricHelper
{
  public:
    UetFabricHelper();
    /// Trim at every switch's egress (true) or drop when the buffer is full (false,
    /// the default).
    void SetTrimming(bool on);
    /// An Attribute of every switch's UetTrimmer (TrimThreshold, TrimPriority).
    void SetTrimmerAttribute(const std::string& name, const AttributeValue& value);
    /// Build the fabric (RoceFabricHelper::Install), then give each switch its trimmer.
    Ptr<RoceFabric> Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const;

  private:
    bool m_trimming{false};
    ObjectFactory m_trimmerFactory; //!< one UetTrimmer per switch
};

} // namespace ns3

#endif // UET_FABRIC_HELPER_H
