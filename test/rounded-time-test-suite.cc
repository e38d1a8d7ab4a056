/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of rounded-time.h: Time from fractional values rounded as ns-3.37 does,
 * on every ns-3 release (ns-3.31 and 3.32 truncate).
 */
#include "ai-fabric-test-compat.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rounded-time.h"
#include "ns3/size-parser.h"

#include <cstdint>

using namespace ns3;

/**
 * \brief Exact values: decimal seconds that doubles hold a little low, half steps,
 * transmission times, and byte counts CalculateBytesTxTime would overflow.
 */
class RoundedTimeValuesTest : public TestCase
{
  public:
    RoundedTimeValuesTest()
        : TestCase("rounded seconds, half steps, transmission times, parsed times")
    {
    }

  private:
    void DoRun() override
    {
        // 63e-6 and 2.3e-6 are just below their decimal values as doubles:
        // truncation (ns-3.31's Seconds(double)) loses a time step.
        NS_TEST_EXPECT_MSG_EQ(RoundedSeconds(63e-6), MicroSeconds(63), "63 us");
        NS_TEST_EXPECT_MSG_EQ(RoundedSeconds(2.3e-6), NanoSeconds(2300), "2.3 us");
        NS_TEST_EXPECT_MSG_EQ(RoundedSeconds(0), Time(0), "zero");
        NS_TEST_EXPECT_MSG_EQ(RoundedSeconds(-2.3e-6), NanoSeconds(-2300), "negative");

        // Half a time step rounds away from zero, as int64x64_t::Round() does.
        const Time::Unit step = Time::GetResolution();
        const int64x64_t half = int64x64_t(1) / int64x64_t(2);
        NS_TEST_EXPECT_MSG_EQ(RoundedTime(half, step), TimeStep(1), "+0.5 step");
        NS_TEST_EXPECT_MSG_EQ(RoundedTime(-half, step), Time(-1), "-0.5 step");
        const int64x64_t belowHalf = int64x64_t(49) / int64x64_t(100);
        NS_TEST_EXPECT_MSG_EQ(RoundedTime(belowHalf, step), Time(0), "0.49 step");

        // 8 bits at 3 b/s: 8/3 s, rounded to the nearest step of the resolution.
        const int64_t perSecond = Seconds(1).GetTimeStep();
        NS_TEST_EXPECT_MSG_EQ(RoundedTxTime(DataRate(3), 1),
                              Time((16 * perSecond + 3) / 6),
                              "8/3 s rounded");
        NS_TEST_EXPECT_MSG_EQ(RoundedTxTime(DataRate("100Gbps"), 1000),
                              NanoSeconds(80),
                              "1000 B at 100 Gb/s");
        // 1 GiB: bytes * 8 does not fit 32 bits (CalculateBytesTxTime's argument).
        NS_TEST_EXPECT_MSG_EQ(RoundedTxTime(DataRate("8Gbps"), uint64_t(1) << 30),
                              NanoSeconds(1073741824),
                              "1 GiB at 8 Gb/s");

        NS_TEST_EXPECT_MSG_EQ(ParseTime("2.3us"), NanoSeconds(2300), "parsed 2.3us");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("0.1ms"), MicroSeconds(100), "parsed 0.1ms");
        NS_TEST_EXPECT_MSG_EQ(ParseTime("1.5min"), Seconds(90), "parsed 1.5min");
    }
};

#if defined(NS3_VERSION_MAJOR) && defined(NS3_VERSION_MINOR) &&                                    \
    (NS3_VERSION_MAJOR > 3 || (NS3_VERSION_MAJOR == 3 && NS3_VERSION_MINOR >= 33))
#define AI_FABRIC_NATIVE_ROUNDING 1

/**
 * \brief On ns-3.33 and newer, which round natively, the functions agree with
 * Seconds(double), Time(std::string) and DataRate::CalculateBytesTxTime bit for bit.
 */
class RoundedTimeMatchesNativeTest : public TestCase
{
  public:
    RoundedTimeMatchesNativeTest()
        : TestCase("same as ns-3's own rounding (ns-3.33+)")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t mismatches = 0;
        for (uint32_t i = 1; i <= 20000; ++i)
        {
            const double seconds = i * 1.3e-9 + i * i * 7.1e-13;
            mismatches += RoundedSeconds(seconds) != Seconds(seconds);
        }
        NS_TEST_EXPECT_MSG_EQ(mismatches, 0, "RoundedSeconds vs Seconds(double)");

        mismatches = 0;
        const DataRate rates[] = {DataRate("25Gbps"),
                                  DataRate("56Gbps"),
                                  DataRate("100Gbps"),
                                  DataRate("200Gbps"),
                                  DataRate("7777777bps")};
        for (const DataRate& rate : rates)
        {
            for (uint32_t bytes = 1; bytes <= 9000; bytes += 7)
            {
                mismatches += RoundedTxTime(rate, bytes) != rate.CalculateBytesTxTime(bytes);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(mismatches, 0, "RoundedTxTime vs CalculateBytesTxTime");

        for (const char* text : {"2.3us", "0.1ms", "1.5min", "12.345678ns", "3s", "0.7h"})
        {
            NS_TEST_EXPECT_MSG_EQ(ParseTime(text), Time(text), text);
        }
    }
};
#endif

/// \brief The rounded-time test suite.
class RoundedTimeTestSuite : public TestSuite
{
  public:
    RoundedTimeTestSuite()
        : TestSuite("ai-fabric-rounded-time", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new RoundedTimeValuesTest, AI_FABRIC_QUICK);
#ifdef AI_FABRIC_NATIVE_ROUNDING
        AddTestCase(new RoundedTimeMatchesNativeTest, AI_FABRIC_QUICK);
#endif
    }
};

static RoundedTimeTestSuite g_roundedTimeTestSuite; //!< registers the suite
