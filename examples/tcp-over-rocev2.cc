/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3's own TCP over a RoCEv2 fat-tree, with ns-3's own helpers: InternetStackHelper,
 * Ipv4AddressHelper, BulkSendHelper, PacketSinkHelper and FlowMonitor, unchanged.
 *
 * A k=4 fat-tree (16 hosts, 100 Gb/s, ECMP) built by RoceFabricHelper; every host
 * gets the internet stack and its address from Ipv4AddressHelper over 10.0.0.0/8
 * from 10.0.0.1, in host order, which is the fabric's address plan (host i is
 * 10.0.0.1 + i, what the switches route to it). Each host i sends --bytes to host
 * (i + 8) mod 16 (another pod) with BulkSend over --tcp (TcpDctcp by default: the
 * switches' ECN marks reach it in the IPv4 header); FlowMonitor reports every flow.
 *
 *   tcp-over-rocev2 [--bytes=2000000] [--tcp=ns3::TcpDctcp] [--priority=0]
 *
 * Output: one line per flow ("flow ID SRC -> DST tx_bytes rx_bytes lost throughput
 * delay"), then a "summary" line with the flow count, the flows that delivered
 * every byte, the switches' ECN marks and drops, and the NICs' IP drops.
 */
#include "ns3/applications-module.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint64_t bytes = 2000000;
    std::string tcp = "ns3::TcpDctcp";
    uint32_t priority = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes each host sends", bytes);
    cmd.AddValue("tcp", "TCP variant (a TypeId: ns3::TcpDctcp, ns3::TcpCubic, ...)", tcp);
    cmd.AddValue("priority",
                 "traffic class of the TCP packets (ns3::RoceNic::IpPriority)",
                 priority);
    cmd.Parse(argc, argv);
    TypeId variant;
    if (!TypeId::LookupByNameFailSafe(tcp, &variant) || priority > 7)
    {
        std::cerr << "tcp-over-rocev2: --tcp=" << tcp << " --priority=" << priority
                  << ": a TCP variant's TypeId (e.g. ns3::TcpDctcp) and a priority 0..7 needed"
                  << std::endl;
        return 2;
    }

    Time::SetResolution(Time::PS);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(variant));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1000));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4194304));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(6291456));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
    Config::SetDefault("ns3::RoceNic::IpPriority", UintegerValue(priority));

    Ptr<FatTreeTopologyHelper> topology = CreateObject<FatTreeTopologyHelper>();
    topology->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> graph = topology->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", graph);
    RoceFabricHelper helper;
    helper.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
    Ptr<RoceFabric> fabric = helper.Install(graph, routes);

    const uint32_t n = fabric->GetNHosts();
    NodeContainer hosts;
    NetDeviceContainer devices;
    for (uint32_t h = 0; h < n; ++h)
    {
        hosts.Add(fabric->GetNic(h)->GetDevice()->GetNode());
        devices.Add(fabric->GetNic(h)->GetDevice());
    }
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false); // the switches route IPv4
    stack.Install(hosts);
    Ipv4AddressHelper addresses("10.0.0.0", "255.0.0.0", "0.0.0.1");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    const uint16_t port = 5001;
    ApplicationContainer sinks;
    ApplicationContainer senders;
    for (uint32_t h = 0; h < n; ++h)
    {
        const uint32_t dst = (h + n / 2) % n;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        sinks.Add(sink.Install(hosts.Get(dst)));
        BulkSendHelper send("ns3::TcpSocketFactory",
                            InetSocketAddress(interfaces.GetAddress(dst), port));
        send.SetAttribute("MaxBytes", UintegerValue(bytes));
        senders.Add(send.Install(hosts.Get(h)));
    }
    sinks.Start(Seconds(0));
    senders.Start(Seconds(0));

    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> monitor = flowHelper.Install(hosts);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();

    monitor->CheckForLostPackets();
    Ptr<Ipv4FlowClassifier> classifier =
        DynamicCast<Ipv4FlowClassifier>(flowHelper.GetClassifier());
    uint32_t flows = 0;
    uint32_t complete = 0;
    std::cout << std::fixed << std::setprecision(3);
    for (const auto& [id, st] : monitor->GetFlowStats())
    {
        const Ipv4FlowClassifier::FiveTuple t = classifier->FindFlow(id);
        if (t.destinationPort != port)
        {
            continue; // the ACK direction of a flow
        }
        ++flows;
        const double seconds = (st.timeLastRxPacket - st.timeFirstTxPacket).GetSeconds();
        const double gbps = seconds > 0 ? st.rxBytes * 8.0 / seconds / 1e9 : 0;
        const double delayUs = st.rxPackets > 0 ? st.delaySum.GetSeconds() * 1e6 / st.rxPackets : 0;
        std::cout << "flow " << id << " " << t.sourceAddress << " -> " << t.destinationAddress
                  << " tx_bytes " << st.txBytes << " rx_bytes " << st.rxBytes << " lost "
                  << st.lostPackets << " throughput_gbps " << gbps << " mean_delay_us " << delayUs
                  << std::endl;
    }
    for (uint32_t i = 0; i < sinks.GetN(); ++i)
    {
        if (DynamicCast<PacketSink>(sinks.Get(i))->GetTotalRx() == bytes)
        {
            ++complete;
        }
    }
    uint64_t marks = 0;
    uint64_t drops = 0;
    for (const auto& sw : fabric->GetSwitches())
    {
        marks += sw->GetEcnMarks();
        drops += sw->GetLossyDrops() + sw->GetLosslessDrops();
    }
    uint64_t ipDrops = 0;
    for (uint32_t h = 0; h < n; ++h)
    {
        ipDrops += fabric->GetNic(h)->GetIpDrops();
    }
    std::cout << "summary flows " << flows << " complete " << complete << " ecn_marks " << marks
              << " switch_drops " << drops << " nic_ip_drops " << ipDrops << std::endl;
    Simulator::Destroy();
    return complete == n && flows == n ? 0 : 1;
}
