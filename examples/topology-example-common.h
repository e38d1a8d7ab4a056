/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared body of the topology-* examples: build one topology, route it, install a
 * RoCEv2 fabric, run a small traffic pattern and print the mean hop count (measured
 * from the frames the switches forwarded) and the achieved throughput.
 */
#ifndef TOPOLOGY_EXAMPLE_COMMON_H
#define TOPOLOGY_EXAMPLE_COMMON_H

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <vector>

namespace ns3
{
namespace topology_example
{

/// Frames the hosts put on their links, and finished messages.
struct Meter
{
    uint64_t hostFrames{0};
    uint64_t done{0};
    uint64_t bytes{0};
    Time last;

    void OnTx(Ptr<const Packet>)
    {
        hostFrames++;
    }

    void OnMessage(const RdmaFabric::MessageRecord& r)
    {
        done++;
        bytes += r.bytes;
        last = std::max(last, r.end);
    }
};

/**
 * Parse the command line, run, print. \p topology is the program's default
 * (fattree, torus, mesh, dragonfly). \return the exit code.
 */
inline int
Run(int argc, char* argv[], std::string topology)
{
    uint32_t k = 4;
    std::string dims = "4x4";
    uint32_t p = 2;
    uint32_t a = 4;
    uint32_t h = 2;
    uint32_t g = 9;
    std::string routing = "auto";
    std::string pattern = "permutation";
    uint64_t bytes = 1000000;
    bool pfc = true;
    uint32_t seed = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "fattree, torus, mesh or dragonfly", topology);
    cmd.AddValue("k", "fat-tree arity", k);
    cmd.AddValue("dims", "torus / mesh radices, e.g. 4x4", dims);
    cmd.AddValue("p", "dragonfly hosts per router", p);
    cmd.AddValue("a", "dragonfly routers per group", a);
    cmd.AddValue("h", "dragonfly global cables per router", h);
    cmd.AddValue("g", "dragonfly groups", g);
    cmd.AddValue("routing", "auto, ecmp, updown, dor, minimal, valiant, ugal", routing);
    cmd.AddValue("pattern",
                 "permutation (random derangement), shift (host i -> i + hosts/2; on a "
                 "dragonfly: the next group), alltoall",
                 pattern);
    cmd.AddValue("bytes", "message size per pair (bytes)", bytes);
    cmd.AddValue("pfc", "lossless (PFC) classes", pfc);
    cmd.AddValue("seed", "run number of the permutation", seed);
    cmd.Parse(argc, argv);

    Time::SetResolution(Time::PS);
    RngSeedManager::SetRun(seed);
    Ptr<TopologyGraph> graph;
    if (topology == "fattree")
    {
        Ptr<FatTreeTopologyHelper> th = CreateObject<FatTreeTopologyHelper>();
        th->SetAttribute("K", UintegerValue(k));
        graph = th->Build();
    }
    else if (topology == "torus" || topology == "mesh")
    {
        Ptr<TorusTopologyHelper> th =
            topology == "torus" ? CreateObject<TorusTopologyHelper>()
                                : Ptr<TorusTopologyHelper>(CreateObject<MeshTopologyHelper>());
        th->SetAttribute("Dims", StringValue(dims));
        graph = th->Build();
    }
    else if (topology == "dragonfly")
    {
        Ptr<DragonflyTopologyHelper> th = CreateObject<DragonflyTopologyHelper>();
        th->SetAttribute("P", UintegerValue(p));
        th->SetAttribute("A", UintegerValue(a));
        th->SetAttribute("H", UintegerValue(h));
        th->SetAttribute("G", UintegerValue(g));
        graph = th->Build();
    }
    else
    {
        std::cerr << "--topology=" << topology
                  << " is not allowed (allowed: fattree, torus, mesh, dragonfly)" << std::endl;
        return 1;
    }
    Ptr<RouteTable> routes = RoutingEngine::BuildTable(routing, graph);
    const uint8_t classes = routes->GetNumClasses();
    if (routes->GetPathMode() != RouteTable::PathMode::MINIMAL)
    {
        // Packets of one QP take different paths: place them out of order.
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("SelectiveRepeat"));
    }
    RoceFabricHelper helper;
    helper.SetDeviceAttribute("PfcEnabled", BooleanValue(pfc));
    // Class c travels on priority 3 + c: every class priority is lossless.
    helper.SetMmuAttribute("LosslessPriorities",
                           UintegerValue(pfc ? ((1U << classes) - 1) << 3 : 0));
    Ptr<RoceFabric> fabric = helper.Install(graph, routes);

    Meter meter;
    fabric->AddMessageCallback(MakeCallback(&Meter::OnMessage, &meter));
    const uint32_t n = fabric->GetNHosts();
    for (uint32_t s = 0; s < n; ++s)
    {
        fabric->GetNic(s)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&Meter::OnTx, &meter));
    }
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (pattern == "alltoall")
    {
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (s != d)
                {
                    pairs.emplace_back(s, d);
                }
            }
        }
    }
    else if (pattern == "shift")
    {
        const uint32_t shift = topology == "dragonfly" ? a * p : n / 2;
        for (uint32_t s = 0; s < n; ++s)
        {
            pairs.emplace_back(s, (s + shift) % n);
        }
    }
    else if (pattern == "permutation")
    {
        // Fisher-Yates with an ns-3 stream, then fixed points swapped with a neighbour.
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(7);
        std::vector<uint32_t> dst(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            dst[i] = i;
        }
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(dst[i], dst[rng->GetInteger(0, i)]);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            if (dst[i] == i)
            {
                std::swap(dst[i], dst[(i + 1) % n]);
            }
        }
        for (uint32_t s = 0; s < n; ++s)
        {
            pairs.emplace_back(s, dst[s]);
        }
    }
    else
    {
        std::cerr << "--pattern=" << pattern
                  << " is not allowed (allowed: permutation, shift, alltoall)" << std::endl;
        return 1;
    }
    double routedCables = 0;
    for (const auto& [s, d] : pairs)
    {
        fabric->PostWrite(s, d, bytes, d, 0);
        routedCables += fabric->GetPathHops(s, d) + 1;
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    uint64_t forwarded = 0;
    uint64_t nonMinimal = 0;
    for (const auto& sw : fabric->GetSwitches())
    {
        forwarded += sw->GetForwarded();
        nonMinimal += sw->GetNonMinimalRouted();
    }
    RdmaFabric::Counters c = fabric->GetCounters();
    const double span = meter.last.GetSeconds();
    const double gbps = span > 0 ? meter.bytes * 8.0 / span / 1e9 : 0;
    std::cout << graph->Describe() << "\n"
              << "routing " << routes->GetEngineName() << ", " << unsigned(classes)
              << " class(es), pattern " << pattern << ", " << pairs.size() << " messages of "
              << bytes << " B\n"
              << "finished " << meter.done << "/" << pairs.size() << " by "
              << meter.last.GetMicroSeconds() << " us\n"
              << "mean hop count (cables per frame, measured) "
              << 1.0 + static_cast<double>(forwarded) / meter.hostFrames
              << "; routed mean for the pattern " << routedCables / pairs.size() << "\n"
              << "achieved throughput " << gbps << " Gb/s aggregate, " << gbps / n
              << " Gb/s per host\n"
              << "non-minimal packets " << nonMinimal << ", PFC pauses " << c.pfcPausesSent
              << ", resumes " << c.pfcResumesSent << ", drops " << c.losslessDrops + c.lossyDrops
              << std::endl;
    Simulator::Destroy();
    return meter.done == pairs.size() ? 0 : 2;
}

} // namespace topology_example
} // namespace ns3

#endif // TOPOLOGY_EXAMPLE_COMMON_H
