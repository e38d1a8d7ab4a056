/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/egress-port-policy.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/none-congestion-control.h"
#include "ns3/pointer.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-queued-frame.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFabricHelper");

RoceFabricHelper::RoceFabricHelper()
    : RdmaFabricHelper("ns3::RoceNetDevice", "ns3::RoceNic", "ns3::RoceSwitch", "ns3::RoceChannel")
{
    m_mmuFactory.SetTypeId("ns3::SharedBufferMmu");
    m_policyFactory.SetTypeId("ns3::EcmpEgressPolicy");
}

void
RoceFabricHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_hostFactory.Set(name, value);
    m_nicAttributesSet.insert(name);
}

void
RoceFabricHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
RoceFabricHelper::SetEgressPolicy(const std::string& typeId)
{
    m_policyFactory.SetTypeId(
        LookupSubclass(typeId, EgressPortPolicy::GetTypeId(), "egress policy"));
}

Ptr<RoceFabric>
RoceFabricHelper::Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const
{
    return DoInstall(graph, routes, nullptr);
}

NetDeviceContainer
RoceFabricHelper::Install(Ptr<FabricTopology> topology) const
{
    CheckTopology(topology, "RoceFabricHelper::Install");
    Ptr<RoceFabric> fabric =
        DoInstall(topology->GetGraph(), topology->GetRoutes(), &topology->GetNodes());
    topology->SetFabric(fabric);
    return AllDevices(*topology);
}

Ptr<RoceFabric>
RoceFabricHelper::DoInstall(Ptr<TopologyGraph> graph,
                            Ptr<const RouteTable> routes,
                            const NodeContainer* given) const
{
    RequirePicoseconds("RoceFabricHelper::Install");
    graph->Validate();
    RoceQueuedFrame::ApplyWholeBudgetGlobalValue();
    Ptr<RoceFabric> fabric = CreateObject<RoceFabric>();
    fabric->m_graph = graph;
    fabric->m_routes = routes;
    fabric->SetCongestionControlFactory(m_ccFactory);
    InstallPorts(*graph,
                 given,
                 fabric->m_nodes,
                 fabric->m_devices,
                 static_cast<std::vector<Ptr<RoceChannel>>*>(nullptr),
                 [](RoceNetDevice&) {});
    // NICs on hosts.
    const CongestionControlRegistry::Entry& cc =
        CongestionControlRegistry::Get(m_ccFactory.GetAlgorithm());
    const std::vector<uint32_t>& hosts = graph->GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        uint32_t node = hosts[h];
        Ptr<RoceNic> nic = CreateHost<RoceNic>(*fabric,
                                               fabric->m_nodes.Get(node),
                                               h,
                                               fabric->m_devices[node].size(),
                                               "RoCEv2 NIC");
        if (m_nicAttributesSet.count("EcnCapable") == 0)
        {
            nic->SetAttribute("EcnCapable", BooleanValue(cc.usesEcn));
        }
        if (m_nicAttributesSet.count("EcnEchoInAck") == 0 && cc.ecnEchoInAck)
        {
            nic->SetAttribute("EcnEchoInAck", BooleanValue(cc.ecnEchoInAck));
        }
        nic->SetAttribute("IntEnabled", BooleanValue(cc.usesInt));
        nic->Setup(fabric->m_devices[node][0], h, RoceNic::HostAddress(h), RoceNic::HostMac(h));
        nic->SetHostCount(static_cast<uint32_t>(hosts.size()));
        fabric->m_nics.push_back(nic);
    }
    // Switches.
    uint32_t frameMtu = 0;
    if (!fabric->m_nics.empty())
    {
        frameMtu =
            fabric->m_nics[0]->GetFullPacketWireBytes() - RoceEthernetHeader::WIRE_OVERHEAD_BYTES;
    }
    int64_t stream = 1000;
    for (uint32_t node : graph->GetSwitches())
    {
        Ptr<RoceSwitch> sw = m_switchFactory.Create<RoceSwitch>();
        fabric->m_nodes.Get(node)->AggregateObject(sw);
        sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<SharedBufferMmu>()));
        sw->SetAttribute("IntEnabled", BooleanValue(cc.usesInt));
        for (uint32_t port = 0; port < fabric->m_devices[node].size(); ++port)
        {
            // Locally administered 02:01:nn:nn:nn:pp, the same in every run (unlike
            // Mac48Address::Allocate, whose counter is process-wide).
            uint8_t b[6] = {0x02,
                            0x01,
                            static_cast<uint8_t>(node >> 16),
                            static_cast<uint8_t>(node >> 8),
                            static_cast<uint8_t>(node),
                            static_cast<uint8_t>(port)};
            Mac48Address mac;
            mac.CopyFrom(b);
            fabric->m_devices[node][port]->SetAddress(mac);
            sw->AddPort(fabric->m_devices[node][port]);
        }
        sw->SetRouting(routes, node);
        sw->SetEgressPolicy(m_policyFactory.Create<EgressPortPolicy>());
        sw->Setup(frameMtu);
        stream += sw->AssignStreams(stream);
        fabric->m_switches.push_back(sw);
        fabric->m_switchNodes.push_back(node);
        fabric->m_switchOfNode.resize(graph->GetNNodes(), nullptr);
        fabric->m_switchOfNode[node] = PeekPointer(sw);
    }
    return fabric;
}

} // namespace ns3
