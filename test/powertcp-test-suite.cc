/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PowerTCP (Addanki et al., NSDI 2022, Algorithm 1) against hand-computed steps:
 * NORM_POWER's per-hop current (dq/dt + mu), voltage (q + B tau) and power over the
 * base power B^2 tau, the most loaded hop, the dt/tau smoothing; UPDATE_WINDOW with
 * W_old remembered once per round trip and taken as of the acknowledged packet's
 * sending (GETCWND), the clamps and R = W / tau; the registry entry. On the RoCEv2
 * fabric (INT bytes on the wire): an 8-to-1 incast on a k = 4 fat tree against HPCC,
 * two flows sharing a port, and the paper's 10:1 burst on a long flow at 25 Gb/s
 * against theta-PowerTCP and HPCC. Figures are in doc/powertcp.md.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/double.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/int-header.h"
#include "ns3/lambda-callback.h"
#include "ns3/nstime.h"
#include "ns3/powertcp-congestion-control.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// One record: 100 Gb/s, ts (ns), txBytes and qLen in 128-byte units.
struct Rec
{
    uint32_t tsNs;
    uint32_t txUnits;
    uint32_t qlenUnits;
};

IntHeader
Records(std::initializer_list<Rec> hops)
{
    IntHeader h;
    for (const Rec& r : hops)
    {
        IntHop hop;
        hop.Set(100000000000ULL, r.tsNs, uint64_t(r.txUnits) * 128, uint64_t(r.qlenUnits) * 128);
        h.PushHop(hop);
    }
    return h;
}

const double TOL = 1e-6; //!< bytes (W) and dimensionless (power)

/// An ACK of \p packets 1000-byte packets echoing records \p h.
RdmaAckSample
Ack(uint32_t packets, const IntHeader& h)
{
    RdmaAckSample s;
    s.ackedPackets = packets;
    s.ackedBytes = packets * 1000;
    s.intHeader = &h;
    return s;
}

} // namespace

/// Algorithm 1 step by step on a two-hop path (hand-computed figures in comments).
class PowertcpAlgorithmTest : public TestCase
{
  public:
    PowertcpAlgorithmTest()
        : TestCase("PowerTCP: Algorithm 1's NORM_POWER and UPDATE_WINDOW against hand-computed "
                   "steps (current x voltage over B^2 tau, most loaded hop, smoothing, W_old "
                   "per RTT, clamps)")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Gb/s = 12.5e9 B/s, tau = 8 us, 1000-byte packets of 1082 wire bytes.
        // Default beta: BetaRate x tau = 150 Mb/s x 8 us = 150 B.
        Ptr<PowertcpCongestionControl> d = CreateObject<PowertcpCongestionControl>();
        d->Start(UnitTestCcContext());
        NS_TEST_ASSERT_MSG_EQ_TOL(d->GetBeta(), 150.0, TOL, "beta = BetaRate x tau");
        // The steps below use the Linux module's rule (a beta large enough to see):
        // B tau = 100000 B; beta = B tau / N = 100000 / 10 = 10000 B.
        Ptr<PowertcpCongestionControl> cc = CreateObject<PowertcpCongestionControl>();
        cc->SetAttribute("ExpectedFlows", UintegerValue(10));
        cc->Start(UnitTestCcContext());
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetMaxWindow(), 100000.0, TOL, "B tau");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetBeta(), 10000.0, TOL, "beta = B tau / 10");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "starts at line rate");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.0, TOL, "Gamma starts at 1");

        bool done = cc->Update(Records({{0, 0, 0}, {0, 0, 100}}), true);
        NS_TEST_ASSERT_MSG_EQ(done, false, "the first ACK's records are only kept");

        // 4 us later. Hop A: 312 units = 39936 B in 4 us: mu = 9.984e9 B/s, dq = 0;
        // voltage 100000 B: power 9.984e9 x 1e5 / (12.5e9^2 x 8e-6 = 1.25e15) = 0.79872.
        // Hop B: mu = 49920 B / 4 us = 12.48e9, dq/dt = 12800 B / 4 us = 3.2e9: current
        // 15.68e9 B/s; voltage 25600 + 100000 = 125600 B: power 1.5755264, the max.
        // Gamma = (1 x (8 - 4) + 1.5755264 x 4) / 8 = 1.2877632.
        // W = 0.9 (100000 / 1.2877632 + 10000) + 0.1 x 100000 = 88888.6254864.
        done = cc->Update(Records({{4000, 312, 0}, {4000, 390, 200}}), true);
        NS_TEST_ASSERT_MSG_EQ(done, true, "computed");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetLastHopPower(), 1.5755264, TOL, "power of hop B");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.2877632, TOL, "smoothing over dt = tau/2");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 88888.62548642, TOL, "UPDATE_WINDOW");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetOldWindow(), 88888.62548642, TOL, "W_old refreshed");
        // R = W / tau = 88.8886 Gb/s; payload window 88888.6255 x 1000 / 1082 -> 82152.
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 88888625486ULL, "R = W / tau");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 82152, "window in payload bytes");
        // TargetUtilization 0.95 (the authors' simulator): the same step aims at eta W_old:
        // W = 0.9 (0.95 x 100000 / 1.2877632 + 10000) + 0.1 x 100000 = 85394.1942121.
        Ptr<PowertcpCongestionControl> eta = CreateObject<PowertcpCongestionControl>();
        eta->SetAttribute("ExpectedFlows", UintegerValue(10));
        eta->SetAttribute("TargetUtilization", DoubleValue(0.95));
        eta->Start(UnitTestCcContext());
        eta->Update(Records({{0, 0, 0}, {0, 0, 100}}), true);
        eta->Update(Records({{4000, 312, 0}, {4000, 390, 200}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(eta->GetWindow(), 85394.1942121, TOL, "eta x W_old / Gamma");

        // 8 us later (dt = tau), W_old not refreshed. A idle: power 0. B: 781 units =
        // 99968 B in 8 us = 12.496e9 B/s, queue 25600 -> 12800 B: dq/dt = -1.6e9;
        // current 10.896e9, voltage 112800: power 0.98325504 = Gamma.
        // W = 0.9 (88888.6255 / 0.98325504 + 10000) + 0.1 x 88888.6255 = 99251.0318.
        cc->Update(Records({{12000, 312, 0}, {12000, 1171, 100}}), false);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 0.98325504, TOL, "Gamma over dt = tau");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 99251.03175530, TOL, "W from W_old");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetOldWindow(), 88888.62548642, TOL, "W_old kept");

        // 8 us later, queue steady at 12800 B, 12.496e9 B/s: power 12.496e9 x 112800 /
        // 1.25e15 = 1.12763904. W = 0.9 (88888.6255 / 1.12763904 + 10000) + 0.1 x
        // 99251.0318 = 89869.5811: the divisor's window is W_old (one RTT ago), the EWMA's
        // the current W.
        cc->Update(Records({{20000, 312, 0}, {20000, 1952, 100}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.12763904, TOL, "steady queue power");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 89869.58106252, TOL, "W_old / Gamma");

        // 4 us later B's queue drains to 0 with nothing sent: current -3.2e9 B/s, power
        // clamped at 0 (A idle: 0). Gamma = 1.12763904 x 4/8 = 0.56381952; W = 0.9
        // (89869.5811 / 0.56381952 + 10000) + 0.1 x 89869.5811 = 161441.77 -> B tau.
        cc->Update(Records({{24000, 312, 0}, {24000, 1952, 0}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetLastHopPower(), 0.0, TOL, "a draining hop: 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 0.56381952, TOL, "smoothing towards 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 100000.0, TOL, "clamped at B tau");
        NS_TEST_ASSERT_MSG_EQ(cc->GetUpdates(), 4, "4 windows computed");

        // A path of another length: only kept.
        done = cc->Update(Records({{30000, 0, 0}}), true);
        NS_TEST_ASSERT_MSG_EQ(done, false, "another path: records kept, nothing computed");

        // A huge power: W cut to about a tenth, then held at one wire packet (1082 B).
        d->Update(Records({{0, 0, 0}}), true);
        // 8 us: 781 units sent, queue 0 -> 65535 units (8388480 B): dq/dt = 1.04856e12,
        // mu = 1.2496e10; current 1.0610e12 B/s, voltage 8488480 B: power 7205.3; W =
        // 0.9 (100000 / 7205.3 + 150) + 0.1 x 100000 = 10147.5.
        d->Update(Records({{8000, 781, 65535}}), true);
        NS_TEST_ASSERT_MSG_GT(d->GetPower(), 7000.0, "a queue of 8 MB in 8 us: power > 7000");
        NS_TEST_ASSERT_MSG_LT(d->GetWindow(), 10200.0, "W cut to about a tenth");
        NS_TEST_ASSERT_MSG_GT(d->GetWindow(), 10100.0, "W cut to about a tenth");
        for (uint32_t i = 2; i < 6; ++i)
        {
            // The queue stays full, 12.496e9 B/s: power 84.86; W 1257.3, then under a packet.
            d->Update(Records({{8000 * i, 781 * i, 65535}}), true);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(d->GetWindow(), 1082.0, TOL, "W at least one packet");

        // The registry: INT, no ECN.
        const CongestionControlRegistry::Entry& e = CongestionControlRegistry::Get("powertcp");
        NS_TEST_ASSERT_MSG_EQ(e.typeName, "ns3::PowertcpCongestionControl", "type");
        NS_TEST_ASSERT_MSG_EQ(e.usesInt, true, "reads INT");
        NS_TEST_ASSERT_MSG_EQ(e.usesEcn, false, "no ECN");
    }
};

/// GETCWND(ack.seq): an ACK divides the window remembered before its packet was sent.
class PowertcpOldWindowTest : public TestCase
{
  public:
    PowertcpOldWindowTest()
        : TestCase("PowerTCP: W_old is the window remembered before the acknowledged packet "
                   "was sent (Algorithm 1's GETCWND), refreshed once per round trip")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Gb/s, tau = 8 us, W = W_old = 100,000 B, beta 150 B; one hop.
        Ptr<PowertcpCongestionControl> cc = CreateObject<PowertcpCongestionControl>();
        cc->Start(UnitTestCcContext());
        for (int i = 0; i < 10; ++i)
        {
            cc->OnPacketSent(1000);
        }
        // Packet 1: records kept, lastUpdated = 10 sent.
        IntHeader h1 = Records({{0, 0, 0}});
        cc->OnAck(Ack(1, h1));
        // Packet 2, 8 us later, 8 MB queued in 8 us: power 7205.40, W = 0.9 (100,000 /
        // 7205.40 + 150) + 0.1 x 100,000 = 10,147.49; packet 2 <= 10: no refresh.
        IntHeader h2 = Records({{8000, 781, 65535}});
        cc->OnAck(Ack(1, h2));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 10147.490628, 1e-3, "cut");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetOldWindow(), 100000.0, TOL, "no refresh yet");
        for (int i = 0; i < 10; ++i)
        {
            cc->OnPacketSent(1000); // packets 11..20, sent under W_old 100,000
        }
        // Packets 3..11 (11 > 10: refresh). The queue stays full at 12.496e9 B/s: power
        // 84.857637 (dt = tau); W = 0.9 (100,000 / 84.857637 + 150) + 0.1 x 10,147.49 =
        // 2,210.35, remembered for packets sent from now on (after the 20th).
        IntHeader h3 = Records({{16000, 1562, 65535}});
        cc->OnAck(Ack(9, h3));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 2210.348949, 1e-3, "refresh's W");
        // Packet 12 was sent before that refresh: W_old is 100,000 again, W = 0.9
        // (100,000 / 84.857637 + 150) + 0.1 x 2,210.35 = 1,416.63 (dividing the refresh's
        // 2,210.35 instead would give 379.5, held at one packet).
        IntHeader h4 = Records({{24000, 2343, 65535}});
        cc->OnAck(Ack(1, h4));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetOldWindow(), 100000.0, TOL, "packet 12: W_old 100,000");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 1416.634781, 1e-3, "W from that W_old");
        // Packet 21, sent after the refresh: W_old 2,210.35; W = 0.9 (2,210.35 / 84.857637
        // + 150) + 0.1 x 1,416.63 = 300.1, held at one packet (1,082 B).
        cc->OnPacketSent(1000);
        IntHeader h5 = Records({{32000, 3124, 65535}});
        cc->OnAck(Ack(9, h5));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 1082.0, TOL, "packet 21: W_old 2,210.35");
    }
};

/// The "ns3-datacenter" preset: the current's floor, eta and the latest update as W_old.
class PowertcpNs3DatacenterPresetTest : public TestCase
{
  public:
    PowertcpNs3DatacenterPresetTest()
        : TestCase("PowerTCP 'ns3-datacenter' preset: a current floored at half the line rate, "
                   "eta 0.95, W_old and the EWMA's other term the latest per-RTT update")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaCongestionControl> base =
            CongestionControlFactory::Create("powertcp", "ns3-datacenter");
        Ptr<PowertcpCongestionControl> cc = DynamicCast<PowertcpCongestionControl>(base);
        NS_TEST_ASSERT_MSG_NE(cc, nullptr, "a PowerTCP");
        BooleanValue gradient;
        cc->GetAttribute("QueueGradient", gradient);
        NS_TEST_ASSERT_MSG_EQ(gradient.Get(), true, "lambda = dq/dt + mu (its arrival counter)");
        // 100 Gb/s (b = 12.5e9 B/s), tau = 8 us, W = W_old = 100,000 B, beta 150 B.
        cc->Start(UnitTestCcContext());
        for (int i = 0; i < 10; ++i)
        {
            cc->OnPacketSent(1000);
        }
        IntHeader h1 = Records({{0, 0, 0}});
        cc->OnAck(Ack(1, h1)); // records kept; the next refresh after packet 10
        for (int i = 0; i < 10; ++i)
        {
            cc->OnPacketSent(1000); // packets 11..20, under W 100,000
        }
        // Packets 2..11 (a refresh): 781 units sent and 1000 queued in 8 us: current
        // 16e9 + 12.496e9 B/s, voltage 228,000 B: Gamma 5.1976704; W = 0.9 (0.95 x
        // 100,000 / 5.1976704 + 150) + 0.1 x 100,000 = 26,584.677, remembered.
        IntHeader h2 = Records({{8000, 781, 1000}});
        cc->OnAck(Ack(10, h2));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 5.1976704, TOL, "Gamma");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 26584.67714767, 1e-3, "eta W / Gamma");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetOldWindow(), 26584.67714767, 1e-3, "remembered");
        // Packet 12 (sent before that refresh): the queue falls by 64,000 B while 49,920
        // B leave: current -1.76e9 B/s, raised to half the line, 6.25e9; voltage 164,000
        // B: Gamma 0.82 (0 without the floor: W back at the line rate). W_old is the
        // latest update (GETCWND would give 100,000): W = 0.9 (0.95 x 26,584.677 / 0.82 +
        // 150) + 0.1 x 26,584.677 = 30,512.857.
        IntHeader h3 = Records({{16000, 1171, 500}});
        cc->OnAck(Ack(1, h3));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetLastHopPower(), 0.82, TOL, "the current's floor");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetOldWindow(), 26584.67714767, 1e-3, "latest update");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 30512.85669191, 1e-3, "from the update");
        // Packet 13: the queue steady at 64,000 B, 12.496e9 B/s: Gamma 1.6394752. The
        // EWMA's other term is the update too (not W = 30,512.857, which would give
        // 17,050.417): W = 0.9 (0.95 x 26,584.677 / 1.6394752 + 150) + 0.1 x 26,584.677.
        IntHeader h4 = Records({{24000, 1952, 500}});
        cc->OnAck(Ack(1, h4));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.6394752, TOL, "steady queue");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 16657.59872526, 1e-3, "EWMA on the update");

        const auto names = CongestionControlFactory::GetPresets("powertcp");
        NS_TEST_ASSERT_MSG_EQ(names.size(), 2, "paper and ns3-datacenter");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Get("powertcp").defaultPreset,
                              "paper",
                              "the attribute defaults are the paper's");
    }
};

namespace
{

constexpr uint32_t RECEIVER = 0;
constexpr uint32_t FIRST_SENDER = 8;
constexpr uint32_t SENDERS = 8;

struct IncastResult
{
    double maxQueueKb{0};       //!< the first round trip's burst
    double peakUs{0};           //!< when the queue peaked
    double drainedUs{0};        //!< first time after the peak with the queue under 10 KB
    double maxSteadyQueueKb{0}; //!< from 250 us to the first message's end
    double wireGbps{0};         //!< bottleneck wire rate, 50 us to the first end
    double doneUs{0};
    uint64_t pauses{0};
    uint64_t drops{0};
};

/// The 8-to-1 incast of `bytes` per sender with congestion control `cc`, ACK per packet.
IncastResult
RunIncast(const std::string& cc, uint64_t bytes, bool gradient = true)
{
    Config::SetDefault("ns3::PowertcpCongestionControl::QueueGradient", BooleanValue(gradient));
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> g = ft->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(1));
    RoceFabricHelper helper;
    helper.SetCongestionControl(cc, "");
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
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
    Time firstDone = Time::Max();
    Time lastDone;
    uint64_t txAtFirstDone = 0;
    Ptr<RoceNetDevice> down = edge->GetPort(port);
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&](const RdmaFabric::MessageRecord& m) {
            if (txAtFirstDone == 0)
            {
                txAtFirstDone = down->GetTxBytes();
            }
            firstDone = std::min(firstDone, m.end);
            lastDone = std::max(lastDone, m.end);
        }));
    for (uint32_t i = 0; i < SENDERS; ++i)
    {
        fabric->PostWrite(FIRST_SENDER + i, RECEIVER, bytes, i, 0);
    }
    uint64_t txAt50 = 0;
    const Time steadyFrom = MicroSeconds(50);
    std::function<void()> sample;
    sample = [&]() {
        if (Simulator::Now() >= firstDone)
        {
            return;
        }
        uint64_t q = 0;
        for (uint8_t c = 0; c < 8; ++c)
        {
            q += edge->GetQueueBytes(port, c);
        }
        const double kb = q / 1000.0;
        const double us = Simulator::Now().GetSeconds() * 1e6;
        if (kb > r.maxQueueKb)
        {
            r.maxQueueKb = kb;
            r.peakUs = us;
            r.drainedUs = 0;
        }
        else if (r.drainedUs == 0 && kb < 10.0 && r.maxQueueKb > 10.0)
        {
            r.drainedUs = us;
        }
        if (Simulator::Now() >= MicroSeconds(250))
        {
            r.maxSteadyQueueKb = std::max(r.maxSteadyQueueKb, kb);
        }
        if (Simulator::Now() == steadyFrom)
        {
            txAt50 = down->GetTxBytes();
        }
        ScheduleLambda(MicroSeconds(1), sample);
    };
    ScheduleLambda(MicroSeconds(1), sample);
    Simulator::Run();
    // GetTxBytes counts 1102-byte data frames (INT block, no FCS): 24 B more on the wire.
    r.wireGbps = (txAtFirstDone - txAt50) * (1102.0 + 24.0) / 1102.0 * 8.0 /
                 (firstDone - steadyFrom).GetSeconds() / 1e9;
    r.doneUs = lastDone.GetSeconds() * 1e6;
    RdmaFabric::Counters k = fabric->GetCounters();
    r.pauses = k.pfcPausesSent;
    r.drops = k.losslessDrops + k.lossyDrops;
    std::cout << cc << (gradient ? "" : " (QueueGradient false)")
              << " 8-to-1 incast on a k=4 fat tree: queue max " << r.maxQueueKb << " KB at "
              << r.peakUs << " us, under 10 KB at " << r.drainedUs << " us; after 250 us max "
              << r.maxSteadyQueueKb << " KB; wire " << r.wireGbps << " Gb/s; all done " << r.doneUs
              << " us; pauses " << r.pauses << ", drops " << r.drops << std::endl;
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

/**
 * 8-to-1 incast of 2 MB per sender across a k = 4 fat tree (100 Gb/s, 5-switch paths,
 * INT): PowerTCP (Algorithm 1, and without the queue gradient, the transmit rate as
 * the current) against HPCC: the time to drain the first round trip's burst, the
 * port's rate and the queue afterwards.
 */
class PowertcpIncastTest : public TestCase
{
  public:
    PowertcpIncastTest()
        : TestCase("PowerTCP: an 8-to-1 incast on a k=4 fat tree drains the burst within 1.25x "
                   "of HPCC's time, the port busier")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        IncastResult p = RunIncast("powertcp", 2000000);
        IncastResult m = RunIncast("powertcp", 2000000, false);
        IncastResult h = RunIncast("hpcc", 2000000);
        ReportValidation("powertcp-incast-8-fattree-drain-us", p.drainedUs);
        ReportValidation("powertcp-incast-8-fattree-drain-us.expected", h.drainedUs);
        ReportValidation("powertcp-incast-8-fattree-steady-max-queue-kb", p.maxSteadyQueueKb);
        ReportValidation("powertcp-incast-8-fattree-wire-gbps", p.wireGbps);
        ReportValidation("powertcp-nograd-incast-8-fattree-drain-us", m.drainedUs);
        ReportValidation("powertcp-nograd-incast-8-fattree-steady-max-queue-kb",
                         m.maxSteadyQueueKb);
        ReportValidation("powertcp-nograd-incast-8-fattree-wire-gbps", m.wireGbps);
        // Measured: Algorithm 1 drains the first round trip's burst (under 10 KB) at 205
        // us, HPCC at 172 us: not faster, within 1.25x. Without the gradient: 202 us.
        NS_TEST_ASSERT_MSG_GT(p.drainedUs, 0.0, "PowerTCP: the burst drains");
        NS_TEST_ASSERT_MSG_GT(h.drainedUs, 0.0, "HPCC: the burst drains");
        NS_TEST_ASSERT_MSG_LT(p.drainedUs, 1.25 * h.drainedUs, "within 1.25x of HPCC's drain");
        NS_TEST_ASSERT_MSG_LT(m.drainedUs, 1.25 * h.drainedUs, "no gradient: within 1.25x");
        // The port busier than under HPCC (eta 0.95): 98.0 and 99.2 against 94.0 Gb/s.
        NS_TEST_ASSERT_MSG_GT(p.wireGbps, h.wireGbps + 3.0, "PowerTCP: port busier than HPCC");
        NS_TEST_ASSERT_MSG_GT(m.wireGbps, 98.0, "no gradient: the port above 98 Gb/s");
        // After 250 us: with the gradient the queue still swings (max 73 KB: a draining
        // queue makes lambda small, the power below 1 and the windows grow); without, it
        // settles (max 18 KB; HPCC 7 KB).
        NS_TEST_ASSERT_MSG_LT(p.maxSteadyQueueKb, 100.0, "PowerTCP: steady max under 100 KB");
        NS_TEST_ASSERT_MSG_GT(p.maxSteadyQueueKb, 50.0, "PowerTCP: the swing (over 50 KB)");
        NS_TEST_ASSERT_MSG_LT(m.maxSteadyQueueKb, 30.0, "no gradient: steady max under 30 KB");
        NS_TEST_ASSERT_MSG_EQ(m.drops + m.pauses + p.pauses, 0, "no drop, no pause");
        NS_TEST_ASSERT_MSG_EQ(p.drops, 0, "lossless");
    }
};

/**
 * Two long flows into one 100 Gb/s port of a star (1 us cables); flow 1 joins at 1 ms;
 * their wire rates between 8 and 10 ms, with the defaults, without the queue gradient,
 * and with beta = B tau / 10.
 */
class PowertcpFairnessTest : public TestCase
{
  public:
    PowertcpFairnessTest()
        : TestCase("PowerTCP: two flows into one 100G port: 63.3 and 33.2 Gbps with the defaults "
                   "after 7 ms, each near half without the gradient or with beta = B tau over 10")
    {
    }

  private:
    /// Wire Gb/s of flows 0 and 1 between 8 and 10 ms; counts PFC pauses into \p pauses.
    static std::pair<double, double> Run(bool gradient, uint32_t expectedFlows, uint64_t* pauses)
    {
        Config::SetDefault("ns3::PowertcpCongestionControl::QueueGradient", BooleanValue(gradient));
        Config::SetDefault("ns3::PowertcpCongestionControl::ExpectedFlows",
                           UintegerValue(expectedFlows));
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
        helper.SetCongestionControl("powertcp", "");
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint64_t bytes = 200000000; // never finishes within 10 ms
        fabric->PostWrite(0, 2, bytes, 0, 0);
        ScheduleLambda(MilliSeconds(1),
                       [fabric, bytes]() { fabric->PostWrite(1, 2, bytes, 1, 0); });
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
        uint64_t at8[2] = {0, 0};
        ScheduleLambda(MilliSeconds(8), [&]() {
            at8[0] = delivered(0);
            at8[1] = delivered(1);
        });
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        double gbps[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            // Payload to wire: 1126 wire bytes (INT block included) per 1000-byte packet.
            gbps[i] = (delivered(i) - at8[i]) * 8.0 / 2e-3 / 1e9 * 1126.0 / 1000.0;
        }
        *pauses += fabric->GetCounters().pfcPausesSent;
        std::cout << "PowerTCP two flows (QueueGradient " << gradient << ", ExpectedFlows "
                  << expectedFlows << "): " << gbps[0] << " / " << gbps[1] << " Gb/s of wire"
                  << std::endl;
        Simulator::Destroy();
        Config::Reset();
        return {gbps[0], gbps[1]};
    }

    void DoRun() override
    {
        UsePicoseconds();
        uint64_t pauses = 0;
        auto a = Run(true, 0, &pauses);
        auto b = Run(false, 0, &pauses);
        auto c = Run(true, 10, &pauses);
        auto d = Run(false, 10, &pauses);
        ReportValidation("powertcp-100g-2flows-min-gbps", std::min(a.first, a.second));
        ReportValidation("powertcp-nograd-100g-2flows-min-gbps", std::min(b.first, b.second));
        ReportValidation("powertcp-n10-100g-2flows-min-gbps", std::min(c.first, c.second));
        // Defaults (Algorithm 1, beta = 150 Mb/s x tau): after 7 ms still 63.3 / 33.2: the
        // first flow keeps more (beta, 150 B a round trip, evens the windows out slowly).
        NS_TEST_ASSERT_MSG_GT(a.first + a.second, 95.0, "defaults: together the port");
        NS_TEST_ASSERT_MSG_EQ_TOL(std::min(a.first, a.second) / std::max(a.first, a.second),
                                  0.53,
                                  0.1,
                                  "defaults: 63.3 / 33.2");
        // Without the gradient (the transmit rate as the current), or with beta = B tau /
        // 10 (the Linux module): each near half (49.3 / 47.4, 50.0 / 50.0, 50.0 / 50.0).
        for (const auto& [f0, f1] : {b, c, d})
        {
            NS_TEST_ASSERT_MSG_GT(f0 + f1, 93.0, "together the port");
            NS_TEST_ASSERT_MSG_EQ_TOL(f0, (f0 + f1) / 2, 2.5, "flow 0 near half");
            NS_TEST_ASSERT_MSG_EQ_TOL(f1, (f0 + f1) / 2, 2.5, "flow 1 near half");
        }
        NS_TEST_ASSERT_MSG_EQ(pauses, 0, "no PFC pause");
    }
};

namespace
{

/// The burst scenario's outcome for one congestion control.
struct BurstResult
{
    double peakKb{0};     //!< the bottleneck queue's maximum in the burst's first 200 us
    double peakUs{0};     //!< when, after the burst
    double drainUs{0};    //!< first time after the peak with the queue under 10 KB
    double laterMaxKb{0}; //!< the queue's maximum from 500 us after the burst
    double util200{0};    //!< bottleneck goodput over the burst's first 200 us / line
    double util{0};       //!< bottleneck goodput over the 3 ms after the burst / line
    double longBefore{0}; //!< the long flow's goodput share before the burst
    uint64_t pauses{0};
    uint64_t drops{0};
};

constexpr uint32_t BURST_SENDERS = 10;

/**
 * The paper's burst-tolerance shape on one 25 Gb/s top-of-rack switch (the authors'
 * simulator's host links: 25 Gb/s, 1 us): host 1 sends a long flow to host 0; at 1 ms
 * hosts 2..11 start ten more long flows to host 0 (a 10:1 incast). ACK per packet.
 * \p tau > 0 sets PowerTCP's and HPCC's BaseRtt (the authors' simulator uses the
 * network's largest RTT for every flow); \p flows > 0 sets PowerTCP's ExpectedFlows.
 * Prints a trace of the first 150 us.
 */
BurstResult
RunBurst(const std::string& cc,
         bool gradient = true,
         Time tau = Time(0),
         uint32_t flows = 0,
         const std::string& preset = "")
{
    Config::SetDefault("ns3::PowertcpCongestionControl::ExpectedFlows", UintegerValue(flows));
    Config::SetDefault("ns3::PowertcpCongestionControl::QueueGradient", BooleanValue(gradient));
    Config::SetDefault("ns3::PowertcpCongestionControl::BaseRtt", TimeValue(tau));
    Config::SetDefault("ns3::HpccCongestionControl::BaseRtt", TimeValue(tau));
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (uint32_t i = 0; i < BURST_SENDERS + 2; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("25Gbps"), MicroSeconds(1));
    }
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(1));
    RoceFabricHelper helper;
    helper.SetCongestionControl(cc, preset);
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
    Ptr<RoceSwitch> tor = fabric->GetSwitches()[0];
    uint32_t port = 0;
    const auto& ports = g->GetPorts(sw);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (ports[i].peer == 0)
        {
            port = i;
        }
    }
    const uint64_t bytes = 100000000; // none ends within the run
    const Time burst = MilliSeconds(1);
    const Time end = burst + MilliSeconds(3);
    fabric->PostWrite(1, 0, bytes, 0, 0);
    ScheduleLambda(burst, [fabric, bytes]() {
        for (uint32_t i = 0; i < BURST_SENDERS; ++i)
        {
            fabric->PostWrite(2 + i, 0, bytes, 1 + i, 0);
        }
    });
    auto delivered = [fabric]() {
        uint64_t sum = 0;
        for (const auto& qp : fabric->GetNic(0)->GetQueuePairs())
        {
            sum += qp->GetDeliveredBytes();
        }
        return sum;
    };
    // Goodput at line rate: 1000 payload bytes per 1082 wire bytes, 1126 with one INT
    // record (an INT algorithm's).
    const bool usesInt = CongestionControlRegistry::Get(cc).usesInt;
    const double line = 25e9 * 1000.0 / (usesInt ? 1126.0 : 1082.0);
    BurstResult r;
    uint64_t atBurst = 0;
    uint64_t at200 = 0;
    uint64_t at500 = 0;
    std::function<void()> sample;
    sample = [&]() {
        uint64_t q = 0;
        for (uint8_t c = 0; c < 8; ++c)
        {
            q += tor->GetQueueBytes(port, c);
        }
        const double kb = q / 1000.0;
        const Time now = Simulator::Now();
        if (now == MicroSeconds(500))
        {
            at500 = delivered();
        }
        if (now == burst)
        {
            atBurst = delivered();
            r.longBefore = (atBurst - at500) * 8.0 / 500e-6 / line;
        }
        if (now == burst + MicroSeconds(200))
        {
            at200 = delivered();
        }
        if (now > burst)
        {
            const double us = (now - burst).GetSeconds() * 1e6;
            if (now <= burst + MicroSeconds(200) && kb > r.peakKb)
            {
                r.peakKb = kb;
                r.peakUs = us;
                r.drainUs = 0;
            }
            else if (r.drainUs == 0 && kb < 10.0 && r.peakKb > 10.0)
            {
                r.drainUs = us;
            }
            if (now >= burst + MicroSeconds(500))
            {
                r.laterMaxKb = std::max(r.laterMaxKb, kb);
            }
            if (now <= burst + MicroSeconds(150) && int64_t(us) % 10 == 0)
            {
                const auto& lqp = fabric->GetNic(1)->GetQueuePairs();
                Ptr<RdmaCongestionControl> lcc = lqp.front()->GetCongestionControl();
                std::cout << "  trace " << cc << " +" << us << " us: queue " << kb
                          << " KB, long flow window " << lcc->GetWindowBytes() << " B, rate "
                          << lcc->GetRateBps() / 1e9 << " Gb/s";
                Ptr<PowertcpCongestionControl> p = DynamicCast<PowertcpCongestionControl>(lcc);
                if (p)
                {
                    std::cout << ", power " << p->GetPower() << ", W_old " << p->GetOldWindow();
                }
                std::cout << std::endl;
            }
        }
        if (now < end)
        {
            ScheduleLambda(MicroSeconds(1), sample);
        }
    };
    ScheduleLambda(MicroSeconds(1), sample);
    Simulator::Stop(end + NanoSeconds(1));
    Simulator::Run();
    r.util200 = (at200 - atBurst) * 8.0 / 200e-6 / line;
    r.util = (delivered() - atBurst) * 8.0 / (end - burst).GetSeconds() / line;
    RdmaFabric::Counters k = fabric->GetCounters();
    r.pauses = k.pfcPausesSent;
    r.drops = k.losslessDrops + k.lossyDrops;
    std::cout << cc << (preset.empty() ? "" : " (preset " + preset + ")")
              << (gradient ? "" : " (QueueGradient false)")
              << (tau.IsStrictlyPositive()
                      ? " (BaseRtt " + std::to_string(tau.GetMicroSeconds()) + " us)"
                      : std::string())
              << (flows > 0 ? " (ExpectedFlows " + std::to_string(flows) + ")" : std::string())
              << " 10-to-1 burst on a long flow at 25 Gb/s: long flow alone " << r.longBefore
              << " of the line; queue peak " << r.peakKb << " KB at +" << r.peakUs
              << " us, under 10 KB at +" << r.drainUs << " us; from +500 us max " << r.laterMaxKb
              << " KB; utilization " << r.util200 << " (first 200 us), " << r.util
              << " (3 ms); pauses " << r.pauses << ", drops " << r.drops << std::endl;
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

/**
 * The paper's reaction-to-incast shape: a long flow at equilibrium, then ten new flows
 * into the same 25 Gb/s port; PowerTCP, theta-PowerTCP and HPCC: the queue's peak, the
 * time to drain it, the port's utilization.
 */
class PowertcpBurstTest : public TestCase
{
  public:
    PowertcpBurstTest()
        : TestCase("PowerTCP: a 10-to-1 burst on a long flow at 25 Gbps against theta-PowerTCP "
                   "and HPCC: peak queue, drain time, utilization")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        // The paper's configuration (Addanki et al. 2022, sec. 4.1): PowerTCP's and
        // HPCC's tau is the topology's largest RTT, about 30 us (28 us of cables on the
        // fat tree's longest path plus serialization); theta-PowerTCP takes the path's.
        BurstResult p = RunBurst("powertcp", true, MicroSeconds(30));
        BurstResult n = RunBurst("powertcp", false, MicroSeconds(30));
        BurstResult h = RunBurst("hpcc", true, MicroSeconds(30));
        // The authors' ns-3 simulator's PowerTCP (its preset).
        BurstResult d = RunBurst("powertcp", true, MicroSeconds(30), 0, "ns3-datacenter");
        BurstResult t = RunBurst("theta-powertcp");
        // beta as the paper's text sets it, HostBw x tau / N with N = 10 (9.4 KB).
        BurstResult b = RunBurst("powertcp", true, MicroSeconds(30), 10);
        // The model's defaults: tau is each path's unloaded RTT (5.4 us here).
        BurstResult pp = RunBurst("powertcp");
        BurstResult np = RunBurst("powertcp", false);
        BurstResult hp = RunBurst("hpcc");
        ReportValidation("powertcp-burst-10to1-peak-kb", p.peakKb);
        ReportValidation("powertcp-burst-10to1-peak-kb.expected", h.peakKb / 2);
        ReportValidation("powertcp-burst-10to1-drain-us", p.drainUs);
        ReportValidation("powertcp-burst-10to1-drain-us.expected", h.drainUs);
        ReportValidation("powertcp-burst-10to1-util", p.util);
        ReportValidation("hpcc-burst-10to1-util", h.util);
        ReportValidation("hpcc-burst-10to1-peak-kb", h.peakKb);
        ReportValidation("hpcc-burst-10to1-drain-us", h.drainUs);
        ReportValidation("powertcp-ns3dc-burst-10to1-peak-kb", d.peakKb);
        ReportValidation("powertcp-ns3dc-burst-10to1-drain-us", d.drainUs);
        ReportValidation("theta-powertcp-burst-10to1-drain-us", t.drainUs);
        ReportValidation("powertcp-pathrtt-burst-10to1-drain-us", pp.drainUs);
        ReportValidation("powertcp-pathrtt-burst-10to1-drain-us.expected", hp.drainUs);
        for (const BurstResult* r : {&p, &n, &h, &d, &t, &pp, &np, &hp})
        {
            NS_TEST_ASSERT_MSG_EQ(r->pauses + r->drops, 0, "no pause, no drop");
            NS_TEST_ASSERT_MSG_GT(r->drainUs, 0.0, "the burst drains under 10 KB");
        }
        // Paper's configuration. The queue's growth (dq/dt) cuts PowerTCP's windows within
        // the first round trip: peak 331 KB against HPCC's 552 (1.67x; the paper: about
        // 2x); without the gradient no early cut (517 KB).
        NS_TEST_ASSERT_MSG_LT(p.peakKb, 0.7 * h.peakKb, "PowerTCP's peak well below HPCC's");
        NS_TEST_ASSERT_MSG_GT(p.peakKb, 0.5 * h.peakKb, "but not half of it");
        NS_TEST_ASSERT_MSG_GT(n.peakKb, 0.9 * h.peakKb, "no gradient: no early cut");
        // Throughput kept: 0.981 of the line over the 3 ms against HPCC's 0.941.
        NS_TEST_ASSERT_MSG_GT(p.util, h.util + 0.03, "PowerTCP keeps more throughput");
        NS_TEST_ASSERT_MSG_GT(p.util, 0.97, "PowerTCP: 97% of the line");
        // Not faster to drain: under 10 KB at +405 us against HPCC's +238 us (1.70x). With
        // the windows summing to one BDP (power 1) the queue drains at b q / (q + b tau),
        // slowly near the end; HPCC's U counts the queue at the line rate and cuts further.
        NS_TEST_ASSERT_MSG_GT(p.drainUs, 1.5 * h.drainUs, "PowerTCP drains slower than HPCC");
        NS_TEST_ASSERT_MSG_LT(p.drainUs, 2.0 * h.drainUs, "within 2x of HPCC's drain");
        // Side by side with the authors' simulator (inet-tub/ns3-datacenter, its burst
        // experiment on its 256-host topology with flow-burstExp-10, tau = its maxRtt
        // 28.96 us, the queue sampled every 6.96 us), measured: HPCC peaks at 550.5 KB
        // (+22.8 us) and is under 10 KB at +238.6 us; ours 552 KB and +238 us.
        NS_TEST_ASSERT_MSG_EQ_TOL(h.peakKb, 550.5, 0.05 * 550.5, "HPCC's peak as the peer's");
        NS_TEST_ASSERT_MSG_EQ_TOL(h.drainUs, 238.6, 0.1 * 238.6, "HPCC's drain as the peer's");
        // Its PowerTCP with HPCC's first-round-trip branch added (the first ACK only keeps
        // the records, as UpdateRateHp does; as published it divides by a power computed
        // against zeroed records: 215.8 KB, +203.8 us): 311.7 KB, +301.2 us. Its preset
        // here: 327 KB, +319 us, the port at 0.993 of the line.
        NS_TEST_ASSERT_MSG_EQ_TOL(d.peakKb, 311.7, 0.15 * 311.7, "ns3-datacenter: the peak");
        NS_TEST_ASSERT_MSG_EQ_TOL(d.drainUs, 301.2, 0.15 * 301.2, "ns3-datacenter: the drain");
        NS_TEST_ASSERT_MSG_GT(d.drainUs, 1.1 * h.drainUs, "ns3-datacenter: slower than HPCC");
        NS_TEST_ASSERT_MSG_GT(d.util, 0.98, "ns3-datacenter: the port full");
        NS_TEST_ASSERT_MSG_LT(d.laterMaxKb, 15.0, "ns3-datacenter: no later swing");
        // theta-PowerTCP (window capped at a BDP): 171 KB, under 10 KB at +119 us.
        NS_TEST_ASSERT_MSG_LT(t.peakKb, 200.0, "theta: peak under 200 KB");
        NS_TEST_ASSERT_MSG_LT(t.drainUs, 150.0, "theta: drained within 150 us");
        NS_TEST_ASSERT_MSG_LT(t.laterMaxKb, 50.0, "theta: later queue under 50 KB");
        // With beta = B tau / 10 the eleven flows hold about 11 beta (103 KB) queued: the
        // queue never falls under 10 KB (later maximum 149 KB), the port stays full.
        NS_TEST_ASSERT_MSG_EQ(b.drainUs, 0.0, "beta B tau / 10: never under 10 KB");
        NS_TEST_ASSERT_MSG_GT(b.laterMaxKb, 100.0, "beta B tau / 10: a standing queue");
        NS_TEST_ASSERT_MSG_GT(b.util, 0.99, "beta B tau / 10: the port full");
        // The model's defaults (tau 5.4 us): all ten initial windows arrive before any
        // feedback (peak 155 KB for both); PowerTCP under 10 KB at +164 us, HPCC +78 us.
        NS_TEST_ASSERT_MSG_EQ_TOL(pp.peakKb, hp.peakKb, 0.02 * hp.peakKb, "the same burst");
        NS_TEST_ASSERT_MSG_GT(pp.drainUs, 1.8 * hp.drainUs, "path RTT: PowerTCP slower");
        NS_TEST_ASSERT_MSG_LT(pp.drainUs, 2.4 * hp.drainUs, "path RTT: within 2.4x");
        NS_TEST_ASSERT_MSG_GT(pp.util, hp.util + 0.015, "path RTT: PowerTCP keeps more");
        NS_TEST_ASSERT_MSG_LT(np.drainUs, 1.3 * hp.drainUs, "no gradient: near HPCC's drain");
    }
};

class PowertcpTestSuite : public TestSuite
{
  public:
    PowertcpTestSuite()
        : TestSuite("ai-fabric-powertcp", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new PowertcpAlgorithmTest, AI_FABRIC_QUICK);
        AddTestCase(new PowertcpOldWindowTest, AI_FABRIC_QUICK);
        AddTestCase(new PowertcpNs3DatacenterPresetTest, AI_FABRIC_QUICK);
        AddTestCase(new PowertcpIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new PowertcpFairnessTest, AI_FABRIC_QUICK);
        AddTestCase(new PowertcpBurstTest, AI_FABRIC_QUICK);
    }
};

static PowertcpTestSuite g_powertcpTestSuite; //!< registers the suite
