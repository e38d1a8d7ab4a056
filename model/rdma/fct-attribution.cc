/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fct-attribution.h"

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
FctAttribution::Allocate()
{
    uint32_t id;
    if (!m_free.empty())
    {
        id = m_free.back();
        m_free.pop_back();
        // A fresh journey that keeps its vectors' room.
        Journey& j = m_journeys[id - 1];
        std::vector<HopWait> waits = std::move(j.leg.waits);
        std::vector<HopWait> dataWaits = std::move(j.dataLeg.waits);
        j = Journey();
        j.leg.waits = std::move(waits);
        j.dataLeg.waits = std::move(dataWaits);
    }
    else
    {
        m_journeys.emplace_back();
        id = static_cast<uint32_t>(m_journeys.size());
    }
    m_journeys[id - 1].live = true;
    m_live++;
    return id;
}

void
FctAttribution::Forget(uint32_t id)
{
    if (id == 0 || id > m_journeys.size() || !m_journeys[id - 1].live)
    {
        return;
    }
    m_journeys[id - 1].live = false;
    m_journeys[id - 1].leg.waits.clear();
    m_journeys[id - 1].dataLeg.waits.clear();
    m_free.push_back(id);
    m_live--;
}

std::size_t
FctAttribution::GetLiveJourneys() const
{
    return m_live;
}

FctAttribution::QpState&
FctAttribution::StateOf(const RdmaQueuePair& qp)
{
    // (Consecutive calls are mostly for one queue pair; map nodes do not move.)
    if (m_lastQp != &qp)
    {
        m_lastQp = &qp;
        m_lastState = &m_qps[&qp];
    }
    return *m_lastState;
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
FctAttribution::OnPost(const RdmaQueuePair& qp, uint64_t messageId)
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
    MessageState m;
    m.post = now;
    m.atPost = s.cumulative;
    if (s.accounted > now)
    {
        // A packet is on the wire: the rest of its serialization is after the post.
        m.atPost[s.serializingCause] -= s.accounted - now;
    }
    s.messages[messageId] = m;
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
    const uint32_t id = Allocate();
    Journey& j = m_journeys[id - 1];
    j.qp = &qp;
    j.retx = seg.retransmission ? 1 : 0;
    j.sender.message = qp.GetRequester().GetMessageIdOf(seg.psn);
    return id;
}

uint32_t
FctAttribution::NewAck(const RdmaQueuePair& qp)
{
    QpState& s = StateOf(qp);
    if (s.lastData == 0)
    {
        return 0;
    }
    const uint32_t data = s.lastData;
    const uint32_t id = Allocate(); // (may move m_journeys: references after it)
    Journey& k = m_journeys[id - 1];
    const Journey& d = m_journeys[data - 1];
    k.ack = true;
    k.qp = &qp;
    k.sender = d.sender;
    k.dataLeg = d.leg;
    k.leg.arrival = FabricSimulator::NowTicks(); // made now: the receiver's delay ends here
    return id;
}

void
FctAttribution::SenderTransmit(Journey& j, const void* device, int64_t start, int64_t tx)
{
    QpState& s = StateOf(*j.qp);
    s.device = device;
    s.priority = j.qp->GetPriority();
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
        Advance(s, start, j.retx != 0);
        s.accounted = start;
    }
    j.sender.cumulative = s.cumulative;
    j.sender.start = start;
    auto m = s.messages.find(j.sender.message);
    j.sender.ownSer = m != s.messages.end() ? m->second.ownSer : 0;
    // The packet's own serialization is sender time for what it holds up.
    s.serializingCause = j.retx != 0 ? RETRANSMISSION : SERIALIZATION;
    s.cumulative[s.serializingCause] += tx;
    if (j.retx == 0 && m != s.messages.end())
    {
        m->second.ownSer += tx;
    }
    s.accounted = start + tx;
    const RdmaRequester& r = j.qp->GetRequester();
    s.holdUntil = r.GetNextSendTime().GetTimeStep();
    s.holdRnr = false;
    s.windowBlocked = r.IsWindowBlocked();
    s.qpCacheMiss = -1;
}

void
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
    if (id == 0 || id > m_journeys.size() || !m_journeys[id - 1].live)
    {
        return;
    }
    Journey& j = m_journeys[id - 1];
    Leg& leg = j.leg;
    if (readyTicks == 0)
    {
        readyTicks = leg.ready;
    }
    leg.ready = 0;
    if (leg.hops == 0 && !j.ack)
    {
        SenderTransmit(j, device, startTicks, txTicks);
        QpState& s = StateOf(*j.qp);
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
            std::min(wait, BlockedWithin(device, queue, startTicks - wait, startTicks));
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
            std::min(wait, BlockedWithin(device, queue, startTicks - wait, startTicks));
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
}

void
FctAttribution::OnReady(uint32_t id)
{
    if (id != 0 && id <= m_journeys.size() && m_journeys[id - 1].live)
    {
        m_journeys[id - 1].leg.ready = FabricSimulator::NowTicks();
    }
}

void
FctAttribution::OnArrival(uint32_t id, const RdmaQueuePair& qp)
{
    if (id == 0 || id > m_journeys.size() || !m_journeys[id - 1].live)
    {
        return;
    }
    Journey& j = m_journeys[id - 1];
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
        if (s.lastData != 0)
        {
            Forget(s.lastData);
        }
        s.lastData = id;
    }
    else
    {
        s.lastAck = now;
        if (s.currentAck != 0)
        {
            Forget(s.currentAck);
        }
        s.currentAck = id;
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
    Result r;
    r.messageId = m.id;
    r.tag = m.tag;
    r.kind = m.kind;
    r.src = src;
    r.dst = dst;
    r.bytes = m.bytes;
    r.startTicks = m.postTime.GetTimeStep();
    r.endTicks = FabricSimulator::NowTicks();
    r.idealTicks = ideal.GetTimeStep();
    const int64_t fct = r.endTicks - r.startTicks;
    auto it = s.messages.find(m.id);
    const Journey* k = s.currentAck != 0 ? &m_journeys[s.currentAck - 1] : nullptr;
    if (it == s.messages.end() || k == nullptr || !k->live || !k->ack ||
        k->sender.start < it->second.post)
    {
        r.unattributedTicks = fct;
    }
    else
    {
        const MessageState& ms = it->second;
        Ticks sender{};
        for (uint8_t c = 0; c < N_COMPONENTS; ++c)
        {
            sender[c] = k->sender.cumulative[c] - ms.atPost[c];
        }
        // Its own bytes are serialization; other messages' bytes ahead of it on its
        // queue pair were a queue it waited in.
        const int64_t own = k->sender.message == m.id ? k->sender.ownSer : ms.ownSer;
        NS_LOG_DEBUG("complete " << m.id << " ser " << sender[SERIALIZATION] << " own " << own
                                 << " queue " << sender[QUEUEING] << " snapMsg "
                                 << k->sender.message << " snapOwn " << k->sender.ownSer
                                 << " msOwn " << ms.ownSer);
        sender[QUEUEING] += sender[SERIALIZATION] - own;
        sender[SERIALIZATION] = own;
        for (uint8_t c = 0; c < N_COMPONENTS; ++c)
        {
            r.ticks[c] = sender[c] + k->dataLeg.ticks[c] + k->leg.ticks[c];
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
    if (it != s.messages.end())
    {
        s.messages.erase(it);
    }
    m_resultTrace(r);
}

} // namespace ns3
