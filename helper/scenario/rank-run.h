/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANK_RUN_H
#define RANK_RUN_H

#include "scenario-config.h"

#include "ns3/collective-workload.h"
#include "ns3/flow-workload.h"
#include "ns3/ptr.h"
#include "ns3/rank-partition.h"
#include "ns3/rdma-fabric.h"
#include "ns3/training-workload.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class OutputWriter;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief The scenario runner's hooks for a run across MPI ranks (--mpi, doc/distributed.md):
 * what such a run refuses, the graph's partition over the ranks, the completion check
 * across them, the merge of the ranks' rows into --out and summary.json's "mpi".
 *
 * The runner makes one when --mpi is given and calls it at each of those points; every
 * rank calls the same collective operations (RankCoordinator) in the same order.
 */
class RankRun
{
  public:
    /// This rank's progress, read at every completion check.
    struct Progress
    {
        uint64_t expectedMessages{0};       //!< point-to-point messages of the workload
        uint64_t finishedMessages{0};       //!< point-to-point messages finished here
        uint64_t finishedFlows{0};          //!< background and flow-file messages finished here
        uint64_t finishedCollective{0};     //!< collective messages acknowledged here
        Ptr<FlowWorkload> flows;            //!< the flows (null without)
        Ptr<CollectiveWorkload> collective; //!< the collective (null without)
        Ptr<TrainingWorkload> training;     //!< the training, per rank (null without)
        uint64_t finishedGpus{0};           //!< its GPUs here that ran every iteration
        uint64_t pendingTraining{0};        //!< its messages posted here, not yet acknowledged
    };

    /// \param config the runner's configuration (kept by reference: it outlives this)
    explicit RankRun(const ScenarioConfig& config);

    /**
     * Refuse what a run across ranks cannot do (yet), naming the flag and what is allowed.
     * \param c the configuration (nothing is checked without --mpi)
     * \throws ConfigError
     */
    static void Check(const ScenarioConfig& c);

    /// The graph's partition over the ranks (--mpi-partition), printed by rank 0.
    /// \throws ConfigError when the partition method refuses the graph
    void Partition(const TopologyGraph& graph);
    /// \return this process's rank
    uint32_t GetRank() const;
    /// \return the rank of each graph node
    const std::vector<uint32_t>& GetPartition() const;
    /// \return the folder where \p rank writes its rows (merged by rank 0, then removed)
    std::string PartDirectory(uint32_t rank) const;

    /**
     * Every kCompletionCheckIntervalNs (at the same times on every rank): sum the ranks'
     * progress; once every message finished, call \p done (which stops the run).
     * \param progress this rank's progress
     * \param done called once, on every rank alike
     */
    void StartCompletionCheck(std::function<Progress()> progress, std::function<void()> done);

    /**
     * After Simulator::Run: the run's end over the ranks, the ranks' rows merged into
     * --out by rank 0 (\p writer becomes the merged one there), the collective's end and
     * its collective.csv rows, a training's records (GatherTraining).
     * \param complete whether every rank's work finished
     * \param lastCompletionPs the latest message end seen on this rank, ps (-1: none)
     * \param work the workloads (their collective and training; null without)
     * \param graph the topology (topology.csv of the merged files)
     * \param writer this rank's writer (closed); rank 0: replaced by the merged one
     */
    void Finish(bool complete,
                int64_t lastCompletionPs,
                const Progress& work,
                const TopologyGraph& graph,
                std::unique_ptr<OutputWriter>& writer);
    /**
     * In Finish, on every rank: every GPU's iteration records of \p training (per rank)
     * from the rank that simulates it (the element-wise maximum of
     * TrainingEngine::GetRankRecords), so rank 0 writes every row of training.csv, and
     * every rank's durations of each kind of communication (summary.json's).
     */
    static void GatherTraining(Ptr<TrainingWorkload> training);
    /// \return the run's end over every rank (sim_time_s), ps (after Finish)
    int64_t GetEndPs() const;

    /// Sum the ranks' counters of what their nodes did (connections, made alike on every
    /// rank, stay one rank's count).
    void SumCounters(RdmaFabric::Counters& k) const;

    /**
     * summary.json's "mpi": partition, per-rank events, wall time and memory.
     * \param wallSeconds this rank's wall time
     * \param peakRssBytes this rank's peak resident memory
     * \param collective the collective (null without)
     * \param graph the topology
     */
    nlohmann::json ToJson(double wallSeconds,
                          uint64_t peakRssBytes,
                          Ptr<CollectiveWorkload> collective,
                          const TopologyGraph& graph) const;

    /// Simulated time between two completion checks across the ranks (each an
    /// MPI_Allreduce); a run ends at most this long after its last message (the outputs
    /// and summary.json end at the last message, as in one process)
    static constexpr int64_t kCompletionCheckIntervalNs = 10'000;

  private:
    /// --mpi=1 refused by the build, the launch, --simulator or --scheduler
    static void CheckEnvironment(const ScenarioConfig& c);
    /// \return what of \p c a run across ranks cannot do yet ("" = nothing)
    static std::string Refused(const ScenarioConfig& c);
    /// \return whether collective iterations start per rank (CollectiveApplication
    /// IterationStart: \p c's --ns3:: value, else its default), as a run across ranks needs
    static bool StartsIterationsPerRank(const ScenarioConfig& c);
    /// \return whether training runs per rank (TrainingEngine IterationStart: \p c's
    /// --ns3:: value, else its default), as a run across ranks needs
    static bool TrainsPerRank(const ScenarioConfig& c);
    /// One completion check (StartCompletionCheck)
    void CompletionCheck();
    /// The merged files of every rank's part into --out (rank 0)
    std::unique_ptr<OutputWriter> Merge(const TopologyGraph& graph, int64_t endNs) const;

    const ScenarioConfig& m_config;
    uint32_t m_rank{0};                   //!< this process's rank
    uint32_t m_ranks{1};                  //!< the number of ranks
    std::vector<uint32_t> m_partition;    //!< rank of each graph node
    RankPartition::Stats m_stats;         //!< nodes, hosts, cut cables per rank
    std::function<Progress()> m_progress; //!< StartCompletionCheck
    std::function<void()> m_done;         //!< StartCompletionCheck
    int64_t m_endPs{-1};                  //!< the run's end over every rank, ps
};

} // namespace ns3

#endif // RANK_RUN_H
