/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_ENGINE_H
#define TRAINING_ENGINE_H

#include "collective-instance-pool.h"
#include "training-model.h"

#include "ns3/callback.h"
#include "ns3/collective-transport.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Runs the iterations of a TrainingModel over a CollectiveTransport: each
 * GPU (transport rank) executes a program of compute steps (timed waits), issues
 * of communications (non-blocking) and waits for them.
 *
 * Rank layout (Megatron-LM's default order, tensor parallel fastest): rank =
 * t + TP (d + DP s) for TP rank t, data-parallel replica d and pipeline stage s, so
 * a TP group is TP consecutive ranks (one server's GPUs), a DP group takes the same
 * (t, s) in every replica and an EP group EP consecutive replicas.
 *
 * Per microbatch, stage s runs the 1F1B schedule of Megatron-LM (non-interleaved):
 * min(PP - s - 1, M) warm-up forwards, then one forward and one backward
 * alternately, then the remaining backwards. A forward waits for the previous
 * stage's activation (a point-to-point send of ppBytes), runs each layer's compute
 * and then its communications (issue and wait: TP allreduces and EP all-to-alls
 * block the layer), and sends its output to the next stage without waiting. A
 * backward waits for the next stage's gradient, and per layer in reverse runs the
 * input-gradient compute, issues its communications, runs the weight-gradient
 * compute and then waits for them (the input-gradient allreduce overlaps the
 * weight-gradient compute, as Megatron-LM's asynchronous tensor-parallel
 * allreduce), and sends the gradient to the previous stage.
 *
 * Data-parallel gradients: during the last microbatch's backward the gradient
 * collectives of the DP group are packed into buckets of at most BucketBytes (in
 * backward order; 0 = a bucket per layer, as ASTRA-sim issues them) and a bucket
 * is issued when its last layer's weight gradient is computed (overlap on) or all
 * buckets after the whole backward (overlap off). The iteration then waits for
 * each bucket in order and runs its layers' update compute.
 *
 * An iteration ends when every GPU finished its program; the next one starts then
 * on every GPU (a synchronous step). For every GPU it records the compute time and
 * the time it waited on each parallelism's communication: a GPU's program time is
 * exactly compute + waits (the exposed communication, ASTRA-sim's definition:
 * time not spent computing), which the tests check.
 *
 * IterationStart per-rank (what a run across MPI ranks needs; CollectiveInstancePool
 * PlanPerRank): a GPU starts its part of a collective when it issues it (after its
 * part of the group's previous operation, NCCL's stream order), its wait ends when its
 * own part is done, a pipeline receive's when the message was delivered, and it starts
 * its next iteration when its own program ended. An iteration's record then runs from
 * the earliest GPU's start to the latest GPU's end, and each GPU's finishNs counts from
 * that start. A collective's duration (CommStats) is then one GPU's part, from its issue
 * to its own end; a send's, from its issue to its acknowledgement (both seen where the
 * sender is simulated).
 */
class TrainingEngine : public Object
{
  public:
    /// Per GPU and iteration.
    struct RankRecord
    {
        int64_t computeNs{0};            //!< sum of the compute steps
        std::array<int64_t, 4> waitNs{}; //!< waiting, by TrainingParallelism
        int64_t finishNs{0};             //!< program end, from the iteration start
    };

    /// One iteration.
    struct IterationRecord
    {
        uint32_t iteration{0};
        int64_t startNs{0}; //!< absolute
        int64_t endNs{0};   //!< absolute: the last GPU finished
        std::vector<RankRecord> ranks;
    };

    /// One kind of communication (parallelism, operation, phase, bytes): its runs.
    struct CommStats
    {
        TrainingParallelism parallelism{TrainingParallelism::TP};
        std::string operation;            //!< allreduce, ..., send
        std::string phase;                //!< forward, input_grad, weight_grad, pipeline
        uint64_t bytes{0};                //!< per rank
        uint32_t ranks{0};                //!< group size
        std::vector<int64_t> durationsNs; //!< from start (all ranks issued) to end
    };

    /**
     * Signature of the Interval trace: a GPU computed (state 0) or waited on the
     * communication of parallelism state - 1 (TrainingParallelism) from startNs to
     * endNs (absolute) in an iteration.
     */
    typedef void (*IntervalTracedCallback)(uint32_t iteration,
                                           uint32_t rank,
                                           uint8_t state,
                                           int64_t startNs,
                                           int64_t endNs);

    /// Attribute IterationStart
    enum IterationStartMode
    {
        BARRIER,  //!< a collective starts when every member issued it; iterations together
        PER_RANK, //!< every GPU on its own (see above)
    };

    static TypeId GetTypeId();
    TrainingEngine();
    ~TrainingEngine() override;

    /**
     * Build the GPU programs of a resolved model (TrainingModel::Resolve) on a
     * transport of at least model.GetNRanks() ranks. Throws std::invalid_argument
     * on a transport too small or an algorithm the operation does not have.
     */
    void Setup(const TrainingModel& model, Ptr<CollectiveTransport> transport);
    /// Start the first iteration now.
    void Start();
    /// Called (once, in its own event) when the last iteration ended.
    void SetFinishedCallback(Callback<void> cb);
    bool IsFinished() const;

    const TrainingModel& GetModel() const;
    const std::vector<IterationRecord>& GetIterations() const;
    const std::vector<CommStats>& GetCommStats() const;
    /// Pipeline stage of a rank.
    uint32_t GetStage(uint32_t rank) const;
    /// Steps of a rank's program (compute, issue, wait).
    uint32_t GetProgramSize(uint32_t rank) const;
    /// \return whether IterationStart is per-rank
    bool IsPerRank() const;
    /**
     * Per rank: every GPU's iterations, RANK_RECORD_FIELDS numbers per (iteration, GPU),
     * iteration-major: start, end (absolute), compute, the four waits (ns); INT64_MIN for
     * a GPU this process does not simulate. A run across MPI ranks takes the element-wise
     * maximum over the ranks and gives it to SetRankRecords.
     */
    std::vector<int64_t> GetRankRecords() const;
    /// Per rank: rebuild the iterations (GetIterations) from every GPU's records: those
    /// every GPU ended, in order.
    void SetRankRecords(const std::vector<int64_t>& records);
    /// Numbers per (iteration, GPU) of GetRankRecords.
    static constexpr uint32_t RANK_RECORD_FIELDS = 7;
    /// Per rank: replace every CommStats' durations (GetCommStats order), e.g. by every
    /// process's, merged after a run across MPI ranks.
    void SetCommDurations(const std::vector<std::vector<int64_t>>& durations);
    /// \return the GPUs of this process that ran every iteration (per rank)
    uint32_t GetFinishedGpus() const;

  protected:
    void DoDispose() override;

  private:
    enum StepKind : uint8_t
    {
        COMPUTE,
        ISSUE,
        WAIT
    };

    struct Step
    {
        StepKind kind;
        uint32_t op; //!< ISSUE/WAIT: the communication
        int64_t ns;  //!< COMPUTE: duration
    };

    /// One communication of an iteration: a collective on a group or a send.
    struct Op : CollectiveInstancePool::Operation
    {
        TrainingParallelism parallelism{TrainingParallelism::TP};
        uint32_t participants{1};
        uint32_t stats{0}; //!< index into m_stats
        // per iteration
        uint32_t issued{0};
        bool done{false};
        int64_t startNs{0};
        int32_t instance{-1};
        std::vector<uint32_t> waiters;
    };

    struct RankState
    {
        uint32_t pc{0};
        int64_t waitSinceNs{0};
        RankRecord rec;
        bool finished{false};
        // per rank
        uint32_t iteration{0};
        int64_t startNs{0}; //!< its iteration's start (absolute)
        int32_t waitOp{-1}; //!< the operation it waits for
    };

    void BuildPrograms();
    uint32_t CollectiveOpIndex(const std::string& key,
                               const TrainingComm& c,
                               const std::string& phase,
                               uint32_t rank);
    uint32_t SendOpIndex(const std::string& key,
                         uint32_t src,
                         uint32_t dst,
                         uint64_t bytes,
                         const std::string& phase);
    uint32_t StatsIndex(TrainingParallelism p,
                        const std::string& operation,
                        const std::string& phase,
                        uint64_t bytes,
                        uint32_t ranks);
    std::vector<uint32_t> GroupOf(TrainingParallelism p, uint32_t rank) const;

    void StartIteration();
    void Advance(uint32_t rank);
    void Issue(uint32_t opIndex);
    void StartOp(uint32_t opIndex);
    void OpDone(uint32_t opIndex);
    void EndIteration();
    /// Per rank: GPU \p rank's part of \p opIndex ended
    void OnRankOpDone(uint32_t rank, uint32_t opIndex);
    /// Per rank: the send \p opIndex of \p rank was acknowledged
    void OnSendAcked(uint32_t rank, uint32_t opIndex);
    /// Per rank: \p rank ended its program
    void EndRankIteration(uint32_t rank);
    /// Per rank: the finished callback, in its own event
    void NotifyFinished();

    // attributes
    uint32_t m_iterations;
    std::string m_algorithm;
    uint32_t m_chunkBytes;
    uint32_t m_channels;
    uint32_t m_gpusPerServer{0}; //!< attribute GpusPerServer (0: one-NIC hosts)
    bool m_pxn{true};            //!< attribute Pxn
    DataRate m_nicRate;          //!< attribute NicRate (0: Channels for every collective)
    uint8_t m_tagSpace;

    TrainingModel m_model;
    Ptr<CollectiveInstancePool> m_pool; //!< transport, communicators, algorithm objects
    uint32_t m_nRanks{0};
    std::vector<std::vector<Step>> m_programs;
    std::vector<Op> m_ops;
    std::map<std::string, uint32_t> m_opIndex;
    std::vector<CommStats> m_stats;
    std::map<std::string, uint32_t> m_statsIndex;

    std::vector<RankState> m_ranks;
    uint32_t m_finishedRanks{0};
    uint32_t m_iteration{0};
    int64_t m_iterationStartNs{0};
    bool m_running{false};
    bool m_finished{false};
    std::vector<IterationRecord> m_records;
    Callback<void> m_finishedCb;
    TracedCallback<uint32_t, uint32_t, uint8_t, int64_t, int64_t> m_intervalTrace;

    // per rank (IterationStart per-rank)
    IterationStartMode m_iterationStart{BARRIER};   //!< attribute IterationStart
    std::vector<uint32_t> m_doneCount;              //!< per (GPU, op): its parts ended
    std::vector<int64_t> m_issueNs;                 //!< per (GPU, op): its last issue
    std::vector<std::deque<int64_t>> m_sendIssueNs; //!< per op (send): issues not delivered
    std::vector<int64_t> m_rankRecords;             //!< see GetRankRecords
    std::vector<uint32_t> m_iterationGpus;          //!< per iteration: GPUs here that ended it
    uint32_t m_localGpus{0};                        //!< GPUs this process simulates
    uint32_t m_finishedGpus{0};                     //!< of them, done with every iteration
};

} // namespace ns3

#endif // TRAINING_ENGINE_H
