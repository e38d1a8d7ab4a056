/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_WORKLOAD_H
#define COLLECTIVE_WORKLOAD_H

#include "ns3/ai-fabric-deprecated.h"
#include "ns3/callback.h"
#include "ns3/collective-application.h"
#include "ns3/collective-metrics.h"
#include "ns3/data-rate.h"
#include "ns3/fast-forward-transport.h"
#include "ns3/nccl-tuner.h"
#include "ns3/object.h"
#include "ns3/output-collective-row.h"
#include "ns3/ptr.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-fabric.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

class ScenarioConfig; // deprecated overloads only (helper/scenario/workload-options.cc)

/**
 * \ingroup ai-fabric
 * \brief The scenario runner's collective workload: --workload=allreduce,
 * reducescatter or allgather on an RdmaFabric.
 *
 * It reads its Options (the scenario layer fills them from the flags named below;
 * a script sets them directly): --ranks (0 = every host; N = the first N hosts,
 * 0..N-1, so ranks fill leaves / pods / routers in host order, as a job scheduler
 * packing a job does), --algorithm, --bytes (S, bytes per rank: nccl-tests'
 * "size"), --iterations (back-to-back operations, no compute gap), --chunk and
 * --channels (CollectiveAlgorithm ChunkBytes and Channels), --protocol and
 * --protocol-latency (CollectiveAlgorithm::SetProtocol); --algorithm=auto or
 * --protocol=auto ask NcclTuner for NCCL's choice on this topology. It builds a
 * Communicator, a CollectiveApplication and an RdmaCollectiveTransport, reports
 * every finished operation as a collective.csv row and summarises the run for
 * summary.json. --workload=alltoall stays the runner's point-to-point pattern.
 *
 * Without background traffic or a flow file (whose messages share connection 0 with
 * the collective's channel 0) the transport matches receives in advance
 * (RdmaCollectiveTransport MatchInAdvance): each iteration's connections and receives
 * are made at its start, in transfer order, and its message ids (fct.csv flow_id) are
 * the first id of the iteration plus the transfer index, so every MPI rank of a run
 * across ranks agrees on them.
 */
class CollectiveWorkload : public Object
{
  public:
    /// Receives one collective.csv row per finished operation.
    typedef Callback<void, const OutputCollectiveRow&> RowCallback;

    /// What Setup builds: one collective operation on the first hosts of the fabric.
    struct Options
    {
        std::string operation{"allreduce"}; //!< allreduce, reducescatter or allgather
        std::string algorithm{"ring"};      //!< CollectiveAlgorithm name; auto = NCCL's tuner
        std::string protocol{"simple"};     //!< ll, ll128, simple; auto = NCCL's tuner
        bool protocolLatency{false};        //!< add the protocol's step latencies
        uint64_t bytes{1000000};            //!< bytes per rank (nccl-tests' size)
        uint32_t ranks{0};                  //!< 0 = every host; N = hosts 0..N-1
        uint32_t iterations{1};             //!< back-to-back operations
        std::optional<uint64_t> chunk;      //!< ChunkBytes; unset = the protocol's step
        std::optional<uint32_t> channels;   //!< Channels; unset = ChannelsFor's choice
        /// channels holds NCCL's count for the topology, not a forced one: as when unset,
        /// a short call on GPU servers runs on the channels NCCL gives it (NcclChannelTuning)
        bool ncclChannelTuning{false};
        uint32_t gpusPerServer{1};          //!< GPUs per server (1 = plain hosts)
        DataRate hostRate{100000000000ULL}; //!< one NIC's rate (NCCL's tuner, channels)
        bool pxn{true};                     //!< NCCL's PXN in the rings on GPU servers
        std::string fabric{"rocev2"};       //!< the fabric's name, for refusals (nvls, collnet)
        /// receives matched in advance (false when other messages share the connections)
        bool matchInAdvance{true};
        /// steady-state fast-forward (FastForwardTransport; receives then follow each
        /// message, matchInAdvance is ignored)
        bool fastForward{false};
        /// the fabric hosts of ranks 0..n-1 (a job's placement; ranks is then their
        /// count); empty = hosts 0..ranks-1
        std::vector<uint32_t> hosts;
    };

    static TypeId GetTypeId();
    CollectiveWorkload();
    ~CollectiveWorkload() override;

    /// True for the --workload values this class runs: allreduce, reducescatter, allgather.
    static bool Handles(const std::string& workload);
    /// True for the --workload values this class runs on hosts of \p gpusPerServer GPUs:
    /// also alltoall on GPU servers (WorkloadRegistry::GetFamily).
    static bool Handles(const std::string& workload, uint32_t gpusPerServer);

    /**
     * The channels a collective of \p o uses: its channels if given; otherwise NCCL's
     * count for the servers' NICs (RailRingOrder::NcclChannels) for a collective on GPU
     * servers, else CollectiveAlgorithm::DEFAULT_CHANNELS.
     * \param o the options
     * \return the channel count
     */
    static uint32_t ChannelsFor(const Options& o);
    /**
     * \param value an Options::algorithm or Options::protocol
     * \return whether it leaves the choice to NCCL's tuner ("auto")
     */
    static bool IsTunerChoice(const std::string& value);
    /// \deprecated the options of a configuration: WorkloadOptions::Collective(config)
    AI_FABRIC_DEPRECATED("use ChannelsFor(WorkloadOptions::Collective(config)) (see CHANGES.md)")
    static uint32_t ChannelsFor(const ScenarioConfig& config);

    /**
     * The communicator NCCL's tuner sees for --algorithm=auto or --protocol=auto:
     * \p ranks GPUs on servers of --gpus-per-server, one --host-rate NIC each, the
     * channels ChannelsFor gives.
     * \param o the options
     * \param ranks the collective's ranks
     * \return the tuner's topology
     */
    static NcclTuner::Topology TunerTopology(const Options& o, uint32_t ranks);
    /// \deprecated the options of a configuration: WorkloadOptions::Collective(config)
    AI_FABRIC_DEPRECATED(
        "use TunerTopology(WorkloadOptions::Collective(config), ranks) (see CHANGES.md)")
    static NcclTuner::Topology TunerTopology(const ScenarioConfig& config, uint32_t ranks);

    /**
     * Build communicator, transport and application on the fabric. Throws
     * std::invalid_argument naming the flag and the allowed values for an operation
     * it does not run, --ranks of 1 or above the host count, or an algorithm the
     * operation does not have (reducescatter and allgather: ring) or whose shape
     * does not fit (2d on a prime rank count).
     */
    void Setup(const Options& options, Ptr<RdmaFabric> fabric);
    /// \deprecated Setup(WorkloadOptions::Collective(config), fabric); throws ConfigError
    AI_FABRIC_DEPRECATED("use Setup(WorkloadOptions::Collective(config), fabric) (see CHANGES.md)")
    void Setup(const ScenarioConfig& config, Ptr<RdmaFabric> fabric);
    void SetRowCallback(RowCallback cb);
    /// Called when the last iteration was recorded (also when that is after the last
    /// message's acknowledgement: a protocol's step latency or a reduction ends it later).
    void SetFinishedCallback(Callback<void> cb);
    /// Start the first iteration now (call before or during Simulator::Run).
    void Start();
    /// Every iteration finished (every transfer delivered and completed; true from the
    /// last iteration's record on).
    bool IsFinished() const;

    /// Transfers of one iteration (CollectiveAlgorithm::GetNTransfers).
    uint64_t GetNTransfers() const;
    /// Across MPI ranks: transfers of one iteration this rank holds (those whose source
    /// or destination is one of its hosts; CollectiveAlgorithm::GetNHeldTransfers).
    uint64_t GetHeldTransfers() const;
    /// Across MPI ranks: transfers this rank completed (delivered to its hosts).
    uint64_t GetCompletedTransfers() const;
    /// When the last of them completed (-1 ps if none did).
    Time GetLastCompletion() const;
    /// Whether each transfer waits only for deliveries at its own source, as a run
    /// across MPI ranks needs (CollectiveAlgorithm::DependsOnlyOnDeliveriesAtSource).
    bool DependsOnlyOnDeliveriesAtSource() const;
    /// Across MPI ranks: the running operation ended at \p endNs, the latest
    /// completion over the ranks (CollectiveApplication::FinishAcrossRanks).
    void FinishAcrossRanks(int64_t endNs);
    /// Transfers of every iteration (GetNTransfers() x --iterations).
    uint64_t GetTotalTransfers() const;
    /// Whether the iterations start per rank (CollectiveApplication::IsPerRank): what a
    /// run across MPI ranks of more than one iteration needs.
    bool IsPerRank() const;
    /**
     * Per-rank iterations: when the hosts of this process started and ended each one.
     * \param startPs per iteration, the earliest start here, ps (-1: none)
     * \param endPs per iteration, the latest end here, ps (-1: none)
     */
    void GetRunTimes(std::vector<int64_t>& startPs, std::vector<int64_t>& endPs) const;
    /// Across MPI ranks, per-rank iterations: record each from its earliest start to its
    /// latest end over the ranks, ns (CollectiveApplication::FinishRunsAcrossRanks).
    void FinishRunsAcrossRanks(const std::vector<int64_t>& startNs,
                               const std::vector<int64_t>& endNs);

    /// The summary.json "collectives" value: an array with one object per job.
    nlohmann::json ToJson() const;

    /// The NCCL protocol the collective runs with ("ll", "ll128", "simple"; after Setup).
    const std::string& GetProtocol() const;

    /// A CollectiveRecord (GB/s) as a collective.csv row (Gbit/s = 8 x GB/s); its
    /// protocol is left at "simple" (the record does not say: see GetProtocol).
    static OutputCollectiveRow ToOutputRow(const CollectiveRecord& r);

    Ptr<CollectiveApplication> GetApplication() const;
    Ptr<RdmaCollectiveTransport> GetTransport() const;
    /// \return the fast-forward in front of the transport (Options fastForward), or null
    Ptr<FastForwardTransport> GetFastForward() const;
    /// Fabric hosts of the ranks, rank order.
    const std::vector<uint32_t>& GetHosts() const;

  protected:
    void DoDispose() override;

  private:
    void OnRecord(const CollectiveRecord& r);

    Ptr<CollectiveApplication> m_app;
    Ptr<RdmaCollectiveTransport> m_transport;
    Ptr<FastForwardTransport> m_fastForward; //!< null unless Options fastForward
    std::vector<uint32_t> m_hosts;
    RowCallback m_rowCb;
    Callback<void> m_finishedCb; //!< SetFinishedCallback
    std::string m_operation;
    std::string m_algorithm;
    uint64_t m_bytes{0};
    uint32_t m_iterations{0};
    uint64_t m_chunk{0};           //!< --chunk
    uint32_t m_channels{1};        //!< --channels
    std::string m_protocol;        //!< the NCCL protocol it runs with
    bool m_protocolLatency{false}; //!< the protocol's step latencies are added
    std::string m_fallback;        //!< the algorithm that ran instead, and why ('' = none)
    nlohmann::json m_tuner;        //!< NCCL's tuner's choice (null: the flags chose)
};

} // namespace ns3

#endif // COLLECTIVE_WORKLOAD_H
