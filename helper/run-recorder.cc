/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-recorder.h"

#include "ns3/config-error.h"
#include "ns3/deadlock-detector.h"
#include "ns3/message-kind.h"
#include "ns3/nstime.h"
#include "ns3/output-writer.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/simulator.h"
#include "ns3/tcp-flow-transport.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RunRecorder);

TypeId
RunRecorder::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RunRecorder")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RunRecorder>()
            .AddAttribute("QueueSampleInterval",
                          "Period of the switch queue samples of qlen.csv (0: none), as the "
                          "runner's --qlen-interval",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RunRecorder::m_queueSampleInterval),
                          MakeTimeChecker(Time(0)));
    return tid;
}

RunRecorder::RunRecorder() = default;

RunRecorder::~RunRecorder() = default;

void
RunRecorder::DoDispose()
{
    m_fabric = nullptr;
    m_tcp = nullptr;
    m_messageCb = MessageCallback();
    m_checks.clear();
    m_nodes = nullptr;
    Object::DoDispose();
}

void
RunRecorder::SetWriter(OutputWriter* writer)
{
    m_writer = writer;
}

OutputWriter&
RunRecorder::Open(const std::string& dir)
{
    m_ownWriter = std::make_unique<OutputWriter>(dir);
    m_writer = m_ownWriter.get();
    return *m_writer;
}

OutputWriter*
RunRecorder::GetWriter() const
{
    return m_writer;
}

void
RunRecorder::SetNodeFilter(std::function<bool(uint32_t)> nodes)
{
    m_nodes = std::move(nodes);
}

void
RunRecorder::Install(Ptr<RdmaFabric> fabric)
{
    m_fabric = fabric;
    fabric->AddMessageCallback(MakeCallback(&RunRecorder::OnRdmaMessage, this));
    for (uint32_t node = 0; node < fabric->GetGraph()->GetNNodes(); ++node)
    {
        if (!m_nodes || m_nodes(node)) // (across MPI ranks: the node's rank writes its rows)
        {
            fabric->ConnectPfcSent(node, MakeCallback(&RunRecorder::OnPfcSent, this));
        }
    }
    fabric->ConnectDrops(MakeCallback(&RunRecorder::OnDrop, this));
}

void
RunRecorder::AddTcpTransport(Ptr<TcpFlowTransport> tcp)
{
    m_tcp = tcp;
    tcp->SetMessageCallback(MakeCallback(&RunRecorder::OnTcpMessage, this));
}

void
RunRecorder::SetMessageCallback(MessageCallback cb)
{
    m_messageCb = cb;
}

void
RunRecorder::OnRdmaMessage(const RdmaFabric::MessageRecord& r)
{
    OnMessage(r, false);
}

void
RunRecorder::OnTcpMessage(const RdmaFabric::MessageRecord& r)
{
    OnMessage(r, true);
}

void
RunRecorder::OnMessage(const RdmaFabric::MessageRecord& r, bool tcp)
{
    FctRecord f;
    f.flowId = r.id;
    f.src = r.src;
    f.dst = r.dst;
    f.sizeBytes = r.bytes;
    f.startNs = r.start.GetNanoSeconds();
    f.fctNs = (r.end - r.start).GetNanoSeconds();
    f.idealFctNs = std::max<int64_t>(1, r.ideal.GetNanoSeconds());
    f.kind = tcp ? TcpMessageKindName(r.kind) : MessageKindName(r.kind);
    m_writer->AppendFct(f);
    m_finished++;
    m_lastCompletionPs = std::max(m_lastCompletionPs, r.end.GetPicoSeconds());
    if (!m_messageCb.IsNull())
    {
        m_messageCb(r, tcp);
    }
    CheckCompletion();
}

void
RunRecorder::OnPfcSent(uint32_t node, uint32_t port, uint8_t priority, bool pause)
{
    m_writer->AppendPfc(Simulator::Now().GetNanoSeconds(), node, port, priority, pause);
}

void
RunRecorder::OnDrop(uint32_t node, uint32_t port, const std::string& reason)
{
    m_writer->AppendDrop(Simulator::Now().GetNanoSeconds(), node, port, reason);
    if (reason == "link_down")
    {
        m_linkDownDropsAt[(static_cast<uint64_t>(node) << 32) | port]++;
    }
}

void
RunRecorder::StartQueueSampling()
{
    if (m_queueSampleInterval > Time(0))
    {
        Simulator::Schedule(m_queueSampleInterval, &RunRecorder::SampleQueues, this);
    }
}

void
RunRecorder::SampleQueues()
{
    if (m_workDone)
    {
        return;
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    OutputWriter* w = m_writer;
    const bool sampled = m_fabric->VisitSwitchQueues(
        [this](uint32_t node) { return !m_nodes || m_nodes(node); },
        [w, now](uint32_t node, uint32_t port, uint8_t queue, uint64_t bytes) {
            w->AppendQlen(now, node, port, queue, bytes);
        });
    if (sampled)
    {
        Simulator::Schedule(m_queueSampleInterval, &RunRecorder::SampleQueues, this);
    }
}

void
RunRecorder::WriteTopology()
{
    const TopologyGraph& g = *m_fabric->GetGraph();
    // each node's name built once, not once per port that reaches it
    std::vector<std::string> names(g.GetNNodes());
    for (uint32_t node = 0; node < names.size(); ++node)
    {
        names[node] = g.GetNodeName(node);
    }
    for (uint32_t node = 0; node < names.size(); ++node)
    {
        const auto& ports = g.GetPorts(node);
        for (uint32_t port = 0; port < ports.size(); ++port)
        {
            const TopologyGraph::Port& p = ports[port];
            m_writer
                ->AppendPort(node, port, names[node], p.peer, p.peerPort, names[p.peer], p.link);
        }
    }
}

void
RunRecorder::WritePortBytes()
{
    const std::string csv =
        (std::filesystem::path(m_writer->GetDirectory()) / "ports.csv").string();
    m_writer->AddRunFile(csv);
    std::ofstream out(csv, std::ios::trunc);
    out << "node,port,tx_bytes,tx_frames\n";
    const TopologyGraph& g = *m_fabric->GetGraph();
    for (uint32_t node = 0; node < g.GetNNodes(); ++node)
    {
        for (uint32_t port = 0; port < g.GetPorts(node).size(); ++port)
        {
            const RdmaFabric::PortTx t = m_fabric->GetPortTx(node, port);
            out << node << ',' << port << ',' << t.bytes << ',' << t.frames << '\n';
        }
    }
    out.close();
    if (!out)
    {
        m_writer->AbandonAfterWriteError("cannot write " + csv);
    }
}

void
RunRecorder::AddCompletionCheck(std::function<bool()> done)
{
    m_checks.push_back(std::move(done));
}

void
RunRecorder::CheckCompletion()
{
    if (m_workDone || m_checks.empty() || m_fabric->GetPendingMessages() != 0 ||
        (m_tcp && m_tcp->GetPendingFlows() != 0))
    {
        return;
    }
    for (const auto& done : m_checks)
    {
        if (!done())
        {
            return;
        }
    }
    m_workDone = true;
    Simulator::Stop();
}

bool
RunRecorder::IsWorkDone() const
{
    return m_workDone;
}

void
RunRecorder::SetWorkDone()
{
    m_workDone = true;
}

uint64_t
RunRecorder::GetFinishedMessages() const
{
    return m_finished;
}

Time
RunRecorder::GetLastCompletion() const
{
    return PicoSeconds(m_lastCompletionPs);
}

uint64_t
RunRecorder::GetLinkDownDrops(uint32_t node, uint32_t port) const
{
    auto it = m_linkDownDropsAt.find((static_cast<uint64_t>(node) << 32) | port);
    return it == m_linkDownDropsAt.end() ? 0 : it->second;
}

nlohmann::json
RunRecorder::FailuresJson(const std::unordered_map<uint32_t, uint32_t>& failedNodeOfLink) const
{
    // A time that has not happened (yet) is null.
    auto ns = [](Time t) {
        return t < Time(0) ? nlohmann::json() : nlohmann::json(t.GetNanoSeconds());
    };
    nlohmann::json list = nlohmann::json::array();
    for (const RdmaFabric::LinkFailureRecord& r : m_fabric->GetLinkFailures())
    {
        const uint64_t drops =
            GetLinkDownDrops(r.nodeA, r.portA) + GetLinkDownDrops(r.nodeB, r.portB);
        auto node = failedNodeOfLink.find(r.link);
        list.push_back(
            {{"what", node == failedNodeOfLink.end() ? "link" : "node"},
             {"node",
              node == failedNodeOfLink.end() ? nlohmann::json() : nlohmann::json(node->second)},
             {"link", r.link},
             {"ends",
              {std::to_string(r.nodeA) + ":" + std::to_string(r.portA),
               std::to_string(r.nodeB) + ":" + std::to_string(r.portB)}},
             {"down_ns", r.down.GetNanoSeconds()},
             {"up_ns", ns(r.up)},
             {"detected_ns", ns(r.detected)},
             {"converged_ns", ns(r.converged)},
             {"restore_converged_ns", ns(r.restoreConverged)},
             {"link_down_drops", drops}});
    }
    return list;
}

nlohmann::json
RunRecorder::WatchdogJson(const PfcWatchdog& watchdog)
{
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : watchdog.GetEvents())
    {
        events.push_back({{"time_ns", e.time.GetNanoSeconds()},
                          {"node", e.node},
                          {"port", e.port},
                          {"priority", e.prio},
                          {"event", e.storm ? "storm" : "restored"}});
    }
    return events;
}

nlohmann::json
RunRecorder::DeadlockJson(const DeadlockDetector& detector)
{
    nlohmann::json cycle = nlohmann::json::array();
    for (const auto& v : detector.GetCycle())
    {
        cycle.push_back({{"node", v.node}, {"port", v.port}, {detector.GetLaneName(), v.lane}});
    }
    return {{"time_ns", detector.GetDetectionTime().GetNanoSeconds()},
            {"stalled_since_ns", detector.GetStalledSince().GetNanoSeconds()},
            {"lane", detector.GetLaneName()},
            {"cycle", cycle},
            {"text", detector.DescribeCycle()}};
}

void
RunRecorder::AddCounters(nlohmann::json& s, const RdmaFabric::Counters& k)
{
    s["drops"] = {{"lossless", k.losslessDrops},
                  {"lossy", k.lossyDrops},
                  {"link_down", k.linkDownDrops},
                  {"pfc_watchdog", k.pfcWatchdogDrops},
                  {"stalled_receive", k.stalledReceiveDrops}};
    s["credit_updates"] = k.creditUpdates;
    s["out_of_order_packets"] = k.outOfOrderPackets;
    s["spurious_retransmissions"] = k.spuriousRetransmissions;
    s["rnr_naks"] = k.rnrNaks;
    s["rnr_retries"] = k.rnrRetries;
    s["qp_errors"] = k.qpErrors;
    // PFC frames sent, by kind; pfc_pause_frames (older tools read it) is both kinds.
    s["pfc_pauses"] = k.pfcPausesSent;
    s["pfc_resumes"] = k.pfcResumesSent;
    s["pfc_pause_frames"] = k.pfcPausesSent + k.pfcResumesSent;
    s["retransmissions"] = k.retransmittedPackets;
    s["read_bytes"] = k.readBytes;
    s["timeouts"] = k.timeouts;
    s["ecn_marks"] = k.ecnMarks;
    s["cnps"] = k.cnpsSent;
    s["queue_pairs"] = k.queuePairs;
    s["queue_pairs_peak"] = k.queuePairsPeak;
    s["queue_pairs_released"] = k.queuePairsReleased;
    s["stale_frames"] = k.staleFrames;
    s["qp_cache_misses"] = k.qpCacheMisses;
}

nlohmann::json
RunRecorder::MakeSummary() const
{
    const RdmaFabric::Counters k = m_fabric->GetCounters();
    const TopologyGraph& g = *m_fabric->GetGraph();
    nlohmann::json s;
    s["complete"] = m_workDone;
    s["topology"] = {{"description", g.Describe()},
                     {"hosts", g.GetNHosts()},
                     {"switches", g.GetNSwitches()},
                     {"links", g.GetNLinks()}};
    s["sim_time_s"] = Simulator::Now().GetSeconds();
    s["events"] = Simulator::GetEventCount();
    s["packet_hops"] = k.packetHops;
    AddCounters(s, k);
    s["messages"] = {
        {"finished", m_finished},
        {"unfinished", m_fabric->GetPendingMessages() + (m_tcp ? m_tcp->GetPendingFlows() : 0)}};
    if (!m_fabric->GetLinkFailures().empty())
    {
        s["failures"] = FailuresJson();
    }
    return s;
}

nlohmann::json
RunRecorder::WriteSummary(const nlohmann::json& summary)
{
    return m_writer->WriteSummary(summary);
}

std::function<bool(uint32_t, uint32_t)>
RunRecorder::PcapPortFilter(
    const TopologyGraph& g,
    const std::vector<std::pair<std::string, std::optional<uint32_t>>>& entries)
{
    if (entries.empty())
    {
        return [](uint32_t, uint32_t) { return true; };
    }
    std::map<std::string, uint32_t> byName;
    for (uint32_t node = 0; node < g.GetNNodes(); ++node)
    {
        byName[g.GetNodeName(node)] = node;
    }
    auto selected = std::make_shared<std::set<std::pair<uint32_t, uint32_t>>>();
    for (const auto& [text, port] : entries)
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
            throw std::invalid_argument(
                "no node '" + text + "' (allowed: a name of topology.csv, e.g. " +
                g.GetNodeName(0) + " or " + g.GetNodeName(g.GetNNodes() - 1) +
                ", or a node id 0.." + std::to_string(g.GetNNodes() - 1) + ")");
        }
        const auto nPorts = static_cast<uint32_t>(g.GetPorts(node).size());
        if (port && *port >= nPorts)
        {
            throw std::invalid_argument(g.GetNodeName(node) + " has no port " +
                                        std::to_string(*port) + " (allowed 0.." +
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

void
RunRecorder::RemoveStalePcaps(const std::string& dir)
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

void
RunRecorder::EnablePcaps(const std::string& dir,
                         const std::function<bool(uint32_t, uint32_t)>& ports,
                         uint32_t snapLength)
{
    if (snapLength != 0)
    {
        m_fabric->SetAttribute("PcapSnapLength", UintegerValue(snapLength));
    }
    m_fabric->EnablePcap(dir + "/" + PCAP_PREFIX, ports);
    for (const std::string& name : m_fabric->GetPcapFiles())
    {
        m_writer->AddRunFile(name); // a run abandoned leaves no pcap either
    }
}

} // namespace ns3
