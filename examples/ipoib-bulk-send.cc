/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3's own TCP over an InfiniBand fat-tree through IP over InfiniBand (RFC 4391,
 * datagram mode), with ns-3's own helpers: InternetStackHelper, Ipv4AddressHelper,
 * BulkSendHelper, PacketSinkHelper and FlowMonitor, unchanged.
 *
 * A k=4 fat-tree (16 hosts, 100 Gb/s, 4096-byte IB MTU) built by IbFabricHelper, its
 * LFTs programmed by the Subnet Manager; IpoibHelper gives every HCA an IPoIB
 * interface (MTU 4092), the hosts get the internet stack and 10.0.0.1 + i, and
 * IpoibHelper::PopulateNeighbours fills the neighbour tables (IPv4 -> LID, QPN) that
 * ARP and the SA's path records fill on a real subnet. Each host i sends --bytes to
 * host (i + 8) mod 16 (another pod) with BulkSend over --tcp; FlowMonitor reports
 * every flow. The switches forward the IPoIB packets by their LFTs on the VL of
 * --sl, under credit flow control: nothing is lost, and nothing is ECN-marked (IB
 * switches do not look at the IP header).
 *
 *   ipoib-bulk-send [--bytes=2000000] [--tcp=ns3::TcpCubic] [--sl=0]
 *
 * Output: one line per flow ("flow ID SRC -> DST tx_bytes rx_bytes lost throughput
 * delay"), then a "summary" line with the flow count, the flows that delivered every
 * byte, the credit overflows (lossless drops, must be 0), the IPoIB packets sent and
 * the IPoIB drops.
 */
#include "ns3/applications-module.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipoib-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/net-device.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
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
    std::string tcp = "ns3::TcpCubic";
    uint32_t sl = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes each host sends", bytes);
    cmd.AddValue("tcp", "TCP variant (a TypeId: ns3::TcpCubic, ns3::TcpDctcp, ...)", tcp);
    cmd.AddValue("sl", "service level of the IPoIB packets (ns3::IpoibInterface)", sl);
    cmd.Parse(argc, argv);
    TypeId variant;
    if (!TypeId::LookupByNameFailSafe(tcp, &variant) || sl > 15)
    {
        std::cerr << "ipoib-bulk-send: --tcp=" << tcp << " --sl=" << sl
                  << ": a TCP variant's TypeId (e.g. ns3::TcpCubic) and a service level 0..15 "
                     "needed"
                  << std::endl;
        return 2;
    }

    Time::SetResolution(Time::PS);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(variant));
    // 4092-byte IPoIB MTU less 20 (IPv4), 20 (TCP) and 12 (timestamps): no IP fragments.
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(4040));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4194304));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(6291456));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));

    Ptr<FatTreeTopologyHelper> topology = CreateObject<FatTreeTopologyHelper>();
    topology->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> graph = topology->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", graph);
    IbFabricHelper helper;
    helper.SetHcaAttribute("Mtu", UintegerValue(4096));
    Ptr<IbFabric> fabric = helper.Install(graph, routes);

    IpoibHelper ipoib;
    ipoib.SetInterfaceAttribute("ServiceLevel", UintegerValue(sl));
    NetDeviceContainer ports = ipoib.Install(fabric); // host i at index i
    const uint32_t n = fabric->GetNHosts();
    NodeContainer hosts;
    for (uint32_t h = 0; h < n; ++h)
    {
        hosts.Add(ports.Get(h)->GetNode());
    }
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(hosts);
    Ipv4AddressHelper addresses("10.0.0.0", "255.0.0.0", "0.0.0.1");
    Ipv4InterfaceContainer interfaces = addresses.Assign(ports);
    IpoibHelper::PopulateNeighbours(fabric);

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
    const RdmaFabric::Counters counters = fabric->GetCounters();
    const RdmaFabric::IpCounters ip = fabric->GetIpCounters();
    std::cout << "summary flows " << flows << " complete " << complete << " credit_overflows "
              << counters.losslessDrops << " ipoib_packets_sent " << ip.sent << " ipoib_drops "
              << ip.drops << std::endl;
    Simulator::Destroy();
    return complete == n && flows == n ? 0 : 1;
}
