/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RUN_RECORDER_H
#define RUN_RECORDER_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class DeadlockDetector;
class OutputWriter;
class PfcWatchdog;
class TcpFlowTransport;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief The scenario runner's monitors for any script: attached to an installed fabric,
 * it writes the runner's output files (doc/scenario-runner.md, Outputs) through an
 * OutputWriter: fct.csv (every finished message, and TCP flow with AddTcpTransport),
 * pfc.csv (every PFC frame a port sends), drops.csv (every drop, link_down included),
 * qlen.csv (the switches' non-empty queues every QueueSampleInterval), topology.csv
 * (WriteTopology), ports.csv (WritePortBytes) and summary.json (WriteSummary).
 *
 * It can also end the run when the work is done, as the runner does: with completion
 * checks added (AddCompletionCheck), the first finished message after which no message
 * is pending and every check passes stops the simulation (Simulator::Stop), and queue
 * sampling stops with it.
 *
 * \code
 *   Ptr<RunRecorder> recorder = CreateObject<RunRecorder>();
 *   recorder->Open("out");              // or SetWriter(&writer)
 *   recorder->Install(fabric);          // after FaultInjectionHelper, before the workload
 *   ... post the workload ...
 *   recorder->AddCompletionCheck([&] { return finished == expected; });
 *   recorder->WriteTopology();
 *   recorder->StartQueueSampling();
 *   Simulator::Run();
 *   recorder->WriteSummary(recorder->MakeSummary());
 *   Simulator::Destroy();
 * \endcode
 *
 * The fabric reaches its ports and switches through RdmaFabric (ConnectPfcSent,
 * ConnectDrops, VisitSwitchQueues): the same code records RoCEv2 and InfiniBand.
 */
class RunRecorder : public Object
{
  public:
    /// After each finished message's fct.csv row: (the message, true if a TCP flow)
    typedef Callback<void, const RdmaFabric::MessageRecord&, bool> MessageCallback;

    static TypeId GetTypeId();
    RunRecorder();
    ~RunRecorder() override;

    /**
     * Write into \p writer, which the caller keeps (alive while this records) and opens.
     */
    void SetWriter(OutputWriter* writer);
    /**
     * Write into an OutputWriter of this recorder's own, of directory \p dir, opened now
     * (its earlier run's contract files removed).
     * \return the writer
     * \throws ConfigError naming the directory if it cannot be written
     */
    OutputWriter& Open(const std::string& dir);
    /// \return the writer (null before SetWriter or Open)
    OutputWriter* GetWriter() const;
    /// Only the graph nodes \p nodes accepts get pfc.csv and qlen.csv rows (across MPI
    /// ranks: this rank's); by default every node.
    void SetNodeFilter(std::function<bool(uint32_t)> nodes);

    /// Record \p fabric: its finished messages, PFC frames sent and drops (from now).
    void Install(Ptr<RdmaFabric> fabric);
    /// Record \p tcp's finished flows too (fct.csv with the TCP kinds); their pending
    /// flows hold the run's end as the fabric's pending messages do.
    void AddTcpTransport(Ptr<TcpFlowTransport> tcp);
    /// Called after each finished message's row (before the completion check).
    void SetMessageCallback(MessageCallback cb);

    /// Sample the queues every QueueSampleInterval from one interval from now, until the
    /// work is done (none if the interval is 0 or the fabric's queues are not sampled).
    void StartQueueSampling();
    /// topology.csv: every port of the fabric's graph, with its node's and peer's names.
    void WriteTopology();
    /**
     * ports.csv: every port's bytes and frames sent so far (RdmaFabric::GetPortTx),
     * registered with the writer (AddRunFile).
     * \throws OutputError if it cannot be written (the run's files are removed)
     */
    void WritePortBytes();

    /// The run is done once \p done (and every other check) returns true after a
    /// finished message with none pending (CheckCompletion).
    void AddCompletionCheck(std::function<bool()> done);
    /// If the checks were added, none is pending and all pass: SetWorkDone and
    /// Simulator::Stop. (Runs after each finished message; a workload whose last step
    /// is no message calls it too.)
    void CheckCompletion();
    /// \return whether the work is done (CheckCompletion, or SetWorkDone)
    bool IsWorkDone() const;
    /// The work is done (or there is none): queue sampling stops.
    void SetWorkDone();

    /// \return the finished messages (and TCP flows) recorded
    uint64_t GetFinishedMessages() const;
    /// \return the latest end of a recorded message, -1 ps if none
    Time GetLastCompletion() const;
    /// \return packets lost on failed cables at a port (drops.csv's link_down rows)
    uint64_t GetLinkDownDrops(uint32_t node, uint32_t port) const;

    /**
     * summary.json's "failures": each failed cable (RdmaFabric::GetLinkFailures), its
     * ends, times and link_down drops; "node" for a cable of a failed switch, per
     * \p failedNodeOfLink (link -> switch), else "link".
     */
    nlohmann::json FailuresJson(
        const std::unordered_map<uint32_t, uint32_t>& failedNodeOfLink = {}) const;
    /// summary.json's "pfc_watchdog_events": the watchdog's detections and restorations.
    static nlohmann::json WatchdogJson(const PfcWatchdog& watchdog);
    /// summary.json's "deadlock": when \p detector found a cycle of stalled lanes, its
    /// time, the stall's start, the lanes of the cycle and its text.
    static nlohmann::json DeadlockJson(const DeadlockDetector& detector);
    /**
     * A summary for a script's run: complete (IsWorkDone), sim_time_s, events, topology,
     * the fabric's counters (drops, pfc_pauses, pfc_resumes, retransmissions, ...),
     * messages finished and unfinished, failures (if any cable failed).
     * WriteSummary adds fct and fct_by_kind.
     */
    nlohmann::json MakeSummary() const;
    /**
     * The fabric's counters as summary.json has them (drops by cause, PFC frames,
     * retransmissions, ECN marks, CNPs, queue pairs, ...): the runner's and a script's
     * summary share this one list.
     * \param s the summary to add them to
     * \param k the fabric's counters (RdmaFabric::GetCounters)
     */
    static void AddCounters(nlohmann::json& s, const RdmaFabric::Counters& k);
    /**
     * Close the CSVs and write \p summary as summary.json (OutputWriter::WriteSummary).
     * \return the document written
     */
    nlohmann::json WriteSummary(const nlohmann::json& summary);

    /// The prefix of the pcap files EnablePcaps writes: PCAP_PREFIX-NODE-PORT.pcap
    /// (RdmaFabric::EnablePcap), as the runner's --pcap names them.
    static constexpr const char* PCAP_PREFIX = "ai-fabric";
    /**
     * A port filter of pcap entries (the runner's --pcap-nodes): each a node name
     * (TopologyGraph::GetNodeName) or id, with all its ports or one. None: every port.
     * \param graph the topology
     * \param entries (node name or id, port or none for all)
     * \return whether a (node, port) is selected
     * \throws std::invalid_argument naming an entry whose node or port \p graph does not
     * have, and what is allowed
     */
    static std::function<bool(uint32_t, uint32_t)> PcapPortFilter(
        const TopologyGraph& graph,
        const std::vector<std::pair<std::string, std::optional<uint32_t>>>& entries);
    /**
     * Delete the pcaps an earlier run left in \p dir (PCAP_PREFIX-NODE-PORT.pcap, digits
     * only), so that none passes for this run's: called before this run opens its own.
     * Other files, *.pcap of other names included, are kept.
     * \throws ConfigError naming a file that could not be removed
     */
    static void RemoveStalePcaps(const std::string& dir);
    /**
     * The fabric's pcap files (Install's fabric) of the ports \p ports selects, in \p dir
     * (PCAP_PREFIX-NODE-PORT.pcap), each registered with the writer as a run file (a run
     * abandoned leaves no pcap either).
     * \param snapLength bytes kept of each frame (RdmaFabric::PcapSnapLength; 0: the
     * fabric's)
     */
    void EnablePcaps(const std::string& dir,
                     const std::function<bool(uint32_t, uint32_t)>& ports,
                     uint32_t snapLength = 0);

  protected:
    void DoDispose() override;

  private:
    /// A finished message: its fct.csv row, the callback, the completion check.
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp);
    void OnRdmaMessage(const RdmaFabric::MessageRecord& r);
    void OnTcpMessage(const RdmaFabric::MessageRecord& r);
    void OnPfcSent(uint32_t node, uint32_t port, uint8_t priority, bool pause);
    void OnDrop(uint32_t node, uint32_t port, const std::string& reason);
    void SampleQueues();

    Time m_queueSampleInterval; //!< Attribute QueueSampleInterval
    Ptr<RdmaFabric> m_fabric;
    Ptr<TcpFlowTransport> m_tcp;
    std::unique_ptr<OutputWriter> m_ownWriter; //!< Open's
    OutputWriter* m_writer{nullptr};
    std::function<bool(uint32_t)> m_nodes; //!< SetNodeFilter (empty: every node)
    MessageCallback m_messageCb;
    std::vector<std::function<bool()>> m_checks;
    bool m_workDone{false};
    uint64_t m_finished{0};
    int64_t m_lastCompletionPs{-1};
    /// link_down drops by (node << 32 | port)
    std::unordered_map<uint64_t, uint64_t> m_linkDownDropsAt;
};

} // namespace ns3

#endif // RUN_RECORDER_H
