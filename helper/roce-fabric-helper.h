/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_FABRIC_HELPER_H
#define ROCE_FABRIC_HELPER_H

#include "ns3/rdma-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/topology-graph.h"

#include <set>
#include <string>

namespace ns3
{

class RouteTable;

/**
 * \ingroup ai-fabric
 * \brief Installs a RoCEv2 fabric on a topology graph.
 *
 * One ns-3 Node per graph node (in id order, so node ids match graph ids), one
 * RoceNetDevice per port, one RoceChannel per cable with the link's rate and
 * delay, a RoceNic on every host and a RoceSwitch on every switch, forwarding
 * by the given route table. Every part is created through an ObjectFactory, so
 * `Config::SetDefault` and the Set*Attribute methods reach every Attribute.
 */
class RoceFabricHelper : public RdmaFabricHelper
{
  public:
    RoceFabricHelper();

    /**
     * An Attribute of every NIC. Unless EcnCapable is set here, it follows the congestion
     * control: data is ECN-capable (ECT(0)) for an algorithm that uses ECN (DCQCN), not
     * for one that does not (Swift), so switches mark nothing and no CNP is sent.
     * Unless EcnEchoInAck is set here, an algorithm that reads CE from ACKs (DCTCP)
     * turns it on; for the others it keeps its default.
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /**
     * The load balancing of every switch among its equal-cost ports.
     * \param typeId an EgressPortPolicy subclass (ns3::EcmpEgressPolicy by default)
     * \throws std::invalid_argument for an unknown TypeId or one that is not an
     *         EgressPortPolicy
     */
    void SetEgressPolicy(const std::string& typeId);

    /// Build the fabric. Each node gets a system id of 0 (one MPI rank) for now.
    Ptr<RoceFabric> Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const;

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
    Ptr<RoceFabric> DoInstall(Ptr<TopologyGraph> graph,
                              Ptr<const RouteTable> routes,
                              const NodeContainer* given) const;

    ObjectFactory m_mmuFactory;
    ObjectFactory m_policyFactory;
    /// The attributes SetNicAttribute set. EcnCapable and EcnEchoInAck, unless set, are the
    /// congestion control's (CongestionControlRegistry::Entry::usesEcn: Swift sends
    /// Not-ECT; ::ecnEchoInAck: DCTCP reads CE from ACKs).
    std::set<std::string> m_nicAttributesSet;
};

} // namespace ns3

#endif // ROCE_FABRIC_HELPER_H
