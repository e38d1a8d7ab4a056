/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-workload.h"

#include "sample-quantiles.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/data-rate.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingWorkload");

NS_OBJECT_ENSURE_REGISTERED(TrainingWorkload);

static WorkloadRegistration g_training({"training",
                                        "the training iterations of the model in --training "
                                        "(JSON or ASTRA-sim/SimAI text): compute, TP/PP/DP/EP "
                                        "communication, 1F1B",
                                        WorkloadRegistry::TRAINING,
                                        {}});

namespace
{

nlohmann::json
Distribution(std::vector<int64_t> v)
{
    std::sort(v.begin(), v.end());
    double mean = 0;
    for (int64_t x : v)
    {
        mean += static_cast<double>(x);
    }
    mean = v.empty() ? 0.0 : mean / v.size();
    return {{"mean", mean},
            {"p50", NearestRankPercentile(v, 0.5)},
            {"p99", NearestRankPercentile(v, 0.99)},
            {"max", v.empty() ? 0 : v.back()}};
}

int64_t
Exposed(const TrainingEngine::RankRecord& r)
{
    return r.waitNs[0] + r.waitNs[1] + r.waitNs[2] + r.waitNs[3];
}
} // namespace

TypeId
TrainingWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingWorkload")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<TrainingWorkload>()
            .AddAttribute("AstraCycle",
                          "Nanoseconds per compute-time unit of an ASTRA-sim/SimAI text file "
                          "(ASTRA-sim 1.0 counts cycles; its ns-3 backend and SimAI take one "
                          "cycle as 1 ns, the default).",
                          IntegerValue(1),
                          MakeIntegerAccessor(&TrainingWorkload::m_cycleNs),
                          MakeIntegerChecker<int64_t>(1))
            .AddAttribute("TimelineIteration",
                          "Iteration whose per-GPU timeline (compute and waits, from the "
                          "engine's Interval trace) is written to training-timeline.csv; -1 "
                          "(default) = none.",
                          IntegerValue(-1),
                          MakeIntegerAccessor(&TrainingWorkload::m_timelineIteration),
                          MakeIntegerChecker<int64_t>(-1));
    return tid;
}

TrainingWorkload::TrainingWorkload() = default;

TrainingWorkload::~TrainingWorkload() = default;

void
TrainingWorkload::DoDispose()
{
    if (m_engine)
    {
        m_engine->Dispose();
    }
    m_engine = nullptr;
    if (m_transport)
    {
        m_transport->Dispose();
    }
    m_transport = nullptr;
    if (m_fastForward)
    {
        m_fastForward->Dispose();
    }
    m_fastForward = nullptr;
    m_timeline.clear();
    Object::DoDispose();
}

void
TrainingWorkload::Setup(const Options& c, Ptr<RdmaFabric> fabric)
{
    if (c.file.empty())
    {
        throw std::invalid_argument("--workload=training needs --training=FILE (a JSON model or an "
                                    "ASTRA-sim/SimAI workload file)");
    }
    TrainingModel model;
    try
    {
        model = TrainingModel::Load(c.file, m_cycleNs);
        model.Resolve(c.hosts.empty() ? fabric->GetNHosts()
                                      : static_cast<uint32_t>(c.hosts.size()));
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string("--training: ") + e.what());
    }
    uint32_t iterations = c.iterations;
    if (model.iterations != 0)
    {
        if (c.iterations != 1 && c.iterations != model.iterations)
        {
            throw std::invalid_argument(
                "--iterations=" + std::to_string(c.iterations) + " and " + c.file +
                "'s \"iterations\": " + std::to_string(model.iterations) + " differ; give one");
        }
        iterations = model.iterations;
    }
    if (!c.hosts.empty() && model.GetNRanks() != c.hosts.size())
    {
        throw std::invalid_argument("--training: " + c.file + " runs on " +
                                    std::to_string(model.GetNRanks()) + " GPUs, not the " +
                                    std::to_string(c.hosts.size()) + " it was given");
    }
    m_transport = AttachTransport(fabric, c.hosts, model.GetNRanks());
    m_engine = CreateObject<TrainingEngine>();
    ConfigureEngine(m_engine, c, iterations, m_transport);
    if (m_engine->IsPerRank())
    {
        if (c.fastForward)
        {
            throw std::invalid_argument(
                "--fast-forward=1 with ns3::TrainingEngine::IterationStart=per-rank: its "
                "receives are matched in advance, and a skipped message takes none; allowed: "
                "one of them");
        }
        // every receive and message id taken at the start, as each MPI rank must
        m_transport->SetAttribute("MatchInAdvance", BooleanValue(true));
    }
    try
    {
        if (c.fastForward)
        {
            m_fastForward = CreateObject<FastForwardTransport>();
            m_fastForward->SetInner(m_transport);
            m_engine->Setup(model, m_fastForward);
        }
        else
        {
            m_engine->Setup(model, m_transport);
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("--workload=training --training=" + c.file + ": " + e.what());
    }
    m_file = c.file;
    if (m_timelineIteration >= 0)
    {
        m_engine->TraceConnectWithoutContext("Interval",
                                             MakeCallback(&TrainingWorkload::OnInterval, this));
    }
}

Ptr<RdmaCollectiveTransport>
TrainingWorkload::AttachTransport(Ptr<RdmaFabric> fabric,
                                  const std::vector<uint32_t>& hosts,
                                  uint32_t ranks)
{
    std::vector<uint32_t> attached = hosts;
    for (uint32_t h = 0; hosts.empty() && h < ranks; ++h)
    {
        attached.push_back(h);
    }
    Ptr<RdmaCollectiveTransport> transport = CreateObject<RdmaCollectiveTransport>();
    transport->Attach(fabric, attached);
    return transport;
}

void
TrainingWorkload::ConfigureEngine(Ptr<Object> engine,
                                  const Options& c,
                                  uint32_t iterations,
                                  Ptr<RdmaCollectiveTransport> transport)
{
    engine->SetAttribute("Iterations", UintegerValue(iterations));
    engine->SetAttribute("AllreduceAlgorithm", StringValue(c.algorithm));
    engine->SetAttribute("ChunkBytes",
                         UintegerValue(c.chunk.value_or(CollectiveAlgorithm::DEFAULT_CHUNK_BYTES)));
    engine->SetAttribute("Channels",
                         UintegerValue(c.channels.value_or(CollectiveAlgorithm::DEFAULT_CHANNELS)));
    engine->SetAttribute("TagSpace", UintegerValue(transport->GetTagSpace()));
    // the server-aware schedules, with each communicator's own GPUs per server
    engine->SetAttribute("GpusPerServer", UintegerValue(c.gpusPerServer));
    engine->SetAttribute("Pxn", BooleanValue(c.pxn));
    if (c.gpusPerServer > 1 && !c.channels)
    {
        // NCCL's channels per communicator and call, not one count for all
        engine->SetAttribute("NicRate", DataRateValue(c.hostRate));
    }
}

void
TrainingWorkload::OnInterval(uint32_t iteration,
                             uint32_t rank,
                             uint8_t state,
                             int64_t startNs,
                             int64_t endNs)
{
    if (static_cast<int64_t>(iteration) == m_timelineIteration && endNs > startNs)
    {
        m_timeline.push_back({rank, state, startNs, endNs});
    }
}

std::vector<std::string>
TrainingWorkload::GetCsvNames() const
{
    std::vector<std::string> names{"training.csv"};
    if (m_timelineIteration >= 0)
    {
        names.emplace_back("training-timeline.csv");
    }
    return names;
}

void
TrainingWorkload::SetFinishedCallback(Callback<void> cb)
{
    NS_ABORT_MSG_IF(!m_engine, "TrainingWorkload::SetFinishedCallback before Setup");
    m_engine->SetFinishedCallback(cb);
}

void
TrainingWorkload::Start()
{
    NS_ABORT_MSG_IF(!m_engine, "TrainingWorkload::Start before Setup");
    m_engine->Start();
}

bool
TrainingWorkload::IsFinished() const
{
    return m_engine && m_engine->IsFinished();
}

Ptr<TrainingEngine>
TrainingWorkload::GetEngine() const
{
    return m_engine;
}

Ptr<RdmaCollectiveTransport>
TrainingWorkload::GetTransport() const
{
    return m_transport;
}

Ptr<FastForwardTransport>
TrainingWorkload::GetFastForward() const
{
    return m_fastForward;
}

nlohmann::json
TrainingWorkload::ToJson() const
{
    if (!m_engine)
    {
        return nullptr;
    }
    nlohmann::json j = Summarise(*m_engine);
    j["file"] = m_file;
    return j;
}

nlohmann::json
TrainingWorkload::Summarise(const TrainingEngine& engine)
{
    const TrainingModel& m = engine.GetModel();
    const auto& iters = engine.GetIterations();
    nlohmann::json j;
    j["model"] = m.name;
    j["format"] = m.format == TrainingModel::JSON ? "json" : "astra-sim";
    j["parallelism"] = {{"tp", m.tp}, {"pp", m.pp}, {"dp", m.dp}, {"ep", m.ep}};
    j["gpus"] = m.GetNRanks();
    j["gpus_per_server"] = m.tp;
    j["microbatches"] = m.microbatches;
    j["gradient_bucket_bytes"] = m.bucketBytes;
    j["overlap"] = m.overlap;
    j["schedule"] = "1f1b";
    j["finished_iterations"] = iters.size();
    j["complete"] = engine.IsFinished();
    std::vector<int64_t> durations;
    std::vector<int64_t> exposed;
    std::array<int64_t, 4> waitSum{};
    uint64_t rankIterations = 0;
    nlohmann::json per = nlohmann::json::array();
    for (const auto& it : iters)
    {
        const int64_t d = it.endNs - it.startNs;
        durations.push_back(d);
        // The critical GPU: the one that finished last (the lowest rank of a tie).
        uint32_t crit = 0;
        double meanExposed = 0;
        for (uint32_t r = 0; r < it.ranks.size(); ++r)
        {
            if (it.ranks[r].finishNs > it.ranks[crit].finishNs)
            {
                crit = r;
            }
            meanExposed += static_cast<double>(Exposed(it.ranks[r]));
            for (int k = 0; k < 4; ++k)
            {
                waitSum[k] += it.ranks[r].waitNs[k];
            }
            rankIterations++;
        }
        meanExposed /= it.ranks.empty() ? 1.0 : static_cast<double>(it.ranks.size());
        const auto& c = it.ranks[crit];
        exposed.push_back(Exposed(c));
        per.push_back(
            {{"iteration", it.iteration},
             {"start_ns", it.startNs},
             {"end_ns", it.endNs},
             {"iteration_ns", d},
             {"critical_gpu", crit},
             {"compute_ns", c.computeNs},
             {"exposed_comm_ns", Exposed(c)},
             {"exposed_by_parallelism_ns",
              {{"tp", c.waitNs[0]}, {"dp", c.waitNs[1]}, {"pp", c.waitNs[2]}, {"ep", c.waitNs[3]}}},
             {"mean_exposed_comm_ns", meanExposed}});
    }
    j["iteration_ns"] = Distribution(durations);
    j["exposed_comm_ns"] = Distribution(exposed);
    j["iterations"] = per;
    // Per parallelism: operations, bytes, time on the network, and exposed time.
    nlohmann::json byPar;
    for (TrainingParallelism p : {TrainingParallelism::TP,
                                  TrainingParallelism::DP,
                                  TrainingParallelism::PP,
                                  TrainingParallelism::EP})
    {
        uint64_t ops = 0;
        uint64_t bytes = 0;
        int64_t busy = 0;
        for (const auto& s : engine.GetCommStats())
        {
            if (s.parallelism != p)
            {
                continue;
            }
            ops += s.durationsNs.size();
            bytes += s.bytes * s.durationsNs.size();
            for (int64_t d : s.durationsNs)
            {
                busy += d;
            }
        }
        const auto k = static_cast<uint8_t>(p);
        byPar[TrainingParallelismName(p)] = {
            {"operations", ops},
            {"bytes", bytes},
            {"comm_ns", busy},
            {"mean_ns", ops ? static_cast<double>(busy) / ops : 0.0},
            {"exposed_ns_per_gpu_iteration",
             rankIterations ? static_cast<double>(waitSum[k]) / rankIterations : 0.0}};
    }
    j["by_parallelism"] = byPar;
    nlohmann::json colls = nlohmann::json::array();
    for (const auto& s : engine.GetCommStats())
    {
        nlohmann::json e = Distribution(s.durationsNs);
        colls.push_back({{"parallelism", TrainingParallelismName(s.parallelism)},
                         {"operation", s.operation},
                         {"phase", s.phase},
                         {"bytes", s.bytes},
                         {"ranks", s.ranks},
                         {"count", s.durationsNs.size()},
                         {"duration_ns", e}});
    }
    j["collectives"] = colls;
    return j;
}

bool
TrainingWorkload::WriteCsv(const std::string& dir) const
{
    std::ofstream out(std::filesystem::path(dir) / "training.csv",
                      std::ios::binary | std::ios::trunc);
    out << CSV_HEADER << '\n';
    if (m_engine)
    {
        const TrainingModel& m = m_engine->GetModel();
        const uint32_t perStage = m.tp * m.dp;
        for (const auto& it : m_engine->GetIterations())
        {
            for (uint32_t s = 0; s < m.pp; ++s)
            {
                uint32_t crit = s * perStage;
                for (uint32_t r = s * perStage; r < (s + 1) * perStage; ++r)
                {
                    if (it.ranks[r].finishNs > it.ranks[crit].finishNs)
                    {
                        crit = r;
                    }
                }
                const auto& c = it.ranks[crit];
                out << it.iteration << ',' << s << ',' << perStage << ',' << it.startNs << ','
                    << it.startNs + c.finishNs << ',' << c.finishNs << ',' << crit << ','
                    << c.computeNs << ',' << Exposed(c) << ',' << c.waitNs[0] << ',' << c.waitNs[1]
                    << ',' << c.waitNs[2] << ',' << c.waitNs[3] << '\n';
            }
        }
    }
    out.close();
    if (out.fail())
    {
        return false;
    }
    if (m_timelineIteration < 0)
    {
        return true;
    }
    // In time order per GPU (the trace fires a compute at its start, a wait at its end).
    std::vector<Interval> rows = m_timeline;
    std::stable_sort(rows.begin(), rows.end(), [](const Interval& a, const Interval& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.startNs < b.startNs;
    });
    static const char* const kStates[] = {"compute", "wait_tp", "wait_dp", "wait_pp", "wait_ep"};
    std::ofstream tl(std::filesystem::path(dir) / "training-timeline.csv",
                     std::ios::binary | std::ios::trunc);
    tl << TIMELINE_HEADER << '\n';
    for (const Interval& r : rows)
    {
        tl << m_timelineIteration << ',' << r.rank << ',' << kStates[r.state] << ',' << r.startNs
           << ',' << r.endNs << '\n';
    }
    tl.close();
    return !tl.fail();
}

} // namespace ns3
