/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * --fabric=uet through the scenario runner: per-packet spraying on a k=8 fat-tree
 * permutation against RoCEv2's ECMP, a 64-to-1 incast with trimming and no PFC, and the
 * fabric's refusals; the UET frames' bytes.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/lambda-callback.h"
#include "ns3/nscc-congestion-control.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/uet-frame.h"
#include "ns3/uet-nic.h"
#include "ns3/uet-pds-header.h"
#include "ns3/uet-ses-header.h"
#include "ns3/uet-trimmer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

/// \return the big-endian 16-bit value at \p b + \p i
uint32_t
Be16(const uint8_t* b, uint32_t i)
{
    return (static_cast<uint32_t>(b[i]) << 8) | b[i + 1];
}

/// \return the big-endian 32-bit value at \p b + \p i
uint32_t
Be32(const uint8_t* b, uint32_t i)
{
    return (Be16(b, i) << 16) | Be16(b, i + 2);
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
        ReportValidation("permutation-k8-uet-share", uet);
        ReportValidation("permutation-k8-uet-rocev2-ecmp-share", roce);
        // Measured 0.931 and 0.546 (doc/uet.md).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(uet, 0.9, "UET: >= 0.9 of line rate per flow");
        NS_TEST_EXPECT_MSG_LT(roce, 0.7, "RoCEv2 ECMP: hash collisions");
    }
};

/// \return the deepest queue \p queue of a switch (node >= \p firstSwitch) in \p out's qlen.csv
uint64_t
MaxQueue(const std::string& out, uint32_t firstSwitch, const std::string& queue)
{
    uint64_t deepest = 0;
    std::ifstream q(out + "/qlen.csv");
    std::string line;
    std::getline(q, line); // time_ns,node,port,queue,bytes
    while (std::getline(q, line))
    {
        std::stringstream ss(line);
        std::string f[5];
        for (auto& x : f)
        {
            std::getline(ss, x, ',');
        }
        if (std::stoul(f[1]) >= firstSwitch && f[3] == queue)
        {
            deepest = std::max<uint64_t>(deepest, std::stoull(f[4]));
        }
    }
    return deepest;
}

/// A 64-to-1 incast of \p bytes each on a k=8 fat tree of UET under NSCC.
ScenarioConfig
Incast64(const std::string& bytes)
{
    ScenarioConfig c;
    c.Set("fabric", "uet");
    c.Set("topology", "fattree");
    c.Set("k", "8");
    c.Set("workload", "incast");
    c.Set("fanin", "64");
    c.Set("bytes", bytes);
    c.Set("cc", "nscc");
    return c;
}

/// Incast64 of 100 KB as both trim tests run it: queue lengths every microsecond,
/// written into \p out (emptied first).
ScenarioConfig
TrimIncast(const std::string& out)
{
    ScenarioConfig c = Incast64("100KB");
    c.Set("qlen-interval", "1us");
    std::filesystem::remove_all(out);
    std::filesystem::create_directories(out);
    c.Set("out", out);
    return c;
}

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
        const std::string out = "out/test-uet-incast";
        ScenarioConfig c = TrimIncast(out);
        // Headers unbounded here (the bound has its own test): every trimmed header
        // arrives, so nothing is left to a timeout.
        c.Set("ns3::UetTrimmer::TrimQueueLimit", "4000000000");
        const nlohmann::json s = ScenarioRunner(c).Run();
        Config::SetDefault("ns3::UetTrimmer::TrimQueueLimit", UintegerValue(0));
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "every message completes");
        NS_TEST_EXPECT_MSG_EQ(s["messages"]["finished"].get<uint64_t>(), 64, "all 64");
        NS_TEST_EXPECT_MSG_EQ(s["pfc_pauses"].get<uint64_t>(), 0, "no PFC");
        NS_TEST_EXPECT_MSG_EQ(s["drops"]["lossy"].get<uint64_t>(), 0, "trimmed, not dropped");
        NS_TEST_EXPECT_MSG_EQ(s["timeouts"].get<uint64_t>(), 0, "no loss left to a timeout");
        NS_TEST_EXPECT_MSG_EQ(s["spurious_retransmissions"].get<uint64_t>(),
                              0,
                              "no resend arrives twice");
        const nlohmann::json& t = s["congestion_control"]["trimmer"];
        const uint64_t trimmed = t["trimmed"].get<uint64_t>();
        NS_TEST_EXPECT_MSG_GT(trimmed, 0, "the switches trim");
        NS_TEST_EXPECT_MSG_EQ(t["trimmed_received"].get<uint64_t>(), trimmed, "each one arrives");
        NS_TEST_EXPECT_MSG_EQ(t["trim_nacks_received"].get<uint64_t>(), trimmed, "is NACKed");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(s["retransmissions"].get<uint64_t>(), trimmed, "and resent");
        uint64_t sum = 0;
        for (const auto& port : t["trimmed_ports"])
        {
            sum += port["trimmed"].get<uint64_t>();
        }
        NS_TEST_EXPECT_MSG_EQ(sum, trimmed, "counted per port");
        // Every switch queue of the data class (3) stays at or below the threshold: a
        // frame that would pass it is trimmed instead (its header goes on class 7).
        const uint64_t threshold = std::stoull(t["attributes"]["TrimThreshold"].get<std::string>());
        const uint64_t maxData = MaxQueue(out, 128, "3");
        std::filesystem::remove_all(out);
        ReportValidation("incast64-uet-max-data-queue-bytes", static_cast<double>(maxData));
        ReportValidation("incast64-uet-trimmed", static_cast<double>(trimmed));
        NS_TEST_EXPECT_MSG_GT(maxData, threshold / 2, "the bottleneck queue fills");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(maxData, threshold, "and stays at the trim threshold");
    }
};

/// \brief The trimmed headers' queue is bounded (TrimQueueLimit: twice TrimThreshold).
class UetTrimQueueBoundTest : public TestCase
{
  public:
    UetTrimQueueBoundTest()
        : TestCase("64-to-1 incast: trimmed headers beyond their bound are dropped, counted, "
                   "recovered by timeouts")
    {
    }

  private:
    void DoRun() override
    {
        const std::string out = "out/test-uet-trim-bound";
        const ScenarioConfig c = TrimIncast(out);
        const nlohmann::json s = ScenarioRunner(c).Run();
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "every message completes");
        NS_TEST_EXPECT_MSG_EQ(s["messages"]["finished"].get<uint64_t>(), 64, "all 64");
        const nlohmann::json& t = s["congestion_control"]["trimmer"];
        const uint64_t dropped = t["headers_dropped"].get<uint64_t>();
        const uint64_t trimmed = t["trimmed"].get<uint64_t>();
        NS_TEST_EXPECT_MSG_GT(dropped, 0, "the first windows' headers overflow their bound");
        NS_TEST_EXPECT_MSG_EQ(s["drops"]["lossy"].get<uint64_t>(), dropped, "only headers drop");
        NS_TEST_EXPECT_MSG_EQ(t["trimmed_received"].get<uint64_t>() + dropped,
                              trimmed,
                              "every other trimmed header arrives");
        NS_TEST_EXPECT_MSG_GT(s["timeouts"].get<uint64_t>(), 0, "a dropped header times out");
        const uint64_t threshold = std::stoull(t["attributes"]["TrimThreshold"].get<std::string>());
        const uint64_t headers = MaxQueue(out, 128, "7");
        std::filesystem::remove_all(out);
        ReportValidation("incast64-uet-max-trimmed-queue-bytes", static_cast<double>(headers));
        // (Class 7 also holds ACKs and CREDITs, which the bound does not refuse.)
        NS_TEST_EXPECT_MSG_LT_OR_EQ(headers, 2 * threshold + 2000, "headers within 2 x threshold");
        NS_TEST_EXPECT_MSG_GT(headers, threshold, "and the bound is reached");
    }
};

/// \brief RCCC: receiver credits cut an incast's trims; every message completes.
class UetRcccIncastTest : public TestCase
{
  public:
    UetRcccIncastTest()
        : TestCase("64-to-1 incast of 500 KB: fewer trims with receiver credits (RCCC) than "
                   "with NSCC alone")
    {
    }

  private:
    nlohmann::json Run(bool rccc)
    {
        ScenarioConfig c = Incast64("500KB");
        c.Set("ns3::UetNic::Rccc", rccc ? "true" : "false");
        const nlohmann::json s = RunInto(c, "out/test-uet-rccc");
        Config::SetDefault("ns3::UetNic::Rccc", BooleanValue(false));
        std::filesystem::remove_all("out/test-uet-rccc");
        return s;
    }

    void DoRun() override
    {
        const nlohmann::json nscc = Run(false);
        const nlohmann::json rccc = Run(true);
        for (const nlohmann::json* s : {&nscc, &rccc})
        {
            NS_TEST_ASSERT_MSG_EQ((*s)["complete"].get<bool>(), true, "every message completes");
            NS_TEST_EXPECT_MSG_EQ((*s)["messages"]["finished"].get<uint64_t>(), 64, "all 64");
        }
        const uint64_t without = nscc["congestion_control"]["trimmer"]["trimmed"].get<uint64_t>();
        const uint64_t with = rccc["congestion_control"]["trimmer"]["trimmed"].get<uint64_t>();
        ReportValidation("incast64-500KB-uet-nscc-trimmed", static_cast<double>(without));
        ReportValidation("incast64-500KB-uet-rccc-trimmed", static_cast<double>(with));
        ReportValidation("incast64-500KB-uet-rccc-trim-ratio",
                         static_cast<double>(with) / static_cast<double>(without));
        NS_TEST_EXPECT_MSG_EQ(nscc["congestion_control"]["rccc"]["credits_sent"].get<uint64_t>(),
                              0,
                              "no credits without RCCC");
        NS_TEST_EXPECT_MSG_GT(rccc["congestion_control"]["rccc"]["credits_sent"].get<uint64_t>(),
                              0,
                              "the receiver grants credit");
        NS_TEST_EXPECT_MSG_LT(with, without * 3 / 4, "RCCC trims at least a quarter fewer");
    }
};

/// \brief SACK: ACK_CC bytes where Wireshark's uet dissector reads them, and a cable failing
/// mid-allreduce recovered without a timeout per lost packet.
class UetSackTest : public TestCase
{
  public:
    UetSackTest()
        : TestCase("SACK: ACK_CC's bitmap on the wire; k=4 ring allreduce with link 16 failing "
                   "at 100 us ends within 2 ms (13.4 ms without SACK)")
    {
    }

  private:
    static nlohmann::json Run(bool sack)
    {
        ScenarioConfig c;
        c.Set("fabric", "uet");
        c.Set("cc", "nscc");
        c.Set("topology", "fattree");
        c.Set("k", "4");
        c.Set("workload", "allreduce");
        c.Set("algorithm", "ring");
        c.Set("bytes", "4MB");
        c.Set("link-failure", "16@100us");
        c.Set("ns3::UetNic::Sack", sack ? "true" : "false");
        const nlohmann::json s = RunInto(c, "out/test-uet-sack");
        Config::SetDefault("ns3::UetNic::Sack", BooleanValue(false));
        std::filesystem::remove_all("out/test-uet-sack");
        return s;
    }

    void DoRun() override
    {
        // ACK_CC: type 8, the ACK's 12 bytes, CC type (4 bits) | flags, MPR, SACK PSN
        // offset (16), SACK bitmap (64), CC state (64): 32 bytes, big-endian.
        UetPdsHeader h;
        h.type = UetPdsHeader::ACK_CC;
        h.psn = 0x00010203;
        h.spdcid = 7;
        h.dpdcid = 9;
        h.ccType = UetPdsHeader::CC_TYPE_NSCC;
        h.sackOffset = 2;
        h.sackBitmap = 0x8000000000000005ULL;
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 32, "ACK_CC is 32 bytes");
        Buffer b;
        b.AddAtStart(32);
        h.Serialize(b.Begin());
        std::vector<uint8_t> bytes(32);
        b.CopyData(bytes.data(), 32);
        NS_TEST_EXPECT_MSG_EQ((bytes[0] >> 3), 8, "type 8 in the prologue's first 5 bits");
        NS_TEST_EXPECT_MSG_EQ(+bytes[7], 0x03, "cumulative ACK PSN at bytes 4..7");
        NS_TEST_EXPECT_MSG_EQ((bytes[12] >> 4), 0, "CC type NSCC");
        NS_TEST_EXPECT_MSG_EQ(((bytes[14] << 8) | bytes[15]), 2, "SACK PSN offset at 14..15");
        NS_TEST_EXPECT_MSG_EQ(+bytes[16], 0x80, "bitmap at 16..23, big-endian");
        NS_TEST_EXPECT_MSG_EQ(+bytes[23], 0x05, "its low byte last");
        UetPdsHeader d;
        d.Deserialize(b.Begin());
        NS_TEST_EXPECT_MSG_EQ(d.sackBitmap, h.sackBitmap, "bitmap round trip");
        NS_TEST_EXPECT_MSG_EQ(d.sackOffset, 2, "offset round trip");

        const nlohmann::json off = Run(false);
        const nlohmann::json on = Run(true);
        for (const nlohmann::json* s : {&off, &on})
        {
            NS_TEST_ASSERT_MSG_EQ((*s)["complete"].get<bool>(), true, "the allreduce completes");
        }
        const double tOff = off["collectives"][0]["durations_ns"][0].get<double>();
        const double tOn = on["collectives"][0]["durations_ns"][0].get<double>();
        ReportValidation("link-failure-k4-allreduce-uet-sack-us", tOn / 1000);
        ReportValidation("link-failure-k4-allreduce-uet-sack-timeouts",
                         on["timeouts"].get<double>());
        const nlohmann::json& sack = on["congestion_control"]["sack"];
        NS_TEST_EXPECT_MSG_GT(sack["sacks_sent"].get<uint64_t>(), 0, "ACK_CCs were sent");
        NS_TEST_EXPECT_MSG_GT(sack["losses_resent"].get<uint64_t>(), 0, "holes were resent");
        NS_TEST_EXPECT_MSG_EQ(off["congestion_control"]["sack"]["sacks_sent"].get<uint64_t>(),
                              0,
                              "none without SACK");
        NS_TEST_EXPECT_MSG_LT(tOn, 2e6, "SACK: within 2 ms (0.81 ms without the failure)");
        NS_TEST_EXPECT_MSG_LT(tOn, tOff / 5, "at least five times faster than without");
        NS_TEST_EXPECT_MSG_LT(on["timeouts"].get<uint64_t>(),
                              off["timeouts"].get<uint64_t>() / 10,
                              "a tenth of the timeouts at most");
    }
};

/// \brief RCCC against uet-htsim: its 64 x 2 MB incast (connection_matrices/gen_incast.py, 128
/// nodes, 64 senders, seed 1) with its settings (MTU 4,096, queues of 1 BDP = 178,450 bytes that
/// trim when full, ECN 37,350..145,250 bytes): trims with receiver credits over trims without.
class UetRcccHtsimIncastTest : public TestCase
{
  public:
    UetRcccHtsimIncastTest()
        : TestCase("uet-htsim's 64 x 2 MB incast: RCCC removes the share of trims uet-htsim's "
                   "does (0.568 of NSCC's, within 0.05)")
    {
    }

  private:
    static nlohmann::json Run(bool rccc, const std::string& flows)
    {
        ScenarioConfig c;
        c.Set("fabric", "uet");
        c.Set("cc", "nscc");
        c.Set("topology", "fattree");
        c.Set("k", "8");
        c.Set("workload", "none");
        c.Set("flows", flows);
        c.Set("mtu", "4096");
        c.Set("switch-latency", "0");
        c.Set("cut-through", "0");
        c.Set("kmin", "37350");
        c.Set("kmax", "145250");
        c.Set("ns3::UetTrimmer::TrimThreshold", "178450");
        c.Set("ns3::UetNic::Rccc", rccc ? "true" : "false");
        const nlohmann::json s = RunInto(c, "out/test-uet-rccc-htsim");
        Config::SetDefault("ns3::UetNic::Rccc", BooleanValue(false));
        Config::SetDefault("ns3::UetTrimmer::TrimThreshold", UintegerValue(100000));
        std::filesystem::remove_all("out/test-uet-rccc-htsim");
        return s;
    }

    void DoRun() override
    {
        // The senders of uet-htsim's incast64.cm, each writing 2,000,000 bytes to host 0.
        const uint32_t senders[] = {127, 39,  86, 42,  51, 5,  46,  124, 44,  37,  95,  15,  122,
                                    113, 22,  96, 8,   17, 25, 40,  21,  116, 108, 81,  100, 23,
                                    10,  88,  87, 102, 52, 80, 94,  47,  34,  11,  7,   62,  75,
                                    6,   77,  36, 69,  12, 60, 112, 53,  48,  67,  31,  72,  106,
                                    26,  110, 32, 83,  19, 20, 89,  66,  74,  79,  121, 85};
        const std::string flows = "out/test-uet-rccc-htsim-flows.txt";
        std::filesystem::create_directories("out");
        {
            std::ofstream f(flows);
            f << std::size(senders) << "\n";
            for (const uint32_t s : senders)
            {
                f << s << " 0 3 100 2000000 0\n";
            }
        }
        const nlohmann::json nscc = Run(false, flows);
        const nlohmann::json rccc = Run(true, flows);
        std::filesystem::remove(flows);
        for (const nlohmann::json* s : {&nscc, &rccc})
        {
            NS_TEST_ASSERT_MSG_EQ((*s)["complete"].get<bool>(), true, "every flow completes");
        }
        const auto without = nscc["congestion_control"]["trimmer"]["trimmed"].get<double>();
        const auto with = rccc["congestion_control"]["trimmer"]["trimmed"].get<double>();
        ReportValidation("incast64-2MB-htsim-uet-rccc-trim-ratio", with / without);
        ReportValidation("incast64-2MB-htsim-uet-rccc-trimmed", with);
        // uet-htsim 40ccb05 on the same flows: 5,563 NACKs with NSCC, 3,161 with
        // -receiver_cc (doc/validation.md).
        NS_TEST_EXPECT_MSG_EQ_TOL(with / without, 3161.0 / 5563.0, 0.05, "htsim's trim ratio");
        NS_TEST_EXPECT_MSG_EQ_TOL(with, 3161.0, 3161.0 * 0.1, "htsim's trims with RCCC, 10%");
        // A resend waits for credit as new data does: no timeouts pile up meanwhile.
        NS_TEST_EXPECT_MSG_LT(rccc["timeouts"].get<uint64_t>(), 16, "a few timeouts at most");
    }
};

/// \brief A cable fails mid-allreduce: UET's senders move off the dead paths before the
/// switches notice (BFD) or the routes converge; RoCEv2 waits for both.
class UetLinkFailureTest : public TestCase
{
  public:
    UetLinkFailureTest()
        : TestCase("k=4 ring allreduce of 4 MB, link 16 failing at 100 us: UET ends before "
                   "BFD detection, RoCEv2 after route convergence")
    {
    }

  private:
    static nlohmann::json Run(const std::string& fabric)
    {
        ScenarioConfig c;
        c.Set("fabric", fabric);
        if (fabric == "uet")
        {
            c.Set("cc", "nscc");
        }
        c.Set("topology", "fattree");
        c.Set("k", "4");
        c.Set("workload", "allreduce");
        c.Set("algorithm", "ring");
        c.Set("bytes", "4MB");
        c.Set("link-failure", "16@100us");
        const nlohmann::json s = RunInto(c, "out/test-uet-link-failure");
        std::filesystem::remove_all("out/test-uet-link-failure");
        return s;
    }

    void DoRun() override
    {
        const nlohmann::json uet = Run("uet");
        const nlohmann::json roce = Run("rocev2");
        for (const nlohmann::json* s : {&uet, &roce})
        {
            NS_TEST_ASSERT_MSG_EQ((*s)["complete"].get<bool>(), true, "the allreduce completes");
            NS_TEST_EXPECT_MSG_GT((*s)["drops"]["link_down"].get<uint64_t>(), 0, "loses frames");
        }
        const double u = uet["collectives"][0]["durations_ns"][0].get<double>();
        const double r = roce["collectives"][0]["durations_ns"][0].get<double>();
        ReportValidation("link-failure-k4-allreduce-uet-us", u / 1000);
        ReportValidation("link-failure-k4-allreduce-rocev2-us", r / 1000);
        const nlohmann::json& sp = uet["congestion_control"]["spraying"];
        NS_TEST_EXPECT_MSG_GT(sp["path_penalties"].get<uint64_t>(), 0, "lost paths penalized");
        NS_TEST_EXPECT_MSG_GT(sp["packets_off_penalized_paths"].get<uint64_t>(), 0, "and avoided");
        const double detected = roce["failures"][0]["detected_ns"].get<double>();
        NS_TEST_EXPECT_MSG_GT(r, detected, "RoCEv2 waits for detection (and convergence)");
        NS_TEST_EXPECT_MSG_LT(u, detected - 100000, "UET ends before the switches notice");
        NS_TEST_EXPECT_MSG_LT(u, r / 2, "at least twice as fast");
    }
};

/// \brief UET frames byte by byte: a WRITE's first packet, its trimmed header, an ACK.
class UetWireTest : public TestCase
{
  public:
    UetWireTest()
        : TestCase("UET framing: UDP 4793, PDS and SES fields where the specification puts them")
    {
    }

  private:
    void DoRun() override
    {
        RoceFrameFields f;
        f.srcMac = Mac48Address("02:00:00:00:00:01");
        f.dstMac = Mac48Address("02:00:00:00:00:02");
        f.srcIp = Ipv4Address("10.0.0.1");
        f.dstIp = Ipv4Address("10.0.0.2");
        f.dscp = 24;
        f.udpSrcPort = 0xC123;
        f.opcode = RdmaOpcode::WRITE_FIRST;
        f.SetExtHeadersForOpcode();
        f.destQp = 17;
        f.psn = 5;
        f.ackReq = true;
        f.rethRKey = 0x1234;
        f.payloadBytes = 1000;
        RoceParsedFrame frame = RoceFrame::BuildParsed(f);
        UetFrame::SesInfo info;
        info.spdcid = 16;
        info.messageId = 5;
        info.offset = 0;
        info.messageBytes = 4000;
        info.initiator = 7;
        UetFrame::EncodeData(frame, info);
        NS_TEST_ASSERT_MSG_EQ(UetFrame::IsUet(frame.view), true, "a UET frame");
        NS_TEST_EXPECT_MSG_EQ(frame.view.frameBytes, 14 + 20 + 8 + 12 + 44 + 1000, "its size");
        uint8_t b[98];
        frame.GetPacket()->CopyData(b, sizeof(b));
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 36), 4793, "UDP destination port 4793");
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 34), 0xC123, "UDP source port: the entropy");
        const uint16_t prologue = Be16(b, 42);
        NS_TEST_EXPECT_MSG_EQ((prologue >> 11), UetPdsHeader::RUD_REQ, "PDS type RUD request");
        NS_TEST_EXPECT_MSG_EQ(((prologue >> 7) & 0xF), UetPdsHeader::NH_REQ_STD, "SES std next");
        NS_TEST_EXPECT_MSG_EQ((prologue & 0x7F), UetPdsHeader::FLAG_AR, "AR, no SYN, no RETX");
        NS_TEST_EXPECT_MSG_EQ(Be32(b, 46), 5, "PSN");
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 50), 16, "SPDCID");
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 52), 17, "DPDCID");
        NS_TEST_EXPECT_MSG_EQ((b[54] & 0x3F), UetSesHeader::OP_WRITE, "SES UET_WRITE");
        NS_TEST_EXPECT_MSG_EQ(+b[55], UetSesHeader::FLAG_SOM, "start of message");
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 56), 5, "message id");
        NS_TEST_EXPECT_MSG_EQ(Be32(b, 94), 4000, "request length");
        // Back to the transport's fields.
        RoceFrameFields back;
        UetPdsHeader pds;
        NS_TEST_ASSERT_MSG_EQ(UetFrame::Decode(frame, back, pds), true, "decodes");
        NS_TEST_EXPECT_MSG_EQ(+back.opcode, +RdmaOpcode::WRITE_FIRST, "opcode");
        NS_TEST_EXPECT_MSG_EQ(back.psn, 5, "PSN");
        NS_TEST_EXPECT_MSG_EQ(back.destQp, 17, "DestQP");
        NS_TEST_EXPECT_MSG_EQ(back.payloadBytes, 1000, "payload");
        NS_TEST_EXPECT_MSG_EQ(back.rethDmaLen, 4000, "DMA length");
        NS_TEST_EXPECT_MSG_EQ(back.rethRKey, 0x1234, "R_Key");
        NS_TEST_EXPECT_MSG_EQ(back.ackReq, true, "AckReq");
        // Trimmed: the headers only, lengths rewritten, the trimmed class.
        NS_TEST_EXPECT_MSG_EQ(UetFrame::IsRequest(frame), true, "a request");
        UetFrame::Trim(frame, (7 << 3) | UetTrimmer::TRIMMED_DSCP_BITS);
        NS_TEST_EXPECT_MSG_EQ(frame.view.frameBytes, 98, "headers only");
        NS_TEST_EXPECT_MSG_EQ(UetTrimmer::IsTrimmed(frame.view), true, "marked trimmed");
        NS_TEST_EXPECT_MSG_EQ((frame.view.dscp >> 3), 7, "in class 7");
        uint8_t t[98];
        frame.GetPacket()->CopyData(t, sizeof(t));
        NS_TEST_EXPECT_MSG_EQ(Be16(t, 16), 84, "IPv4 total length");
        NS_TEST_EXPECT_MSG_EQ(Be16(t, 38), 64, "UDP length");
        NS_TEST_ASSERT_MSG_EQ(UetFrame::Decode(frame, back, pds), true, "still decodes");
        NS_TEST_EXPECT_MSG_EQ(back.payloadBytes, 0, "no payload");
        // An ACK with the ECN echo.
        RoceFrameFields a = f;
        a.opcode = RdmaOpcode::ACKNOWLEDGE;
        a.SetExtHeadersForOpcode();
        a.payloadBytes = 0;
        a.becn = true;
        a.psn = 9;
        RoceParsedFrame ack = RoceFrame::BuildParsed(a);
        UetFrame::EncodeControl(ack, 3);
        NS_TEST_EXPECT_MSG_EQ(ack.view.frameBytes, UetFrame::MIN_FRAME_BYTES, "padded to 60");
        uint8_t k[54];
        ack.GetPacket()->CopyData(k, sizeof(k));
        const uint16_t ap = Be16(k, 42);
        NS_TEST_EXPECT_MSG_EQ((ap >> 11), UetPdsHeader::ACK, "PDS ACK");
        NS_TEST_EXPECT_MSG_EQ((ap & 0x7F), UetPdsHeader::FLAG_M, "M: the ECN echo");
        NS_TEST_EXPECT_MSG_EQ(Be32(k, 46), 9, "CACK PSN");
        // A trim NACK.
        a.aethSyndrome = UetNic::TRIM_NACK_SYNDROME;
        a.becn = false;
        RoceParsedFrame nack = RoceFrame::BuildParsed(a);
        UetFrame::EncodeControl(nack, 3);
        uint8_t n[58];
        nack.GetPacket()->CopyData(n, sizeof(n));
        NS_TEST_EXPECT_MSG_EQ((Be16(n, 42) >> 11), UetPdsHeader::NACK, "PDS NACK");
        NS_TEST_EXPECT_MSG_EQ(+n[44], +UetPdsHeader::NACK_TRIMMED, "code TRIMMED");
        // RCCC: a CREDIT control packet (type 11, control type 7 in the next-header bits,
        // the credit in its payload word).
        a.aethSyndrome = UetFrame::CREDIT_SYNDROME;
        a.aethMsn = 0x12345;
        RoceParsedFrame credit = RoceFrame::BuildParsed(a);
        UetFrame::EncodeControl(credit, 3);
        uint8_t cr[58];
        credit.GetPacket()->CopyData(cr, sizeof(cr));
        NS_TEST_EXPECT_MSG_EQ((Be16(cr, 42) >> 11), UetPdsHeader::CONTROL, "PDS control packet");
        NS_TEST_EXPECT_MSG_EQ(((Be16(cr, 42) >> 7) & 0xF), UetPdsHeader::CTL_CREDIT, "CREDIT");
        NS_TEST_EXPECT_MSG_EQ(Be32(cr, 54), 0x12345, "the credit");
        NS_TEST_ASSERT_MSG_EQ(UetFrame::Decode(credit, back, pds), true, "decodes");
        NS_TEST_EXPECT_MSG_EQ(pds.ctlPayload, 0x12345, "credit back");
        // RCCC: a RUD_CC_REQ, 4 bytes longer, its credit target after the DPDCID.
        RoceParsedFrame cc = RoceFrame::BuildParsed(f);
        info.ccState = true;
        info.creditTarget = 0xABCDEF;
        UetFrame::EncodeData(cc, info);
        NS_TEST_EXPECT_MSG_EQ(cc.view.frameBytes, 102 + 1000, "4 bytes of CC state");
        uint8_t q[102];
        cc.GetPacket()->CopyData(q, sizeof(q));
        NS_TEST_EXPECT_MSG_EQ((Be16(q, 42) >> 11), UetPdsHeader::RUD_CC_REQ, "RUD_CC_REQ");
        NS_TEST_EXPECT_MSG_EQ((Be32(q, 54) & 0xFFFFFF), 0xABCDEF, "credit target (24 bits)");
        NS_TEST_EXPECT_MSG_EQ((q[58] & 0x3F), UetSesHeader::OP_WRITE, "SES after it");
        NS_TEST_ASSERT_MSG_EQ(UetFrame::Decode(cc, back, pds), true, "decodes");
        NS_TEST_EXPECT_MSG_EQ(back.payloadBytes, 1000, "payload");
        NS_TEST_EXPECT_MSG_EQ(pds.creditTarget, 0xABCDEF, "target back");
        NS_TEST_EXPECT_MSG_EQ(UetFrame::IsRequest(cc), true, "a request the switches trim");
        UetFrame::Trim(cc, (7 << 3) | UetTrimmer::TRIMMED_DSCP_BITS);
        NS_TEST_EXPECT_MSG_EQ(cc.view.frameBytes, 102, "trimmed to its 102 header bytes");
    }
};

/// \brief NSCC's quadrants, once-per-RTT decrease, NACK and quick adapt, fast increase.
class NsccQuadrantTest : public TestCase
{
  public:
    NsccQuadrantTest()
        : TestCase("NSCC: multiplicative decrease once per base RTT, NACK, quick adapt, increase")
    {
    }

  private:
    Ptr<NsccCongestionControl> m_cc;

    void Ack(bool ecn, Time rtt, uint64_t bytes)
    {
        RdmaAckSample s;
        s.ackedBytes = bytes;
        s.ackedPackets = static_cast<uint32_t>(bytes / 1000);
        s.rtt = rtt;
        s.ecnEcho = ecn;
        m_cc->OnAck(s);
    }

    void DoRun() override
    {
        UsePicoseconds(); // (before any Time: the scenario runs of this suite need it)
        m_cc = CreateObject<NsccCongestionControl>();
        RdmaCcContext ctx;
        ctx.lineRate = DataRate("100Gbps");
        ctx.mtuBytes = 1000;
        ctx.wireBytes = 1122;
        ctx.baseRtt = MicroSeconds(10);
        const Time base = ctx.baseRtt;
        std::vector<uint64_t> w; // the window after each step
        ScheduleLambda(Time(0), [&] {
            m_cc->Start(ctx);
            w.push_back(m_cc->GetWindowBytes());
        });
        // ECN and a delay far above the target (7.5 us): cut once...
        ScheduleLambda(MicroSeconds(20), [&] {
            Ack(true, base + MicroSeconds(1000), 1000);
            w.push_back(m_cc->GetWindowBytes());
        });
        // ...and not again within a base RTT.
        ScheduleLambda(MicroSeconds(25), [&] {
            Ack(true, base + MicroSeconds(1000), 1000);
            w.push_back(m_cc->GetWindowBytes());
        });
        // A NACK before quick adapt's period ends: one packet less.
        ScheduleLambda(MicroSeconds(26), [&] {
            m_cc->OnNack();
            w.push_back(m_cc->GetWindowBytes());
        });
        // A NACK after it (20 + 10 + 7.5 us): the window becomes what the period achieved.
        ScheduleLambda(MicroSeconds(40), [&] {
            m_cc->OnNack();
            w.push_back(m_cc->GetWindowBytes());
        });
        // Unmarked ACKs without queueing: the window grows again.
        ScheduleLambda(MicroSeconds(60), [&] {
            for (int i = 0; i < 20; ++i)
            {
                Ack(false, base, 1000);
            }
            w.push_back(m_cc->GetWindowBytes());
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(w.size(), 6, "every step ran");
        // 1.5 BDP of payload: 100 Gb/s x 10 us x 1000 / 1122.
        const double bdp = 100e9 / 8 * 10e-6 * 1000 / 1122;
        NS_TEST_EXPECT_MSG_EQ(w[0], static_cast<uint64_t>(1.5 * bdp), "starts at 1.5 BDP");
        // avg delay = 0.0125 x 1000 us = 12.5 us; factor 1 - 0.8 (12.5 - 7.5) / 12.5 = 0.68;
        // then Eta (0.15 MTU x a, a = BDP / (100 Gb/s x 12 us) = 10/12) after a network RTT.
        const double cut = 1.5 * bdp * 0.68 + 0.15 * 1000 * 10.0 / 12;
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(w[1]), cut, 1.0, "cut by 0.68");
        NS_TEST_EXPECT_MSG_EQ(w[2], w[1], "no second cut within a base RTT");
        NS_TEST_EXPECT_MSG_EQ(w[3], w[2] - 1000, "a NACK takes one packet off");
        NS_TEST_EXPECT_MSG_EQ(w[4], 1000, "quick adapt: what the period achieved, 1 MTU");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetQuickAdapts(), 1, "one quick adapt");
        NS_TEST_EXPECT_MSG_EQ(m_cc->GetDecreases(), 1, "one multiplicative decrease");
        NS_TEST_EXPECT_MSG_GT(w[5], 3000, "unmarked ACKs without queueing grow the window");
        m_cc = nullptr;
    }
};

/// \brief Bad input: one ConfigError naming the value and what is allowed.
class UetRefusalTest : public TestCase
{
  public:
    UetRefusalTest()
        : TestCase("--fabric=uet refuses go-back-N, --nic-entropy and --pfc=1")
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
        Expect("cc", "dcqcn", "--cc=dcqcn");
        Expect("cc", "hpcc", "--cc=hpcc");
        Expect("verb", "read", "--verb=read");
        Expect("pfc", "1", "--pfc=1");
        // The flags that need PFC: refused, naming the fabric (UET has none).
        ScenarioConfig c;
        c.Set("fabric", "uet");
        c.Set("pfc-watchdog", "10us");
        std::string message;
        try
        {
            c.Validate();
        }
        catch (const ConfigError& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(
            message.find("--pfc-watchdog=10us does not apply: --fabric=uet's links carry no PFC"),
            std::string::npos,
            "refused: " << message);
    }
};

/// \brief The UET test suite.
class UetTestSuite : public TestSuite
{
  public:
    UetTestSuite()
        : TestSuite("ai-fabric-uet", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new UetWireTest, AI_FABRIC_QUICK);
        AddTestCase(new NsccQuadrantTest, AI_FABRIC_QUICK);
        AddTestCase(new UetRefusalTest, AI_FABRIC_QUICK);
        AddTestCase(new UetIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new UetTrimQueueBoundTest, AI_FABRIC_QUICK);
        AddTestCase(new UetRcccIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new UetRcccHtsimIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new UetSackTest, AI_FABRIC_QUICK);
        AddTestCase(new UetLinkFailureTest, AI_FABRIC_QUICK);
        AddTestCase(new UetPermutationTest, AI_FABRIC_QUICK);
    }
};

static UetTestSuite g_uetTestSuite; //!< registers it
