/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCTCP on RDMA (Alizadeh et al. 2010, RFC 8257, as the HPCC simulator runs it): alpha,
 * rate and window updates against hand-computed steps; the presets; on the RoCEv2
 * fabric, the ECN echo in ACKs (every CE-marked packet is acknowledged by an echoing
 * ACK), two flows sharing one port near K, and an 8-to-1 incast on a k=4 fat-tree
 * with and without DCTCP. Figures are in doc/dctcp.md.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/dctcp-congestion-control.h"
#include "ns3/double.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A started controller with the attribute defaults ('hpcc'): g 1/16, alpha 1,
/// increase 615 Mb/s, MinRate 1 Gb/s, window on. Context: 100 Gb/s, MTU 1000, base
/// RTT 8 us, so BDP = 100 Gb/s x 8 us = 100,000 bytes.
Ptr<DctcpCongestionControl>
MakeDctcp()
{
    Ptr<DctcpCongestionControl> cc = CreateObject<DctcpCongestionControl>();
    cc->Start(UnitTestCcContext());
    return cc;
}

RdmaAckSample
Ack(uint32_t packets, bool echo)
{
    RdmaAckSample s;
    s.ackedPackets = packets;
    s.ackedBytes = packets * 1000;
    s.rtt = MicroSeconds(8);
    s.hops = 1;
    s.ecnEcho = echo;
    return s;
}

void
Send(Ptr<DctcpCongestionControl> cc, uint32_t packets)
{
    for (uint32_t i = 0; i < packets; ++i)
    {
        cc->OnPacketSent(1000);
    }
}

/// Rates compare to 1 bit/s (the controller keeps them unrounded in double).
const double TOL = 1.0;

} // namespace

/// alpha once per window from the marked fraction, a cut by alpha/2 at most once per
/// window (CWR), additive increase per window otherwise, the window from the rate.
class DctcpStepsTest : public TestCase
{
  public:
    DctcpStepsTest()
        : TestCase("DCTCP: alpha per window, cut by half alpha once per window, additive "
                   "increase, window = BDP x rate over line rate (hand-computed steps)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DctcpCongestionControl> cc = MakeDctcp();
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "starts at line rate");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 100000ULL, "window = BDP");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-15, "alpha starts at 1");
        Send(cc, 10);
        // 1. The first ACK ends the first window: no alpha update (no full window of
        // feedback yet), +615 Mb/s capped by the line rate. Next window: 10 packets.
        cc->OnAck(Ack(1, false));
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindows(), 0, "first window: no alpha update");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 100e9, TOL, "increase capped");
        // 2. An echoing ACK: rate x (1 - 1/2) = 50 Gb/s, window 50,000 B; CWR until the
        // 10 packets sent so far are acknowledged.
        cc->OnAck(Ack(4, true));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 50e9, TOL, "cut by alpha/2");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 50000ULL, "window follows the rate");
        NS_TEST_ASSERT_MSG_EQ(cc->IsInCwr(), true, "in CWR");
        NS_TEST_ASSERT_MSG_EQ(cc->GetCuts(), 1, "one cut");
        // 3. Another echo inside the same window: no second cut.
        Send(cc, 10);
        cc->OnAck(Ack(3, true));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 50e9, TOL, "at most one cut per window");
        NS_TEST_ASSERT_MSG_EQ(cc->GetCuts(), 1, "still one cut");
        // 4. The ACK covering packet 10 ends the window: 7 of its 10 packets were marked,
        // alpha = 15/16 x 1 + 1/16 x 0.7 = 0.98125; CWR ends; no echo: +615 Mb/s.
        cc->OnAck(Ack(2, false));
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindows(), 1, "one alpha update");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 0.98125, 1e-12, "alpha from F = 0.7");
        NS_TEST_ASSERT_MSG_EQ(cc->IsInCwr(), false, "CWR over");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 50.615e9, TOL, "additive increase");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 50615ULL, "window 100,000 x 50.615/100");
        // 5. The next window (packets 11-20), nothing marked: alpha x 15/16 =
        // 0.919921875, +615 Mb/s = 51.23 Gb/s.
        cc->OnAck(Ack(5, false));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 50.615e9, TOL, "mid-window: no change");
        cc->OnAck(Ack(5, false));
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindows(), 2, "second alpha update");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 0.919921875, 1e-12, "alpha from F = 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 51.23e9, TOL, "additive increase");
        // 6. A one-packet window (everything sent is acknowledged: it ends at the next
        // ACK), marked: alpha = 0.919921875 x 15/16 + 1/16 = 0.9249267578125, and the
        // cut uses the new alpha: 51.23 x (1 - 0.9249267578125 / 2) = 27.538001098... Gb/s.
        Send(cc, 5);
        cc->OnAck(Ack(1, true));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 0.9249267578125, 1e-12, "alpha from F = 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 27538001098.6328, 1.0, "cut");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 27538ULL, "window 100,000 x 0.27538");
        NS_TEST_ASSERT_MSG_EQ(cc->GetEchoedPackets(), 8, "4 + 3 + 1 packets echoed");
    }
};

/// Under a fixed marking fraction F alpha converges to F: alpha_n = (1 - g)^n alpha_0 +
/// (1 - (1 - g)^n) F, so after 200 windows of 20 packets it is F within 1e-5.
class DctcpAlphaConvergesTest : public TestCase
{
  public:
    DctcpAlphaConvergesTest()
        : TestCase("DCTCP: alpha converges to a fixed marked fraction (one packet in 4, 2 and 20)")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t every : {4U, 2U, 20U})
        {
            Ptr<DctcpCongestionControl> cc = MakeDctcp();
            uint64_t acked = 0;
            Send(cc, 20);
            for (uint32_t window = 0; window < 200; ++window)
            {
                for (uint32_t i = 0; i < 20; ++i)
                {
                    if (i == 19)
                    {
                        Send(cc, 20); // the next window is in flight before this one ends
                    }
                    cc->OnAck(Ack(1, ++acked % every == 0));
                }
            }
            const double f = 1.0 / every;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(cc->GetWindows(), 199, "an alpha update per window");
            NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), f, 1e-5, "alpha = F, every " << every);
        }
    }
};

/// MinRate floors a cut, the window never falls below one MTU, UseWindow false leaves
/// the rate alone, and g sets the EWMA's step.
class DctcpClampTest : public TestCase
{
  public:
    DctcpClampTest()
        : TestCase("DCTCP: MinRate floor, one-MTU window floor, no window when off, g")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DctcpCongestionControl> cc = CreateObject<DctcpCongestionControl>();
        cc->SetAttribute("MinRate", DataRateValue(DataRate("60Gbps")));
        cc->Start(UnitTestCcContext());
        Send(cc, 4);
        cc->OnAck(Ack(1, true)); // first window ends and the echo cuts: 50 -> 60 Gb/s floor
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 60000000000ULL, "MinRate floors the cut");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 60000ULL, "window at the floor rate");

        cc = CreateObject<DctcpCongestionControl>();
        cc->SetAttribute("MinRate", DataRateValue(DataRate("10Mbps")));
        cc->Start(UnitTestCcContext());
        // Ten cuts in ten one-packet windows, alpha rising to 1 from 1: each halves.
        for (int i = 0; i < 10; ++i)
        {
            Send(cc, 1);
            cc->OnAck(Ack(1, true));
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 100e9 / 1024, 1.0, "ten halvings");
        // 100,000 B x 97.65625 Mb/s / 100 Gb/s = 98 B: the window floor, one MTU.
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 1000ULL, "window floor: one MTU");

        cc = CreateObject<DctcpCongestionControl>();
        cc->SetAttribute("UseWindow", BooleanValue(false));
        cc->Start(UnitTestCcContext());
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), UINT64_MAX, "no window");

        cc = CreateObject<DctcpCongestionControl>();
        cc->SetAttribute("G", DoubleValue(0.5));
        cc->SetAttribute("InitialAlpha", DoubleValue(0.0));
        cc->Start(UnitTestCcContext());
        Send(cc, 2);
        cc->OnAck(Ack(1, false)); // first window
        cc->OnAck(Ack(1, true));  // ends the second: F = 1/2... of the 2 packets acked
        // The second window holds both ACKs' packets (the first window keeps its counts,
        // as HPCC's), 1 of 2 marked: alpha = 0.5 x 0 + 0.5 x 0.5 = 0.25; cut by 1/8.
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 0.25, 1e-15, "alpha with g = 1/2");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 87.5e9, TOL, "cut by alpha/2 = 1/8");
    }
};

/// The presets and the registration.
class DctcpPresetTest : public TestCase
{
  public:
    DctcpPresetTest()
        : TestCase("DCTCP: registered with ECN echoed in ACKs, 'hpcc' = defaults, K preset")
    {
    }

  private:
    void DoRun() override
    {
        const auto& e = CongestionControlRegistry::Get("dctcp");
        NS_TEST_ASSERT_MSG_EQ(e.typeName, "ns3::DctcpCongestionControl", "type");
        NS_TEST_ASSERT_MSG_EQ(e.usesEcn, true, "data ECT(0)");
        NS_TEST_ASSERT_MSG_EQ(e.ecnEchoInAck, true, "CE read from ACKs");
        NS_TEST_ASSERT_MSG_EQ(e.defaultPreset, "hpcc", "default preset");
        Ptr<RdmaCongestionControl> def = CreateObject<DctcpCongestionControl>();
        Ptr<RdmaCongestionControl> hpcc = CongestionControlFactory::Create("dctcp", "hpcc");
        for (const auto& [name, value] : DctcpCongestionControl::GetPreset("hpcc"))
        {
            StringValue a;
            StringValue b;
            def->GetAttribute(name, a);
            hpcc->GetAttribute(name, b);
            NS_TEST_ASSERT_MSG_EQ(a.Get(), b.Get(), "default equals hpcc: " + name);
        }
        const auto sw = DctcpCongestionControl::GetSwitchPreset("hpcc");
        std::string kmin;
        std::string kmax;
        std::string pmax;
        for (const auto& [name, value] : sw)
        {
            kmin = name == "Kmin" ? value : kmin;
            kmax = name == "Kmax" ? value : kmax;
            pmax = name == "Pmax" ? value : pmax;
        }
        NS_TEST_ASSERT_MSG_EQ(kmin, kmax, "single threshold: Kmin = Kmax");
        NS_TEST_ASSERT_MSG_EQ(kmin, "30000", "K = 30 KB at 10 Gb/s");
        NS_TEST_ASSERT_MSG_EQ(pmax, "1", "Pmax 1");
        std::string error;
        try
        {
            CongestionControlFactory("dctcp", "paper");
        }
        catch (const std::invalid_argument& ex)
        {
            error = ex.what();
        }
        NS_TEST_ASSERT_MSG_NE(error.find("'paper'"), std::string::npos, "names the value");
        NS_TEST_ASSERT_MSG_NE(error.find("hpcc"), std::string::npos, "names the allowed");
        // InfiniBand HCAs echo no CE in ACKs: the helper refuses DCTCP there.
        UsePicoseconds();
        Ptr<TopologyGraph> star = Create<TopologyGraph>();
        const uint32_t ibSwitch = star->AddSwitch();
        for (int i = 0; i < 2; ++i)
        {
            star->AddLink(star->AddHost(), ibSwitch, DataRate("100Gbps"), MicroSeconds(1));
        }
        IbFabricHelper ib;
        ib.SetCongestionControl("dctcp", "");
        error.clear();
        try
        {
            ib.Install(star, RoutingEngine::BuildTable("ecmp", star));
        }
        catch (const std::invalid_argument& ex)
        {
            error = ex.what();
        }
        NS_TEST_ASSERT_MSG_NE(error.find("'dctcp'"), std::string::npos, "refused on IB");
        Simulator::Destroy();
        Ptr<DctcpCongestionControl> g = CreateObject<DctcpCongestionControl>();
        g->SetAttribute("G", DoubleValue(0.25));
        Ptr<RdmaCongestionControl> fork = g->Fork();
        DoubleValue v;
        fork->GetAttribute("G", v);
        NS_TEST_ASSERT_MSG_EQ_TOL(v.Get(), 0.25, 1e-15, "Fork keeps the values");
    }
};

namespace
{

/// A star: `hosts` hosts on one switch at 100 Gb/s, 1 us cables.
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

/// The 'hpcc' preset's switch side (K), as the scenario runner applies it.
void
ApplySwitchPreset()
{
    for (const auto& [name, value] : DctcpCongestionControl::GetSwitchPreset("hpcc"))
    {
        Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
    }
}

} // namespace

/**
 * Two long flows (hosts 0 and 1 to host 2 on one switch, 100 Gb/s), flow 1 joining
 * 1 ms after flow 0, with K 30 KB (the preset's 300 KB at 100 Gb/s would exceed what
 * the BDP windows can queue, so nothing would be marked). Both flows converge to fair
 * shares, the queue stays near K, nothing is paused or dropped, and every CE mark the
 * switch made is acknowledged by an ACK echoing it.
 */
class DctcpFairnessTest : public TestCase
{
  public:
    DctcpFairnessTest()
        : TestCase("DCTCP: two flows into one 100G port share it fairly with the queue near K; "
                   "every CE mark echoed")
    {
    }

  private:
    struct Probe
    {
        Ptr<RoceSwitch> sw;
        uint32_t port{0};
        std::vector<double> queueKb; //!< queue samples from 4 ms on
    };

    static void Sample(Probe* p)
    {
        if (Simulator::Now() >= MilliSeconds(4))
        {
            p->queueKb.push_back(p->sw->GetQueueBytes(p->port, 3) / 1000.0);
        }
        Simulator::Schedule(MicroSeconds(1), &DctcpFairnessTest::Sample, p);
    }

    void DoRun() override
    {
        UsePicoseconds();
        const uint64_t k = 30000;
        Config::SetDefault("ns3::EcnMarker::Kmin", UintegerValue(k));
        Config::SetDefault("ns3::EcnMarker::Kmax", UintegerValue(k));
        Config::SetDefault("ns3::EcnMarker::Pmax", DoubleValue(1.0));
        Config::SetDefault("ns3::EcnMarker::ScaleWithRate", BooleanValue(false));
        uint32_t swNode = 0;
        std::vector<uint32_t> hosts;
        Ptr<TopologyGraph> g = Star(3, swNode, hosts);
        RoceFabricHelper helper;
        helper.SetCongestionControl("dctcp", "hpcc");
        Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Probe p;
        p.sw = fabric->GetSwitches()[0];
        const auto& ports = g->GetPorts(swNode);
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            p.port = ports[i].peer == hosts[2] ? i : p.port;
        }
        const uint64_t bytes = 1000000000; // never finishes within the run
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
        Simulator::Schedule(MicroSeconds(1), &DctcpFairnessTest::Sample, &p);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        double gbps[2];
        uint64_t echoed = 0;
        double alpha[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            // Payload to wire: 1082 wire bytes per 1000-byte packet.
            gbps[i] = (FindQp(fabric, 2, i)->GetDeliveredBytes() - at8[i]) * 8.0 / 2e-3 / 1e9 *
                      1082.0 / 1000.0;
            Ptr<DctcpCongestionControl> cc =
                DynamicCast<DctcpCongestionControl>(FindQp(fabric, i, 2)->GetCongestionControl());
            echoed += cc->GetEchoedPackets();
            alpha[i] = cc->GetAlpha();
        }
        std::vector<double> q = p.queueKb;
        std::sort(q.begin(), q.end());
        const double p10 = q[q.size() / 10];
        const double p50 = q[q.size() / 2];
        const double p99 = q[static_cast<std::size_t>(0.99 * (q.size() - 1))];
        RdmaFabric::Counters c = fabric->GetCounters();
        std::cout << "DCTCP two flows, K 30 KB: 8-10 ms wire " << gbps[0] << " / " << gbps[1]
                  << " Gb/s; queue 4-10 ms p10 " << p10 << " KB, p50 " << p50 << " KB, p99 " << p99
                  << " KB, max " << q.back() << " KB; alpha " << alpha[0] << " / " << alpha[1]
                  << "; marks " << c.ecnMarks << ", echoed " << echoed << ", CNPs " << c.cnpsSent
                  << ", pauses " << c.pfcPausesSent << ", drops " << c.losslessDrops + c.lossyDrops
                  << std::endl;
        ReportValidation("dctcp-100g-2flows-min-gbps", std::min(gbps[0], gbps[1]));
        ReportValidation("dctcp-100g-2flows-queue-p50-kb", p50);
        NS_TEST_ASSERT_MSG_EQ(c.losslessDrops + c.lossyDrops, 0, "lossless");
        NS_TEST_ASSERT_MSG_EQ(c.pfcPausesSent, 0, "no PFC pause: DCTCP holds the queue");
        NS_TEST_ASSERT_MSG_GT(c.ecnMarks, 0, "the switch marked");
        NS_TEST_ASSERT_MSG_EQ(echoed, c.ecnMarks, "every CE-marked packet acknowledged by an echo");
        NS_TEST_ASSERT_MSG_EQ(c.cnpsSent, 0, "no CNP: the echo lives in the ACKs");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps[0], 47.5, 5.0, "flow 0 near its fair share");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps[1], 47.5, 5.0, "flow 1 near its fair share");
        NS_TEST_ASSERT_MSG_GT(gbps[0] + gbps[1], 90.0, "port over 90% busy");
        NS_TEST_ASSERT_MSG_EQ_TOL(p50, 30.0, 15.0, "median queue near K = 30 KB");
        NS_TEST_ASSERT_MSG_LT(p99, 60.0, "p99 queue below 2 K");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * An 8-to-1 incast on a k=4 fat-tree (16 hosts, 100 Gb/s, the preset's K): hosts 0-7
 * (pods 0 and 1) each write 2 MB to host 15 (pod 3). Without congestion control PFC
 * shares the receiver's port (pauses back to the senders); with DCTCP the senders
 * slow down and PFC pauses far less.
 */
class DctcpIncastTest : public TestCase
{
  public:
    DctcpIncastTest()
        : TestCase("DCTCP: an 8-to-1 incast on a k=4 fat-tree pauses far less than without CC")
    {
    }

  private:
    struct Result
    {
        uint64_t pauses{0};
        uint64_t marks{0};
        uint64_t drops{0};
        uint64_t delivered{0};
    };

    Result Run(const std::string& cc)
    {
        if (cc == "dctcp")
        {
            ApplySwitchPreset();
        }
        Ptr<FatTreeTopologyHelper> t = CreateObject<FatTreeTopologyHelper>();
        t->SetAttribute("K", UintegerValue(4));
        Ptr<TopologyGraph> g = t->Build();
        RoceFabricHelper helper;
        helper.SetCongestionControl(cc, "");
        Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        const uint64_t bytes = 2000000;
        Result r;
        for (uint32_t s = 0; s < 8; ++s)
        {
            fabric->PostWrite(s, 15, bytes, s, 0);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        for (uint32_t s = 0; s < 8; ++s)
        {
            r.delivered += FindQp(fabric, 15, s)->GetDeliveredBytes();
        }
        RdmaFabric::Counters c = fabric->GetCounters();
        r.pauses = c.pfcPausesSent;
        r.marks = c.ecnMarks;
        r.drops = c.losslessDrops + c.lossyDrops;
        std::cout << "8-to-1 incast, k=4 fat-tree, cc " << cc << ": delivered " << r.delivered
                  << " B, pauses " << r.pauses << ", marks " << r.marks << ", drops " << r.drops
                  << std::endl;
        Simulator::Destroy();
        Config::Reset();
        return r;
    }

    void DoRun() override
    {
        UsePicoseconds();
        Result none = Run("none");
        Result dctcp = Run("dctcp");
        ReportValidation("dctcp-incast-8to1-pauses", static_cast<double>(dctcp.pauses));
        NS_TEST_ASSERT_MSG_EQ(none.delivered, 16000000ULL, "none: all delivered");
        NS_TEST_ASSERT_MSG_EQ(dctcp.delivered, 16000000ULL, "dctcp: all delivered");
        NS_TEST_ASSERT_MSG_EQ(none.drops + dctcp.drops, 0, "lossless");
        NS_TEST_ASSERT_MSG_GT(none.pauses, 20, "without CC PFC shares the port");
        NS_TEST_ASSERT_MSG_GT(dctcp.marks, 0, "DCTCP: the switches marked");
        NS_TEST_ASSERT_MSG_LT(dctcp.pauses * 10, none.pauses, "DCTCP: under a tenth the pauses");
        NS_TEST_ASSERT_MSG_LT(dctcp.marks * 5, none.marks, "DCTCP: the queues stay short");
    }
};

class DctcpTestSuite : public TestSuite
{
  public:
    DctcpTestSuite()
        : TestSuite("ai-fabric-dctcp", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new DctcpStepsTest, AI_FABRIC_QUICK);
        AddTestCase(new DctcpAlphaConvergesTest, AI_FABRIC_QUICK);
        AddTestCase(new DctcpClampTest, AI_FABRIC_QUICK);
        AddTestCase(new DctcpPresetTest, AI_FABRIC_QUICK);
        AddTestCase(new DctcpFairnessTest, AI_FABRIC_QUICK);
        AddTestCase(new DctcpIncastTest, AI_FABRIC_QUICK);
    }
};

static DctcpTestSuite g_dctcpTestSuite;
