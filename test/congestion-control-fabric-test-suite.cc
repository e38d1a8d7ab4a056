/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion control at fabric level, on the RoCEv2 fabric: DCQCN shares one
 * 100 Gb/s port fairly between two long flows without PFC pauses, and Swift keeps
 * a 64-to-1 incast's bottleneck queue near its flow-scaled target, lossless
 * without a single pause. Figures are in doc/dcqcn.md and doc/swift.md.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/swift-congestion-control.h"
#include "ns3/topology-graph.h"

#include <algorithm>
#include <iostream>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

void
UsePicoseconds()
{
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
}

/// A star: `hosts` hosts on one switch, 100 Gb/s, 1 us cables.
Ptr<TopologyGraph>
Star(uint32_t hosts, uint32_t& switchNode, std::vector<uint32_t>& hostNodes)
{
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    switchNode = g->AddSwitch();
    for (uint32_t i = 0; i < hosts; ++i)
    {
        uint32_t h = g->AddHost();
        g->AddLink(h, switchNode, DataRate("100Gbps"), MicroSeconds(1));
        hostNodes.push_back(h);
    }
    return g;
}

uint32_t
PortTowards(Ptr<TopologyGraph> g, uint32_t node, uint32_t peer)
{
    const auto& ports = g->GetPorts(node);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (ports[i].peer == peer)
        {
            return i;
        }
    }
    return 0;
}

Ptr<RdmaQueuePair>
FindQp(Ptr<RoceFabric> fabric, uint32_t host, uint32_t peer)
{
    for (const auto& qp : fabric->GetNic(host)->GetQueuePairs())
    {
        if (qp->GetPeerHost() == peer)
        {
            return qp;
        }
    }
    return nullptr;
}

} // namespace

/**
 * Two long flows into one 100 Gb/s port (hosts 0 and 1 to host 2 on one switch);
 * flow 1 joins 1 ms after flow 0. With DCQCN ("hpcc" preset, the Mellanox NIC
 * defaults) each flow gets 50 +- 5 Gb/s of wire between 8 and 10 ms and PFC never
 * pauses; without congestion control the port is shared by PFC alone (thousands
 * of pause frames).
 */
class DcqcnFairnessTestCase : public TestCase
{
  public:
    DcqcnFairnessTestCase()
        : TestCase("DCQCN: two flows into one 100G port converge to 50 Gbps each, few pauses")
    {
    }

  private:
    struct Result
    {
        double wireGbps[2];
        uint64_t pauses;
        uint64_t drops;
    };

    Result Run(const std::string& cc, const std::string& preset)
    {
        uint32_t sw = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(3, sw, hosts);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetCongestionControl(cc, preset);
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint64_t bytes = 200000000; // never finishes within 10 ms
        fabric->PostWrite(0, 2, bytes, 0, 0);
        Simulator::Schedule(MilliSeconds(1),
                            [fabric, bytes]() { fabric->PostWrite(1, 2, bytes, 1, 0); });
        uint64_t at8[2] = {0, 0};
        Simulator::Schedule(MilliSeconds(8), [&]() {
            for (uint32_t i = 0; i < 2; ++i)
            {
                at8[i] = FindQp(fabric, 2, i)->GetDeliveredBytes();
            }
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        Result r;
        for (uint32_t i = 0; i < 2; ++i)
        {
            uint64_t b = FindQp(fabric, 2, i)->GetDeliveredBytes() - at8[i];
            // Payload to wire: 1082 wire bytes per 1000-byte packet.
            r.wireGbps[i] = b * 8.0 / 2e-3 / 1e9 * 1082.0 / 1000.0;
        }
        RdmaFabric::Counters k = fabric->GetCounters();
        r.pauses = k.pauseFramesSent;
        r.drops = k.losslessDrops + k.lossyDrops;
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        UsePicoseconds();
        Result d = Run("dcqcn", "hpcc");
        Result n = Run("none", "");
        std::cout << "DCQCN hpcc: " << d.wireGbps[0] << " / " << d.wireGbps[1] << " Gb/s, pauses "
                  << d.pauses << "; none: " << n.wireGbps[0] << " / " << n.wireGbps[1]
                  << " Gb/s, pauses " << n.pauses << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(d.wireGbps[0], 50.0, 5.0, "flow 0 at its fair share");
        NS_TEST_ASSERT_MSG_EQ_TOL(d.wireGbps[1], 50.0, 5.0, "flow 1 at its fair share");
        // Together they fill the port (100 Gb/s of wire), within 5%.
        NS_TEST_ASSERT_MSG_GT(d.wireGbps[0] + d.wireGbps[1], 95.0, "the port stays busy");
        NS_TEST_ASSERT_MSG_GT(n.pauses, 1000, "without CC, PFC holds the port");
        NS_TEST_ASSERT_MSG_LT(d.pauses * 10, n.pauses, "DCQCN: under 1/10 of the pauses");
        NS_TEST_ASSERT_MSG_EQ(d.drops + n.drops, 0, "lossless");
    }
};

/**
 * 64-to-1 incast of 250 KB WRITEs (one switch, 100 Gb/s): Swift ("default" preset)
 * settles at the window where the queue matches its flow-scaled target,
 * cwnd = (BDP + target queue) / 64 ~ 3.3 packets, holds the queue delay there and
 * needs no PFC pause.
 */
class SwiftIncastTestCase : public TestCase
{
  public:
    SwiftIncastTestCase()
        : TestCase("Swift: a 64-to-1 incast holds the queue near target, no pause, no drop")
    {
    }

  private:
    struct Probe
    {
        Ptr<RoceSwitch> sw;
        uint32_t port{0};
        Ptr<RoceFabric> fabric;
        Time firstDone = Time::Max();
        std::vector<double> delaysUs;
        double minCwnd{std::numeric_limits<double>::max()};
        double minSteadyCwnd{std::numeric_limits<double>::max()};
    };

    static void OnCwnd(Probe* p, double, double now)
    {
        p->minCwnd = std::min(p->minCwnd, now);
        if (Simulator::Now() >= MicroSeconds(700) && Simulator::Now() < p->firstDone)
        {
            p->minSteadyCwnd = std::min(p->minSteadyCwnd, now);
        }
    }

    static void Sample(Probe* p)
    {
        if (Simulator::Now() >= MicroSeconds(700) && Simulator::Now() < p->firstDone)
        {
            p->delaysUs.push_back(p->sw->GetQueueBytes(p->port, 3) * 8.0 / 100e9 * 1e6);
        }
        if (p->fabric->GetPendingMessages() > 0)
        {
            Simulator::Schedule(MicroSeconds(1), &SwiftIncastTestCase::Sample, p);
        }
    }

    void DoRun() override
    {
        UsePicoseconds();
        const uint32_t n = 64;
        const uint64_t bytes = 250000;
        uint32_t swNode = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(n + 1, swNode, hosts);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetCongestionControl("swift", "default");
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Probe p;
        p.sw = fabric->GetSwitches()[0];
        p.port = PortTowards(g, swNode, hosts[n]);
        p.fabric = fabric;
        Time lastDone;
        fabric->AddMessageCallback(Callback<void, const RdmaFabric::MessageRecord&>(
            [&p, &lastDone](const RdmaFabric::MessageRecord& r) {
                p.firstDone = std::min(p.firstDone, r.end);
                lastDone = std::max(lastDone, r.end);
            }));
        Ptr<SwiftCongestionControl> swift0;
        for (uint32_t i = 0; i < n; ++i)
        {
            fabric->PostWrite(i, n, bytes, i, 0);
            Ptr<RdmaCongestionControl> cc = FindQp(fabric, i, n)->GetCongestionControl();
            cc->TraceConnectWithoutContext("Cwnd", MakeBoundCallback(&OnCwnd, &p));
            if (i == 0)
            {
                swift0 = DynamicCast<SwiftCongestionControl>(cc);
            }
        }
        Simulator::Schedule(MicroSeconds(1), &SwiftIncastTestCase::Sample, &p);
        Simulator::Run();

        RdmaFabric::Counters k = fabric->GetCounters();
        std::vector<double> d = p.delaysUs;
        std::sort(d.begin(), d.end());
        NS_TEST_ASSERT_MSG_GT(d.size(), 300, "a steady phase of at least 300 us");
        double p50 = d[d.size() / 2];
        double p99 = d[static_cast<std::size_t>(0.99 * (d.size() - 1))];
        // The target at the smallest steady window bounds the allowed fabric delay.
        double target = swift0->GetTargetDelay(p.minSteadyCwnd, 1).GetMicroSeconds();
        double lineRateUs = n * 250.0 * 1082 * 8 / 100e3;
        std::cout << "Swift 64-to-1: queue delay p50 " << p50 << " us, p99 " << p99
                  << " us, target " << target << " us; min cwnd " << p.minCwnd << " (steady "
                  << p.minSteadyCwnd << "); done " << lastDone.GetMicroSeconds()
                  << " us (line rate " << lineRateUs << " us); pauses " << k.pauseFramesSent
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(k.pauseFramesSent, 0, "no PFC pause");
        NS_TEST_ASSERT_MSG_EQ(k.losslessDrops + k.lossyDrops, 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(k.timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(p99, 2 * target, "p99 queue delay within 2x target");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(p50, target, "median queue delay below target");
        // (BDP 48 + target queue ~170 packets) / 64 flows ~ 3.3 packets per flow.
        NS_TEST_ASSERT_MSG_GT(p.minSteadyCwnd, 2.0, "steady window near (BDP + queue)/64");
        NS_TEST_ASSERT_MSG_LT(p.minSteadyCwnd, 5.0, "steady window near (BDP + queue)/64");
        NS_TEST_ASSERT_MSG_LT(lastDone.GetMicroSeconds(),
                              1.02 * lineRateUs,
                              "the port stays busy: done within 2% of line rate");
        Simulator::Destroy();
    }
};

class CongestionControlFabricTestSuite : public TestSuite
{
  public:
    CongestionControlFabricTestSuite()
        : TestSuite("ai-fabric-congestion-control-fabric", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new DcqcnFairnessTestCase, AI_FABRIC_QUICK);
        AddTestCase(new SwiftIncastTestCase, AI_FABRIC_QUICK);
    }
};

static CongestionControlFabricTestSuite g_congestionControlFabricTestSuite;
