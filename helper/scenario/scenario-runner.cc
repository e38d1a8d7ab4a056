/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "attribute-defaults.h"
#include "congestion-control-setup.h"
#include "fabric-builder-registry.h"
#include "fabric-builder.h"
#include "fabric-checks.h"
#include "fast-forward-setup.h"
#include "flow-scenario-workload.h"
#include "jobs-scenario-workload.h"
#include "memory-estimate.h"
#include "rank-coordinator.h"
#include "rank-run.h"
#include "scenario-faults.h"
#include "scenario-topology.h"
#include "scenario-workload-registry.h"
#include "simulator-setup.h"
#include "size-parser.h"
#include "tcp-transport-setup.h"
#include "workload-options.h"

#include "ns3/attribution-recorder.h"
#include "ns3/collective-application.h"
#include "ns3/collective-protocol.h"
#include "ns3/collective-workload.h"
#include "ns3/config-error.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/deadlock-detector.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/output-error.h"
#include "ns3/output-writer.h"
#include "ns3/route-table.h"
#include "ns3/run-recorder.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-flow-transport.h"
#include "ns3/topology-graph.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

ScenarioRunner::ScenarioRunner(const ScenarioConfig& config)
    : m_config(config)
{
}

ScenarioRunner::~ScenarioRunner() = default;

TopologyHelper::Size
ScenarioRunner::SizeOf(Ptr<const TopologyGraph> graph)
{
    return ScenarioTopology::SizeOf(graph);
}

Ptr<TopologyGraph>
ScenarioRunner::BuildTopology(const ScenarioConfig& c)
{
    return ScenarioTopology::Build(c);
}

Ptr<RouteTable>
ScenarioRunner::BuildRoutes(const ScenarioConfig& c, Ptr<TopologyGraph> graph)
{
    return ScenarioTopology::Routes(c, graph);
}

void
ScenarioRunner::ConfigureDefaults()
{
    if (!m_config.ackInterval)
    {
        // '' becomes the value used (echoed in summary.json): an algorithm that reads INT
        // gets one ACK per packet, as the HPCC simulator (run.py: L2_ACK_INTERVAL 1); HPCC
        // reacts per ACK, and one ACK per 10 packets starves it of feedback.
        const bool readsInt = CongestionControlRegistry::Has(m_config.cc) &&
                              CongestionControlRegistry::Get(m_config.cc).usesInt;
        m_config.ackInterval = readsInt ? 1 : 10;
    }
    m_config.channelsFromNccl = !m_config.channels.has_value();
    if (!m_config.channels)
    {
        // '' becomes the count used (echoed in summary.json): NCCL's for the topology
        m_config.channels = CollectiveWorkload::ChannelsFor(WorkloadOptions::Collective(m_config));
    }
    WorkloadOptions::ResolveCollectiveDefaults(m_config); // (GPU servers: NCCL's tuner)
    if (!m_config.protocolLatency)
    {
        // '' becomes the value used: the protocols' step latencies where NCCL's model chose
        m_config.protocolLatency = CollectiveWorkload::IsTunerChoice(m_config.protocol) ||
                                   CollectiveWorkload::IsTunerChoice(m_config.algorithm);
    }
    m_fabricBuilder->ConfigureDefaults(m_config); // (e.g. --cc=ibta's switch half)
    m_simulatorSetup.Apply(m_config);             // (seed, run, engine, scheduler, checksums)
    // Every attribute a knob sets through Config::SetDefault (its declaration says how)
    m_config.ApplyKnobDefaults();
}

void
ScenarioRunner::ApplyAttributeOverrides() const
{
    // An ns-3 default of an attribute a flag sets (the knobs declare which) would be
    // overwritten, or would silently win over the flag: refused, naming the flag.
    m_config.CheckAttributeOverrides();
    // The training engine takes its tag space from the collective transport's.
    const std::string tagSpace = "ns3::TrainingEngine::TagSpace";
    for (const auto& [name, value] : m_config.attributes)
    {
        if (ScenarioConfig::CanonicalAttribute(name) ==
            ScenarioConfig::CanonicalAttribute(tagSpace))
        {
            throw ConfigError("--" + name + "=" + value + ": the runner sets " + tagSpace +
                              " from --ns3::RdmaCollectiveTransport::TagSpace; set it there "
                              "(allowed: an attribute no flag sets)");
        }
    }
    m_config.ApplyAttributes();
}

void
ScenarioRunner::BuildFabric()
{
    const FabricBuilder::Context context{m_graph,
                                         m_routes,
                                         m_partition,
                                         CongestionControlSetup::Overrides(m_config)};
    m_fabric = m_fabricBuilder->Build(m_config, context);
    m_faults.Install(m_config, *m_graph, m_fabric);
    if (m_config.GetTransport() == ScenarioConfig::Transport::TCP)
    {
        // RoCEv2's Ethernet ports, or InfiniBand's through IPoIB
        m_tcp = TcpTransportSetup::Install(m_config, m_fabric);
    }
}

std::string
ScenarioRunner::PcapDirectory() const
{
    return m_partition.empty() ? m_writer->GetDirectory() : m_config.out;
}

std::function<bool(uint32_t, uint32_t)>
ScenarioRunner::OwnPorts(std::function<bool(uint32_t, uint32_t)> filter) const
{
    if (m_partition.empty())
    {
        return filter;
    }
    // --mpi: each rank writes the pcaps of the ports of its own nodes
    return [filter, partition = m_partition, rank = m_rank](uint32_t node, uint32_t port) {
        return partition[node] == rank && filter(node, port);
    };
}

void
ScenarioRunner::OpenOutput()
{
    m_writer->Open();
    // The writer removes only its own stale files; the runner's pcaps are the runner's.
    if (m_rank == 0)
    {
        RunRecorder::RemoveStalePcaps(PcapDirectory());
    }
    RankCoordinator::Barrier(); // (--mpi: before any rank opens its pcaps)
}

void
ScenarioRunner::ConnectMonitors()
{
    m_recorder = CreateObject<RunRecorder>();
    m_recorder->SetAttribute("QueueSampleInterval", TimeValue(m_config.qlenInterval));
    m_recorder->SetWriter(m_writer.get());
    if (!m_partition.empty())
    {
        // --mpi: a node's rank writes its rows
        m_recorder->SetNodeFilter([this](uint32_t node) { return Owns(node); });
    }
    m_recorder->SetMessageCallback(MakeCallback(&ScenarioRunner::OnMessage, this));
    m_recorder->Install(m_fabric);
    if (m_config.attribution)
    {
        m_attribution = CreateObject<AttributionRecorder>();
        m_attribution->Install(m_fabric);
    }
    if (m_tcp)
    {
        m_recorder->AddTcpTransport(m_tcp);
    }
    if (!m_config.mpi) // (--mpi: RankRun's completion check decides, with every rank's counts)
    {
        // Done once every workload that has work is (and one has).
        m_recorder->AddCompletionCheck([this]() {
            return HasWork() &&
                   std::all_of(m_workloads.begin(), m_workloads.end(), [](const auto& w) {
                       return !w->HasWork() || w->IsFinished();
                   });
        });
    }
}

void
ScenarioRunner::OnMessage(const RdmaFabric::MessageRecord& r, bool tcp)
{
    // (the recorder wrote its fct.csv row and checks for the end after this)
    m_lastCompletionPs = std::max(m_lastCompletionPs, r.end.GetPicoSeconds());
    for (const auto& workload : m_workloads)
    {
        workload->OnMessage(r, tcp);
    }
}

bool
ScenarioRunner::HasWork() const
{
    return std::any_of(m_workloads.begin(), m_workloads.end(), [](const auto& w) {
        return w->HasWork();
    });
}

RankRun::Progress
ScenarioRunner::Progress() const
{
    RankRun::Progress p;
    for (const auto& workload : m_workloads)
    {
        workload->AddProgress(p);
    }
    return p;
}

nlohmann::json
ScenarioRunner::MakeSummary(double wallSeconds, bool complete)
{
    RdmaFabric::Counters k = m_fabric->GetCounters();
    if (m_mpi)
    {
        m_mpi->SumCounters(k);
    }
    nlohmann::json s;
    s["complete"] = complete;
    s["config"] = m_config.ToJson();
    if (!m_config.cluster.empty())
    {
        s["cluster"] = m_config.ClusterJson();
    }
    if (CongestionControlRegistry::Has(m_config.cc))
    {
        s["congestion_control"] = CongestionControlSetup::ToJson(m_config, *m_fabricBuilder);
    }
    // What every switch ran with (--switch-latency / --cut-through, or the fabric's).
    const std::pair<Time, bool> timing = m_fabricBuilder->GetSwitchTiming();
    s["switch_forwarding"] = {{"latency_ns", timing.first.GetPicoSeconds() / 1000.0},
                              {"cut_through", timing.second}};
    s["topology"] = {{"description", m_graph->Describe()},
                     {"hosts", m_graph->GetNHosts()},
                     {"switches", m_graph->GetNSwitches()},
                     {"links", m_graph->GetNLinks()}};
    const uint64_t finished = AddRunTotals(s, wallSeconds, k.packetHops);
    AddCounters(s, k);
    uint64_t expected = 0;
    for (const auto& workload : m_workloads)
    {
        expected += workload->GetExpectedMessages();
    }
    // (--mpi: every rank posts every message, each finishes on its sender's rank)
    const uint64_t unfinished = m_config.mpi ? expected - finished : m_fabric->GetPendingMessages();
    s["messages"] = {{"expected", expected}, {"finished", finished}, {"unfinished", unfinished}};
    s["fct"] = m_writer->FctStats();
    s["fct_by_kind"] = m_writer->FctStatsByKind();
    s["collectives"] = nlohmann::json::array(); // (a collective workload's, else none)
    for (const auto& workload : m_workloads)
    {
        workload->AddSummary(s); // (collectives, training, flow_workload, ...)
    }
    if (m_tcp)
    {
        s["tcp"] = TcpTransportSetup::ToJson(m_config, *m_tcp, *m_fabric);
    }
    for (auto it = m_extraSummary.begin(); it != m_extraSummary.end(); ++it)
    {
        s[it.key()] = it.value();
    }
    m_faults.AddSummary(s, *m_recorder);
    FastForwardSetup::AddInactive(m_config, s);
    AddUnfinished(s, complete, unfinished);
    return s;
}

uint64_t
ScenarioRunner::AddRunTotals(nlohmann::json& s, double wallSeconds, uint64_t packetHops) const
{
    double simSeconds =
        m_mpi ? Time(m_mpi->GetEndPs()).GetSeconds() : Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    uint64_t peakRss = MemoryEstimate::PeakResidentBytes();
    uint64_t finished = 0;
    for (const auto& workload : m_workloads)
    {
        finished += workload->GetFinishedMessages();
    }
    if (m_mpi)
    {
        events = RankCoordinator::Sum({events})[0];
        finished = RankCoordinator::Sum({finished})[0];
        peakRss = static_cast<uint64_t>(RankCoordinator::Max({static_cast<int64_t>(peakRss)})[0]);
        s["mpi"] = m_mpi->ToJson(wallSeconds,
                                 MemoryEstimate::PeakResidentBytes(),
                                 Progress().collective,
                                 *m_graph);
        // the run's wall time is its slowest rank's
        wallSeconds = RankCoordinator::Max({static_cast<int64_t>(wallSeconds * 1e9)})[0] / 1e9;
    }
    s["sim_time_s"] = simSeconds;
    s["wall_s"] = wallSeconds;
    s["simulator_impl"] = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
    s["events"] = events;
    s["events_per_s"] = wallSeconds > 0 ? events / wallSeconds : 0.0;
    s["packet_hops"] = packetHops;
    s["packet_hops_per_s"] = wallSeconds > 0 ? packetHops / wallSeconds : 0.0;
    s["peak_rss_bytes"] = peakRss;
    return finished;
}

void
ScenarioRunner::AddCounters(nlohmann::json& s, const RdmaFabric::Counters& k) const
{
    RunRecorder::AddCounters(s, k);
    s["lossless_drop_is_bug"] = k.losslessDrops > 0 && !m_config.allowLossyHeadroom;
    s["lossless_broken_on_purpose"] = m_config.allowLossyHeadroom;
}

void
ScenarioRunner::AddUnfinished(nlohmann::json& s, bool complete, uint64_t unfinished) const
{
    if (m_detector && m_detector->Found())
    {
        s["deadlock"] = RunRecorder::DeadlockJson(*m_detector);
        s["unfinished"] = "deadlock at " +
                          std::to_string(m_detector->GetDetectionTime().GetSeconds()) + " s with " +
                          std::to_string(unfinished) +
                          " messages in flight: " + m_detector->DescribeCycle();
    }
    else if (!complete)
    {
        s["unfinished"] = "stop time " + std::to_string(m_config.stopTime.GetSeconds()) +
                          " s reached with " + std::to_string(unfinished) + " messages in flight";
    }
}

void
ScenarioRunner::TearDown()
{
    for (const auto& workload : m_workloads)
    {
        workload->Dispose();
    }
    if (m_detector)
    {
        m_detector->Dispose();
        m_detector = nullptr;
    }
    m_faults.Dispose();
    m_fabric->Dispose(); // drops the workloads' callbacks and the fabric's parts
    m_fabric = nullptr;
    if (m_recorder)
    {
        m_recorder->Dispose();
        m_recorder = nullptr;
    }
    if (m_attribution)
    {
        m_attribution->Dispose();
        m_attribution = nullptr;
    }
    m_routes = nullptr;
    m_graph = nullptr;
    Simulator::Destroy();
    m_simulatorSetup.Restore();
}

void
ScenarioRunner::InstallWorkloads()
{
    std::function<bool(uint32_t, uint32_t)> pcapPorts; // (checks --pcap-nodes)
    if (m_config.pcap)
    {
        // A workload may send its first frames while it is installed: the pcaps must be
        // there before it, so with --pcap an error of the workload's comes after --out
        // was opened (its contract files are then removed, as for a failed run).
        try
        {
            pcapPorts = OwnPorts(RunRecorder::PcapPortFilter(*m_graph, m_config.pcapNodes));
        }
        catch (const std::invalid_argument& e)
        {
            throw ConfigError("--pcap-nodes=" + m_config.Get("pcap-nodes") + ": " + e.what());
        }
        OpenOutput();
        m_recorder->EnablePcaps(PcapDirectory(), pcapPorts, m_config.pcapSnaplen);
    }
    // --workload's component (made once, by name), then the flows' (--background, --flows)
    m_workloads.push_back(
        ScenarioWorkloadRegistry::Create(m_config.workload, m_config.gpusPerServer));
    m_workloads.push_back(std::make_unique<FlowScenarioWorkload>());
    const ScenarioWorkload::Context context{m_fabric, m_tcp, m_writer.get(), [this]() {
                                                m_recorder->CheckCompletion();
                                            }};
    try
    {
        for (const auto& workload : m_workloads)
        {
            workload->Install(m_config, context);
        }
    }
    catch (const ConfigError&)
    {
        m_writer->Abandon(); // (nothing on disk is touched unless --pcap opened it)
        throw;
    }
    if (!m_writer->IsOpen())
    {
        OpenOutput();
    }
    for (const auto& workload : m_workloads)
    {
        workload->OpenFiles(); // (fct.txt)
    }
}

void
ScenarioRunner::ScheduleChecks()
{
    m_recorder->StartQueueSampling(); // (--qlen-interval)
    if (m_config.deadlockStallTime > Time(0) && !m_config.mpi)
    {
        m_detector = CreateObject<DeadlockDetector>();
        m_detector->SetAttribute("StallTime", TimeValue(m_config.deadlockStallTime));
        m_detector->Install(m_fabric);
    }
    if (!HasWork())
    {
        m_recorder->SetWorkDone(); // nothing to wait for: do not sample queues until the stop time
    }
    else if (m_mpi)
    {
        m_mpi->StartCompletionCheck([this]() { return Progress(); },
                                    [this]() {
                                        m_recorder->SetWorkDone();
                                        Simulator::Stop();
                                    });
    }
}

void
ScenarioRunner::WriteWorkloadFiles()
{
    for (const auto& workload : m_workloads)
    {
        workload->WriteFiles(*m_writer); // (fct.txt, training CSVs)
    }
    if (m_config.portBytes)
    {
        m_recorder->WritePortBytes();
    }
    if (m_attribution)
    {
        m_attribution->WriteCsv(*m_writer);
        if (m_attribution->HasCriticalPaths())
        {
            m_attribution->WriteCriticalPathCsv(*m_writer);
        }
    }
    if (const std::string pcap = m_fabric->GetPcapWriteError(); !pcap.empty())
    {
        m_writer->AbandonAfterWriteError("cannot write " + pcap);
    }
}

void
ScenarioRunner::Resolve()
{
    // --jobs: each job alone first (their own simulations, before this one's settings)
    JobsScenarioWorkload::RunBaselines(m_config);
    m_fabricBuilder = FabricBuilderRegistry::Create(m_config.fabric); // --fabric, once
    ConfigureDefaults();
    m_config.Validate();
    RankRun::Check(m_config);
    CongestionControlSetup::Resolve(m_config, *m_fabricBuilder);
    if (!m_fabricBuilder->CarriesPfc() && !m_config.IsGiven("pfc") &&
        m_fabricBuilder->GetLinkLayer() == FabricBuilder::LinkLayer::ETHERNET)
    {
        m_config.pfc = false; // echoed as run (UET), so summary.json replays
    }
    ApplyAttributeOverrides();
    if (!m_config.chunk && !CollectiveWorkload::IsTunerChoice(m_config.protocol))
    {
        // '' becomes the protocol's step (echoed), with its attributes as given; under
        // --protocol=auto the step of the protocol the tuner picks
        m_config.chunk = CollectiveProtocol::Create(m_config.protocol)->GetStepBytes();
    }
}

void
ScenarioRunner::AddAttribution(nlohmann::json& summary)
{
    if (!m_attribution)
    {
        return;
    }
    summary["tail_attribution"] = m_attribution->TailJson();
    if (m_attribution->HasCriticalPaths())
    {
        summary["critical_path"] = m_attribution->CriticalPathJson();
    }
}

nlohmann::json
ScenarioRunner::Run()
{
    // The attribute defaults this run sets go back as they were when it returns or throws
    const AttributeDefaults defaults;
    Resolve();
    m_graph = BuildTopology(m_config);
    if (m_config.mpi)
    {
        m_mpi = std::make_unique<RankRun>(m_config);
        m_mpi->Partition(*m_graph);
        m_rank = m_mpi->GetRank();
        m_partition = m_mpi->GetPartition();
    }
    m_extraSummary["memory_estimate_bytes"] =
        MemoryEstimate::FabricBytes(SizeOf(m_graph), m_config.fabric);
    m_routes = BuildRoutes(m_config, m_graph);
    // --mpi: each rank writes its rows into its part folder; rank 0 merges them. Nothing
    // goes to disk until the configuration has passed every check below: a refused run
    // leaves --out as it was.
    m_writer =
        std::make_unique<OutputWriter>(m_mpi ? m_mpi->PartDirectory(m_rank) : m_config.out, false);
    BuildFabric();
    FabricChecks::Run(*m_fabric, m_graph, m_routes, m_rank == 0, m_extraSummary);
    ConnectMonitors();
    InstallWorkloads();
    m_recorder->WriteTopology(); // topology.csv
    // A write that fails (a full disk) ends the run there; WriteSummary then throws.
    m_writer->SetWriteErrorCallback(static_cast<void (*)()>(&Simulator::Stop));
    ScheduleChecks();
    Simulator::Stop(m_config.stopTime);
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool complete =
        (m_recorder->IsWorkDone() || !HasWork()) && !(m_detector && m_detector->Found());
    if (m_mpi)
    {
        m_mpi->Finish(complete, m_lastCompletionPs, Progress(), *m_graph, m_writer);
        m_recorder->SetWriter(m_writer.get()); // (rank 0: the merged writer; ports.csv too)
    }
    if (m_attribution)
    {
        for (const auto& workload : m_workloads)
        {
            if (Ptr<CollectiveApplication> app = workload->GetCollectiveApplication())
            {
                m_attribution->AddCriticalPaths(app);
            }
        }
    }
    nlohmann::json summary = MakeSummary(wall, complete);
    AddAttribution(summary);
    try
    {
        WriteWorkloadFiles();
        if (m_rank == 0) // (--mpi: the other ranks' rows are in rank 0's files)
        {
            summary = m_writer->WriteSummary(summary);
        }
    }
    catch (const OutputError&)
    {
        TearDown();
        throw;
    }
    TearDown();
    return summary;
}

} // namespace ns3
