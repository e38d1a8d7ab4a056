/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of rounded-time.h: Time from fractional values rounded as ns-3.37 does,
 * on every ns-3 release (Time from fractions truncates on ns-3.31 and 3.32,
 * CalculateBytesTxTime up to ns-3.36).
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
        // 2.3 is a little below 2.3 as a double: Time::FromDouble(2.3, Time::US), which
        // Time("2.3us") calls, gives 2299 ns on ns-3.31 (truncation).
        NS_TEST_EXPECT_MSG_EQ(RoundedTime(int64x64_t(2.3), Time::US), NanoSeconds(2300), "2.3 us");
        NS_TEST_EXPECT_MSG_EQ(RoundedSeconds(63e-6), MicroSeconds(63), "63 us");
        NS_TEST_EXPECT_MSG_EQ(RoundedSeconds(2.3e-6), NanoSeconds(2300), "2.3e-6 s");
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

/**
 * \brief Against ns-3's own conversions: equal where ns-3 rounds, at most one time
 * step above where it truncates, never anything else. Time from fractions rounds
 * from ns-3.33 on, CalculateBytesTxTime from ns-3.37 on.
 *
 * Which of the two applies is asked of ns-3 at run time, each with a value that
 * only rounding gets right, not of a version macro:
 * a waf-era tree has no ns3/version-defines.h, and __has_include then finds an
 * installed ns-3's.
 */
class RoundedTimeVersusNativeTest : public TestCase
{
  public:
    RoundedTimeVersusNativeTest()
        : TestCase("against ns-3's Seconds(double), Time(string), CalculateBytesTxTime")
    {
    }

  private:
    /// Counts differences d (rounded - native) outside {0} or {0, +1 step}.
    struct Tally
    {
        uint64_t oneStep = 0; //!< d == +1 step
        uint64_t wrong = 0;   //!< d not allowed

        /// \param d rounded - native \param nativeRounds ns-3 rounds itself
        void Add(const Time& d, bool nativeRounds)
        {
            if (d == TimeStep(1) && !nativeRounds)
            {
                ++oneStep;
            }
            else if (!d.IsZero())
            {
                ++wrong;
            }
        }
    };

    void DoRun() override
    {
        // 0.6 of a time step: 1 step where ns-3 rounds, 0 where it truncates.
        const bool secondsRound =
            Time::From(int64x64_t(3) / int64x64_t(5), Time::GetResolution()) == TimeStep(1);
        Tally seconds;
        for (uint32_t i = 1; i <= 20000; ++i)
        {
            const double s = i * 1.3e-9 + i * i * 7.1e-13;
            seconds.Add(RoundedSeconds(s) - Seconds(s), secondsRound);
        }
        NS_TEST_EXPECT_MSG_EQ(seconds.wrong, 0, "RoundedSeconds vs Seconds(double)");

        const DataRate rates[] = {DataRate("25Gbps"),
                                  DataRate("56Gbps"),
                                  DataRate("100Gbps"),
                                  DataRate("200Gbps"),
                                  DataRate("7777777bps")};
        // 8 bits at 3 b/s is 2.666... s: only rounding ends in ...667 steps.
        const int64_t perSecond = Seconds(1).GetTimeStep();
        const bool txRounds = DataRate(3).CalculateBytesTxTime(1) == Time((16 * perSecond + 3) / 6);
        Tally tx;
        for (const DataRate& rate : rates)
        {
            for (uint32_t bytes = 1; bytes <= 9000; bytes += 7)
            {
                tx.Add(RoundedTxTime(rate, bytes) - rate.CalculateBytesTxTime(bytes), txRounds);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(tx.wrong, 0, "RoundedTxTime vs CalculateBytesTxTime");

        Tally parsed;
        for (const char* text : {"2.3us", "0.1ms", "1.5min", "12.345678ns", "3s", "0.7h"})
        {
            parsed.Add(ParseTime(text) - Time(text), secondsRound);
        }
        NS_TEST_EXPECT_MSG_EQ(parsed.wrong, 0, "ParseTime vs Time(string)");

        // Where ns-3 truncates, the loss it makes is real: the comparison saw it.
        if (!secondsRound)
        {
            NS_TEST_EXPECT_MSG_GT(seconds.oneStep, 0, "Seconds(double) truncates here");
            NS_TEST_EXPECT_MSG_GT(parsed.oneStep, 0, "Time(string) truncates here");
        }
        if (!txRounds)
        {
            NS_TEST_EXPECT_MSG_GT(tx.oneStep, 0, "CalculateBytesTxTime truncates here");
        }
    }
};

/// \brief The rounded-time test suite.
class RoundedTimeTestSuite : public TestSuite
{
  public:
    RoundedTimeTestSuite()
        : TestSuite("ai-fabric-rounded-time", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new RoundedTimeValuesTest, AI_FABRIC_QUICK);
        AddTestCase(new RoundedTimeVersusNativeTest, AI_FABRIC_QUICK);
    }
};

static RoundedTimeTestSuite g_roundedTimeTestSuite; //!< registers the suite
