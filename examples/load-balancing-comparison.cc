/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Load balancing on one fat tree: every host sends one WRITE to a distinct host
 * (a random permutation, the traffic that exposes ECMP hash collisions), once per
 * policy. Prints, per policy, the mean per-flow throughput (ideal FCT / FCT, so 1
 * means line-rate goodput), the p99 FCT slowdown and the reorder statistics.
 *
 *   ./build/examples/load-balancing-comparison --k=8 --bytes=500000
 *
 * Policies: flow ECMP; ECMP with NIC entropy (the sender cycles 16 UDP source
 * ports); per-packet random spraying and round robin; local adaptive routing;
 * flowlets. All but ECMP reorder packets, so receivers use selective repeat;
 * spraying with go-back-N receivers shows what reordering does to IBTA RC.
 */
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/egress-port-policy.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/lambda-callback.h"
#include "ns3/load-balancing-registry.h"
#include "ns3/object-factory.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace ns3;

namespace
{

/// The switch policy --lb names (LoadBalancingRegistry), on its own RNG stream.
Ptr<EgressPortPolicy>
MakePolicy(const std::string& lb, int64_t stream)
{
    ObjectFactory factory(LoadBalancingRegistry::Get(lb).roceEgressPolicy);
    Ptr<EgressPortPolicy> p = factory.Create<EgressPortPolicy>();
    p->AssignStreams(stream);
    return p;
}

void
RunOne(uint32_t k,
       uint64_t bytes,
       const std::string& label,
       const std::string& lb,
       const std::string& recovery,
       uint32_t entropy,
       const std::vector<uint32_t>& dst)
{
    Config::Reset();
    Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue(recovery));
    Config::SetDefault("ns3::RdmaQueuePair::NicEntropy", UintegerValue(entropy));
    Ptr<FatTreeTopologyHelper> topo = CreateObject<FatTreeTopologyHelper>();
    topo->SetAttribute("K", UintegerValue(k));
    Ptr<TopologyGraph> g = topo->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    RoceFabricHelper helper;
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
    int64_t stream = 5000;
    for (const auto& sw : fabric->GetSwitches())
    {
        // Installed here (not with SetEgressPolicy) to give each policy its own stream.
        sw->SetEgressPolicy(MakePolicy(lb, stream++));
    }
    std::vector<double> tput;
    std::vector<double> slowdown;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&](const RdmaFabric::MessageRecord& r) {
            double fct = (r.end - r.start).GetSeconds();
            tput.push_back(r.ideal.GetSeconds() / fct);
            slowdown.push_back(fct / r.ideal.GetSeconds());
        }));
    for (uint32_t s = 0; s < dst.size(); ++s)
    {
        fabric->PostWrite(s, dst[s], bytes, s, 1);
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t retx = 0;
    uint64_t spurious = 0;
    uint64_t ooo = 0;
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        retx += fabric->GetNic(h)->GetRetransmittedPackets();
        spurious += fabric->GetNic(h)->GetSpuriousRetransmissions();
        ooo += fabric->GetNic(h)->GetOutOfOrderPackets();
    }
    Simulator::Destroy();
    double mean = 0;
    for (double t : tput)
    {
        mean += t;
    }
    mean = tput.empty() ? 0 : mean / tput.size();
    std::sort(slowdown.begin(), slowdown.end());
    double p99 = slowdown.empty() ? 0 : slowdown[(slowdown.size() * 99 + 99) / 100 - 1];
    std::printf("%-24s %5zu/%-5zu %8.3f %9.2f %9lu %9lu %10lu %7.1f\n",
                label.c_str(),
                tput.size(),
                dst.size(),
                mean,
                p99,
                static_cast<unsigned long>(retx),
                static_cast<unsigned long>(spurious),
                static_cast<unsigned long>(ooo),
                wall);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 8;
    uint64_t bytes = 500000;
    uint32_t entropy = 16;
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat-tree radix (k^3/4 hosts)", k);
    cmd.AddValue("bytes", "bytes per flow", bytes);
    cmd.AddValue("entropy", "UDP source ports per QP for the NIC-spraying run", entropy);
    cmd.Parse(argc, argv);
    Time::SetResolution(Time::PS);

    uint32_t n = k * k * k / 4;
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(42);
    std::vector<uint32_t> dst(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        dst[i] = i;
    }
    for (uint32_t i = n - 1; i > 0; --i)
    {
        std::swap(dst[i], dst[u->GetInteger(0, i)]);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (dst[i] == i)
        {
            std::swap(dst[i], dst[(i + 1) % n]);
        }
    }
    std::printf("k=%u fat tree, %u hosts, permutation of %lu-byte WRITEs, no CC, PFC on\n",
                k,
                n,
                static_cast<unsigned long>(bytes));
    std::printf("%-24s %11s %8s %9s %9s %9s %10s %7s\n",
                "policy",
                "done",
                "tput",
                "p99-slow",
                "retx",
                "spurious",
                "out-order",
                "wall-s");
    RunOne(k, bytes, "ecmp", "ecmp", "GoBackN", 1, dst);
    RunOne(k, bytes, "ecmp+nic-entropy", "ecmp", "SelectiveRepeat", entropy, dst);
    RunOne(k, bytes, "spray (go-back-N)", "spray", "GoBackN", 1, dst);
    RunOne(k, bytes, "spray", "spray", "SelectiveRepeat", 1, dst);
    RunOne(k, bytes, "roundrobin", "roundrobin", "SelectiveRepeat", 1, dst);
    RunOne(k, bytes, "adaptive", "adaptive", "SelectiveRepeat", 1, dst);
    RunOne(k, bytes, "flowlet", "flowlet", "SelectiveRepeat", 1, dst);
    return 0;
}
