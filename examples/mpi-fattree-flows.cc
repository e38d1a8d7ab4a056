/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One fat-tree simulation across MPI ranks (doc/distributed.md): a k-ary fat-tree,
 * RoCEv2 or InfiniBand, partitioned by pod (RankPartition "group": pods in blocks,
 * core switches spread), every host writing --bytes to the host half the fabric
 * away (host h -> h + hosts/2: every message crosses the core, so every frame of it
 * crosses ranks twice). Each rank writes the messages its hosts sent (completion is
 * at the sender) to <csv>.rank<r>; the union of the ranks' files is what one process
 * writes (--mpi=false), row for row after sorting by id.
 *
 *   mpirun -np 2 build/examples/mpi-fattree-flows --mpi --fabric=ib --csv=out/ib
 *   build/examples/mpi-fattree-flows --fabric=ib --csv=out/ib-one
 *
 * --cc=hpcc (RoCEv2): frames carry INT records, which must cross ranks with them.
 *
 * Built only with -DAI_FABRIC_MPI=ON (./ai-fabric mpi-setup).
 */
#include "ns3/channel-list.h"
#include "ns3/command-line.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/fabric-distributed-simulator-impl.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/global-value.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-remote-channel.h"
#include "ns3/lambda-callback.h"
#include "ns3/mpi-interface.h"
#include "ns3/rank-partition.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-remote-channel.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    bool mpi = false;
    std::string fabricName = "roce";
    uint32_t k = 4;
    uint64_t bytes = 1 << 20;
    std::string csv = "mpi-fattree-flows";
    std::string method = "group";
    std::string engine = "fabric";
    std::string cc;
    Time stop = MilliSeconds(2);
    CommandLine cmd(__FILE__);
    cmd.AddValue("mpi", "run across the MPI ranks of mpirun (else one process)", mpi);
    cmd.AddValue("fabric", "roce or ib", fabricName);
    cmd.AddValue("k", "fat-tree radix (even, 4..16)", k);
    cmd.AddValue("bytes", "bytes each host writes", bytes);
    cmd.AddValue("csv", "prefix of the per-rank CSVs (<csv>.rank<r>)", csv);
    cmd.AddValue("partition", "rank partition method: group, block or graph", method);
    cmd.AddValue("engine",
                 "with --mpi: fabric (ns3::FabricDistributedSimulatorImpl: our engine, frames "
                 "batched per window and peer) or ns3 (ns3::DistributedSimulatorImpl)",
                 engine);
    cmd.AddValue("cc",
                 "RoCEv2 congestion control (a CongestionControlRegistry name, e.g. hpcc: "
                 "frames carry INT records across ranks); '' = the helper's default",
                 cc);
    cmd.AddValue("stop",
                 "simulated time to run (every rank synchronizes once per lookahead until "
                 "then, with or without traffic)",
                 stop);
    cmd.Parse(argc, argv);
    if (fabricName != "roce" && fabricName != "ib")
    {
        std::cerr << "mpi-fattree-flows: --fabric='" << fabricName
                  << "' is not allowed (allowed: roce, ib)\n";
        return 2;
    }
    if (k < 4 || k > 16 || k % 2 != 0)
    {
        std::cerr << "mpi-fattree-flows: --k=" << k << " is not allowed (allowed: even, 4..16)\n";
        return 2;
    }
    if (engine != "fabric" && engine != "ns3")
    {
        std::cerr << "mpi-fattree-flows: --engine='" << engine
                  << "' is not allowed (allowed: fabric, ns3)\n";
        return 2;
    }
    if (!cc.empty())
    {
        if (fabricName != "roce" || !CongestionControlRegistry::Has(cc))
        {
            std::cerr << "mpi-fattree-flows: --cc='" << cc << "' with --fabric=" << fabricName
                      << " is not allowed (allowed: a RoCEv2 congestion control:";
            for (const std::string& n : CongestionControlRegistry::GetNames())
            {
                std::cerr << " " << n;
            }
            std::cerr << ")\n";
            return 2;
        }
    }
    // The timing wheel: equal-time events in EventOrigin's order, which does not depend
    // on the partition (ns-3's DistributedSimulatorImpl takes it as any event list).
    GlobalValue::Bind("SchedulerType", StringValue("ns3::TimingWheelScheduler"));
    if (mpi)
    {
        // MpiInterface::Enable binds ns-3's engine (ns3::DistributedSimulatorImpl);
        // ours is bound after it.
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
        if (engine == "fabric")
        {
            GlobalValue::Bind("SimulatorImplementationType",
                              StringValue("ns3::FabricDistributedSimulatorImpl"));
        }
    }
    else
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
    }
    Time::SetResolution(Time::PS);
    const uint32_t rank = RankPartition::GetLocalRank();
    const uint32_t ranks = RankPartition::GetNRanks();

    Ptr<FatTreeTopologyHelper> fatTree = CreateObject<FatTreeTopologyHelper>();
    fatTree->SetAttribute("K", UintegerValue(k));
    Ptr<FabricTopology> topology = fatTree->CreateTopology();
    Ptr<TopologyGraph> graph = topology->GetGraph();
    std::vector<uint32_t> partition;
    try
    {
        partition = RankPartition::Partition(*graph, ranks, method);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "mpi-fattree-flows: " << e.what() << "\n";
        return 2;
    }
    const RankPartition::Stats stats = RankPartition::GetStats(*graph, partition);

    Ptr<RdmaFabric> fabric;
    if (fabricName == "roce")
    {
        RoceFabricHelper helper;
        helper.SetPartition(partition);
        if (!cc.empty())
        {
            helper.SetCongestionControl(cc);
        }
        fabric = helper.Install(graph, topology->GetRoutes());
    }
    else
    {
        IbFabricHelper helper;
        helper.SetPartition(partition);
        fabric = helper.Install(graph, topology->GetRoutes());
    }

    std::ofstream out(csv + ".rank" + std::to_string(rank));
    out << "id,src,dst,bytes,start_ps,end_ps\n";
    uint64_t completed = 0;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&out, &completed](const RdmaFabric::MessageRecord& r) {
            out << r.id << "," << r.src << "," << r.dst << "," << r.bytes << ","
                << r.start.GetTimeStep() << "," << r.end.GetTimeStep() << "\n";
            ++completed;
        }));
    const uint32_t hosts = graph->GetNHosts();
    ScheduleLambda(MicroSeconds(1), [fabric, hosts, bytes]() {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            fabric->PostWrite(h, (h + hosts / 2) % hosts, bytes, h, 0);
        }
    });
    Simulator::Stop(stop);
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Frames (RoCEv2) or packets and credit updates (InfiniBand) this rank sent to others.
    uint64_t crossed = 0;
    for (uint32_t i = 0; i < ChannelList::GetNChannels(); ++i)
    {
        Ptr<Channel> ch = ChannelList::GetChannel(i);
        if (Ptr<RoceRemoteChannel> r = DynamicCast<RoceRemoteChannel>(ch))
        {
            crossed += r->GetFramesSent();
        }
        else if (Ptr<IbRemoteChannel> b = DynamicCast<IbRemoteChannel>(ch))
        {
            crossed += b->GetMessagesSent();
        }
    }
    std::printf("rank %u/%u: %s, %u nodes (%u hosts), %u cables to other ranks (lookahead %.3f "
                "ns), %llu messages completed here, %llu MPI messages sent, %llu events, "
                "%.3f s\n",
                rank,
                ranks,
                Simulator::GetImplementation()->GetInstanceTypeId().GetName().c_str(),
                stats.nodes[rank],
                stats.hosts[rank],
                stats.remoteCables[rank],
                stats.minCutDelayTicks < 0 ? 0.0 : stats.minCutDelayTicks / 1000.0,
                static_cast<unsigned long long>(completed),
                static_cast<unsigned long long>(crossed),
                static_cast<unsigned long long>(Simulator::GetEventCount()),
                wall);
    if (auto* fab = dynamic_cast<FabricDistributedSimulatorImpl*>(
            PeekPointer(Simulator::GetImplementation())))
    {
        const FabricDistributedSimulatorImpl::Stats& st = fab->GetStats();
        const double windows = st.windows > 0 ? static_cast<double>(st.windows) : 1.0;
        std::printf("rank %u/%u: %llu windows of %.3f ns, %llu frames sent in %llu messages "
                    "(%.2f messages and %.0f bytes per window), %llu frames received, %.3f s "
                    "in MPI (%.2f us per window) of %.3f s\n",
                    rank,
                    ranks,
                    static_cast<unsigned long long>(st.windows),
                    st.lookaheadTicks / 1000.0,
                    static_cast<unsigned long long>(st.framesSent),
                    static_cast<unsigned long long>(st.messagesSent),
                    st.messagesSent / windows,
                    st.bytesSent / windows,
                    static_cast<unsigned long long>(st.framesReceived),
                    st.mpiSeconds,
                    st.mpiSeconds * 1e6 / windows,
                    st.runSeconds);
    }
    Simulator::Destroy();
    if (mpi)
    {
        MpiInterface::Disable();
    }
    return 0;
}
