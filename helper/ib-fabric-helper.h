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
 * NumDataVls is raised to what the routing needs (2 for dor on a torus, dfsssp's
 * layer count) if set lower, and every switch port's SL-to-VL map is the Subnet
 * Manager's (SubnetManager::GetSl2Vl).
 */
class IbFabricHelper : public RdmaFabricHelper
{
  public:
    IbFabricHelper();

    void SetHcaAttribute(const std::string& name, const AttributeValue& value);

    /// \throws std::invalid_argument for a congestion control that reads in-band
    /// network telemetry (HPCC): InfiniBand frames carry none
    Ptr<IbFabric> Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const;

    /**
     * Install the fabric on the Nodes of \p topology (TopologyHelper::CreateTopology),
     * with its route table (FabricTopology::GetRoutes), as ns-3 helpers install devices
     * on Nodes; FabricTopology::GetFabric gives the fabric afterwards, and every host
     * Node an RdmaEndpoint for the applications.
     * \return every port device: graph node order (hosts first), then port order
     * \throws std::invalid_argument for a topology without Nodes, with a fabric or
     *         with devices already
     */
    NetDeviceContainer Install(Ptr<FabricTopology> topology) const;

  private:
    /// Install(graph, routes) on \p given's Nodes (null: new Nodes).
    Ptr<IbFabric> DoInstall(Ptr<TopologyGraph> graph,
                            Ptr<const RouteTable> routes,
                            const NodeContainer* given) const;
};

} // namespace ns3

#endif // IB_FABRIC_HELPER_H
