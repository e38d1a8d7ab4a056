/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_FABRIC_HELPER_H
#define IB_FABRIC_HELPER_H

#include "ns3/ib-fabric.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/topology-graph.h"

#include <string>

namespace ns3
{

class RouteTable;

/**
 * \ingroup ai-fabric
 * \brief Installs an InfiniBand fabric on a topology graph.
 *
 * One ns-3 Node per graph node (ids match), one IbNetDevice per port, one IbChannel
 * per cable, an IbHca per host, an IbSwitch per switch; then the Subnet Manager
 * assigns LIDs and programs every switch's LFT, adaptive set and VLs from the given
 * route table. Every part comes from an ObjectFactory (Config::SetDefault works).
 * NumDataVls is raised to what the routing needs (2 for a torus) if set lower.
 */
class IbFabricHelper : public RdmaFabricHelper
{
  public:
    IbFabricHelper();

    void SetHcaAttribute(const std::string& name, const AttributeValue& value);

    /// \throws std::invalid_argument for a congestion control that reads in-band
    /// network telemetry (HPCC): InfiniBand frames carry none
    Ptr<IbFabric> Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const;
};

} // namespace ns3

#endif // IB_FABRIC_HELPER_H
