/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of background traffic generation and the HPCC-derived flow/fct formats.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/background-traffic-generator.h"
#include "ns3/double.h"
#include "ns3/flow-file.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// \return the exception message, or "" if f did not throw std::invalid_argument
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

/**
 * \brief Analytic means, inverse CDF points and sampled means of the built-in CDFs.
 */
class FlowSizeCdfTestCase : public TestCase
{
  public:
    FlowSizeCdfTestCase()
        : TestCase("built-in CDFs: exact mean, inverse CDF, sampled mean within 2%")
    {
    }

  private:
    void DoRun() override
    {
        auto ws = CreateObject<FlowSizeDistribution>();
        ws->Load("websearch");
        auto fb = CreateObject<FlowSizeDistribution>();
        fb->Load("fbhadoop");
        // Means of the piecewise-linear CDFs (linear interpolation between points).
        NS_TEST_ASSERT_MSG_EQ_TOL(ws->GetMeanBytes(), 1711250.0, 1e-6, "websearch mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(fb->GetMeanBytes(), 120420.75, 1e-6, "fbhadoop mean");
        // Inverse CDF: at a point, and halfway along a segment.
        NS_TEST_ASSERT_MSG_EQ_TOL(ws->InverseCdf(0.15), 10000.0, 1e-6, "websearch 15% point");
        NS_TEST_ASSERT_MSG_EQ_TOL(ws->InverseCdf(0.175), 15000.0, 1e-6, "websearch mid-segment");
        NS_TEST_ASSERT_MSG_EQ_TOL(fb->InverseCdf(0.10), 325.0, 1e-6, "fbhadoop 5..15% segment");
        NS_TEST_ASSERT_MSG_EQ(FlowSizeDistribution::ToFlowSize(0.2), 1u, "size at least 1 byte");

        // Sample sd / mean (from the CDF's second moment): websearch 2.32, fbhadoop 5.56.
        // With 2e6 samples the standard error of the mean is 0.16% and 0.39%, so 2% is a
        // 12-sigma and a 5.1-sigma bound.
        const uint32_t n = 2000000;
        ws->AssignStreams(11);
        fb->AssignStreams(12);
        double sumWs = 0;
        double sumFb = 0;
        uint64_t maxWs = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint64_t a = ws->Sample();
            sumWs += static_cast<double>(a);
            maxWs = std::max(maxWs, a);
            sumFb += static_cast<double>(fb->Sample());
        }
        const double meanWs = sumWs / n;
        const double meanFb = sumFb / n;
        std::cout << "sampled means over " << n << ": websearch " << meanWs << " B ("
                  << 100 * (meanWs / 1711250.0 - 1) << "%), fbhadoop " << meanFb << " B ("
                  << 100 * (meanFb / 120420.75 - 1) << "%)" << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(meanWs / 1711250.0, 1.0, 0.02, "websearch sampled mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(meanFb / 120420.75, 1.0, 0.02, "fbhadoop sampled mean");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(maxWs, 30000000u, "never beyond the last CDF point");
    }
};

/**
 * \brief Malformed CDFs throw with file, line and the rule.
 */
class FlowSizeCdfErrorTestCase : public TestCase
{
  public:
    FlowSizeCdfErrorTestCase()
        : TestCase("malformed CDF files throw std::invalid_argument with line numbers")
    {
    }

  private:
    void DoRun() override
    {
        auto parse = [](const std::string& text) {
            return ErrorOf([&text]() {
                std::istringstream in(text);
                CreateObject<FlowSizeDistribution>()->Parse(in, "my.cdf");
            });
        };
        std::string e = parse("0 0\n100 50\n# comment\n90 60\n200 100\n");
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "my.cdf") && Contains(e, "line 4") &&
                                  Contains(e, "\"90 60\"") && Contains(e, "non-decreasing"),
                              true,
                              "bytes going down: " << e);
        e = parse("0 0\n100 50\n200 40\n300 100\n");
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "line 3") && Contains(e, "monotone"),
                              true,
                              "percent going down: " << e);
        e = parse("0 0\n100 50\n200 99\n");
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "line 3") && Contains(e, "end at cumulative percent 100"),
                              true,
                              "not ending at 100: " << e);
        e = parse("0 0\n1e3 abc\n2000 100\n");
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "line 2") && Contains(e, "two numbers"),
                              true,
                              "unparsable: " << e);
        e = parse("0 0\n100 150\n");
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "line 2") && Contains(e, "[0, 100]"),
                              true,
                              "percent > 100: " << e);
        e = parse("\n# nothing\n");
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "no CDF points"), true, "empty: " << e);
        e = ErrorOf([]() { CreateObject<FlowSizeDistribution>()->Load("/nonexistent/web.cdf"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "/nonexistent/web.cdf") && Contains(e, "websearch"),
                              true,
                              "missing file: " << e);
        // A valid file with an atom at 1000 B (first point at 50%): mean 0.5*1000 + 0.5*1500.
        std::istringstream ok("1000 50\n2000 100\n");
        auto d = CreateObject<FlowSizeDistribution>();
        d->Parse(ok, "atom.cdf");
        NS_TEST_ASSERT_MSG_EQ_TOL(d->GetMeanBytes(), 1250.0, 1e-9, "mean with an atom");
        NS_TEST_ASSERT_MSG_EQ_TOL(d->InverseCdf(0.3), 1000.0, 1e-9, "inside the atom");
    }
};

/**
 * \brief Offered load, Poisson gaps, destinations, ordering, MaxFlows and incast.
 */
class BackgroundGeneratorTestCase : public TestCase
{
  public:
    BackgroundGeneratorTestCase()
        : TestCase("generator: offered load within 2%, exponential gaps, ordering, incast")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t hosts = 16;
        const double load = 0.5;
        auto gen = CreateObject<BackgroundTrafficGenerator>();
        gen->SetAttribute("Load", DoubleValue(load));
        gen->SetAttribute("HostRate", StringValue("100Gbps"));
        gen->SetAttribute("Distribution", StringValue("websearch"));
        // Mean gap 1,711,250 x 8 / (100e9 x 0.5) = 273.8 us; 5.5 s x 16 hosts ~ 321,000
        // flows. Relative sd of the offered bytes ~ sqrt((1 + CV^2) / N) with websearch's
        // size CV 2.32: 0.45%, so 2% is a 4.5-sigma bound.
        const Time window = Seconds(5.5);
        gen->SetAttribute("StopTime", TimeValue(window));
        gen->AssignStreams(100);
        NS_TEST_ASSERT_MSG_EQ_TOL(gen->GetMeanInterArrival().GetSeconds(),
                                  1711250.0 * 8 / (100e9 * load),
                                  1e-9,
                                  "mean gap formula");
        const auto flows = gen->Generate(hosts);

        double bytes = 0;
        bool ordered = true;
        bool dstOk = true;
        std::vector<double> lastStart(hosts, -1);
        double gapSum = 0;
        double gapSq = 0;
        uint64_t gaps = 0;
        for (size_t i = 0; i < flows.size(); ++i)
        {
            const auto& f = flows[i];
            bytes += static_cast<double>(f.sizeBytes);
            ordered &= f.id == i && (i == 0 || flows[i - 1].start <= f.start);
            dstOk &= f.dst != f.src && f.dst < hosts && f.src < hosts;
            const double t = f.start.GetSeconds();
            if (lastStart[f.src] >= 0)
            {
                const double g = t - lastStart[f.src];
                gapSum += g;
                gapSq += g * g;
                ++gaps;
            }
            lastStart[f.src] = t;
        }
        const double offered = bytes * 8 / (hosts * 100e9 * window.GetSeconds());
        const double meanGap = gapSum / gaps;
        const double cv = std::sqrt(gapSq / gaps - meanGap * meanGap) / meanGap;
        std::cout << flows.size() << " flows, offered load " << offered << " (target " << load
                  << "), mean gap " << meanGap * 1e6 << " us, gap CV " << cv << std::endl;
        NS_TEST_ASSERT_MSG_GT(flows.size(), 300000u, "enough flows for the 2% bound");
        NS_TEST_ASSERT_MSG_EQ_TOL(offered / load, 1.0, 0.02, "offered load within 2%");
        // 321k exponential gaps: the mean's relative standard error is 0.18%.
        NS_TEST_ASSERT_MSG_EQ_TOL(meanGap / gen->GetMeanInterArrival().GetSeconds(),
                                  1.0,
                                  0.01,
                                  "Poisson mean gap");
        NS_TEST_ASSERT_MSG_EQ_TOL(cv, 1.0, 0.02, "exponential gaps have CV 1");
        NS_TEST_ASSERT_MSG_EQ(ordered, true, "sorted by start, ids 0..n-1");
        NS_TEST_ASSERT_MSG_EQ(dstOk, true, "dst != src, both in range");

        // MaxFlows keeps the globally earliest flows: a prefix of the unlimited run.
        auto capped = CreateObject<BackgroundTrafficGenerator>();
        capped->SetAttribute("Load", DoubleValue(load));
        capped->SetAttribute("StopTime", TimeValue(window));
        capped->SetAttribute("MaxFlows", UintegerValue(1000));
        capped->AssignStreams(100);
        const auto first = capped->Generate(hosts);
        NS_TEST_ASSERT_MSG_EQ(first.size(), 1000u, "MaxFlows honoured");
        bool prefix = true;
        for (size_t i = 0; i < first.size(); ++i)
        {
            prefix &= first[i] == flows[i];
        }
        NS_TEST_ASSERT_MSG_EQ(prefix, true, "same streams, same flows (deterministic)");

        // Incast: 8 senders every 1 ms in a 10 ms window: bursts at 1..9 ms = 72 flows.
        auto inc = CreateObject<BackgroundTrafficGenerator>();
        inc->SetAttribute("MaxFlows", UintegerValue(1));
        inc->SetAttribute("IncastFanIn", UintegerValue(8));
        inc->SetAttribute("IncastBytes", UintegerValue(64000));
        inc->SetAttribute("IncastPeriod", TimeValue(MilliSeconds(1)));
        inc->SetAttribute("StopTime", TimeValue(MilliSeconds(10)));
        inc->AssignStreams(7);
        const auto incast = inc->Generate(hosts);
        NS_TEST_ASSERT_MSG_EQ(incast.size(), 73u, "1 Poisson + 9 bursts x 8");
        for (int b = 1; b <= 9; ++b)
        {
            std::vector<bool> sender(hosts, false);
            uint32_t count = 0;
            uint32_t receiver = hosts;
            bool ok = true;
            for (const auto& f : incast)
            {
                if (f.start == MilliSeconds(b) && f.sizeBytes == 64000)
                {
                    receiver = receiver == hosts ? f.dst : receiver;
                    ok &= f.dst == receiver && !sender[f.src] && f.src != f.dst;
                    sender[f.src] = true;
                    ++count;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(count, 8u, "burst " << b << " fan-in");
            NS_TEST_ASSERT_MSG_EQ(ok, true, "burst " << b << ": one receiver, distinct senders");
        }

        // Bad settings name the attribute and the allowed range.
        auto bad = CreateObject<BackgroundTrafficGenerator>();
        bad->SetAttribute("Load", DoubleValue(1.5));
        std::string e = ErrorOf([&]() { bad->Generate(hosts); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "Load 1.5") && Contains(e, "(0, 1]"), true, e);
        bad->SetAttribute("Load", DoubleValue(0.3));
        bad->SetAttribute("IncastFanIn", UintegerValue(16));
        e = ErrorOf([&]() { bad->Generate(hosts); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "IncastFanIn 16"), true, e);
        bad->SetAttribute("IncastFanIn", UintegerValue(0));
        bad->SetAttribute("Distribution", StringValue("webserch"));
        e = ErrorOf([&]() { bad->Generate(hosts); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "webserch") && Contains(e, "fbhadoop"), true, e);
    }
};

/**
 * \brief Flow file and fct.txt formats: round trip, exact bytes, errors with line numbers.
 */
class FlowFileTestCase : public TestCase
{
  public:
    FlowFileTestCase()
        : TestCase("HPCC-derived flow file round trip, fct.txt line, malformed files")
    {
    }

  private:
    void DoRun() override
    {
        auto gen = CreateObject<BackgroundTrafficGenerator>();
        gen->SetAttribute("Distribution", StringValue("fbhadoop"));
        gen->SetAttribute("StopTime", TimeValue(MilliSeconds(2)));
        gen->SetAttribute("Priority", UintegerValue(5));
        gen->SetAttribute("DestinationPort", UintegerValue(4791));
        gen->AssignStreams(3);
        auto flows = gen->Generate(300); // node ids above 255 exercise the parser
        NS_TEST_ASSERT_MSG_GT(flows.size(), 100u, "a non-trivial list");
        // Edge values: a start at 0 and one with a single trailing ns survive the round trip.
        flows.front().start = Seconds(0);
        flows.back().start = NanoSeconds(2000000001);
        const std::string path = CreateTempDirFilename("flows.txt");
        FlowFile::Write(path, flows);
        const auto back = FlowFile::Read(path, 300);
        NS_TEST_ASSERT_MSG_EQ(back.size(), flows.size(), "count");
        bool same = true;
        for (size_t i = 0; i < flows.size(); ++i)
        {
            same &= back[i] == flows[i];
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "write then read gives the same flows");

        std::ostringstream one;
        FlowSpec f;
        f.src = 2;
        f.dst = 1;
        f.priority = 3;
        f.dport = 100;
        f.sizeBytes = 1000000;
        f.start = NanoSeconds(2000001000);
        FlowFile::Write(one, {f});
        NS_TEST_ASSERT_MSG_EQ(one.str(), "1\n2 1 3 100 1000000 2.000001000\n", "exact text");

        auto parse = [](const std::string& text) {
            return ErrorOf([&text]() {
                std::istringstream in(text);
                FlowFile::Parse(in, "f.txt", 4);
            });
        };

        struct Case
        {
            std::string text;
            std::string expect1;
            std::string expect2;
        };

        const std::vector<Case> cases = {
            {"2\n0 1 3 100 1000 0.0\n0 1 3 100 abc 0.1\n", "line 3", "size_bytes"},
            {"x\n", "line 1", "number of flows"},
            {"3\n0 1 3 100 1000 0\n1 2 3 100 10 1\n", "announces 3", "has 2"},
            {"1\n0 1 3 100 1000 0\n1 2 3 100 10 1\n", "line 3", "more flow lines"},
            {"1\n\n2 2 3 100 1000 0\n", "line 3", "src != dst"},
            {"1\n0 1 9 100 1000 0\n", "line 2", "0..7"},
            {"1\n0 7 3 100 1000 0\n", "line 2", "0..3"},
            {"1\n0 1 3 100 1000\n", "line 2", "6 fields"},
            {"1\n0 1 3 100 1000 -1\n", "line 2", "start_s"},
            {"2\n0 1 3 100 1000 0.5\n1 2 3 100 1000 0.4\n", "line 3", "non-decreasing"},
            {"", "f.txt", "empty"},
            // Beyond MAX_TIME_SECONDS a start would wrap in picoseconds (it ran at t=0).
            {"1\n0 1 3 100 1000 10000000\n", "line 2", "allowed: seconds 0..4611686"},
            // 2^64-1 bytes would wrap to 0 packets.
            {"1\n0 1 3 100 18446744073709551615 0\n", "line 2", "1..1125899906842624"},
            // An announced count is not memory to reserve: 4e9 with one line fails on it.
            {"4000000000\n0 1 3 100 1000 0\n", "announces 4000000000", "has 1"},
        };
        for (const auto& c : cases)
        {
            const std::string e = parse(c.text);
            NS_TEST_ASSERT_MSG_EQ(Contains(e, "f.txt") && Contains(e, c.expect1) &&
                                      Contains(e, c.expect2),
                                  true,
                                  "input \"" << c.text << "\" gave \"" << e << "\"");
        }

        // fct.txt: their "%08x" IPs, node i = 11.(i/256).(i%256).1.
        NS_TEST_ASSERT_MSG_EQ(FlowFile::NodeIdToIpv4(0), 0x0b000001u, "node 0 = 11.0.0.1");
        NS_TEST_ASSERT_MSG_EQ(FlowFile::NodeIdToIpv4(257), 0x0b010101u, "node 257 = 11.1.1.1");
        NS_TEST_ASSERT_MSG_EQ(FlowFile::Ipv4ToNodeId(0x0b010101u), 257u, "and back");
        HpccFctRecord r;
        r.src = 0;
        r.dst = 257;
        r.sport = 10000;
        r.dport = 100;
        r.sizeBytes = 1000;
        r.startNs = 2000000000;
        r.fctNs = 5321;
        r.standaloneFctNs = 4100;
        std::ostringstream fct;
        FlowFile::WriteFctLine(fct, r);
        NS_TEST_ASSERT_MSG_EQ(fct.str(),
                              "0b000001 0b010101 10000 100 1000 2000000000 5321 4100\n",
                              "fct.txt line");
        std::istringstream fin(fct.str());
        const auto recs = FlowFile::ParseFct(fin, "fct.txt");
        NS_TEST_ASSERT_MSG_EQ(recs.size(), 1u, "one record");
        NS_TEST_ASSERT_MSG_EQ((recs[0] == r), true, "fct round trip");
        std::istringstream badFct("0b000001 0b000101 1 2 3\n");
        const std::string e = ErrorOf([&badFct]() { FlowFile::ParseFct(badFct, "fct.txt"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "line 1"), true, e);
    }
};

/**
 * \brief The ai-fabric-traffic suite.
 */
class TrafficTestSuite : public TestSuite
{
  public:
    TrafficTestSuite()
        : TestSuite("ai-fabric-traffic", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new FlowSizeCdfTestCase, AI_FABRIC_QUICK);
        AddTestCase(new FlowSizeCdfErrorTestCase, AI_FABRIC_QUICK);
        AddTestCase(new BackgroundGeneratorTestCase, AI_FABRIC_QUICK);
        AddTestCase(new FlowFileTestCase, AI_FABRIC_QUICK);
    }
};

static TrafficTestSuite g_trafficTestSuite; //!< registers the suite
