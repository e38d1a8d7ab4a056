/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A PFC storm and the PFC watchdog that mitigates it, from a plain ns-3 program:
 * FaultInjectionHelper stalls a NIC's receive pipeline and installs the watchdog,
 * RunRecorder writes the scenario runner's output files.
 *
 *   pfc-storm-watchdog [--out=pfc-storm-watchdog-out] [--host=0] [--start=20us]
 *                      [--end=1ms] [--detect=50us] [--restore=0s] [--action=Drop]
 *                      [--fanin=3] [--bytes=2000000]
 *
 * A leaf-spine of two leaves, one spine and four hosts per leaf (RoCEv2, PFC on
 * priority 3). Hosts 7, 6 and 5 each write 2 MB to host 0 (an incast); host 0's NIC
 * stops taking frames from 20 us to 1 ms, so it pauses its leaf port without a break.
 * The watchdog sees that port paused for DetectionTime, drops what it queues for host 0
 * (--action=Drop) until the pauses have ended for RestorationTime, and the writers
 * resend. --detect=0 runs without a watchdog: the writers wait for the NIC instead.
 * The outputs equal ai-fabric-sim's for
 *
 *   ai-fabric-sim --topology=leafspine --leaves=2 --spines=1 --hosts-per-switch=4
 *                 --workload=incast --fanin=3 --bytes=2MB --pfc-storm=0@20us-1ms
 *                 --pfc-watchdog=50us
 *
 * because the program sets what the runner sets by default (SetRunnerDefaults, runner-defaults.h).
 */
#include "runner-defaults.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/fault-injection-helper.h"
#include "ns3/global-value.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/message-kind.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/output-writer.h"
#include "ns3/pfc-watchdog.h"
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
    std::string out = "pfc-storm-watchdog-out";
    uint32_t host = 0;
    Time start = MicroSeconds(20);
    Time end = MilliSeconds(1);
    Time detect = MicroSeconds(50);
    Time restore = Time(0);
    std::string action = "Drop";
    uint32_t fanin = 3;
    uint64_t bytes = 2000000;
    uint64_t buffer = 32000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("out", "output directory (the runner's files)", out);
    cmd.AddValue("host", "host whose NIC stalls", host);
    cmd.AddValue("start", "when it stalls", start);
    cmd.AddValue("end", "when it recovers (0: never)", end);
    cmd.AddValue("detect", "the watchdog's DetectionTime (0: no watchdog)", detect);
    cmd.AddValue("restore", "its RestorationTime (0: twice DetectionTime)", restore);
    cmd.AddValue("action", "its Action: Drop or Forward", action);
    cmd.AddValue("fanin", "hosts writing to host 0 (the last ones)", fanin);
    cmd.AddValue("bytes", "bytes each writes", bytes);
    cmd.AddValue("buffer", "RoCEv2 switches' shared buffer, bytes", buffer);
    cmd.Parse(argc, argv);

    try
    {
        SetRunnerDefaults();
        // 1. The graph, its routes and the RoCEv2 fabric (1000-byte packets, PFC on).
        Ptr<LeafSpineTopologyHelper> leafSpine = CreateObject<LeafSpineTopologyHelper>();
        leafSpine->SetAttribute("Leaves", UintegerValue(2));
        leafSpine->SetAttribute("Spines", UintegerValue(1));
        leafSpine->SetAttribute("HostsPerLeaf", UintegerValue(4));
        Ptr<TopologyGraph> graph = leafSpine->Build();
        RoceFabricHelper roce;
        roce.SetNicAttribute("Mtu", UintegerValue(1000));
        roce.SetMmuAttribute("BufferSize", UintegerValue(buffer));
        Ptr<RdmaFabric> fabric = roce.Install(graph, RoutingEngine::BuildTable("auto", graph));

        // 2. The storm and the watchdog.
        FaultInjectionHelper faults;
        faults.PfcStorm(fabric, host, start, end);
        Ptr<PfcWatchdog> watchdog;
        if (detect > Time(0))
        {
            faults.SetPfcWatchdogAttribute("DetectionTime", TimeValue(detect));
            faults.SetPfcWatchdogAttribute("RestorationTime", TimeValue(restore));
            faults.SetPfcWatchdogAttribute("Action", StringValue(action));
            watchdog = faults.InstallPfcWatchdog(fabric);
        }

        // 3. The outputs, then the incast: the last hosts write to host 0.
        Ptr<RunRecorder> recorder = CreateObject<RunRecorder>();
        recorder->Open(out);
        recorder->Install(fabric);
        const uint32_t n = fabric->GetNHosts();
        for (uint32_t i = 0; i < fanin; ++i)
        {
            fabric->PostWrite(n - 1 - i, 0, bytes, 0, KIND_INCAST);
        }
        recorder->AddCompletionCheck(
            [recorder, fanin]() { return recorder->GetFinishedMessages() >= fanin; });
        recorder->WriteTopology();
        recorder->StartQueueSampling();

        Simulator::Stop(Seconds(1));
        Simulator::Run();
        nlohmann::json summary = recorder->MakeSummary();
        if (watchdog)
        {
            summary["pfc_watchdog_events"] = RunRecorder::WatchdogJson(*watchdog);
            for (const PfcWatchdog::Event& e : watchdog->GetEvents())
            {
                std::printf("%.3f us: switch %u port %u priority %u: %s\n",
                            e.time.GetSeconds() * 1e6,
                            e.node,
                            e.port,
                            static_cast<unsigned>(e.prio),
                            e.storm ? "storm detected" : "restored");
            }
        }
        summary = recorder->WriteSummary(summary);
        std::printf("complete: %s at %.3f us, %llu PFC pauses, %llu watchdog drops\n",
                    summary["complete"].get<bool>() ? "yes" : "no",
                    summary["sim_time_s"].get<double>() * 1e6,
                    summary["pfc_pauses"].get<unsigned long long>(),
                    summary["drops"]["pfc_watchdog"].get<unsigned long long>());
        if (watchdog)
        {
            watchdog->Dispose();
        }
        recorder->Dispose();
        fabric->Dispose();
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "pfc-storm-watchdog: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
