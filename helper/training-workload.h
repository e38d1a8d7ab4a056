/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_WORKLOAD_H
#define TRAINING_WORKLOAD_H

#include "ns3/ai-fabric-deprecated.h"
#include "ns3/callback.h"
#include "ns3/fast-forward-transport.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-fabric.h"
#include "ns3/training-engine.h"
#include "ns3/training-model.h"

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
 * \brief The scenario runner's training workload (--workload=training
 * --training=FILE): a TrainingModel read from the file (JSON or the ASTRA-sim 1.0 /
 * SimAI text format, told apart by content) run by a TrainingEngine over an
 * RdmaCollectiveTransport on the first tp x pp x dp hosts of the fabric.
 *
 * Its Options (filled by the scenario layer from the flags named here; a script sets
 * them directly): --iterations sets the iteration count unless the JSON file gives
 * "iterations" (both given and different is an error); --algorithm the allreduce
 * algorithm; --chunk and --channels every collective's pipelining. Servers: the GPUs of one
 * TP group (tp consecutive ranks) are one server's.
 *
 * Outputs: summary.json "training" (ToJson) and training.csv (WriteCsv: one row
 * per iteration and pipeline stage; doc/scenario-runner.md lists its columns).
 */
class TrainingWorkload : public Object
{
  public:
    /// training.csv's header line
    static constexpr const char* CSV_HEADER =
        "iteration,stage,gpus,start_ns,end_ns,duration_ns,critical_gpu,compute_ns,exposed_ns,"
        "exposed_tp_ns,exposed_dp_ns,exposed_pp_ns,exposed_ep_ns";

    /// What Setup reads.
    struct Options
    {
        std::string file;                 //!< the model file (JSON or ASTRA-sim/SimAI text)
        uint32_t iterations{1};           //!< iterations unless the JSON file gives them
        std::string algorithm{"ring"};    //!< the allreduce algorithm (TrainingEngine)
        std::optional<uint64_t> chunk;    //!< ChunkBytes; unset = DEFAULT_CHUNK_BYTES
        std::optional<uint32_t> channels; //!< Channels; unset = DEFAULT_CHANNELS
        uint32_t gpusPerServer{1};        //!< GPUs per server (TrainingEngine GpusPerServer)
        bool pxn{true};                   //!< NCCL's PXN in the rings (TrainingEngine Pxn)
        /// one NIC's rate: on GPU servers without channels, each communicator gets NCCL's
        /// channels (TrainingEngine NicRate); 0 = channels (or DEFAULT_CHANNELS) everywhere
        DataRate hostRate{0};
        /// the fabric hosts of ranks 0..n-1 (a job's placement); empty = hosts 0..n-1 with
        /// the model's shape resolved on every host of the fabric
        std::vector<uint32_t> hosts;
        /// steady-state fast-forward (FastForwardTransport in front of the transport)
        bool fastForward{false};
    };

    static TypeId GetTypeId();
    TrainingWorkload();
    ~TrainingWorkload() override;

    /**
     * Read the model file and build transport and engine on the fabric. Throws
     * std::invalid_argument naming the file and line (or key) of a parse error, or the
     * shape that does not fit the fabric.
     */
    void Setup(const Options& options, Ptr<RdmaFabric> fabric);
    /// \deprecated Setup(WorkloadOptions::Training(config), fabric); throws ConfigError
    AI_FABRIC_DEPRECATED("use Setup(WorkloadOptions::Training(config), fabric) (see CHANGES.md)")
    void Setup(const ScenarioConfig& config, Ptr<RdmaFabric> fabric);
    /// Called when the last iteration ended.
    void SetFinishedCallback(Callback<void> cb);
    void Start();
    bool IsFinished() const;

    /// The summary.json "training" object.
    nlohmann::json ToJson() const;
    /// training-timeline.csv's header line
    static constexpr const char* TIMELINE_HEADER = "iteration,gpu,state,start_ns,end_ns";

    /// Writes training.csv (and training-timeline.csv with TimelineIteration) into dir;
    /// false if one could not be written.
    bool WriteCsv(const std::string& dir) const;
    /// The files WriteCsv writes.
    std::vector<std::string> GetCsvNames() const;

    Ptr<TrainingEngine> GetEngine() const;
    /// \return the transport its communication goes through (after Setup)
    Ptr<RdmaCollectiveTransport> GetTransport() const;
    /// \return the fast-forward in front of the transport (Options fastForward), or null
    Ptr<FastForwardTransport> GetFastForward() const;

    /**
     * The transport of an engine's ranks: an RdmaCollectiveTransport attached to
     * \p hosts of \p fabric (empty: hosts 0..ranks-1), as TrainingWorkload and
     * ChakraWorkload make it.
     */
    static Ptr<RdmaCollectiveTransport> AttachTransport(Ptr<RdmaFabric> fabric,
                                                        const std::vector<uint32_t>& hosts,
                                                        uint32_t ranks);
    /**
     * Set the attributes TrainingEngine and ChakraEngine share (Iterations,
     * AllreduceAlgorithm, ChunkBytes, Channels, TagSpace, GpusPerServer, Pxn, NicRate) on
     * \p engine from \p options, for \p iterations on \p transport.
     */
    static void ConfigureEngine(Ptr<Object> engine,
                                const Options& options,
                                uint32_t iterations,
                                Ptr<RdmaCollectiveTransport> transport);

    /**
     * The summary of an engine's run (what ToJson returns), for tests that run an
     * engine on another transport.
     */
    static nlohmann::json Summarise(const TrainingEngine& engine);

  protected:
    void DoDispose() override;

  private:
    void OnInterval(uint32_t iteration,
                    uint32_t rank,
                    uint8_t state,
                    int64_t startNs,
                    int64_t endNs);

    /// One interval of the timeline.
    struct Interval
    {
        uint32_t rank;
        uint8_t state;
        int64_t startNs;
        int64_t endNs;
    };

    int64_t m_cycleNs;           //!< attribute AstraCycle
    int64_t m_timelineIteration; //!< attribute TimelineIteration
    std::vector<Interval> m_timeline;
    Ptr<TrainingEngine> m_engine;
    Ptr<RdmaCollectiveTransport> m_transport;
    Ptr<FastForwardTransport> m_fastForward; //!< null unless Options fastForward
    std::string m_file;
};

} // namespace ns3

#endif // TRAINING_WORKLOAD_H
