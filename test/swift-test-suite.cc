/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Swift (Kumar et al. 2020, Algorithm 1): target, AIMD, pacing, timeouts, endpoint window.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/double.h"
#include "ns3/lambda-callback.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/swift-congestion-control.h"

#include <cmath>
#include <vector>

using namespace ns3;

namespace
{

Ptr<SwiftCongestionControl>
MakeSwift(double initialCwnd)
{
    Ptr<SwiftCongestionControl> cc = CreateObject<SwiftCongestionControl>();
    cc->SetAttribute("InitialCwnd", DoubleValue(initialCwnd));
    cc->Start(UnitTestCcContext());
    return cc;
}

RdmaAckSample
Ack(Time rtt, Time remote = Time(0), uint32_t packets = 1)
{
    RdmaAckSample s;
    s.ackedPackets = packets;
    s.ackedBytes = packets * 1000;
    s.rtt = rtt;
    s.remoteDelay = remote;
    s.hops = 1;
    return s;
}

} // namespace

/// Flow-scaled target: base + hops*h at fs_max_cwnd, + fs_range at fs_min_cwnd.
class SwiftTargetTest : public TestCase
{
  public:
    SwiftTargetTest()
        : TestCase("target delay: flow scaling 0 at fs_max_cwnd, fs_range at fs_min_cwnd")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(0);
        // Defaults: base 10 us, h 1 us, fs_range 5 x base = 50 us.
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetDelay(100, 3).GetSeconds(),
                                  13e-6,
                                  1e-12,
                                  "base + 3h");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetDelay(0.1, 3).GetSeconds(),
                                  63e-6,
                                  1e-12,
                                  "base + 3h + fs_range");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetDelay(1000, 3).GetSeconds(),
                                  13e-6,
                                  1e-12,
                                  "clamped at 0 above fs_max_cwnd");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetDelay(0.001, 0).GetSeconds(),
                                  60e-6,
                                  1e-12,
                                  "clamped at fs_range below fs_min_cwnd");
        // In between: a/sqrt(cwnd) + b with a = 50us/(1/sqrt(0.1) - 1/sqrt(100)).
        double a = 50e-6 / (1 / std::sqrt(0.1) - 0.1);
        double b = -a / 10;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetDelay(4, 0).GetSeconds(),
                                  10e-6 + a / 2 + b,
                                  1e-9,
                                  "a/sqrt(4) + b (ns resolution)");
        // Max window = 2 x BDP = 2 x 100G x 8us / (8 x 1082 B).
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetMaxCwnd(), 2 * 100e9 * 8e-6 / (8 * 1082), 1e-9, "2 BDP");
    }
};

/**
 * Packets sprayed over paths of different lengths: each ACK's target uses the hop
 * count it echoes (the packet's own path), and the route's (the context's, 1) when it
 * echoes none. Above fs_max_cwnd (100) the flow-scaling term is 0, so the target is
 * exactly base 10 us + hops x 1 us; a 14 us RTT is then above a 3-hop packet's target
 * (the window is cut) and below a 5-hop packet's (the window grows).
 */
class SwiftPerPacketHopsTest : public TestCase
{
  public:
    SwiftPerPacketHopsTest()
        : TestCase("per-packet hop count: each ACK's target follows its packet's own hops")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(150);
        std::vector<int64_t> targetsNs;
        cc->TraceConnectWithoutContext(
            "TargetDelay",
            MakeLambdaCallback<void, Time, Time>(
                [&targetsNs](Time, Time t) { targetsNs.push_back(t.GetNanoSeconds()); }));
        const uint32_t hops[] = {5, 3, 0, 5, 3};
        const int64_t expectNs[] = {15000, 13000, 11000, 15000, 13000};
        for (uint32_t i = 0; i < 5; ++i)
        {
            RdmaAckSample s = Ack(MicroSeconds(9));
            s.hops = hops[i];
            cc->OnAck(s);
        }
        NS_TEST_ASSERT_MSG_EQ(targetsNs.size(), 5u, "one target per ACK");
        for (uint32_t i = 0; i < targetsNs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(targetsNs[i],
                                  expectNs[i],
                                  "ACK " << i << " (" << hops[i] << " hops echoed)");
        }
        // The same 14 us RTT: a 5-hop packet's target (15 us) is above it, a 3-hop
        // packet's (13 us) below it.
        Ptr<SwiftCongestionControl> far = MakeSwift(150);
        Ptr<SwiftCongestionControl> near = MakeSwift(150);
        RdmaAckSample s = Ack(MicroSeconds(14));
        s.hops = 5;
        far->OnAck(s);
        s.hops = 3;
        near->OnAck(s);
        NS_TEST_ASSERT_MSG_GT(far->GetFabricCwnd(), 150.0, "5 hops: below target, grows");
        NS_TEST_ASSERT_MSG_LT(near->GetFabricCwnd(), 150.0, "3 hops: above target, cut");
    }
};

/// Below target the window grows by ai per window's worth of ACKs.
class SwiftAdditiveIncreaseTest : public TestCase
{
  public:
    SwiftAdditiveIncreaseTest()
        : TestCase("additive increase: about ai per RTT worth of ACKs")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(20);
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 20000u, "window = cwnd x mtu");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "no pacing above 1");
        for (int i = 0; i < 20; ++i)
        {
            cc->OnAck(Ack(MicroSeconds(9)));
        }
        // Sum of 1/cwnd over 20 ACKs while cwnd grows 20 -> ~21: between 20/21 and 1.
        double grown = cc->GetCwnd() - 20;
        NS_TEST_ASSERT_MSG_GT(grown, 20.0 / 21, "at least ai x 20/21");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(grown, 1.0, "at most ai");
        // Below one packet the increase is ai per ACKed packet.
        Ptr<SwiftCongestionControl> small = MakeSwift(0.25);
        small->OnAck(Ack(MicroSeconds(9)));
        NS_TEST_ASSERT_MSG_EQ_TOL(small->GetCwnd(), 1.25, 1e-12, "cwnd < 1: += ai");
    }
};

/// Above target: cwnd *= max(1 - beta (d - t)/d, 1 - max_mdf), once per RTT.
class SwiftDecreaseTest : public TestCase
{
  public:
    SwiftDecreaseTest()
        : TestCase("multiplicative decrease by the formula, capped, at most once per RTT")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(50);
        Time target = cc->GetTargetDelay(50, 1);
        Time d1 = target * 5 / 4; // 1 - 0.8 x 0.25/1.25 = 0.84
        cc->OnAck(Ack(d1));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetCwnd(), 42.0, 1e-6, "50 x 0.84");
        cc->OnAck(Ack(target * 10));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetCwnd(), 42.0, 1e-6, "second decrease within an RTT");
        cc->OnNack();
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetCwnd(), 42.0, 1e-6, "NACK within the same RTT");
        double after = 0;
        double afterNack = 0;
        // One RTT (the latest sample, 10 x target) later a decrease is allowed again:
        // 1 - 0.8 x 0.9 = 0.28 is capped at 1 - max_mdf = 0.5.
        ScheduleLambda(target * 10, [&]() {
            cc->OnAck(Ack(target * 10));
            after = cc->GetCwnd();
            cc->OnNack();
            afterNack = cc->GetCwnd();
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ_TOL(after, 21.0, 1e-6, "capped at max_mdf");
        NS_TEST_ASSERT_MSG_EQ_TOL(afterNack, 21.0, 1e-6, "NACK right after a decrease: none");
    }
};

/// cwnd < 1: window one packet, rate = wireBytes x 8 x cwnd / rtt.
class SwiftPacingTest : public TestCase
{
  public:
    SwiftPacingTest()
        : TestCase("pacing below one packet: rate = wire x 8 x cwnd per rtt")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(0.5);
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 1000u, "one packet");
        double expect = 1082 * 8 * 0.5 / 8e-6; // base RTT before any sample
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRate().GetBitRate() / expect, 1.0, 0.01, "541 Mb/s");
        // A late ACK (rtt 100 us) shrinks the window; the rate follows the new RTT.
        cc->OnAck(Ack(MicroSeconds(100)));
        double cwnd = cc->GetCwnd();
        NS_TEST_ASSERT_MSG_LT(cwnd, 0.5, "decreased");
        expect = 1082 * 8 * cwnd / 100e-6;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRate().GetBitRate() / expect, 1.0, 0.01, "paced rate");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 1000u, "still one packet");
    }
};

/// RETX_RESET_THRESHOLD consecutive timeouts reset the window to min_cwnd.
class SwiftTimeoutTest : public TestCase
{
  public:
    SwiftTimeoutTest()
        : TestCase("timeouts halve; the 5th consecutive resets to min_cwnd; an ACK clears")
    {
    }

  private:
    uint64_t m_rateBps{0};

    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(50);
        std::vector<double> cw;
        // Timeouts 10 us apart, more than the 8 us base RTT.
        for (int i = 0; i < 5; ++i)
        {
            ScheduleLambda(MicroSeconds(10 * i), [&]() {
                cc->OnTimeout();
                cw.push_back(cc->GetCwnd());
                m_rateBps = cc->GetRate().GetBitRate();
            });
        }
        ScheduleLambda(MicroSeconds(60), [&]() {
            cc->OnAck(Ack(MicroSeconds(9)));
            NS_TEST_EXPECT_MSG_EQ(cc->GetRetransmitCount(), 0u, "ACK clears the counter");
        });
        double afterAck = 0;
        ScheduleLambda(MicroSeconds(80), [&]() {
            double before = cc->GetCwnd();
            cc->OnTimeout();
            afterAck = cc->GetCwnd() / before;
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(cw.size(), 5u, "five timeouts");
        NS_TEST_ASSERT_MSG_EQ_TOL(cw[0], 25.0, 1e-9, "1st halves");
        NS_TEST_ASSERT_MSG_EQ_TOL(cw[3], 50.0 / 16, 1e-9, "4th: 50/16");
        NS_TEST_ASSERT_MSG_EQ_TOL(cw[4], 0.001, 1e-12, "5th: min_cwnd");
        // No RTT sample yet: paced at one packet per base RTT / min_cwnd (1.082 Mb/s).
        NS_TEST_ASSERT_MSG_EQ_TOL(m_rateBps / (1082 * 8 * 0.001 / 8e-6), 1.0, 0.01, "paced");
        NS_TEST_ASSERT_MSG_EQ_TOL(afterAck, 0.5, 1e-9, "counter restarted: halving again");
    }
};

/// Endpoint window reacts to the remote delay; the effective window is the min.
class SwiftEndpointTest : public TestCase
{
  public:
    SwiftEndpointTest()
        : TestCase("endpoint window limits when remote delay exceeds its target")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwiftCongestionControl> cc = MakeSwift(50);
        // rtt 30 us, 25 us of it in the receiver: fabric delay 5 us (below target),
        // endpoint delay 25 us vs 10 us: x max(1 - 0.8 x 15/25, 0.5) = 0.52.
        cc->OnAck(Ack(MicroSeconds(30), MicroSeconds(25)));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetFabricCwnd(), 50.0 + 1.0 / 50, 1e-9, "fabric grows");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetEndpointCwnd(), 26.0, 1e-9, "endpoint cut");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetCwnd(), 26.0, 1e-9, "effective = min");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 26000u, "window bytes from the min");
    }
};

/// \brief The ai-fabric-swift suite.
class SwiftTestSuite : public TestSuite
{
  public:
    SwiftTestSuite()
        : TestSuite("ai-fabric-swift", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new SwiftTargetTest, AI_FABRIC_QUICK);
        AddTestCase(new SwiftPerPacketHopsTest, AI_FABRIC_QUICK);
        AddTestCase(new SwiftAdditiveIncreaseTest, AI_FABRIC_QUICK);
        AddTestCase(new SwiftDecreaseTest, AI_FABRIC_QUICK);
        AddTestCase(new SwiftPacingTest, AI_FABRIC_QUICK);
        AddTestCase(new SwiftTimeoutTest, AI_FABRIC_QUICK);
        AddTestCase(new SwiftEndpointTest, AI_FABRIC_QUICK);
    }
};

static SwiftTestSuite g_swiftTestSuite; //!< registers the suite
