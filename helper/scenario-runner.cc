/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "config-error.h"
#include "output-writer.h"
#include "roce-fabric-helper.h"
#include "roce-fabric.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/double.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/log.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/topology-file-reader.h"
#include "ns3/topology-graph.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <sys/resource.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace
{
/// fct.csv "kind" values, indexed by the kind byte messages carry.
const char* const KIND_NAMES[] = {"flow", "incast", "permutation", "alltoall", "collective",
                                  "background"};
enum Kind : uint8_t
{
    KIND_FLOW = 0,
    KIND_INCAST = 1,
    KIND_PERMUTATION = 2,
    KIND_ALLTOALL = 3,
};

uint64_t
PeakRssBytes()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}
} // namespace

ScenarioRunner::ScenarioRunner(const ScenarioConfig& config)
    : m_config(config)
{
}

ScenarioRunner::~ScenarioRunner() = default;

Ptr<TopologyGraph>
ScenarioRunner::BuildTopology(const ScenarioConfig& c)
{
    try
    {
        const std::string& t = c.topology;
        auto common = [&c](Ptr<Object> helper) {
            helper->SetAttribute("HostLinkRate", DataRateValue(c.hostRate));
            helper->SetAttribute("HostLinkDelay", TimeValue(c.linkDelay));
            helper->SetAttribute("FabricLinkRate", DataRateValue(c.fabricRate));
            helper->SetAttribute("FabricLinkDelay", TimeValue(c.linkDelay));
        };
        if (t == "leafspine")
        {
            Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
            common(h);
            h->SetAttribute("Leaves", UintegerValue(c.leaves));
            h->SetAttribute("Spines", UintegerValue(c.spines));
            h->SetAttribute("HostsPerLeaf", UintegerValue(c.hostsPerSwitch));
            return h->Build();
        }
        if (t == "fattree")
        {
            Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
            common(h);
            h->SetAttribute("K", UintegerValue(c.k));
            return h->Build();
        }
        if (t == "torus" || t == "mesh")
        {
            Ptr<TorusTopologyHelper> h = CreateObject<TorusTopologyHelper>();
            if (t == "mesh")
            {
                h = CreateObject<MeshTopologyHelper>();
            }
            common(h);
            h->SetDims(c.dims);
            h->SetAttribute("HostsPerRouter", UintegerValue(c.hostsPerSwitch));
            return h->Build();
        }
        if (t == "dragonfly")
        {
            Ptr<DragonflyTopologyHelper> h = CreateObject<DragonflyTopologyHelper>();
            common(h);
            h->SetAttribute("P", UintegerValue(c.p));
            h->SetAttribute("A", UintegerValue(c.a));
            h->SetAttribute("H", UintegerValue(c.h));
            h->SetAttribute("G", UintegerValue(c.g));
            return h->Build();
        }
        if (t == "file")
        {
            if (c.topologyFile.empty())
            {
                throw ConfigError("--topology=file needs --topology-file=PATH");
            }
            return TopologyFileReader::Read(c.topologyFile);
        }
    }
    catch (const ConfigError&)
    {
        throw;
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--topology=") + c.topology + ": " + e.what());
    }
    throw ConfigError("--topology: '" + c.topology + "' is not implemented");
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
    const ScenarioConfig& c = m_config;
    if (c.fabric != "rocev2")
    {
        throw ConfigError("--fabric: '" + c.fabric +
                          "' is not available yet; this build simulates rocev2");
    }
    // Picosecond resolution: at 400 Gb/s one byte is 20 ps, so nanoseconds would
    // round every serialization time.
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
    RngSeedManager::SetSeed(c.seed);
    RngSeedManager::SetRun(c.run);
    Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(c.ackInterval));
}

void
ScenarioRunner::BuildFabric()
{
    const ScenarioConfig& c = m_config;
    RoceFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    helper.SetDeviceAttribute("PfcEnabled", BooleanValue(c.pfc));
    helper.SetSwitchAttribute("EcnEnabled", BooleanValue(c.ecn));
    helper.SetMmuAttribute("BufferSize", UintegerValue(c.buffer));
    helper.SetMmuAttribute("LosslessPriorities",
                           UintegerValue(c.pfc ? (1U << c.priority) : 0U));
    if (c.kmin || c.kmax || c.pmax)
    {
        // Absolute thresholds from the user replace the rate-scaled defaults.
        Config::SetDefault("ns3::EcnMarker::ScaleWithRate", BooleanValue(false));
        if (c.kmin)
        {
            Config::SetDefault("ns3::EcnMarker::Kmin", UintegerValue(*c.kmin));
        }
        if (c.kmax)
        {
            Config::SetDefault("ns3::EcnMarker::Kmax", UintegerValue(*c.kmax));
        }
        if (c.pmax)
        {
            Config::SetDefault("ns3::EcnMarker::Pmax", DoubleValue(*c.pmax));
        }
    }
    try
    {
        helper.SetCongestionControl(c.cc, c.ccPreset);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--cc=") + c.cc + " --cc-preset=" + c.ccPreset + ": " +
                          e.what());
    }
    m_fabric = helper.Install(m_graph, m_routes);
    m_fabric->SetPriority(static_cast<uint8_t>(c.priority));
    if (c.pcap)
    {
        m_fabric->EnablePcap(m_writer->GetDirectory() + "/ai-fabric", false);
    }
}

void
ScenarioRunner::SchedulePointToPoint()
{
    const ScenarioConfig& c = m_config;
    uint32_t n = m_fabric->GetNHosts();
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(1);
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    uint64_t bytes = c.bytes;
    uint8_t kind = KIND_FLOW;
    if (c.workload == "incast")
    {
        if (c.fanin == 0 || c.fanin >= n)
        {
            throw ConfigError("--fanin: " + std::to_string(c.fanin) + " senders need " +
                              std::to_string(c.fanin + 1) + " hosts, the topology has " +
                              std::to_string(n) + " (allowed 1.." + std::to_string(n - 1) +
                              ")");
        }
        // Host 0 receives; the senders are the hosts farthest from it in rank order
        // (other leaves first), so the incast crosses the fabric.
        for (uint32_t i = 0; i < c.fanin; ++i)
        {
            pairs.emplace_back(n - 1 - i, 0);
        }
        kind = KIND_INCAST;
    }
    else if (c.workload == "permutation")
    {
        // A random derangement: every host sends to one distinct other host.
        std::vector<uint32_t> perm(n);
        std::iota(perm.begin(), perm.end(), 0);
        bool ok = false;
        while (!ok)
        {
            for (uint32_t i = n - 1; i > 0; --i)
            {
                std::swap(perm[i], perm[rng->GetInteger(0, i)]);
            }
            ok = true;
            for (uint32_t i = 0; i < n; ++i)
            {
                ok = ok && perm[i] != i;
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            pairs.emplace_back(i, perm[i]);
        }
        kind = KIND_PERMUTATION;
    }
    else if (c.workload == "alltoall")
    {
        // nccl-tests semantics: each rank's buffer of `bytes` is split among all ranks.
        bytes = std::max<uint64_t>(1, c.bytes / n);
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 1; d < n; ++d)
            {
                pairs.emplace_back(s, (s + d) % n);
            }
        }
        kind = KIND_ALLTOALL;
    }
    m_expectedMessages += pairs.size();
    for (const auto& [src, dst] : pairs)
    {
        m_fabric->PostWrite(src, dst, bytes, 0, kind);
    }
}

void
ScenarioRunner::ScheduleWorkload()
{
    const ScenarioConfig& c = m_config;
    if (c.workload == "incast" || c.workload == "permutation" || c.workload == "alltoall")
    {
        Simulator::ScheduleNow(&ScenarioRunner::SchedulePointToPoint, this);
    }
    else if (c.workload != "none")
    {
        throw ConfigError("--workload: '" + c.workload +
                          "' is not available yet; this build runs none, incast, permutation, "
                          "alltoall");
    }
}

void
ScenarioRunner::ConnectMonitors()
{
    OutputWriter* w = m_writer.get();
    m_fabric->AddMessageCallback(Callback<void, const RdmaFabric::MessageRecord&>(
        [this, w](const RdmaFabric::MessageRecord& r) {
            FctRecord f;
            f.flowId = r.id;
            f.src = r.src;
            f.dst = r.dst;
            f.sizeBytes = r.bytes;
            f.startNs = r.start.GetNanoSeconds();
            f.fctNs = (r.end - r.start).GetNanoSeconds();
            f.idealFctNs = std::max<int64_t>(1, r.ideal.GetNanoSeconds());
            f.kind = KIND_NAMES[r.kind];
            w->AppendFct(f);
            m_finishedMessages++;
            MaybeFinish();
        }));
    Ptr<TopologyGraph> g = m_graph;
    for (uint32_t node = 0; node < g->GetNNodes(); ++node)
    {
        Ptr<Node> n = m_fabric->GetNodes().Get(node);
        for (uint32_t i = 0; i < n->GetNDevices(); ++i)
        {
            Ptr<RoceNetDevice> dev = DynamicCast<RoceNetDevice>(n->GetDevice(i));
            uint32_t port = i;
            dev->TraceConnectWithoutContext(
                "Pfc",
                Callback<void, Ptr<const RoceNetDevice>, uint8_t, uint16_t, bool>(
                    [w, node, port](Ptr<const RoceNetDevice>, uint8_t prio, uint16_t quanta,
                                    bool sent) {
                        if (sent)
                        {
                            w->AppendPfc(Simulator::Now().GetNanoSeconds(), node, port, prio,
                                         quanta > 0);
                        }
                    }));
        }
    }
    for (const auto& sw : m_fabric->GetSwitches())
    {
        sw->TraceConnectWithoutContext(
            "Drop",
            Callback<void, uint32_t, uint32_t, const std::string&>(
                [w](uint32_t node, uint32_t port, const std::string& reason) {
                    w->AppendDrop(Simulator::Now().GetNanoSeconds(), node, port, reason);
                }));
    }
}

void
ScenarioRunner::SampleQueues()
{
    if (m_workDone)
    {
        return;
    }
    int64_t now = Simulator::Now().GetNanoSeconds();
    const auto& switches = m_fabric->GetSwitches();
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        const Ptr<RoceSwitch>& sw = switches[s];
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            for (uint8_t q = 0; q < 8; ++q)
            {
                uint64_t bytes = sw->GetQueueBytes(port, q);
                if (bytes > 0)
                {
                    m_writer->AppendQlen(now, m_fabric->GetSwitchNode(s), port, q, bytes);
                }
            }
        }
    }
    Simulator::Schedule(m_config.qlenInterval, &ScenarioRunner::SampleQueues, this);
}

void
ScenarioRunner::MaybeFinish()
{
    if (m_expectedMessages > 0 && m_finishedMessages >= m_expectedMessages &&
        m_fabric->GetPendingMessages() == 0)
    {
        m_workDone = true;
        Simulator::Stop();
    }
}

nlohmann::json
ScenarioRunner::MakeSummary(double wallSeconds, bool complete)
{
    RdmaFabric::Counters k = m_fabric->GetCounters();
    nlohmann::json s;
    s["complete"] = complete;
    s["config"] = m_config.ToJson();
    s["topology"] = {{"description", m_graph->Describe()},
                     {"hosts", m_graph->GetNHosts()},
                     {"switches", m_graph->GetNSwitches()},
                     {"links", m_graph->GetNLinks()}};
    double simSeconds = Simulator::Now().GetSeconds();
    uint64_t events = Simulator::GetEventCount();
    s["sim_time_s"] = simSeconds;
    s["wall_s"] = wallSeconds;
    s["events"] = events;
    s["events_per_s"] = wallSeconds > 0 ? events / wallSeconds : 0.0;
    s["packet_hops"] = k.packetHops;
    s["packet_hops_per_s"] = wallSeconds > 0 ? k.packetHops / wallSeconds : 0.0;
    s["peak_rss_bytes"] = PeakRssBytes();
    s["drops"] = {{"lossless", k.losslessDrops}, {"lossy", k.lossyDrops}};
    s["lossless_drop_is_bug"] = k.losslessDrops > 0;
    s["pfc_pause_frames"] = k.pauseFramesSent;
    s["retransmissions"] = k.retransmittedPackets;
    s["timeouts"] = k.timeouts;
    s["ecn_marks"] = k.ecnMarks;
    s["cnps"] = k.cnpsSent;
    s["queue_pairs"] = k.queuePairs;
    s["messages"] = {{"expected", m_expectedMessages},
                     {"finished", m_finishedMessages},
                     {"unfinished", m_fabric->GetPendingMessages()}};
    s["fct"] = m_writer->FctStats();
    s["collectives"] = nlohmann::json::array();
    if (!complete)
    {
        s["unfinished"] = "stop time " + std::to_string(m_config.stopTime.GetSeconds()) +
                          " s reached with " + std::to_string(m_fabric->GetPendingMessages()) +
                          " messages in flight";
    }
    return s;
}

nlohmann::json
ScenarioRunner::Run()
{
    ConfigureDefaults();
    m_config.Validate();
    m_graph = BuildTopology(m_config);
    m_routes = BuildRoutes(m_config, m_graph);
    m_writer = std::make_unique<OutputWriter>(m_config.out);
    BuildFabric();
    ConnectMonitors();
    ScheduleWorkload();
    if (m_config.qlenInterval > Time(0))
    {
        Simulator::Schedule(m_config.qlenInterval, &ScenarioRunner::SampleQueues, this);
    }
    Simulator::Stop(m_config.stopTime);
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool complete = m_workDone || (m_config.workload == "none");
    nlohmann::json summary = MakeSummary(wall, complete);
    m_writer->Close();
    m_writer->WriteSummary(summary);
    m_fabric = nullptr;
    m_routes = nullptr;
    m_graph = nullptr;
    Simulator::Destroy();
    return summary;
}

} // namespace ns3
