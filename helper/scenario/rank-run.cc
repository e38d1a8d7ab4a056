/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-run.h"

#include "rank-coordinator.h"
#include "rank-output-merger.h"
#include "size-parser.h"

#include "ns3/collective-application.h"
#include "ns3/config-error.h"
#include "ns3/enum.h"
#include "ns3/output-writer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace ns3
{

RankRun::RankRun(const ScenarioConfig& config)
    : m_config(config)
{
}

void
RankRun::Check(const ScenarioConfig& c)
{
    if (!c.mpi)
    {
        return;
    }
    CheckEnvironment(c);
    const std::string refused = Refused(c);
    if (refused.empty())
    {
        return;
    }
    // The workloads of a family, comma-separated.
    auto NamesOf = [](WorkloadRegistry::Family family) {
        std::string names;
        for (const std::string& n : WorkloadRegistry::GetNames(family))
        {
            names += (names.empty() ? "" : ", ") + n;
        }
        return names;
    };
    throw ConfigError("--mpi=1 does not run " + refused +
                      " yet; allowed with --mpi: a point-to-point --workload (" +
                      NamesOf(WorkloadRegistry::POINT_TO_POINT) +
                      ") or none, with or without --background at --qp-sharing=pair, "
                      "or a collective --workload (" +
                      NamesOf(WorkloadRegistry::COLLECTIVE) +
                      ") alone (its iterations starting per rank), or --workload=training "
                      "--training with --ns3::TrainingEngine::IterationStart=per-rank, on RDMA, "
                      "without those flags");
}

void
RankRun::CheckEnvironment(const ScenarioConfig& c)
{
    if (!RankCoordinator::IsBuilt())
    {
        throw ConfigError("--mpi=1: this ai-fabric-sim was built without MPI support; allowed "
                          "only in a build configured with -DAI_FABRIC_MPI=ON after "
                          "./ai-fabric mpi-setup (doc/distributed.md)");
    }
    if (!RankCoordinator::IsEnabled())
    {
        throw ConfigError("--mpi=1: this process was not started by mpirun (no "
                          "OMPI_COMM_WORLD_SIZE or PMI_SIZE in its environment); run "
                          "mpirun -np N ai-fabric-sim --mpi ... or ./ai-fabric mpi N ...");
    }
    if (c.simulator != ScenarioConfig().simulator)
    {
        throw ConfigError("--simulator=" + c.simulator +
                          " does not apply with --mpi: the ranks run " +
                          RankCoordinator::GetEngineTypeName() + "; drop --simulator");
    }
    if (c.scheduler != "timing-wheel" && c.scheduler != "quaternary-heap")
    {
        throw ConfigError("--scheduler=" + c.scheduler +
                          " does not apply with --mpi: " + RankCoordinator::GetEngineTypeName() +
                          " orders equal-time events alike on every rank only with its own "
                          "event lists; allowed: timing-wheel, quaternary-heap");
    }
}

std::string
RankRun::Refused(const ScenarioConfig& c)
{
    // What a run across ranks cannot do yet: each needs state of several ranks at one
    // simulated time (doc/distributed.md, The scenario runner across ranks).
    const WorkloadRegistry::Family family =
        WorkloadRegistry::GetFamily(c.workload, c.gpusPerServer);
    const bool background = !c.background.empty() && c.background != "none";
    if (family == WorkloadRegistry::TRAINING && !c.chakra.empty())
    {
        return "--workload=" + c.workload +
               " --chakra (its steps wait for operations that finish on other ranks; "
               "allowed across ranks: --training with ns3::TrainingEngine::IterationStart "
               "per-rank)";
    }
    if (family == WorkloadRegistry::TRAINING && !TrainsPerRank(c))
    {
        return "--workload=" + c.workload +
               " with ns3::TrainingEngine::IterationStart barrier (its steps wait for "
               "operations that finish on other ranks; allowed across ranks: "
               "--ns3::TrainingEngine::IterationStart=per-rank)";
    }
    if (family == WorkloadRegistry::COLLECTIVE && c.iterations > 1 && !StartsIterationsPerRank(c))
    {
        return "--workload=" + c.workload + " --iterations=" + std::to_string(c.iterations) +
               " with iterations that start at a barrier (no rank sees the operation end; "
               "allowed across ranks: ns3::CollectiveApplication::IterationStart per-rank, "
               "its default)";
    }
    if ((family == WorkloadRegistry::COLLECTIVE || family == WorkloadRegistry::TRAINING) &&
        (background || !c.flows.empty()))
    {
        return "--workload=" + c.workload +
               " with --background or --flows (their messages share the collective's "
               "connections, whose receives are matched in advance only without them)";
    }
    if (c.GetTransport() == ScenarioConfig::Transport::TCP)
    {
        return "--transport=tcp (the TCP stack's objects are per process)";
    }
    if (!c.flows.empty())
    {
        return "--flows (its fct.txt is one file of one process)";
    }
    if (background && c.GetQpSharing() != ScenarioConfig::QpSharing::PAIR)
    {
        // A connection of its own per flow is released when the flow is done, which
        // only the sender's rank sees: the queue pair numbers would disagree.
        return "--background with --qp-sharing=" + c.qpSharing +
               " (allowed across ranks: --qp-sharing=pair)";
    }
    if (c.deadlockStallTime > Time(0) && c.deadlockStallTime != ScenarioConfig().deadlockStallTime)
    {
        // (its default means off with --mpi: summary.json mpi.deadlock_detector)
        return "--deadlock-stall-time=" + FormatTime(c.deadlockStallTime) +
               " (the detector sees one rank's queues; with --mpi it is off)";
    }
    if (c.pfcWatchdogDetect > Time(0))
    {
        return "--pfc-watchdog (its events are per rank)";
    }
    if (!c.linkFailures.empty() || !c.nodeFailures.empty() || !c.hostFailures.empty())
    {
        return "--link-failure / --node-failure / --host-failure (the routing's reaction is "
               "per rank)";
    }
    return "";
}

namespace
{

/**
 * The enum value of \p object's attribute IterationStart in run \p c: an --ns3::
 * override of it (applied later), else its default as a script set it.
 */
int
IterationStartOf(const ScenarioConfig& c, Ptr<Object> object)
{
    const TypeId tid = object->GetInstanceTypeId();
    const std::string name = tid.GetName() + "::IterationStart";
    for (const auto& [n, v] : c.attributes)
    {
        if (n == name)
        {
            TypeId::AttributeInformation info;
            tid.LookupAttributeByName("IterationStart", &info);
            Ptr<AttributeValue> value = info.checker->CreateValidValue(StringValue(v));
            const auto* e = dynamic_cast<const EnumValue*>(PeekPointer(value));
            return e ? e->Get() : -1;
        }
    }
    EnumValue current;
    object->GetAttribute("IterationStart", current);
    return current.Get();
}

} // namespace

bool
RankRun::TrainsPerRank(const ScenarioConfig& c)
{
    return IterationStartOf(c, CreateObject<TrainingEngine>()) == TrainingEngine::PER_RANK;
}

bool
RankRun::StartsIterationsPerRank(const ScenarioConfig& c)
{
    return IterationStartOf(c, CreateObject<CollectiveApplication>()) ==
           CollectiveApplication::PER_RANK;
}

void
RankRun::Partition(const TopologyGraph& graph)
{
    m_rank = RankCoordinator::GetRank();
    m_ranks = RankCoordinator::GetSize();
    try
    {
        m_partition = RankPartition::Partition(graph, m_ranks, m_config.mpiPartition);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError("--mpi-partition=" + m_config.mpiPartition + " over " +
                          std::to_string(m_ranks) + " ranks: " + e.what());
    }
    m_stats = RankPartition::GetStats(graph, m_partition);
    if (m_rank != 0)
    {
        return;
    }
    const RankPartition::Stats& st = m_stats;
    std::cout << "ai-fabric-sim: --mpi: " << m_ranks << " ranks on "
              << RankCoordinator::GetEngineTypeName() << ", partition " << m_config.mpiPartition
              << ", " << st.cutCables << " cables cut, lookahead "
              << (st.minCutDelayTicks < 0 ? std::string("none (no cable cut)")
                                          : FormatTime(Time(st.minCutDelayTicks)))
              << "\n";
    std::cout << "  " << m_config.mpiPartition << ": "
              << RankPartition::Describe(graph, m_config.mpiPartition) << "\n";
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        std::cout << "  rank " << r << ": " << st.nodes[r] << " nodes (" << st.hosts[r]
                  << " hosts), " << st.remoteCables[r] << " cables to other ranks\n";
    }
    std::cout << std::flush;
}

uint32_t
RankRun::GetRank() const
{
    return m_rank;
}

const std::vector<uint32_t>&
RankRun::GetPartition() const
{
    return m_partition;
}

std::string
RankRun::PartDirectory(uint32_t rank) const
{
    return (std::filesystem::path(m_config.out) / (".rank" + std::to_string(rank))).string();
}

void
RankRun::StartCompletionCheck(std::function<Progress()> progress, std::function<void()> done)
{
    m_progress = std::move(progress);
    m_done = std::move(done);
    Simulator::Schedule(NanoSeconds(kCompletionCheckIntervalNs), &RankRun::CompletionCheck, this);
}

void
RankRun::CompletionCheck()
{
    const Progress p = m_progress();
    const std::vector<uint64_t> sum =
        RankCoordinator::Sum({p.finishedMessages,
                              p.finishedFlows,
                              p.collective ? p.collective->GetCompletedTransfers() : 0,
                              p.finishedCollective,
                              p.finishedGpus,
                              p.pendingTraining});
    // (every rank posts every message; each finishes on its sender's rank, and each
    // collective transfer completes on its receiver's rank: the run ends when every
    // transfer completed and every message was acknowledged, as in one process)
    const bool flowsDone =
        !p.flows || (p.flows->AllPosted() && sum[1] >= p.flows->GetMessageCount());
    const bool collectiveDone = !p.collective || (sum[2] >= p.collective->GetTotalTransfers() &&
                                                  sum[3] >= p.collective->GetTotalTransfers());
    // training: every GPU ran every iteration and every message was acknowledged
    const bool trainingDone =
        !p.training || (sum[4] >= p.training->GetEngine()->GetModel().GetNRanks() && sum[5] == 0);
    if (sum[0] >= p.expectedMessages && flowsDone && collectiveDone && trainingDone)
    {
        m_done();
        return;
    }
    Simulator::Schedule(NanoSeconds(kCompletionCheckIntervalNs), &RankRun::CompletionCheck, this);
}

void
RankRun::Finish(bool complete,
                int64_t lastCompletionPs,
                const Progress& work,
                const TopologyGraph& graph,
                std::unique_ptr<OutputWriter>& writer)
{
    const Ptr<CollectiveWorkload> collective = work.collective;
    // The run ended at its last message (as in one process), not at the completion
    // check that found it: rows after it are not the run's.
    const std::vector<int64_t> last = RankCoordinator::Max(
        {lastCompletionPs, collective ? collective->GetLastCompletion().GetPicoSeconds() : -1});
    const int64_t end = std::max(last[0], last[1]);
    m_endPs = complete && end >= 0 ? end : Simulator::Now().GetPicoSeconds();
    writer->Close();
    RankCoordinator::Barrier(); // every rank's rows are on disk
    if (m_rank == 0)
    {
        writer = Merge(graph, m_endPs / 1000);
    }
    if (work.training)
    {
        GatherTraining(work.training);
    }
    if (!collective)
    {
        return;
    }
    if (complete && collective->IsPerRank())
    {
        // Each iteration from its earliest start to its latest end over the ranks (-1:
        // none; the earliest start as the largest of the negated ones).
        std::vector<int64_t> starts;
        std::vector<int64_t> ends;
        collective->GetRunTimes(starts, ends);
        for (int64_t& s : starts)
        {
            s = s >= 0 ? -s : INT64_MIN;
        }
        starts = RankCoordinator::Max(starts);
        ends = RankCoordinator::Max(ends);
        for (size_t i = 0; i < starts.size(); ++i)
        {
            starts[i] = starts[i] == INT64_MIN ? -1 : PicoSeconds(-starts[i]).GetNanoSeconds();
            ends[i] = ends[i] < 0 ? -1 : PicoSeconds(ends[i]).GetNanoSeconds();
        }
        collective->FinishRunsAcrossRanks(starts, ends);
    }
    else if (complete)
    {
        // Unless one rank holds every host, no rank saw the operation end: it
        // ended at its latest completion over the ranks.
        collective->FinishAcrossRanks(PicoSeconds(last[1]).GetNanoSeconds());
    }
    if (m_rank == 0)
    {
        for (const CollectiveRecord& r : collective->GetApplication()->GetRecords())
        {
            OutputCollectiveRow row = CollectiveWorkload::ToOutputRow(r);
            row.protocol = collective->GetProtocol();
            writer->AppendCollective(row);
        }
    }
}

void
RankRun::GatherTraining(Ptr<TrainingWorkload> training)
{
    Ptr<TrainingEngine> engine = training->GetEngine();
    engine->SetRankRecords(RankCoordinator::Max(engine->GetRankRecords()));
    // Every rank's durations of each kind of communication (its own GPUs' parts): their
    // counts summed, then each rank's placed at its offset and the maximum taken.
    const auto& stats = engine->GetCommStats();
    const uint32_t ranks = RankCoordinator::GetSize();
    const uint32_t me = RankCoordinator::GetRank();
    std::vector<uint64_t> counts(stats.size() * ranks, 0);
    for (size_t s = 0; s < stats.size(); ++s)
    {
        counts[s * ranks + me] = stats[s].durationsNs.size();
    }
    counts = RankCoordinator::Sum(counts);
    std::vector<uint64_t> offset(counts.size() + 1, 0);
    for (size_t i = 0; i < counts.size(); ++i)
    {
        offset[i + 1] = offset[i] + counts[i];
    }
    std::vector<int64_t> all(offset.back(), INT64_MIN);
    for (size_t s = 0; s < stats.size(); ++s)
    {
        std::copy(stats[s].durationsNs.begin(),
                  stats[s].durationsNs.end(),
                  all.begin() + static_cast<std::ptrdiff_t>(offset[s * ranks + me]));
    }
    all = RankCoordinator::Max(all);
    std::vector<std::vector<int64_t>> durations(stats.size());
    for (size_t s = 0; s < stats.size(); ++s)
    {
        durations[s].assign(all.begin() + static_cast<std::ptrdiff_t>(offset[s * ranks]),
                            all.begin() + static_cast<std::ptrdiff_t>(offset[(s + 1) * ranks]));
    }
    engine->SetCommDurations(durations);
}

std::unique_ptr<OutputWriter>
RankRun::Merge(const TopologyGraph& graph, int64_t endNs) const
{
    auto merged = std::make_unique<OutputWriter>(m_config.out);
    for (uint32_t node = 0; node < graph.GetNNodes(); ++node)
    {
        const auto& ports = graph.GetPorts(node);
        for (uint32_t port = 0; port < ports.size(); ++port)
        {
            const TopologyGraph::Port& p = ports[port];
            merged->AppendPort(node,
                               port,
                               graph.GetNodeName(node),
                               p.peer,
                               p.peerPort,
                               graph.GetNodeName(p.peer),
                               p.link);
        }
    }
    std::vector<std::string> parts;
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        parts.push_back(PartDirectory(r));
    }
    RankOutputMerger::Merge(parts, endNs, *merged);
    for (const std::string& dir : parts)
    {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    return merged;
}

int64_t
RankRun::GetEndPs() const
{
    return m_endPs;
}

void
RankRun::SumCounters(RdmaFabric::Counters& k) const
{
    // Every rank counts what its own nodes did; connections are made alike on every
    // rank, so their counts are one rank's.
    std::vector<uint64_t*> fields = {
        &k.losslessDrops,  &k.lossyDrops,        &k.pfcPausesSent,
        &k.pfcResumesSent, &k.creditUpdates,     &k.retransmittedPackets,
        &k.timeouts,       &k.ecnMarks,          &k.cnpsSent,
        &k.packetHops,     &k.txBytes,           &k.staleFrames,
        &k.qpCacheMisses,  &k.outOfOrderPackets, &k.spuriousRetransmissions,
        &k.linkDownDrops,  &k.pfcWatchdogDrops,  &k.stalledReceiveDrops,
        &k.readBytes,      &k.rnrNaks,           &k.rnrRetries,
        &k.qpErrors};
    std::vector<uint64_t> local;
    for (const uint64_t* f : fields)
    {
        local.push_back(*f);
    }
    const std::vector<uint64_t> sum = RankCoordinator::Sum(local);
    for (size_t i = 0; i < fields.size(); ++i)
    {
        *fields[i] = sum[i];
    }
}

nlohmann::json
RankRun::ToJson(double wallSeconds,
                uint64_t peakRssBytes,
                Ptr<CollectiveWorkload> collective,
                const TopologyGraph& graph) const
{
    const std::vector<double> walls = RankCoordinator::Gather(wallSeconds);
    const std::vector<double> events =
        RankCoordinator::Gather(static_cast<double>(Simulator::GetEventCount()));
    const std::vector<double> rss = RankCoordinator::Gather(static_cast<double>(peakRssBytes));
    const std::vector<double> held = RankCoordinator::Gather(
        collective ? static_cast<double>(collective->GetHeldTransfers()) : 0.0);
    const RankPartition::Stats& st = m_stats;
    nlohmann::json perRank = nlohmann::json::array();
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        perRank.push_back({{"rank", r},
                           {"nodes", st.nodes[r]},
                           {"hosts", st.hosts[r]},
                           {"cut_cables", st.remoteCables[r]},
                           {"events", static_cast<uint64_t>(events[r])},
                           {"wall_s", walls[r]},
                           {"peak_rss_bytes", static_cast<uint64_t>(rss[r])}});
        if (collective)
        {
            // the collective's transfers whose source or destination is on this rank
            perRank.back()["collective_transfers"] = static_cast<uint64_t>(held[r]);
        }
    }
    return {{"ranks", m_ranks},
            {"partition", m_config.mpiPartition},
            {"partition_detail", RankPartition::Describe(graph, m_config.mpiPartition)},
            {"engine", RankCoordinator::GetEngineTypeName()},
            {"cut_cables", st.cutCables},
            {"lookahead_ns",
             st.minCutDelayTicks < 0 ? nlohmann::json()
                                     : nlohmann::json(Time(st.minCutDelayTicks).GetNanoSeconds())},
            {"completion_check_interval_ns", kCompletionCheckIntervalNs},
            {"deadlock_detector", "off (it sees one rank's queues)"},
            {"per_rank", perRank}};
}

} // namespace ns3
