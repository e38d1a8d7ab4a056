/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rocev2-fattree-apps on InfiniBand: the same k=4 fat-tree as NodeContainers, the
 * fabric installed on them by IbFabricHelper (HCAs, credit-based links, switches
 * the Subnet Manager programs), the same Applications with the same start times,
 * and the fabric's trace sources reached through Config paths.
 *
 *   infiniband-fattree-apps [--collectiveBytes=4194304] [--flowBytes=1048576]
 *                           [--csv=infiniband-fattree-apps.csv] [--pcap=0]
 *
 * Hosts 0..7 (pods 0 and 1) run a ring allreduce (CollectiveHelper, two
 * iterations, from 5 us); host 8 sends four messages back to back to host 12
 * (RdmaFlowHelper, from 20 us), on links nothing else uses; hosts 13, 14 and 15
 * each send one 2 MiB message to host 11 at 30 us, a 3-to-1 incast whose
 * bottleneck leaves the upstream ports short of credits (no packet is sent without
 * room for it at the other end): its ports stall for credits (CreditStall) and the
 * switches' virtual-lane queues fill (QueueLength). No congestion control runs, so no
 * CNP is sent and the queue pairs' Rate, connected through QpCreated, stays put. The
 * program prints what the traces saw and writes one CSV row per finished message or
 * collective iteration.
 */
#include "ns3/collective-helper.h"
#include "ns3/collective-rank-application.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/fabric-topology.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-flow-application.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
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
    uint64_t creditReports{0};        //!< Credits trace calls (one per packet sent)
    uint32_t minCredits{~0U};         //!< fewest credits (64-byte blocks) a VL had left
    uint64_t zeroCredits{0};          //!< sends that left a VL with no credit at all
    uint64_t creditStalls{0};         //!< heads held back for want of credits (CreditStall)
    uint64_t maxQueueBytes{0};        //!< longest VL output queue of a switch (QueueLength)
    uint32_t maxQueueNode{0};         //!< its switch's node id
    uint32_t maxQueuePort{0};         //!< its egress port
    uint8_t maxQueueVl{0};            //!< its virtual lane
    uint64_t delivered{0};            //!< messages placed at a receiver (MessageDelivered)
    uint64_t deliveredBytes{0};       //!< their bytes
    uint64_t rateChanges{0};          //!< Rate trace calls of the queue pairs connected
    uint64_t minRateBps{~0ULL};       //!< lowest rate they set
    uint32_t queuePairsWatched{0};    //!< queue pairs whose Rate was connected (QpCreated)
    std::set<uint64_t> collectiveOps; //!< operations seen (every rank reports each)
    std::ofstream csv;                //!< one row per message or iteration
} g_seen;

void
OnCredits(uint8_t /* vl */, uint32_t credits)
{
    g_seen.creditReports++;
    g_seen.minCredits = std::min(g_seen.minCredits, credits);
    if (credits == 0)
    {
        g_seen.zeroCredits++;
    }
}

void
OnCreditStall(uint8_t /* vl */, uint32_t /* needed */, uint32_t /* credits */)
{
    g_seen.creditStalls++;
}

void
OnQueueLength(uint32_t node, uint32_t port, uint8_t vl, uint64_t bytes)
{
    if (bytes > g_seen.maxQueueBytes)
    {
        g_seen.maxQueueBytes = bytes;
        g_seen.maxQueueNode = node;
        g_seen.maxQueuePort = port;
        g_seen.maxQueueVl = vl;
    }
}

void
OnDelivered(Ptr<const RdmaQueuePair>, uint64_t /* tag */, uint64_t bytes)
{
    g_seen.delivered++;
    g_seen.deliveredBytes += bytes;
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
    std::string csv = "infiniband-fattree-apps.csv";
    bool pcap = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("collectiveBytes", "allreduce bytes per rank", collectiveBytes);
    cmd.AddValue("flowBytes", "bytes of each of host 8's four messages", flowBytes);
    cmd.AddValue("csv", "file of one row per finished message or iteration", csv);
    cmd.AddValue("pcap",
                 "write a pcap of every host port (infiniband-fattree-apps-N-D.pcap)",
                 pcap);
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

        // 2. The InfiniBand fabric on those Nodes: ports, cables, HCAs, switches, LFTs.
        IbFabricHelper ib;
        ib.SetHcaAttribute("Mtu", UintegerValue(4096));
        NetDeviceContainer devices = ib.Install(topology);
        if (pcap)
        {
            ib.EnablePcap("infiniband-fattree-apps", topology->GetHostDevices());
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
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::IbNetDevice/Credits",
                                      MakeCallback(&OnCredits));
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::IbNetDevice/CreditStall",
                                      MakeCallback(&OnCreditStall));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::IbSwitch/QueueLength",
                                      MakeCallback(&OnQueueLength));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RdmaNic/QpCreated",
                                      MakeCallback(&OnQpCreated));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::IbHca/MessageDelivered",
                                      MakeCallback(&OnDelivered));
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
        std::printf("credit reports: %llu, fewest credits left: %u, sends leaving none: %llu\n",
                    static_cast<unsigned long long>(g_seen.creditReports),
                    g_seen.creditReports ? g_seen.minCredits : 0,
                    static_cast<unsigned long long>(g_seen.zeroCredits));
        std::printf("credit stalls: %llu\n", static_cast<unsigned long long>(g_seen.creditStalls));
        std::printf("max switch VL queue: %llu bytes (node %u, port %u, VL %u)\n",
                    static_cast<unsigned long long>(g_seen.maxQueueBytes),
                    g_seen.maxQueueNode,
                    g_seen.maxQueuePort,
                    static_cast<unsigned>(g_seen.maxQueueVl));
        size_t queuePairs = 0; // what the HCAs hold at the end
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
        std::fprintf(stderr, "infiniband-fattree-apps: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
