/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * OutputWriter: the output contract's CSV headers byte for byte, its own stale files
 * removed and no other (pcaps opened before it survive),
 * deterministic row formatting, numpy-linear percentiles and the atomic
 * summary.json; and the human-readable summary printer.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config-error.h"
#include "ns3/output-error.h"
#include "ns3/output-writer.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/rank-output-merger.h"
#include "ns3/run-summary-printer.h"
#include "ns3/trace-helper.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace ns3;

namespace
{

std::string
ScratchDir(const std::string& name)
{
    auto dir = std::filesystem::temp_directory_path() /
               ("ai-fabric-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    return dir.string();
}

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

bool
Exists(const std::string& path)
{
    return std::filesystem::exists(path);
}

} // namespace

/// Headers exactly as the output contract (doc/scenario-runner.md); stale files of a previous run
/// removed.
class OutputHeadersTestCase : public TestCase
{
  public:
    OutputHeadersTestCase()
        : TestCase("CSV headers are byte-exact and the writer's own stale files are removed")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = ScratchDir("writer-headers") + "/nested/out";
        std::filesystem::create_directories(dir);
        std::ofstream(dir + "/summary.json") << "{\"complete\": true}";
        std::ofstream(dir + "/summary.json.tmp") << "{";
        std::ofstream(dir + "/fct.csv") << "old,rows\n1,2\n";
        std::ofstream(dir + "/host-0-0.pcap") << "old"; // not the writer's
        std::ofstream(dir + "/notes.txt") << "mine";
        {
            OutputWriter w(dir);
            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/summary.json"), false, "stale summary removed");
            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/summary.json.tmp"), false, "stale tmp removed");
            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/host-0-0.pcap"), true, "a pcap is not its file");
            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/notes.txt"), true, "other files kept");
        }
        NS_TEST_ASSERT_MSG_EQ(
            ReadFile(dir + "/fct.csv"),
            "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,kind\n",
            "fct.csv header");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/collective.csv"),
                              "op_id,algorithm,ranks,bytes,start_ns,end_ns,duration_ns,algbw_gbps,"
                              "busbw_gbps,protocol\n",
                              "collective.csv header");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/pfc.csv"),
                              "time_ns,node,port,priority,event\n",
                              "pfc.csv header");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/qlen.csv"),
                              "time_ns,node,port,queue,bytes\n",
                              "qlen.csv header");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/drops.csv"),
                              "time_ns,node,port,reason\n",
                              "drops.csv header");
        NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/summary.json"),
                              false,
                              "no summary.json without WriteSummary (run not complete)");

        // A path under a regular file cannot become a directory.
        std::string error;
        try
        {
            OutputWriter w(dir + "/notes.txt/out");
        }
        catch (const ConfigError& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(
            (error.find("--out: cannot create directory '" + dir + "/notes.txt/out'") == 0),
            true,
            error);
        std::filesystem::remove_all(ScratchDir("writer-headers"));
    }
};

/// Rows: exact integers, 6 significant digits for reals, same text every run.
class OutputRowsTestCase : public TestCase
{
  public:
    OutputRowsTestCase()
        : TestCase("rows are formatted deterministically and summary.json holds the percentiles")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = ScratchDir("writer-rows");
        nlohmann::json written;
        {
            OutputWriter w(dir);
            // Slowdowns 1..10 (fct = i us, ideal 1 us), then one of 10/3.
            for (uint32_t i = 1; i <= 10; ++i)
            {
                FctRecord r;
                r.flowId = i;
                r.src = i;
                r.dst = 0;
                r.sizeBytes = 1000000;
                r.startNs = 100 * i;
                r.fctNs = 1000 * i;
                r.idealFctNs = 1000;
                r.kind = "incast";
                w.AppendFct(r);
            }
            OutputCollectiveRow c;
            c.opId = 7;
            c.algorithm = "ring";
            c.ranks = 16;
            c.bytes = 1ULL << 34;
            c.startNs = 5;
            c.endNs = 3000000005;
            c.algbwGbps = 100.0 / 3.0;
            c.busbwGbps = 100.0 / 3.0 * 2 * 15 / 16;
            w.AppendCollective(c);
            w.AppendPfc(1234567890123LL, 20, 3, 3, true);
            w.AppendPfc(1234567890999LL, 20, 3, 3, false);
            w.AppendQlen(10000, 20, 3, 3, 18446744073709551615ULL);
            w.AppendDrop(42, 21, 0, "buffer-full");

            const nlohmann::json stats = w.FctStats();
            NS_TEST_ASSERT_MSG_EQ(stats["count"].get<int>(), 10, "count");
            // numpy.percentile(range(1, 11), q), linear: position q/100 * 9.
            NS_TEST_ASSERT_MSG_EQ_TOL(stats["slowdown"]["p50"].get<double>(), 5.5, 1e-12, "p50");
            NS_TEST_ASSERT_MSG_EQ_TOL(stats["slowdown"]["p90"].get<double>(), 9.1, 1e-12, "p90");
            NS_TEST_ASSERT_MSG_EQ_TOL(stats["slowdown"]["p99"].get<double>(), 9.91, 1e-12, "p99");
            NS_TEST_ASSERT_MSG_EQ_TOL(stats["slowdown"]["p999"].get<double>(),
                                      9.991,
                                      1e-12,
                                      "p99.9");
            NS_TEST_ASSERT_MSG_EQ(stats["slowdown"]["max"].get<double>(), 10.0, "max");
            NS_TEST_ASSERT_MSG_EQ_TOL(stats["slowdown"]["mean"].get<double>(), 5.5, 1e-12, "mean");
            NS_TEST_ASSERT_MSG_EQ_TOL(stats["fct_ns"]["p99"].get<double>(), 9910, 1e-9, "fct p99");

            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/summary.json"), false, "not before the end");
            written = w.WriteSummary({{"complete", true}, {"events", 12345}});
            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/summary.json.tmp"), false, "tmp renamed away");
        }
        std::string fct = "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,kind\n";
        for (int i = 1; i <= 10; ++i)
        {
            fct += std::to_string(i) + "," + std::to_string(i) + ",0,1000000," +
                   std::to_string(100 * i) + "," + std::to_string(1000 * i) + ",1000," +
                   std::to_string(i) + ",incast\n";
        }
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/fct.csv"), fct, "fct.csv rows");
        NS_TEST_ASSERT_MSG_EQ(
            ReadFile(dir + "/collective.csv"),
            "op_id,algorithm,ranks,bytes,start_ns,end_ns,duration_ns,algbw_gbps,busbw_gbps,"
            "protocol\n"
            "7,ring,16,17179869184,5,3000000005,3000000000,33.3333,62.5,simple\n",
            "collective.csv row: 6 significant digits");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/pfc.csv"),
                              "time_ns,node,port,priority,event\n"
                              "1234567890123,20,3,3,pause\n1234567890999,20,3,3,resume\n",
                              "pfc.csv rows");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/qlen.csv"),
                              "time_ns,node,port,queue,bytes\n10000,20,3,3,18446744073709551615\n",
                              "qlen.csv row");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(dir + "/drops.csv"),
                              "time_ns,node,port,reason\n42,21,0,buffer-full\n",
                              "drops.csv row");

        const nlohmann::json s = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
        NS_TEST_ASSERT_MSG_EQ((s == written), true, "returned document is the file");
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(s["events"].get<int>(), 12345, "caller's keys kept");
        NS_TEST_ASSERT_MSG_EQ_TOL(s["fct"]["slowdown"]["p99"].get<double>(), 9.91, 1e-12, "p99");
        NS_TEST_ASSERT_MSG_EQ(s["output"]["rows"]["fct.csv"].get<int>(), 10, "row count");
        NS_TEST_ASSERT_MSG_EQ(s["output"]["rows"]["pfc.csv"].get<int>(), 2, "row count");

        // Percentile corner cases: one sample; interpolation between two.
        NS_TEST_ASSERT_MSG_EQ(OutputWriter::Percentile({3.0}, 0.99), 3.0, "single sample");
        NS_TEST_ASSERT_MSG_EQ_TOL(OutputWriter::Percentile({1.0, 2.0}, 0.25), 1.25, 1e-15, "lerp");
        std::filesystem::remove_all(dir);
    }
};

/// The human-readable block carries the headline numbers.
class RunSummaryPrinterTestCase : public TestCase
{
  public:
    RunSummaryPrinterTestCase()
        : TestCase("PrintRunSummary shows what ran, the headline numbers and where files are")
    {
    }

  private:
    void DoRun() override
    {
        const nlohmann::json s = {
            {"complete", false},
            {"unfinished", "3 messages in flight"},
            {"config",
             {{"fabric", "rocev2"},
              {"topology", "fattree"},
              {"k", 4},
              {"workload", "incast"},
              {"bytes", 1000000},
              {"background", "none"},
              {"cc", "dcqcn"},
              {"lb", "ecmp"},
              {"routing", "auto"},
              {"stop-time", "1ms"},
              {"out", "runs/a"}}},
            {"topology", {{"hosts", 16}, {"switches", 20}, {"links", 48}}},
            {"sim_time_s", 0.001},
            {"wall_s", 2.5},
            {"events", 1234567},
            {"drops", {{"lossless", 0}, {"lossy", 3}}},
            {"pfc_pauses", 11},
            {"pfc_resumes", 6},
            {"pfc_pause_frames", 17},
            {"retransmissions", 2},
            {"fct", {{"count", 8}, {"slowdown", {{"p50", 1.5}, {"p99", 12.25}, {"max", 13.0}}}}},
        };
        std::ostringstream os;
        PrintRunSummary(os, s);
        const std::string text = os.str();
        for (const char* part : {"rocev2",
                                 "fattree k=4 (16 hosts, 20 switches, 48 links)",
                                 "incast, 1000000 bytes",
                                 "INCOMPLETE",
                                 "3 messages in flight",
                                 "1234567 events",
                                 "p50 1.5, p99 12.25",
                                 "drops lossless 0, lossy 3",
                                 "PFC pause frames 11, resume frames 6;",
                                 "retransmissions 2",
                                 "runs/a/"})
        {
            NS_TEST_ASSERT_MSG_EQ((text.find(part) != std::string::npos),
                                  true,
                                  "missing '" << part << "' in:\n"
                                              << text);
        }
        std::ostringstream empty;
        PrintRunSummary(empty, nlohmann::json::object());
        NS_TEST_ASSERT_MSG_EQ((empty.str().find("n/a") != std::string::npos),
                              true,
                              "partial summaries print n/a");
    }
};

/**
 * A writer made after pcap tracing started (PcapHelper::CreateFile, as
 * RoceFabric::EnablePcap opens its files) deletes none of them: they keep their
 * header and the frames written afterwards. Abandon removes the writer's files and
 * those registered with AddRunFile, nothing else.
 */
class OutputWriterKeepsOthersFilesTestCase : public TestCase
{
  public:
    OutputWriterKeepsOthersFilesTestCase()
        : TestCase("a writer made after EnablePcap keeps the pcaps; Abandon removes only "
                   "this run's files")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = ScratchDir("writer-pcap");
        std::filesystem::create_directories(dir);
        const std::string pcapName = dir + "/ai-fabric-0-0.pcap";
        PcapHelper pcap;
        Ptr<PcapFileWrapper> file =
            pcap.CreateFile(pcapName, std::ios::out, PcapHelper::DLT_EN10MB);
        std::ofstream(dir + "/old.pcap") << "a user's capture";
        {
            OutputWriter w(dir);
            NS_TEST_ASSERT_MSG_EQ(Exists(pcapName), true, "the open pcap survives the writer");
            NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/old.pcap"), true, "and so does a user's");
            Ptr<Packet> p = Create<Packet>(60);
            file->Write(Seconds(0), p);
            file->Close();
            // 24-byte pcap header, 16-byte record header, 60 bytes.
            NS_TEST_ASSERT_MSG_EQ(std::filesystem::file_size(pcapName), 100, "and is written");
            w.AddRunFile(pcapName);
            w.Abandon();
        }
        NS_TEST_ASSERT_MSG_EQ(Exists(pcapName), false, "Abandon removes the run's pcap");
        NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/fct.csv"), false, "and its CSVs");
        NS_TEST_ASSERT_MSG_EQ(Exists(dir + "/old.pcap"), true, "not a file of another run");
        std::filesystem::remove_all(dir);
    }
};

/// RankOutputMerger: the ranks' parts merged in key order, an unsorted part sorted, rows
/// after the run's end left out, and a bad row named by its file and line.
class RankOutputMergerTestCase : public TestCase
{
  public:
    RankOutputMergerTestCase()
        : TestCase("RankOutputMerger merges the ranks' parts by their key columns")
    {
    }

  private:
    void DoRun() override
    {
        const std::string root = ScratchDir("rank-merge");
        const std::string a = root + "/.rank0";
        const std::string b = root + "/.rank1";
        std::filesystem::create_directories(a);
        std::filesystem::create_directories(b);
        const std::string fct = std::string(OutputWriter::FCT_HEADER) + "\n";
        // in completion order, as ranks write them, but rank 1's tie at 300 ns in flow id
        // order 9, 4
        std::ofstream(a + "/fct.csv") << fct << "7,0,1,1000,100,150,100,1.5,flow\n"
                                      << "2,0,2,1000,0,400,100,4,incast\n";
        std::ofstream(b + "/fct.csv") << fct << "5,3,1,1000,0,280,100,2.8,flow\n"
                                      << "9,2,3,1000,200,100,100,1,flow\n"
                                      << "4,2,0,1000,100,200,100,2,flow\n";
        std::ofstream(a + "/pfc.csv") << "time_ns,node,port,priority,event\n"
                                      << "10,4,1,3,pause\n30,4,1,3,resume\n1200,4,1,3,pause\n";
        // not in time order: sorted whole
        std::ofstream(b + "/pfc.csv") << "time_ns,node,port,priority,event\n"
                                      << "20,2,0,3,resume\n10,2,0,3,pause\n";
        std::ofstream(a + "/qlen.csv") << "time_ns,node,port,queue,bytes\n1000,1,0,3,64\n";
        std::ofstream(b + "/qlen.csv") << "time_ns,node,port,queue,bytes\n1000,0,2,3,128\n";
        std::ofstream(a + "/drops.csv") << "time_ns,node,port,reason\n";
        std::ofstream(b + "/drops.csv") << "time_ns,node,port,reason\n50,6,2,buffer\n";
        const std::string out = root + "/merged";
        {
            OutputWriter w(out);
            RankOutputMerger::Merge({a, b}, 1000, w);
            w.Close();
        }
        NS_TEST_ASSERT_MSG_EQ(ReadFile(out + "/fct.csv"),
                              fct + "7,0,1,1000,100,150,100,1.5,flow\n" // ends at 250
                                    "5,3,1,1000,0,280,100,2.8,flow\n"   // 280
                                    "4,2,0,1000,100,200,100,2,flow\n"   // 300, flow 4
                                    "9,2,3,1000,200,100,100,1,flow\n"   // 300, flow 9
                                    "2,0,2,1000,0,400,100,4,incast\n",  // 400
                              "fct.csv by completion time, then flow id");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(out + "/pfc.csv"),
                              "time_ns,node,port,priority,event\n10,2,0,3,pause\n"
                              "10,4,1,3,pause\n20,2,0,3,resume\n30,4,1,3,resume\n",
                              "pfc.csv by time, then node; the pause at 1,200 ns, after the "
                              "run's end at 1,000 ns, left out");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(out + "/qlen.csv"),
                              "time_ns,node,port,queue,bytes\n1000,0,2,3,128\n1000,1,0,3,64\n",
                              "qlen.csv by time, then node");
        NS_TEST_ASSERT_MSG_EQ(ReadFile(out + "/drops.csv"),
                              "time_ns,node,port,reason\n50,6,2,buffer\n",
                              "drops.csv from the one part that has rows");

        // a row that is not an integer where one is due: the part file and its line
        std::ofstream(b + "/fct.csv") << fct << "9,2,3,1000,200,100,100,1,flow\n"
                                      << "4,2,x,1000,100,200,100,2,flow\n";
        std::string error;
        try
        {
            OutputWriter w(root + "/bad");
            RankOutputMerger::Merge({a, b}, 1000, w);
        }
        catch (const OutputError& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error, b + "/fct.csv line 3: 'x' is not an integer", "named");
        std::filesystem::remove_all(root);
    }
};

/// The suite.
class OutputWriterTestSuite : public TestSuite
{
  public:
    OutputWriterTestSuite()
        : TestSuite("ai-fabric-output-writer", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new OutputHeadersTestCase, AI_FABRIC_QUICK);
        AddTestCase(new OutputRowsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new OutputWriterKeepsOthersFilesTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RunSummaryPrinterTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RankOutputMergerTestCase, AI_FABRIC_QUICK);
    }
};

/// Static instance registering the suite.
static OutputWriterTestSuite g_outputWriterTestSuite;
