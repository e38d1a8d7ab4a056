/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-topology.h"

#include "ns3/log.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-fabric.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/string.h"

#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopology");

NS_OBJECT_ENSURE_REGISTERED(FabricTopology);

TypeId
FabricTopology::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricTopology")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FabricTopology>()
            .AddAttribute("RoutingEngine",
                          "Routing engine of the route table (RoutingEngine::BuildTable); "
                          "\"\" (the default) picks what RoutingEngine::AutoName picks for the "
                          "graph, as the scenario runner's --routing=auto does.",
                          StringValue(""),
                          MakeStringAccessor(&FabricTopology::m_routingEngine),
                          MakeStringChecker());
    return tid;
}

FabricTopology::FabricTopology() = default;

FabricTopology::~FabricTopology() = default;

void
FabricTopology::DoDispose()
{
    m_graph = nullptr;
    m_routes = nullptr;
    m_fabric = nullptr;
    m_nodes = NodeContainer();
    Object::DoDispose();
}

void
FabricTopology::Create(Ptr<TopologyGraph> graph)
{
    if (!graph)
    {
        throw std::invalid_argument("FabricTopology::Create: the graph is null");
    }
    if (m_graph)
    {
        throw std::invalid_argument("FabricTopology::Create: the topology has its nodes already");
    }
    m_graph = graph;
    m_nodes.Create(graph->GetNNodes());
    NS_LOG_INFO(graph->GetNHosts()
                << " hosts, " << graph->GetSwitches().size() << " switches, Nodes "
                << m_nodes.Get(0)->GetId() << ".." << m_nodes.Get(m_nodes.GetN() - 1)->GetId());
}

Ptr<TopologyGraph>
FabricTopology::GetGraph() const
{
    return m_graph;
}

const NodeContainer&
FabricTopology::GetNodes() const
{
    return m_nodes;
}

NodeContainer
FabricTopology::GetHosts() const
{
    NodeContainer c;
    if (m_graph)
    {
        for (uint32_t node : m_graph->GetHosts())
        {
            c.Add(m_nodes.Get(node));
        }
    }
    return c;
}

NodeContainer
FabricTopology::GetSwitches() const
{
    NodeContainer c;
    if (m_graph)
    {
        for (uint32_t node : m_graph->GetSwitches())
        {
            c.Add(m_nodes.Get(node));
        }
    }
    return c;
}

uint32_t
FabricTopology::GetNHosts() const
{
    return m_graph ? static_cast<uint32_t>(m_graph->GetHosts().size()) : 0;
}

uint32_t
FabricTopology::GetNSwitches() const
{
    return m_graph ? static_cast<uint32_t>(m_graph->GetSwitches().size()) : 0;
}

Ptr<Node>
FabricTopology::GetHost(uint32_t i) const
{
    if (i >= GetNHosts())
    {
        throw std::out_of_range("FabricTopology::GetHost: host " + std::to_string(i) +
                                " does not exist (the topology has " + std::to_string(GetNHosts()) +
                                " hosts, 0.." + std::to_string(GetNHosts()) + " - 1)");
    }
    return m_nodes.Get(m_graph->GetHosts()[i]);
}

Ptr<Node>
FabricTopology::GetSwitch(uint32_t i) const
{
    if (i >= GetNSwitches())
    {
        throw std::out_of_range("FabricTopology::GetSwitch: switch " + std::to_string(i) +
                                " does not exist (the topology has " +
                                std::to_string(GetNSwitches()) + " switches)");
    }
    return m_nodes.Get(m_graph->GetSwitches()[i]);
}

namespace
{
/// Every device of every Node of \p nodes, Node order then device order.
NetDeviceContainer
DevicesOf(const NodeContainer& nodes)
{
    NetDeviceContainer c;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            c.Add((*it)->GetDevice(d));
        }
    }
    return c;
}
} // namespace

NetDeviceContainer
FabricTopology::GetHostDevices() const
{
    return DevicesOf(GetHosts());
}

NetDeviceContainer
FabricTopology::GetSwitchDevices() const
{
    return DevicesOf(GetSwitches());
}

Ptr<const RouteTable>
FabricTopology::GetRoutes() const
{
    if (!m_routes && m_graph)
    {
        const std::string engine =
            m_routingEngine.empty() ? RoutingEngine::AutoName(*m_graph) : m_routingEngine;
        m_routes = RoutingEngine::BuildTable(engine, m_graph);
    }
    return m_routes;
}

void
FabricTopology::SetRoutes(Ptr<const RouteTable> routes)
{
    m_routes = routes;
}

Ptr<RdmaFabric>
FabricTopology::GetFabric() const
{
    return m_fabric;
}

void
FabricTopology::SetFabric(Ptr<RdmaFabric> fabric)
{
    if (m_fabric)
    {
        throw std::invalid_argument(
            "FabricTopology: a fabric is installed on these nodes already (one per topology)");
    }
    m_fabric = fabric;
    auto collectives = std::make_shared<uint32_t>(0);
    for (uint32_t h = 0; h < GetNHosts(); ++h)
    {
        Ptr<RdmaEndpoint> endpoint = CreateObject<RdmaEndpoint>();
        endpoint->Setup(fabric, h, collectives);
        GetHost(h)->AggregateObject(endpoint);
    }
}

} // namespace ns3
