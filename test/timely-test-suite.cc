/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * TIMELY (Mittal et al. 2015, Algorithm 1): each branch of the rate update against
 * hand-computed numbers, hyperactive increase, the completion-event granularity, the
 * clamps and the presets.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/timely-congestion-control.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// A started controller with the attribute defaults ('hpcc': alpha 0.875, beta 0.8,
/// T_low 50 us, T_high 500 us, minRTT 20 us, delta 100 Mb/s, MinRate 1 Gb/s).
Ptr<TimelyCongestionControl>
MakeTimely(uint64_t updateBytes = 0)
{
    Ptr<TimelyCongestionControl> cc = CreateObject<TimelyCongestionControl>();
    cc->SetAttribute("UpdateBytes", UintegerValue(updateBytes));
    cc->Start(UnitTestCcContext());
    return cc;
}

RdmaAckSample
Ack(Time rtt, uint32_t packets = 1)
{
    RdmaAckSample s;
    s.ackedPackets = packets;
    s.ackedBytes = packets * 1000;
    s.rtt = rtt;
    s.hops = 1;
    return s;
}

/// Rates compare to 1 bit/s (the controller keeps them unrounded in double).
const double TOL = 1.0;

} // namespace

/// RTT above T_high: rate x (1 - beta (1 - T_high / rtt)); then below T_low: + delta.
class TimelyThresholdTest : public TestCase
{
  public:
    TimelyThresholdTest()
        : TestCase("TIMELY: above T_high the rate falls by beta (1 - T_high over rtt), below T_low "
                   "it rises by delta whatever the gradient")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TimelyCongestionControl> cc = MakeTimely();
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "starts at line rate");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), UINT64_MAX, "no window");
        // 1000 us > 500 us: 100 G x (1 - 0.8 x (1 - 500/1000)) = 60 G.
        cc->UpdateRate(MicroSeconds(1000));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60e9, TOL, "T_high decrease");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 60000000000ULL, "rate handed to the QP");
        // 40 us < 50 us: rtt_diff = 0.875 x (40 - 1000) us = -840 us (gradient -42), and
        // the rate rises by delta alone (the gradient does not matter): 60.1 G.
        cc->UpdateRate(MicroSeconds(40));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRttDiff(), -840e-6, 1e-12, "rtt_diff EWMA");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetGradient(), -42.0, 1e-9, "gradient = rtt_diff/minRTT");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60.1e9, TOL, "T_low: + delta");
        // Rising RTT, still below T_low: 45 us, rtt_diff = 0.125 x -840 + 0.875 x 5
        // = -100.625 us; positive new difference, but T_low wins: + delta again.
        cc->UpdateRate(MicroSeconds(45));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRttDiff(), -100.625e-6, 1e-12, "rtt_diff EWMA");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60.2e9, TOL, "T_low: + delta");
        // At line rate an increase is clamped.
        Ptr<TimelyCongestionControl> top = MakeTimely();
        top->UpdateRate(MicroSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(top->GetRateBps(), 100000000000ULL, "clamped to line rate");
    }
};

/// Between the thresholds: gradient <= 0 adds delta, and N x delta (HAI) from the
/// fifth consecutive non-positive gradient; a positive gradient ends HAI.
class TimelyGradientIncreaseTest : public TestCase
{
  public:
    TimelyGradientIncreaseTest()
        : TestCase("TIMELY: a non-positive gradient adds delta, 5 x delta from the fifth "
                   "such event in a row (HAI)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TimelyCongestionControl> cc = MakeTimely();
        // Event 1 (first: difference 0, gradient 0, counted as non-positive), above
        // T_high: 60 G.
        cc->UpdateRate(MicroSeconds(1000));
        NS_TEST_ASSERT_MSG_EQ(cc->GetNonPositiveGradients(), 1, "event 1 non-positive");
        // Event 2: 200 us, rtt_diff = 0.875 x -800 = -700 us, gradient -35: + delta.
        cc->UpdateRate(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetGradient(), -35.0, 1e-9, "gradient -35");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60.1e9, TOL, "event 2: + delta");
        // Events 3, 4: difference 0, rtt_diff -87.5 us, -10.9375 us: + delta each.
        cc->UpdateRate(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRttDiff(), -87.5e-6, 1e-12, "rtt_diff event 3");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60.2e9, TOL, "event 3: + delta");
        cc->UpdateRate(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRttDiff(), -10.9375e-6, 1e-12, "rtt_diff event 4");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60.3e9, TOL, "event 4: + delta");
        NS_TEST_ASSERT_MSG_EQ(cc->GetNonPositiveGradients(), 4, "four in a row");
        // Event 5: the fifth non-positive gradient in a row: HAI, + 5 x delta.
        cc->UpdateRate(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_EQ(cc->GetNonPositiveGradients(), 5, "five in a row");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 60.8e9, TOL, "event 5: HAI + 500 M");
        cc->UpdateRate(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 61.3e9, TOL, "event 6: HAI + 500 M");
        // A rising RTT (210 us): rtt_diff = 0.125 x -0.1708984375 + 0.875 x 10
        // = 8.72863769531 us, gradient 0.436431884766 > 0: x (1 - 0.8 g); HAI ends.
        cc->UpdateRate(MicroSeconds(210));
        double g = (0.125 * (0.125 * -10.9375 * 0.125) + 0.875 * 10.0) / 20.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetGradient(), g, 1e-9, "positive gradient");
        NS_TEST_ASSERT_MSG_EQ(cc->GetNonPositiveGradients(), 0, "HAI count reset");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(),
                                  61.3e9 * (1 - 0.8 * g),
                                  TOL,
                                  "multiplicative decrease");
        // Falling again (200 us): gradient <= 0 but only the first in a row: + delta.
        double before = cc->GetExactRateBps();
        cc->UpdateRate(MicroSeconds(200));
        NS_TEST_ASSERT_MSG_LT_OR_EQ(cc->GetGradient(), 0.0, "non-positive");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), before + 100e6, TOL, "+ delta, not HAI");
    }
};

/// Between the thresholds with a positive gradient: rate x (1 - beta x gradient),
/// floored at MinRate.
class TimelyGradientDecreaseTest : public TestCase
{
  public:
    TimelyGradientDecreaseTest()
        : TestCase("TIMELY: a positive gradient cuts the rate by beta x gradient, never below "
                   "MinRate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TimelyCongestionControl> cc = MakeTimely();
        cc->UpdateRate(MicroSeconds(100)); // first: gradient 0, + delta, clamped: 100 G
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 100e9, TOL, "clamped at line rate");
        // 110 us: rtt_diff = 0.875 x 10 = 8.75 us, gradient 0.4375: x 0.65 = 65 G.
        cc->UpdateRate(MicroSeconds(110));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetGradient(), 0.4375, 1e-9, "gradient");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 65e9, TOL, "x (1 - 0.8 x 0.4375)");
        // 110 us again: rtt_diff = 1.09375 us, gradient 0.0546875: x 0.95625 = 62.15625 G.
        cc->UpdateRate(MicroSeconds(110));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetGradient(), 0.0546875, 1e-9, "gradient");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 62.15625e9, TOL, "x 0.95625");
        // A jump to 400 us: gradient (0.125 x 1.09375 + 0.875 x 290) / 20 = 12.69 > 1/beta:
        // the factor would be negative; the rate floors at MinRate, 1 Gb/s.
        cc->UpdateRate(MicroSeconds(400));
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 1000000000ULL, "floored at MinRate");
        // MinRate, not 0, is the base of the next increase.
        cc->UpdateRate(MicroSeconds(30));
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetExactRateBps(), 1.1e9, TOL, "MinRate + delta");
    }
};

/// One update per completion event: per UpdateBytes of acknowledged payload, or per
/// round trip (the packets sent by the previous update acknowledged).
class TimelyGranularityTest : public TestCase
{
  public:
    TimelyGranularityTest()
        : TestCase("TIMELY: one update per segment of UpdateBytes, or per round trip with 0")
    {
    }

  private:
    void DoRun() override
    {
        // 16 KB segments, one 1000-byte packet per ACK: events end at the ACKs that
        // bring the acknowledged bytes to 16384 (the 17th) and 32768 (the 33rd).
        Ptr<TimelyCongestionControl> seg = MakeTimely(16384);
        for (int i = 1; i <= 40; ++i)
        {
            seg->OnAck(Ack(MicroSeconds(1000)));
            uint64_t expected = i < 17 ? 0 : (i < 33 ? 1 : 2);
            NS_TEST_ASSERT_MSG_EQ(seg->GetUpdates(), expected, "segment events after ACK " << i);
        }
        // Two events, each above T_high: 100 G x 0.6 x 0.6.
        NS_TEST_ASSERT_MSG_EQ_TOL(seg->GetExactRateBps(), 36e9, TOL, "two T_high events");
        // An ACK of 40 packets completes several segments: one event (one RTT).
        seg->OnAck(Ack(MicroSeconds(1000), 40));
        NS_TEST_ASSERT_MSG_EQ(seg->GetUpdates(), 3, "one event per ACK at most");

        // Per round trip: 10 packets out; the first ACK updates (no previous event),
        // then the event ends when all 10 are acknowledged.
        Ptr<TimelyCongestionControl> rtt = MakeTimely(0);
        for (int i = 0; i < 10; ++i)
        {
            rtt->OnPacketSent(1000);
        }
        rtt->OnAck(Ack(MicroSeconds(1000)));
        NS_TEST_ASSERT_MSG_EQ(rtt->GetUpdates(), 1, "first ACK: first event");
        for (int i = 2; i <= 9; ++i)
        {
            rtt->OnAck(Ack(MicroSeconds(1000)));
        }
        NS_TEST_ASSERT_MSG_EQ(rtt->GetUpdates(), 1, "within the round trip: no event");
        for (int i = 0; i < 5; ++i)
        {
            rtt->OnPacketSent(1000); // sent after the event: belong to the next round
        }
        rtt->OnAck(Ack(MicroSeconds(1000)));
        NS_TEST_ASSERT_MSG_EQ(rtt->GetUpdates(), 2, "tenth ACK ends the round trip");
        for (int i = 0; i < 4; ++i)
        {
            rtt->OnAck(Ack(MicroSeconds(1000)));
        }
        NS_TEST_ASSERT_MSG_EQ(rtt->GetUpdates(), 2, "next round: 15 packets not yet acked");
        rtt->OnAck(Ack(MicroSeconds(1000)));
        NS_TEST_ASSERT_MSG_EQ(rtt->GetUpdates(), 3, "fifteenth ACK ends the next round");
        // An ACK without an RTT sample counts its bytes but makes no event.
        Ptr<TimelyCongestionControl> none = MakeTimely(1000);
        none->OnAck(Ack(Time(0), 5));
        NS_TEST_ASSERT_MSG_EQ(none->GetUpdates(), 0, "no RTT, no event");
    }
};

/// Registration, presets, and the defaults being the 'hpcc' preset.
class TimelyPresetTest : public TestCase
{
  public:
    TimelyPresetTest()
        : TestCase("TIMELY: registered without ECN, the defaults are the 'hpcc' preset, "
                   "'paper' is the 10 Gbps set")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Has("timely"), true, "registered");
        const auto& e = CongestionControlRegistry::Get("timely");
        NS_TEST_ASSERT_MSG_EQ(e.usesEcn, false, "delay-based: no ECN");
        NS_TEST_ASSERT_MSG_EQ(e.typeName, "ns3::TimelyCongestionControl", "type");
        NS_TEST_ASSERT_MSG_EQ(e.defaultPreset, "hpcc", "default preset");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlFactory::GetPresets("timely").size(), 2, "2");
        Ptr<RdmaCongestionControl> def = CreateObject<TimelyCongestionControl>();
        Ptr<RdmaCongestionControl> hpcc = CongestionControlFactory::Create("timely", "hpcc");
        for (const auto& [name, value] : TimelyCongestionControl::GetPreset("hpcc"))
        {
            StringValue a;
            StringValue b;
            def->GetAttribute(name, a);
            hpcc->GetAttribute(name, b);
            NS_TEST_ASSERT_MSG_EQ(a.Get(), b.Get(), "default equals hpcc preset: " << name);
        }
        Ptr<RdmaCongestionControl> paper = CongestionControlFactory::Create("timely", "paper");
        NS_TEST_ASSERT_MSG_EQ(paper->GetName(), "timely", "name");
        DataRateValue delta;
        paper->GetAttribute("AdditiveIncrement", delta);
        NS_TEST_ASSERT_MSG_EQ(delta.Get(), DataRate("10Mbps"), "paper delta 10 Mb/s");
        UintegerValue seg;
        paper->GetAttribute("UpdateBytes", seg);
        NS_TEST_ASSERT_MSG_EQ(seg.Get(), 16384, "paper segment 16 KB");
        TimeValue tHigh;
        paper->GetAttribute("THigh", tHigh);
        NS_TEST_ASSERT_MSG_EQ(tHigh.Get(), MicroSeconds(500), "T_high 500 us");
        std::string msg;
        try
        {
            TimelyCongestionControl::GetPreset("fast");
        }
        catch (const std::invalid_argument& ex)
        {
            msg = ex.what();
        }
        NS_TEST_ASSERT_MSG_NE(msg.find("'fast'"), std::string::npos, "names the value");
        NS_TEST_ASSERT_MSG_NE(msg.find("allowed: hpcc, paper"), std::string::npos, "allowed");
        // A forked controller keeps the preset's values.
        Ptr<RdmaCongestionControl> fork = paper->Fork();
        fork->GetAttribute("AdditiveIncrement", delta);
        NS_TEST_ASSERT_MSG_EQ(delta.Get(), DataRate("10Mbps"), "Fork keeps attributes");
    }
};

/// \brief The ai-fabric-timely suite.
class TimelyTestSuite : public TestSuite
{
  public:
    TimelyTestSuite()
        : TestSuite("ai-fabric-timely", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new TimelyThresholdTest, AI_FABRIC_QUICK);
        AddTestCase(new TimelyGradientIncreaseTest, AI_FABRIC_QUICK);
        AddTestCase(new TimelyGradientDecreaseTest, AI_FABRIC_QUICK);
        AddTestCase(new TimelyGranularityTest, AI_FABRIC_QUICK);
        AddTestCase(new TimelyPresetTest, AI_FABRIC_QUICK);
    }
};

static TimelyTestSuite g_timelyTestSuite; //!< registers the suite
