/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A training job from plain ns-3 code, without the scenario runner: a leaf-spine of
 * one-GPU hosts (LeafSpineTopologyHelper), a RoCEv2 fabric on it (RoceFabricHelper),
 * and a TrainingWorkload running a model file's iterations (compute, TP/PP/DP/EP
 * communication, 1F1B) with its Options; then training.csv (one row per iteration and
 * pipeline stage) and the summary the runner puts in summary.json's "training".
 *
 *   training-job [--training=examples/gpt-tiny.json] [--out=training-job]
 *                [--leaves=4] [--spines=2] [--hosts-per-leaf=8] [--mtu=4096]
 *                [--chunk=524288] [--channels=2] [--iterations=1]
 *
 * The same configuration through the runner writes the same training.csv:
 *   ai-fabric-sim --workload=training --training=examples/gpt-tiny.json
 *                 --topology=leafspine --leaves=4 --spines=2 --hosts-per-switch=8
 *                 --mtu=4096 --buffer=32MiB --chunk=524288 --channels=2 --scheduler=map
 * (the runner's defaults that differ from the helpers': its MTU (1000), its switch buffer
 * (32 MB, where SharedBufferMmu's is 32 MiB), its chunk and channels (the protocol's step,
 * NCCL's count) and its event list; test/python/test_examples_training.py checks it).
 */
#include "ns3/command-line.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string training = "examples/gpt-tiny.json";
    std::string out = "training-job";
    uint32_t leaves = 4;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 8;
    uint32_t mtu = 4096;
    uint64_t chunk = 512 * 1024;
    uint32_t channels = 2;
    uint32_t iterations = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("training", "the model file (JSON or ASTRA-sim/SimAI text)", training);
    cmd.AddValue("out", "directory for training.csv", out);
    cmd.AddValue("leaves", "leaf switches", leaves);
    cmd.AddValue("spines", "spine switches", spines);
    cmd.AddValue("hosts-per-leaf", "hosts (one GPU each) per leaf", hostsPerLeaf);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", mtu);
    cmd.AddValue("chunk", "every collective's pipeline chunk, bytes", chunk);
    cmd.AddValue("channels", "every collective's channels", channels);
    cmd.AddValue("iterations", "iterations, unless the model file gives them", iterations);
    cmd.Parse(argc, argv);

    // Picosecond resolution: a byte at 100 Gb/s is 80 ps.
    Time::SetResolution(Time::PS);

    // The topology: a graph of hosts, switches and cables (100 Gb/s, 1 us by default).
    Ptr<LeafSpineTopologyHelper> topology = CreateObject<LeafSpineTopologyHelper>();
    topology->SetAttribute("Leaves", UintegerValue(leaves));
    topology->SetAttribute("Spines", UintegerValue(spines));
    topology->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    Ptr<TopologyGraph> graph = topology->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable(RoutingEngine::AutoName(*graph), graph);

    // The fabric: RoCEv2 NICs and switches (PFC on, the helpers' defaults otherwise).
    RoceFabricHelper fabricHelper;
    fabricHelper.SetNicAttribute("Mtu", UintegerValue(mtu));
    Ptr<RoceFabric> fabric = fabricHelper.Install(graph, routes);

    // The training job: its options, then Setup on the fabric's first tp x pp x dp hosts.
    TrainingWorkload::Options options;
    options.file = training;
    options.iterations = iterations;
    options.chunk = chunk;
    options.channels = channels;
    Ptr<TrainingWorkload> job = CreateObject<TrainingWorkload>();
    try
    {
        job->Setup(options, fabric);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "training-job: " << e.what() << std::endl;
        return 2;
    }
    job->Start();
    Simulator::Run();

    std::filesystem::create_directories(out);
    const bool written = job->WriteCsv(out);
    const nlohmann::json summary = job->ToJson();
    std::printf("training: %s, complete %s, %zu iterations, mean iteration %.3f us\n",
                training.c_str(),
                job->IsFinished() ? "yes" : "no",
                summary["iterations"].size(),
                summary["iteration_ns"]["mean"].get<double>() / 1e3);
    job->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    if (!written)
    {
        std::cerr << "training-job: cannot write " << out << "/training.csv" << std::endl;
        return 1;
    }
    return 0;
}
