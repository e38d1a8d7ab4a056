/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * --fabric=uet through the scenario runner: per-packet spraying on a k=8 fat-tree
 * permutation against RoCEv2's ECMP, a 64-to-1 incast with trimming and no PFC, and the
 * fabric's refusals.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config-error.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Run \p c into \p out; \return its summary.
nlohmann::json
RunInto(ScenarioConfig& c, const std::string& out)
{
    std::filesystem::remove_all(out);
    std::filesystem::create_directories(out);
    c.Set("qlen-interval", "0");
    c.Set("out", out);
    return ScenarioRunner(c).Run();
}

/// \return the mean of ideal_fct / fct over fct.csv's rows in \p out (1: line rate)
double
MeanShare(const std::string& out)
{
    std::ifstream in(out + "/fct.csv");
    std::string line;
    std::getline(in, line); // header: flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,...
    double sum = 0;
    uint32_t n = 0;
    while (std::getline(in, line))
    {
        std::stringstream ss(line);
        std::string f[7];
        for (auto& x : f)
        {
            std::getline(ss, x, ',');
        }
        sum += std::stod(f[6]) / std::stod(f[5]);
        n++;
    }
    return n == 0 ? 0 : sum / n;
}

} // namespace

/// \brief k=8 fat tree, random permutation of 300 KB WRITEs: UET's per-packet spraying
/// near line rate without PFC, RoCEv2's per-flow ECMP well below.
class UetPermutationTest : public TestCase
{
  public:
    UetPermutationTest()
        : TestCase("k=8 fat-tree permutation: UET sprays near line rate, RoCEv2 ECMP does not")
    {
    }

  private:
    double Run(const std::string& fabric, const std::string& cc)
    {
        ScenarioConfig c;
        c.Set("fabric", fabric);
        c.Set("topology", "fattree");
        c.Set("k", "8");
        c.Set("workload", "permutation");
        c.Set("bytes", "300KB");
        c.Set("cc", cc);
        const std::string out = "out/test-uet-permutation-" + fabric;
        const nlohmann::json s = RunInto(c, out);
        NS_TEST_EXPECT_MSG_EQ(s["complete"].get<bool>(), true, fabric << ": finished");
        NS_TEST_EXPECT_MSG_EQ(s["pfc_pauses"].get<uint64_t>(), 0, fabric << ": no pause");
        const double share = MeanShare(out);
        std::filesystem::remove_all(out);
        return share;
    }

    void DoRun() override
    {
        const double uet = Run("uet", "nscc");
        const double roce = Run("rocev2", "none");
        // Measured 0.933 and 0.546 (doc/uet.md).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(uet, 0.9, "UET: >= 0.9 of line rate per flow");
        NS_TEST_EXPECT_MSG_LT(roce, 0.7, "RoCEv2 ECMP: hash collisions");
    }
};

/// \brief 64 senders into one host (k=8 fat tree), no PFC: switches trim instead of
/// dropping, the receiver NACKs, the senders resend, every message completes.
class UetIncastTest : public TestCase
{
  public:
    UetIncastTest()
        : TestCase("64-to-1 incast: trimmed, NACKed, resent, complete, nothing dropped")
    {
    }

  private:
    void DoRun() override
    {
        ScenarioConfig c;
        c.Set("fabric", "uet");
        c.Set("topology", "fattree");
        c.Set("k", "8");
        c.Set("workload", "incast");
        c.Set("fanin", "64");
        c.Set("bytes", "100KB");
        c.Set("cc", "nscc");
        const std::string out = "out/test-uet-incast";
        const nlohmann::json s = RunInto(c, out);
        std::filesystem::remove_all(out);
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "every message completes");
        NS_TEST_EXPECT_MSG_EQ(s["messages"]["finished"].get<uint64_t>(), 64, "all 64");
        NS_TEST_EXPECT_MSG_EQ(s["pfc_pauses"].get<uint64_t>(), 0, "no PFC");
        NS_TEST_EXPECT_MSG_EQ(s["drops"]["lossy"].get<uint64_t>(), 0, "trimmed, not dropped");
        NS_TEST_EXPECT_MSG_GT(s["retransmissions"].get<uint64_t>(), 0, "trimmed packets resent");
    }
};

/// \brief Bad input: one ConfigError naming the value and what is allowed.
class UetRefusalTest : public TestCase
{
  public:
    UetRefusalTest()
        : TestCase("--fabric=uet refuses go-back-N and --nic-entropy")
    {
    }

  private:
    void Expect(const std::string& flag, const std::string& value, const std::string& named)
    {
        ScenarioConfig c;
        c.Set("fabric", "uet");
        c.Set("workload", "incast");
        c.Set(flag, value);
        std::string message;
        try
        {
            RunInto(c, "out/test-uet-refusal");
        }
        catch (const ConfigError& e)
        {
            message = e.what();
        }
        std::filesystem::remove_all("out/test-uet-refusal");
        NS_TEST_EXPECT_MSG_NE(message.find(named), std::string::npos, "refused: " << message);
        NS_TEST_EXPECT_MSG_NE(message.find("allowed"), std::string::npos, "says what is allowed");
    }

    void DoRun() override
    {
        Expect("recovery", "gbn", "--recovery=gbn");
        Expect("nic-entropy", "4", "--nic-entropy=4");
    }
};

/// \brief The UET test suite.
class UetTestSuite : public TestSuite
{
  public:
    UetTestSuite()
        : TestSuite("ai-fabric-uet", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new UetRefusalTest, AI_FABRIC_QUICK);
        AddTestCase(new UetIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new UetPermutationTest, AI_FABRIC_QUICK);
    }
};

static UetTestSuite g_uetTestSuite; //!< registers it
