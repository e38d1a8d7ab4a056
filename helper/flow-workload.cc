/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-workload.h"

#include "message-kind.h"

#include "ns3/background-traffic-generator.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/file-name-checker.h"
#include "ns3/flow-file.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowWorkload");

NS_OBJECT_ENSURE_REGISTERED(FlowWorkload);

TypeId
FlowWorkload::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowWorkload")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FlowWorkload>()
            .AddAttribute("BackgroundStart",
                          "Start of the background arrival window (s); default 0, the start "
                          "of the run.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FlowWorkload::m_bgStart),
                          MakeTimeChecker())
            .AddAttribute("BackgroundDuration",
                          "Length of the background arrival window (s); no background flow "
                          "starts at or after start + duration, nor after --stop-time. 0 = "
                          "up to --stop-time. Default 1 ms: at load 0.3 on 16 hosts about 35 "
                          "websearch or 500 fbhadoop flows, a tail sample that simulates in "
                          "seconds.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&FlowWorkload::m_bgDuration),
                          MakeTimeChecker())
            .AddAttribute("BackgroundKind",
                          "MessageKind of background flows (helper/message-kind.h: 0 flow, "
                          "1 incast, 2 permutation, 3 alltoall, 4 collective, 5 background); "
                          "fct.csv's kind column",
                          UintegerValue(KIND_BACKGROUND),
                          MakeUintegerAccessor(&FlowWorkload::m_bgKind),
                          MakeUintegerChecker<uint8_t>(0, KIND_COUNT - 1))
            .AddAttribute("FlowFileKind",
                          "MessageKind of flow-file flows (as BackgroundKind)",
                          UintegerValue(KIND_FLOW),
                          MakeUintegerAccessor(&FlowWorkload::m_fileKind),
                          MakeUintegerChecker<uint8_t>(0, KIND_COUNT - 1))
            .AddAttribute("FctTxtName",
                          "File name, in the output directory, of the HPCC-format FCT log of "
                          "flow-file flows; default fct.txt as those simulators name it. "
                          "A plain name: no '/', so the file stays inside --out.",
                          StringValue("fct.txt"),
                          MakeStringAccessor(&FlowWorkload::m_fctTxtName),
                          MakeFileNameChecker())
            .AddAttribute("QpSharing",
                          "How flows (background and flow-file) map onto RC connections: "
                          "flow = each flow opens a connection (a queue pair at each end) of "
                          "its own, released once the flow is done, so flows of one host "
                          "pair run side by side, as in the HPCC-derived simulators (their "
                          "RdmaClient adds a queue pair per flow, with its own source port) "
                          "and in applications that open a connection per request; pair = "
                          "the flows of a host pair share one connection and run one after "
                          "the other, in start order",
                          EnumValue(FlowWorkload::QP_PER_FLOW),
                          MakeEnumAccessor(&FlowWorkload::m_qpSharing),
                          MakeEnumChecker(FlowWorkload::QP_PER_FLOW,
                                          "flow",
                                          FlowWorkload::QP_PER_PAIR,
                                          "pair"))
            .AddAttribute(
                "Verb",
                "The verb of each flow (background and flow-file): Write (an RDMA "
                "WRITE with immediate) or Send (a SEND with immediate, which "
                "consumes a receive posted at the destination; RNR NAK without one)",
                EnumValue(FlowWorkload::VERB_WRITE),
                MakeEnumAccessor(&FlowWorkload::m_verb),
                MakeEnumChecker(FlowWorkload::VERB_WRITE, "Write", FlowWorkload::VERB_SEND, "Send"))
            .AddAttribute("RngStream",
                          "First of the 4 RNG streams of the background generator (see "
                          "AssignStreams); default 100, clear of the runner's low streams.",
                          IntegerValue(100),
                          MakeIntegerAccessor(&FlowWorkload::m_stream),
                          MakeIntegerChecker<int64_t>(0))
            .AddTraceSource("Posted",
                            "A flow posted on the fabric: (flow, kind, message id).",
                            MakeTraceSourceAccessor(&FlowWorkload::m_postedTrace),
                            "ns3::FlowWorkload::PostedTracedCallback");
    return tid;
}

FlowWorkload::FlowWorkload()
    : m_bgKind(KIND_BACKGROUND),
      m_fileKind(KIND_FLOW),
      m_stream(100),
      m_qpSharing(QP_PER_FLOW),
      m_verb(VERB_WRITE),
      m_next(0),
      m_listening(false)
{
    NS_LOG_FUNCTION(this);
}

FlowWorkload::~FlowWorkload()
{
    NS_LOG_FUNCTION(this);
}

void
FlowWorkload::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_event);
    Close();
    m_fabric = nullptr;
    m_schedule.clear();
    m_ports.clear();
    Object::DoDispose();
}

int64_t
FlowWorkload::AssignStreams(int64_t stream)
{
    m_stream = stream;
    return 4;
}

void
FlowWorkload::Install(const Options& c, Ptr<RdmaFabric> fabric)
{
    NS_LOG_FUNCTION(this);
    if (!fabric)
    {
        throw std::invalid_argument("FlowWorkload::Install: no fabric");
    }
    const uint32_t n = fabric->GetNHosts();

    if (!c.background.empty() && c.background != "none")
    {
        const Time end =
            m_bgDuration.IsZero() ? c.stopTime : std::min(m_bgStart + m_bgDuration, c.stopTime);
        const std::string flag = "--background=" + c.background;
        if (m_bgDuration.IsStrictlyNegative() || m_bgStart.IsStrictlyNegative() || end <= m_bgStart)
        {
            std::ostringstream os;
            os << flag << ": the arrival window [" << m_bgStart.As(Time::US) << ", "
               << end.As(Time::US) << ") (start, start + duration " << m_bgDuration.As(Time::US)
               << ", cut at --stop-time=" << c.stopTime.As(Time::US)
               << ") is empty; allowed: a duration > 0 and a start before --stop-time";
            throw std::invalid_argument(os.str());
        }
        Ptr<BackgroundTrafficGenerator> gen = CreateObject<BackgroundTrafficGenerator>();
        gen->SetAttribute("Load", DoubleValue(c.load));
        gen->SetAttribute("HostRate", DataRateValue(c.hostRate));
        gen->SetAttribute("Distribution", StringValue(c.background));
        gen->SetAttribute("StartTime", TimeValue(m_bgStart));
        gen->SetAttribute("StopTime", TimeValue(end));
        gen->SetAttribute("Priority", UintegerValue(std::min<uint32_t>(c.priority, 7)));
        gen->AssignStreams(m_stream);
        try
        {
            m_background = gen->Generate(n);
        }
        catch (const std::invalid_argument& e)
        {
            std::ostringstream os;
            os << flag << " --load=" << c.load << ": " << e.what();
            throw std::invalid_argument(os.str());
        }
        m_bgEnd = end;
        NS_LOG_INFO("background " << c.background << " load " << c.load << ": "
                                  << m_background.size() << " flows before " << end.As(Time::US));
        Enqueue(fabric, m_background, m_bgKind, false);
    }

    if (!c.flows.empty())
    {
        try
        {
            m_file = FlowFile::Read(c.flows, n);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("--flows=" + c.flows + ": " + e.what() +
                                        " (the topology has " + std::to_string(n) +
                                        " hosts, ids 0.." + std::to_string(n - 1) + ")");
        }
        for (const FlowSpec& f : m_file)
        {
            if (f.start >= c.stopTime)
            {
                std::ostringstream os;
                os << "--flows=" << c.flows << ": flow " << f.id << " (" << f.src << " -> " << f.dst
                   << ", " << f.sizeBytes << " B) starts at " << f.start.As(Time::S)
                   << ", not before --stop-time=" << c.stopTime.As(Time::S)
                   << "; allowed: start times before the stop time (raise --stop-time)";
                throw std::invalid_argument(os.str());
            }
            if (f.priority != c.priority)
            {
                // Every queue pair runs at --priority: a flow asking for another class
                // would silently run in the wrong one.
                std::ostringstream os;
                os << "--flows=" << c.flows << ": flow " << f.id << " (" << f.src << " -> " << f.dst
                   << ") has priority " << unsigned(f.priority) << "; allowed: " << c.priority
                   << ", the --priority every queue pair runs at (set "
                   << "--priority=" << unsigned(f.priority) << " if all flows use it)";
                throw std::invalid_argument(os.str());
            }
        }
        m_fctTxtPath = c.out + "/" + m_fctTxtName;
        if (!m_deferFctTxt)
        {
            OpenFctTxt();
        }
        m_nextSport.clear();
        if (!m_listening && !m_poster)
        {
            // (With a poster its transport reports the flows: NotifyFinished.)
            fabric->AddMessageCallback(MakeCallback(&FlowWorkload::OnMessage, this));
            m_listening = true;
        }
        Enqueue(fabric, m_file, m_fileKind, true);
    }
}

void
FlowWorkload::Schedule(Ptr<RdmaFabric> fabric, const std::vector<FlowSpec>& flows, uint8_t kind)
{
    Enqueue(fabric, flows, kind, false);
}

void
FlowWorkload::Enqueue(Ptr<RdmaFabric> fabric,
                      const std::vector<FlowSpec>& flows,
                      uint8_t kind,
                      bool fileFlows)
{
    NS_LOG_FUNCTION(this << flows.size() << unsigned(kind) << fileFlows);
    if (m_fabric && m_fabric != fabric)
    {
        throw std::invalid_argument("FlowWorkload::Schedule: one workload posts on one fabric");
    }
    m_fabric = fabric;
    m_schedule.reserve(m_schedule.size() + flows.size());
    for (const FlowSpec& f : flows)
    {
        m_schedule.push_back(Entry{f, kind, fileFlows});
    }
    // Only the not-yet-posted tail is reordered; stable, so equal starts keep
    // their order (generator ids, then file order).
    std::stable_sort(m_schedule.begin() + m_next,
                     m_schedule.end(),
                     [](const Entry& a, const Entry& b) { return a.flow.start < b.flow.start; });
    Simulator::Cancel(m_event);
    if (m_next < m_schedule.size())
    {
        const Time now = Simulator::Now();
        const Time at = std::max(m_schedule[m_next].flow.start, now);
        m_event = Simulator::Schedule(at - now, &FlowWorkload::PostDue, this);
    }
}

void
FlowWorkload::SetPoster(std::function<uint64_t(const FlowSpec&, uint8_t)> poster)
{
    m_poster = std::move(poster);
}

void
FlowWorkload::NotifyFinished(const RdmaFabric::MessageRecord& r)
{
    OnMessage(r);
}

void
FlowWorkload::PostDue()
{
    const Time now = Simulator::Now();
    while (m_next < m_schedule.size() && m_schedule[m_next].flow.start <= now)
    {
        const Entry& e = m_schedule[m_next];
        const FlowSpec& f = e.flow;
        // Per flow: a connection of its own. Per pair: the pair's one connection, where
        // this message queues behind earlier ones of the pair, in order.
        const bool send = m_verb == VERB_SEND;
        const uint64_t id =
            m_poster ? m_poster(f, e.kind)
            : m_qpSharing == QP_PER_FLOW
                ? (send ? m_fabric->PostSendOnOwnConnection(f.src, f.dst, f.sizeBytes, f.id, e.kind)
                        : m_fabric
                              ->PostWriteOnOwnConnection(f.src, f.dst, f.sizeBytes, f.id, e.kind))
                : (send ? m_fabric->PostSend(f.src, f.dst, f.sizeBytes, f.id, e.kind)
                        : m_fabric->PostWrite(f.src, f.dst, f.sizeBytes, f.id, e.kind));
        if (e.fileFlow)
        {
            // The HPCC simulator's numbering (third.cc): every host pair's ports count
            // up from 10000, one per flow.
            const uint64_t pair = (static_cast<uint64_t>(f.src) << 32) | f.dst;
            const uint16_t sport = static_cast<uint16_t>(10000 + m_nextSport[pair]++);
            m_ports.emplace(id, FilePorts{sport, f.dport});
        }
        m_postedTrace(f, e.kind, id);
        ++m_next;
    }
    if (m_next < m_schedule.size())
    {
        m_event =
            Simulator::Schedule(m_schedule[m_next].flow.start - now, &FlowWorkload::PostDue, this);
    }
    else
    {
        NS_LOG_INFO("all " << m_schedule.size() << " flows posted at " << now.As(Time::US));
    }
}

void
FlowWorkload::OnMessage(const RdmaFabric::MessageRecord& r)
{
    auto it = m_ports.find(r.id);
    if (it == m_ports.end())
    {
        return;
    }
    if (m_fctTxt.is_open())
    {
        HpccFctRecord rec;
        rec.src = r.src;
        rec.dst = r.dst;
        rec.sport = it->second.sport;
        rec.dport = it->second.dport;
        rec.sizeBytes = r.bytes;
        rec.startNs = static_cast<uint64_t>(r.start.GetNanoSeconds());
        rec.fctNs = static_cast<uint64_t>((r.end - r.start).GetNanoSeconds());
        rec.standaloneFctNs = static_cast<uint64_t>(r.ideal.GetNanoSeconds());
        FlowFile::WriteFctLine(m_fctTxt, rec);
    }
    m_ports.erase(it);
}

bool
FlowWorkload::Close()
{
    if (m_fctTxt.is_open())
    {
        m_fctTxt.close();
        return !m_fctTxt.fail();
    }
    return true;
}

uint64_t
FlowWorkload::GetMessageCount() const
{
    return m_schedule.size();
}

uint64_t
FlowWorkload::GetPostedCount() const
{
    return m_next;
}

bool
FlowWorkload::AllPosted() const
{
    return m_next == m_schedule.size();
}

const std::vector<FlowSpec>&
FlowWorkload::GetBackgroundFlows() const
{
    return m_background;
}

const std::vector<FlowSpec>&
FlowWorkload::GetFileFlows() const
{
    return m_file;
}

Time
FlowWorkload::GetBackgroundWindowEnd() const
{
    return m_bgEnd;
}

void
FlowWorkload::DeferFctTxt()
{
    m_deferFctTxt = true;
}

void
FlowWorkload::OpenFctTxt()
{
    NS_LOG_FUNCTION(this);
    if (m_fctTxtPath.empty() || m_fctTxt.is_open())
    {
        return;
    }
    m_fctTxt.open(m_fctTxtPath, std::ios::out | std::ios::trunc);
    if (!m_fctTxt)
    {
        throw std::invalid_argument(
            "--out=" + std::filesystem::path(m_fctTxtPath).parent_path().string() +
            ": cannot write " + m_fctTxtPath + " (the HPCC-format FCT log of --flows)");
    }
}

std::string
FlowWorkload::GetFctTxtPath() const
{
    return m_fctTxtPath;
}

} // namespace ns3
