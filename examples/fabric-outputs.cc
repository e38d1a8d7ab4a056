/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario runner's output files from a plain ns-3 program: a RunRecorder attached
 * to the fabric writes fct.csv, pfc.csv, qlen.csv, drops.csv, topology.csv, ports.csv
 * and summary.json (doc/scenario-runner.md, Outputs), so analysis/ reads a script's run
 * as it reads ai-fabric-sim's.
 *
 *   fabric-outputs [--fabric=rocev2|infiniband] [--out=fabric-outputs-out]
 *                  [--fanin=6] [--bytes=1000000] [--buffer=600000] [--qlenInterval=10us]
 *
 * A leaf-spine of two leaves, two spines and four hosts per leaf; the last --fanin
 * hosts write --bytes each to host 0, an incast whose last hop queues (RoCEv2: switches
 * of 600 KB buffers pause their senders, PFC). The recorder stops the run once every
 * write is done. The
 * outputs (all but summary.json, which holds only what a script's recorder knows)
 * equal ai-fabric-sim's for
 *
 *   ai-fabric-sim --topology=leafspine --leaves=2 --spines=2 --hosts-per-switch=4
 *                 --workload=incast --fanin=6 --bytes=1MB --port-bytes=1 --buffer=600KB
 *   ai-fabric-sim ... (the same) --fabric=infiniband --mtu=4096 (without --buffer)
 *
 * because the program sets what the runner sets by default (SetRunnerDefaults, runner-defaults.h).
 */
#include "runner-defaults.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/leaf-spine-topology-helper.h"
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
    std::string out = "fabric-outputs-out";
    uint32_t fanin = 6;
    uint64_t bytes = 1000000;
    Time qlenInterval = MicroSeconds(10);
    uint64_t buffer = 600000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("fabric", "rocev2 or infiniband", fabricName);
    cmd.AddValue("out", "output directory", out);
    cmd.AddValue("fanin", "hosts writing to host 0 (the last ones)", fanin);
    cmd.AddValue("bytes", "bytes each writes", bytes);
    cmd.AddValue("qlenInterval", "queue sample period of qlen.csv (0: none)", qlenInterval);
    cmd.AddValue("buffer", "RoCEv2 switches' shared buffer, bytes", buffer);
    cmd.Parse(argc, argv);

    try
    {
        SetRunnerDefaults();
        Ptr<LeafSpineTopologyHelper> leafSpine = CreateObject<LeafSpineTopologyHelper>();
        leafSpine->SetAttribute("Leaves", UintegerValue(2));
        leafSpine->SetAttribute("Spines", UintegerValue(2));
        leafSpine->SetAttribute("HostsPerLeaf", UintegerValue(4));
        Ptr<TopologyGraph> graph = leafSpine->Build();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("auto", graph);
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

        // The recorder: its own OutputWriter on --out, the fabric's traces, qlen samples.
        Ptr<RunRecorder> recorder = CreateObject<RunRecorder>();
        recorder->SetAttribute("QueueSampleInterval", TimeValue(qlenInterval));
        recorder->Open(out);
        recorder->Install(fabric);

        const uint32_t n = fabric->GetNHosts();
        for (uint32_t i = 0; i < fanin; ++i)
        {
            fabric->PostWrite(n - 1 - i, 0, bytes, 0, KIND_INCAST);
        }
        // Done once every write finished (and none is pending): the recorder stops the run.
        recorder->AddCompletionCheck(
            [recorder, fanin]() { return recorder->GetFinishedMessages() >= fanin; });
        recorder->WriteTopology();
        recorder->StartQueueSampling();

        Simulator::Stop(Seconds(1));
        Simulator::Run();
        recorder->WritePortBytes();
        const nlohmann::json summary = recorder->WriteSummary(recorder->MakeSummary());
        std::printf("%s: complete %s at %.3f us; fct p50 %s ns, p99 %s ns; %llu PFC pauses; "
                    "files in %s\n",
                    fabricName.c_str(),
                    summary["complete"].get<bool>() ? "yes" : "no",
                    summary["sim_time_s"].get<double>() * 1e6,
                    summary["fct"]["fct_ns"]["p50"].dump().c_str(),
                    summary["fct"]["fct_ns"]["p99"].dump().c_str(),
                    summary["pfc_pauses"].get<unsigned long long>(),
                    out.c_str());
        recorder->Dispose();
        fabric->Dispose();
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fabric-outputs: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
