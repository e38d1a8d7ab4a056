/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The training workload: model files (JSON and ASTRA-sim/SimAI text, their errors
 * with line numbers), the engine's iteration time against hand computations on the
 * alpha-beta transport (data parallel, 1F1B pipeline), gradient-bucket overlap, and
 * --workload=training on RoCEv2 and InfiniBand fabrics of 32 GPUs.
 */

#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/alpha-beta-collective-transport.h"
#include "ns3/config-error.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/training-engine.h"
#include "ns3/training-model.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

using namespace ns3;

namespace
{

std::string
SourceDir()
{
#ifdef AI_FABRIC_SOURCE_DIR
    return AI_FABRIC_SOURCE_DIR;
#else
    return std::filesystem::path(__FILE__).parent_path().parent_path().string();
#endif
}

/// The message of the std::invalid_argument parsing text throws ("" if none).
std::string
ParseError(const std::string& text)
{
    try
    {
        TrainingModel::Parse(text, "model");
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// Runs a resolved model on an alpha-beta transport (100 Gb/s, alpha 1 us,
/// unpipelined single-channel collectives) and returns the engine (IterationStart
/// per-rank if \p perRank).
Ptr<TrainingEngine>
RunAlphaBeta(TrainingModel model, uint32_t iterations = 1, bool perRank = false)
{
    model.Resolve(model.GetNRanks());
    Ptr<AlphaBetaCollectiveTransport> t = CreateObject<AlphaBetaCollectiveTransport>();
    t->SetAttribute("NRanks", UintegerValue(model.GetNRanks()));
    t->SetAttribute("Bandwidth", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("Alpha", TimeValue(MicroSeconds(1)));
    Ptr<TrainingEngine> e = CreateObject<TrainingEngine>();
    e->SetAttribute("Iterations", UintegerValue(iterations));
    e->SetAttribute("ChunkBytes", UintegerValue(0));
    e->SetAttribute("Channels", UintegerValue(1));
    if (perRank)
    {
        e->SetAttribute("IterationStart", EnumValue(TrainingEngine::PER_RANK));
    }
    e->Setup(model, t);
    e->Start();
    Simulator::Run();
    Simulator::Destroy();
    return e;
}

/// DP = 2, one layer (1000 + 500 + 500 ns, update 100 ns), 1 MB gradients, no buckets.
TrainingModel
DpHandModel()
{
    return TrainingModel::ParseJson(R"({
  "parallelism": {"dp": 2}, "gradient_bucket_bytes": 0,
  "layers": [{"forward_ns": 1000, "input_grad_ns": 500, "weight_grad_ns": 500,
              "update_ns": 100, "parameter_bytes": 1000000}]
})",
                                    "hand");
}

/// PP = 2, two microbatches, two layers of 1 us per pass, 125 kB pipeline sends.
TrainingModel
PpHandModel()
{
    return TrainingModel::ParseJson(R"({
  "parallelism": {"pp": 2}, "microbatches": 2, "pp_bytes": 125000,
  "layers": [{"forward_ns": 1000, "input_grad_ns": 1000, "weight_grad_ns": 1000},
             {"forward_ns": 1000, "input_grad_ns": 1000, "weight_grad_ns": 1000}]
})",
                                    "pp");
}

/// The critical (last-finishing) GPU's record of an iteration.
const TrainingEngine::RankRecord&
Critical(const TrainingEngine::IterationRecord& it)
{
    uint32_t crit = 0;
    for (uint32_t r = 0; r < it.ranks.size(); ++r)
    {
        if (it.ranks[r].finishNs > it.ranks[crit].finishNs)
        {
            crit = r;
        }
    }
    return it.ranks[crit];
}

int64_t
Waits(const TrainingEngine::RankRecord& r)
{
    return r.waitNs[0] + r.waitNs[1] + r.waitNs[2] + r.waitNs[3];
}

} // namespace

/// Both formats parse into the same layers; malformed input names its line.
class TrainingModelParseTestCase : public TestCase
{
  public:
    TrainingModelParseTestCase()
        : TestCase("JSON and ASTRA-sim or SimAI files parse; errors name the line")
    {
    }

  private:
    void DoRun() override
    {
        const TrainingModel j = TrainingModel::Parse(R"({
  "parallelism": {"tp": 2, "pp": 1, "dp": 4},
  "microbatches": 3, "gpu_flops": 1e12, "gradient_bucket_bytes": 0,
  "layers": [{"name": "blk", "repeat": 3, "forward_flops": 2e6, "input_grad_ns": 5,
              "weight_grad_ns": 7, "activation_bytes": 100, "parameter_bytes": 400}]
})",
                                                     "j");
        NS_TEST_ASSERT_MSG_EQ(j.format, TrainingModel::JSON, "told apart by content");
        NS_TEST_ASSERT_MSG_EQ(j.layers.size(), 3, "repeat");
        NS_TEST_EXPECT_MSG_EQ(j.layers[0].forwardNs, 2000, "2e6 FLOP at 1e12 FLOP/s = 2 us");
        NS_TEST_EXPECT_MSG_EQ(j.layers[1].forwardComms.size(), 1, "a TP allreduce (tp 2)");
        NS_TEST_EXPECT_MSG_EQ(j.layers[1].forwardComms[0].bytes, 100, "of the activation");
        NS_TEST_EXPECT_MSG_EQ(j.layers[2].weightGradComm.bytes, 400, "DP gradient bytes");
        NS_TEST_EXPECT_MSG_EQ(j.microbatches, 3, "microbatches");

        const TrainingModel a =
            TrainingModel::Parse("HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 "
                                 "ep: 1 pp: 1 vpp: 1 ga: 3 all_gpus: 8 checkpoints: 0 "
                                 "checkpoint_initiates: 0\n"
                                 "2\n"
                                 "l0 -1 10 ALLREDUCE 100 5 ALLREDUCE 100 7 ALLREDUCE 400 3\n"
                                 "l1\t-1\t10\tALLTOALL_EP\t64\t5\tNONE\t0\t7\tNONE\t0\t3\n",
                                 "a",
                                 2);
        NS_TEST_ASSERT_MSG_EQ(a.format, TrainingModel::ASTRA, "told apart by content");
        NS_TEST_EXPECT_MSG_EQ(a.tp, 2, "model_parallel_NPU_group");
        NS_TEST_EXPECT_MSG_EQ(a.dp, 4, "all_gpus / (tp x pp)");
        NS_TEST_EXPECT_MSG_EQ(a.microbatches, 3, "ga");
        NS_TEST_EXPECT_MSG_EQ(a.layers[0].forwardNs, 20, "10 cycles of 2 ns");
        NS_TEST_EXPECT_MSG_EQ(a.layers[0].updateNs, 6, "update 3 cycles");
        NS_TEST_EXPECT_MSG_EQ((a.layers[0].weightGradComm.group == TrainingParallelism::DP),
                              true,
                              "weight gradients on the DP group");
        NS_TEST_EXPECT_MSG_EQ((a.layers[1].forwardComms[0].group == TrainingParallelism::EP),
                              true,
                              "_EP: the expert group");
        NS_TEST_EXPECT_MSG_EQ(a.layers[1].hasWeightGradComm, false, "NONE");

        const std::string head = "HYBRID_TRANSFORMER model_parallel_NPU_group: 2\n";
        const std::string ok = "l -1 1 ALLREDUCE 8 1 NONE 0 1 ALLREDUCE 8 0\n";

        struct Bad
        {
            std::string text;
            std::string expect;
        };

        for (const Bad& b : std::vector<Bad>{
                 {"HYBRID_DLRM\n1\n" + ok, "model: line 1: parallelism 'HYBRID_DLRM'"},
                 {head + "two\n" + ok, "model: line 2: 'two' is not a layer count"},
                 {head + "2\n" + ok + "l -1 1 ALLREDUCE 8 1 NONE 0 1\n",
                  "model: line 4: a layer needs 12 fields"},
                 {head + "1\nl -1 1 BROADCAST 8 1 NONE 0 1 NONE 0 0\n",
                  "model: line 3: communication type 'BROADCAST'"},
                 {head + "1\nl -1 x ALLREDUCE 8 1 NONE 0 1 NONE 0 0\n",
                  "model: line 3: forward compute time 'x'"},
                 {head + "3\n" + ok + ok, "model: line 5: missing layer 3 of 3"},
                 {head + "1\n" + ok + ok, "model: line 4: more layers than the 1"},
                 {"DATA foo: 1\n1\n" + ok, "model: line 1: unknown key 'foo:'"},
                 {"HYBRID_TRANSFORMER checkpoints: 2\n1\n" + ok, "model: line 1: checkpoints: 2"},
                 {"{\n  \"layers\": [\n    {\"forward_ns\": 1,}\n  ]\n}",
                  "model: line 3: not valid JSON"},
                 {R"({"layers": [{"forward_ns": 1, "speed": 2}]})",
                  "model: layers[0].speed: unknown key"},
                 {R"({"layers": [{"forward_flops": 1}]})",
                  "model: layers[0].forward_flops: needs gpu_flops"},
             })
        {
            const std::string e = ParseError(b.text);
            NS_TEST_EXPECT_MSG_EQ(e.rfind(b.expect, 0),
                                  0,
                                  "error '" << e << "' starts with '" << b.expect << "'");
        }
    }
};

/// DP = 2, one layer: iteration = forward + input grad + weight grad + the ring
/// allreduce's two steps (alpha + (S/2) / B each) + update.
class TrainingHandComputedTestCase : public TestCase
{
  public:
    TrainingHandComputedTestCase()
        : TestCase("DP=2 one layer: iteration time = hand computation (alpha-beta)")
    {
    }

  private:
    void DoRun() override
    {
        TrainingModel m = DpHandModel();
        Ptr<TrainingEngine> e = RunAlphaBeta(m, 2);
        NS_TEST_ASSERT_MSG_EQ(e->GetIterations().size(), 2, "two iterations");
        // ring allreduce of S = 1 MB on 2 ranks: reduce-scatter then all-gather, one
        // step each of S/2 = 500 kB: 40 us at 100 Gb/s + alpha 1 us.
        const int64_t allreduce = 2 * (500000 * 8 / 100 + 1000);
        const int64_t expect = 1000 + 500 + 500 + allreduce + 100;
        for (const auto& it : e->GetIterations())
        {
            NS_TEST_EXPECT_MSG_EQ(it.endNs - it.startNs, expect, "iteration " << it.iteration);
            const auto& c = Critical(it);
            NS_TEST_EXPECT_MSG_EQ(c.computeNs, 2100, "compute");
            NS_TEST_EXPECT_MSG_EQ(c.waitNs[1], allreduce, "exposed DP = the whole allreduce");
            NS_TEST_EXPECT_MSG_EQ(c.computeNs + Waits(c), it.endNs - it.startNs, "sum");
        }
        ReportValidation(
            "training-dp2-iteration-ns",
            static_cast<double>(e->GetIterations()[0].endNs - e->GetIterations()[0].startNs));
        ReportValidation("training-dp2-iteration-ns.expected", static_cast<double>(expect));
        std::cout << "hand DP=2: iteration " << expect << " ns (allreduce " << allreduce << " ns)"
                  << std::endl;
    }
};

/// PP = 2, two microbatches, 1F1B: the schedule worked out by hand.
class TrainingPipelineTestCase : public TestCase
{
  public:
    TrainingPipelineTestCase()
        : TestCase("PP=2 1F1B two microbatches: iteration time = hand computation")
    {
    }

  private:
    void DoRun() override
    {
        TrainingModel m = PpHandModel();
        Ptr<TrainingEngine> e = RunAlphaBeta(m);
        // A send: 125 kB at 100 Gb/s = 10 us on the sender's NIC, delivered 1 us later.
        // Stage 0: F0 [0,1], send -> 12; F1 [1,2], send waits for the NIC -> 22.
        // Stage 1: F0 [12,13], B0 [13,15], grad -> 26; F1 [22,23], B1 [23,25], grad -> 36.
        // Stage 0: B0 [26,28], B1 [36,38]: 38 us.
        const auto& it = e->GetIterations().at(0);
        NS_TEST_EXPECT_MSG_EQ(it.endNs - it.startNs, 38000, "1F1B iteration");
        ReportValidation("training-1f1b-pp2-iteration-ns",
                         static_cast<double>(it.endNs - it.startNs));
        NS_TEST_EXPECT_MSG_EQ(it.ranks[0].computeNs, 6000, "stage 0 compute");
        NS_TEST_EXPECT_MSG_EQ(it.ranks[0].waitNs[2], 32000, "stage 0 waits on the pipeline");
        NS_TEST_EXPECT_MSG_EQ(it.ranks[1].finishNs, 25000, "stage 1 ends with B1's send");
        NS_TEST_EXPECT_MSG_EQ(it.ranks[1].computeNs + Waits(it.ranks[1]), 25000, "sum");
    }
};

/// IterationStart per-rank: the hand-computed iterations of DP=2 (both GPUs alike) and of
/// the PP=2 1F1B pipeline (stage 1 starts its next iteration when it ended its own), and
/// every GPU's program time = compute + waits, each iteration from its own last end.
class TrainingPerRankTestCase : public TestCase
{
  public:
    TrainingPerRankTestCase()
        : TestCase("IterationStart per-rank: hand computations, per-GPU iterations")
    {
    }

  private:
    void DoRun() override
    {
        TrainingModel dp = DpHandModel();
        Ptr<TrainingEngine> e = RunAlphaBeta(dp, 2, true);
        NS_TEST_ASSERT_MSG_EQ(e->IsFinished(), true, "every GPU ran every iteration");
        NS_TEST_ASSERT_MSG_EQ(e->GetIterations().size(), 2, "two iterations");
        const int64_t allreduce = 2 * (500000 * 8 / 100 + 1000);
        const int64_t expect = 1000 + 500 + 500 + allreduce + 100;
        for (const auto& it : e->GetIterations())
        {
            NS_TEST_EXPECT_MSG_EQ(it.endNs - it.startNs, expect, "DP iteration " << it.iteration);
            NS_TEST_EXPECT_MSG_EQ(Critical(it).waitNs[1], allreduce, "exposed DP");
        }
        TrainingModel pp = PpHandModel();
        e = RunAlphaBeta(pp, 2, true);
        NS_TEST_ASSERT_MSG_EQ(e->GetIterations().size(), 2, "two iterations");
        // Iteration 0 as with the barrier (38 us; stage 1 ends at 25 us); stage 1 starts
        // iteration 1 at 25 us and waits for F0, which stage 0 sends at 38 + 1 + 11 us.
        const auto& it0 = e->GetIterations()[0];
        NS_TEST_EXPECT_MSG_EQ(it0.endNs - it0.startNs, 38000, "1F1B iteration 0");
        NS_TEST_EXPECT_MSG_EQ(it0.ranks[1].finishNs, 25000, "stage 1 ends with B1's send");
        const auto& it1 = e->GetIterations()[1];
        NS_TEST_EXPECT_MSG_EQ(it1.startNs, 25000, "iteration 1 starts with stage 1's");
        NS_TEST_EXPECT_MSG_EQ(it1.endNs, 76000, "stage 0 ends iteration 1 38 us after 38 us");
        ReportValidation("training-1f1b-pp2-per-rank-iteration1-end-ns",
                         static_cast<double>(it1.endNs));
        // every GPU: program time = compute + waits; iteration i + 1 from its end of i
        const std::vector<int64_t> rec = e->GetRankRecords();
        const uint32_t F = TrainingEngine::RANK_RECORD_FIELDS;
        for (uint32_t i = 0; i < 2; ++i)
        {
            for (uint32_t r = 0; r < 2; ++r)
            {
                const int64_t* f = &rec[(i * 2 + r) * F];
                NS_TEST_EXPECT_MSG_EQ(f[1] - f[0],
                                      f[2] + f[3] + f[4] + f[5] + f[6],
                                      "GPU " << r << " iteration " << i << ": compute + waits");
                if (i == 1)
                {
                    NS_TEST_EXPECT_MSG_EQ(f[0], rec[r * F + 1], "GPU " << r << " starts at once");
                }
            }
        }
    }
};

/// Buckets issued during backward hide part of the DP allreduce; after it they don't.
class TrainingOverlapTestCase : public TestCase
{
  public:
    TrainingOverlapTestCase()
        : TestCase("gradient buckets overlapped with backward expose less communication")
    {
    }

  private:
    void DoRun() override
    {
        int64_t exposed[2];
        for (bool overlap : {true, false})
        {
            TrainingModel m = TrainingModel::ParseJson(
                std::string(R"({"parallelism": {"dp": 2}, "gradient_bucket_bytes": 1000000,
  "overlap": )") + (overlap ? "true" : "false") +
                    R"(, "layers": [{"repeat": 4, "forward_ns": 10000, "input_grad_ns": 10000,
  "weight_grad_ns": 10000, "parameter_bytes": 1000000}]})",
                "overlap");
            Ptr<TrainingEngine> e = RunAlphaBeta(m);
            const auto& it = e->GetIterations().at(0);
            const auto& c = Critical(it);
            NS_TEST_EXPECT_MSG_EQ(c.computeNs, 120000, "compute");
            NS_TEST_EXPECT_MSG_EQ(c.computeNs + Waits(c), it.endNs - it.startNs, "sum");
            exposed[overlap ? 0 : 1] = Waits(c);
        }
        // Four ring allreduces of 1 MB on 2 ranks: 8 messages of 500 kB, 40 us each on
        // the NICs, which serve them in posting order; the last is delivered 1 us
        // after it left. Overlap off: all issued when the backward ends (120 us), the
        // NICs are busy for 320 us: 321 us exposed. Overlap on: the buckets are issued
        // at 60, 80, 100 and 120 us (each layer's weight gradient), the NICs are busy
        // from 60 us without a gap: done at 381 us, 261 us after the backward.
        NS_TEST_EXPECT_MSG_EQ(exposed[1], 8 * 40000 + 1000, "overlap off: every bucket exposed");
        NS_TEST_EXPECT_MSG_EQ(exposed[0], 60000 + 8 * 40000 + 1000 - 120000, "overlap on");
        std::cout << "overlap on " << exposed[0] << " ns exposed, off " << exposed[1] << " ns"
                  << std::endl;
    }
};

/// EP = 2 (MoE): two all-to-alls after the forward (each waited for), two issued
/// together after the input gradient.
class TrainingExpertParallelTestCase : public TestCase
{
  public:
    TrainingExpertParallelTestCase()
        : TestCase("EP=2 all-to-alls: iteration time = hand computation (alpha-beta)")
    {
    }

  private:
    void DoRun() override
    {
        TrainingModel m = TrainingModel::ParseJson(R"({
  "parallelism": {"dp": 2, "ep": 2},
  "layers": [{"forward_ns": 1000, "input_grad_ns": 1000,
              "expert_alltoall_bytes": 1000000}]})",
                                                   "ep");
        Ptr<TrainingEngine> e = RunAlphaBeta(m);
        // A pairwise all-to-all of 1 MB on 2 ranks: one 500 kB message each way, 40 us
        // + alpha 1 us. Forward: dispatch then combine, 82 us. Backward: both issued
        // at once, the NIC sends them back to back: done 81 us after the issue.
        const auto& it = e->GetIterations().at(0);
        NS_TEST_EXPECT_MSG_EQ(it.endNs - it.startNs, 1000 + 82000 + 1000 + 81000, "iteration");
        NS_TEST_EXPECT_MSG_EQ(Critical(it).waitNs[3], 82000 + 81000, "exposed EP");
        NS_TEST_EXPECT_MSG_EQ(e->GetCommStats().at(0).operation, "alltoall", "an all-to-all");
    }
};

/// --workload=training with examples/gpt-tiny.json (TP 8 x PP 2 x DP 2 = 32 GPUs)
/// on a leaf-spine of 32 hosts.
class TrainingFabricTestCase : public TestCase
{
  public:
    explicit TrainingFabricTestCase(const std::string& fabric)
        : TestCase("gpt-tiny on 32 GPUs over " + fabric +
                   ": completes, iteration = compute + exposed, overlap off exposes more"),
          m_fabric(fabric)
    {
    }

  private:
    nlohmann::json Run(const std::string& file, const std::string& out)
    {
        ScenarioConfig c;
        c.Set("fabric", m_fabric);
        c.Set("topology", "leafspine");
        c.Set("leaves", "4");
        c.Set("spines", "2");
        c.Set("hosts-per-switch", "8");
        if (m_fabric == "infiniband")
        {
            c.Set("mtu", "4096");
        }
        c.Set("workload", "training");
        c.Set("training", file);
        c.Set("qlen-interval", "0");
        c.Set("out", out);
        return ScenarioRunner(c).Run();
    }

    void DoRun() override
    {
        const std::string model = SourceDir() + "/examples/gpt-tiny.json";
        const std::string dir = "out/test-training-" + m_fabric;
        nlohmann::json s = Run(model, dir);
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "run completes");
        const nlohmann::json& t = s["training"];
        NS_TEST_ASSERT_MSG_EQ(t["finished_iterations"].get<uint32_t>(), 2, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(t["gpus"].get<uint32_t>(), 32, "32 GPUs");
        for (const auto& it : t["iterations"])
        {
            NS_TEST_EXPECT_MSG_EQ(it["iteration_ns"].get<int64_t>(),
                                  it["compute_ns"].get<int64_t>() +
                                      it["exposed_comm_ns"].get<int64_t>(),
                                  "iteration = compute + exposed communication");
            NS_TEST_EXPECT_MSG_GT(it["exposed_by_parallelism_ns"]["tp"].get<int64_t>(),
                                  0,
                                  "TP allreduces are exposed");
        }
        NS_TEST_EXPECT_MSG_GT(t["by_parallelism"]["dp"]["operations"].get<uint64_t>(),
                              0,
                              "DP buckets ran");
        NS_TEST_EXPECT_MSG_GT(t["by_parallelism"]["pp"]["operations"].get<uint64_t>(),
                              0,
                              "PP sends ran");
        // training.csv: a row per iteration and stage, duration = compute + exposed
        std::ifstream csv(dir + "/training.csv");
        std::string line;
        std::getline(csv, line);
        NS_TEST_EXPECT_MSG_EQ(line, TrainingWorkload::CSV_HEADER, "header");
        uint32_t rows = 0;
        while (std::getline(csv, line))
        {
            std::vector<int64_t> v;
            std::stringstream ss(line);
            std::string cell;
            while (std::getline(ss, cell, ','))
            {
                v.push_back(std::stoll(cell));
            }
            NS_TEST_ASSERT_MSG_EQ(v.size(), 13, "columns");
            NS_TEST_EXPECT_MSG_EQ(v[5], v[7] + v[8], "stage duration = compute + exposed");
            NS_TEST_EXPECT_MSG_EQ(v[8], v[9] + v[10] + v[11] + v[12], "exposed by kind");
            rows++;
        }
        NS_TEST_EXPECT_MSG_EQ(rows, 4, "2 iterations x 2 stages");

        // The same model with the buckets after the backward.
        std::ifstream in(model);
        std::stringstream text;
        text << in.rdbuf();
        std::string off = text.str();
        off.replace(off.find("\"overlap\": true"), 15, "\"overlap\": false");
        const std::string offFile = dir + "-overlap-off.json";
        std::ofstream(offFile) << off;
        nlohmann::json s2 = Run(offFile, dir + "-off");
        NS_TEST_ASSERT_MSG_EQ(s2["complete"].get<bool>(), true, "overlap off completes");
        const double on = t["exposed_comm_ns"]["mean"].get<double>();
        const double offExposed = s2["training"]["exposed_comm_ns"]["mean"].get<double>();
        const double onDp = t["by_parallelism"]["dp"]["exposed_ns_per_gpu_iteration"];
        const double offDp = s2["training"]["by_parallelism"]["dp"]["exposed_ns_per_gpu_iteration"];
        std::cout << m_fabric << " gpt-tiny: iteration " << t["iteration_ns"]["mean"].get<double>()
                  << " ns, exposed " << on << " ns (DP " << onDp << "); overlap off: iteration "
                  << s2["training"]["iteration_ns"]["mean"].get<double>() << " ns, exposed "
                  << offExposed << " ns (DP " << offDp << ")" << std::endl;
        NS_TEST_EXPECT_MSG_GT(offExposed, on, "overlap off exposes more communication");
        NS_TEST_EXPECT_MSG_GT(offDp, onDp, "overlap off exposes more DP communication");
    }

    std::string m_fabric;
};

/// An ASTRA-sim/SimAI file written from a JSON model runs the same iterations.
class TrainingAstraEquivalenceTestCase : public TestCase
{
  public:
    TrainingAstraEquivalenceTestCase()
        : TestCase("an ASTRA-sim or SimAI file equivalent to a JSON model: same iteration times")
    {
    }

  private:
    nlohmann::json Run(const std::string& file)
    {
        ScenarioConfig c;
        c.Set("fabric", "rocev2");
        c.Set("topology", "leafspine");
        c.Set("leaves", "2");
        c.Set("spines", "1");
        c.Set("hosts-per-switch", "4");
        c.Set("workload", "training");
        c.Set("training", file);
        c.Set("iterations", "2");
        c.Set("qlen-interval", "0");
        c.Set("out", "out/test-training-astra");
        return ScenarioRunner(c).Run();
    }

    void DoRun() override
    {
        std::filesystem::create_directories("out");
        const std::string json = "out/test-training-equivalent.json";
        const std::string astra = "out/test-training-equivalent.txt";
        std::ofstream(json) << R"({"parallelism": {"tp": 2, "pp": 2, "dp": 2},
  "microbatches": 2, "gradient_bucket_bytes": 0, "pp_bytes": 65536,
  "layers": [{"name": "blk", "repeat": 4, "forward_ns": 2000, "input_grad_ns": 1500,
              "weight_grad_ns": 1500, "update_ns": 100, "activation_bytes": 65536,
              "parameter_bytes": 131072}]})";
        // SimAI writes one stage's layers (num_layers / pp) with pp > 1.
        std::ofstream(astra) << "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 "
                                "ep: 1 pp: 2 vpp: 2 ga: 2 all_gpus: 8 checkpoints: 0 "
                                "checkpoint_initiates: 0 pp_comm: 65536\n"
                                "2\n"
                                "blk -1 2000 ALLREDUCE 65536 1500 ALLREDUCE 65536 1500 "
                                "ALLREDUCE 131072 100\n"
                                "blk -1 2000 ALLREDUCE 65536 1500 ALLREDUCE 65536 1500 "
                                "ALLREDUCE 131072 100\n";
        nlohmann::json a = Run(json)["training"];
        nlohmann::json b = Run(astra)["training"];
        NS_TEST_ASSERT_MSG_EQ(a["format"], "json", "JSON read");
        NS_TEST_ASSERT_MSG_EQ(b["format"], "astra-sim", "ASTRA-sim read");
        NS_TEST_ASSERT_MSG_EQ(a["finished_iterations"].get<uint32_t>(), 2, "json iterations");
        NS_TEST_ASSERT_MSG_EQ(b["finished_iterations"].get<uint32_t>(), 2, "astra iterations");
        for (uint32_t i = 0; i < 2; ++i)
        {
            const int64_t ta = a["iterations"][i]["iteration_ns"].get<int64_t>();
            NS_TEST_EXPECT_MSG_GT(ta, 4 * 5000, "at least the compute");
            NS_TEST_EXPECT_MSG_EQ(b["iterations"][i]["iteration_ns"].get<int64_t>(),
                                  ta,
                                  "iteration " << i << " same in both formats");
        }
        std::cout << "JSON/ASTRA-sim equivalent: iteration "
                  << a["iterations"][0]["iteration_ns"].get<int64_t>() << " ns" << std::endl;
    }
};

/// Runner-level errors: a parse error is a ConfigError naming the line.
class TrainingConfigErrorTestCase : public TestCase
{
  public:
    TrainingConfigErrorTestCase()
        : TestCase("--training parse errors and a shape larger than the fabric are config "
                   "errors")
    {
    }

  private:
    void DoRun() override
    {
        std::filesystem::create_directories("out");
        const std::string bad = "out/test-training-bad.txt";
        std::ofstream(bad) << "DATA\n1\nl -1 1 ALLREDUCE\n";
        const std::string big = "out/test-training-big.json";
        std::ofstream(big) << R"({"parallelism": {"tp": 8, "dp": 4},
          "layers": [{"forward_ns": 1}]})";
        for (const auto& [file, expect] : std::vector<std::pair<std::string, std::string>>{
                 {bad, "--training: " + bad + ": line 3: a layer needs 12 fields"},
                 {big, "--training: tp 8 x pp 1 x dp 4 = 32 GPUs; the fabric has 8 hosts"}})
        {
            ScenarioConfig c;
            c.Set("topology", "leafspine");
            c.Set("leaves", "2");
            c.Set("spines", "1");
            c.Set("hosts-per-switch", "4");
            c.Set("workload", "training");
            c.Set("training", file);
            c.Set("out", "out/test-training-error");
            std::string what;
            try
            {
                ScenarioRunner(c).Run();
            }
            catch (const ConfigError& e)
            {
                what = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ(what.rfind(expect, 0), 0, "'" << what << "'");
        }
        ScenarioConfig c;
        c.Set("training", bad);
        std::string what;
        try
        {
            c.Validate();
        }
        catch (const ConfigError& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ((what.find("needs --workload=training") != std::string::npos),
                              true,
                              "--training alone: '" << what << "'");
    }
};

class TrainingTestSuite : public TestSuite
{
  public:
    TrainingTestSuite()
        : TestSuite("ai-fabric-training", AI_FABRIC_UNIT_SUITE)
    {
        // The runner's cases first: the runner switches the time resolution to
        // picoseconds, which must happen before the other cases make Time objects.
        AddTestCase(new TrainingConfigErrorTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingAstraEquivalenceTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingFabricTestCase("rocev2"), AI_FABRIC_QUICK);
        // EXTENSIVE: the same 32-GPU job over InfiniBand (the slowest case under the
        // sanitizer; its fabric paths run in the infiniband suites there)
        AddTestCase(new TrainingFabricTestCase("infiniband"), AI_FABRIC_EXTENSIVE);
        AddTestCase(new TrainingModelParseTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingHandComputedTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingPipelineTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingPerRankTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingOverlapTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TrainingExpertParallelTestCase, AI_FABRIC_QUICK);
    }
};

static TrainingTestSuite g_trainingTestSuite; //!< registers the suite
