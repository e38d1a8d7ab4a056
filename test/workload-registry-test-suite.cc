/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * WorkloadRegistry: the registered workloads and the --workload knob that reads
 * them, and a point-to-point workload registered by this file running through the
 * scenario runner.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/flow-workload.h"
#include "ns3/message-kind.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/workload-registry.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// The test's workload: host i sends --bytes to host i + 1 (mod the host count).
PointToPointPattern
RingPattern(const PointToPointOptions& c, uint32_t n, Ptr<UniformRandomVariable>)
{
    PointToPointPattern p;
    p.bytes = c.bytes;
    p.kind = KIND_PERMUTATION;
    for (uint32_t i = 0; i < n; ++i)
    {
        p.pairs.emplace_back(i, (i + 1) % n);
    }
    return p;
}

WorkloadRegistration g_testRing({"test-ring",
                                 "each host sends --bytes to the next (test library)",
                                 WorkloadRegistry::POINT_TO_POINT,
                                 &RingPattern});

} // namespace

/**
 * \brief The registered names and families, the knob's allowed values, the error of
 * an unknown name, and the kind table's bounds.
 */
class WorkloadRegistryNamesTest : public TestCase
{
  public:
    WorkloadRegistryNamesTest()
        : TestCase("registered workloads, the --workload knob, kinds")
    {
    }

  private:
    void DoRun() override
    {
        using R = WorkloadRegistry;
        NS_TEST_ASSERT_MSG_EQ(R::Get("none").family, R::NONE, "none");
        for (const char* name : {"incast", "permutation", "alltoall", "test-ring"})
        {
            NS_TEST_ASSERT_MSG_EQ(R::Get(name).family, R::POINT_TO_POINT, name);
            NS_TEST_ASSERT_MSG_EQ(R::GetFamily(name, 1), R::POINT_TO_POINT, name);
        }
        // on GPU servers alltoall is NCCL's all-to-all, the collective; the others keep theirs
        NS_TEST_ASSERT_MSG_EQ(R::GetFamily("alltoall", 8), R::COLLECTIVE, "alltoall on servers");
        NS_TEST_ASSERT_MSG_EQ(R::GetFamily("incast", 8), R::POINT_TO_POINT, "incast on servers");
        NS_TEST_ASSERT_MSG_EQ(R::GetFamily("allreduce", 8), R::COLLECTIVE, "allreduce");
        std::string collectives;
        for (const std::string& name : R::GetNames(R::COLLECTIVE))
        {
            collectives += name + " ";
        }
        NS_TEST_ASSERT_MSG_EQ(collectives, "allgather allreduce reducescatter ", "collectives");
        std::string names;
        for (const std::string& name : R::GetNames())
        {
            names += (names.empty() ? "" : ", ") + name;
        }
        const ScenarioConfig::KnobInfo* knob = ScenarioConfig::FindKnob("workload");
        NS_TEST_ASSERT_MSG_NE(knob, nullptr, "the knob exists");
        NS_TEST_ASSERT_MSG_EQ(knob->allowed, names, "the knob allows the registered names");
        NS_TEST_ASSERT_MSG_NE(knob->help.find("test-ring (each host sends"),
                              std::string::npos,
                              "and shows each one's help");
        std::string error;
        try
        {
            R::Get("ring");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_NE(error.find("'ring'"), std::string::npos, "names the value");
        NS_TEST_ASSERT_MSG_NE(error.find(names), std::string::npos, "lists the allowed");

        NS_TEST_ASSERT_MSG_EQ(std::string(MessageKindName(KIND_BACKGROUND)),
                              "background",
                              "kind 5");
        NS_TEST_ASSERT_MSG_EQ(std::string(MessageKindName(200)), "unknown", "beyond the table");
        Ptr<FlowWorkload> flows = CreateObject<FlowWorkload>();
        NS_TEST_ASSERT_MSG_EQ(flows->SetAttributeFailSafe("BackgroundKind", UintegerValue(200)),
                              false,
                              "a kind beyond the table is refused");
        NS_TEST_ASSERT_MSG_EQ(flows->SetAttributeFailSafe("FlowFileKind", UintegerValue(5)),
                              true,
                              "the last kind is allowed");
        for (const char* name : {"../x", "a/b", "/tmp/x", "..", ".", ""})
        {
            NS_TEST_ASSERT_MSG_EQ(flows->SetAttributeFailSafe("FctTxtName", StringValue(name)),
                                  false,
                                  "an FCT log outside --out is refused: '" << name << "'");
        }
        NS_TEST_ASSERT_MSG_EQ(flows->SetAttributeFailSafe("FctTxtName", StringValue("a.b..c")),
                              true,
                              "a plain name with dots is allowed");
        StringValue name;
        flows->GetAttribute("FctTxtName", name);
        NS_TEST_ASSERT_MSG_EQ(name.Get(), "a.b..c", "and set");
    }
};

/**
 * \brief The test library's ring workload through the runner on a 2-leaf
 * leaf-spine of 8 hosts: 8 messages of 100 KB, every one finished, the run
 * complete, fct.csv one row per message with the pattern's kind.
 */
class WorkloadRegistryRunnerTest : public TestCase
{
  public:
    WorkloadRegistryRunnerTest()
        : TestCase("a registered workload runs through the scenario runner")
    {
    }

  private:
    void DoRun() override
    {
        const std::string out = "out/test-workload-registry";
        std::filesystem::create_directories(out);
        ScenarioConfig c;
        c.Set("topology", "leafspine");
        c.Set("leaves", "2");
        c.Set("spines", "1");
        c.Set("hosts-per-switch", "4");
        c.Set("workload", "test-ring");
        c.Set("bytes", "100KB");
        c.Set("qlen-interval", "0");
        c.Set("out", out);
        const nlohmann::json s = ScenarioRunner(c).Run();
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "finished");
        NS_TEST_ASSERT_MSG_EQ(s["messages"]["expected"].get<uint64_t>(), 8, "one per host");
        NS_TEST_ASSERT_MSG_EQ(s["messages"]["finished"].get<uint64_t>(), 8, "all finished");
        std::ifstream fct(out + "/fct.csv");
        std::string line;
        std::getline(fct, line); // header
        uint32_t rows = 0;
        uint32_t permutationRows = 0;
        while (std::getline(fct, line))
        {
            rows++;
            permutationRows += line.find(",permutation") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(rows, 8, "fct.csv: one row per message");
        NS_TEST_ASSERT_MSG_EQ(permutationRows, 8, "with the pattern's kind");
    }
};

/**
 * \brief The test library's workload component (test-ping-pong,
 * PingPongScenarioWorkload: family OTHER, run by the component registered under its
 * name) through the runner on a 2-leaf leaf-spine of 8 hosts: its 8 messages counted,
 * the run complete when its last round ends, its own summary block. A message ends at
 * its sender when the acknowledgement arrives, so a round is 4 one-way trips over 4
 * cables of 1 us (and 2 serializations of 4 KB at 100 Gb/s): each round at least that
 * and, on an idle fabric with no waiting, less than 1.5 times that.
 */
class WorkloadComponentRunnerTest : public TestCase
{
  public:
    WorkloadComponentRunnerTest()
        : TestCase("a registered workload component runs through the scenario runner")
    {
    }

  private:
    void DoRun() override
    {
        const std::string out = "out/test-workload-component";
        std::filesystem::create_directories(out);
        ScenarioConfig c;
        c.Set("topology", "leafspine");
        c.Set("leaves", "2");
        c.Set("spines", "1");
        c.Set("hosts-per-switch", "4");
        c.Set("host-rate", "100Gbps");
        c.Set("fabric-rate", "100Gbps");
        c.Set("link-delay", "1us");
        c.Set("workload", "test-ping-pong");
        c.Set("qlen-interval", "0");
        c.Set("out", out);
        const nlohmann::json s = ScenarioRunner(c).Run();
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "finished");
        NS_TEST_ASSERT_MSG_EQ(s["messages"]["expected"].get<uint64_t>(), 8, "4 rounds of 2");
        NS_TEST_ASSERT_MSG_EQ(s["messages"]["finished"].get<uint64_t>(), 8, "all finished");
        NS_TEST_ASSERT_MSG_EQ(s.contains("ping_pong"), true, "its summary block");
        NS_TEST_ASSERT_MSG_EQ(s["ping_pong"]["rounds"].get<uint32_t>(), 4, "every round");
        const double floorNs = 4 * 4 * 1000.0 + 2 * 4096 * 8 / 100.0;
        for (const auto& rtt : s["ping_pong"]["round_trip_ns"])
        {
            NS_TEST_EXPECT_MSG_GT(rtt.get<double>(), floorNs, "2 messages, each with its ACK");
            NS_TEST_EXPECT_MSG_LT(rtt.get<double>(), 1.5 * floorNs, "no idle wait");
        }
        NS_TEST_ASSERT_MSG_EQ(s["collectives"].size(), 0, "no collective");
        std::filesystem::remove_all(out);
    }
};

/// The suite.
class WorkloadRegistryTestSuite : public TestSuite
{
  public:
    WorkloadRegistryTestSuite()
        : TestSuite("ai-fabric-workload-registry", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new WorkloadRegistryNamesTest, AI_FABRIC_QUICK);
        AddTestCase(new WorkloadRegistryRunnerTest, AI_FABRIC_QUICK);
        AddTestCase(new WorkloadComponentRunnerTest, AI_FABRIC_QUICK);
    }
};

static WorkloadRegistryTestSuite g_workloadRegistryTestSuite;
