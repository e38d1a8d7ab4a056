/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * theta-PowerTCP (Addanki et al., NSDI 2022, the RTT-only variant): the power and
 * window updates against hand-computed steps, and two flows sharing one 100 Gb/s port.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/double.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/theta-powertcp-congestion-control.h"
#include "ns3/topology-graph.h"

#include <algorithm>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

RdmaAckSample
Ack(uint32_t packets, Time rtt)
{
    RdmaAckSample s;
    s.ackedPackets = packets;
    s.ackedBytes = packets * 1000;
    s.rtt = rtt;
    s.hops = 1;
    return s;
}

} // namespace

/// Power per ACK, window once per RTT (tau 8 us, BDP 100,000 B, gamma 0.9, beta 50 B).
class ThetaPowertcpStepsTest : public TestCase
{
  public:
    ThetaPowertcpStepsTest()
        : TestCase("theta-PowerTCP: power from the RTT and its gradient per ACK, window once "
                   "per RTT (hand-computed steps)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ThetaPowertcpCongestionControl> cc = CreateObject<ThetaPowertcpCongestionControl>();
        cc->Start(UnitTestCcContext());
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 100000ULL, "one BDP");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "line rate");
        for (int i = 0; i < 10; ++i)
        {
            cc->OnPacketSent(1000);
        }
        // First ACK: only remembered (RTT 8 us at 10 us); the next update waits for
        // the 10 packets sent so far.
        cc->Update(Ack(1, MicroSeconds(8)), MicroSeconds(10));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.0, 1e-12, "power starts at 1");
        // 2 us later, RTT 12 us: gradient 4/2 = 2, norm (2 + 1) x 12/8 = 4.5, weight
        // 2/8: power 0.75 + 4.5 x 0.25 = 1.875; 6 of 10 acknowledged: no window update.
        cc->Update(Ack(5, MicroSeconds(12)), MicroSeconds(12));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.875, 1e-9, "power EWMA");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 100000.0, 1e-6, "once per RTT");
        // 8 us later, RTT 12 us: gradient 0, norm 1.5, weight 1: power 1.5; the window
        // 0.9 x (100,000 / 1.5 + 50) + 0.1 x 100,000 = 70,045 B, rate 70.045 Gb/s.
        cc->Update(Ack(5, MicroSeconds(12)), MicroSeconds(20));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 1.5, 1e-9, "power");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 70045.0, 1e-6, "window update");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 70045ULL, "window to the QP");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 70045000000ULL, "rate cwnd / tau");
        // RTT back at 8 us 8 us later: gradient -0.5, norm 0.5 x 1 = 0.5, power 0.5; the
        // next update (ACK covering packet 12): 0.9 x (70,045 / 0.5 + 50) + 0.1 x
        // 70,045 = 126,126 + 7,004.5 = 133,130.5 B, capped at one BDP (100,000 B), the
        // rate at the line.
        cc->Update(Ack(1, MicroSeconds(8)), MicroSeconds(28));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetPower(), 0.5, 1e-9, "falling RTT: power below 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 100000.0, 1e-6, "window capped at BDP");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 100000ULL, "one BDP to the QP");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "line rate caps the rate");
        // Another falling-RTT round trip does not take the window past one BDP (without
        // the cap it compounded: 100,000 / 0.5 per RTT, gigabytes for a flow alone).
        for (int i = 0; i < 20; ++i)
        {
            cc->OnPacketSent(1000);
        }
        cc->Update(Ack(1, MicroSeconds(8)), MicroSeconds(36));
        cc->Update(Ack(30, MicroSeconds(8)), MicroSeconds(44));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactWindow(), 100000.0, 1e-6, "still one BDP");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Get("theta-powertcp").usesEcn,
                              false,
                              "RTT only: no ECN");
    }
};

/// Two long flows into one 100 Gb/s port share it with a short queue.
class ThetaPowertcpFairnessTest : public TestCase
{
  public:
    ThetaPowertcpFairnessTest()
        : TestCase("theta-PowerTCP: two flows into one 100G port share it with a short queue, "
                   "no pause")
    {
    }

  private:
    struct Probe
    {
        Ptr<RoceSwitch> sw;
        uint32_t port{0};
        std::vector<double> queueKb;
    };

    static void Sample(Probe* p)
    {
        if (Simulator::Now() >= MilliSeconds(4))
        {
            p->queueKb.push_back(p->sw->GetQueueBytes(p->port, 3) / 1000.0);
        }
        Simulator::Schedule(MicroSeconds(1), &ThetaPowertcpFairnessTest::Sample, p);
    }

    struct Result
    {
        double gbps[2];
        double p50, p99;
        uint64_t pauses, drops;
    };

    void DoRun() override
    {
        // beta 2% of the BDP (2 KB, two packets per RTT): the two flows converge
        const Result fast = Run(0.02);
        ReportValidation("theta-powertcp-100g-2flows-min-gbps",
                         std::min(fast.gbps[0], fast.gbps[1]));
        NS_TEST_ASSERT_MSG_EQ(fast.drops, 0, "lossless");
        NS_TEST_ASSERT_MSG_EQ(fast.pauses, 0, "no PFC pause");
        NS_TEST_ASSERT_MSG_EQ_TOL(fast.gbps[0], 47.5, 5.0, "flow 0 near its fair share");
        NS_TEST_ASSERT_MSG_EQ_TOL(fast.gbps[1], 47.5, 5.0, "flow 1 near its fair share");
        NS_TEST_ASSERT_MSG_GT(fast.gbps[0] + fast.gbps[1], 90.0, "port over 90% busy");
        NS_TEST_ASSERT_MSG_LT(fast.p99, 20.0, "p99 queue below 20 KB");
        // the default beta (0.05% of the BDP, 50 B per RTT): the same short queue; with
        // cwnd capped at one BDP the first flow's window is a BDP when the second joins,
        // both cut alike and share (44.3 / 43.1 Gb/s), but 50 B per RTT refills the port
        // slowly: about 12% of it idle (87.4 Gb/s together) at 8-10 ms
        const Result slow = Run(0.0005);
        NS_TEST_ASSERT_MSG_EQ(slow.drops + slow.pauses, 0, "default beta: lossless, no pause");
        NS_TEST_ASSERT_MSG_LT(slow.p99, 20.0, "default beta: p99 queue below 20 KB");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow.gbps[0], slow.gbps[1], 3.0, "default beta: fair");
        NS_TEST_ASSERT_MSG_EQ_TOL(slow.gbps[0] + slow.gbps[1],
                                  87.4,
                                  1.5,
                                  "default beta: the port 87.4 Gb/s busy");
        NS_TEST_ASSERT_MSG_LT(slow.gbps[1], fast.gbps[1], "default beta: late flow slower");
    }

    Result Run(double beta)
    {
        UsePicoseconds();
        Config::SetDefault("ns3::ThetaPowertcpCongestionControl::BetaRatio", DoubleValue(beta));
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        uint32_t sw = g->AddSwitch();
        std::vector<uint32_t> hosts;
        for (int i = 0; i < 3; ++i)
        {
            hosts.push_back(g->AddHost());
            g->AddLink(hosts.back(), sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        RoceFabricHelper helper;
        helper.SetCongestionControl("theta-powertcp", "");
        Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Probe p;
        p.sw = fabric->GetSwitches()[0];
        const auto& ports = g->GetPorts(sw);
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            p.port = ports[i].peer == hosts[2] ? i : p.port;
        }
        const uint64_t bytes = 1000000000;
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
            return uint64_t{0};
        };
        uint64_t at8[2] = {0, 0};
        ScheduleLambda(MilliSeconds(8), [&]() {
            at8[0] = delivered(0);
            at8[1] = delivered(1);
        });
        Simulator::Schedule(MicroSeconds(1), &ThetaPowertcpFairnessTest::Sample, &p);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        double gbps[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            gbps[i] = (delivered(i) - at8[i]) * 8.0 / 2e-3 / 1e9 * 1082.0 / 1000.0;
        }
        std::vector<double> q = p.queueKb;
        std::sort(q.begin(), q.end());
        const double p50 = q[q.size() / 2];
        const double p99 = q[static_cast<std::size_t>(0.99 * (q.size() - 1))];
        RdmaFabric::Counters c = fabric->GetCounters();
        std::cout << "theta-PowerTCP two flows, beta " << beta << " BDP: 8-10 ms wire " << gbps[0]
                  << " / " << gbps[1] << " Gb/s; queue 4-10 ms p50 " << p50 << " KB, p99 " << p99
                  << " KB, max " << q.back() << " KB; pauses " << c.pfcPausesSent << ", drops "
                  << c.losslessDrops + c.lossyDrops << std::endl;
        Result r{{gbps[0], gbps[1]}, p50, p99, c.pfcPausesSent, c.losslessDrops + c.lossyDrops};
        Simulator::Destroy();
        Config::Reset();
        return r;
    }
};

class ThetaPowertcpTestSuite : public TestSuite
{
  public:
    ThetaPowertcpTestSuite()
        : TestSuite("ai-fabric-theta-powertcp", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new ThetaPowertcpStepsTest, AI_FABRIC_QUICK);
        AddTestCase(new ThetaPowertcpFairnessTest, AI_FABRIC_QUICK);
    }
};

static ThetaPowertcpTestSuite g_thetaPowertcpTestSuite;
