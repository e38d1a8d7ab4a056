/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fast-forward-transport.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FastForwardTransport");

NS_OBJECT_ENSURE_REGISTERED(FastForwardTransport);

TypeId
FastForwardTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FastForwardTransport")
            .SetParent<ForwardingCollectiveTransport>()
            .SetGroupName("AiFabric")
            .AddConstructor<FastForwardTransport>()
            .AddAttribute("StableMessages",
                          "Detection window, in messages: a transfer (ranks, channel, bytes) is "
                          "steady when the queue fitted to its last this many simulated "
                          "messages reproduces them within Tolerance. Default 8: a ring "
                          "step's messages of one channel settle within a few "
                          "(doc/fast-forward.md measures the error with it).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&FastForwardTransport::m_stableMessages),
                          MakeUintegerChecker<uint32_t>(2, 1024))
            .AddAttribute("Tolerance",
                          "Largest mean error of the fitted queue over the window, as a fraction "
                          "of the messages' mean latency. Default 0.01: the 1% error bound "
                          "Wormhole (NSDI 2026) reports and issue #52 asks for.",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&FastForwardTransport::m_tolerance),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("JitterFactor",
                          "A steady transfer's single messages may differ from the fitted "
                          "queue by up to this many Tolerances (its mean error stays within "
                          "one). Default 5: two channels sharing a NIC move single "
                          "messages by 1-3% (doc/fast-forward.md).",
                          DoubleValue(5),
                          MakeDoubleAccessor(&FastForwardTransport::m_jitter),
                          MakeDoubleChecker<double>(1))
            .AddTraceSource("Skipped",
                            "A message was completed after its memoized latency, without "
                            "packets: (src rank, dst rank, tag, bytes, delivered after ns).",
                            MakeTraceSourceAccessor(&FastForwardTransport::m_skippedTrace),
                            "ns3::FastForwardTransport::SkippedTracedCallback");
    return tid;
}

FastForwardTransport::FastForwardTransport()
    : m_stableMessages(8),
      m_tolerance(0.01),
      m_jitter(5)
{
}

FastForwardTransport::~FastForwardTransport() = default;

void
FastForwardTransport::DoDispose()
{
    if (m_inner)
    {
        m_inner->SetCallbacks(MessageCallback(), MessageCallback());
    }
    m_inner = nullptr;
    m_history.clear();
    m_connections.clear();
    m_inFlight.clear();
    m_unstableAt.clear();
    ForwardingCollectiveTransport::DoDispose();
}

std::size_t
FastForwardTransport::KeyHash::operator()(const Key& k) const
{
    // splitmix64's finalizer over the fields: every bit of each moves the bucket
    auto mix = [](uint64_t x) {
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    };
    const uint64_t ranks = (static_cast<uint64_t>(k.src) << 32) | k.dst;
    return static_cast<std::size_t>(mix(ranks ^ mix(k.bytes ^ (uint64_t{k.channel} << 48))));
}

void
FastForwardTransport::SetInner(Ptr<RdmaCollectiveTransport> inner)
{
    NS_ABORT_MSG_IF(inner->NeedsTransferOrder(),
                    "FastForwardTransport needs receives posted with each message "
                    "(RdmaCollectiveTransport MatchInAdvance false)");
    m_inner = inner;
    SetForwardTo(inner);
    m_inner->SetCallbacks(MakeCallback(&FastForwardTransport::OnDelivered, this),
                          MakeCallback(&FastForwardTransport::OnSent, this));
}

Ptr<RdmaCollectiveTransport>
FastForwardTransport::GetInner() const
{
    return m_inner;
}

const FastForwardTransport::Stats&
FastForwardTransport::GetStats() const
{
    return m_stats;
}

void
FastForwardTransport::Send(uint32_t srcRank,
                           uint32_t dstRank,
                           uint64_t bytes,
                           uint64_t tag,
                           uint32_t channel)
{
    NS_ABORT_MSG_IF(!m_inner, "FastForwardTransport::Send before SetInner");
    History& h = m_history[Key{srcRank, dstRank, channel, bytes}];
    if (h.samples.empty())
    {
        h.samples.resize(m_stableMessages);
        h.connection = &m_connections[Key{srcRank, dstRank, channel, 0}];
    }
    if (m_unstableAt.empty())
    {
        m_unstableAt.assign(m_inner->GetNRanks(), 0);
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    // the fitted queue's delivery of this message, behind those posted before it
    int64_t due = std::max(now + h.latencyNs, h.chainDeliveredNs + h.gapNs);
    const uint64_t operation = tag >> 32; // (RdmaCollectiveTransport: tagBase | index)
    // It waits behind a message of another operation (of any size) still in flight on its
    // connection (a second gradient bucket overlapping the first), a queue the fit never
    // saw (no message of the window waited, so gapNs measured nothing): the connection's
    // queue pair serves them in order, so it is delivered no sooner than its own latency
    // after that one (exact when the latency is its transfer time at the connection's
    // share of the NICs, as for the 1,024-GPU iteration's 128 KB ring messages). The
    // pipelined steps of one operation are what the fit learned and keep it.
    Connection& c = *h.connection;
    const bool unseenQueue =
        h.stable && !h.queueSeen && operation != c.operation && c.deliveredNs > now;
    if (unseenQueue)
    {
        due = std::max(due, c.deliveredNs + h.latencyNs);
    }
    // Skip only in a steady contention pattern: this transfer is steady and no message
    // of a transfer that is not (a new pattern) leaves or enters either of its ranks.
    if (h.stable && m_unstableAt[srcRank] == 0 && m_unstableAt[dstRank] == 0 &&
        m_inner->CanSkip(bytes))
    {
        h.chainDeliveredNs = due;
        c.deliveredNs = std::max(c.deliveredNs, due);
        c.operation = operation;
        h.lastDeliveredNs = due;
        if (unseenQueue)
        {
            m_stats.unseenQueueMessages++;
        }
        const int64_t acked = due + h.ackLagNs - now;
        m_stats.skippedMessages++;
        m_stats.skippedBytes += bytes;
        m_stats.skippedMessageNs += acked;
        if (m_stats.firstSkipNs < 0)
        {
            m_stats.firstSkipNs = now;
        }
        m_skippedTrace(srcRank, dstRank, tag, bytes, due - now);
        m_inner
            ->SendSkipped(srcRank, dstRank, bytes, tag, NanoSeconds(due - now), NanoSeconds(acked));
        return;
    }
    m_stats.simulatedMessages++;
    h.chainDeliveredNs = std::max(due, now);
    c.deliveredNs = std::max(c.deliveredNs, h.chainDeliveredNs);
    c.operation = operation;
    const bool unstable = !h.stable;
    m_inFlight.emplace(tag, InFlight{&h, now, -1, -1, srcRank, dstRank, unstable});
    if (unstable)
    {
        m_unstableAt[srcRank]++;
        m_unstableAt[dstRank]++;
    }
    m_inner->Send(srcRank, dstRank, bytes, tag, channel);
}

void
FastForwardTransport::OnDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    auto it = m_inFlight.find(tag);
    if (it != m_inFlight.end())
    {
        const int64_t now = Simulator::Now().GetNanoSeconds();
        History& h = *it->second.history;
        it->second.deliveredNs = now;
        it->second.prevDeliveredNs = h.lastDeliveredNs;
        h.lastDeliveredNs = std::max(h.lastDeliveredNs, now);
        h.chainDeliveredNs = std::max(h.chainDeliveredNs, now);
        h.connection->deliveredNs = std::max(h.connection->deliveredNs, now);
    }
    NotifyDelivered(src, dst, tag, bytes);
}

void
FastForwardTransport::OnSent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    auto it = m_inFlight.find(tag);
    if (it != m_inFlight.end())
    {
        const InFlight f = it->second;
        m_inFlight.erase(it);
        if (f.unstable)
        {
            m_unstableAt[f.src]--;
            m_unstableAt[f.dst]--;
        }
        // Only messages posted before their transfer was steady teach the fit: those
        // posted after it, while a neighbour was unsteady, load the fabric for that
        // neighbour as they should, but their own latency mixes packets and skips.
        if (f.unstable)
        {
            const int64_t now = Simulator::Now().GetNanoSeconds();
            const int64_t delivered = f.deliveredNs < 0 ? now : f.deliveredNs;
            Record(*f.history, Sample{f.postNs, f.prevDeliveredNs, delivered, now});
        }
    }
    NotifySent(src, dst, tag, bytes);
}

namespace
{
/// The median of \p v (the upper one of an even count); 0 if empty. Reorders \p v.
int64_t
Median(std::vector<int64_t>& v)
{
    if (v.empty())
    {
        return 0;
    }
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}
} // namespace

void
FastForwardTransport::Record(History& h, const Sample& sample) const
{
    if (sample.prevDeliveredNs <= sample.postNs)
    {
        h.unqueuedNs = sample.deliveredNs - sample.postNs; // (kept past the window)
    }
    h.samples[h.next] = sample;
    h.next = (h.next + 1) % m_stableMessages;
    h.count = std::min(h.count + 1, m_stableMessages);
    h.stable = false;
    if (h.count < m_stableMessages)
    {
        return;
    }
    // Fit: the median latency of the messages that found the connection idle (the
    // shortest, if every message waited: the queue then sets their deliveries), the
    // median spacing of the deliveries that waited (the service gap), the mean ACK lag.
    std::vector<int64_t> idle;
    std::vector<int64_t> gaps;
    int64_t shortest = INT64_MAX;
    int64_t ackLag = 0;
    for (const Sample& x : h.samples)
    {
        shortest = std::min(shortest, x.deliveredNs - x.postNs);
        ackLag += x.ackedNs - x.deliveredNs;
        if (x.prevDeliveredNs > x.postNs)
        {
            gaps.push_back(x.deliveredNs - x.prevDeliveredNs);
        }
        else
        {
            idle.push_back(x.deliveredNs - x.postNs);
        }
    }
    ackLag /= static_cast<int64_t>(h.samples.size());
    const int64_t gap = Median(gaps);
    int64_t latency = idle.empty() ? shortest : Median(idle);
    if (idle.empty() && h.unqueuedNs >= 0)
    {
        // a message that finds the connection idle takes the idle latency last seen
        latency = std::min(latency, h.unqueuedNs);
    }
    // Check: the fitted queue reproduces the samples without bias (mean error within
    // Tolerance of the mean latency: what adds up over a collective's steps) and each
    // within JitterFactor x Tolerance (the NIC's interleaving of channels moves single
    // messages by a few percent either way).
    const int64_t fitted = idle.empty() ? shortest : latency;
    double bias = 0;
    double ackBias = 0;
    double mean = 0;
    for (const Sample& x : h.samples)
    {
        const int64_t due = std::max(x.postNs + fitted, x.prevDeliveredNs + gap);
        const double took = static_cast<double>(x.ackedNs - x.postNs);
        const double error = static_cast<double>(due - x.deliveredNs);
        const double ackError = static_cast<double>(x.ackedNs - x.deliveredNs - ackLag);
        if (std::abs(error) > m_jitter * m_tolerance * took ||
            std::abs(ackError) > m_jitter * m_tolerance * took)
        {
            return;
        }
        bias += error;
        ackBias += ackError;
        mean += took;
    }
    if (std::abs(bias) > m_tolerance * mean || std::abs(ackBias) > m_tolerance * mean)
    {
        return;
    }
    h.latencyNs = latency;
    h.gapNs = gap;
    h.queueSeen = !gaps.empty();
    h.ackLagNs = ackLag;
    h.stable = true;
}

} // namespace ns3
