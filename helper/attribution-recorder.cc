/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "attribution-recorder.h"

#include "output-writer.h"

#include "ns3/callback.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/collective-metrics.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/topology-graph.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AttributionRecorder");
NS_OBJECT_ENSURE_REGISTERED(AttributionRecorder);

namespace
{

/// Append \p v to \p out.
void
AppendInt(std::string& out, int64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof(buf), v);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

/// Append \p ticks (time steps) as ns with three decimals: exact at picosecond resolution.
void
AppendNs(std::string& out, int64_t ticks)
{
    if (ticks == 0)
    {
        out.append("0.000", 5); // (most components of most messages)
        return;
    }
    static const int64_t psPerTick = TimeStep(1).GetPicoSeconds(); // (1: the fabrics need ps)
    const int64_t ps = ticks * psPerTick;
    if (ps < 0)
    {
        out += '-';
    }
    const uint64_t a = ps < 0 ? static_cast<uint64_t>(-ps) : static_cast<uint64_t>(ps);
    AppendInt(out, static_cast<int64_t>(a / 1000));
    const uint64_t frac = a % 1000;
    const char decimals[4] = {'.',
                              static_cast<char>('0' + frac / 100),
                              static_cast<char>('0' + frac / 10 % 10),
                              static_cast<char>('0' + frac % 10)};
    out.append(decimals, 4);
}

/// The wait (queueing + pause) of each port of \p r's path, summed per port and class.
std::map<std::tuple<uint32_t, uint32_t, uint8_t>, std::pair<int64_t, int64_t>>
WaitsByPort(const FctAttribution::Result& r)
{
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, std::pair<int64_t, int64_t>> m;
    for (const FctAttribution::HopWait& h : r.hops)
    {
        auto& w = m[{h.node, h.port, h.queue}];
        w.first += h.queueTicks;
        w.second += h.pauseTicks;
    }
    return m;
}

/// Where \p r's path waited longest (queueing + pause), by port and class.
struct HotPort
{
    uint32_t node;
    uint32_t port;
    uint8_t queue;
    int64_t waitTicks;
};

/// \return the hottest port of \p r's path (the first of equals), none without waits
std::optional<HotPort>
Hottest(const FctAttribution::Result& r)
{
    std::optional<HotPort> hot;
    for (const auto& [key, w] : WaitsByPort(r))
    {
        if (!hot || w.first + w.second > hot->waitTicks)
        {
            hot = HotPort{std::get<0>(key), std::get<1>(key), std::get<2>(key), w.first + w.second};
        }
    }
    return hot;
}

/// Append the CSV's hottest-hop columns and the row's end: ",node,port,queue,wait_ns\n",
/// or ",,,,0.000\n" without waits.
void
AppendHottest(std::string& rows, const FctAttribution::Result& r)
{
    const std::optional<HotPort> hot = Hottest(r);
    if (!hot)
    {
        rows += ",,,,0.000\n";
        return;
    }
    rows += ',';
    AppendInt(rows, hot->node);
    rows += ',';
    AppendInt(rows, hot->port);
    rows += ',';
    AppendInt(rows, hot->queue);
    rows += ',';
    AppendNs(rows, hot->waitTicks);
    rows += '\n';
}

} // namespace

const std::string&
AttributionRecorder::CsvHeader()
{
    static const std::string header = [] {
        std::string h = "message_id,src,dst,size_bytes,start_ns,fct_ns";
        for (uint8_t c = 0; c < FctAttribution::N_COMPONENTS; ++c)
        {
            h += std::string(",") + FctAttribution::ComponentName(c) + "_ns";
        }
        return h + ",unattributed_ns,hottest_node,hottest_port,hottest_queue,hottest_wait_ns";
    }();
    return header;
}

TypeId
AttributionRecorder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AttributionRecorder")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<AttributionRecorder>();
    return tid;
}

AttributionRecorder::AttributionRecorder() = default;
AttributionRecorder::~AttributionRecorder() = default;

void
AttributionRecorder::DoDispose()
{
    m_fabric = nullptr;
    m_attribution = nullptr;
    Object::DoDispose();
}

void
AttributionRecorder::Install(Ptr<RdmaFabric> fabric)
{
    m_fabric = fabric;
    m_attribution = CreateObject<FctAttribution>();
    m_attribution->TraceConnectWithoutContext("MessageAttributed",
                                              MakeCallback(&AttributionRecorder::OnResult, this));
    fabric->EnableAttribution(m_attribution);
}

const std::vector<FctAttribution::Result>&
AttributionRecorder::GetResults() const
{
    return m_results;
}

Ptr<FctAttribution>
AttributionRecorder::GetAttribution() const
{
    return m_attribution;
}

void
AttributionRecorder::OnResult(const FctAttribution::Result& r)
{
    m_results.push_back(r);
    const double ideal = static_cast<double>(r.idealTicks);
    const double fct = static_cast<double>(r.endTicks - r.startTicks);
    m_slowdowns.push_back(ideal > 0 ? fct / ideal : 1.0);
}

void
AttributionRecorder::WriteCsv(OutputWriter& writer) const
{
    const std::string csv =
        (std::filesystem::path(writer.GetDirectory()) / "attribution.csv").string();
    writer.AddRunFile(csv);
    std::ofstream out(csv, std::ios::trunc | std::ios::binary);
    std::string rows = CsvHeader() + "\n";
    rows.reserve((1U << 20) + 4096);
    for (const FctAttribution::Result& r : m_results)
    {
        AppendInt(rows, static_cast<int64_t>(r.messageId));
        rows += ',';
        AppendInt(rows, r.src);
        rows += ',';
        AppendInt(rows, r.dst);
        rows += ',';
        AppendInt(rows, static_cast<int64_t>(r.bytes));
        rows += ',';
        AppendNs(rows, r.startTicks);
        rows += ',';
        AppendNs(rows, r.endTicks - r.startTicks);
        for (int64_t t : r.ticks)
        {
            rows += ',';
            AppendNs(rows, t);
        }
        rows += ',';
        AppendNs(rows, r.unattributedTicks);
        // The hottest hop: the port (and class) where it waited longest.
        AppendHottest(rows, r);
        if (rows.size() > (1U << 20))
        {
            out.write(rows.data(), static_cast<std::streamsize>(rows.size()));
            rows.clear();
        }
    }
    out.write(rows.data(), static_cast<std::streamsize>(rows.size()));
    out.close();
    if (!out)
    {
        writer.AbandonAfterWriteError("cannot write " + csv);
    }
}

nlohmann::json
AttributionRecorder::TailJson() const
{
    nlohmann::json j;
    j["messages"] = m_results.size();
    uint64_t unattributed = 0;
    for (const FctAttribution::Result& r : m_results)
    {
        unattributed += r.unattributedTicks != 0 ? 1 : 0;
    }
    j["unattributed_messages"] = unattributed;
    if (m_results.empty())
    {
        return j;
    }
    std::vector<double> sorted = m_slowdowns;
    std::sort(sorted.begin(), sorted.end());
    const double p99 = OutputWriter::Percentile(sorted, 0.99);
    j["p99_slowdown"] = p99;
    std::vector<double> share(FctAttribution::N_COMPONENTS, 0.0);
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, std::pair<int64_t, int64_t>> ports;
    uint64_t tail = 0;
    for (std::size_t i = 0; i < m_results.size(); ++i)
    {
        const FctAttribution::Result& r = m_results[i];
        if (m_slowdowns[i] < p99)
        {
            continue;
        }
        tail++;
        const double fct = static_cast<double>(r.endTicks - r.startTicks);
        for (uint8_t c = 0; c < FctAttribution::N_COMPONENTS; ++c)
        {
            share[c] += fct > 0 ? static_cast<double>(r.ticks[c]) / fct : 0.0;
        }
        for (const auto& [port, w] : WaitsByPort(r))
        {
            ports[port].first += w.first;
            ports[port].second += w.second;
        }
    }
    j["tail_messages"] = tail;
    nlohmann::json shares = nlohmann::json::object();
    uint8_t dominant = 0;
    for (uint8_t c = 0; c < FctAttribution::N_COMPONENTS; ++c)
    {
        share[c] /= static_cast<double>(tail);
        shares[FctAttribution::ComponentName(c)] = share[c];
        dominant = share[c] > share[dominant] ? c : dominant;
    }
    j["mean_share"] = shares;
    j["dominant"] = FctAttribution::ComponentName(dominant);
    std::vector<std::pair<std::tuple<uint32_t, uint32_t, uint8_t>, std::pair<int64_t, int64_t>>>
        ranked(ports.begin(), ports.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.second.first + a.second.second > b.second.first + b.second.second;
    });
    nlohmann::json top = nlohmann::json::array();
    Ptr<TopologyGraph> graph = m_fabric->GetGraph();
    for (std::size_t i = 0; i < ranked.size() && i < 10; ++i)
    {
        const auto& [port, w] = ranked[i];
        nlohmann::json p;
        p["node"] = std::get<0>(port);
        p["name"] = graph->GetNodeName(std::get<0>(port));
        p["port"] = std::get<1>(port);
        p["queue"] = std::get<2>(port);
        p["queueing_ns"] = static_cast<double>(TimeStep(w.first).GetPicoSeconds()) / 1000.0;
        p["pause_ns"] = static_cast<double>(TimeStep(w.second).GetPicoSeconds()) / 1000.0;
        top.push_back(p);
    }
    j["top_ports"] = top;
    return j;
}

void
AttributionRecorder::AddCriticalPaths(Ptr<CollectiveApplication> app)
{
    // CollectiveApplication::MakeTagBase: space << 56 | job (12 bits) << 44 | iteration
    // (12 bits) << 32, then the transfer's index.
    constexpr uint32_t ITER_BITS = 12;
    for (const CollectiveRecord& rec : app->GetRecords())
    {
        Ptr<CollectiveAlgorithm> alg = app->GetAlgorithm(rec.job);
        if (!alg)
        {
            continue;
        }
        const uint64_t op =
            (static_cast<uint64_t>(rec.job & ((1U << ITER_BITS) - 1)) << ITER_BITS) |
            (rec.iteration & ((1U << ITER_BITS) - 1));
        // Each transfer's last message (a transfer may be split over queue pairs).
        std::unordered_map<uint32_t, std::size_t> last;
        for (std::size_t i = 0; i < m_results.size(); ++i)
        {
            const FctAttribution::Result& r = m_results[i];
            const int64_t startNs = TimeStep(r.startTicks).GetNanoSeconds();
            // (Only the collective's chunk messages: other traffic has tags of its own.)
            if (r.kind != RdmaCollectiveTransport::KIND_COLLECTIVE ||
                ((r.tag >> 32) & 0xFFFFFF) != op || startNs < rec.startNs || startNs > rec.endNs)
            {
                continue;
            }
            const auto index = static_cast<uint32_t>(r.tag & 0xffffffffULL);
            auto it = last.find(index);
            if (it == last.end() || m_results[it->second].endTicks < r.endTicks)
            {
                last[index] = i;
            }
        }
        if (last.empty())
        {
            continue;
        }
        // Predecessors from the dependents lists.
        std::unordered_map<uint32_t, std::vector<uint32_t>> preds;
        for (const auto& [index, _] : last)
        {
            for (uint32_t d : alg->GetDependents(index))
            {
                preds[d].push_back(index);
            }
        }
        // From the transfer that finished last back through the dependency that finished
        // last (ties: the lower index, for a deterministic path).
        auto later = [this](std::pair<uint32_t, std::size_t> a,
                            std::pair<uint32_t, std::size_t> b) {
            const int64_t ea = m_results[a.second].endTicks;
            const int64_t eb = m_results[b.second].endTicks;
            return ea != eb ? ea > eb : a.first < b.first;
        };
        std::pair<uint32_t, std::size_t> cur{UINT32_MAX, 0};
        for (const auto& e : last)
        {
            if (cur.first == UINT32_MAX || later(e, cur))
            {
                cur = e;
            }
        }
        std::vector<PathStep> path;
        for (;;)
        {
            PathStep step;
            step.opId = rec.opId;
            step.job = rec.job;
            step.iteration = rec.iteration;
            step.transfer = cur.first;
            const CollectiveTransfer& t = alg->GetTransfer(cur.first);
            step.srcRank = t.src;
            step.dstRank = t.dst;
            step.opStartNs = rec.startNs;
            step.opEndNs = rec.endNs;
            step.result = cur.second;
            path.push_back(step);
            std::pair<uint32_t, std::size_t> next{UINT32_MAX, 0};
            for (uint32_t p : preds[cur.first])
            {
                auto it = last.find(p);
                if (it != last.end() && (next.first == UINT32_MAX || later(*it, next)))
                {
                    next = *it;
                }
            }
            if (next.first == UINT32_MAX)
            {
                break;
            }
            cur = next;
        }
        std::reverse(path.begin(), path.end());
        m_paths.push_back(std::move(path));
    }
}

bool
AttributionRecorder::HasCriticalPaths() const
{
    return !m_paths.empty();
}

void
AttributionRecorder::WriteCriticalPathCsv(OutputWriter& writer) const
{
    const std::string csv =
        (std::filesystem::path(writer.GetDirectory()) / "critical-path.csv").string();
    writer.AddRunFile(csv);
    std::ofstream out(csv, std::ios::trunc | std::ios::binary);
    std::string rows = "op_id,job,iteration,position,transfer,src_rank,dst_rank,message_id,"
                       "src,dst,size_bytes,start_ns,end_ns";
    for (uint8_t c = 0; c < FctAttribution::N_COMPONENTS; ++c)
    {
        rows += std::string(",") + FctAttribution::ComponentName(c) + "_ns";
    }
    rows += ",dominant,hottest_node,hottest_port,hottest_queue,hottest_wait_ns\n";
    for (const auto& path : m_paths)
    {
        for (std::size_t pos = 0; pos < path.size(); ++pos)
        {
            const PathStep& s = path[pos];
            const FctAttribution::Result& r = m_results[s.result];
            for (int64_t v : {static_cast<int64_t>(s.opId),
                              static_cast<int64_t>(s.job),
                              static_cast<int64_t>(s.iteration),
                              static_cast<int64_t>(pos),
                              static_cast<int64_t>(s.transfer),
                              static_cast<int64_t>(s.srcRank),
                              static_cast<int64_t>(s.dstRank),
                              static_cast<int64_t>(r.messageId),
                              static_cast<int64_t>(r.src),
                              static_cast<int64_t>(r.dst),
                              static_cast<int64_t>(r.bytes)})
            {
                AppendInt(rows, v);
                rows += ',';
            }
            AppendNs(rows, r.startTicks);
            rows += ',';
            AppendNs(rows, r.endTicks);
            uint8_t dominant = 0;
            for (uint8_t c = 0; c < FctAttribution::N_COMPONENTS; ++c)
            {
                rows += ',';
                AppendNs(rows, r.ticks[c]);
                dominant = r.ticks[c] > r.ticks[dominant] ? c : dominant;
            }
            rows += ',';
            rows += FctAttribution::ComponentName(dominant);
            AppendHottest(rows, r);
        }
    }
    out.write(rows.data(), static_cast<std::streamsize>(rows.size()));
    out.close();
    if (!out)
    {
        writer.AbandonAfterWriteError("cannot write " + csv);
    }
}

nlohmann::json
AttributionRecorder::CriticalPathJson() const
{
    nlohmann::json j;
    j["operations"] = m_paths.size();
    if (m_paths.empty())
    {
        return j;
    }
    // The slowest operation's path, and the transfer on it that waited longest.
    std::size_t slowest = 0;
    for (std::size_t i = 1; i < m_paths.size(); ++i)
    {
        const auto& a = m_paths[i].front();
        const auto& b = m_paths[slowest].front();
        if (a.opEndNs - a.opStartNs > b.opEndNs - b.opStartNs)
        {
            slowest = i;
        }
    }
    const auto& path = m_paths[slowest];
    nlohmann::json steps = nlohmann::json::array();
    std::size_t worst = 0;
    int64_t worstWait = -1;
    Ptr<TopologyGraph> graph = m_fabric->GetGraph();
    for (std::size_t pos = 0; pos < path.size(); ++pos)
    {
        const FctAttribution::Result& r = m_results[path[pos].result];
        const int64_t wait = r.ticks[FctAttribution::QUEUEING] + r.ticks[FctAttribution::PAUSE] +
                             r.ticks[FctAttribution::CC] + r.ticks[FctAttribution::RETRANSMISSION];
        if (wait > worstWait)
        {
            worstWait = wait;
            worst = pos;
        }
        nlohmann::json s;
        s["transfer"] = path[pos].transfer;
        s["src_rank"] = path[pos].srcRank;
        s["dst_rank"] = path[pos].dstRank;
        s["message_id"] = r.messageId;
        s["end_ns"] = static_cast<double>(TimeStep(r.endTicks).GetPicoSeconds()) / 1000.0;
        steps.push_back(s);
    }
    const PathStep& w = path[worst];
    const FctAttribution::Result& r = m_results[w.result];
    uint8_t cause = FctAttribution::QUEUEING;
    for (uint8_t c : {FctAttribution::PAUSE, FctAttribution::CC, FctAttribution::RETRANSMISSION})
    {
        cause = r.ticks[c] > r.ticks[cause] ? c : cause;
    }
    const std::optional<HotPort> hot = Hottest(r);
    nlohmann::json slow;
    slow["op_id"] = w.opId;
    slow["job"] = w.job;
    slow["iteration"] = w.iteration;
    slow["duration_ns"] = w.opEndNs - w.opStartNs;
    slow["transfers"] = steps;
    slow["culprit_transfer"] = w.transfer;
    slow["culprit_src_rank"] = w.srcRank;
    slow["culprit_dst_rank"] = w.dstRank;
    slow["culprit_cause"] = FctAttribution::ComponentName(cause);
    slow["culprit_cause_ns"] =
        static_cast<double>(TimeStep(r.ticks[cause]).GetPicoSeconds()) / 1000.0;
    std::ostringstream text;
    text << "operation " << w.opId << " ended at " << w.opEndNs / 1000.0 << " us because rank "
         << w.srcRank << "'s transfer " << w.transfer << " to rank " << w.dstRank << " spent "
         << TimeStep(r.ticks[cause]).GetNanoSeconds() / 1000.0 << " us in "
         << FctAttribution::ComponentName(cause);
    if (hot)
    {
        slow["culprit_port"] = {{"node", hot->node},
                                {"name", graph->GetNodeName(hot->node)},
                                {"port", hot->port},
                                {"queue", hot->queue}};
        text << " (longest wait at " << graph->GetNodeName(hot->node) << " port " << hot->port
             << ")";
    }
    slow["explanation"] = text.str();
    j["slowest"] = slow;
    return j;
}

} // namespace ns3
