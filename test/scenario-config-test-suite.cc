/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ScenarioConfig: knob table round trips, size/rate/time parsing, error messages,
 * command line (unknown flags, --config files, precedence), the JSON echo and the
 * attributes the knobs set.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config-error.h"
#include "ns3/scenario-config.h"
#include "ns3/size-parser.h"
#include "ns3/type-id.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/// The message of the ConfigError fn throws, or "" if it throws none.
template <typename F>
std::string
ErrorOf(F fn)
{
    try
    {
        fn();
    }
    catch (const ConfigError& e)
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

/// A fresh scratch directory for this process.
std::string
ScratchDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() /
               ("ai-fabric-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

std::string
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
    return path;
}

ScenarioConfig
FromArgs(std::vector<std::string> args)
{
    args.insert(args.begin(), "ai-fabric-sim");
    std::vector<char*> argv;
    for (auto& a : args)
    {
        argv.push_back(a.data());
    }
    return ScenarioConfig::FromCommandLine(static_cast<int>(argv.size()), argv.data());
}

} // namespace

/// Every knob's default survives Set(Get()); the defaults are doc/scenario-runner.md's.
class KnobDefaultsTestCase : public TestCase
{
  public:
    KnobDefaultsTestCase()
        : TestCase("defaults match the design and round-trip through Set(Get())")
    {
    }

  private:
    void DoRun() override
    {
        const ScenarioConfig defaults;
        NS_TEST_ASSERT_MSG_EQ(ScenarioConfig::Knobs().size(), 102, "knob count (102 flags)");
        ScenarioConfig c;
        for (const auto& knob : ScenarioConfig::Knobs())
        {
            const std::string text = c.Get(knob.name);
            NS_TEST_ASSERT_MSG_EQ(text, knob.defaultValue, "default text of " << knob.name);
            c.Set(knob.name, text);
            NS_TEST_ASSERT_MSG_EQ(c.Get(knob.name), text, "Set(Get()) changed " << knob.name);
            NS_TEST_ASSERT_MSG_EQ(knob.help.empty(), false, "help of " << knob.name);
            NS_TEST_ASSERT_MSG_EQ(knob.allowed.empty(), false, "allowed of " << knob.name);
        }
        NS_TEST_ASSERT_MSG_EQ((c == defaults), true, "config changed by Set(Get())");
        NS_TEST_ASSERT_MSG_EQ(c.fabric, "rocev2", "fabric");
        NS_TEST_ASSERT_MSG_EQ(c.topology, "leafspine", "topology");
        NS_TEST_ASSERT_MSG_EQ(c.hostRate.GetBitRate(), 100000000000ULL, "host rate");
        NS_TEST_ASSERT_MSG_EQ(c.linkDelay, MicroSeconds(1), "link delay");
        NS_TEST_ASSERT_MSG_EQ(c.bytes, 1000000, "bytes = 1MB (powers of 1000)");
        NS_TEST_ASSERT_MSG_EQ(c.buffer, 32000000, "buffer = 32MB");
        NS_TEST_ASSERT_MSG_EQ(c.dims.size(), 2, "dims 4x4");
        NS_TEST_ASSERT_MSG_EQ(c.dims[1], 4, "dims 4x4");
        NS_TEST_ASSERT_MSG_EQ(c.load, 0.3, "load");
        NS_TEST_ASSERT_MSG_EQ(c.stopTime, Seconds(1), "stop time");
        NS_TEST_ASSERT_MSG_EQ(c.qlenInterval, MicroSeconds(10), "qlen interval");
        NS_TEST_ASSERT_MSG_EQ(c.kmin.has_value(), false, "kmin unset");
        NS_TEST_ASSERT_MSG_EQ(c.Get("host_rate"), "100Gbps", "'_' names accepted");
    }
};

/// Byte sizes: powers of 1000 and 1024, exact fractions, clear errors.
class SizeParserTestCase : public TestCase
{
  public:
    SizeParserTestCase()
        : TestCase("byte sizes, rates and times parse exactly or fail with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("1MB"), 1000000, "MB = 10^6");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("1MiB"), 1048576, "MiB = 2^20");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("4096"), 4096, "plain count");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("4096B"), 4096, "B suffix");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("1.5KB"), 1500, "exact fraction accepted");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("0.5KiB"), 512, "exact binary fraction");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("2GiB"), 2147483648ULL, "GiB");
        NS_TEST_ASSERT_MSG_EQ(ParseByteSize("1024TiB"), 1ULL << 50, "1 PiB, the largest");
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([] { ParseByteSize("18446744073709551615"); }),
                                       "at most 1125899906842624 bytes"),
                              true,
                              "2^64-1 would wrap in the packet count");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(ErrorOf([] { ParseByteSize("1125899906842625"); }), "too large"),
            true,
            "one byte beyond 1 PiB");
        NS_TEST_ASSERT_MSG_EQ(ParseTime("4611686s").GetSeconds(), 4611686.0, "the largest time");
        for (const char* t : {"4611687s", "76862min", "1282h", "4611686000001us", "1e400s"})
        {
            const std::string e = ErrorOf([t] { ParseTime(t); });
            NS_TEST_ASSERT_MSG_EQ(Contains(e, "too large for a time") || Contains(e, "not a time"),
                                  true,
                                  t << ": " << e);
        }
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([] { ParseTime("4611687s"); }), "at most 4611686s"),
                              true,
                              "names the limit");
        const std::string bad = ErrorOf([] { ParseByteSize("1XB"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(bad, "'1XB'"), true, bad);
        NS_TEST_ASSERT_MSG_EQ(Contains(bad, "KB, MB, GB"), true, bad);
        NS_TEST_ASSERT_MSG_EQ(Contains(bad, "KiB, MiB, GiB"), true, bad);
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([] { ParseByteSize("1.5B"); }), "whole number"),
                              true,
                              "fraction of a byte rejected");
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([] { ParseByteSize("0.0001KB"); }), "whole"),
                              true,
                              "fraction of a byte rejected");
        for (const char* s : {"", "-1", "1e6", "KB", "1.KB", " 1KB", "1 KB"})
        {
            NS_TEST_ASSERT_MSG_EQ(ErrorOf([s] { ParseByteSize(s); }).empty(), false, s);
        }
        NS_TEST_ASSERT_MSG_EQ(
            Contains(ErrorOf([] { ParseByteSize("18446744073709551616"); }), "too large"),
            true,
            "overflow");
        for (uint64_t x : {0ULL, 1ULL, 1500ULL, 1000000ULL, 1048576ULL, 1024000ULL, 32000000ULL})
        {
            NS_TEST_ASSERT_MSG_EQ(ParseByteSize(FormatByteSize(x)), x, "format round trip");
        }
        NS_TEST_ASSERT_MSG_EQ(FormatByteSize(1048576), "1MiB", "format");
        NS_TEST_ASSERT_MSG_EQ(FormatByteSize(1500), "1500", "format");

        NS_TEST_ASSERT_MSG_EQ(ParseDataRate("100Gbps").GetBitRate(), 100000000000ULL, "Gbps");
        NS_TEST_ASSERT_MSG_EQ(ParseDataRate("12.5GBps").GetBitRate(), 100000000000ULL, "GBps");
        NS_TEST_ASSERT_MSG_EQ(ParseDataRate("400Gb/s").GetBitRate(), 400000000000ULL, "Gb/s");
        NS_TEST_ASSERT_MSG_EQ(FormatDataRate(DataRate("25Gbps")), "25Gbps", "format");
        NS_TEST_ASSERT_MSG_EQ(FormatDataRate(DataRate(1500)), "1500bps", "format");
        for (const char* s : {"100Gbs", "fast", "100", "Gbps", "1e9bps", "-5Gbps"})
        {
            NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([s] { ParseDataRate(s); }), "not a data rate"),
                                  true,
                                  s);
        }
        NS_TEST_ASSERT_MSG_EQ(ParseTime("1us"), MicroSeconds(1), "us");
        NS_TEST_ASSERT_MSG_EQ(ParseTime("2.5ms"), MicroSeconds(2500), "ms");
        NS_TEST_ASSERT_MSG_EQ(ParseTime("0"), Time(0), "bare zero");
        NS_TEST_ASSERT_MSG_EQ(FormatTime(NanoSeconds(1500)), "1500ns", "format");
        NS_TEST_ASSERT_MSG_EQ(FormatTime(Seconds(2)), "2s", "format");
        for (const char* s : {"1", "1 us", "1sec", "-1us", "us", ""})
        {
            NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([s] { ParseTime(s); }), "not a time"), true, s);
        }
    }
};

/// Set() rejects bad values with one message naming flag, value and what is allowed.
class KnobErrorsTestCase : public TestCase
{
  public:
    KnobErrorsTestCase()
        : TestCase("bad values give one message naming the flag, the value and the allowed set")
    {
    }

  private:
    void DoRun() override
    {
        ScenarioConfig c;
        NS_TEST_ASSERT_MSG_EQ(
            ErrorOf([&] { c.Set("topology", "fatree"); }),
            "--topology: 'fatree' is not one of dragonfly, fattree, file, leafspine, "
            "mesh, rail, torus",
            "exact enum message");
        NS_TEST_ASSERT_MSG_EQ(ErrorOf([&] { c.Set("mtu", "100"); }),
                              "--mtu: '100' is out of range; allowed an integer in 256..9000",
                              "range message");
        NS_TEST_ASSERT_MSG_EQ(ErrorOf([&] { c.Set("k", "4.5"); }),
                              "--k: '4.5' is not an integer; allowed an integer in 2..256",
                              "integer message");
        NS_TEST_ASSERT_MSG_EQ(ErrorOf([&] { c.Set("pfc", "2"); }),
                              "--pfc: '2' is not 0 or 1",
                              "flag message");
        const std::string unknown = ErrorOf([&] { c.Set("fanout", "3"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(unknown, "unknown flag '--fanout'"), true, unknown);
        NS_TEST_ASSERT_MSG_EQ(Contains(unknown, "did you mean '--fanin'"), true, unknown);
        const std::vector<std::pair<const char*, const char*>> bad = {
            {"ranks", "-1"},
            {"load", "0"},
            {"load", "1.5"},
            {"load", "nan"},
            {"nic-entropy", "0"},
            {"priority", "8"},
            {"dims", "4x"},
            {"dims", "1x4"},
            {"dims", ""},
            {"host-rate", "0Gbps"},
            {"stop-time", "0"},
            {"bytes", "0"},
            {"pmax", "1.5"},
            {"kmin", "1XB"},
            {"flows", "/nonexistent/flows.txt"},
            {"background", "/nonexistent/cdf.txt"},
            {"out", ""},
            {"cc", "cubic"},
        };
        for (const auto& flag : bad)
        {
            const std::string& name = flag.first; // (clang 14 cannot capture a binding)
            const std::string& value = flag.second;
            const std::string e = ErrorOf([&] { c.Set(name, value); });
            NS_TEST_ASSERT_MSG_EQ(Contains(e, std::string("--") + name + ": '" + value + "'"),
                                  true,
                                  "message for --" << name << "=" << value << ": " << e);
        }
        NS_TEST_ASSERT_MSG_EQ((c == ScenarioConfig()), true, "failed Set() changed nothing");
        c.Set("dims", "8x8x2");
        NS_TEST_ASSERT_MSG_EQ(c.dims.size(), 3, "3-D dims");
        NS_TEST_ASSERT_MSG_EQ(c.Get("dims"), "8x8x2", "dims text");
        c.Set("load", "1");
        NS_TEST_ASSERT_MSG_EQ(c.load, 1.0, "load 1 allowed");
        c.Set("qlen-interval", "0");
        NS_TEST_ASSERT_MSG_EQ(c.qlenInterval.IsZero(), true, "qlen sampling off");
    }
};

/// Cross-field checks.
class ValidateTestCase : public TestCase
{
  public:
    ValidateTestCase()
        : TestCase("Validate() catches kmin > kmax, odd fat-tree k, g > a*h+1, file without path")
    {
    }

  private:
    void DoRun() override
    {
        ScenarioConfig c;
        NS_TEST_ASSERT_MSG_EQ(ErrorOf([&] { c.Validate(); }), "", "defaults are valid");
        c.Set("kmin", "400KB");
        c.Set("kmax", "100KB");
        NS_TEST_ASSERT_MSG_EQ(ErrorOf([&] { c.Validate(); }),
                              "--kmin (400KB) must not exceed --kmax (100KB)",
                              "kmin > kmax");
        c = ScenarioConfig();
        c.Set("topology", "fattree");
        c.Set("k", "5");
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([&] { c.Validate(); }), "even"), true, "odd k");
        c = ScenarioConfig();
        c.Set("topology", "dragonfly"); // a=4, h=2: at most 9 groups (Kim et al. 2008)
        NS_TEST_ASSERT_MSG_EQ(ErrorOf([&] { c.Validate(); }), "", "g = a*h+1 = 9 allowed");
        c.Set("g", "10");
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([&] { c.Validate(); }), "a*h + 1 = 9"),
                              true,
                              "g = 10 > 9");
        c = ScenarioConfig();
        c.Set("topology", "file");
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([&] { c.Validate(); }), "--topology-file"),
                              true,
                              "file without path");
    }
};

/// The command line: unknown flags, missing values, --config precedence and errors.
class CommandLineTestCase : public TestCase
{
  public:
    CommandLineTestCase()
        : TestCase("FromCommandLine: flag checks, --config file errors, flags override file")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = ScratchDir("config-test");
        const std::string unknown = ErrorOf([] { FromArgs({"--topolgy=torus"}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(unknown, "unknown flag '--topolgy'"), true, unknown);
        NS_TEST_ASSERT_MSG_EQ(Contains(unknown, "--help"), true, unknown);
        NS_TEST_ASSERT_MSG_EQ(Contains(unknown, "did you mean '--topology'"), true, unknown);
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([] { FromArgs({"--bytes"}); }), "needs a value"),
                              true,
                              "value required");
        NS_TEST_ASSERT_MSG_EQ(Contains(ErrorOf([] { FromArgs({"stray"}); }), "'stray'"),
                              true,
                              "non-flag argument");
        NS_TEST_ASSERT_MSG_EQ(
            ErrorOf([] { FromArgs({"--fabric=ib"}); }),
            "--fabric: 'ib' is not one of infiniband, rocev2, test-rocev2-lossy, uet",
            "value checked");

        ScenarioConfig c = FromArgs({"--pfc=0", "--ecn", "--k=8", "--topology=fattree"});
        NS_TEST_ASSERT_MSG_EQ(c.pfc, false, "--pfc=0");
        NS_TEST_ASSERT_MSG_EQ(c.ecn.value_or(false), true, "bare --ecn means 1");
        NS_TEST_ASSERT_MSG_EQ(c.k, 8, "--k=8");

        const std::string file =
            WriteFile(dir + "/c.json",
                      R"({"topology": "torus", "dims": "8x8", "host_rate": "400Gbps",
                "hosts_per_switch": 6, "pfc": false, "load": 0.5, "bytes": "16MiB"})");
        c = FromArgs({"--hosts-per-switch=12", "--config=" + file, "--dims=2x2x2"});
        NS_TEST_ASSERT_MSG_EQ(c.topology, "torus", "from file");
        NS_TEST_ASSERT_MSG_EQ(c.hostRate.GetBitRate(), 400000000000ULL, "'_' key from file");
        NS_TEST_ASSERT_MSG_EQ(c.pfc, false, "boolean from file");
        NS_TEST_ASSERT_MSG_EQ(c.load, 0.5, "number from file");
        NS_TEST_ASSERT_MSG_EQ(c.bytes, 16777216, "size string from file");
        NS_TEST_ASSERT_MSG_EQ(c.hostsPerSwitch,
                              12,
                              "flag before --config still overrides the file");
        // A sizing flag of another topology family would be ignored: refused (unless it
        // keeps its default, as every knob echoed in summary.json does).
        NS_TEST_ASSERT_MSG_EQ(
            ErrorOf([] {
                FromArgs({"--topology=torus", "--dims=4x4", "--k=8"});
            }),
            "--k=8 does not apply to --topology=torus; it sizes --topology=fattree",
            "--k with a torus");
        NS_TEST_ASSERT_MSG_EQ(
            ErrorOf([] {
                FromArgs({"--topology=fattree", "--dims=8x8"});
            }),
            "--dims=8x8 does not apply to --topology=fattree; it sizes --topology=mesh or "
            "--topology=torus",
            "--dims with a fat-tree");
        const std::string topologyFile =
            WriteFile(dir + "/topo.txt", "2 1 1\n0\n0 1 100Gbps 1us 0\n");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(ErrorOf([&] {
                         FromArgs({"--topology=fattree", "--topology-file=" + topologyFile});
                     }),
                     "does not apply to --topology=fattree; it sizes "
                     "--topology=file"),
            true,
            "--topology-file with a fat-tree");
        NS_TEST_ASSERT_MSG_EQ(
            Contains(ErrorOf([] {
                         FromArgs({"--topology=fattree", "--hosts-per-switch=2"});
                     }),
                     "it sizes --topology=leafspine or --topology=mesh or --topology=torus"),
            true,
            "hosts per switch with a fat-tree");
        for (const char* flag : {"--pfc=0", "--ecn=0", "--kmin=100KB", "--buffer=16MB"})
        {
            const std::string e = ErrorOf([flag] { FromArgs({"--fabric=infiniband", flag}); });
            NS_TEST_ASSERT_MSG_EQ(Contains(e,
                                           std::string(flag) + " does not apply to "
                                                               "--fabric=infiniband"),
                                  true,
                                  e);
        }
        ScenarioConfig torus = FromArgs({"--topology=torus", "--dims=8x8", "--k=4"});
        NS_TEST_ASSERT_MSG_EQ(torus.Get("dims"), "8x8", "a default --k (4) passes");
        NS_TEST_ASSERT_MSG_EQ(c.Get("dims"), "2x2x2", "flag overrides the file");

        const std::string unknownKey = WriteFile(dir + "/u.json", R"({"topology": "torus",
  "fan_in": 4})");
        std::string e = ErrorOf([&] { FromArgs({"--config=" + unknownKey}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, unknownKey), true, e);
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "unknown key 'fan_in'"), true, e);
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "did you mean 'fanin'"), true, e);

        const std::string wrongType = WriteFile(dir + "/t.json", R"({"k": [4]})");
        e = ErrorOf([&] { FromArgs({"--config=" + wrongType}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "key 'k' has the wrong type (array)"), true, e);
        const std::string boolTopo = WriteFile(dir + "/b.json", R"({"topology": true})");
        e = ErrorOf([&] { FromArgs({"--config=" + boolTopo}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "'topology' has the wrong type (boolean)"), true, e);
        const std::string badValue = WriteFile(dir + "/v.json", R"({"k": 4.5})");
        e = ErrorOf([&] { FromArgs({"--config=" + badValue}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "key 'k': '4.5' is not an integer"), true, e);
        const std::string twice = WriteFile(dir + "/d.json", R"({"host-rate": "1Gbps",
            "host_rate": "2Gbps"})");
        e = ErrorOf([&] { FromArgs({"--config=" + twice}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "given twice"), true, e);

        const std::string malformed =
            WriteFile(dir + "/m.json", "{\n  \"k\": 4,\n  \"topology\" \"torus\"\n}\n");
        e = ErrorOf([&] { FromArgs({"--config=" + malformed}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, malformed + ": malformed JSON"), true, e);
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "line 3"), true, e);
        e = ErrorOf([&] { FromArgs({"--config=" + dir + "/missing.json"}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "cannot open"), true, e);
        const std::string notObject = WriteFile(dir + "/a.json", "[1, 2]");
        e = ErrorOf([&] { FromArgs({"--config=" + notObject}); });
        NS_TEST_ASSERT_MSG_EQ(Contains(e, "top level must be a JSON object"), true, e);
        std::filesystem::remove_all(dir);
    }
};

/// ToJson / LoadJson round trip for a config far from the defaults.
class JsonRoundTripTestCase : public TestCase
{
  public:
    JsonRoundTripTestCase()
        : TestCase("LoadJson(ToJson()) reproduces a non-default config, also through text")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = ScratchDir("json-test");
        const std::string cdf = WriteFile(dir + "/cdf.txt", "0 0\n1000 100\n");
        ScenarioConfig c;
        const std::vector<std::pair<const char*, std::string>> values = {
            {"fabric", "infiniband"},
            {"topology", "torus"},
            {"dims", "8x8x2"},
            {"host-rate", "400Gbps"},
            {"fabric-rate", "12.5GBps"},
            {"link-delay", "500ns"},
            {"mtu", "4096"},
            {"bytes", "16MiB"},
            {"buffer", "12.5MB"},
            {"pfc", "0"},
            {"pcap", "1"},
            {"cc", "dcqcn"},
            {"cc-preset", "paper"},
            {"routing", "dor"},
            {"lb", "adaptive"},
            {"nic-entropy", "4"},
            {"workload", "allreduce"},
            {"ranks", "64"},
            {"algorithm", "2d"},
            {"iterations", "3"},
            {"background", cdf},
            {"load", "0.75"},
            {"seed", "7"},
            {"run", "18446744073709551615"},
            {"stop-time", "2ms"},
            {"out", dir + "/o"},
            {"qlen-interval", "0"},
            {"ack-interval", "4"},
            {"priority", "5"},
            {"kmin", "100KB"},
            {"kmax", "400KB"},
            {"pmax", "0.2"},
        };
        for (const auto& [name, value] : values)
        {
            c.Set(name, value);
        }
        NS_TEST_ASSERT_MSG_EQ((c != ScenarioConfig()), true, "non-default");
        const nlohmann::json j = c.ToJson();
        NS_TEST_ASSERT_MSG_EQ(j.size(), ScenarioConfig::Knobs().size(), "every knob echoed");
        NS_TEST_ASSERT_MSG_EQ(j["bytes"].get<uint64_t>(), 16777216, "sizes as byte numbers");
        NS_TEST_ASSERT_MSG_EQ(j["buffer"].get<uint64_t>(), 12500000, "12.5MB");
        NS_TEST_ASSERT_MSG_EQ(j["pfc"].get<int>(), 0, "flags as 0/1");
        NS_TEST_ASSERT_MSG_EQ(j["load"].get<double>(), 0.75, "reals as numbers");
        NS_TEST_ASSERT_MSG_EQ(j["host-rate"].get<std::string>(), "400Gbps", "rates as text");
        NS_TEST_ASSERT_MSG_EQ(j["fabric-rate"].get<std::string>(), "100Gbps", "12.5GBps");
        NS_TEST_ASSERT_MSG_EQ(j["kmin"].get<uint64_t>(), 100000, "kmin bytes");
        NS_TEST_ASSERT_MSG_EQ(ScenarioConfig().ToJson()["kmin"].get<std::string>(),
                              "",
                              "unset optional knob is ''");

        ScenarioConfig back;
        back.LoadJson(j);
        NS_TEST_ASSERT_MSG_EQ((back == c), true, "round trip of the object");
        ScenarioConfig text;
        text.LoadJson(nlohmann::json::parse(j.dump()));
        NS_TEST_ASSERT_MSG_EQ((text == c), true, "round trip through JSON text");
        NS_TEST_ASSERT_MSG_EQ(text.run, 18446744073709551615ULL, "64-bit run survives");
        NS_TEST_ASSERT_MSG_EQ(text.ToJson().dump(), j.dump(), "echo is stable");
        ScenarioConfig defaults;
        defaults.LoadJson(ScenarioConfig().ToJson());
        NS_TEST_ASSERT_MSG_EQ((defaults == ScenarioConfig()), true, "defaults round trip");
        std::filesystem::remove_all(dir);
    }
};

/**
 * Every knob that declares ns-3 attributes (KnobInfo::attributes), every attribute: the
 * knob given as its example (or at its default) with an --ns3:: default of the attribute
 * is refused, the message naming both; the attribute alone is accepted unless the knob
 * sets it even at its default (KnobAttribute::when null or true for the defaults).
 */
class KnobAttributesTestCase : public TestCase
{
  public:
    KnobAttributesTestCase()
        : TestCase("every knob's attributes: a conflicting --ns3:: default is refused")
    {
    }

  private:
    /// The command line's config checked as the runner does: "" or the refusal.
    static std::string Refusal(const std::vector<std::string>& args)
    {
        return ErrorOf([&args] { FromArgs(args).CheckAttributeOverrides(); });
    }

    /// The knob's example flags, or the knob at its default.
    static std::vector<std::string> Flags(const ScenarioConfig::KnobInfo& knob)
    {
        if (knob.example.empty())
        {
            return {"--" + knob.name + "=" + knob.defaultValue};
        }
        std::vector<std::string> flags;
        std::istringstream in(knob.example);
        for (std::string flag; in >> flag;)
        {
            flags.push_back(flag);
        }
        return flags;
    }

    void DoRun() override
    {
        uint32_t knobs = 0;
        uint32_t attributes = 0;
        for (const ScenarioConfig::KnobInfo& knob : ScenarioConfig::Knobs())
        {
            knobs += knob.attributes.empty() ? 0 : 1;
            const std::vector<std::string> flags = Flags(knob);
            NS_TEST_ASSERT_MSG_EQ(flags.front().rfind("--" + knob.name + "=", 0),
                                  0,
                                  knob.name << ": the example starts with the knob");
            for (const ScenarioConfig::KnobAttribute& a : knob.attributes)
            {
                ++attributes;
                NS_TEST_ASSERT_MSG_EQ(ScenarioConfig::CanonicalAttribute(a.name).empty(),
                                      false,
                                      knob.name << ": no such attribute " << a.name);
                // a valid value of the attribute: its initial one
                const size_t sep = a.name.rfind("::");
                TypeId::AttributeInformation info;
                TypeId::LookupByName(a.name.substr(0, sep))
                    .LookupAttributeByName(a.name.substr(sep + 2), &info);
                const std::string override =
                    "--" + a.name + "=" + info.initialValue->SerializeToString(info.checker);
                std::vector<std::string> both = flags;
                both.push_back(override);
                const std::string error = Refusal(both);
                NS_TEST_ASSERT_MSG_EQ(Contains(error,
                                               override + ": the runner sets " + a.name +
                                                   " from --" + knob.name + "; set it there"),
                                      true,
                                      knob.name << " with " << override << ": '" << error << "'");
                const bool atDefault = !a.when || a.when(ScenarioConfig());
                const std::string alone = Refusal({override});
                NS_TEST_ASSERT_MSG_EQ(alone.empty(),
                                      !atDefault,
                                      override << " alone (" << knob.name << " at its default "
                                               << (atDefault ? "sets it" : "does not") << "): '"
                                               << alone << "'");
                NS_TEST_ASSERT_MSG_EQ(!atDefault || Contains(alone, "from --" + knob.name),
                                      true,
                                      alone);
            }
        }
        // (38 knobs set 58 attributes when this was written; fewer means one was lost)
        NS_TEST_ASSERT_MSG_GT_OR_EQ(knobs, 38u, "knobs that declare attributes");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(attributes, 58u, "attributes declared");
    }
};

/**
 * \brief The typed choices (GetTransport, GetVerb, GetCollectiveVerb, GetQpSharing)
 * read the knob's allowed values by position: each text gives its enum value, so a
 * reordered or renamed value in the knob table fails here; ChoiceIndex refuses a flag
 * that is no choice.
 */
class TypedChoicesTestCase : public TestCase
{
  public:
    TypedChoicesTestCase()
        : TestCase("typed choices follow their knobs' allowed values")
    {
    }

  private:
    void DoRun() override
    {
        using C = ScenarioConfig;
        const std::pair<const char*, C::Transport> transports[] = {{"rdma", C::Transport::RDMA},
                                                                   {"tcp", C::Transport::TCP}};
        for (const auto& [text, value] : transports)
        {
            C c;
            c.Set("transport", text);
            NS_TEST_EXPECT_MSG_EQ((c.GetTransport() == value), true, "--transport=" << text);
        }
        const std::pair<const char*, C::Verb> verbs[] = {{"write", C::Verb::WRITE},
                                                         {"read", C::Verb::READ},
                                                         {"send", C::Verb::SEND}};
        for (const auto& [text, value] : verbs)
        {
            C c;
            c.Set("verb", text);
            NS_TEST_EXPECT_MSG_EQ((c.GetVerb() == value), true, "--verb=" << text);
        }
        const std::pair<const char*, C::CollectiveVerb> collectiveVerbs[] = {
            {"write", C::CollectiveVerb::WRITE},
            {"send", C::CollectiveVerb::SEND}};
        for (const auto& [text, value] : collectiveVerbs)
        {
            C c;
            c.Set("collective-verb", text);
            NS_TEST_EXPECT_MSG_EQ((c.GetCollectiveVerb() == value),
                                  true,
                                  "--collective-verb=" << text);
        }
        const std::pair<const char*, C::QpSharing> sharing[] = {{"flow", C::QpSharing::FLOW},
                                                                {"pair", C::QpSharing::PAIR}};
        for (const auto& [text, value] : sharing)
        {
            C c;
            c.Set("qp-sharing", text);
            NS_TEST_EXPECT_MSG_EQ((c.GetQpSharing() == value), true, "--qp-sharing=" << text);
        }
        C c;
        NS_TEST_EXPECT_MSG_EQ(c.ChoiceIndex("verb"), 0, "the default verb is the first");
        bool refused = false;
        try
        {
            c.ChoiceIndex("bytes");
        }
        catch (const ConfigError&)
        {
            refused = true;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "--bytes is no choice");
    }
};

/// The suite.
class ScenarioConfigTestSuite : public TestSuite
{
  public:
    ScenarioConfigTestSuite()
        : TestSuite("ai-fabric-scenario-config", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new KnobDefaultsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new SizeParserTestCase, AI_FABRIC_QUICK);
        AddTestCase(new KnobErrorsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new ValidateTestCase, AI_FABRIC_QUICK);
        AddTestCase(new CommandLineTestCase, AI_FABRIC_QUICK);
        AddTestCase(new JsonRoundTripTestCase, AI_FABRIC_QUICK);
        AddTestCase(new KnobAttributesTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TypedChoicesTestCase, AI_FABRIC_QUICK);
    }
};

/// Static instance registering the suite.
static ScenarioConfigTestSuite g_scenarioConfigTestSuite;
