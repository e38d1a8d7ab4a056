/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fabric-builder registry: the fabrics by name, the --fabric knob reading it, and a
 * fabric registered by the test library (LossyRoceFabricBuilder) running through the
 * scenario runner.
 */
#include "ai-fabric-test-compat.h"
#include "lossy-roce-fabric-builder.h"

#include "ns3/attribute-defaults.h"
#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/fabric-builder-registry.h"
#include "ns3/memory-estimate.h"
#include "ns3/nstime.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/type-id.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

/// \brief Names, errors and the --fabric knob, from the one table.
class FabricBuilderRegistryNamesTest : public TestCase
{
  public:
    FabricBuilderRegistryNamesTest()
        : TestCase("registered fabrics and the --fabric knob")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> expected{"infiniband", "rocev2", "test-rocev2-lossy", "uet"};
        const auto names = FabricBuilderRegistry::GetNames();
        NS_TEST_ASSERT_MSG_EQ(names.size(), expected.size(), "four fabrics");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(names[i], expected[i], "sorted names");
        }
        NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::Has("rocev2"), true, "rocev2");
        NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::Has("ib"), false, "not ib");
        const bool made = FabricBuilderRegistry::Create("infiniband") != nullptr;
        NS_TEST_ASSERT_MSG_EQ(made, true, "a builder per call");
        const std::string allowed = "infiniband, rocev2, test-rocev2-lossy, uet";

        std::string error;
        try
        {
            FabricBuilderRegistry::Create("ethernet");
        }
        catch (const ConfigError& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "--fabric: unknown fabric 'ethernet'; allowed: " + allowed,
                              "names the value and what is allowed");

        ScenarioConfig c;
        c.Set("fabric", "test-rocev2-lossy");
        NS_TEST_ASSERT_MSG_EQ(c.fabric, "test-rocev2-lossy", "the knob takes a registered name");
        error.clear();
        try
        {
            c.Set("fabric", "ib");
        }
        catch (const ConfigError& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "--fabric: 'ib' is not one of " + allowed,
                              "the knob lists the registered names");
        bool found = false;
        for (const auto& knob : ScenarioConfig::Knobs())
        {
            if (knob.name == "fabric")
            {
                found = true;
                NS_TEST_ASSERT_MSG_EQ(knob.allowed, allowed, "allowed values");
                NS_TEST_ASSERT_MSG_NE(knob.help.find("test library: RoCEv2 with PFC off"),
                                      std::string::npos,
                                      "help lists each fabric's line");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(found, true, "a --fabric knob");
    }
};

/**
 * \brief One incast through the runner on --fabric=rocev2 and on the test library's
 * test-rocev2-lossy: the same switches and buffer, but RoCEv2 pauses the senders (PFC)
 * and loses nothing, while the registered builder's fabric, with PFC off, sends no
 * pause and drops (and the runner, asking the fabric, finds no lossless link to check
 * for deadlock).
 */
class FabricBuilderRegistryRunnerTest : public TestCase
{
  public:
    FabricBuilderRegistryRunnerTest()
        : TestCase("a registered fabric runs through the scenario runner")
    {
    }

  private:
    nlohmann::json RunIncast(const std::string& fabric)
    {
        const std::string out = "out/test-fabric-registry-" + fabric;
        std::filesystem::create_directories(out);
        ScenarioConfig c;
        c.Set("fabric", fabric);
        c.Set("topology", "leafspine");
        c.Set("leaves", "2");
        c.Set("spines", "1");
        c.Set("hosts-per-switch", "4");
        c.Set("workload", "incast");
        c.Set("fanin", "7");
        c.Set("bytes", "500KB");
        c.Set("buffer", "500KB");
        c.Set("cc", "none");
        c.Set("qlen-interval", "0");
        c.Set("out", out);
        const nlohmann::json s = ScenarioRunner(c).Run();
        NS_TEST_EXPECT_MSG_EQ(s["complete"].get<bool>(), true, fabric << ": finished");
        NS_TEST_EXPECT_MSG_EQ(s["config"]["fabric"].get<std::string>(),
                              fabric,
                              fabric << ": echoed");
        std::filesystem::remove_all(out);
        return s;
    }

    void DoRun() override
    {
        const nlohmann::json roce = RunIncast("rocev2");
        NS_TEST_ASSERT_MSG_GT(roce["pfc_pauses"].get<uint64_t>(), 0, "RoCEv2 pauses");
        NS_TEST_ASSERT_MSG_EQ(roce["drops"]["lossy"].get<uint64_t>(), 0, "and drops nothing");
        NS_TEST_ASSERT_MSG_EQ(roce["routing_deadlock_free"].is_boolean(),
                              true,
                              "its lossless links are checked for deadlock");

        const nlohmann::json lossy = RunIncast("test-rocev2-lossy");
        NS_TEST_ASSERT_MSG_EQ(lossy["pfc_pauses"].get<uint64_t>(), 0, "no PFC: no pause");
        NS_TEST_ASSERT_MSG_GT(lossy["drops"]["lossy"].get<uint64_t>(), 0, "a full buffer drops");
        NS_TEST_ASSERT_MSG_GT(lossy["retransmissions"].get<uint64_t>(),
                              0,
                              "and the senders resend");
        NS_TEST_ASSERT_MSG_EQ(lossy["drops"]["lossless"].get<uint64_t>(), 0, "no lossless class");
        NS_TEST_ASSERT_MSG_EQ(lossy["routing_deadlock_free"].is_null(),
                              true,
                              "no lossless link, so no deadlock check");
    }
};

/**
 * \brief What the runner and the knob table ask a fabric instead of its name: its link
 * layer (which knobs apply) and its bytes per cable (the memory estimate).
 */
class FabricBuilderPropertiesTest : public TestCase
{
  public:
    FabricBuilderPropertiesTest()
        : TestCase("a fabric's properties: link layer, bytes per cable")
    {
    }

  private:
    void DoRun() override
    {
        using L = FabricBuilder::LinkLayer;
        NS_TEST_ASSERT_MSG_EQ(
            (FabricBuilderRegistry::GetProperties("infiniband").GetLinkLayer() == L::INFINIBAND),
            true,
            "InfiniBand's devices");
        for (const std::string fabric : {"rocev2", "uet", "test-rocev2-lossy"})
        {
            NS_TEST_ASSERT_MSG_EQ(
                (FabricBuilderRegistry::GetProperties(fabric).GetLinkLayer() == L::ETHERNET),
                true,
                fabric << ": Ethernet switches");
            NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::IsInfiniBand(fabric), false, fabric);
            NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::GetProperties(fabric).GetBytesPerCable(),
                                  MemoryEstimate::ROCE_BYTES_PER_CABLE,
                                  fabric << ": RoCEv2's devices per cable");
        }
        NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::IsInfiniBand("infiniband"), true, "IB");
        NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::IsInfiniBand("ib"), false, "not registered");
        NS_TEST_ASSERT_MSG_EQ(FabricBuilderRegistry::GetProperties("infiniband").GetBytesPerCable(),
                              MemoryEstimate::IB_BYTES_PER_CABLE,
                              "HCAs, credit links and VL buffers per cable");
        NS_TEST_ASSERT_MSG_EQ(&FabricBuilderRegistry::GetProperties("rocev2"),
                              &FabricBuilderRegistry::GetProperties("rocev2"),
                              "made once");
        // The knob table asks it: --buffer configures Ethernet switches only
        ScenarioConfig c;
        c.Set("fabric", "infiniband");
        c.Set("buffer", "1MB");
        bool refused = false;
        try
        {
            c.Validate();
        }
        catch (const ConfigError& e)
        {
            refused = std::string(e.what()).find("does not apply to --fabric=infiniband") !=
                      std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "--buffer refused on InfiniBand");
        c.Set("fabric", "test-rocev2-lossy");
        c.Validate(); // (an Ethernet fabric: --buffer applies)
    }
};

/**
 * \brief Runs that set attribute defaults (--cc=ibta's FECN marking on InfiniBand,
 * --kmin, a --ns3:: override, a DCQCN preset) leave every registered attribute's default
 * as they found it, so the next run in the process starts from the same defaults.
 */
class RunLeavesDefaultsTest : public TestCase
{
  public:
    RunLeavesDefaultsTest()
        : TestCase("a run leaves the attribute defaults as it found them")
    {
    }

  private:
    /// Every registered attribute's default, as text
    static std::vector<std::string> Defaults()
    {
        std::vector<std::string> all;
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            const TypeId tid = TypeId::GetRegistered(i);
            for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
            {
                const TypeId::AttributeInformation info = tid.GetAttribute(a);
                all.push_back(tid.GetName() + "::" + info.name + "=" +
                              info.initialValue->SerializeToString(info.checker));
            }
        }
        return all;
    }

    void DoRun() override
    {
        const std::vector<std::string> before = Defaults();
        // (the last: refused by the IB builder, after ConfigureDefaults set IBTA's marking)
        const std::vector<std::vector<std::string>> runs{
            {"fabric=infiniband", "cc=ibta", "mtu=1024"},
            {"fabric=rocev2", "cc=dcqcn", "kmin=10KB", "kmax=50KB", "pmax=0.5"},
            {"fabric=rocev2", "ns3::RoceSwitch::SwitchLatency=700ns"},
            {"fabric=infiniband", "cc=ibta", "mtu=1000"},
        };
        const std::string out = "out/test-fabric-registry-defaults";
        for (const auto& flags : runs)
        {
            ScenarioConfig c;
            c.Set("leaves", "2");
            c.Set("spines", "1");
            c.Set("hosts-per-switch", "2");
            c.Set("fanin", "3");
            c.Set("bytes", "20KB");
            c.Set("qlen-interval", "0");
            c.Set("out", out);
            for (const std::string& flag : flags)
            {
                const std::size_t eq = flag.find('=');
                c.Set(flag.substr(0, eq), flag.substr(eq + 1));
            }
            std::filesystem::create_directories(out);
            bool complete = false;
            try
            {
                complete = ScenarioRunner(c).Run()["complete"].get<bool>();
            }
            catch (const ConfigError&)
            {
            }
            NS_TEST_ASSERT_MSG_EQ(complete, (&flags != &runs.back()), "ran: " << flags[1]);
            const std::vector<std::string> after = Defaults();
            NS_TEST_ASSERT_MSG_EQ(after.size(), before.size(), "same attributes");
            for (std::size_t i = 0; i < before.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(after[i], before[i], "restored after " << flags[1]);
            }
        }
        std::filesystem::remove_all(out);
        // The comparison sees a default set by hand, and AttributeDefaults puts it back
        {
            const AttributeDefaults keep;
            Config::SetDefault("ns3::RoceSwitch::SwitchLatency", TimeValue(NanoSeconds(123)));
            NS_TEST_ASSERT_MSG_EQ((Defaults() != before), true, "a changed default is seen");
        }
        NS_TEST_ASSERT_MSG_EQ((Defaults() == before), true, "and restored");
    }
};

/// \brief The fabric-builder registry test suite.
class FabricBuilderRegistryTestSuite : public TestSuite
{
  public:
    FabricBuilderRegistryTestSuite()
        : TestSuite("ai-fabric-fabric-builder-registry", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new FabricBuilderRegistryNamesTest, AI_FABRIC_QUICK);
        AddTestCase(new FabricBuilderRegistryRunnerTest, AI_FABRIC_QUICK);
        AddTestCase(new FabricBuilderPropertiesTest, AI_FABRIC_QUICK);
        AddTestCase(new RunLeavesDefaultsTest, AI_FABRIC_QUICK);
    }
};

static FabricBuilderRegistryTestSuite g_fabricBuilderRegistryTestSuite; //!< registers it
