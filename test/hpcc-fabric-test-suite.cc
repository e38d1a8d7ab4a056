/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC on the RoCEv2 fabric with INT as real bytes: the INT block of frames on the
 * wire (one record per switch of a k = 4 fat tree's 5-switch path, the receiver's
 * echo in its ACKs); an 8-to-1 incast across the fat tree, where HPCC holds the
 * bottleneck queue far below DCQCN's while the port stays near eta of its rate; two
 * flows sharing a port fairly. Without an INT algorithm the frames carry no block.
 * Figures are in doc/hpcc.md and doc/validation.md.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/hpcc-congestion-control.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/int-header.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The receiver, host 0, and 8 senders in pods 2 and 3 (hosts 8..15): every path
/// crosses edge, aggregation, core, aggregation, edge (5 switches).
constexpr uint32_t RECEIVER = 0;
constexpr uint32_t FIRST_SENDER = 8;
constexpr uint32_t SENDERS = 8;

/// What the frames on the receiver's and a sender's cables carried.
struct WireProbe
{
    uint64_t dataFrames{0};      //!< data frames arriving at the receiver
    uint64_t dataWithInt{0};     //!< ... with an INT block
    uint64_t dataFiveHops{0};    //!< ... whose block has 5 records
    uint64_t recordsAt100G{0};   //!< records naming a 100 Gb/s link
    uint64_t records{0};         //!< records read
    uint64_t monotonicTs{0};     //!< blocks whose 5 timestamps increase hop by hop
    uint64_t acks{0};            //!< ACKs arriving at sender 8
    uint64_t acksEchoFive{0};    //!< ... echoing a block of 5 records
    uint64_t framesWithBit{0};   //!< frames with the INT DSCP bit (DCQCN run: 0)
    uint64_t dataBytesOnWire{0}; //!< bytes of a WRITE middle frame (FCS excluded)
};

void
OnReceiverRx(WireProbe* w, Ptr<const Packet> p)
{
    RoceFrameView v;
    if (!RoceFrame::Peek(*p, v) || !v.isRoce || !RdmaOpcode::IsData(v.bthOpcode))
    {
        return;
    }
    w->dataFrames++;
    if ((v.dscp & RoceFrame::INT_DSCP_BIT) != 0)
    {
        w->framesWithBit++;
    }
    if (!RoceFrame::HasInt(v))
    {
        return;
    }
    w->dataWithInt++;
    if (v.bthOpcode == RdmaOpcode::WRITE_MIDDLE)
    {
        w->dataBytesOnWire = p->GetSize();
    }
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    IntHeader h;
    if (!h.Read(b.data() + RoceFrame::IntOffset(v)) || h.IsEcho())
    {
        return;
    }
    if (h.GetHopCount() == 5 && h.GetNHops() == 5)
    {
        w->dataFiveHops++;
        bool increasing = true;
        for (uint32_t i = 0; i < 5; ++i)
        {
            w->records++;
            w->recordsAt100G += h.GetHop(i).GetRateBps() == 100000000000ULL;
            if (i > 0 && (h.GetHop(i).TimeSince(h.GetHop(i - 1)) == 0 ||
                          h.GetHop(i).TimeSince(h.GetHop(i - 1)) > 100000))
            {
                increasing = false; // a later hop stamps a later time (< 100 us later)
            }
        }
        w->monotonicTs += increasing;
    }
}

void
OnSenderRx(WireProbe* w, Ptr<const Packet> p)
{
    RoceFrameView v;
    if (!RoceFrame::Peek(*p, v) || !v.isRoce || v.bthOpcode != RdmaOpcode::ACKNOWLEDGE)
    {
        return;
    }
    w->acks++;
    if (!RoceFrame::HasInt(v))
    {
        return;
    }
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    IntHeader h;
    if (h.Read(b.data() + RoceFrame::IntOffset(v)) && h.IsEcho() && h.GetNHops() == 5)
    {
        w->acksEchoFive++;
    }
}

struct IncastResult
{
    double maxQueueKb{0};       //!< over the whole incast (the first round trip's burst)
    double maxSteadyQueueKb{0}; //!< from 250 us to the first message's end
    double p50QueueKb{0};
    double wireGbps{0}; //!< bottleneck wire rate between the first ACKed 50 us and the first end
    double doneUs{0};
    uint64_t pauses{0};
    uint64_t drops{0};
    WireProbe wire;
};

/// The 8-to-1 incast of `bytes` per sender with congestion control `cc` (`preset`).
IncastResult
RunIncast(const std::string& cc,
          const std::string& preset,
          uint64_t bytes,
          bool sniff,
          uint32_t ackInterval = 1)
{
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> g = ft->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    for (const auto& [name, value] : CongestionControlRegistry::Get(cc).switchValues(preset))
    {
        Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
    }
    // An ACK per packet, as the HPCC simulator sends them (L2_ACK_INTERVAL 1).
    Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(ackInterval));
    RoceFabricHelper helper;
    helper.SetCongestionControl(cc, preset);
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
    // The receiver's edge switch and its port towards the receiver.
    const TopologyGraph::Port& up = g->GetPorts(RECEIVER)[0];
    Ptr<RoceSwitch> edge;
    for (uint32_t i = 0; i < fabric->GetSwitches().size(); ++i)
    {
        if (fabric->GetSwitchNode(i) == up.peer)
        {
            edge = fabric->GetSwitches()[i];
        }
    }
    uint32_t port = 0;
    const auto& ports = g->GetPorts(up.peer);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (ports[i].peer == RECEIVER)
        {
            port = i;
        }
    }
    IncastResult r;
    if (sniff)
    {
        fabric->GetNic(RECEIVER)->GetDevice()->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeBoundCallback(&OnReceiverRx, &r.wire));
        fabric->GetNic(FIRST_SENDER)
            ->GetDevice()
            ->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&OnSenderRx, &r.wire));
    }
    Time firstDone = Time::Max();
    Time lastDone;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&firstDone, &lastDone](const RdmaFabric::MessageRecord& m) {
            firstDone = std::min(firstDone, m.end);
            lastDone = std::max(lastDone, m.end);
        }));
    for (uint32_t i = 0; i < SENDERS; ++i)
    {
        fabric->PostWrite(FIRST_SENDER + i, RECEIVER, bytes, i, 0);
    }
    std::vector<double> queueKb;
    uint64_t txAt50 = 0;
    Time steadyFrom = MicroSeconds(50);
    Ptr<RoceNetDevice> down = edge->GetPort(port);
    std::function<void()> sample;
    sample = [&]() {
        if (Simulator::Now() < firstDone)
        {
            uint64_t q = 0;
            for (uint8_t c = 0; c < 8; ++c)
            {
                q += edge->GetQueueBytes(port, c);
            }
            queueKb.push_back(q / 1000.0);
            if (Simulator::Now() >= MicroSeconds(250))
            {
                r.maxSteadyQueueKb = std::max(r.maxSteadyQueueKb, q / 1000.0);
            }
            if (Simulator::Now() == steadyFrom)
            {
                txAt50 = down->GetTxBytes();
            }
            ScheduleLambda(MicroSeconds(1), sample);
        }
    };
    ScheduleLambda(MicroSeconds(1), sample);
    // The bottleneck's wire bytes until the first message ends (the incast's full phase).
    uint64_t txAtFirstDone = 0;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&](const RdmaFabric::MessageRecord&) {
            if (txAtFirstDone == 0)
            {
                txAtFirstDone = down->GetTxBytes();
            }
        }));
    Simulator::Run();
    std::sort(queueKb.begin(), queueKb.end());
    if (!queueKb.empty())
    {
        r.maxQueueKb = queueKb.back();
        r.p50QueueKb = queueKb[queueKb.size() / 2];
    }
    const double seconds = (firstDone - steadyFrom).GetSeconds();
    // GetTxBytes counts frames without preamble, FCS and gap: 24 B more per frame
    // (full frames: the data; the receiver sends the ACKs the other way).
    const double frameBytes = (cc == "hpcc" ? 1102.0 : 1058.0);
    r.wireGbps = (txAtFirstDone - txAt50) * (frameBytes + 24.0) / frameBytes * 8.0 / seconds / 1e9;
    r.doneUs = lastDone.GetSeconds() * 1e6;
    RdmaFabric::Counters k = fabric->GetCounters();
    r.pauses = k.pfcPausesSent;
    r.drops = k.losslessDrops + k.lossyDrops;
    std::cout << cc << " (" << preset << ") 8-to-1 incast on a k=4 fat tree: bottleneck queue max "
              << r.maxQueueKb << " KB (after 250 us " << r.maxSteadyQueueKb << " KB), p50 "
              << r.p50QueueKb << " KB; wire " << r.wireGbps << " Gb/s from 50 us to the first end ("
              << firstDone.GetMicroSeconds() << " us); all done " << r.doneUs << " us; pauses "
              << r.pauses << ", drops " << r.drops << std::endl;
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

/**
 * The INT block on the wire: data frames reaching the receiver across the fat tree
 * hold 5 records (one per switch, 100 Gb/s links, later hops stamp later times),
 * ACKs reaching a sender echo them; a DCQCN run's frames carry no block and no bit.
 */
class HpccIntOnWireTest : public TestCase
{
  public:
    HpccIntOnWireTest()
        : TestCase("INT on the wire: 5 records per data frame across a k=4 fat tree, echoed in "
                   "ACKs; none without an INT algorithm")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        IncastResult h = RunIncast("hpcc", "paper", 200000, true);
        const WireProbe& w = h.wire;
        std::cout << "INT: " << w.dataFrames << " data frames, " << w.dataWithInt << " with INT, "
                  << w.dataFiveHops << " with 5 records, " << w.monotonicTs
                  << " with increasing timestamps; " << w.acks << " ACKs, " << w.acksEchoFive
                  << " echoing 5 records; frame " << w.dataBytesOnWire << " B" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(w.dataFrames, 8 * 200, "every data frame arrived once");
        NS_TEST_ASSERT_MSG_EQ(w.dataWithInt, w.dataFrames, "every data frame has the block");
        NS_TEST_ASSERT_MSG_EQ(w.dataFiveHops, w.dataFrames, "one record per switch (5)");
        NS_TEST_ASSERT_MSG_EQ(w.recordsAt100G, w.records, "every record names 100 Gb/s");
        NS_TEST_ASSERT_MSG_EQ(w.monotonicTs, w.dataFrames, "timestamps increase hop by hop");
        NS_TEST_ASSERT_MSG_GT(w.acks, 0, "ACKs reached the sender");
        NS_TEST_ASSERT_MSG_EQ(w.acksEchoFive, w.acks, "every ACK echoes the 5 records");
        // 1000 B payload + 58 B headers + 44 B INT block = 1102 B (FCS excluded).
        NS_TEST_ASSERT_MSG_EQ(w.dataBytesOnWire, 1102, "the block's 44 bytes on the wire");
        // InfiniBand frames carry no INT: HPCC there is refused, not left without feedback.
        {
            Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
            ft->SetAttribute("K", UintegerValue(4));
            Ptr<TopologyGraph> g = ft->Build();
            IbFabricHelper ib;
            ib.SetCongestionControl("hpcc", "paper");
            bool threw = false;
            try
            {
                ib.Install(g, RoutingEngine::BuildTable("ecmp", g));
            }
            catch (const std::invalid_argument& e)
            {
                threw = std::string(e.what()).find("'hpcc'") != std::string::npos;
            }
            NS_TEST_ASSERT_MSG_EQ(threw, true, "IbFabricHelper refuses an INT algorithm");
            Simulator::Destroy();
        }
        IncastResult d = RunIncast("dcqcn", "hpcc-run", 200000, true);
        NS_TEST_ASSERT_MSG_EQ(d.wire.dataFrames, 8 * 200, "DCQCN: every data frame arrived");
        NS_TEST_ASSERT_MSG_EQ(d.wire.dataWithInt, 0, "DCQCN: no INT block");
        NS_TEST_ASSERT_MSG_EQ(d.wire.framesWithBit, 0, "DCQCN: no INT bit");
    }
};

/**
 * 8-to-1 incast of 2 MB per sender across a k = 4 fat tree (100 Gb/s): HPCC keeps the
 * receiver's edge port queue far below DCQCN's ('hpcc-run', the runner's preset) and
 * the port near eta of its rate.
 */
class HpccIncastTest : public TestCase
{
  public:
    HpccIncastTest()
        : TestCase("HPCC: an 8-to-1 incast on a k=4 fat tree holds the bottleneck queue far "
                   "below DCQCN's, the port near eta")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        IncastResult h = RunIncast("hpcc", "paper", 2000000, false);
        IncastResult d = RunIncast("dcqcn", "hpcc-run", 2000000, false);
        ReportValidation("hpcc-incast-8-fattree-max-queue-kb", h.maxQueueKb);
        ReportValidation("hpcc-incast-8-fattree-max-queue-kb.expected", d.maxQueueKb);
        ReportValidation("hpcc-incast-8-fattree-steady-max-queue-kb", h.maxSteadyQueueKb);
        ReportValidation("hpcc-incast-8-fattree-wire-gbps", h.wireGbps);
        ReportValidation("dcqcn-incast-8-fattree-max-queue-kb", d.maxQueueKb);
        // The first round trip's burst (8 windows of W_init = B T, before any feedback)
        // is the largest queue HPCC lets build: under 1/4 of DCQCN's.
        NS_TEST_ASSERT_MSG_LT(h.maxQueueKb * 4, d.maxQueueKb, "HPCC: under 1/4 of DCQCN's max");
        // Once the windows follow U (from 250 us): a few packets, not DCQCN's megabytes.
        NS_TEST_ASSERT_MSG_LT(h.maxSteadyQueueKb, 50.0, "HPCC: steady queue under 50 KB");
        NS_TEST_ASSERT_MSG_LT(h.p50QueueKb * 100, d.p50QueueKb, "HPCC: median under 1/100");
        // The port near eta = 0.95 of its rate (INT block included in the wire bytes).
        NS_TEST_ASSERT_MSG_GT(h.wireGbps, 90.0, "HPCC: the port near eta (> 90 Gb/s)");
        NS_TEST_ASSERT_MSG_LT(h.wireGbps, 97.0, "HPCC: below 1 (it targets eta)");
        NS_TEST_ASSERT_MSG_EQ(h.drops, 0, "lossless");
        NS_TEST_ASSERT_MSG_EQ(h.pauses, 0, "HPCC: no PFC pause");
    }
};

/**
 * Two long flows into one 100 Gb/s port of a star (hosts 0 and 1 to host 2, 1 us
 * cables); flow 1 joins at 1 ms. Issue #28's figure: from the join, both flows within
 * 10% of the fair share (half of what the port carries) within 5 base RTTs x maxStage,
 * and staying there. A flow that joins a busy link measures U > eta at its first
 * update (U starts at 1, as the HPCC simulator's hp.u) and both cut by the same eta / U,
 * so they start near even; afterwards only W_AI (equal for both) evens out what is
 * left, at 2 W_AI / (eta B T) of their difference per round trip.
 */
class HpccFairnessTest : public TestCase
{
  public:
    HpccFairnessTest()
        : TestCase("HPCC: a flow joining a long one: both within 10% of the fair share within "
                   "5 base RTTs x maxStage, near half of eta each")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        const uint32_t sw = g->AddSwitch();
        for (uint32_t i = 0; i < 3; ++i)
        {
            const uint32_t h = g->AddHost();
            g->AddLink(h, sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(1));
        RoceFabricHelper helper;
        helper.SetCongestionControl("hpcc", "paper");
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint64_t bytes = 200000000; // never finishes within 10 ms
        const Time join = MilliSeconds(1);
        fabric->PostWrite(0, 2, bytes, 0, 0);
        ScheduleLambda(join, [fabric]() { fabric->PostWrite(1, 2, bytes, 1, 0); });
        auto delivered = [fabric](uint32_t from) {
            for (const auto& qp : fabric->GetNic(2)->GetQueuePairs())
            {
                if (qp->GetPeerHost() == from)
                {
                    return qp->GetDeliveredBytes();
                }
            }
            return uint64_t(0);
        };
        // Each flow's delivered bytes every 10 us from the join to 3 ms; rates over
        // 20 us windows (a few round trips, so that a window holds many ACK clocks).
        const Time step = MicroSeconds(10);
        std::vector<std::array<uint64_t, 2>> samples;
        std::function<void()> sample;
        sample = [&]() {
            samples.push_back({delivered(0), delivered(1)});
            if (Simulator::Now() < MilliSeconds(3))
            {
                Simulator::Schedule(step, sample);
            }
        };
        Simulator::Schedule(join, sample);
        uint64_t at8[2] = {0, 0};
        ScheduleLambda(MilliSeconds(8), [&]() {
            at8[0] = delivered(0);
            at8[1] = delivered(1);
        });
        Time baseRtt;
        uint32_t maxStage = 0;
        ScheduleLambda(MilliSeconds(2), [&]() {
            for (uint32_t host = 0; host < 2; ++host)
            {
                for (const auto& qp : fabric->GetNic(host)->GetQueuePairs())
                {
                    Ptr<HpccCongestionControl> cc =
                        DynamicCast<HpccCongestionControl>(qp->GetCongestionControl());
                    if (cc)
                    {
                        baseRtt = cc->GetBaseRtt();
                        UintegerValue v;
                        cc->GetAttribute("MaxStage", v);
                        maxStage = v.Get();
                    }
                }
            }
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        // The last window (from the end) in which the two differ from their mean by
        // more than 10%: converged from the end of that window on.
        const uint32_t span = 2; // 20 us windows
        Time converged = join;
        double firstGbps[2] = {0, 0};
        for (uint32_t i = span; i < samples.size(); ++i)
        {
            double r[2];
            for (uint32_t f = 0; f < 2; ++f)
            {
                r[f] = (samples[i][f] - samples[i - span][f]) * 8.0 / (span * step.GetSeconds());
            }
            if (i == span)
            {
                firstGbps[0] = r[0] * 1e-9;
                firstGbps[1] = r[1] * 1e-9;
            }
            const double fair = (r[0] + r[1]) / 2;
            if (std::abs(r[0] - fair) > 0.1 * fair || std::abs(r[1] - fair) > 0.1 * fair)
            {
                converged = join + step * i;
            }
        }
        const double convergeUs = (converged - join).GetSeconds() * 1e6;
        const double boundUs = 5.0 * baseRtt.GetSeconds() * 1e6 * std::max(maxStage, 1U);
        double gbps[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            // Payload to wire: 1126 wire bytes (INT block included) per 1000-byte packet.
            gbps[i] = (delivered(i) - at8[i]) * 8.0 / 2e-3 / 1e9 * 1126.0 / 1000.0;
        }
        RdmaFabric::Counters k = fabric->GetCounters();
        std::cout << "HPCC two flows: base RTT " << baseRtt.GetSeconds() * 1e6 << " us, maxStage "
                  << maxStage << "; first 20 us after the join " << firstGbps[0] << " / "
                  << firstGbps[1] << " Gb/s of payload; within 10% of fair " << convergeUs
                  << " us after the join (5 T x maxStage = " << boundUs << " us); 8-10 ms "
                  << gbps[0] << " / " << gbps[1] << " Gb/s of wire, pauses " << k.pfcPausesSent
                  << std::endl;
        ReportValidation("hpcc-100g-2flows-min-gbps", std::min(gbps[0], gbps[1]));
        ReportValidation("hpcc-100g-2flows-converge-us", convergeUs);
        ReportValidation("hpcc-100g-2flows-converge-us.expected", boundUs);
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_GT(samples.size(), 150, "sampled to 3 ms");
        NS_TEST_ASSERT_MSG_GT(baseRtt, MicroSeconds(4), "T: 4 cable crossings and more");
        NS_TEST_ASSERT_MSG_EQ(maxStage, 5, "the paper preset's maxStage");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(convergeUs, boundUs, "fair within 5 T x maxStage");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps[0], 47.5, 5.0, "flow 0 near half of eta x 100");
        NS_TEST_ASSERT_MSG_EQ_TOL(gbps[1], 47.5, 5.0, "flow 1 near half of eta x 100");
        NS_TEST_ASSERT_MSG_GT(gbps[0] + gbps[1], 90.0, "together near eta");
        NS_TEST_ASSERT_MSG_EQ(k.pfcPausesSent, 0, "no PFC pause");
    }
};

class HpccFabricTestSuite : public TestSuite
{
  public:
    HpccFabricTestSuite()
        : TestSuite("ai-fabric-hpcc-fabric", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new HpccIntOnWireTest, AI_FABRIC_QUICK);
        AddTestCase(new HpccIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new HpccFairnessTest, AI_FABRIC_QUICK);
    }
};

static HpccFabricTestSuite g_hpccFabricTestSuite; //!< registers the suite
