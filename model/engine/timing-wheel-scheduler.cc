/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timing-wheel-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimingWheelScheduler");

NS_OBJECT_ENSURE_REGISTERED(TimingWheelScheduler);

TypeId
TimingWheelScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimingWheelScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("AiFabric")
            .AddConstructor<TimingWheelScheduler>()
            .AddAttribute("SlotWidth",
                          "Time one wheel slot spans, rounded down to a power of two of the "
                          "time resolution's ticks; 0 (default): auto, 2,048 ps at first, "
                          "halved (down to 128 ps, at least one tick) each time the events "
                          "pending at once outnumber the slots, the span kept (a k=8 "
                          "fat-tree, ~1,500 events pending: 2,048 ps; k=16, ~52,000: 128 "
                          "ps). Few events per slot is best: a slot's events are a sorted "
                          "list, and a k=16 fat-tree schedules about 24 events per nanosecond "
                          "(512 ps slots: 24 list steps per insert); but a wheel with many "
                          "more slots than events scans empty ones",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&TimingWheelScheduler::m_slotWidth),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SlotCount",
                          "Number of wheel slots, a power of two from 64 to 65536; the wheel "
                          "spans SlotCount x SlotWidth, or with SlotWidth auto SlotCount x "
                          "128 ps (8.4 us by default, past a frame's serialization plus a 1 "
                          "us cable); later events go to a 4-ary heap",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&TimingWheelScheduler::m_slotCount),
                          MakeUintegerChecker<uint32_t>(64, MAX_SLOTS));
    return tid;
}

TimingWheelScheduler::TimingWheelScheduler()
    : m_slotWidth(Time(0)),
      m_slotCount(65536)
{
    NS_LOG_FUNCTION(this);
}

TimingWheelScheduler::~TimingWheelScheduler()
{
    NS_LOG_FUNCTION(this);
    // Events never run: their payloads end with the list (free nodes have none).
    for (uint32_t n = 0; n < m_nodes.size(); ++n)
    {
        if (m_nodes[n].call != nullptr && m_nodes[n].call->destroy != nullptr)
        {
            m_nodes[n].call->destroy(PayloadOf(n));
        }
    }
}

void
TimingWheelScheduler::NotifyConstructionCompleted()
{
    Scheduler::NotifyConstructionCompleted();
    if ((m_slotCount & (m_slotCount - 1)) != 0)
    {
        NS_FATAL_ERROR("TimingWheelScheduler: SlotCount " << m_slotCount
                                                          << " is not a power of two (allowed: "
                                                             "64, 128, ..., 65536)");
    }
    // Auto (0): 128 ps in ticks of the resolution now in force, at least one, as the
    // narrowest; the wheel starts 16 times wider (2,048 ps) with 16 times fewer slots
    // (at least 64), the same span, and narrows as the pending events grow (GrowPool).
    m_auto = m_slotWidth.IsZero();
    const int64_t ticks =
        m_auto ? std::max<int64_t>(1, PicoSeconds(128).GetTimeStep()) : m_slotWidth.GetTimeStep();
    m_shift = 0;
    while ((int64_t{2} << m_shift) <= ticks)
    {
        ++m_shift;
    }
    m_minShift = m_shift;
    uint32_t count = m_slotCount;
    while (m_auto && m_shift < m_minShift + AUTO_WIDER_SHIFT && count > 64)
    {
        ++m_shift;
        count /= 2;
    }
    Resize(count);
    m_far = CreateObject<QuaternaryHeapScheduler>();
}

void
TimingWheelScheduler::RefreshFarHead()
{
    m_farEmpty = m_far->IsEmpty();
    if (!m_farEmpty)
    {
        m_farHead = m_far->PeekNext().key;
        m_farHeadOrigin = m_far->PeekNextOrigin();
    }
}

void
TimingWheelScheduler::InsertFar(const Event& ev, const EventOrigin& origin)
{
    // (Or, never in a simulation, before the wheel's present.)
    m_far->InsertFrom(ev, origin);
    if (m_farEmpty || EventOrigin::Earlier(ev.key, origin, m_farHead, m_farHeadOrigin))
    {
        m_farEmpty = false;
        m_farHead = ev.key;
        m_farHeadOrigin = origin;
    }
}

Scheduler::Event
TimingWheelScheduler::RemoveNextFar()
{
    const Event ev = m_far->RemoveNext();
    RefreshFarHead();
    return ev;
}

void
TimingWheelScheduler::Resize(uint32_t count)
{
    m_mask = count - 1;
    m_slots.assign(count, Slot{NIL, NIL, NIL, 0});
    m_words.assign(count / 64, 0);
    m_summary.assign((count + 4095) / 4096, 0);
}

void
TimingWheelScheduler::Narrow()
{
    // The wheel's events in time order: its slots from the current one on (a slot
    // holds one lap), each slot's list sorted.
    std::vector<uint32_t> order;
    order.reserve(m_inWheel);
    for (uint64_t i = 0; i <= m_mask; ++i)
    {
        const auto slot = static_cast<uint32_t>((m_current + i) & m_mask);
        for (uint32_t n = m_slots[slot].head; n != NIL; n = m_nodes[n].next)
        {
            order.push_back(n);
        }
    }
    // Half the width, twice the slots: the same span from the same start, so every
    // event of the wheel stays in it (and every far one out of it), each appended to
    // its new slot in order.
    --m_shift;
    m_current <<= 1;
    Resize(static_cast<uint32_t>(2 * (m_mask + 1)));
    const uint64_t inWheel = m_inWheel;
    for (uint32_t n : order)
    {
        m_nodes[n].next = NIL;
        LinkNode(n, m_nodes[n].ev.key.m_ts >> m_shift);
    }
    m_inWheel = inWheel;
}

uint32_t
TimingWheelScheduler::GrowPool()
{
    const auto n = static_cast<uint32_t>(m_nodes.size());
    if (m_auto && n > m_mask && m_shift > m_minShift)
    {
        Narrow(); // more events pending than slots (the new node is not linked yet)
    }
    NS_ABORT_MSG_IF(n == NIL, "TimingWheelScheduler: more than 2^32 - 1 events in the wheel");
    m_nodes.emplace_back();
    if (n % PAYLOAD_CHUNK == 0)
    {
        // Payload room in chunks: a payload stays where it is while the pool grows
        // (an event may schedule others while it reads its payload).
        m_payloads.emplace_back(new Payload[PAYLOAD_CHUNK]);
    }
    return n;
}

void
TimingWheelScheduler::InsertSorted(uint32_t slot, uint32_t node)
{
    const Node& inserted = m_nodes[node];
    uint32_t prev = NIL;
    uint32_t cur = m_slots[slot].head;
    // Start after the last node sorted into this slot when it comes first: the events
    // run at one instant schedule bursts of ties (same time, ordered by context), each
    // burst ascending, so the walk resumes where the last insert stopped instead of
    // passing every earlier tie again (k=16 permutation: 37.8 M nodes walked from the
    // head, one cache miss each).
    const uint32_t finger = m_slots[slot].finger;
    if (finger != NIL && Earlier(m_nodes[finger], inserted))
    {
        prev = finger; // (not the tail: LinkNode appends after a tail that comes first)
        cur = m_nodes[finger].next;
    }
    while (Earlier(m_nodes[cur], inserted))
    {
        ++m_walked;
        prev = cur;
        cur = m_nodes[cur].next;
    }
    m_nodes[node].next = cur;
    if (prev == NIL)
    {
        m_slots[slot].head = node;
    }
    else
    {
        m_nodes[prev].next = node;
    }
    m_slots[slot].finger = node;
}

void
TimingWheelScheduler::Insert(const Event& ev)
{
    InsertEvent(ev, EventOrigin{});
}

bool
TimingWheelScheduler::Contains(uint64_t ts, uint32_t uid) const
{
    const uint64_t index = ts >> m_shift;
    if (index - m_current <= m_mask)
    {
        const auto slot = static_cast<uint32_t>(index & m_mask);
        for (uint32_t cur = m_slots[slot].head; cur != NIL; cur = m_nodes[cur].next)
        {
            if (m_nodes[cur].ev.key.m_ts == ts && m_nodes[cur].ev.key.m_uid == uid)
            {
                return true;
            }
        }
    }
    return m_far->Contains(ts, uid);
}

bool
TimingWheelScheduler::IsEmpty() const
{
    return IsEmptyInline();
}

Scheduler::Event
TimingWheelScheduler::PeekNext() const
{
    NS_ASSERT(!IsEmpty());
    const uint32_t slot = FirstSlot();
    if (slot == NIL || FarFirst(m_slots[slot].head))
    {
        return m_far->PeekNext();
    }
    return m_nodes[m_slots[slot].head].ev;
}

Scheduler::Event
TimingWheelScheduler::RemoveNext()
{
    NS_ASSERT(!IsEmpty());
    return RemoveNextEvent(); // run through Invoke, direct or not: the same result
}

void
TimingWheelScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.key.m_ts << ev.key.m_uid);
    const uint64_t index = ev.key.m_ts >> m_shift;
    if (index - m_current <= m_mask)
    {
        // Maybe in the wheel (or inserted into the far heap before the wheel reached it).
        const auto slot = static_cast<uint32_t>(index & m_mask);
        uint32_t prev = NIL;
        for (uint32_t cur = m_slots[slot].head; cur != NIL; prev = cur, cur = m_nodes[cur].next)
        {
            if (m_nodes[cur].ev.key.m_uid != ev.key.m_uid)
            {
                continue;
            }
            const uint32_t next = m_nodes[cur].next;
            if (cur == m_slots[slot].finger)
            {
                m_slots[slot].finger = NIL;
            }
            if (prev == NIL)
            {
                m_slots[slot].head = next;
            }
            else
            {
                m_nodes[prev].next = next;
            }
            if (next == NIL)
            {
                m_slots[slot].tail = prev;
                if (prev == NIL)
                {
                    ClearSlot(slot);
                }
            }
            --m_inWheel;
            ReleaseNode(cur);
            return;
        }
    }
    m_far->Remove(ev);
    RefreshFarHead();
}

} // namespace ns3
