/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3-style use of the RoCEv2 fabric: a k=4 fat-tree as NodeContainers, the
 * fabric installed on them by RoceFabricHelper, ns-3 Applications with start
 * times on the hosts, and the fabric's trace sources reached through Config paths.
 *
 *   rocev2-fattree-apps [--collectiveBytes=4194304] [--flowBytes=1048576]
 *                       [--csv=rocev2-fattree-apps.csv] [--pcap=0]
 *
 * Hosts 0..7 (pods 0 and 1) run a ring allreduce (CollectiveHelper, two
 * iterations, from 5 us); host 8 sends four messages back to back to host 12
 * (RdmaFlowHelper, from 20 us), on links nothing else uses; hosts 13, 14 and 15
 * each send one 2 MiB message to host 11 at 30 us, a 3-to-1 incast whose
 * bottleneck makes the switches send PFC pauses and DCQCN lower the senders'
 * rates. The program prints what the traces saw and writes one CSV row per
 * finished message or collective iteration.
 */
#include "ns3/collective-helper.h"
#include "ns3/collective-rank-application.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-topology.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-flow-application.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <set>

using namespace ns3;

namespace
{

/// What the trace sinks saw.
struct Seen
{
    uint64_t pfcPausesSent{0};        //!< PFC XOFF frames a port sent (PauseSent)
    uint64_t pfcResumesSent{0};       //!< PFC XON frames a port sent (ResumeSent)
    uint64_t minXoffAtPause{~0ULL};   //!< lowest XOFF threshold of a switch when it paused
    uint64_t cnpsSent{0};             //!< CNPs a notification point sent (CnpSent)
    uint64_t cnpsReceived{0};         //!< CNPs a reaction point received (CnpReceived)
    uint64_t delivered{0};            //!< messages placed at a receiver (MessageDelivered)
    uint64_t deliveredBytes{0};       //!< their bytes
    uint64_t maxSharedUsed{0};        //!< most bytes of a switch's shared pool in use
    uint64_t maxQueueBytes{0};        //!< longest egress queue of a switch (QueueLength)
    uint32_t maxQueueNode{0};         //!< its switch's node id
    uint32_t maxQueuePort{0};         //!< its egress port
    uint8_t maxQueuePriority{0};      //!< its priority
    uint64_t rateChanges{0};          //!< Rate trace calls of the queue pairs connected
    uint64_t minRateBps{~0ULL};       //!< lowest rate they set
    uint32_t queuePairsWatched{0};    //!< queue pairs whose Rate was connected (QpCreated)
    std::set<uint64_t> collectiveOps; //!< operations seen (every rank reports each)
    std::ofstream csv;                //!< one row per message or iteration
} g_seen;

void
OnPauseSent(Ptr<const RoceNetDevice> device, uint8_t /* priority */, uint16_t /* quanta */)
{
    g_seen.pfcPausesSent++;
    // A switch pauses an ingress priority group whose shared usage passed the
    // threshold: what is that threshold now?
    if (Ptr<RoceSwitch> sw = device->GetNode()->GetObject<RoceSwitch>())
    {
        g_seen.minXoffAtPause = std::min(g_seen.minXoffAtPause, sw->GetMmu()->GetXoffThreshold());
    }
}

void
OnResumeSent(Ptr<const RoceNetDevice>, uint8_t /* priority */)
{
    g_seen.pfcResumesSent++;
}

void
OnCnpSent(Ptr<const RdmaQueuePair>)
{
    g_seen.cnpsSent++;
}

void
OnCnpReceived(Ptr<const RdmaQueuePair>)
{
    g_seen.cnpsReceived++;
}

void
OnQueueLength(uint32_t node, uint32_t port, uint8_t priority, uint64_t bytes)
{
    if (bytes > g_seen.maxQueueBytes)
    {
        g_seen.maxQueueBytes = bytes;
        g_seen.maxQueueNode = node;
        g_seen.maxQueuePort = port;
        g_seen.maxQueuePriority = priority;
    }
}

void
OnDelivered(Ptr<const RdmaQueuePair>, uint64_t /* tag */, uint64_t bytes)
{
    g_seen.delivered++;
    g_seen.deliveredBytes += bytes;
}

void
OnSharedUsed(uint64_t /* old */, uint64_t now)
{
    g_seen.maxSharedUsed = std::max(g_seen.maxSharedUsed, now);
}

void
OnRate(uint64_t /* old */, uint64_t now)
{
    g_seen.rateChanges++;
    g_seen.minRateBps = std::min(g_seen.minRateBps, now);
}

void
OnMessageCompleted(const RdmaFabric::MessageRecord& r)
{
    g_seen.csv << "message," << r.src << "," << r.dst << "," << r.bytes << ","
               << r.start.GetSeconds() * 1e6 << "," << r.end.GetSeconds() * 1e6 << ","
               << (r.end - r.start).GetSeconds() * 1e6 << "," << r.ideal.GetSeconds() * 1e6 << "\n";
    std::printf("message %llu: host %u -> %u, %llu bytes, posted %.3f us, took %.3f us "
                "(unloaded %.3f us)\n",
                static_cast<unsigned long long>(r.id),
                r.src,
                r.dst,
                static_cast<unsigned long long>(r.bytes),
                r.start.GetSeconds() * 1e6,
                (r.end - r.start).GetSeconds() * 1e6,
                r.ideal.GetSeconds() * 1e6);
}

void
OnCollectiveCompleted(const CollectiveRecord& r)
{
    if (!g_seen.collectiveOps.insert(r.opId).second)
    {
        return; // every rank reports the operation; print it once
    }
    g_seen.csv << "collective,0,0," << r.bytes << "," << r.startNs / 1e3 << "," << r.endNs / 1e3
               << "," << r.durationNs / 1e3 << ",0\n";
    std::printf("collective %s %s iteration %u: %u ranks, %llu bytes, step time %.3f us, "
                "busbw %.2f GB/s\n",
                r.operation.c_str(),
                r.algorithm.c_str(),
                r.iteration,
                r.ranks,
                static_cast<unsigned long long>(r.bytes),
                r.durationNs / 1e3,
                r.busbwGBps);
}

/// A queue pair is made when a host first posts to a peer; QpCreated fires once it
/// has its congestion controller, whose Rate trace is connected here.
void
OnQpCreated(Ptr<RdmaQueuePair> qp)
{
    qp->GetCongestionControl()->TraceConnectWithoutContext("Rate", MakeCallback(&OnRate));
    g_seen.queuePairsWatched++;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t collectiveBytes = 4 << 20;
    uint64_t flowBytes = 1 << 20;
    std::string csv = "rocev2-fattree-apps.csv";
    uint64_t bufferBytes = 4 << 20;
    bool pcap = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("collectiveBytes", "allreduce bytes per rank", collectiveBytes);
    cmd.AddValue("flowBytes", "bytes of each of host 8's four messages", flowBytes);
    cmd.AddValue("bufferBytes", "packet buffer of every switch", bufferBytes);
    cmd.AddValue("csv", "file of one row per finished message or iteration", csv);
    cmd.AddValue("pcap", "write a pcap of every host port (rocev2-fattree-apps-N-D.pcap)", pcap);
    cmd.Parse(argc, argv);

    // The model needs picosecond time steps: a byte at 100 Gb/s lasts 80 ps.
    Time::SetResolution(Time::PS);
    try
    {
        // 1. The topology: 16 hosts and 20 switches as ns-3 Nodes, 100 Gb/s, 1 us cables.
        Ptr<FatTreeTopologyHelper> fatTree = CreateObject<FatTreeTopologyHelper>();
        fatTree->SetAttribute("K", UintegerValue(4));
        Ptr<FabricTopology> topology = fatTree->CreateTopology();
        NodeContainer hosts = topology->GetHosts();

        // 2. The RoCEv2 fabric on those Nodes: ports, cables, NICs, switches, routes.
        RoceFabricHelper roce;
        roce.SetNicAttribute("Mtu", UintegerValue(4096));
        roce.SetMmuAttribute("BufferSize", UintegerValue(bufferBytes));
        roce.SetCongestionControl("ns3::DcqcnCongestionControl",
                                  "RateAI",
                                  DataRateValue(DataRate("40Mbps")));
        NetDeviceContainer devices = roce.Install(topology);
        if (pcap)
        {
            roce.EnablePcap("rocev2-fattree-apps", topology->GetHostDevices());
        }

        // 3. Applications with start times.
        NodeContainer ranks;
        for (uint32_t i = 0; i < 8; ++i)
        {
            ranks.Add(topology->GetHost(i));
        }
        CollectiveHelper allreduce("ring", collectiveBytes, 2);
        ApplicationContainer collective = allreduce.Install(ranks);
        collective.Start(MicroSeconds(5));

        RdmaFlowHelper toHost12(topology->GetHost(12));
        toHost12.SetAttribute("MessageSize", UintegerValue(flowBytes));
        toHost12.SetAttribute("MaxMessages", UintegerValue(4));
        ApplicationContainer flow = toHost12.Install(topology->GetHost(8));
        flow.Start(MicroSeconds(20));

        RdmaFlowHelper toHost11(topology->GetHost(11));
        toHost11.SetAttribute("MessageSize", UintegerValue(2 << 20));
        NodeContainer senders(topology->GetHost(13), topology->GetHost(14), topology->GetHost(15));
        ApplicationContainer incast = toHost11.Install(senders);
        incast.Start(MicroSeconds(30));

        // 4. Traces, through Config paths.
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::RoceNetDevice/PauseSent",
                                      MakeCallback(&OnPauseSent));
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::RoceNetDevice/ResumeSent",
                                      MakeCallback(&OnResumeSent));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RoceSwitch/QueueLength",
                                      MakeCallback(&OnQueueLength));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RdmaNic/CnpSent",
                                      MakeCallback(&OnCnpSent));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RdmaNic/CnpReceived",
                                      MakeCallback(&OnCnpReceived));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RdmaNic/QpCreated",
                                      MakeCallback(&OnQpCreated));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RoceNic/MessageDelivered",
                                      MakeCallback(&OnDelivered));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RoceSwitch/Mmu/SharedUsed",
                                      MakeCallback(&OnSharedUsed));
        Config::ConnectWithoutContext(
            "/NodeList/*/ApplicationList/*/$ns3::RdmaFlowApplication/MessageCompleted",
            MakeCallback(&OnMessageCompleted));
        Config::ConnectWithoutContext(
            "/NodeList/*/ApplicationList/*/$ns3::CollectiveRankApplication/CollectiveCompleted",
            MakeCallback(&OnCollectiveCompleted));

        g_seen.csv.open(csv);
        g_seen.csv << "kind,src,dst,bytes,start_us,end_us,duration_us,ideal_us\n";
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();

        std::printf("devices: %u (hosts %u, switches %u)\n",
                    devices.GetN(),
                    topology->GetHostDevices().GetN(),
                    topology->GetSwitchDevices().GetN());
        std::printf("messages delivered: %llu (%llu bytes)\n",
                    static_cast<unsigned long long>(g_seen.delivered),
                    static_cast<unsigned long long>(g_seen.deliveredBytes));
        std::printf("PFC pauses sent: %llu, resumes sent: %llu\n",
                    static_cast<unsigned long long>(g_seen.pfcPausesSent),
                    static_cast<unsigned long long>(g_seen.pfcResumesSent));
        std::printf("lowest XOFF threshold of a pausing switch: %llu bytes\n",
                    static_cast<unsigned long long>(g_seen.minXoffAtPause));
        std::printf("max switch shared buffer used: %llu bytes\n",
                    static_cast<unsigned long long>(g_seen.maxSharedUsed));
        std::printf("max switch egress queue: %llu bytes (node %u, port %u, priority %u)\n",
                    static_cast<unsigned long long>(g_seen.maxQueueBytes),
                    g_seen.maxQueueNode,
                    g_seen.maxQueuePort,
                    static_cast<unsigned>(g_seen.maxQueuePriority));
        std::printf("CNPs sent: %llu, received: %llu\n",
                    static_cast<unsigned long long>(g_seen.cnpsSent),
                    static_cast<unsigned long long>(g_seen.cnpsReceived));
        size_t queuePairs = 0; // what the NICs hold at the end
        for (auto it = hosts.Begin(); it != hosts.End(); ++it)
        {
            queuePairs += (*it)->GetObject<RdmaNic>()->GetQueuePairs().size();
        }
        std::printf("queue pairs: %zu, Rate connected through QpCreated: %u, rate changes: "
                    "%llu, lowest rate: %.3f Gb/s\n",
                    queuePairs,
                    g_seen.queuePairsWatched,
                    static_cast<unsigned long long>(g_seen.rateChanges),
                    g_seen.rateChanges ? g_seen.minRateBps / 1e9 : 0.0);
        std::printf("collective iterations: %zu\n", g_seen.collectiveOps.size());
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "rocev2-fattree-apps: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
