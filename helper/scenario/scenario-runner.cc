/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "fabric-builder-registry.h"
#include "fabric-builder.h"
#include "memory-estimate.h"
#include "rank-coordinator.h"
#include "rank-run.h"
#include "size-parser.h"
#include "workload-options.h"

#include "ns3/boolean.h"
#include "ns3/buffer-coverage-check.h"
#include "ns3/channel-dependency-graph.h"
#include "ns3/collective-protocol.h"
#include "ns3/collective-workload.h"
#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/deadlock-detector.h"
#include "ns3/fault-injection-helper.h"
#include "ns3/flow-workload.h"
#include "ns3/global-value.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-switch.h"
#include "ns3/integer.h"
#include "ns3/lambda-callback.h"
#include "ns3/load-balancing-registry.h"
#include "ns3/log.h"
#include "ns3/message-kind.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/output-error.h"
#include "ns3/output-writer.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine-registry.h"
#include "ns3/routing-engine.h"
#include "ns3/run-recorder.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-flow-transport.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-registry.h"
#include "ns3/training-workload.h"
#include "ns3/uinteger.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <stdexcept>
#include <sys/resource.h>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace
{
/// \return the TypeId name of knob value \p name (the knob allows only listed names).
const std::string&
TypeNameOf(const std::vector<ScenarioConfig::NamedType>& types, const std::string& name)
{
    for (const auto& t : types)
    {
        if (t.name == name)
        {
            return t.typeId;
        }
    }
    throw ConfigError("'" + name + "' is not a listed value"); // Set() checked it already
}

uint64_t
PeakRssBytes()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

/**
 * --pcap-nodes as a port filter: each entry a node name (TopologyGraph::GetNodeName) or
 * id, all its ports or one. Empty: every port.
 * \throws ConfigError naming an entry whose node or port the topology does not have
 */
std::function<bool(uint32_t, uint32_t)>
PcapPortFilter(const ScenarioConfig& c, const TopologyGraph& g)
{
    if (c.pcapNodes.empty())
    {
        return [](uint32_t, uint32_t) { return true; };
    }
    std::map<std::string, uint32_t> byName;
    for (uint32_t node = 0; node < g.GetNNodes(); ++node)
    {
        byName[g.GetNodeName(node)] = node;
    }
    auto selected = std::make_shared<std::set<std::pair<uint32_t, uint32_t>>>();
    for (const auto& [text, port] : c.pcapNodes)
    {
        uint32_t node = 0;
        if (auto it = byName.find(text); it != byName.end())
        {
            node = it->second;
        }
        else if (text.find_first_not_of("0123456789") == std::string::npos && text.size() < 10 &&
                 std::stoul(text) < g.GetNNodes())
        {
            node = static_cast<uint32_t>(std::stoul(text));
        }
        else
        {
            throw ConfigError("--pcap-nodes=" + c.Get("pcap-nodes") + ": no node '" + text +
                              "' (allowed: a name of topology.csv, e.g. " + g.GetNodeName(0) +
                              " or " + g.GetNodeName(g.GetNNodes() - 1) + ", or a node id 0.." +
                              std::to_string(g.GetNNodes() - 1) + ")");
        }
        const auto nPorts = static_cast<uint32_t>(g.GetPorts(node).size());
        if (port && *port >= nPorts)
        {
            throw ConfigError("--pcap-nodes=" + c.Get("pcap-nodes") + ": " + g.GetNodeName(node) +
                              " has no port " + std::to_string(*port) + " (allowed 0.." +
                              std::to_string(nPorts - 1) + ")");
        }
        for (uint32_t p = 0; p < nPorts; ++p)
        {
            if (!port || *port == p)
            {
                selected->insert({node, p});
            }
        }
    }
    return [selected](uint32_t node, uint32_t port) { return selected->count({node, port}) > 0; };
}

/// The runner's pcap files in --out: PCAP_PREFIX-NODE-PORT.pcap (RdmaFabric::AddPcapPort).
constexpr const char* PCAP_PREFIX = "ai-fabric";

/**
 * Delete the pcaps a previous run of the runner left in \p dir (PCAP_PREFIX-NODE-PORT.pcap,
 * digits only), so that none passes for this run's: called before this run opens its
 * own. Other files, *.pcap of other names included, are kept.
 * \throws ConfigError naming a file that could not be removed
 */
void
RemoveStaleRunnerPcaps(const std::string& dir)
{
    namespace fs = std::filesystem;
    const std::string prefix = std::string(PCAP_PREFIX) + "-";
    auto digits = [](const std::string& s) {
        return !s.empty() &&
               std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    };
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
    {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".pcap")
        {
            continue;
        }
        const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - 5);
        const size_t dash = middle.find('-');
        if (dash == std::string::npos || !digits(middle.substr(0, dash)) ||
            !digits(middle.substr(dash + 1)) || !entry.is_regular_file())
        {
            continue;
        }
        fs::remove(entry.path(), ec);
        if (ec)
        {
            throw ConfigError("--out: cannot remove '" + entry.path().string() +
                              "': " + ec.message());
        }
    }
}

} // namespace

ScenarioRunner::ScenarioRunner(const ScenarioConfig& config)
    : m_config(config)
{
}

ScenarioRunner::~ScenarioRunner() = default;

TopologyHelper::Size
ScenarioRunner::SizeOf(Ptr<const TopologyGraph> graph)
{
    return {graph->GetNHosts(), graph->GetNSwitches(), graph->GetNLinks()};
}

Ptr<TopologyGraph>
ScenarioRunner::BuildTopology(const ScenarioConfig& c)
{
    try
    {
        const TopologyRegistry::Links links{c.hostRate,
                                            c.linkDelay,
                                            c.fabricRate,
                                            c.linkDelay,
                                            c.cableLengths,
                                            c.propagationDelay};
        const TopologyRegistry::Entry& entry = TopologyRegistry::Get(c.topology);
        const TopologyRegistry::FlagReader flag = [&c](const std::string& name) {
            return c.Get(name);
        };
        std::string what = "--topology=" + c.topology;
        for (const std::string& name : entry.flags)
        {
            // Plain hosts (one GPU per server): the server flags say nothing.
            const bool serverFlag = name == "gpus-per-server" || name == "scaleup-rate" ||
                                    name == "scaleup-latency" || name == "scaleup-efficiency";
            if (!serverFlag || c.gpusPerServer > 1 || c.topology == "rail")
            {
                what += " --" + name + "=" + c.Get(name);
            }
        }
        // Refused before anything is allocated when the shape's closed form says so;
        // a topology file is as large as its own lines, so it is checked once read.
        if (entry.size)
        {
            MemoryEstimate::Check(entry.size(flag), c.fabric, what);
        }
        Ptr<TopologyGraph> graph = entry.build(links, flag);
        if (!entry.size)
        {
            MemoryEstimate::Check(SizeOf(graph), c.fabric, what);
        }
        return graph;
    }
    catch (const ConfigError&)
    {
        throw;
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--topology=") + c.topology + ": " + e.what());
    }
}

Ptr<RouteTable>
ScenarioRunner::BuildRoutes(const ScenarioConfig& c, Ptr<TopologyGraph> graph)
{
    try
    {
        return RoutingEngine::BuildTable(c.routing, graph);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--routing=") + c.routing + ": " + e.what());
    }
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
    if (!m_config.channels)
    {
        // '' becomes the count used (echoed in summary.json): NCCL's for the topology
        m_config.channels = CollectiveWorkload::ChannelsFor(WorkloadOptions::Collective(m_config));
    }
    if (!m_config.protocolLatency)
    {
        // '' becomes the value used: the protocols' step latencies where NCCL's model chose
        m_config.protocolLatency = m_config.protocol == "auto" || m_config.algorithm == "auto";
    }
    m_fabricBuilder->ConfigureDefaults(m_config); // (e.g. --cc=ibta's switch half)
    const ScenarioConfig& c = m_config;
    // Picosecond resolution: at 400 Gb/s one byte is 20 ps, so nanoseconds would
    // round every serialization time.
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
    RngSeedManager::SetSeed(c.seed);
    RngSeedManager::SetRun(c.run);
    // The simulator implementation is chosen by a global value read when the first
    // Simulator call creates it; one that exists already (a caller that did not
    // Simulator::Destroy) stays, and the summary names what ran. Run() restores the
    // global value, so later simulations in this process get what they would have.
    StringValue previousImpl;
    GlobalValue::GetValueByName("SimulatorImplementationType", previousImpl);
    m_previousSimulatorImpl = previousImpl.Get();
    // --mpi: the ranks' engine, chosen in one place (RankCoordinator::GetEngineTypeName)
    // (Only when MPI is running: otherwise RankRun::Check refuses --mpi with its reason, and
    // the engine's type may not even exist in this build.)
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(c.mpi && RankCoordinator::IsEnabled()
                                      ? RankCoordinator::GetEngineTypeName()
                                      : TypeNameOf(ScenarioConfig::SimulatorImpls(), c.simulator)));
    ObjectFactory scheduler;
    scheduler.SetTypeId(TypeNameOf(ScenarioConfig::EventLists(), c.scheduler));
    Simulator::SetScheduler(scheduler);
    BooleanValue previousChecksums;
    GlobalValue::GetValueByName("ChecksumEnabled", previousChecksums);
    m_previousChecksumEnabled = previousChecksums.Get();
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(c.checksums));
    // Every attribute a knob sets through Config::SetDefault (its declaration says how)
    c.ApplyKnobDefaults();
}

namespace
{

/// Where attribute \p attr of \p tid is declared (itself or a parent), and whether found.
bool
DeclaringType(TypeId tid, const std::string& attr, TypeId* declaring)
{
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attr)
            {
                *declaring = t;
                return true;
            }
        }
        if (t.GetParent() == t)
        {
            return false;
        }
    }
}

} // namespace

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

std::vector<std::pair<std::string, std::string>>
ScenarioRunner::CongestionControlOverrides() const
{
    std::vector<std::pair<std::string, std::string>> out;
    if (!CongestionControlRegistry::Has(m_config.cc))
    {
        return out;
    }
    TypeId cc = TypeId::LookupByName(CongestionControlRegistry::Get(m_config.cc).typeName);
    for (const auto& [name, value] : m_config.attributes)
    {
        const size_t sep = name.rfind("::");
        const std::string attr = name.substr(sep + 2);
        TypeId declaring;
        TypeId named = TypeId::LookupByName(name.substr(0, sep));
        // an attribute the chosen algorithm has (its own or its base's), named through
        // that algorithm or a base class of it
        if (DeclaringType(cc, attr, &declaring) && (cc == named || cc.IsChildOf(named)))
        {
            out.emplace_back(attr, value);
        }
    }
    return out;
}

void
ScenarioRunner::ResolveCcPreset()
{
    const bool ecnGiven = m_config.ecn.has_value();
    if (!m_config.ecn && m_fabricBuilder->MarksEcn())
    {
        // An algorithm that reacts to delay alone (Swift, TIMELY: usesEcn false) gets
        // no marking, hence no CNP, unless --ecn=1 asks for it. Echoed as the value used.
        // TCP flows negotiate ECN (RFC 3168; DCTCP needs it): marking on.
        m_config.ecn = m_config.transport == "tcp" ||
                       !CongestionControlRegistry::Has(m_config.cc) ||
                       CongestionControlRegistry::Get(m_config.cc).usesEcn;
    }
    if (m_config.ecn == false && m_fabricBuilder->MarksEcn())
    {
        // Marking thresholds with marking off would be ignored without a word.
        for (const char* flag : {"kmin", "kmax", "pmax"})
        {
            if (!m_config.Get(flag).empty())
            {
                throw ConfigError("--" + std::string(flag) + "=" + m_config.Get(flag) +
                                  " has no effect: ECN marking is off (" +
                                  (ecnGiven
                                       ? std::string("--ecn=0")
                                       : "--cc=" + m_config.cc + " marks nothing unless --ecn=1") +
                                  "); drop it or give --ecn=1");
            }
        }
    }
    if (!m_config.ccPreset.empty() || !CongestionControlRegistry::Has(m_config.cc))
    {
        return;
    }
    // '' becomes the preset that runs, so that summary.json and the printed header name
    // it: the fabric's choice (RoCEv2 takes the preset an algorithm names for it: DCQCN's
    // paper preset does not converge to fairness within 10 ms at 100 Gb/s, doc/dcqcn.md,
    // validation, so DCQCN names the HPCC simulator's), by default the attribute
    // defaults, which are the algorithm's default preset.
    m_config.ccPreset =
        m_fabricBuilder->DefaultCcPreset(CongestionControlRegistry::Get(m_config.cc));
}

void
ScenarioRunner::BuildFabric()
{
    const FabricBuilder::Context context{m_graph,
                                         m_routes,
                                         m_partition,
                                         CongestionControlOverrides()};
    m_fabric = m_fabricBuilder->Build(m_config, context);
    InjectFaults();
    if (m_config.transport == "tcp")
    {
        InstallTcp(); // RoCEv2's Ethernet ports, or InfiniBand's through IPoIB
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
ScenarioRunner::InjectFaults()
{
    const ScenarioConfig& c = m_config;
    FaultInjectionHelper faults;
    const std::string stormFlag = "--pfc-storm=" + c.Get("pfc-storm");
    for (const auto& storm : c.pfcStorms)
    {
        try
        {
            faults.PfcStorm(m_fabric, storm.host, storm.start, storm.end);
            if (storm.start >= c.stopTime)
            {
                throw std::invalid_argument("it starts at or after --stop-time=" +
                                            FormatTime(c.stopTime));
            }
        }
        catch (const std::invalid_argument& e)
        {
            RefuseFault(stormFlag, e);
        }
    }
    FailCables(faults);
    if (c.pfcWatchdogDetect > Time(0))
    {
        faults.SetPfcWatchdogAttribute("DetectionTime", TimeValue(c.pfcWatchdogDetect));
        faults.SetPfcWatchdogAttribute("RestorationTime", TimeValue(c.pfcWatchdogRestore));
        faults.SetPfcWatchdogAttribute(
            "Action",
            StringValue(c.pfcWatchdogAction == "drop" ? "Drop" : "Forward"));
        m_watchdog = faults.InstallPfcWatchdog(m_fabric);
    }
}

void
ScenarioRunner::RefuseFault(const std::string& flag, const std::invalid_argument& e)
{
    m_fabric->Dispose(); // break the fabric's reference cycles before giving up
    m_fabric = nullptr;
    throw ConfigError(flag + ": " + e.what());
}

void
ScenarioRunner::FailCables(const FaultInjectionHelper& faults)
{
    const ScenarioConfig& c = m_config;
    // --link-failure's cables, then each --node-failure switch's, all checked first.
    const std::string linkFlag = "--link-failure=" + c.Get("link-failure");
    const std::string nodeFlag = "--node-failure=" + c.Get("node-failure");
    std::vector<std::tuple<uint32_t, Time, Time, const std::string*>> cables; // link, down, up
    for (const auto& f : c.linkFailures)
    {
        cables.emplace_back(f.link, f.at, f.up, &linkFlag);
    }
    m_failedNodeOfLink.clear();
    for (const auto& f : c.nodeFailures)
    {
        std::vector<uint32_t> links;
        try
        {
            links = FaultInjectionHelper::GetNodeCables(*m_graph, f.node);
        }
        catch (const std::invalid_argument& e)
        {
            RefuseFault(nodeFlag, e);
        }
        for (uint32_t link : links)
        {
            cables.emplace_back(link, f.at, Time(0), &nodeFlag);
            m_failedNodeOfLink[link] = f.node;
        }
    }
    for (const auto& [link, down, up, flag] : cables)
    {
        try
        {
            faults.FailLink(m_fabric, link, down, up);
        }
        catch (const std::invalid_argument& e)
        {
            RefuseFault(*flag, e);
        }
    }
}

void
ScenarioRunner::OpenOutput()
{
    m_writer->Open();
    // The writer removes only its own stale files; the runner's pcaps are the runner's.
    if (m_rank == 0)
    {
        RemoveStaleRunnerPcaps(PcapDirectory());
    }
    RankCoordinator::Barrier(); // (--mpi: before any rank opens its pcaps)
}

void
ScenarioRunner::EnablePcaps(const std::function<bool(uint32_t, uint32_t)>& ports)
{
    if (m_config.pcapSnaplen != 0)
    {
        m_fabric->SetAttribute("PcapSnapLength", UintegerValue(m_config.pcapSnaplen));
    }
    m_fabric->EnablePcap(PcapDirectory() + "/" + PCAP_PREFIX, ports);
    for (const std::string& name : m_fabric->GetPcapFiles())
    {
        m_writer->AddRunFile(name); // a run abandoned leaves no pcap either
    }
}

void
ScenarioRunner::SchedulePointToPoint(const PointToPointPattern& pattern)
{
    m_expectedMessages += pattern.pairs.size();
    m_finished.push_back([this]() { return m_finishedMessages >= m_expectedMessages; });
    for (const auto& [src, dst] : pattern.pairs)
    {
        if (m_tcp)
        {
            m_tcp->PostFlow(src, dst, pattern.bytes, 0, pattern.kind);
        }
        else if (m_config.verb == "read")
        {
            m_fabric->PostRead(dst, src, pattern.bytes, 0, pattern.kind); // dst reads src
        }
        else if (m_config.verb == "send")
        {
            m_fabric->PostSend(src, dst, pattern.bytes, 0, pattern.kind);
        }
        else
        {
            m_fabric->PostWrite(src, dst, pattern.bytes, 0, pattern.kind);
        }
    }
}

void
ScenarioRunner::InstallTcp()
{
    const ScenarioConfig& c = m_config;
    std::string typeName;
    for (const auto& [name, type] : TcpFlowTransport::Variants())
    {
        if (name == c.tcpVariant)
        {
            typeName = type;
        }
    }
    NS_ABORT_MSG_IF(typeName.empty(), "--tcp-variant=" << c.tcpVariant << " (checked)");
    // The hosts' IP path in --tcp-priority's class (RoCEv2: priority and DSCP; IB: the
    // IPoIB service level).
    try
    {
        m_fabric->EnableIp(static_cast<uint8_t>(c.tcpPriority));
    }
    catch (const std::invalid_argument& e)
    {
        m_fabric->Dispose(); // break the fabric's reference cycles before giving up
        m_fabric = nullptr;
        throw ConfigError(std::string("--transport=tcp: ") + e.what());
    }
    // A segment and its IPv4 (20) and TCP (20 + 12 of timestamps) headers within the
    // IP device's MTU, which IPoIB makes 4 bytes less than the IB MTU: no IP
    // fragments (as Linux derives its MSS from the MTU).
    constexpr uint32_t IP_TCP_HEADER_BYTES = 20 + 20 + 12;
    const uint32_t deviceMtu = m_fabric->GetIpDevice(0)->GetMtu();
    m_tcp = CreateObject<TcpFlowTransport>();
    m_tcp->SetAttribute("SegmentSize",
                        UintegerValue(std::min(c.mtu, deviceMtu - IP_TCP_HEADER_BYTES)));
    m_tcp->Install(m_fabric, TypeId::LookupByName(typeName), c.ecn.value_or(true));
}

void
ScenarioRunner::ScheduleWorkload()
{
    const ScenarioConfig& c = m_config;
    const WorkloadRegistry::Entry* workload = nullptr;
    try
    {
        workload = &WorkloadRegistry::Get(c.workload);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--workload: ") + e.what());
    }
    switch (WorkloadRegistry::GetFamily(workload->name, c.gpusPerServer))
    {
    case WorkloadRegistry::NONE:
        break;
    case WorkloadRegistry::POINT_TO_POINT: {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(1);
        PointToPointPattern pattern;
        WorkloadOptions::AsConfigError([&]() {
            pattern =
                workload->pattern(WorkloadOptions::PointToPoint(c), m_fabric->GetNHosts(), rng);
        });
        SchedulePointToPoint(pattern);
        break;
    }
    case WorkloadRegistry::COLLECTIVE: {
        m_collective = CreateObject<CollectiveWorkload>();
        WorkloadOptions::AsConfigError(
            [&]() { m_collective->Setup(WorkloadOptions::Collective(c), m_fabric); });
        if (c.mpi && !m_collective->DependsOnlyOnDeliveriesAtSource())
        {
            throw ConfigError("--mpi=1 does not run --workload=" + c.workload +
                              " --algorithm=" + c.algorithm +
                              " yet: some of its transfers wait for deliveries at another host "
                              "than their source, which another rank may see; allowed across "
                              "ranks: an algorithm whose transfers wait only for deliveries at "
                              "their source (every --algorithm of the runner's collectives)");
        }
        OutputWriter* w = m_writer.get();
        if (!c.mpi) // (--mpi: rank 0 writes the rows after the run, into the merged files)
        {
            m_collective->SetRowCallback(MakeLambdaCallback<void, const OutputCollectiveRow&>(
                [w, this](const OutputCollectiveRow& r) {
                    w->AppendCollective(r);
                    if (m_fabric->GetPendingMessages() == 0)
                    {
                        // No fabric message left whose completion would check (nvls posts
                        // none): check once the operation has marked itself finished.
                        Simulator::ScheduleNow(&ScenarioRunner::MaybeFinish, this);
                    }
                }));
        }
        // The last iteration may end after its last message's acknowledgement (a
        // protocol's step latency): then its record ends the run.
        if (!c.mpi)
        {
            m_collective->SetFinishedCallback(
                MakeLambdaCallback<void>([this]() { MaybeFinish(); }));
        }
        m_collective->Start();
        m_finished.push_back([this]() { return m_collective->IsFinished(); });
        break;
    }
    case WorkloadRegistry::TRAINING: {
        m_training = CreateObject<TrainingWorkload>();
        WorkloadOptions::AsConfigError(
            [&]() { m_training->Setup(WorkloadOptions::Training(c), m_fabric); });
        // The last iteration may end with a compute step, after its last message.
        m_training->SetFinishedCallback(MakeLambdaCallback<void>([this]() { MaybeFinish(); }));
        m_training->Start();
        m_finished.push_back([this]() { return m_training->IsFinished(); });
        break;
    }
    }
}

void
ScenarioRunner::ScheduleFlows()
{
    const ScenarioConfig& c = m_config;
    if ((c.background.empty() || c.background == "none") && c.flows.empty())
    {
        return;
    }
    m_flowWorkload = CreateObject<FlowWorkload>();
    m_flowWorkload->SetAttribute("BackgroundDuration", TimeValue(c.backgroundDuration));
    m_flowWorkload->SetAttribute("QpSharing", StringValue(c.qpSharing));
    m_flowWorkload->SetAttribute("Verb", StringValue(c.verb == "send" ? "Send" : "Write"));
    m_flowWorkload->AssignStreams(100);
    if (m_tcp)
    {
        Ptr<TcpFlowTransport> tcp = m_tcp;
        m_flowWorkload->SetPoster([tcp](const FlowSpec& f, uint8_t kind) {
            return tcp->PostFlow(f.src, f.dst, f.sizeBytes, f.id, kind);
        });
    }
    else if (c.verb == "read")
    {
        // The flow's bytes go src -> dst: dst reads them (on the pair's connection, or
        // one of the flow's own as --qp-sharing says).
        Ptr<RdmaFabric> fabric = m_fabric;
        const bool perFlow = c.qpSharing == "flow";
        m_flowWorkload->SetPoster([fabric, perFlow](const FlowSpec& f, uint8_t kind) {
            return perFlow ? fabric->PostReadOnOwnConnection(f.dst, f.src, f.sizeBytes, f.id, kind)
                           : fabric->PostRead(f.dst, f.src, f.sizeBytes, f.id, kind);
        });
    }
    m_flowWorkload->DeferFctTxt(); // (opened once the writer has opened --out)
    WorkloadOptions::AsConfigError(
        [&]() { m_flowWorkload->Install(WorkloadOptions::Flows(c), m_fabric); });
    m_finished.push_back([this]() {
        return m_flowWorkload->AllPosted() && m_finishedFlows >= m_flowWorkload->GetMessageCount();
    });
}

void
ScenarioRunner::CheckDeadlockFreedom()
{
    // Only lossless links can deadlock: RoCEv2 with PFC, InfiniBand always.
    if (!m_fabric->HasLosslessLinks())
    {
        m_extraSummary["routing_deadlock_free"] = nullptr;
        return;
    }
    // A RoCEv2 switch with UseClassRule false keeps every packet in one class.
    const bool classesOff = m_routes->GetNumClasses() > 1 && m_fabric->GetSwitchClasses() == 1;
    const bool useClasses = !classesOff;
    m_extraSummary["routing_vls"] = useClasses ? m_routes->GetNumClasses() : 1;
    ChannelDependencyGraph cdg(m_graph, m_routes, useClasses);
    const ChannelDependencyGraph::Result r = cdg.Compute(kDependencyCheckBudget);
    if (r == ChannelDependencyGraph::Result::NOT_CHECKED)
    {
        m_extraSummary["routing_deadlock_free"] = nullptr;
        return;
    }
    const bool free = r == ChannelDependencyGraph::Result::ACYCLIC;
    m_extraSummary["routing_deadlock_free"] = free;
    if (!free)
    {
        const std::string warning =
            "--routing=" + m_routes->GetEngineName() +
            (classesOff ? " with one class (RoceSwitch::UseClassRule false)" : "") +
            " is not deadlock free on this topology: its channel dependencies close a cycle "
            "(node:port:class " +
            cdg.DescribeCycle(8) +
            "), so lossless links can lock up (the run then stops with exit 4); updown is "
            "deadlock free on any topology";
        if (m_rank == 0)
        {
            std::cerr << "ai-fabric-sim: warning: " << warning << "\n";
        }
        m_extraSummary["warnings"].push_back(warning);
    }
}

void
ScenarioRunner::CheckBufferCoverage()
{
    const std::string warning = BufferCoverageCheck::Describe(*m_fabric);
    if (warning.empty())
    {
        return;
    }
    if (m_rank == 0)
    {
        std::cerr << "ai-fabric-sim: warning: " << warning << "\n";
    }
    m_extraSummary["warnings"].push_back(warning);
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
    if (m_tcp)
    {
        m_recorder->AddTcpTransport(m_tcp);
    }
    if (!m_config.mpi) // (--mpi: RankRun's completion check decides, with every rank's counts)
    {
        // One predicate per source of work (pattern, collectives, flows); all true = done.
        m_recorder->AddCompletionCheck([this]() {
            return !m_finished.empty() && std::all_of(m_finished.begin(),
                                                      m_finished.end(),
                                                      [](const auto& done) { return done(); });
        });
    }
}

void
ScenarioRunner::OnMessage(const RdmaFabric::MessageRecord& r, bool tcp)
{
    // (the recorder wrote its fct.csv row and checks for the end after this)
    m_lastCompletionPs = std::max(m_lastCompletionPs, r.end.GetPicoSeconds());
    if (tcp && m_flowWorkload)
    {
        m_flowWorkload->NotifyFinished(r); // (RDMA flows reach it from the fabric)
    }
    if (r.kind == KIND_FLOW || r.kind == KIND_BACKGROUND)
    {
        m_finishedFlows++;
    }
    else if (r.kind != KIND_COLLECTIVE) // (the collective workload counts its own)
    {
        m_finishedMessages++; // a point-to-point workload's
    }
    else
    {
        m_finishedCollective++; // (--mpi: the completion checks wait for every one)
    }
}

void
ScenarioRunner::MaybeFinish()
{
    m_recorder->CheckCompletion(); // (--mpi: it has no checks; RankRun decides)
}

nlohmann::json
ScenarioRunner::FailuresJson() const
{
    return m_recorder->FailuresJson(m_failedNodeOfLink);
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
        s["congestion_control"] = CongestionControlJson();
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
    uint64_t flows = m_flowWorkload ? m_flowWorkload->GetMessageCount() : 0;
    // (--mpi: every rank posts every message, each finishes on its sender's rank)
    const uint64_t unfinished =
        m_config.mpi ? m_expectedMessages + flows - finished : m_fabric->GetPendingMessages();
    s["messages"] = {{"expected", m_expectedMessages + flows},
                     {"finished", finished},
                     {"unfinished", unfinished}};
    s["fct"] = m_writer->FctStats();
    s["fct_by_kind"] = m_writer->FctStatsByKind();
    s["collectives"] = m_collective ? m_collective->ToJson() : nlohmann::json::array();
    if (m_training)
    {
        s["training"] = m_training->ToJson();
    }
    for (auto it = m_extraSummary.begin(); it != m_extraSummary.end(); ++it)
    {
        s[it.key()] = it.value();
    }
    if (!m_config.linkFailures.empty() || !m_config.nodeFailures.empty())
    {
        s["failures"] = FailuresJson();
    }
    if (m_watchdog)
    {
        s["pfc_watchdog_events"] = WatchdogJson();
    }
    AddUnfinished(s, complete, unfinished);
    return s;
}

nlohmann::json
ScenarioRunner::CongestionControlJson() const
{
    // What the preset and any --ns3:: overrides set: the controller's attributes and,
    // on RoCEv2, the switches' ECN marking (before the per-port scaling with the
    // link rate).
    CongestionControlFactory used(m_config.cc, m_config.ccPreset);
    for (const auto& [attr, value] : CongestionControlOverrides())
    {
        used.Set(attr, StringValue(value));
    }
    nlohmann::json cc = {{"algorithm", m_config.cc},
                         {"preset", m_config.ccPreset},
                         {"attributes", FabricBuilder::AttributesJson(used.Create())}};
    m_fabricBuilder->AddCongestionMarking(cc); // (the switches' ECN or FECN marking)
    return cc;
}

uint64_t
ScenarioRunner::AddRunTotals(nlohmann::json& s, double wallSeconds, uint64_t packetHops) const
{
    double simSeconds =
        m_mpi ? Time(m_mpi->GetEndPs()).GetSeconds() : Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    uint64_t peakRss = PeakRssBytes();
    uint64_t finished = m_finishedMessages + m_finishedFlows;
    if (m_mpi)
    {
        events = RankCoordinator::Sum({events})[0];
        finished = RankCoordinator::Sum({finished})[0];
        peakRss = static_cast<uint64_t>(RankCoordinator::Max({static_cast<int64_t>(peakRss)})[0]);
        s["mpi"] = m_mpi->ToJson(wallSeconds, PeakRssBytes(), m_collective, *m_graph);
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

nlohmann::json
ScenarioRunner::WatchdogJson() const
{
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : m_watchdog->GetEvents())
    {
        events.push_back({{"time_ns", e.time.GetNanoSeconds()},
                          {"node", e.node},
                          {"port", e.port},
                          {"priority", e.prio},
                          {"event", e.storm ? "storm" : "restored"}});
    }
    return events;
}

void
ScenarioRunner::AddUnfinished(nlohmann::json& s, bool complete, uint64_t unfinished) const
{
    if (m_detector && m_detector->Found())
    {
        nlohmann::json cycle = nlohmann::json::array();
        for (const auto& v : m_detector->GetCycle())
        {
            cycle.push_back(
                {{"node", v.node}, {"port", v.port}, {m_detector->GetLaneName(), v.lane}});
        }
        s["deadlock"] = {{"time_ns", m_detector->GetDetectionTime().GetNanoSeconds()},
                         {"stalled_since_ns", m_detector->GetStalledSince().GetNanoSeconds()},
                         {"lane", m_detector->GetLaneName()},
                         {"cycle", cycle},
                         {"text", m_detector->DescribeCycle()}};
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
    if (m_flowWorkload)
    {
        m_flowWorkload->Dispose();
        m_flowWorkload = nullptr;
    }
    if (m_collective)
    {
        m_collective->Dispose();
        m_collective = nullptr;
    }
    if (m_training)
    {
        m_training->Dispose();
        m_training = nullptr;
    }
    if (m_detector)
    {
        m_detector->Dispose();
        m_detector = nullptr;
    }
    if (m_watchdog)
    {
        m_watchdog->Dispose();
        m_watchdog = nullptr;
    }
    m_fabric->Dispose(); // drops the workloads' callbacks and the fabric's parts
    m_fabric = nullptr;
    if (m_recorder)
    {
        m_recorder->Dispose();
        m_recorder = nullptr;
    }
    m_routes = nullptr;
    m_graph = nullptr;
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(m_previousSimulatorImpl));
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(m_previousChecksumEnabled));
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
        pcapPorts = OwnPorts(PcapPortFilter(m_config, *m_graph));
        OpenOutput();
        EnablePcaps(pcapPorts);
    }
    try
    {
        ScheduleWorkload();
        ScheduleFlows();
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
    if (m_flowWorkload)
    {
        WorkloadOptions::AsConfigError([this]() { m_flowWorkload->OpenFctTxt(); });
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
    if (m_finished.empty())
    {
        m_recorder->SetWorkDone(); // nothing to wait for: do not sample queues until the stop time
    }
    else if (m_mpi)
    {
        m_mpi->StartCompletionCheck(
            [this]() {
                return RankRun::Progress{m_expectedMessages,
                                         m_finishedMessages,
                                         m_finishedFlows,
                                         m_finishedCollective,
                                         m_flowWorkload,
                                         m_collective};
            },
            [this]() {
                m_recorder->SetWorkDone();
                Simulator::Stop();
            });
    }
}

void
ScenarioRunner::AddWorkloadSummaries(nlohmann::json& summary) const
{
    if (m_tcp)
    {
        const RdmaFabric::IpCounters ip = m_fabric->GetIpCounters();
        summary["tcp"] = {{"variant", m_config.tcpVariant},
                          {"flows", m_tcp->GetFlowCount()},
                          {"unfinished_flows", m_tcp->GetPendingFlows()},
                          {"nic_ip_packets_sent", ip.sent},
                          {"nic_ip_packets_received", ip.received},
                          {"nic_ip_drops", ip.drops}};
    }
    if (m_flowWorkload)
    {
        summary["flow_workload"] = {
            {"background_flows", m_flowWorkload->GetBackgroundFlows().size()},
            {"file_flows", m_flowWorkload->GetFileFlows().size()},
            {"background_window_end_s", m_flowWorkload->GetBackgroundWindowEnd().GetSeconds()},
            {"posted", m_flowWorkload->GetPostedCount()}};
    }
}

void
ScenarioRunner::WriteWorkloadFiles()
{
    if (m_flowWorkload && !m_flowWorkload->Close())
    {
        std::filesystem::remove(m_flowWorkload->GetFctTxtPath());
        m_writer->AbandonAfterWriteError("cannot write " + m_flowWorkload->GetFctTxtPath());
    }
    if (m_training)
    {
        std::string names;
        for (const std::string& name : m_training->GetCsvNames())
        {
            const std::string csv =
                (std::filesystem::path(m_writer->GetDirectory()) / name).string();
            m_writer->AddRunFile(csv);
            names += (names.empty() ? "" : " or ") + csv;
        }
        if (!m_training->WriteCsv(m_writer->GetDirectory()))
        {
            m_writer->AbandonAfterWriteError("cannot write " + names);
        }
    }
    if (m_config.portBytes)
    {
        m_recorder->WritePortBytes();
    }
    if (const std::string pcap = m_fabric->GetPcapWriteError(); !pcap.empty())
    {
        m_writer->AbandonAfterWriteError("cannot write " + pcap);
    }
}

nlohmann::json
ScenarioRunner::Run()
{
    m_fabricBuilder = FabricBuilderRegistry::Create(m_config.fabric); // --fabric, once
    ConfigureDefaults();
    m_config.Validate();
    RankRun::Check(m_config);
    ResolveCcPreset();
    ApplyAttributeOverrides();
    if (!m_config.chunk && m_config.protocol != "auto")
    {
        // '' becomes the protocol's step (echoed), with its attributes as given; under
        // --protocol=auto the step of the protocol the tuner picks
        m_config.chunk = CollectiveProtocol::Create(m_config.protocol)->GetStepBytes();
    }
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
    CheckDeadlockFreedom();
    CheckBufferCoverage();
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
        (m_recorder->IsWorkDone() || m_finished.empty()) && !(m_detector && m_detector->Found());
    if (m_mpi)
    {
        m_mpi->Finish(complete, m_lastCompletionPs, m_collective, *m_graph, m_writer);
        m_recorder->SetWriter(m_writer.get()); // (rank 0: the merged writer; ports.csv too)
    }
    nlohmann::json summary = MakeSummary(wall, complete);
    try
    {
        AddWorkloadSummaries(summary);
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
