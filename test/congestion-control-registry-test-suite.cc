/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The congestion-control registry: the algorithms by name, the factory and the
 * scenario runner reading it, and an algorithm registered by the test library
 * (FixedFractionCongestionControl) running through the runner.
 */
#include "ai-fabric-test-compat.h"
#include "fixed-fraction-congestion-control.h"

#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace ns3;

/// \brief Names, presets, errors and the scenario knob, from the one table.
class CongestionControlRegistryNamesTest : public TestCase
{
  public:
    CongestionControlRegistryNamesTest()
        : TestCase("registered names, presets and the --cc knob")
    {
    }

  private:
    void DoRun() override
    {
        const auto names = CongestionControlRegistry::GetNames();
        const std::vector<std::string> expected{"dcqcn",
                                                "dctcp",
                                                "fixed-fraction",
                                                "hpcc",
                                                "ibta",
                                                "none",
                                                "nscc",
                                                "powertcp",
                                                "swift",
                                                "theta-powertcp",
                                                "timely"};
        NS_TEST_ASSERT_MSG_EQ(names.size(), expected.size(), "eleven algorithms");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(names[i], expected[i], "sorted names");
        }
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Get("dcqcn").typeName,
                              "ns3::DcqcnCongestionControl",
                              "TypeId of dcqcn");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Get("dcqcn").scenarioPreset,
                              "hpcc-run",
                              "DCQCN names the runner's preset");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlFactory::GetPresets("swift").size(), 2, "swift");
        const auto toy = CongestionControlFactory::GetPresets("fixed-fraction");
        NS_TEST_ASSERT_MSG_EQ(toy.size(), 1, "one preset without preset functions");
        NS_TEST_ASSERT_MSG_EQ(toy[0], "default", "the attribute defaults");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlFactory::Create("fixed-fraction")->GetName(),
                              "fixed-fraction",
                              "the factory makes the registered class");

        std::string error;
        try
        {
            CongestionControlRegistry::Get("cubic");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "unknown congestion control 'cubic'; allowed: dcqcn, dctcp, "
                              "fixed-fraction, hpcc, ibta, none, nscc, powertcp, swift, "
                              "theta-powertcp, timely",
                              "names the value and what is allowed");

        ScenarioConfig c;
        c.Set("cc", "fixed-fraction");
        NS_TEST_ASSERT_MSG_EQ(c.cc, "fixed-fraction", "the knob takes a registered name");
        for (const auto& knob : ScenarioConfig::Knobs())
        {
            if (knob.name == "cc")
            {
                NS_TEST_ASSERT_MSG_EQ(
                    knob.allowed,
                    "dcqcn, dctcp, fixed-fraction, hpcc, ibta, none, nscc, powertcp, swift, "
                    "theta-powertcp, timely",
                    "allowed values");
                NS_TEST_ASSERT_MSG_NE(knob.help.find("test library: pace at"),
                                      std::string::npos,
                                      "help lists each algorithm's line");
            }
        }
    }
};

/**
 * \brief One 1 MB WRITE through the runner under "none" and under the test library's
 * fixed-fraction algorithm at half the line rate: the paced flow takes longer by
 * exactly its serialization time at line rate (every packet's gap doubles).
 */
class CongestionControlRegistryRunnerTest : public TestCase
{
  public:
    CongestionControlRegistryRunnerTest()
        : TestCase("a registered algorithm runs through the scenario runner")
    {
    }

  private:
    double RunFlow(const std::string& cc)
    {
        const std::string out = "out/test-cc-registry-" + cc;
        std::filesystem::create_directories(out);
        {
            std::ofstream flows(out + "-flows.txt");
            flows << "1\n0 5 3 100 1000000 0.000001000\n";
        }
        ScenarioConfig c;
        c.Set("topology", "leafspine");
        c.Set("leaves", "2");
        c.Set("spines", "2");
        c.Set("workload", "none");
        c.Set("flows", out + "-flows.txt");
        c.Set("cc", cc);
        c.Set("qlen-interval", "0");
        c.Set("out", out);
        const nlohmann::json s = ScenarioRunner(c).Run();
        NS_TEST_EXPECT_MSG_EQ(s["complete"].get<bool>(), true, cc << ": finished");
        NS_TEST_EXPECT_MSG_EQ(s["config"]["cc"].get<std::string>(), cc, cc << ": echoed");
        return s["fct"]["fct_ns"]["max"].get<double>();
    }

    void DoRun() override
    {
        const double unpaced = RunFlow("none");
        const double paced = RunFlow("fixed-fraction");
        // 1000 packets of 1000 payload bytes: 1082 wire bytes each (Ethernet, IPv4, UDP,
        // BTH, ICRC, FCS, preamble and gap), the first 16 more (RETH), 86.56 ns each at
        // 100 Gb/s. At 50 Gb/s the sender spaces them 173.12 ns apart.
        const double lineTimeNs = (1000.0 * 1082 + 16) * 8 / 100.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(paced - unpaced,
                                  lineTimeNs,
                                  0.01 * lineTimeNs,
                                  "half rate adds one line-rate serialization time (unpaced "
                                      << unpaced << " ns, paced " << paced << " ns)");
    }
};

/// \brief The congestion-control registry test suite.
class CongestionControlRegistryTestSuite : public TestSuite
{
  public:
    CongestionControlRegistryTestSuite()
        : TestSuite("ai-fabric-congestion-control-registry", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new CongestionControlRegistryNamesTest, AI_FABRIC_QUICK);
        AddTestCase(new CongestionControlRegistryRunnerTest, AI_FABRIC_QUICK);
    }
};

static CongestionControlRegistryTestSuite g_congestionControlRegistryTestSuite; //!< registers it
