/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "scenario-config.h"

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
class FaultInjectionHelper;
class TopologyGraph;
class RouteTable;
class RdmaFabric;
class OutputWriter;
class FlowWorkload;
class CollectiveWorkload;
class TrainingWorkload;
class DeadlockDetector;
class PfcWatchdog;
class RunRecorder;
class TcpFlowTransport;
class RankRun;

/**
 * \ingroup ai-fabric
 * \brief Builds a whole simulation from one ScenarioConfig, runs it and writes
 * the output directory (doc/scenario-runner.md, Outputs). The CLI and the Python bindings
 * both call it, so they run exactly the same thing.
 *
 * Order: topology graph -> routing -> fabric -> workload -> monitors -> run ->
 * summary.json (written last: its presence means the run finished). Values only
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
    void ConfigureDefaults();
    /// Refuse a --ns3:: attribute default that a flag sets explicitly (naming the
    /// flag), then apply the others (after the flags' own defaults, so they win)
    void ApplyAttributeOverrides() const;
    /// The --ns3:: overrides of the congestion-control algorithm's attributes, as
    /// (attribute, value) of the algorithm, for the fabric builder (its preset's values
    /// would otherwise win) and summary.json
    std::vector<std::pair<std::string, std::string>> CongestionControlOverrides() const;
    /// --cc-preset='': the preset that runs, written into the configuration (echoed).
    void ResolveCcPreset();
    /// The fabric of --fabric (its builder), faults, and the TCP transport if asked for
    void BuildFabric();
    /// --pfc-storm, --link-failure, --node-failure, --pfc-watchdog on the built fabric
    /// (FaultInjectionHelper)
    void InjectFaults();
    /// --link-failure's cables, then each --node-failure switch's (every switch checked
    /// first); fills m_failedNodeOfLink
    void FailCables(const FaultInjectionHelper& faults);
    /// A fault the fabric refused (\p e): dispose of the fabric (its reference cycles)
    /// and throw ConfigError naming \p flag
    [[noreturn]] void RefuseFault(const std::string& flag, const std::invalid_argument& e);
    /// Opens the output directory: the writer's files, stale pcaps removed (--mpi: all ranks)
    void OpenOutput();
    /// --pcap: the fabric's pcap files of these ports in the output directory (after the
    /// writer opened it)
    void EnablePcaps(const std::function<bool(uint32_t, uint32_t)>& ports);

    void ScheduleWorkload();
    /// Post a point-to-point workload's messages.
    void SchedulePointToPoint(const PointToPointPattern& pattern);
    void ScheduleFlows();
    /// Say whether the routing is deadlock free on the lossless fabric
    /// (summary.json routing_deadlock_free; a warning on stderr when it is not).
    void CheckDeadlockFreedom();
    /// Name the ports whose buffer cannot cover their link's bandwidth-delay product
    /// (BufferCoverageCheck: one warning on stderr and in summary.json warnings).
    void CheckBufferCoverage();
    /// The outputs' monitors (m_recorder, on m_writer) and the run's completion check
    void ConnectMonitors();
    /// The recorder's completion check (a workload whose last step is no message)
    void MaybeFinish();
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

    /// --transport=tcp: ns-3's internet stack and TCP on every host (once the fabric is built)
    void InstallTcp();
    /// One finished message or TCP flow (after its fct.csv row): the end-of-run counts.
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp);
    nlohmann::json MakeSummary(double wallSeconds, bool complete);
    /// summary.json's congestion_control: the algorithm, its preset and attributes as run
    nlohmann::json CongestionControlJson() const;
    /// summary.json's times, events, packet hops and memory (--mpi: over the ranks, and
    /// "mpi"); \return the finished messages (--mpi: of every rank)
    uint64_t AddRunTotals(nlohmann::json& s, double wallSeconds, uint64_t packetHops) const;
    /// summary.json's drops, PFC, retransmission, ECN and queue-pair counters
    void AddCounters(nlohmann::json& s, const RdmaFabric::Counters& k) const;
    /// summary.json's pfc_watchdog_events
    nlohmann::json WatchdogJson() const;
    /// summary.json's deadlock and unfinished (the run's reason for stopping early)
    void AddUnfinished(nlohmann::json& s, bool complete, uint64_t unfinished) const;
    /// summary.json's tcp and flow_workload blocks
    void AddWorkloadSummaries(nlohmann::json& summary) const;
    /// After the run: fct.txt closed, training CSVs, ports.csv; a failed write abandons
    /// the run (OutputError)
    void WriteWorkloadFiles();
    /// The workloads and flows, with --out opened after them (with --pcap before them:
    /// a workload may send while it is installed); a refused one leaves --out as it was
    void InstallWorkloads();
    /// Queue sampling, the deadlock detector and (--mpi) the completion check across ranks
    void ScheduleChecks();
    /// summary.json's failures: each failed cable, its ends, times and link_down drops.
    nlohmann::json FailuresJson() const;
    /// Dispose of the workloads, the detector and the fabric; Simulator::Destroy.
    void TearDown();

    /// ChannelDependencyGraph steps the deadlock-freedom check may take (about a
    /// second); larger fabrics are reported as not checked.
    static constexpr uint64_t kDependencyCheckBudget = 50'000'000;

    ScenarioConfig m_config;
    std::unique_ptr<FabricBuilder> m_fabricBuilder; //!< --fabric's, made once by Run()
    Ptr<TopologyGraph> m_graph;
    Ptr<RouteTable> m_routes;
    Ptr<RdmaFabric> m_fabric;
    std::unique_ptr<OutputWriter> m_writer;
    uint64_t m_expectedMessages{0};   //!< point-to-point messages of the workload
    uint64_t m_finishedMessages{0};   //!< point-to-point messages finished
    uint64_t m_finishedFlows{0};      //!< background and flow-file messages finished
    uint64_t m_finishedCollective{0}; //!< collective messages finished (acknowledged) here
    Ptr<FlowWorkload> m_flowWorkload;
    Ptr<CollectiveWorkload> m_collective;
    Ptr<TrainingWorkload> m_training; //!< --workload=training
    Ptr<TcpFlowTransport> m_tcp;      //!< --transport=tcp: carries the flows
    Ptr<DeadlockDetector> m_detector; //!< when --deadlock-stall-time > 0
    Ptr<PfcWatchdog> m_watchdog;      //!< when --pfc-watchdog is set
    Ptr<RunRecorder> m_recorder;      //!< the output files' monitors; knows when work is done
    /// One predicate per source of work (pattern, collectives, flows); all true = done.
    std::vector<std::function<bool()>> m_finished;
    nlohmann::json m_extraSummary; //!< fragments added by workloads
    /// link -> the switch whose --node-failure failed it, for summary.json's failures
    std::unordered_map<uint32_t, uint32_t> m_failedNodeOfLink;
    std::unique_ptr<RankRun> m_mpi;    //!< --mpi: the run across ranks; null without
    uint32_t m_rank{0};                //!< --mpi: this process's rank (m_mpi's)
    std::vector<uint32_t> m_partition; //!< --mpi: rank of each graph node (m_mpi's); empty without
    int64_t m_lastCompletionPs{-1};    //!< the latest message end seen here, ps
    std::string m_previousSimulatorImpl;   //!< SimulatorImplementationType before Run
    bool m_previousChecksumEnabled{false}; //!< ChecksumEnabled before Run
};

} // namespace ns3

#endif // SCENARIO_RUNNER_H
