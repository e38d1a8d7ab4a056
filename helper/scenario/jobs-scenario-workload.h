/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOBS_SCENARIO_WORKLOAD_H
#define JOBS_SCENARIO_WORKLOAD_H

#include "job-set.h"
#include "scenario-workload.h"

#include "ns3/collective-workload.h"
#include "ns3/training-workload.h"
#include "ns3/workload-registry.h"

#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The runner's shared-cluster workload (--workload=jobs --jobs=FILE): each job
 * of the file (JobSet) placed on its hosts, in its traffic class (RdmaFabric::
 * SetPairClass) and partition (RdmaFabric::AssignPartitions), running its training
 * model (TrainingWorkload) or collective loop (CollectiveWorkload) from its start time.
 * Outputs summary.json "jobs" and jobs.csv (one row per job iteration), with each
 * iteration's slowdown against the same job alone, which RunBaselines measures by
 * running the configuration once more per job with only that job (doc/jobs.md).
 */
class JobsScenarioWorkload : public ScenarioWorkload
{
  public:
    /// jobs.csv's header line
    static constexpr const char* CSV_HEADER =
        "job,name,iteration,start_ns,end_ns,iteration_ns,alone_iteration_ns,slowdown";

    /**
     * With --jobs and --jobs-baseline (and not in a baseline run): check the jobs file
     * and its placement, then run \p c once per job with that job alone (jobOnly; its
     * outputs in a temporary folder, removed) and keep each job's iteration times in
     * \p c.jobBaselineNs. Before the run of \p c (the simulator is process-global).
     * \throws ConfigError naming the job and field of a bad jobs file, or a baseline's
     */
    static void RunBaselines(ScenarioConfig& c);

    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp) override;
    void AddSummary(nlohmann::json& s) const override;
    void WriteFiles(OutputWriter& writer) override;
    void Dispose() override;

  private:
    /// One placed job and what runs it.
    struct Job
    {
        JobSpec spec;
        uint32_t index{0};                               //!< its position in the file
        uint8_t trafficClass{0};                         //!< the class it runs in
        Ptr<TrainingWorkload> training;                  //!< a training job's
        Ptr<CollectiveWorkload> collective;              //!< a collective job's
        bool pattern{false};                             //!< a point-to-point pattern job
        PointToPointPattern messages;                    //!< the pattern's messages (job hosts)
        uint32_t iterations{1};                          //!< the pattern's rounds
        std::unordered_set<uint64_t> pending;            //!< the current round's message ids
        int64_t roundStartNs{0};                         //!< when the current round was posted
        std::vector<std::pair<int64_t, int64_t>> rounds; //!< finished rounds (start, end)
        std::vector<int64_t> aloneNs; //!< its iterations alone (empty: not measured)
    };

    /// \return (start, end) of each finished iteration of \p job, ns
    static std::vector<std::pair<int64_t, int64_t>> Iterations(const Job& job);
    /// Have the fabric's manager give every job's hosts the job's partition (P_Key).
    void AssignPartitions(const std::vector<JobSpec>& specs, const ScenarioConfig& c);
    /// Put \p job's connections in its traffic class.
    void SetClass(const Job& job, const ScenarioConfig& c);
    /// Install \p job's workload on \p ctx's fabric.
    void InstallJob(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Install training job \p job (TrainingWorkload on its hosts).
    void InstallTraining(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Install point-to-point pattern job \p job (its rounds: PostRound).
    void InstallPattern(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Install collective job \p job (CollectiveWorkload on its hosts).
    void InstallCollective(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Post the next round of pattern job \p index's messages (its iteration)
    void PostRound(uint32_t index);

    std::vector<Job> m_jobs;                                  //!< the jobs this run runs
    Ptr<RdmaFabric> m_fabric;                                 //!< (partition counters)
    bool m_partitions{false};                                 //!< a job has a partition
    ScenarioConfig::Verb m_verb{ScenarioConfig::Verb::WRITE}; //!< --verb of pattern jobs
};

} // namespace ns3

#endif // JOBS_SCENARIO_WORKLOAD_H
