/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_TOPOLOGY_H
#define FABRIC_TOPOLOGY_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"

#include <string>

namespace ns3
{

class RdmaFabric;
class RouteTable;

/**
 * \ingroup ai-fabric
 * \brief A topology as ns-3 Nodes: what TopologyHelper::CreateTopology makes.
 *
 * One Node per node of the graph, created in graph id order (hosts first, then
 * switches, as every topology family numbers them), so GetHost(i) is the fabric's
 * host i and GetNodes().Get(id) is graph node id. RoceFabricHelper::Install(topology)
 * or IbFabricHelper::Install(topology) then puts devices, channels, adapters and
 * switches on these Nodes (once: a topology carries one fabric); applications are
 * installed on GetHosts() afterwards.
 *
 * The route table the fabric helpers use comes from the RoutingEngine Attribute
 * (RoutingEngine::BuildTable), or SetRoutes.
 */
class FabricTopology : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    FabricTopology();
    ~FabricTopology() override;

    /**
     * Create the Nodes of \p graph (once).
     * \param graph a validated graph (TopologyHelper::Build)
     * \throws std::invalid_argument for a null graph or a second call
     */
    void Create(Ptr<TopologyGraph> graph);

    /// \return the graph
    Ptr<TopologyGraph> GetGraph() const;
    /// \return every Node, in graph id order
    const NodeContainer& GetNodes() const;
    /// \return the host Nodes, host index order (rank i = GetHosts().Get(i))
    NodeContainer GetHosts() const;
    /// \return the switch Nodes, in graph switch order
    NodeContainer GetSwitches() const;
    /// \return host \p i's Node \throws std::out_of_range naming i and the host count
    Ptr<Node> GetHost(uint32_t i) const;
    /// \return switch \p i's Node \throws std::out_of_range naming i and the switch count
    Ptr<Node> GetSwitch(uint32_t i) const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /// \return the number of switches
    uint32_t GetNSwitches() const;

    /// \return the devices of the hosts (one per host, host order); empty before a fabric
    NetDeviceContainer GetHostDevices() const;
    /// \return the devices of the switches (switch order, then port order)
    NetDeviceContainer GetSwitchDevices() const;

    /**
     * The route table the fabric helpers install: set by SetRoutes, else built once
     * by the RoutingEngine Attribute's engine.
     * \throws std::invalid_argument for an unknown engine
     */
    Ptr<const RouteTable> GetRoutes() const;
    /// \param routes the route table to use (before the fabric is installed)
    void SetRoutes(Ptr<const RouteTable> routes);

    /// \return the fabric installed on these Nodes, or null
    Ptr<RdmaFabric> GetFabric() const;
    /**
     * Record the fabric a fabric helper installed on these Nodes and aggregate an
     * RdmaEndpoint (the fabric, the host index) to every host Node.
     * \throws std::invalid_argument when a fabric is there already
     */
    void SetFabric(Ptr<RdmaFabric> fabric);

  protected:
    void DoDispose() override;

  private:
    Ptr<TopologyGraph> m_graph;             //!< the graph
    NodeContainer m_nodes;                  //!< by graph id
    std::string m_routingEngine;            //!< RoutingEngine Attribute ("" = automatic)
    mutable Ptr<const RouteTable> m_routes; //!< built on first use
    Ptr<RdmaFabric> m_fabric;               //!< installed fabric
};

} // namespace ns3

#endif // FABRIC_TOPOLOGY_H
