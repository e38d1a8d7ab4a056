/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RED-style ECN marking (DCQCN's congestion point).
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ecn-marker.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/uinteger.h"

#include <cmath>

using namespace ns3;

/**
 * \brief Marking curve: none at or below Kmin, all at or above Kmax, Pmax/2 at the
 * midpoint (binomial, within 3 sigma), DCTCP step.
 */
class EcnMarkingCurveTest : public TestCase
{
  public:
    EcnMarkingCurveTest()
        : TestCase("RED marking curve and DCTCP step")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);

        Ptr<EcnMarker> m = CreateObject<EcnMarker>();
        m->SetLinkRate(DataRate("100Gbps"));
        const EcnMarker::Config c = m->GetConfig();
        NS_TEST_ASSERT_MSG_EQ(c.kminBytes, 400000, "100 KB at 25G scaled x4");
        NS_TEST_ASSERT_MSG_EQ(c.kmaxBytes, 1600000, "400 KB at 25G scaled x4");
        NS_TEST_ASSERT_MSG_EQ_TOL(c.pmax, 0.2, 1e-12, "Pmax not scaled");

        const uint32_t n = 100000;
        uint32_t below = 0;
        uint32_t above = 0;
        uint32_t mid = 0;
        const uint64_t qMid = (c.kminBytes + c.kmaxBytes) / 2;
        for (uint32_t i = 0; i < n; ++i)
        {
            const double x = u->GetValue();
            below += m->ShouldMark(c.kminBytes, x) ? 1 : 0;
            below += m->ShouldMark(1000, x) ? 1 : 0;
            above += m->ShouldMark(c.kmaxBytes, x) ? 1 : 0;
            mid += m->ShouldMark(qMid, x) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(below, 0, "no marks at or below Kmin");
        NS_TEST_ASSERT_MSG_EQ(above, n, "every packet marked at Kmax");
        const double p = c.pmax / 2;
        NS_TEST_ASSERT_MSG_EQ_TOL(m->GetMarkProbability(qMid), p, 1e-12, "Pmax/2 at midpoint");
        const double sigma = std::sqrt(n * p * (1 - p)); // 94.9 marks
        NS_TEST_ASSERT_MSG_EQ_TOL(double(mid), n * p, 3 * sigma, "midpoint marks within 3 sigma");

        // DCTCP step: K = 60 KB; mark iff q > K whatever the draw.
        m->SetThresholds(60000, 60000, 1.0);
        NS_TEST_ASSERT_MSG_EQ(m->ShouldMark(60000, 0.0), false, "q = K: no mark");
        NS_TEST_ASSERT_MSG_EQ(m->ShouldMark(60001, 0.999999), true, "q > K: mark");
        NS_TEST_ASSERT_MSG_EQ(m->ShouldMark(59999, 0.0), false, "q < K: no mark");
    }
};

/**
 * \brief Config::SetDefault changes every new marker: the DCQCN paper's
 * 5 KB / 200 KB / 1% at 40 Gb/s, scaled to 100 Gb/s.
 */
class EcnDefaultsTest : public TestCase
{
  public:
    EcnDefaultsTest()
        : TestCase("defaults follow Config::SetDefault and scale with rate")
    {
    }

  private:
    void DoRun() override
    {
        const EcnMarker::Config d25 = EcnMarker::ConfigFor(DataRate("25Gbps"));
        NS_TEST_ASSERT_MSG_EQ(d25.kminBytes, 100000, "reference point Kmin");
        NS_TEST_ASSERT_MSG_EQ(d25.kmaxBytes, 400000, "reference point Kmax");

        Config::SetDefault("ns3::EcnMarker::Kmin", UintegerValue(5000));
        Config::SetDefault("ns3::EcnMarker::Kmax", UintegerValue(200000));
        Config::SetDefault("ns3::EcnMarker::Pmax", DoubleValue(0.01));
        Config::SetDefault("ns3::EcnMarker::ReferenceRate", DataRateValue(DataRate("40Gbps")));
        const EcnMarker::Config p40 = EcnMarker::ConfigFor(DataRate("40Gbps"));
        const EcnMarker::Config p100 = EcnMarker::ConfigFor(DataRate("100Gbps"));
        // Restore before asserting so a failure does not leak into other suites.
        Config::SetDefault("ns3::EcnMarker::Kmin", UintegerValue(100000));
        Config::SetDefault("ns3::EcnMarker::Kmax", UintegerValue(400000));
        Config::SetDefault("ns3::EcnMarker::Pmax", DoubleValue(0.2));
        Config::SetDefault("ns3::EcnMarker::ReferenceRate", DataRateValue(DataRate("25Gbps")));

        NS_TEST_ASSERT_MSG_EQ(p40.kminBytes, 5000, "paper Kmin at 40G");
        NS_TEST_ASSERT_MSG_EQ(p40.kmaxBytes, 200000, "paper Kmax at 40G");
        NS_TEST_ASSERT_MSG_EQ_TOL(p40.pmax, 0.01, 1e-12, "paper Pmax");
        NS_TEST_ASSERT_MSG_EQ(p100.kminBytes, 12500, "x2.5 at 100G");
        NS_TEST_ASSERT_MSG_EQ(p100.kmaxBytes, 500000, "x2.5 at 100G");

        // Unscaled markers start with the Attribute values as they are.
        Ptr<EcnMarker> m = CreateObject<EcnMarker>();
        NS_TEST_ASSERT_MSG_EQ(m->GetConfig().kminBytes, 100000, "before SetLinkRate");
    }
};

/// \brief The ECN marker test suite.
class EcnMarkerTestSuite : public TestSuite
{
  public:
    EcnMarkerTestSuite()
        : TestSuite("ai-fabric-ecn-marker", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new EcnMarkingCurveTest, AI_FABRIC_QUICK);
        AddTestCase(new EcnDefaultsTest, AI_FABRIC_QUICK);
    }
};

static EcnMarkerTestSuite g_ecnMarkerTestSuite; //!< registers the suite
