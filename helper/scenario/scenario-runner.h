/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "rank-run.h"
#include "scenario-config.h"
#include "scenario-faults.h"
#include "scenario-workload.h"
#include "simulator-setup.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"
#include "ns3/topology-helper.h"
#include "ns3/workload-registry.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class FabricBuilder;
class TopologyGraph;
class RouteTable;
class RdmaFabric;
class OutputWriter;
class DeadlockDetector;
class RunRecorder;
class AttributionRecorder;
class TcpFlowTransport;

/**
 * \ingroup ai-fabric
 * \brief Builds a whole simulation from one ScenarioConfig, runs it and writes
 * the output directory (doc/scenario-runner.md, Outputs). The CLI and the Python bindings
 * both call it, so they run exactly the same thing.
 *
 * A short sequencer over components, each looked up once: topology graph -> routing
 * -> fabric (--fabric's FabricBuilder) -> faults (ScenarioFaults) and TCP
 * (TcpTransportSetup) -> checks (FabricChecks) -> monitors (RunRecorder) -> workloads
 * (--workload's ScenarioWorkload and the flows') -> run -> summary.json, with each
 * component's block (written last: its presence means the run finished). Values only
 * the runner can judge (fan-in larger than the host count, ...) throw ConfigError.
 * Simulator::Destroy() is called before Run() returns.
 */
class ScenarioRunner
{
  public:
    explicit ScenarioRunner(const ScenarioConfig& config);
    ~ScenarioRunner();

    /// Run the scenario; returns the summary that was written to summary.json.
    nlohmann::json Run();

    /// Build the topology graph the configuration describes (no simulation); throws
    /// ConfigError when it would not fit in this machine's memory (MemoryEstimate).
    static Ptr<TopologyGraph> BuildTopology(const ScenarioConfig& config);
    /// \return the graph's hosts, switches and cables
    static TopologyHelper::Size SizeOf(Ptr<const TopologyGraph> graph);
    /// Build the route table for a graph by the configuration's --routing.
    static Ptr<RouteTable> BuildRoutes(const ScenarioConfig& config, Ptr<TopologyGraph> graph);

  private:
    /// The configuration resolved and checked before anything is built: --jobs'
    /// baselines, the fabric builder of --fabric, the defaults, the --ns3:: overrides
    void Resolve();
    /// summary.json's tail_attribution and critical_path (--attribution=1)
    void AddAttribution(nlohmann::json& summary);
    void ConfigureDefaults();
    /// Refuse a --ns3:: attribute default that a flag sets explicitly (naming the
    /// flag), then apply the others (after the flags' own defaults, so they win)
    void ApplyAttributeOverrides() const;
    /// The fabric of --fabric (its builder), faults, and the TCP transport if asked for
    void BuildFabric();
    /// Opens the output directory: the writer's files, stale pcaps removed (--mpi: all ranks)
    void OpenOutput();
    /// The outputs' monitors (m_recorder, on m_writer) and the run's completion check
    void ConnectMonitors();
    /// \return whether a workload has work (else the run goes on until --stop-time)
    bool HasWork() const;
    /// \return this rank's progress over the workloads (--mpi's completion check)
    RankRun::Progress Progress() const;
    /// The folder of the run's pcaps: --out (m_writer's folder is a rank's part with --mpi)
    std::string PcapDirectory() const;
    /// --mpi: \p filter and the port's node on this rank (else \p filter)
    std::function<bool(uint32_t, uint32_t)> OwnPorts(
        std::function<bool(uint32_t, uint32_t)> filter) const;

    /// \return true when this process simulates graph node \p node
    bool Owns(uint32_t node) const
    {
        return m_partition.empty() || m_partition[node] == m_rank;
    }

    /// One finished message or TCP flow (after its fct.csv row): the end-of-run counts.
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp);
    nlohmann::json MakeSummary(double wallSeconds, bool complete);
    /// summary.json's times, events, packet hops and memory (--mpi: over the ranks, and
    /// "mpi"); \return the finished messages (--mpi: of every rank)
    uint64_t AddRunTotals(nlohmann::json& s, double wallSeconds, uint64_t packetHops) const;
    /// summary.json's drops, PFC, retransmission, ECN and queue-pair counters
    void AddCounters(nlohmann::json& s, const RdmaFabric::Counters& k) const;
    /// summary.json's deadlock and unfinished (the run's reason for stopping early)
    void AddUnfinished(nlohmann::json& s, bool complete, uint64_t unfinished) const;
    /// After the run: fct.txt closed, training CSVs, ports.csv; a failed write abandons
    /// the run (OutputError)
    void WriteWorkloadFiles();
    /// The workloads and flows, with --out opened after them (with --pcap before them:
    /// a workload may send while it is installed); a refused one leaves --out as it was
    void InstallWorkloads();
    /// Queue sampling, the deadlock detector and (--mpi) the completion check across ranks
    void ScheduleChecks();
    /// Dispose of the workloads, the detector and the fabric; Simulator::Destroy.
    void TearDown();

    ScenarioConfig m_config;
    std::unique_ptr<FabricBuilder> m_fabricBuilder; //!< --fabric's, made once by Run()
    ScenarioFaults m_faults;                        //!< --link-failure, --pfc-storm, ...
    Ptr<TopologyGraph> m_graph;
    Ptr<RouteTable> m_routes;
    Ptr<RdmaFabric> m_fabric;
    std::unique_ptr<OutputWriter> m_writer;
    /// --workload's component, then the flows' (--background, --flows)
    std::vector<std::unique_ptr<ScenarioWorkload>> m_workloads;
    Ptr<TcpFlowTransport> m_tcp;            //!< --transport=tcp: carries the flows
    Ptr<DeadlockDetector> m_detector;       //!< when --deadlock-stall-time > 0
    Ptr<RunRecorder> m_recorder;            //!< the output files' monitors; knows when work is done
    Ptr<AttributionRecorder> m_attribution; //!< --attribution=1
    nlohmann::json m_extraSummary;          //!< fragments added by workloads
    std::unique_ptr<RankRun> m_mpi;         //!< --mpi: the run across ranks; null without
    uint32_t m_rank{0};                     //!< --mpi: this process's rank (m_mpi's)
    std::vector<uint32_t> m_partition; //!< --mpi: rank of each graph node (m_mpi's); empty without
    int64_t m_lastCompletionPs{-1};    //!< the latest message end seen here, ps
    SimulatorSetup m_simulatorSetup;   //!< the simulator's settings, restored after the run
};

} // namespace ns3

#endif // SCENARIO_RUNNER_H
