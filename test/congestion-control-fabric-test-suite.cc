/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion control at fabric level, on the RoCEv2 fabric: DCQCN shares one
 * 100 Gb/s port fairly between two long flows without PFC pauses, and Swift keeps
 * a 64-to-1 incast's bottleneck queue near its flow-scaled target with 4 KB
 * packets, pacing below one packet per RTT, lossless without a single pause; TIMELY
 * shares a 100 Gb/s port between two flows with the queue below T_high. Figures are in
 * doc/dcqcn.md, doc/swift.md and doc/timely.md.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/swift-congestion-control.h"
#include "ns3/timely-congestion-control.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

/// A star: `hosts` hosts on one switch, `rate` (100 Gb/s), 1 us cables.
Ptr<TopologyGraph>
Star(uint32_t hosts,
     uint32_t& switchNode,
     std::vector<uint32_t>& hostNodes,
     DataRate rate = DataRate("100Gbps"))
{
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    switchNode = g->AddSwitch();
    for (uint32_t i = 0; i < hosts; ++i)
    {
        uint32_t h = g->AddHost();
        g->AddLink(h, switchNode, rate, MicroSeconds(1));
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

    Result Run(const std::string& cc,
               const std::string& preset,
               DataRate rate = DataRate("100Gbps"))
    {
        uint32_t sw = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(3, sw, hosts, rate);
        if (cc == "dcqcn")
        {
            // The preset's switch side (ECN marking), as the scenario runner applies it.
            for (const auto& [name, value] : DcqcnCongestionControl::GetSwitchPreset(preset))
            {
                Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
            }
        }
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetCongestionControl(cc, preset);
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint64_t bytes = 200000000; // never finishes within 10 ms
        fabric->PostWrite(0, 2, bytes, 0, 0);
        ScheduleLambda(MilliSeconds(1),
                       [fabric, bytes]() { fabric->PostWrite(1, 2, bytes, 1, 0); });
        uint64_t at8[2] = {0, 0};
        ScheduleLambda(MilliSeconds(8), [&]() {
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
        r.pauses = k.pfcPausesSent;
        r.drops = k.losslessDrops + k.lossyDrops;
        Simulator::Destroy();
        Config::Reset();
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
        ReportValidation("dcqcn-hpcc-100g-2flows-min-gbps", std::min(d.wireGbps[0], d.wireGbps[1]));
        // Zhu et al. 2015 (SIGCOMM): flows converge to their fair share at 40 Gb/s with
        // the paper's parameters (sender and switch marking: the 'paper' preset).
        Result p = Run("dcqcn", "paper", DataRate("40Gbps"));
        std::cout << "DCQCN paper, 40G: " << p.wireGbps[0] << " / " << p.wireGbps[1]
                  << " Gb/s, pauses " << p.pauses << std::endl;
        ReportValidation("dcqcn-paper-40g-2flows-min-gbps", std::min(p.wireGbps[0], p.wireGbps[1]));
        NS_TEST_ASSERT_MSG_EQ_TOL(p.wireGbps[0], 20.0, 2.0, "paper, 40G: flow 0 at 20 Gb/s");
        NS_TEST_ASSERT_MSG_EQ_TOL(p.wireGbps[1], 20.0, 2.0, "paper, 40G: flow 1 at 20 Gb/s");
        NS_TEST_ASSERT_MSG_EQ(p.drops, 0, "paper, 40G: lossless");
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
 * 64-to-1 incast of 128-packet WRITEs (one switch, 100 Gb/s) with 4096-byte
 * packets, the MTU RoCE NICs commonly use. Swift settles where
 * 64 x cwnd x wire bytes = line rate x target(cwnd). With the "default" preset
 * (target ~24.6 us) that is cwnd ~1.15: no pacing. With BaseTarget 5 us
 * (fs_range 25 us, target ~15 us) it is cwnd ~0.7: windows go below one packet
 * and every such frame waits its pacing gap. Both keep the queue near target,
 * with no PFC pause and no drop.
 */
class SwiftIncastTestCase : public TestCase
{
  public:
    SwiftIncastTestCase()
        : TestCase("Swift: a 64-to-1 incast with 4 KB MTU paces below cwnd 1, holds the queue "
                   "near target, no pause, no drop")
    {
    }

  private:
    /// Per sender: its controller and the previous frame it put on the wire.
    struct Sender
    {
        Ptr<RdmaCongestionControl> cc;
        Time lastTx;
        uint64_t lastRateBps{0}; //!< pacing rate right after the previous frame
        bool sent{false};
    };

    struct Probe
    {
        Ptr<RoceSwitch> sw;
        uint32_t port{0};
        Ptr<RoceFabric> fabric;
        uint64_t lineRateBps{0};
        uint32_t wireBytes{0};
        Time firstDone = Time::Max();
        std::vector<double> delaysUs;
        double minCwnd{std::numeric_limits<double>::max()};
        double minSteadyCwnd{std::numeric_limits<double>::max()};
        uint64_t cwndBelowOne{0}; //!< Cwnd trace updates below one packet
        std::vector<Sender> senders;
        // Frames whose previous frame was paced (rate below line rate).
        uint64_t pacedGaps{0};
        uint64_t pacedGapsTooShort{0}; //!< gap shorter than wire bytes / paced rate
        double pacedGapSumUs{0};
        double pacedRateSumGbps{0};
    };

    static void OnCwnd(Probe* p, double, double now)
    {
        p->minCwnd = std::min(p->minCwnd, now);
        if (now < 1.0)
        {
            p->cwndBelowOne++;
        }
        if (Simulator::Now() >= MicroSeconds(700) && Simulator::Now() < p->firstDone)
        {
            p->minSteadyCwnd = std::min(p->minSteadyCwnd, now);
        }
    }

    /// A sender's frame starts on the wire: if its previous frame left under pacing,
    /// the gap must be at least that frame's wire time at the paced rate.
    static void OnTx(Probe* p, uint32_t i, Ptr<const Packet>)
    {
        Sender& s = p->senders[i];
        Time now = Simulator::Now();
        if (s.sent && s.lastRateBps > 0 && s.lastRateBps < p->lineRateBps)
        {
            double gapUs = (now - s.lastTx).GetSeconds() * 1e6;
            double pacedUs = p->wireBytes * 8.0 / s.lastRateBps * 1e6;
            p->pacedGaps++;
            p->pacedGapSumUs += gapUs;
            p->pacedRateSumGbps += s.lastRateBps / 1e9;
            // 1 ns slack for the picosecond rounding of the pacer's tx time.
            if (gapUs < pacedUs - 1e-3)
            {
                p->pacedGapsTooShort++;
            }
        }
        s.sent = true;
        s.lastTx = now;
        s.lastRateBps = s.cc->GetRate().GetBitRate();
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

    struct Result
    {
        double p50Us, p99Us, targetUs, minCwnd, minSteadyCwnd;
        uint64_t cwndBelowOne, pacedGaps, pacedGapsTooShort;
        double meanPacedGapUs, meanPacedRateGbps;
        double doneUs, lineRateUs;
        std::size_t samples;
        uint64_t pauses, drops, timeouts;
    };

    /// The incast with the "default" preset and BaseTarget `baseTarget`.
    Result Run(Time baseTarget)
    {
        const uint32_t n = 64;
        const uint32_t mtu = 4096;
        const uint32_t packets = 128;
        const uint64_t bytes = packets * mtu;
        uint32_t swNode = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(n + 1, swNode, hosts);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        // The figures below were calibrated with an ACK per packet; with the default
        // coalescing (AckInterval 10) the start-up's coalesced ACKs move the 5 us run's
        // trajectory (done 2831 us instead of 2794, 3.4% above line rate): this test is
        // about Swift's pacing and target, so it keeps per-packet ACKs.
        Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(1));
        RoceFabricHelper helper;
        helper.SetNicAttribute("Mtu", UintegerValue(mtu));
        helper.SetCongestionControl("swift", "default");
        helper.SetCongestionControlAttribute("BaseTarget", TimeValue(baseTarget));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Probe p;
        p.sw = fabric->GetSwitches()[0];
        p.port = PortTowards(g, swNode, hosts[n]);
        p.fabric = fabric;
        p.lineRateBps = 100000000000ULL;
        p.wireBytes = fabric->GetNic(0)->GetFullPacketWireBytes();
        p.senders.resize(n);
        Time lastDone;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
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
            p.senders[i].cc = cc;
            fabric->GetNic(i)->GetDevice()->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeBoundCallback(&OnTx, &p, i));
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
        Result r{};
        r.samples = d.size();
        if (!d.empty())
        {
            r.p50Us = d[d.size() / 2];
            r.p99Us = d[static_cast<std::size_t>(0.99 * (d.size() - 1))];
        }
        // The target at the smallest steady window bounds the allowed fabric delay.
        r.targetUs = swift0->GetTargetDelay(p.minSteadyCwnd, 1).GetMicroSeconds();
        r.minCwnd = p.minCwnd;
        r.minSteadyCwnd = p.minSteadyCwnd;
        r.cwndBelowOne = p.cwndBelowOne;
        r.pacedGaps = p.pacedGaps;
        r.pacedGapsTooShort = p.pacedGapsTooShort;
        r.meanPacedGapUs = p.pacedGaps ? p.pacedGapSumUs / p.pacedGaps : 0;
        r.meanPacedRateGbps = p.pacedGaps ? p.pacedRateSumGbps / p.pacedGaps : 0;
        r.doneUs = lastDone.GetSeconds() * 1e6;
        r.lineRateUs = n * packets * p.wireBytes * 8.0 / 100e3;
        r.pauses = k.pfcPausesSent;
        r.drops = k.losslessDrops + k.lossyDrops;
        r.timeouts = k.timeouts;
        std::cout << "Swift 64-to-1, MTU " << mtu << " (" << p.wireBytes << " B wire), BaseTarget "
                  << baseTarget.GetMicroSeconds() << " us: queue delay p50 " << r.p50Us
                  << " us, p99 " << r.p99Us << " us, target " << r.targetUs << " us; min cwnd "
                  << r.minCwnd << " (steady " << r.minSteadyCwnd << "), " << r.cwndBelowOne
                  << " updates below 1; paced gaps " << r.pacedGaps << " (mean " << r.meanPacedGapUs
                  << " us at mean " << r.meanPacedRateGbps << " Gb/s, too short "
                  << r.pacedGapsTooShort << "); done " << r.doneUs << " us (line rate "
                  << r.lineRateUs << " us); pauses " << r.pauses << ", drops " << r.drops
                  << std::endl;
        Simulator::Destroy();
        Config::Reset();
        return r;
    }

    /// What both runs must show: queue near target, lossless, no pause, port busy.
    void CheckCommon(const Result& r)
    {
        NS_TEST_ASSERT_MSG_GT(r.samples, 300, "a steady phase of at least 300 us");
        NS_TEST_ASSERT_MSG_EQ(r.pauses, 0, "no PFC pause");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(r.timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.p99Us, 2 * r.targetUs, "p99 queue delay within 2x target");
        // Within 5% of the target at the smallest steady window (additive increase of
        // 64 packets per RTT overshoots it between decreases).
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.p50Us, 1.05 * r.targetUs, "median queue delay near target");
        NS_TEST_ASSERT_MSG_LT(r.doneUs,
                              1.03 * r.lineRateUs,
                              "the port stays busy: done within 3% of line rate");
        NS_TEST_ASSERT_MSG_EQ(r.pacedGapsTooShort, 0, "every paced frame waits its pacing gap");
    }

    void DoRun() override
    {
        UsePicoseconds();
        // Fixed point: 64 x cwnd x wire = line rate x target(cwnd). "default"
        // (10 us + 1 us/hop + flow scaling): target ~24.6 us -> cwnd ~1.15, no pacing.
        Result def = Run(MicroSeconds(10));
        ReportValidation("swift-incast-64-queue-p50-us", def.p50Us);
        ReportValidation("swift-incast-64-queue-p50-us.expected", def.targetUs);
        CheckCommon(def);
        NS_TEST_ASSERT_MSG_GT(def.minSteadyCwnd, 1.0, "default target: fixed point ~1.15");
        NS_TEST_ASSERT_MSG_LT(def.minSteadyCwnd, 1.4, "default target: fixed point ~1.15");
        NS_TEST_ASSERT_MSG_EQ(def.pacedGaps, 0, "default target: never paced");
        // BaseTarget 5 us (fs_range 25 us): target ~15 us -> cwnd ~0.7, paced.
        Result low = Run(MicroSeconds(5));
        CheckCommon(low);
        NS_TEST_ASSERT_MSG_LT(low.minSteadyCwnd, 0.9, "5 us target: steady cwnd below 1");
        NS_TEST_ASSERT_MSG_GT(low.pacedGaps, 100, "5 us target: frames leave paced");
        NS_TEST_ASSERT_MSG_LT(low.meanPacedRateGbps, 100.0 / 64, "paced below the fair share");
    }
};

/**
 * Swift's endpoint window (Kumar et al. 2020, section 3.1): one 4 MB WRITE over one
 * 100 Gb/s switch. The receiver NIC's host model (RoceNic HostDelay, HostDrainRate)
 * delays the data; its ACKs echo that endpoint delay (IPv4 Identification) and the
 * sender splits it off the RTT. Without host delay, and with 8 us of it (below
 * EndpointTarget 10 us), the endpoint window never binds and the fabric window is not
 * cut although the RTT grew by 8 us (the fabric delay excludes the host's); with 30 us
 * (above the target, and independent of the window) the endpoint window binds and
 * falls toward MinCwnd; with a host draining at 25 Gb/s (a NIC receive queue) it binds and
 * holds the rate near 25 Gb/s, the fabric window again uncut.
 */
class SwiftEndpointWindowTestCase : public TestCase
{
  public:
    SwiftEndpointWindowTestCase()
        : TestCase("Swift: the endpoint window binds when the receiver's host delay is raised")
    {
    }

  private:
    struct Result
    {
        uint32_t acks{0};          //!< Cwnd updates seen
        uint32_t endpointBinds{0}; //!< updates with endpoint < fabric window
        double fabricAtEnd{0};     //!< fabric window when the WRITE completed
        double endpointAtEnd{0};   //!< endpoint window then
        double initialCwnd{0};     //!< fabric window at start (one BDP)
        double doneUs{0};          //!< completion time (0: not within 3 ms)
    };

    static Result Run(Time hostDelay, DataRate drain)
    {
        uint32_t swNode = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(2, swNode, hosts);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetCongestionControl("swift", "default");
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        fabric->GetNic(1)->SetAttribute("HostDelay", TimeValue(hostDelay));
        fabric->GetNic(1)->SetAttribute("HostDrainRate", DataRateValue(drain));
        Result r;
        fabric->PostWrite(0, 1, 4000000, 0, 0);
        Ptr<SwiftCongestionControl> swift =
            DynamicCast<SwiftCongestionControl>(FindQp(fabric, 0, 1)->GetCongestionControl());
        r.initialCwnd = swift->GetFabricCwnd();
        swift->TraceConnectWithoutContext(
            "Cwnd",
            // A plain pointer: a Ptr captured by its own trace's callback would keep the
            // controller alive for ever (a reference cycle).
            MakeLambdaCallback<void, double, double>([&r, cc = PeekPointer(swift)](double, double) {
                r.acks++;
                r.endpointBinds += cc->GetEndpointCwnd() < cc->GetFabricCwnd() ? 1 : 0;
                r.fabricAtEnd = cc->GetFabricCwnd();
                r.endpointAtEnd = cc->GetEndpointCwnd();
            }));
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&r](const RdmaFabric::MessageRecord& m) { r.doneUs = m.end.GetSeconds() * 1e6; }));
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const Result off = Run(Time(0), DataRate(0));
        const Result low = Run(MicroSeconds(8), DataRate(0));
        const Result delay = Run(MicroSeconds(30), DataRate(0));
        const Result drain = Run(Time(0), DataRate("25Gbps"));
        for (const auto& [name, x] : {std::pair{"no host delay", off},
                                      {"8 us", low},
                                      {"30 us", delay},
                                      {"25 Gb/s drain", drain}})
        {
            std::cout << "Swift 4 MB, " << name << ": " << x.acks << " updates, endpoint binds in "
                      << x.endpointBinds << "; at the end fabric " << x.fabricAtEnd << " endpoint "
                      << x.endpointAtEnd << " packets (start " << x.initialCwnd << "); done "
                      << x.doneUs << " us\n";
        }
        // About 4,100 packets, one ACK per AckInterval (10) of them.
        NS_TEST_ASSERT_MSG_GT(off.acks, 300u, "ACKs drive the windows");
        NS_TEST_ASSERT_MSG_EQ(off.endpointBinds, 0u, "no host delay: the endpoint never binds");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(off.endpointAtEnd, off.fabricAtEnd, "endpoint >= fabric");
        // 8 us host delay, below the 10 us endpoint target: the RTT (~4.2 us unloaded)
        // grows past the 11 us fabric target, but the echoed endpoint delay is taken off.
        NS_TEST_ASSERT_MSG_EQ(low.endpointBinds, 0u, "8 us: the endpoint never binds");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(low.fabricAtEnd,
                                    low.initialCwnd,
                                    "8 us: the host's delay does not cut the fabric window");
        NS_TEST_ASSERT_MSG_GT(low.doneUs, 0.0, "8 us: done");
        // Window-limited, not cut: MaxCwnd (2 x the 4.2 us fabric BDP) per ~12 us RTT.
        NS_TEST_ASSERT_MSG_LT(low.doneUs, 800.0, "8 us: the window is not cut");
        // 30 us host delay: 3 x the endpoint target, whatever the window.
        NS_TEST_ASSERT_MSG_GT(delay.endpointBinds, delay.acks / 2, "the endpoint window binds");
        NS_TEST_ASSERT_MSG_LT(delay.endpointAtEnd, 0.05, "30 us: endpoint falls toward MinCwnd");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(delay.fabricAtEnd,
                                    delay.initialCwnd,
                                    "30 us: the host's delay does not cut the fabric window");
        // A host draining at a quarter of the line rate: its NIC queue is the endpoint
        // delay; the endpoint window binds and the WRITE takes about 4 MB / 25 Gb/s.
        NS_TEST_ASSERT_MSG_GT(drain.endpointBinds, drain.acks / 2, "drain: endpoint binds");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(drain.fabricAtEnd,
                                    drain.initialCwnd,
                                    "drain: fabric window not cut");
        NS_TEST_ASSERT_MSG_GT(drain.doneUs, 1280.0, "drain: no faster than 25 Gb/s");
        NS_TEST_ASSERT_MSG_LT(drain.doneUs, 1500.0, "drain: the host stays busy");
        NS_TEST_ASSERT_MSG_LT(off.doneUs, 400.0, "no host model: about line rate");
    }
};

/**
 * TIMELY (Mittal et al. 2015): two long flows (hosts 0 and 1 to host 2 on one
 * switch), flow 1 starting GAP after flow 0. With the 'hpcc' preset (the attribute
 * defaults, one update per round trip) at 100 Gb/s the bottleneck's queueing delay
 * stays below T_high (in fact near T_low: above T_low the rising RTT's positive
 * gradient cuts the rates), nothing is dropped or paused, and the two flows share the
 * port near 50/50. With the 'paper' preset at 10 Gb/s (one update per 16 KB segment)
 * the queue is as small, but a flow's updates come per segment, so the faster flow
 * rises faster and the shares drift apart (Zhu et al., CoNEXT 2016: TIMELY can settle
 * at an arbitrarily unfair point): measured and printed, not asserted.
 */
class TimelyFairnessTestCase : public TestCase
{
  public:
    TimelyFairnessTestCase()
        : TestCase("TIMELY: two flows into one port, queueing delay below T_high, lossless, "
                   "near fair share with the hpcc preset")
    {
    }

  private:
    struct Probe
    {
        Ptr<RoceSwitch> sw;
        uint32_t port{0};
        double rateBps{100e9};        //!< the bottleneck's rate
        std::vector<double> delaysUs; //!< queueing delay samples from 2 ms on
    };

    static void Sample(Probe* p)
    {
        if (Simulator::Now() >= MilliSeconds(2))
        {
            p->delaysUs.push_back(p->sw->GetQueueBytes(p->port, 3) * 8.0 / p->rateBps * 1e6);
        }
        Simulator::Schedule(MicroSeconds(1), &TimelyFairnessTestCase::Sample, p);
    }

    struct Result
    {
        double wireGbps[2]; //!< each flow's wire rate over the last 2 ms
        double p50Us, p99Us, maxUs;
        uint64_t pauses, drops, updates;
    };

    Result Run(Time gap, const std::string& preset, DataRate rate, Time stop)
    {
        const Time from = stop - MilliSeconds(2);
        uint32_t swNode = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(3, swNode, hosts, rate);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetCongestionControl("timely", preset);
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Probe p;
        p.sw = fabric->GetSwitches()[0];
        p.port = PortTowards(g, swNode, hosts[2]);
        p.rateBps = static_cast<double>(rate.GetBitRate());
        const uint64_t bytes = 1000000000; // never finishes within the run
        fabric->PostWrite(0, 2, bytes, 0, 0);
        ScheduleLambda(gap, [fabric, bytes]() { fabric->PostWrite(1, 2, bytes, 1, 0); });
        uint64_t atFrom[2] = {0, 0};
        ScheduleLambda(from, [&]() {
            for (uint32_t i = 0; i < 2; ++i)
            {
                atFrom[i] = FindQp(fabric, 2, i)->GetDeliveredBytes();
            }
        });
        Simulator::Schedule(MicroSeconds(1), &TimelyFairnessTestCase::Sample, &p);
        Simulator::Stop(stop);
        Simulator::Run();
        Result r{};
        for (uint32_t i = 0; i < 2; ++i)
        {
            uint64_t b = FindQp(fabric, 2, i)->GetDeliveredBytes() - atFrom[i];
            // Payload to wire: 1082 wire bytes per 1000-byte packet.
            r.wireGbps[i] = b * 8.0 / 2e-3 / 1e9 * 1082.0 / 1000.0;
            Ptr<TimelyCongestionControl> cc =
                DynamicCast<TimelyCongestionControl>(FindQp(fabric, i, 2)->GetCongestionControl());
            r.updates += cc->GetUpdates();
        }
        std::vector<double> d = p.delaysUs;
        std::sort(d.begin(), d.end());
        r.p50Us = d[d.size() / 2];
        r.p99Us = d[static_cast<std::size_t>(0.99 * (d.size() - 1))];
        r.maxUs = d.back();
        RdmaFabric::Counters k = fabric->GetCounters();
        r.pauses = k.pfcPausesSent;
        r.drops = k.losslessDrops + k.lossyDrops;
        std::cout << "TIMELY " << preset << ", " << rate.GetBitRate() / 1e9 << " Gb/s, gap "
                  << gap.GetMicroSeconds() << " us: " << from.GetMilliSeconds() << "-"
                  << stop.GetMilliSeconds() << " ms wire " << r.wireGbps[0] << " / "
                  << r.wireGbps[1] << " Gb/s; queueing delay 2-" << stop.GetMilliSeconds()
                  << " ms p50 " << r.p50Us << " us, p99 " << r.p99Us << " us, max " << r.maxUs
                  << " us; " << r.updates << " rate updates; pauses " << r.pauses << ", drops "
                  << r.drops << std::endl;
        Simulator::Destroy();
        Config::Reset();
        return r;
    }

    void DoRun() override
    {
        UsePicoseconds();
        const DataRate g100("100Gbps");
        Result same = Run(Time(0), "hpcc", g100, MilliSeconds(10));
        Result late = Run(MilliSeconds(1), "hpcc", g100, MilliSeconds(10));
        ReportValidation("timely-hpcc-100g-2flows-min-gbps",
                         std::min(late.wireGbps[0], late.wireGbps[1]));
        for (const Result* r : {&same, &late})
        {
            NS_TEST_ASSERT_MSG_EQ(r->drops, 0, "lossless");
            NS_TEST_ASSERT_MSG_EQ(r->pauses, 0, "no PFC pause: TIMELY holds the queue");
            NS_TEST_ASSERT_MSG_LT(r->maxUs, 500.0, "queueing delay below T_high (500 us)");
            NS_TEST_ASSERT_MSG_LT(r->p99Us, 60.0, "p99 queueing delay near T_low (50 us)");
            NS_TEST_ASSERT_MSG_EQ_TOL(r->wireGbps[0], 47.5, 5.0, "flow 0 near its fair share");
            NS_TEST_ASSERT_MSG_EQ_TOL(r->wireGbps[1], 47.5, 5.0, "flow 1 near its fair share");
            NS_TEST_ASSERT_MSG_GT(std::min(r->wireGbps[0], r->wireGbps[1]) /
                                      std::max(r->wireGbps[0], r->wireGbps[1]),
                                  0.85,
                                  "the two flows within 15% of each other");
            NS_TEST_ASSERT_MSG_GT(r->wireGbps[0] + r->wireGbps[1], 90.0, "port over 90% busy");
        }
        Result paper = Run(MilliSeconds(1), "paper", DataRate("10Gbps"), MilliSeconds(200));
        NS_TEST_ASSERT_MSG_EQ(paper.drops, 0, "paper: lossless");
        NS_TEST_ASSERT_MSG_EQ(paper.pauses, 0, "paper: no pause");
        NS_TEST_ASSERT_MSG_LT(paper.maxUs, 500.0, "paper: queueing delay below T_high");
        NS_TEST_ASSERT_MSG_GT(paper.wireGbps[0] + paper.wireGbps[1], 9.0, "paper: port busy");
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
        AddTestCase(new SwiftEndpointWindowTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TimelyFairnessTestCase, AI_FABRIC_QUICK);
    }
};

static CongestionControlFabricTestSuite g_congestionControlFabricTestSuite;
