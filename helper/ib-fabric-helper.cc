/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/route-table.h"
#include "ns3/subnet-manager.h"
#include "ns3/uinteger.h"

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
    graph->Validate();
    Ptr<IbFabric> fabric = CreateObject<IbFabric>();
    fabric->m_graph = graph;
    fabric->SetCongestionControlFactory(m_ccFactory);
    fabric->m_sm = Create<SubnetManager>(graph);
    fabric->m_sm->Program(routes);
    uint8_t needVls = fabric->m_sm->GetRequiredVls();
    uint32_t n = graph->GetNNodes();
    fabric->m_nodes.Create(n);
    fabric->m_devices.resize(n);
    for (uint32_t node = 0; node < n; ++node)
    {
        Ptr<Node> ns3Node = fabric->m_nodes.Get(node);
        for (std::size_t port = 0; port < graph->GetPorts(node).size(); ++port)
        {
            Ptr<IbNetDevice> dev = m_deviceFactory.Create<IbNetDevice>();
            if (dev->GetNumDataVls() < needVls)
            {
                dev->SetAttribute("NumDataVls", UintegerValue(needVls));
            }
            ns3Node->AddDevice(dev); // ifIndex = port number
            fabric->m_devices[node].push_back(dev);
        }
    }
    for (uint32_t l = 0; l < graph->GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = graph->GetLink(l);
        Ptr<IbChannel> ch = m_channelFactory.Create<IbChannel>();
        ch->SetAttribute("Delay", TimeValue(link.delay));
        fabric->m_channels.push_back(ch);
        for (auto [node, port] :
             {std::make_pair(link.a, link.portA), std::make_pair(link.b, link.portB)})
        {
            Ptr<IbNetDevice> dev = fabric->m_devices[node][port];
            dev->SetAttribute("DataRate", DataRateValue(link.rate));
            dev->Attach(ch);
        }
    }
    for (const auto& node : fabric->m_devices)
    {
        for (const auto& dev : node)
        {
            dev->InitializeCredits();
        }
    }
    const std::vector<uint32_t>& hosts = graph->GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        uint32_t node = hosts[h];
        NS_ABORT_MSG_IF(fabric->m_devices[node].size() != 1,
                        "host " << h << " has " << fabric->m_devices[node].size()
                                << " ports; the IB HCA model has exactly one");
        Ptr<IbHca> hca = m_hostFactory.Create<IbHca>();
        fabric->m_nodes.Get(node)->AggregateObject(hca);
        hca->Setup(fabric->m_devices[node][0], h, fabric->m_sm->GetHostLid(h));
        // A raw pointer: the fabric owns the NICs, so a counted one would be a cycle.
        hca->TraceConnectWithoutContext(
            "MessageSent",
            MakeCallback(&RdmaFabric::OnMessageSent, PeekPointer(fabric)));
        hca->TraceConnectWithoutContext(
            "MessageDelivered",
            MakeCallback(&RdmaFabric::OnDelivered, PeekPointer(fabric)));
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
    return fabric;
}

} // namespace ns3
