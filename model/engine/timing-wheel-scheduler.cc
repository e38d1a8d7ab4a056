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
                          "time resolution's ticks; 0 (default): 128 ps, at least one tick "
                          "(128 ps at picoseconds; a default in picoseconds would be lost at "
                          "ns-3's initial nanosecond resolution). Few events per slot is "
                          "best: a slot's events are a sorted list, and a k=16 fat-tree "
                          "schedules about 24 events per nanosecond (512 ps slots, the "
                          "earlier default: 24 list steps per insert)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&TimingWheelScheduler::m_slotWidth),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SlotCount",
                          "Number of wheel slots, a power of two from 64 to 65536; the wheel "
                          "spans SlotCount x SlotWidth (2.1 us by default, past a frame's "
                          "serialization plus a 1 us cable); later events go to a 4-ary heap",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&TimingWheelScheduler::m_slotCount),
                          MakeUintegerChecker<uint32_t>(64, MAX_SLOTS));
    return tid;
}

TimingWheelScheduler::TimingWheelScheduler()
    : m_slotWidth(Time(0)),
      m_slotCount(16384)
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
    // Auto (0): 128 ps in ticks of the resolution now in force, at least one.
    const int64_t ticks = m_slotWidth.IsZero()
                              ? std::max<int64_t>(1, PicoSeconds(128).GetTimeStep())
                              : m_slotWidth.GetTimeStep();
    m_shift = 0;
    while ((int64_t{2} << m_shift) <= ticks)
    {
        ++m_shift;
    }
    m_mask = m_slotCount - 1;
    m_slots.assign(m_slotCount, Slot{NIL, NIL});
    m_words.assign(m_slotCount / 64, 0);
    m_summary.assign((m_slotCount + 4095) / 4096, 0);
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

uint32_t
TimingWheelScheduler::GrowPool()
{
    const auto n = static_cast<uint32_t>(m_nodes.size());
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
    while (Earlier(m_nodes[cur], inserted))
    {
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
