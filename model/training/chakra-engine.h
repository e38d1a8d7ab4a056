/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_ENGINE_H
#define CHAKRA_ENGINE_H

#include "chakra-trace.h"
#include "collective-instance-pool.h"

#include "ns3/callback.h"
#include "ns3/collective-transport.h"
#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Runs a ChakraTrace over a CollectiveTransport: each rank's node graph is one
 * iteration of that rank (transport rank = trace rank).
 *
 * A node starts once every node of its data_deps finished (ctrl_deps, the calling operator
 * in traces converted from PyTorch, order nothing: Chakra's own feeder for ASTRA-sim
 * resolves data_deps only):
 * - COMP: the rank's GPU (or, is_cpu_op, its CPU) is busy for its duration; a processor
 *   runs one node at a time, the ready node of the lowest id first (as ASTRA-sim's
 *   Chakra feeder hands out dependency-free nodes);
 * - COMM_COLL: the rank issues its part; the collective of its process group starts when
 *   every member issued it (the k-th collective of a group on every member is one
 *   operation, as NCCL matches calls on a communicator), on the module's collective
 *   algorithms exactly as TrainingEngine runs them (AllreduceAlgorithm for allreduce,
 *   ring for reduce-scatter and all-gather, pairwise for all-to-all, the registry's
 *   default for broadcast and reduce; ChunkBytes, Channels, GpusPerServer, Pxn, NicRate);
 *   the node finishes with the collective on every member;
 * - COMM_SEND: the message is posted at once (eager) and the node finishes when it was
 *   delivered; COMM_RECV finishes when the matched message was delivered and its own
 *   dependencies finished;
 * - METADATA: finishes at once.
 *
 * An iteration ends when every node of every rank finished; the next starts then on
 * every rank (a synchronous step).
 */
class ChakraEngine : public Object
{
  public:
    /// One iteration.
    struct IterationRecord
    {
        uint32_t iteration{0};
        int64_t startNs{0};                //!< absolute
        int64_t endNs{0};                  //!< absolute: the last node finished
        std::vector<int64_t> gpuComputeNs; //!< per rank: GPU compute time
        std::vector<int64_t> finishNs;     //!< per rank: its last node's end, from the start
    };

    /// One kind of collective (operation, group size, bytes): its runs.
    struct CommStats
    {
        std::string operation;            //!< allreduce, ..., send
        uint64_t bytes{0};                //!< per rank
        uint32_t ranks{0};                //!< group size (2 for a send)
        std::vector<int64_t> durationsNs; //!< from start (all members issued) to end
    };

    static TypeId GetTypeId();
    ChakraEngine();
    ~ChakraEngine() override;

    /**
     * Prepare a checked trace on a transport of at least trace.GetNRanks() ranks. Throws
     * std::invalid_argument on a transport too small or an algorithm the operation lacks.
     */
    void Setup(const ChakraTrace& trace, Ptr<CollectiveTransport> transport);
    /// Start the first iteration now.
    void Start();
    /// Called when the last iteration ended.
    void SetFinishedCallback(Callback<void> cb);
    bool IsFinished() const;
    const std::vector<IterationRecord>& GetIterations() const;
    const std::vector<CommStats>& GetCommStats() const;
    const ChakraTrace& GetTrace() const;

  protected:
    void DoDispose() override;

  private:
    /// A communication: a collective (every member's node) or a matched send/receive.
    struct Op : CollectiveInstancePool::Operation
    {
        uint32_t participants{0};
        uint32_t stats{0};
        std::vector<std::pair<uint32_t, uint32_t>> nodes; //!< (rank, node index) it finishes
        // per iteration
        uint32_t issued{0};
        bool done{false};
        int64_t startNs{0};
        int32_t instance{-1};
    };

    /// A node as run.
    struct NodeState
    {
        uint32_t op{0};                 //!< COLLECTIVE, SEND, RECV: its Op
        std::vector<uint32_t> children; //!< nodes depending on it
        uint32_t nDeps{0};              //!< its dependencies
        // per iteration
        uint32_t pending{0};
        bool started{false};
        bool done{false};
    };

    struct RankState
    {
        std::vector<NodeState> nodes;
        std::set<std::pair<uint64_t, uint32_t>> ready[2]; //!< (id, index): GPU, CPU
        bool busy[2]{false, false};
        uint32_t remaining{0};
        int64_t gpuComputeNs{0};
        int64_t finishNs{0};
    };

    uint32_t StatsIndex(const std::string& operation, uint64_t bytes, uint32_t ranks);
    void StartIteration();
    void Ready(uint32_t rank, uint32_t node);
    void RunProcessor(uint32_t rank, uint8_t processor);
    void ComputeDone(uint32_t rank, uint32_t node);
    void NodeDone(uint32_t rank, uint32_t node);
    void StartOp(uint32_t opIndex);
    void OpDone(uint32_t opIndex);
    void EndIteration();

    // attributes (TrainingEngine's, so that a trace and a model run alike)
    uint32_t m_iterations;
    std::string m_algorithm;
    uint32_t m_chunkBytes;
    uint32_t m_channels;
    uint32_t m_gpusPerServer{0};
    bool m_pxn{true};
    DataRate m_nicRate;
    uint8_t m_tagSpace;

    ChakraTrace m_trace;
    Ptr<CollectiveInstancePool> m_pool; //!< transport, communicators, algorithm objects
    std::vector<Op> m_ops;
    std::vector<CommStats> m_stats;
    std::map<std::string, uint32_t> m_statsIndex;
    std::vector<RankState> m_ranks;
    uint32_t m_remainingRanks{0};
    uint32_t m_iteration{0};
    int64_t m_iterationStartNs{0};
    bool m_finished{false};
    std::vector<IterationRecord> m_records;
    Callback<void> m_finishedCb;
};

} // namespace ns3

#endif // CHAKRA_ENGINE_H
