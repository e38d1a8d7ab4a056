/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_APPLICATION_H
#define COLLECTIVE_APPLICATION_H

#include "collective-algorithm.h"
#include "collective-metrics.h"
#include "communicator.h"

#include "ns3/callback.h"
#include "ns3/collective-transport.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Runs collective operations over one CollectiveTransport: the training
 * loop of a data-parallel job.
 *
 * Each job is one communicator with one operation and algorithm; it runs the
 * operation Iterations times, waiting ComputeGap (the compute phase) between the
 * end of one iteration and the start of the next: by default (IterationStart
 * "per-rank") each rank's end and start, in NCCL's stream order
 * (CollectiveAlgorithm::StartRuns); with "barrier" the whole operation's end. Jobs run concurrently
 * and may share ranks. The application owns the transport's callbacks and routes each completion by
 * its tag: bits 63..56 TagSpace | 55..44 job | 43..32 iteration mod 4096 | 31..0 transfer so
 * concurrent operations never confuse messages. Every finished operation yields a CollectiveRecord
 * (callback, trace source and GetRecords()).
 */
class CollectiveApplication : public Object
{
  public:
    /// Receives every finished operation.
    typedef Callback<void, const CollectiveRecord&> RecordCallback;
    /// Signature of the OperationFinished trace.
    typedef void (*RecordTracedCallback)(const CollectiveRecord& record);

    static TypeId GetTypeId();
    CollectiveApplication();
    ~CollectiveApplication() override;

    /// The transport whose callbacks this application takes over.
    void SetTransport(Ptr<CollectiveTransport> transport);
    Ptr<CollectiveTransport> GetTransport() const;

    /**
     * Adds a job running op with algorithm (see CollectiveAlgorithm::Create) on
     * comm, bytes per rank, Iterations and ComputeGap as currently set, starting
     * startOffset after Start(). Throws std::invalid_argument on an unknown
     * algorithm, an impossible shape or hosts the transport does not connect.
     * Returns the job index. With a transport set, the algorithm holds only the
     * transfers of the ranks whose hosts the transport sends from here
     * (CollectiveTransport::IsLocal; all of them in one process: see
     * CollectiveAlgorithm::Setup with local ranks).
     */
    uint32_t AddJob(const Communicator& comm,
                    CollectiveOp op,
                    const std::string& algorithm,
                    uint64_t bytes,
                    Time startOffset = Time(0));
    /// Same with an algorithm object configured by the caller (attributes set).
    uint32_t AddJob(const Communicator& comm,
                    Ptr<CollectiveAlgorithm> algorithm,
                    uint64_t bytes,
                    Time startOffset = Time(0));

    /// Schedules every job's first iteration (relative to now).
    void Start();
    /**
     * Start no further iteration: the ones running finish (and are recorded); a job
     * stopped before its last iteration is not finished (IsFinished stays false).
     * CollectiveRankApplication calls it at a rank's StopTime.
     */
    void Stop();
    /// \return true once Stop was called
    bool IsStopped() const;

    void SetRecordCallback(RecordCallback cb);
    const std::vector<CollectiveRecord>& GetRecords() const;
    uint32_t GetNJobs() const;
    Ptr<CollectiveAlgorithm> GetAlgorithm(uint32_t job) const;
    /// True when every job ran all its iterations.
    bool IsFinished() const;

    /**
     * Across MPI ranks: record, for each job whose operation is running, that it ended
     * at \p endNs, the latest completion over the ranks (no rank sees every transfer
     * complete, so none ends it itself). The scenario runner calls it after the run, with
     * one iteration per job.
     */
    void FinishAcrossRanks(int64_t endNs);

    /// When a job's next iteration starts (attribute IterationStart)
    enum IterationStart
    {
        PER_RANK, //!< each rank when its own part of the previous one is done (NCCL)
        BARRIER,  //!< every rank when the whole previous one ended
    };

    /**
     * \param job a job
     * \return whether its iterations start per rank (IterationStart PER_RANK, more than one
     * iteration, an algorithm that posts on the application's transport)
     */
    bool IsPerRank(uint32_t job) const;
    /**
     * Across MPI ranks, a job whose iterations start per rank: record every iteration, from
     * the earliest start over the ranks (or the previous iteration's end, if later) to the
     * latest end over the ranks (no rank sees them all).
     * \param job the job
     * \param startNs per iteration, the earliest start over the ranks (-1: none)
     * \param endNs per iteration, the latest end over the ranks
     */
    void FinishRunsAcrossRanks(uint32_t job,
                               const std::vector<int64_t>& startNs,
                               const std::vector<int64_t>& endNs);

    /// The tag layout above (iteration taken mod 4096).
    static uint64_t MakeTagBase(uint8_t space, uint32_t job, uint32_t iteration);

  protected:
    void DoDispose() override;

  private:
    struct Job
    {
        Ptr<CollectiveAlgorithm> algorithm;
        uint32_t iterations{1};
        Time gap;
        Time startOffset;
        uint32_t iteration{0}; //!< current (or next) iteration
        int64_t startNs{0};
        uint64_t opId{0};
        bool finished{false};
        bool perRank{false};   //!< IsPerRank
        int64_t lastEndNs{-1}; //!< per rank: the end of its last recorded iteration
    };

    void CheckHosts(const Communicator& comm) const;
    void StartIteration(uint32_t job);
    void IterationDone(uint64_t tagBase);
    /// A per-rank job's run ended at every host of this process (one process: everywhere)
    void RunDone(uint32_t job, uint32_t run);
    /// Record job \p job's current iteration as ended at \p endNs (its row, the trace,
    /// the record callback) and count it.
    void RecordIteration(uint32_t job, int64_t endNs);
    void OnDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void OnSent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);

    uint32_t m_iterations;                     //!< attribute Iterations
    Time m_computeGap;                         //!< attribute ComputeGap
    uint8_t m_tagSpace;                        //!< attribute TagSpace
    IterationStart m_iterationStart{PER_RANK}; //!< attribute IterationStart
    bool m_stopped{false};                     //!< Stop was called: no further iteration starts
    Ptr<CollectiveTransport> m_transport;
    std::vector<Job> m_jobs;
    uint64_t m_nextOpId{0};
    std::vector<CollectiveRecord> m_records;
    RecordCallback m_recordCb;
    TracedCallback<const CollectiveRecord&> m_finishedTrace;
};

} // namespace ns3

#endif // COLLECTIVE_APPLICATION_H
