/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-fabric-helper.h"

#include "ns3/aggregation-manager.h"
#include "ns3/boolean.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/route-table.h"
#include "ns3/subnet-manager.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbFabricHelper");

IbFabricHelper::IbFabricHelper()
    : RdmaFabricHelper("ns3::IbNetDevice", "ns3::IbHca", "ns3::IbSwitch", "ns3::IbChannel")
{
}

void
IbFabricHelper::SetHcaAttribute(const std::string& name, const AttributeValue& value)
{
    m_hostFactory.Set(name, value);
}

Ptr<IbFabric>
IbFabricHelper::Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const
{
    return DoInstall(graph, routes, nullptr);
}

NetDeviceContainer
IbFabricHelper::Install(Ptr<FabricTopology> topology) const
{
    CheckTopology(topology, "IbFabricHelper::Install");
    Ptr<IbFabric> fabric =
        DoInstall(topology->GetGraph(), topology->GetRoutes(), &topology->GetNodes());
    topology->SetFabric(fabric);
    return AllDevices(*topology);
}

Ptr<IbFabric>
IbFabricHelper::DoInstall(Ptr<TopologyGraph> graph,
                          Ptr<const RouteTable> routes,
                          const NodeContainer* given) const
{
    RequirePicoseconds("IbFabricHelper::Install");
    if (CongestionControlRegistry::Get(m_ccFactory.GetAlgorithm()).usesInt)
    {
        // HPCC without telemetry would sit at its initial window: refused, not ignored.
        throw std::invalid_argument("congestion control '" + m_ccFactory.GetAlgorithm() +
                                    "' reads in-band network telemetry, which InfiniBand "
                                    "frames do not carry (RoCEv2 only)");
    }
    if (CongestionControlRegistry::Get(m_ccFactory.GetAlgorithm()).ecnEchoInAck)
    {
        // the HCA returns BECN in CNPs: such an algorithm would never see a mark
        throw std::invalid_argument("congestion control '" + m_ccFactory.GetAlgorithm() +
                                    "' reads ECN CE echoed in ACKs, which only the RoCEv2 NIC "
                                    "sends; on InfiniBand use one driven by CNPs (ibta, dcqcn)");
    }
    graph->Validate();
    Ptr<IbFabric> fabric = CreateObject<IbFabric>();
    fabric->m_graph = graph;
    fabric->SetCongestionControlFactory(m_ccFactory);
    fabric->m_sm = Create<SubnetManager>(graph);
    fabric->m_sm->Program(routes);
    uint8_t needVls = fabric->m_sm->GetRequiredVls();
    InstallPorts(*graph,
                 given,
                 fabric->m_nodes,
                 fabric->m_devices,
                 &fabric->m_channels,
                 [needVls](IbNetDevice& dev) {
                     if (dev.GetNumDataVls() < needVls)
                     {
                         dev.SetAttribute("NumDataVls", UintegerValue(needVls));
                     }
                 });
    // A server's scale-up cables (GPU to crossbar) are NVLink-class, not InfiniBand:
    // their ports' credit counters are not IBTA's (IbNetDevice ScaleUp).
    for (uint32_t l = 0; l < graph->GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = graph->GetLink(l);
        if ((graph->IsScaleUpSwitch(link.a) && graph->IsHost(link.b)) ||
            (graph->IsScaleUpSwitch(link.b) && graph->IsHost(link.a)))
        {
            fabric->m_devices[link.a][link.portA]->SetAttribute("ScaleUp", BooleanValue(true));
            fabric->m_devices[link.b][link.portB]->SetAttribute("ScaleUp", BooleanValue(true));
        }
    }
    const std::vector<uint32_t>& hosts = graph->GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        uint32_t node = hosts[h];
        Ptr<IbHca> hca = CreateHost<IbHca>(*fabric,
                                           fabric->m_nodes.Get(node),
                                           h,
                                           fabric->m_devices[node].size(),
                                           "IB HCA");
        hca->Setup(fabric->m_devices[node][0], h, fabric->m_sm->GetHostLid(h));
        fabric->m_hcas.push_back(hca);
    }
    bool first = true;
    for (uint32_t node : graph->GetSwitches())
    {
        Ptr<IbSwitch> sw = m_switchFactory.Create<IbSwitch>();
        fabric->m_nodes.Get(node)->AggregateObject(sw);
        for (const auto& dev : fabric->m_devices[node])
        {
            sw->AddPort(dev);
        }
        sw->SetLft(fabric->m_sm->GetLft(node));
        sw->SetRouting(routes, node);
        for (uint32_t port = 0; port < fabric->m_devices[node].size(); ++port)
        {
            sw->SetSl2Vl(port,
                         SubnetManager::GetSl2Vl(fabric->m_devices[node][port]->GetNumDataVls()));
        }
        if (first)
        {
            TimeValue lat;
            BooleanValue ct;
            sw->GetAttribute("SwitchLatency", lat);
            sw->GetAttribute("CutThrough", ct);
            fabric->m_switchLatency = lat.Get();
            fabric->m_cutThrough = ct.Get();
            first = false;
        }
        fabric->m_switches.push_back(sw);
        fabric->m_switchNodes.push_back(node);
    }
    // Credits last: an automatic VL buffer's size depends on its owner's hold time,
    // which the HCAs and switches set above.
    for (const auto& node : fabric->m_devices)
    {
        for (const auto& dev : node)
        {
            dev->InitializeCredits();
        }
    }
    // SHARP's Aggregation Manager beside the Subnet Manager (GetObject<AggregationManager>):
    // it installs nothing until a job asks for a tree (--algorithm=collnet), so a fabric
    // without SHARP jobs pays nothing.
    Ptr<AggregationManager> am = CreateObject<AggregationManager>();
    am->SetFabric(fabric);
    fabric->AggregateObject(am);
    return fabric;
}

} // namespace ns3
