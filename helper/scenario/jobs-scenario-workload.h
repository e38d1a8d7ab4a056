/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOBS_SCENARIO_WORKLOAD_H
#define JOBS_SCENARIO_WORKLOAD_H

#include "job-set.h"
#include "scenario-workload.h"

#include "ns3/chakra-workload.h"
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
    /// A job's state (summary.json "jobs" "state").
    enum class State
    {
        RUNNING,    //!< no failure hit it (complete once its workload finished)
        STOPPED,    //!< a host it ran on failed: it ended there
        RESTARTING, //!< a host it ran on failed: waiting for its restart delay
        RESTARTED,  //!< started again on a free host, from its last finished iteration
    };

    /// One placed job and what runs it.
    struct Job
    {
        JobSpec spec;
        uint32_t index{0};                               //!< its position in the file
        uint8_t trafficClass{0};                         //!< the class it runs in
        Ptr<TrainingWorkload> training;                  //!< a training job's
        Ptr<CollectiveWorkload> collective;              //!< a collective job's
        Ptr<ChakraWorkload> chakra;                      //!< a Chakra trace job's
        bool pattern{false};                             //!< a point-to-point pattern job
        PointToPointPattern messages;                    //!< the pattern's messages (job hosts)
        uint32_t iterations{1};                          //!< the pattern's rounds
        std::unordered_set<uint64_t> pending;            //!< the current round's message ids
        int64_t roundStartNs{0};                         //!< when the current round was posted
        std::vector<std::pair<int64_t, int64_t>> rounds; //!< finished rounds (start, end)
        std::vector<int64_t> aloneNs;     //!< its iterations alone (empty: not measured)
        State state{State::RUNNING};      //!< what a host failure did to it
        int64_t failedNs{-1};             //!< its first queue pair error (-1: none)
        int64_t restartedNs{-1};          //!< when it started again (-1: not)
        uint32_t failedHost{UINT32_MAX};  //!< the failed host it lost
        uint32_t replacement{UINT32_MAX}; //!< the free host that took its place
        /// (start, end) of the iterations it finished before it restarted
        std::vector<std::pair<int64_t, int64_t>> before;
    };

    /// \return (start, end) of each finished iteration of \p job, ns
    static std::vector<std::pair<int64_t, int64_t>> Iterations(const Job& job);
    /// Have the fabric's manager give every job's hosts the job's partition (P_Key).
    void AssignPartitions(const std::vector<JobSpec>& specs, const ScenarioConfig& c);
    /// Put \p job's connections in its traffic class.
    void SetClass(const Job& job, const ScenarioConfig& c);
    /// Install \p job's workload on \p ctx's fabric.
    void InstallJob(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// The training workload's options of a training or trace job: \p file (its model
    /// or trace prefix) with the job's iterations, algorithm and hosts.
    static TrainingWorkload::Options TrainingOptions(const JobSpec& s,
                                                     const std::string& file,
                                                     const ScenarioConfig& c);
    /// Install training job \p job (TrainingWorkload on its hosts).
    void InstallTraining(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Install Chakra trace job \p job (ChakraWorkload on its hosts).
    void InstallChakra(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Install point-to-point pattern job \p job (its rounds: PostRound).
    void InstallPattern(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Install collective job \p job (CollectiveWorkload on its hosts).
    void InstallCollective(Job& job, const ScenarioConfig& c, const Context& ctx);
    /// Post the next round of pattern job \p index's messages (its iteration)
    void PostRound(uint32_t index);

    /// With --host-failure: hear every queue pair error of the jobs' hosts.
    void WatchQueuePairs();
    /// A queue pair of a job's host entered the error state: the job's communicator
    /// aborts (NCCL does), once per job.
    void OnQueuePairError(Ptr<const RdmaQueuePair> qp, uint64_t flushed);
    /// Start job \p index again after its failure (OnFailure::RESTART).
    void Restart(uint32_t index);
    /// \return whether job \p j's workload finished all its iterations
    static bool IsComplete(const Job& j);
    /// \return the name of \p job's state (complete, incomplete, stopped, ...)
    static std::string StateName(const Job& job);

    std::vector<Job> m_jobs;                 //!< the jobs this run runs
    std::vector<uint32_t> m_jobOfHost;       //!< m_jobs index by host (UINT32_MAX: none)
    std::vector<bool> m_taken;               //!< hosts placed in any job of the file
    const ScenarioConfig* m_config{nullptr}; //!< (restarts)
    Context m_ctx{};                         //!< (restarts)
    std::vector<Ptr<Object>> m_retired;      //!< workloads a failure ended (disposed last)
    Ptr<RdmaFabric> m_fabric;                //!< (partition counters)
    bool m_partitions{false};                //!< a job has a partition
    ScenarioConfig::Verb m_verb{ScenarioConfig::Verb::WRITE}; //!< --verb of pattern jobs
};

} // namespace ns3

#endif // JOBS_SCENARIO_WORKLOAD_H
