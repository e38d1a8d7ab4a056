/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fct-attribution.h"

#include "rdma-opcode.h"
#include "rdma-queue-pair.h"
#include "rdma-requester.h"

#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FctAttribution");
NS_OBJECT_ENSURE_REGISTERED(FctAttribution);

namespace
{
constexpr int64_t OPEN = std::numeric_limits<int64_t>::max(); //!< a blocked interval's end
} // namespace

const char*
FctAttribution::ComponentName(uint8_t c)
{
    static const char* const names[N_COMPONENTS] = {"serialization",
                                                    "propagation",
                                                    "forwarding",
                                                    "queueing",
                                                    "pause",
                                                    "cc",
                                                    "qp_cache",
                                                    "rnr",
                                                    "retransmission",
                                                    "host"};
    return c < N_COMPONENTS ? names[c] : "?";
}

TypeId
FctAttribution::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FctAttribution")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FctAttribution>()
            .AddTraceSource("MessageAttributed",
                            "A message completed: its FCT split into causes (time steps)",
                            MakeTraceSourceAccessor(&FctAttribution::m_resultTrace),
                            "ns3::FctAttribution::ResultCallback");
    return tid;
}

FctAttribution::FctAttribution() = default;
FctAttribution::~FctAttribution() = default;

uint64_t
FctAttribution::PortKey(const void* device, uint8_t queue)
{
    return (static_cast<uint64_t>(reinterpret_cast<uintptr_t>(device)) << 4) | (queue & 0xF);
}

uint32_t
FctAttribution::AddQueuePair()
{
    NS_ABORT_MSG_IF(m_qps.size() >= SENDER_ONLY,
                    "FctAttribution: more than " << SENDER_ONLY << " queue pairs");
    m_qps.emplace_back();
    return static_cast<uint32_t>(m_qps.size() - 1);
}

uint32_t
FctAttribution::Allocate()
{
    if (m_free.empty() && m_journeys.size() >= m_sweepAt)
    {
        // The table would grow: first forget the journeys of dropped packets. If that
        // frees little, let it grow (twice as far) before the next sweep.
        if (ForgetStale() < m_journeys.size() / 4)
        {
            m_sweepAt = 2 * m_journeys.size();
        }
    }
    uint32_t index;
    if (!m_free.empty())
    {
        index = m_free.back();
        m_free.pop_back();
        // A fresh journey that keeps its vectors' room and its generation. (Its sender
        // snapshot and data leg are written before they are read: NewData and the first
        // hop, NewAck.)
        Journey& j = m_journeys[index];
        j.ack = false;
        j.arrived = false;
        j.retx = 0;
        j.qp = nullptr;
        Leg& leg = j.leg;
        leg.ticks.fill(0);
        leg.waits.clear();
        leg.arrival = -1;
        leg.head = -1;
        leg.ready = 0;
        leg.hostTicks = 0;
        leg.hops = 0;
    }
    else
    {
        NS_ABORT_MSG_IF(m_journeys.size() >= INDEX_MASK,
                        "FctAttribution: more than " << INDEX_MASK << " packets followed at once");
        m_journeys.emplace_back();
        index = static_cast<uint32_t>(m_journeys.size() - 1);
    }
    Journey& j = m_journeys[index];
    j.live = true;
    m_live++;
    return (j.generation << INDEX_BITS) | (index + 1);
}

FctAttribution::Journey*
FctAttribution::Find(uint32_t id)
{
    const uint32_t index = (id & INDEX_MASK) - 1; // (id 0: wraps beyond the table)
    if (index >= m_journeys.size())
    {
        return nullptr;
    }
    Journey& j = m_journeys[index];
    return j.live && j.generation == (id >> INDEX_BITS) ? &j : nullptr;
}

void
FctAttribution::Forget(uint32_t id)
{
    Journey* j = Find(id);
    if (j == nullptr)
    {
        return;
    }
    j->live = false;
    j->generation = (j->generation + 1) & GENERATION_MASK;
    m_free.push_back((id & INDEX_MASK) - 1);
    m_live--;
}

std::size_t
FctAttribution::ForgetStale()
{
    // Per queue pair, what its resends supersede: go-back-N, the lowest PSN resent from
    // each resend on (suffix minima); selective repeat, each PSN's last resend.
    std::vector<std::vector<uint64_t>> lowestFrom(m_qps.size());
    std::vector<std::unordered_map<uint64_t, uint32_t>> lastResend(m_qps.size());
    for (std::size_t q = 0; q < m_qps.size(); ++q)
    {
        const std::vector<uint64_t>& r = m_qps[q].resends;
        if (m_qps[q].goBackN)
        {
            lowestFrom[q].resize(r.size());
            uint64_t low = UINT64_MAX;
            for (std::size_t i = r.size(); i-- > 0;)
            {
                low = std::min(low, r[i]);
                lowestFrom[q][i] = low;
            }
        }
        else
        {
            for (std::size_t i = 0; i < r.size(); ++i)
            {
                lastResend[q][r[i]] = static_cast<uint32_t>(i);
            }
        }
    }
    std::size_t forgotten = 0;
    for (std::size_t i = 0; i < m_journeys.size(); ++i)
    {
        Journey& j = m_journeys[i];
        if (!j.live || j.arrived || j.sender.slot >= m_qps.size())
        {
            continue;
        }
        const uint32_t q = j.sender.slot;
        bool stale = MessageOf(m_qps[q], j.sender.message) == nullptr;
        if (!stale && !j.ack && j.resendSeq < m_qps[q].resends.size())
        {
            // A data packet resent (or, go-back-N, one before it) since it was sent.
            if (m_qps[q].goBackN)
            {
                stale = lowestFrom[q][j.resendSeq] <= j.psn;
            }
            else
            {
                auto it = lastResend[q].find(j.psn);
                stale = it != lastResend[q].end() && it->second >= j.resendSeq;
            }
        }
        if (stale)
        {
            Forget((j.generation << INDEX_BITS) | static_cast<uint32_t>(i + 1));
            forgotten++;
        }
    }
    NS_LOG_DEBUG("forgot " << forgotten << " stale journeys of " << m_journeys.size());
    return forgotten;
}

std::size_t
FctAttribution::GetLiveJourneys() const
{
    return m_live;
}

std::size_t
FctAttribution::GetJourneyTableSize() const
{
    return m_journeys.size();
}

FctAttribution::QpState&
FctAttribution::StateOf(const RdmaQueuePair& qp)
{
    NS_ASSERT_MSG(qp.GetAttributionSlot() < m_qps.size(), "a queue pair of another attribution");
    return m_qps[qp.GetAttributionSlot()];
}

FctAttribution::MessageState*
FctAttribution::MessageOf(QpState& s, uint64_t id)
{
    // Mostly the oldest: messages complete in post order, and are sent in it.
    for (MessageState& m : s.messages)
    {
        if (m.id == id)
        {
            return &m;
        }
    }
    return nullptr;
}

int64_t
FctAttribution::BlockedWithin(const void* device, uint8_t queue, int64_t a, int64_t b) const
{
    if (b <= a || device == nullptr)
    {
        return 0;
    }
    auto it = m_blocked.find(PortKey(device, queue));
    if (it == m_blocked.end())
    {
        return 0;
    }
    int64_t sum = 0;
    const std::vector<Interval>& v = it->second;
    for (auto i = v.rbegin(); i != v.rend() && i->end > a; ++i)
    {
        const int64_t lo = std::max(a, i->start);
        const int64_t hi = std::min(b, i->end);
        if (hi > lo)
        {
            sum += hi - lo;
        }
    }
    return sum;
}

void
FctAttribution::OnPortBlocked(const void* device, uint8_t queue, bool blocked)
{
    std::vector<Interval>& v = m_blocked[PortKey(device, queue)];
    const int64_t now = FabricSimulator::NowTicks();
    const bool open = !v.empty() && v.back().end == OPEN;
    if (blocked && !open)
    {
        v.push_back({now, OPEN});
    }
    else if (!blocked && open)
    {
        v.back().end = now;
    }
}

void
FctAttribution::Advance(QpState& s, int64_t t, bool retx)
{
    // [s.accounted, t): the queue pair had data but did not send. In order: a hold of
    // its own (pacing or window: congestion control; an RNR timer), then waiting for
    // its QP context, then for its port (paused, or busy with other queue pairs).
    // A wait that ends in a retransmission is the retransmission's.
    const int64_t a = s.accounted;
    if (a < 0 || t <= a)
    {
        s.accounted = std::max(s.accounted, t);
        return;
    }
    if (retx && !s.holdRnr)
    {
        s.cumulative[RETRANSMISSION] += t - a;
        s.accounted = t;
        return;
    }
    int64_t holdEnd = a;
    uint8_t holdCause = CC;
    if (s.windowBlocked)
    {
        holdEnd = s.lastAck > a ? std::min(t, s.lastAck) : t;
    }
    else if (s.holdUntil > a)
    {
        holdEnd = std::min(t, s.holdUntil);
        holdCause = s.holdRnr ? RNR : CC;
    }
    s.cumulative[holdCause] += holdEnd - a;
    // Then its QP context (from the miss on), before that its port.
    const int64_t missAt = s.qpCacheMiss >= 0 ? std::clamp(s.qpCacheMiss, holdEnd, t) : t;
    s.cumulative[QP_CACHE] += t - missAt;
    const int64_t wait = missAt - holdEnd;
    const int64_t pause = std::min(wait, BlockedWithin(s.device, s.priority, holdEnd, missAt));
    s.cumulative[PAUSE] += pause;
    s.cumulative[QUEUEING] += wait - pause;
    NS_LOG_DEBUG("qp " << &s << " [" << a << ", " << t << ") hold " << holdEnd - a << " cause "
                       << +holdCause << " wait " << wait << " pause " << pause << " qpc "
                       << t - missAt << " holdUntil " << s.holdUntil << " wb " << s.windowBlocked);
    s.accounted = t;
}

void
FctAttribution::OnPost(const RdmaQueuePair& qp, const RdmaMessage& posted)
{
    QpState& s = StateOf(qp);
    const int64_t now = FabricSimulator::NowTicks();
    if (s.accounted < 0)
    {
        s.accounted = now;
        s.priority = qp.GetPriority();
    }
    else if (now > s.accounted)
    {
        const bool wasBlocked = s.windowBlocked;
        Advance(s, now, false);
        s.accounted = now;
        // A window still full now stays a hold; one that opened was opened by lastAck.
        s.windowBlocked = wasBlocked && qp.GetRequester().IsWindowBlocked();
    }
    MessageState& m = s.messages.emplace_back();
    m.id = posted.id;
    m.firstPsn = posted.firstPsn;
    m.endPsn = posted.endPsn;
    m.post = now;
    m.atPost = s.cumulative;
    if (s.accounted > now)
    {
        // A packet is on the wire: the rest of its serialization is after the post.
        m.atPost[s.serializingCause] -= s.accounted - now;
    }
}

void
FctAttribution::OnRnrWait(const RdmaQueuePair& qp, Time until)
{
    QpState& s = StateOf(qp);
    const int64_t now = FabricSimulator::NowTicks();
    if (now > s.accounted && s.accounted >= 0)
    {
        Advance(s, now, false);
        s.accounted = now;
    }
    s.holdUntil = until.GetTimeStep();
    s.holdRnr = true;
    s.windowBlocked = false;
}

void
FctAttribution::OnQpCacheMiss(const RdmaQueuePair& qp)
{
    QpState& s = StateOf(qp);
    if (s.qpCacheMiss < 0)
    {
        s.qpCacheMiss = FabricSimulator::NowTicks();
    }
}

uint32_t
FctAttribution::NewData(const RdmaQueuePair& qp, const RdmaSegment& seg)
{
    QpState& s = StateOf(qp);
    s.qp = &qp;
    // Which packets' ACKs can complete a message (NewData's doc). The others (a packet
    // of the oldest message not completed, not its last, not a resend) get no journey:
    // their first hop is their sender's time (OnTransmit), so journeys stay few and
    // their frames stay packed.
    if (qp.GetRecovery() == RdmaQueuePair::GO_BACK_N && !seg.retransmission &&
        !RdmaOpcode::IsLast(seg.opcode) && !s.messages.empty() &&
        seg.psn >= s.messages.front().firstPsn && seg.psn < s.messages.front().endPsn)
    {
        s.unfollowedMessage = s.messages.front().id;
        return SENDER_ONLY | qp.GetAttributionSlot();
    }
    // Its message (0: not one posted since attribution was on, e.g. a READ).
    uint64_t message = 0;
    for (const MessageState& m : s.messages)
    {
        if (seg.psn >= m.firstPsn && seg.psn < m.endPsn)
        {
            message = m.id;
            break;
        }
    }
    const uint32_t id = Allocate();
    Journey& j = m_journeys[(id & INDEX_MASK) - 1];
    j.qp = &qp;
    j.retx = seg.retransmission ? 1 : 0;
    j.sender.message = message;
    j.sender.slot = qp.GetAttributionSlot();
    j.psn = seg.psn;
    j.resendSeq = static_cast<uint32_t>(s.resends.size()); // (resends before it)
    if (seg.retransmission)
    {
        // Its earlier copies (go-back-N: and those of the PSNs after it) are now
        // superseded: ForgetStale forgets those that have not arrived.
        s.resends.push_back(seg.psn);
        s.goBackN = qp.GetRecovery() == RdmaQueuePair::GO_BACK_N;
    }
    return id;
}

uint32_t
FctAttribution::NewAck(const RdmaQueuePair& qp)
{
    QpState& s = StateOf(qp);
    if (Find(s.lastData) == nullptr)
    {
        return 0;
    }
    const uint32_t data = s.lastData;
    const uint32_t id = Allocate(); // (may move m_journeys, or forget: references after it)
    Journey& k = m_journeys[(id & INDEX_MASK) - 1];
    const Journey* d = Find(data);
    if (d == nullptr)
    {
        Forget(id);
        return 0;
    }
    k.ack = true;
    k.qp = &qp;
    k.sender = d->sender;
    k.dataLeg = d->leg;
    k.leg.arrival = FabricSimulator::NowTicks(); // made now: the receiver's delay ends here
    return id;
}

int64_t
FctAttribution::SenderTransmit(QpState& s,
                               const RdmaQueuePair& qp,
                               uint64_t message,
                               bool retx,
                               const void* device,
                               int64_t start,
                               int64_t tx)
{
    s.device = device;
    s.priority = qp.GetPriority();
    if (s.accounted < 0)
    {
        s.accounted = start;
    }
    if (start > s.accounted)
    {
        if (s.windowBlocked)
        {
            // It sends: its window opened, at the last ACK before now at the latest.
            s.lastAck = std::max<int64_t>(s.lastAck, s.accounted);
        }
        Advance(s, start, retx);
        s.accounted = start;
    }
    MessageState* m = MessageOf(s, message);
    const int64_t ownSer = m != nullptr ? m->ownSer : 0;
    // The packet's own serialization is sender time for what it holds up.
    s.serializingCause = retx ? RETRANSMISSION : SERIALIZATION;
    s.cumulative[s.serializingCause] += tx;
    if (!retx && m != nullptr)
    {
        m->ownSer += tx;
    }
    s.accounted = start + tx;
    const RdmaRequester& r = qp.GetRequester();
    s.holdUntil = r.GetNextSendTime().GetTimeStep();
    s.holdRnr = false;
    s.windowBlocked = r.IsWindowBlocked();
    s.qpCacheMiss = -1;
    return ownSer;
}

bool
FctAttribution::OnTransmit(uint32_t id,
                           const void* device,
                           uint32_t node,
                           uint32_t port,
                           uint8_t queue,
                           int64_t readyTicks,
                           int64_t startTicks,
                           int64_t txTicks,
                           int64_t delayTicks)
{
    if ((id & SENDER_ONLY) != 0)
    {
        // An unfollowed data packet: its sender's time, and its journey ends here.
        QpState& s = m_qps[id & ~SENDER_ONLY];
        SenderTransmit(s, *s.qp, s.unfollowedMessage, false, device, startTicks, txTicks);
        s.node = node;
        s.port = port;
        return false;
    }
    Journey* found = Find(id);
    if (found == nullptr)
    {
        return true;
    }
    Journey& j = *found;
    Leg& leg = j.leg;
    if (readyTicks == 0)
    {
        readyTicks = leg.ready;
    }
    leg.ready = 0;
    if (leg.hops == 0 && !j.ack)
    {
        QpState& s = StateOf(*j.qp);
        const int64_t ownSer =
            SenderTransmit(s, *j.qp, j.sender.message, j.retx != 0, device, startTicks, txTicks);
        // Its sender as it started (before its own wire time).
        j.sender.cumulative = s.cumulative;
        j.sender.cumulative[s.serializingCause] -= txTicks;
        j.sender.start = startTicks;
        j.sender.ownSer = ownSer;
        s.node = node;
        s.port = port;
        leg.ticks[SERIALIZATION] += txTicks;
    }
    else if (leg.hops == 0)
    {
        // An ACK: made at leg.arrival, HOST since its data packet arrived; then it
        // waited for its port.
        leg.hostTicks = leg.arrival - j.dataLeg.arrival;
        const int64_t wait = std::max<int64_t>(0, startTicks - leg.arrival);
        const int64_t pause =
            wait > 0 ? std::min(wait, BlockedWithin(device, queue, startTicks - wait, startTicks))
                     : 0;
        leg.ticks[PAUSE] += pause;
        leg.ticks[QUEUEING] += wait - pause;
        if (wait > 0)
        {
            leg.waits.push_back({node, port, queue, wait - pause, pause});
        }
        leg.ticks[SERIALIZATION] += txTicks;
    }
    else
    {
        // A switch: from the tail's arrival to the tail's departure. Waiting once the
        // switch let it go (queueing or pause), the switch's latency (from the tail,
        // store-and-forward; from the head, cut-through), the rest is wire time that
        // did not overlap the input's.
        const int64_t span = startTicks + txTicks - leg.arrival; // >= 0
        const int64_t from = readyTicks != 0 ? readyTicks : leg.arrival;
        const int64_t wait = std::clamp<int64_t>(startTicks - from, 0, span);
        const int64_t latency = readyTicks == 0             ? 0
                                : readyTicks >= leg.arrival ? readyTicks - leg.arrival
                                                            : readyTicks - leg.head;
        const int64_t fwd = std::clamp<int64_t>(latency, 0, span - wait);
        const int64_t pause =
            wait > 0 ? std::min(wait, BlockedWithin(device, queue, startTicks - wait, startTicks))
                     : 0;
        leg.ticks[SERIALIZATION] += span - wait - fwd;
        leg.ticks[FORWARDING] += fwd;
        leg.ticks[PAUSE] += pause;
        leg.ticks[QUEUEING] += wait - pause;
        if (wait > 0)
        {
            leg.waits.push_back({node, port, queue, wait - pause, pause});
        }
    }
    leg.ticks[PROPAGATION] += delayTicks;
    leg.head = startTicks + delayTicks;
    leg.arrival = startTicks + txTicks + delayTicks;
    leg.hops++;
    return true;
}

void
FctAttribution::OnReady(uint32_t id)
{
    if (Journey* j = Find(id); j != nullptr)
    {
        j->leg.ready = FabricSimulator::NowTicks();
    }
}

void
FctAttribution::OnArrival(uint32_t id, const RdmaQueuePair& qp)
{
    Journey* found = Find(id);
    if (found == nullptr)
    {
        // Forgotten on its way (ForgetStale): what it triggers is not followed.
        QpState& s = StateOf(qp);
        Forget(s.lastData);
        Forget(s.currentAck);
        s.lastData = 0;
        s.currentAck = 0;
        return;
    }
    Journey& j = *found;
    j.arrived = true;
    const int64_t now = FabricSimulator::NowTicks();
    if (j.leg.arrival != now)
    {
        // A channel that delivers at another time than start + wire + delay (none does
        // today): the difference is the cable's.
        j.leg.ticks[PROPAGATION] += now - j.leg.arrival;
        j.leg.arrival = now;
    }
    QpState& s = StateOf(qp);
    if (!j.ack)
    {
        Forget(s.lastData);
        s.lastData = id;
    }
    else
    {
        s.lastAck = now;
        Forget(s.currentAck);
        s.currentAck = id;
    }
}

void
FctAttribution::OnUnfollowedArrival(const RdmaQueuePair& qp, bool ack)
{
    // As OnArrival, with a packet whose ACK cannot complete a message.
    QpState& s = StateOf(qp);
    if (ack)
    {
        s.lastAck = FabricSimulator::NowTicks();
        if (s.currentAck != 0)
        {
            Forget(s.currentAck);
            s.currentAck = 0;
        }
    }
    else if (s.lastData != 0)
    {
        Forget(s.lastData);
        s.lastData = 0;
    }
}

void
FctAttribution::OnComplete(const RdmaQueuePair& qp,
                           const RdmaMessage& m,
                           uint32_t src,
                           uint32_t dst,
                           Time ideal)
{
    QpState& s = StateOf(qp);
    Result& r = m_result; // (its hops keep their room from message to message)
    r.messageId = m.id;
    r.tag = m.tag;
    r.kind = m.kind;
    r.src = src;
    r.dst = dst;
    r.bytes = m.bytes;
    r.startTicks = m.postTime.GetTimeStep();
    r.endTicks = FabricSimulator::NowTicks();
    r.idealTicks = ideal.GetTimeStep();
    r.ticks.fill(0);
    r.unattributedTicks = 0;
    r.hops.clear();
    const int64_t fct = r.endTicks - r.startTicks;
    MessageState* ms = MessageOf(s, m.id);
    const Journey* k = Find(s.currentAck);
    if (ms == nullptr || k == nullptr || !k->ack || k->sender.start < ms->post)
    {
        r.unattributedTicks = fct;
    }
    else
    {
        Ticks sender{};
        for (uint8_t c = 0; c < N_COMPONENTS; ++c)
        {
            sender[c] = k->sender.cumulative[c] - ms->atPost[c];
        }
        // Its own bytes are serialization; other messages' bytes ahead of it on its
        // queue pair were a queue it waited in.
        const int64_t own = k->sender.message == m.id ? k->sender.ownSer : ms->ownSer;
        NS_LOG_DEBUG("complete " << m.id << " ser " << sender[SERIALIZATION] << " own " << own
                                 << " queue " << sender[QUEUEING] << " snapMsg "
                                 << k->sender.message << " snapOwn " << k->sender.ownSer
                                 << " msOwn " << ms->ownSer);
        sender[QUEUEING] += sender[SERIALIZATION] - own;
        sender[SERIALIZATION] = own;
        r.ticks = sender;
        for (uint8_t c = 0; c < N_PATH; ++c)
        {
            r.ticks[c] += k->dataLeg.ticks[c] + k->leg.ticks[c];
        }
        r.ticks[HOST] += k->leg.hostTicks + (r.endTicks - k->leg.arrival);
        if (sender[QUEUEING] + sender[PAUSE] > 0)
        {
            r.hops.push_back({s.node, s.port, s.priority, sender[QUEUEING], sender[PAUSE]});
        }
        r.hops.insert(r.hops.end(), k->dataLeg.waits.begin(), k->dataLeg.waits.end());
        r.hops.insert(r.hops.end(), k->leg.waits.begin(), k->leg.waits.end());
        int64_t sum = 0;
        for (int64_t t : r.ticks)
        {
            sum += t;
        }
        r.unattributedTicks = fct - sum;
    }
    if (ms != nullptr)
    {
        // (Mostly the oldest.)
        s.messages.erase(s.messages.begin() + (ms - &s.messages.front()));
    }
    m_resultTrace(r);
}

} // namespace ns3
