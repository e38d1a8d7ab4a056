/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * DCQCN reaction point: the arithmetic of Zhu et al. 2015 checked step by step.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/double.h"
#include "ns3/lambda-callback.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <stdexcept>

using namespace ns3;

namespace
{

const double kG = 1.0 / 256;

RdmaCcContext
Ctx100G()
{
    RdmaCcContext ctx;
    ctx.lineRate = DataRate("100Gbps");
    return ctx;
}

Ptr<DcqcnCongestionControl>
MakeDcqcn(const std::string& preset)
{
    return DynamicCast<DcqcnCongestionControl>(CongestionControlFactory::Create("dcqcn", preset));
}

} // namespace

/// First CNP halves (alpha 1); alpha decays by (1-g) per timer period; the
/// second cut uses the decayed alpha.
class DcqcnCutAndAlphaTest : public TestCase
{
  public:
    DcqcnCutAndAlphaTest()
        : TestCase("first CNP halves, alpha decays (1-g)^k, second cut follows alpha")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcqcnCongestionControl> cc = MakeDcqcn("paper");
        cc->Start(Ctx100G());
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "starts at line rate");
        cc->OnCnp();
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), DataRate("50Gbps"), "first CNP halves");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetRateBps(), 100e9, 0.5, "RT = old RC");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetAlpha(), 1.0, 1e-12, "alpha (1-g)1+g = 1");

        const int k = 7;
        double alphaK = -1;
        double rcBefore = 0;
        double rcAfter = 0;
        double alphaAfter = 0;
        // Just after the k-th alpha period (55 us each); no CNP in between.
        ScheduleLambda(MicroSeconds(55 * k) + NanoSeconds(1), [&]() {
            alphaK = cc->GetAlpha();
            rcBefore = cc->GetCurrentRateBps();
            cc->OnCnp();
            rcAfter = cc->GetCurrentRateBps();
            alphaAfter = cc->GetAlpha();
        });
        Simulator::Stop(MicroSeconds(55 * k + 1));
        Simulator::Run();
        double expect = std::pow(1 - kG, k);
        NS_TEST_ASSERT_MSG_EQ_TOL(alphaK, expect, 1e-9, "alpha after k periods = (1-g)^k");
        NS_TEST_ASSERT_MSG_EQ_TOL(rcAfter, rcBefore * (1 - expect / 2), 1.0, "cut by alpha/2");
        NS_TEST_ASSERT_MSG_EQ_TOL(alphaAfter, (1 - kG) * expect + kG, 1e-12, "alpha on CNP");
        cc->Dispose();
        Simulator::Destroy();
    }
};

/// Fast recovery while both counters < F, additive at F, hyper once both exceed F.
class DcqcnIncreaseStagesTest : public TestCase
{
  public:
    DcqcnIncreaseStagesTest()
        : TestCase("fast recovery, additive and hyper increase in order with exact rates")
    {
    }

  private:
    Ptr<DcqcnCongestionControl> m_cc;
    double m_rt{0};
    double m_rc{0};

    /// Check one increase event against the paper's rules: RT += step, RC = (RT+RC)/2.
    void Expect(double step, const std::string& what)
    {
        m_rt += step;
        m_rc = (m_rt + m_rc) / 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetTargetRateBps(), m_rt, 1.0, what << " RT");
        NS_TEST_EXPECT_MSG_EQ_TOL(m_cc->GetCurrentRateBps(), m_rc, 1.0, what << " RC");
    }

    void DoRun() override
    {
        m_cc = MakeDcqcn("paper");
        m_cc->SetAttribute("RateDecreaseInterval", TimeValue(Time(0)));
        m_cc->Start(Ctx100G());
        const double rai = 100e6; // 40 Mb/s at 40G, scaled to 100G
        const double rhai = 1e9;  // 400 Mb/s at 40G, scaled to 100G
        NS_TEST_ASSERT_MSG_EQ_TOL(m_cc->GetRateAiBps(), rai, 1e-3, "R_AI scaled with line rate");
        NS_TEST_ASSERT_MSG_EQ_TOL(m_cc->GetRateHaiBps(), rhai, 1e-3, "R_HAI scaled");
        m_cc->OnCnp(); // RC 50G, RT 100G
        m_cc->OnCnp(); // RC 25G, RT 50G (alpha stays 1)
        m_rt = 50e9;
        m_rc = 25e9;
        NS_TEST_ASSERT_MSG_EQ_TOL(m_cc->GetCurrentRateBps(), 25e9, 1.0, "two CNPs quarter");
        const Time t = MicroSeconds(55);
        // Timer events 1..4: fast recovery (max(counters) < F = 5).
        for (int i = 1; i <= 4; ++i)
        {
            ScheduleLambda(t * i + NanoSeconds(1), [this, i]() {
                NS_TEST_EXPECT_MSG_EQ(m_cc->GetTimerCount(), (uint32_t)i, "timer stage");
                Expect(0, "fast recovery " + std::to_string(i));
            });
        }
        // Timer events 5 and 6: additive (timer at/above F, byte counter below).
        ScheduleLambda(t * 5 + NanoSeconds(1), [this, rai]() { Expect(rai, "additive 5"); });
        ScheduleLambda(t * 6 + NanoSeconds(1), [this, rai, rhai]() {
            Expect(rai, "additive 6");
            // Byte counter events 1..5: additive; 6: both exceed F -> hyper, i = 1.
            for (int b = 1; b <= 5; ++b)
            {
                m_cc->OnPacketSent(10000000);
                Expect(rai, "additive (bytes " + std::to_string(b) + ")");
            }
            m_cc->OnPacketSent(4000000);
            m_cc->OnPacketSent(6000000);
            NS_TEST_EXPECT_MSG_EQ(m_cc->GetByteCount(), 6u, "byte stage");
            Expect(1 * rhai, "hyper i=1 (bytes 6)");
        });
        // Timer 7: min(7, 6) - F = 1; then bytes 7: min(7, 7) - F = 2.
        ScheduleLambda(t * 7 + NanoSeconds(1), [this, rhai]() {
            Expect(1 * rhai, "hyper i=1 (timer 7)");
            m_cc->OnPacketSent(10000000);
            Expect(2 * rhai, "hyper i=2 (bytes 7)");
        });
        Simulator::Stop(t * 7 + NanoSeconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(m_rt, 50e9 + 7 * rai + 4 * rhai, 1.0, "sum of steps");
        m_cc->Dispose();
        m_cc = nullptr;
        Simulator::Destroy();
    }
};

/// Many CNPs never push below MinRate; a long recovery never exceeds line rate.
class DcqcnBoundsTest : public TestCase
{
  public:
    DcqcnBoundsTest()
        : TestCase("rate floors at MinRate, recovers to exactly line rate and stops")
    {
    }

  private:
    uint64_t m_maxRate{0};
    Time m_lastChange;

    void Track(uint64_t, uint64_t now)
    {
        m_maxRate = std::max(m_maxRate, now);
        m_lastChange = Simulator::Now();
    }

    void DoRun() override
    {
        Ptr<DcqcnCongestionControl> cc = MakeDcqcn("paper");
        cc->SetAttribute("RateDecreaseInterval", TimeValue(Time(0)));
        cc->TraceConnectWithoutContext("Rate", MakeCallback(&DcqcnBoundsTest::Track, this));
        cc->Start(Ctx100G());
        for (int i = 0; i < 200; ++i)
        {
            cc->OnCnp();
        }
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), DataRate("100Mbps"), "floor at MinRate");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetTargetRateBps(), 100e6, 1.0, "RT floored too");
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        // Recovery is timer driven (no bytes sent); it must end at line rate and
        // stop scheduling, so the run ends before the stop time.
        NS_TEST_ASSERT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "back at line rate");
        NS_TEST_ASSERT_MSG_EQ(m_maxRate, 100000000000ULL, "never above line rate");
        // No bytes sent, so the byte stage stays 0 and there is no hyper increase:
        // F-1 fast recovery events, then (100G - 100M)/R_AI = 999 additive steps of
        // T = 55 us, then RC closes its last ~R_AI gap to RT by halving (< 40 T).
        const Time additiveEnd = MicroSeconds(55) * (4 + 999);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_lastChange, additiveEnd, "additive-only recovery");
        NS_TEST_ASSERT_MSG_LT(m_lastChange, additiveEnd + MicroSeconds(55 * 40), "RC catches RT");
        // 1 s of a running 55 us timer would be ~18000 events.
        NS_TEST_ASSERT_MSG_LT(Simulator::GetEventCount(), 1500u, "increase timer stopped");
        cc->Dispose();
        Simulator::Destroy();
    }
};

/// The "hpcc-run" preset (HPCC's run.py --cc dcqcn): 1 us alpha timer, 4 us decrease
/// interval (a deferred cut), byte counter off, timer-only stages with F = 1. The "hpcc"
/// preset (its mix/config.txt) has the same timers but a 900 us increase timer and
/// unscaled steps: 50 and 100 Mb/s whatever the line rate.
class DcqcnHpccPresetTest : public TestCase
{
  public:
    DcqcnHpccPresetTest()
        : TestCase("hpcc-run preset: deferred cut inside 4 us, timer-only additive then hyper; "
                   "hpcc preset: the config file's steps unscaled")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcqcnCongestionControl> file = MakeDcqcn("hpcc");
        file->Start(Ctx100G());
        NS_TEST_ASSERT_MSG_EQ_TOL(file->GetRateAiBps(), 50e6, 1e-3, "hpcc: RATE_AI 50Mb/s");
        NS_TEST_ASSERT_MSG_EQ_TOL(file->GetRateHaiBps(), 100e6, 1e-3, "hpcc: RATE_HAI 100Mb/s");
        TimeValue rpTimer;
        file->GetAttribute("IncreaseTimer", rpTimer);
        NS_TEST_ASSERT_MSG_EQ(rpTimer.Get(), MicroSeconds(900), "hpcc: RP_TIMER 900");
        file->Stop();

        Ptr<DcqcnCongestionControl> cc = MakeDcqcn("hpcc-run");
        cc->Start(Ctx100G());
        const double rai = 20e6;   // 5 Mb/s per 25G
        const double rhai = 200e6; // 50 Mb/s per 25G
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateAiBps(), rai, 1e-3, "R_AI at 100G");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateHaiBps(), rhai, 1e-3, "R_HAI at 100G");
        cc->OnCnp(); // t = 0: 50G
        double rcAt3 = 0;
        double rcAt4 = 0;
        double rtAt4 = 0;
        ScheduleLambda(MicroSeconds(2), [&]() { cc->OnCnp(); });
        ScheduleLambda(MicroSeconds(3), [&]() { rcAt3 = cc->GetCurrentRateBps(); });
        ScheduleLambda(MicroSeconds(4) + NanoSeconds(1), [&]() {
            rcAt4 = cc->GetCurrentRateBps();
            rtAt4 = cc->GetTargetRateBps();
            cc->OnPacketSent(2000000000u); // byte counter off: no effect
            NS_TEST_EXPECT_MSG_EQ(cc->GetByteCount(), 0u, "byte counter off");
        });
        std::vector<double> rt;
        std::vector<double> rc;
        for (int k = 1; k <= 3; ++k)
        {
            ScheduleLambda(MicroSeconds(4 + 300 * k) + NanoSeconds(1), [&]() {
                rt.push_back(cc->GetTargetRateBps());
                rc.push_back(cc->GetCurrentRateBps());
            });
        }
        Simulator::Stop(MicroSeconds(920));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(rcAt3, 50e9, 1.0, "second CNP within 4 us does not cut yet");
        // alpha: 1 at t=0, two 1 us periods, CNP at 2 us, two more periods to the cut.
        double alpha = ((1 - kG) * std::pow(1 - kG, 2) + kG) * std::pow(1 - kG, 2);
        NS_TEST_ASSERT_MSG_EQ_TOL(rtAt4, 50e9, 1.0, "deferred cut: RT = RC");
        NS_TEST_ASSERT_MSG_EQ_TOL(rcAt4, 50e9 * (1 - alpha / 2), 1.0, "deferred cut at 4 us");
        NS_TEST_ASSERT_MSG_EQ(rt.size(), 3u, "three timer events");
        double erc = rcAt4;
        double ert = 50e9 + rai; // timer 1 = F: additive
        erc = (ert + erc) / 2;
        NS_TEST_ASSERT_MSG_EQ_TOL(rt[0], ert, 1.0, "additive at 304 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(rc[0], erc, 1.0, "additive RC");
        ert += rhai; // timer 2: hyper i = 1
        erc = (ert + erc) / 2;
        NS_TEST_ASSERT_MSG_EQ_TOL(rt[1], ert, 1.0, "hyper i=1 at 604 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(rc[1], erc, 1.0, "hyper RC");
        ert += 2 * rhai; // timer 3: hyper i = 2
        erc = (ert + erc) / 2;
        NS_TEST_ASSERT_MSG_EQ_TOL(rt[2], ert, 1.0, "hyper i=2 at 904 us");
        NS_TEST_ASSERT_MSG_EQ_TOL(rc[2], erc, 1.0, "hyper i=2 RC");
        cc->Dispose();
        Simulator::Destroy();
    }
};

/// The "hpcc" preset run with the HPCC simulator's reaction point rules (its Mlx code):
/// alpha moves once per 1 us period however many CNPs came in it (AlphaUpdate
/// PerPeriod), cuts in a row keep RT (ClampTargetRate false), one fast-recovery step
/// before the additive one (F = 2), and a constant R_HAI (HyperIncrease Constant).
class DcqcnMlxRulesTest : public TestCase
{
  public:
    DcqcnMlxRulesTest()
        : TestCase("HPCC simulator's rules: alpha once per period, RT kept over cuts in a row, "
                   "one fast recovery step, constant hyper increase")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcqcnCongestionControl> cc = MakeDcqcn("hpcc");
        cc->SetAttribute("AlphaUpdate", StringValue("PerPeriod"));
        cc->SetAttribute("ClampTargetRate", StringValue("false"));
        cc->SetAttribute("HyperIncrease", StringValue("Constant"));
        cc->SetAttribute("FastRecoveryThreshold", UintegerValue(2));
        cc->Start(Ctx100G());
        cc->OnCnp(); // t = 0: the first CNP halves (alpha 1) and starts the 1 us grid
        double rcAt4 = 0;
        double rtAt4 = 0;
        for (double us : {3.2, 3.4, 3.6})
        {
            ScheduleLambda(NanoSeconds(static_cast<int64_t>(us * 1000)), [&]() { cc->OnCnp(); });
        }
        ScheduleLambda(MicroSeconds(4) + NanoSeconds(1), [&]() {
            rcAt4 = cc->GetCurrentRateBps();
            rtAt4 = cc->GetTargetRateBps();
        });
        // Increase timer (900 us) from the cut at 4 us: fast recovery at 904 us; a CNP at
        // 905 us cuts again, now with RT = RC (an increase came since the last cut); then
        // fast recovery, additive, hyper, hyper.
        double rcAt904 = 0;
        double rcCut = 0;
        double rtCut = 0;
        ScheduleLambda(MicroSeconds(904) + NanoSeconds(1),
                       [&]() { rcAt904 = cc->GetCurrentRateBps(); });
        ScheduleLambda(MicroSeconds(905), [&]() {
            const double before = cc->GetCurrentRateBps();
            cc->OnCnp();
            rcCut = cc->GetCurrentRateBps();
            rtCut = cc->GetTargetRateBps();
            NS_TEST_EXPECT_MSG_EQ_TOL(rtCut, before, 1.0, "an increase came: RT = RC");
        });
        std::vector<double> rt;
        std::vector<double> rc;
        for (int k = 1; k <= 4; ++k)
        {
            ScheduleLambda(MicroSeconds(905 + 900 * k) + NanoSeconds(1), [&]() {
                rt.push_back(cc->GetTargetRateBps());
                rc.push_back(cc->GetCurrentRateBps());
            });
        }
        Simulator::Stop(MicroSeconds(905 + 3600 + 10));
        Simulator::Run();
        // Three CNPs in the period (3, 4] us: one rise at its end, not three.
        const double alpha = std::pow(1 - kG, 4) + kG;
        NS_TEST_ASSERT_MSG_EQ_TOL(rcAt4, 50e9 * (1 - alpha / 2), 1.0, "cut with one rise");
        NS_TEST_ASSERT_MSG_EQ_TOL(rtAt4, 100e9, 1.0, "no increase between the cuts: RT kept");
        NS_TEST_ASSERT_MSG_EQ_TOL(rcAt904, (100e9 + rcAt4) / 2, 1.0, "904 us: fast recovery");
        NS_TEST_ASSERT_MSG_EQ(rt.size(), 4u, "four timer events");
        double ert = rtCut;
        double erc = (ert + rcCut) / 2; // fast recovery
        NS_TEST_ASSERT_MSG_EQ_TOL(rc[0], erc, 1.0, "fast recovery");
        NS_TEST_ASSERT_MSG_EQ_TOL(rt[0], ert, 1.0, "fast recovery keeps RT");
        ert += 50e6; // additive: RATE_AI
        erc = (ert + erc) / 2;
        NS_TEST_ASSERT_MSG_EQ_TOL(rt[1], ert, 1.0, "additive");
        NS_TEST_ASSERT_MSG_EQ_TOL(rc[1], erc, 1.0, "additive RC");
        for (int k = 2; k < 4; ++k)
        {
            ert += 100e6; // hyper: RATE_HAI each time
            erc = (ert + erc) / 2;
            NS_TEST_ASSERT_MSG_EQ_TOL(rt[k], ert, 1.0, "constant hyper step " << k - 1);
            NS_TEST_ASSERT_MSG_EQ_TOL(rc[k], erc, 1.0, "hyper RC " << k - 1);
        }
        cc->Dispose();
        Simulator::Destroy();
    }
};

/// Names: unknown algorithm or preset throws with the allowed list; presets apply.
class CongestionControlFactoryTest : public TestCase
{
  public:
    CongestionControlFactoryTest()
        : TestCase("factory: names, presets, overrides, errors")
    {
    }

  private:
    void DoRun() override
    {
        std::string msg;
        try
        {
            CongestionControlFactory f("cubic");
        }
        catch (const std::invalid_argument& e)
        {
            msg = e.what();
        }
        NS_TEST_ASSERT_MSG_NE(msg.find("'cubic'"), std::string::npos, "names the value");
        NS_TEST_ASSERT_MSG_NE(
            msg.find(
                "allowed: dcqcn, dctcp, fixed-fraction, hpcc, ibta, none, nscc, powertcp, swift, "
                "theta-powertcp, timely"),
            std::string::npos,
            "lists the registered names (the test library adds one)");
        msg.clear();
        try
        {
            CongestionControlFactory f("dcqcn", "fast");
        }
        catch (const std::invalid_argument& e)
        {
            msg = e.what();
        }
        NS_TEST_ASSERT_MSG_NE(msg.find("paper, hpcc, hpcc-run"),
                              std::string::npos,
                              "lists presets");

        CongestionControlFactory f("dcqcn", "hpcc-run");
        f.Set("FastRecoveryThreshold", UintegerValue(3));
        Ptr<RdmaCongestionControl> cc = f.Create();
        NS_TEST_ASSERT_MSG_EQ(cc->GetName(), "dcqcn", "algorithm");
        TimeValue t;
        cc->GetAttribute("IncreaseTimer", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(300), "preset applied");
        UintegerValue fr;
        cc->GetAttribute("FastRecoveryThreshold", fr);
        NS_TEST_ASSERT_MSG_EQ(fr.Get(), 3u, "override after preset");
        // Each Create forks one configured controller: a new object with the same
        // values and a state of its own; a later Set reaches the next Create.
        Ptr<RdmaCongestionControl> cc2 = f.Create();
        NS_TEST_ASSERT_MSG_NE(PeekPointer(cc2), PeekPointer(cc), "a new controller per Create");
        cc2->GetAttribute("IncreaseTimer", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(300), "fork keeps the preset");
        cc2->GetAttribute("FastRecoveryThreshold", fr);
        NS_TEST_ASSERT_MSG_EQ(fr.Get(), 3u, "fork keeps the override");
        RdmaCcContext ctx;
        cc->Start(ctx);
        cc->OnCnp();
        cc2->Start(ctx);
        NS_TEST_ASSERT_MSG_LT(cc->GetRateBps(), ctx.lineRate.GetBitRate(), "first one cut");
        NS_TEST_ASSERT_MSG_EQ(cc2->GetRateBps(), ctx.lineRate.GetBitRate(), "second one not");
        cc->Dispose();
        cc2->Dispose();
        Simulator::Destroy();
        f.Set("FastRecoveryThreshold", UintegerValue(4));
        f.Create()->GetAttribute("FastRecoveryThreshold", fr);
        NS_TEST_ASSERT_MSG_EQ(fr.Get(), 4u, "a Set after Create reaches the next Create");
        // A copy (a fabric's, of its helper's factory) configures its own controller:
        // attribute defaults changed since the original's first Create reach it.
        CongestionControlFactory plain("dcqcn");
        plain.Create()->GetAttribute("AlphaTimer", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(55), "default alpha timer");
        Config::SetDefault("ns3::DcqcnCongestionControl::AlphaTimer", TimeValue(MicroSeconds(60)));
        CongestionControlFactory copy = plain;
        copy.Create()->GetAttribute("AlphaTimer", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(60), "the copy sees today's default");
        plain.Create()->GetAttribute("AlphaTimer", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(55), "the original keeps its controller");
        Config::Reset();
        Ptr<RdmaCongestionControl> sw = CongestionControlFactory::Create("swift", "paper");
        sw->GetAttribute("BaseTarget", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(20), "swift paper preset");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlFactory::Create("none")->GetName(), "none", "none");
        // Defaults equal the declared default preset.
        Ptr<RdmaCongestionControl> d = CongestionControlFactory::Create("dcqcn");
        d->GetAttribute("AlphaTimer", t);
        NS_TEST_ASSERT_MSG_EQ(t.Get(), MicroSeconds(55), "dcqcn default = paper");
    }
};

/// \brief The ai-fabric-dcqcn suite.
class DcqcnTestSuite : public TestSuite
{
  public:
    DcqcnTestSuite()
        : TestSuite("ai-fabric-dcqcn", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new DcqcnCutAndAlphaTest, AI_FABRIC_QUICK);
        AddTestCase(new DcqcnIncreaseStagesTest, AI_FABRIC_QUICK);
        AddTestCase(new DcqcnBoundsTest, AI_FABRIC_QUICK);
        AddTestCase(new DcqcnHpccPresetTest, AI_FABRIC_QUICK);
        AddTestCase(new DcqcnMlxRulesTest, AI_FABRIC_QUICK);
        AddTestCase(new CongestionControlFactoryTest, AI_FABRIC_QUICK);
    }
};

static DcqcnTestSuite g_dcqcnTestSuite; //!< registers the suite
