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
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AttributionRecorder");
NS_OBJECT_ENSURE_REGISTERED(AttributionRecorder);

namespace
{

/// Write \p v at \p p: \return the end.
char*
PutInt(char* p, int64_t v)
{
    return std::to_chars(p, p + 24, v).ptr;
}

/// "00" .. "99": two digits a step.
constexpr char DIGIT_PAIRS[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/// Write \p ticks (time steps) as ns with three decimals at \p p (exact at picosecond
/// resolution): \return the end. It may write up to 25 bytes beyond \p p (one number is
/// at most 21 characters, but 24 are copied at once).
char*
PutNs(char* p, int64_t ticks)
{
    if (ticks == 0)
    {
        std::memcpy(p, "0.000", 5); // (most components of most messages)
        return p + 5;
    }
    static const int64_t psPerTick = TimeStep(1).GetPicoSeconds(); // (1: the fabrics need ps)
    const int64_t ps = ticks * psPerTick;
    if (ps < 0)
    {
        *p++ = '-';
    }
    uint64_t a = ps < 0 ? -static_cast<uint64_t>(ps) : static_cast<uint64_t>(ps);
    // Right to left, ending at tmp + 24: the three decimals, the point, then the ns
    // (at least one digit), two digits a step; then 24 bytes copied at once (a per-call
    // length would cost a library call: this is most of attribution.csv's time).
    char tmp[48];
    char* q = tmp + 24;
    const uint32_t frac = static_cast<uint32_t>(a % 1000);
    a /= 1000;
    q -= 2;
    std::memcpy(q, &DIGIT_PAIRS[2 * (frac % 100)], 2);
    *--q = static_cast<char>('0' + frac / 100);
    *--q = '.';
    while (a >= 100)
    {
        q -= 2;
        std::memcpy(q, &DIGIT_PAIRS[2 * (a % 100)], 2);
        a /= 100;
    }
    if (a >= 10)
    {
        q -= 2;
        std::memcpy(q, &DIGIT_PAIRS[2 * a], 2);
    }
    else
    {
        *--q = static_cast<char>('0' + a);
    }
    std::memcpy(p, q, 24);
    return p + (tmp + 24 - q);
}

/// Append \p ticks as PutNs writes them.
void
AppendNs(std::string& out, int64_t ticks)
{
    char buf[32];
    out.append(buf, static_cast<std::size_t>(PutNs(buf, ticks) - buf));
}

/// Append \p v to \p out.
void
AppendInt(std::string& out, int64_t v)
{
    char buf[24];
    out.append(buf, static_cast<std::size_t>(PutInt(buf, v) - buf));
}

/// The longest row a result makes (21 numbers of at most 24 characters, and commas).
constexpr std::size_t MAX_ROW = 32 * 26;

} // namespace

AttributionRecorder::HotPort
AttributionRecorder::Hottest(const FctAttribution::HopWait* hops, std::size_t n)
{
    // A path has a few waits: summed per port and class in place.
    HotPort hot;
    for (std::size_t i = 0; i < n; ++i)
    {
        const FctAttribution::HopWait& h = hops[i];
        bool seen = false;
        for (std::size_t k = 0; k < i && !seen; ++k)
        {
            seen = hops[k].node == h.node && hops[k].port == h.port && hops[k].queue == h.queue;
        }
        if (seen)
        {
            continue; // (summed with its first)
        }
        int64_t wait = 0;
        for (std::size_t k = i; k < n; ++k)
        {
            if (hops[k].node == h.node && hops[k].port == h.port && hops[k].queue == h.queue)
            {
                wait += hops[k].queueTicks + hops[k].pauseTicks;
            }
        }
        const auto key = std::tie(h.node, h.port, h.queue);
        if (!hot.found || wait > hot.waitTicks ||
            (wait == hot.waitTicks && key < std::tie(hot.node, hot.port, hot.queue)))
        {
            hot = HotPort{h.node, h.port, h.queue, true, wait};
        }
    }
    return hot;
}

void
AttributionRecorder::AppendHottest(std::string& rows, const HotPort& hot)
{
    // ",node,port,queue,wait_ns\n", or ",,,,0.000\n" without waits.
    if (!hot.found)
    {
        rows += ",,,,0.000\n";
        return;
    }
    char buf[128];
    char* p = buf;
    *p++ = ',';
    p = PutInt(p, hot.node);
    *p++ = ',';
    p = PutInt(p, hot.port);
    *p++ = ',';
    p = PutInt(p, hot.queue);
    *p++ = ',';
    p = PutNs(p, hot.waitTicks);
    *p++ = '\n';
    rows.append(buf, static_cast<std::size_t>(p - buf));
}

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
    for (std::size_t i = m_full.size(); i < m_results.size(); ++i)
    {
        FctAttribution::Result r = m_results[i];
        r.hops.assign(m_hops.begin() + (i == 0 ? 0 : m_hopsEnd[i - 1]),
                      m_hops.begin() + m_hopsEnd[i]);
        m_full.push_back(std::move(r));
    }
    return m_full;
}

Ptr<FctAttribution>
AttributionRecorder::GetAttribution() const
{
    return m_attribution;
}

void
AttributionRecorder::OnResult(const FctAttribution::Result& r)
{
    // Without its hops (one vector each): those go to m_hops.
    FctAttribution::Result& kept = m_results.emplace_back();
    kept.messageId = r.messageId;
    kept.tag = r.tag;
    kept.kind = r.kind;
    kept.src = r.src;
    kept.dst = r.dst;
    kept.bytes = r.bytes;
    kept.startTicks = r.startTicks;
    kept.endTicks = r.endTicks;
    kept.idealTicks = r.idealTicks;
    kept.ticks = r.ticks;
    kept.unattributedTicks = r.unattributedTicks;
    m_hops.insert(m_hops.end(), r.hops.begin(), r.hops.end());
    m_hopsEnd.push_back(m_hops.size());
    m_hottest.push_back(Hottest(r.hops.data(), r.hops.size()));
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
    for (std::size_t i = 0; i < m_results.size(); ++i)
    {
        const FctAttribution::Result& r = m_results[i];
        char row[MAX_ROW];
        char* p = PutInt(row, static_cast<int64_t>(r.messageId));
        *p++ = ',';
        p = PutInt(p, r.src);
        *p++ = ',';
        p = PutInt(p, r.dst);
        *p++ = ',';
        p = PutInt(p, static_cast<int64_t>(r.bytes));
        *p++ = ',';
        p = PutNs(p, r.startTicks);
        *p++ = ',';
        p = PutNs(p, r.endTicks - r.startTicks);
        for (int64_t t : r.ticks)
        {
            *p++ = ',';
            p = PutNs(p, t);
        }
        *p++ = ',';
        p = PutNs(p, r.unattributedTicks);
        rows.append(row, static_cast<std::size_t>(p - row));
        // The hottest hop: the port (and class) where it waited longest.
        AppendHottest(rows, m_hottest[i]);
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
        for (std::size_t h = i == 0 ? 0 : m_hopsEnd[i - 1]; h < m_hopsEnd[i]; ++h)
        {
            auto& w = ports[{m_hops[h].node, m_hops[h].port, m_hops[h].queue}];
            w.first += m_hops[h].queueTicks;
            w.second += m_hops[h].pauseTicks;
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
    // The collective's chunk messages (other traffic has tags of its own) by operation
    // (job and iteration), in completion order: one pass over the results, not one per
    // operation (a run of many iterations has as many operations as messages per one).
    std::unordered_map<uint64_t, std::vector<std::size_t>> byOp;
    for (std::size_t i = 0; i < m_results.size(); ++i)
    {
        const FctAttribution::Result& r = m_results[i];
        if (r.kind == RdmaCollectiveTransport::KIND_COLLECTIVE)
        {
            byOp[(r.tag >> 32) & 0xFFFFFF].push_back(i);
        }
    }
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
        constexpr std::size_t NONE = SIZE_MAX;
        const uint32_t n = alg->GetNTransfers();
        std::vector<std::size_t> last(n, NONE);
        bool any = false;
        const auto messages = byOp.find(op);
        if (messages == byOp.end())
        {
            continue;
        }
        for (const std::size_t i : messages->second)
        {
            const FctAttribution::Result& r = m_results[i];
            const int64_t startNs = TimeStep(r.startTicks).GetNanoSeconds();
            if (startNs < rec.startNs || startNs > rec.endNs)
            {
                continue;
            }
            const auto index = static_cast<uint32_t>(r.tag & 0xffffffffULL);
            if (index < n && (last[index] == NONE || m_results[last[index]].endTicks < r.endTicks))
            {
                last[index] = i;
                any = true;
            }
        }
        if (!any)
        {
            continue;
        }
        // From the transfer that finished last back through the dependency that finished
        // last (ties: the lower index, for a deterministic path).
        auto later = [this, &last](uint32_t a, uint32_t b) {
            const int64_t ea = m_results[last[a]].endTicks;
            const int64_t eb = m_results[last[b]].endTicks;
            return ea != eb ? ea > eb : a < b;
        };
        // Each transfer's latest predecessor (from the dependents lists).
        std::vector<uint32_t> latestPred(n, UINT32_MAX);
        std::pair<uint32_t, std::size_t> cur{UINT32_MAX, 0};
        for (uint32_t index = 0; index < n; ++index)
        {
            if (last[index] == NONE)
            {
                continue;
            }
            for (uint32_t d : alg->GetDependents(index))
            {
                if (d < n && (latestPred[d] == UINT32_MAX || later(index, latestPred[d])))
                {
                    latestPred[d] = index;
                }
            }
            if (cur.first == UINT32_MAX || later(index, cur.first))
            {
                cur = {index, last[index]};
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
            const uint32_t next = latestPred[cur.first];
            if (next == UINT32_MAX)
            {
                break;
            }
            cur = {next, last[next]};
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
            AppendHottest(rows, m_hottest[s.result]);
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
    const HotPort& hot = m_hottest[w.result];
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
    if (hot.found)
    {
        slow["culprit_port"] = {{"node", hot.node},
                                {"name", graph->GetNodeName(hot.node)},
                                {"port", hot.port},
                                {"queue", hot.queue}};
        text << " (longest wait at " << graph->GetNodeName(hot.node) << " port " << hot.port << ")";
    }
    slow["explanation"] = text.str();
    j["slowest"] = slow;
    return j;
}

void
AttributionRecorder::PrintSummary(std::ostream& os, const nlohmann::json& summary)
{
    const auto tail = summary.find("tail_attribution");
    if (tail == summary.end() || !tail->contains("mean_share") || !tail->contains("dominant"))
    {
        return;
    }
    // The causes by their mean share of the tail messages' FCT, largest first (ties:
    // the order of the components), those of at least 1%.
    std::vector<std::pair<double, uint8_t>> shares;
    for (uint8_t c = 0; c < FctAttribution::N_COMPONENTS; ++c)
    {
        shares.emplace_back((*tail)["mean_share"].value(FctAttribution::ComponentName(c), 0.0), c);
    }
    std::stable_sort(shares.begin(), shares.end(), [](const auto& a, const auto& b) {
        return a.first > b.first;
    });
    std::ostringstream line;
    line.precision(4);
    line << "  tail:         " << tail->value("tail_messages", 0) << " messages at p99 slowdown "
         << tail->value("p99_slowdown", 0.0) << " or above: dominant cause "
         << tail->value("dominant", std::string()) << " (";
    line << std::fixed;
    line.precision(1);
    line << 100 * shares[0].first << "% of their FCT)";
    for (std::size_t i = 1; i < shares.size() && i < 3 && shares[i].first >= 0.01; ++i)
    {
        line << (i == 1 ? ", then " : ", ") << FctAttribution::ComponentName(shares[i].second)
             << " " << 100 * shares[i].first << "%";
    }
    const auto ports = tail->find("top_ports");
    if (ports != tail->end() && ports->is_array() && !ports->empty())
    {
        const nlohmann::json& p = ports->front();
        line << "; longest wait at " << p.value("name", std::string()) << " port "
             << p.value("port", 0) << " (class " << p.value("queue", 0) << ")";
    }
    os << line.str() << "\n";
    const auto path = summary.find("critical_path");
    if (path != summary.end() && path->contains("slowest"))
    {
        os << "  critical path: " << (*path)["slowest"].value("explanation", std::string()) << "\n";
    }
}

} // namespace ns3
