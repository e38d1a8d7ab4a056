/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Cable and switch failures from a plain ns-3 program: FaultInjectionHelper on an
 * installed fabric, RunRecorder writing the scenario runner's output files.
 *
 *   fabric-failures [--fabric=rocev2|infiniband] [--out=fabric-failures-out]
 *                   [--link=16] [--linkDown=100us] [--linkUp=0s] [--node=33]
 *                   [--nodeDown=150us] [--bytes=4000000]
 *
 * A k=4 fat-tree (16 hosts, 100 Gb/s, 1 us cables); every host writes bytes / 16 to
 * every other host (nccl-tests' all-to-all, as ai-fabric-sim --workload=alltoall). Cable
 * 16 (edge switch 16 to aggregation switch 18) fails at 100 us and core switch 33 at
 * 150 us: the fabric routes around both (RoCEv2: the switches notice, then their routes
 * converge; InfiniBand: the Subnet Manager re-routes) and the transport resends what the
 * cables lost. The outputs equal ai-fabric-sim's for
 *
 *   ai-fabric-sim --topology=fattree --k=4 --workload=alltoall --bytes=4000000
 *                 --link-failure=16@100us --node-failure=33@150us [--fabric=...]
 *
 * because the program sets what the runner sets by default (SetRunnerDefaults, runner-defaults.h).
 */
#include "runner-defaults.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/fault-injection-helper.h"
#include "ns3/global-value.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/message-kind.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/output-writer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/routing-engine.h"
#include "ns3/run-recorder.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <exception>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string fabricName = "rocev2";
    std::string out = "fabric-failures-out";
    uint32_t link = 16;
    Time linkDown = MicroSeconds(100);
    Time linkUp = Time(0);
    uint32_t node = 33;
    Time nodeDown = MicroSeconds(150);
    uint64_t bytes = 4000000;
    uint64_t buffer = 32000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("fabric", "rocev2 or infiniband", fabricName);
    cmd.AddValue("out", "output directory (the runner's files)", out);
    cmd.AddValue("link", "graph link id of the cable that fails", link);
    cmd.AddValue("linkDown", "when it fails", linkDown);
    cmd.AddValue("linkUp", "when it comes back (0: never)", linkUp);
    cmd.AddValue("node", "switch (graph node id) that fails", node);
    cmd.AddValue("nodeDown", "when it fails", nodeDown);
    cmd.AddValue("bytes", "each host's all-to-all buffer (bytes / 16 to each peer)", bytes);
    cmd.AddValue("buffer", "RoCEv2 switches' shared buffer, bytes", buffer);
    cmd.Parse(argc, argv);

    try
    {
        SetRunnerDefaults();
        // 1. The graph and its routes: a k=4 fat-tree, min-hop ECMP (the topology's own).
        Ptr<FatTreeTopologyHelper> fatTree = CreateObject<FatTreeTopologyHelper>();
        fatTree->SetAttribute("K", UintegerValue(4));
        Ptr<TopologyGraph> graph = fatTree->Build();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("auto", graph);

        // 2. The fabric, 1000-byte packets as the runner's --mtu (InfiniBand: 4096).
        Ptr<RdmaFabric> fabric;
        if (fabricName == "infiniband")
        {
            IbFabricHelper ib;
            ib.SetHcaAttribute("Mtu", UintegerValue(4096));
            fabric = ib.Install(graph, routes);
        }
        else
        {
            RoceFabricHelper roce;
            roce.SetNicAttribute("Mtu", UintegerValue(1000));
            roce.SetMmuAttribute("BufferSize", UintegerValue(buffer));
            fabric = roce.Install(graph, routes);
        }

        // 3. The faults: one cable, then a whole switch (each of its cables).
        FaultInjectionHelper faults;
        faults.FailLink(fabric, link, linkDown, linkUp);
        faults.FailNode(fabric, node, nodeDown);

        // 4. The outputs, then the workload: every host writes to every other.
        Ptr<RunRecorder> recorder = CreateObject<RunRecorder>();
        recorder->Open(out);
        recorder->Install(fabric);
        const uint32_t n = fabric->GetNHosts();
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 1; d < n; ++d)
            {
                fabric->PostWrite(s, (s + d) % n, bytes / n, 0, KIND_ALLTOALL);
            }
        }
        const uint64_t messages = n * (n - 1);
        recorder->AddCompletionCheck(
            [recorder, messages]() { return recorder->GetFinishedMessages() >= messages; });
        recorder->WriteTopology();
        recorder->StartQueueSampling();

        Simulator::Stop(Seconds(1));
        Simulator::Run();
        const nlohmann::json summary = recorder->WriteSummary(recorder->MakeSummary());
        std::printf("complete: %s, %llu messages, %llu link_down drops, %llu retransmissions\n",
                    summary["complete"].get<bool>() ? "yes" : "no",
                    static_cast<unsigned long long>(recorder->GetFinishedMessages()),
                    summary["drops"]["link_down"].get<unsigned long long>(),
                    summary["retransmissions"].get<unsigned long long>());
        for (const auto& f : summary["failures"])
        {
            std::printf("link %u down at %lld ns, routed around at %s ns, %llu packets lost\n",
                        f["link"].get<unsigned>(),
                        f["down_ns"].get<long long>(),
                        f["converged_ns"].dump().c_str(),
                        f["link_down_drops"].get<unsigned long long>());
        }
        recorder->Dispose();
        fabric->Dispose();
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fabric-failures: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
