/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-simulator-impl.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/pointer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(FabricSimulatorImpl);

FabricSimulatorImpl* FabricSimulatorImpl::s_running = nullptr;

namespace
{
// Event uids with a meaning, as every ns-3 release numbers them (EventId::UID
// names them from ns-3.36 on; older releases use the numbers).
constexpr uint32_t UID_INVALID = 0; //!< no event
constexpr uint32_t UID_DESTROY = 2; //!< a destroy event
constexpr uint32_t UID_VALID = 4;   //!< the first uid of a scheduled event
} // namespace

TypeId
FabricSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricSimulatorImpl")
                            .SetParent<SimulatorImpl>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricSimulatorImpl>();
    return tid;
}

FabricSimulatorImpl::FabricSimulatorImpl()
    : m_mainThreadId(std::this_thread::get_id()),
      // uids as DefaultSimulatorImpl gives them, so both order events alike
      m_uid(UID_VALID),
      m_currentUid(UID_INVALID),
      m_currentContext(Simulator::NO_CONTEXT)
{
    NS_LOG_FUNCTION(this);
    // The static fast paths serve the most recent instance: ns-3 has one
    // simulator implementation at a time (Simulator::Destroy deletes it).
    s_running = this;
}

FabricSimulatorImpl::~FabricSimulatorImpl()
{
    NS_LOG_FUNCTION(this);
    if (s_running == this)
    {
        s_running = nullptr;
    }
}

void
FabricSimulatorImpl::DoDispose()
{
    NS_LOG_FUNCTION(this);
    InsertEventsFromThreads();
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            EventImpl* impl = m_events->RemoveNext().impl;
            if (impl != nullptr) // (a call event has none)
            {
                impl->Unref();
            }
        }
    }
    m_events = nullptr;
    m_replacedEvents = nullptr;
    m_wheel = nullptr;
    m_heap = nullptr;
    if (s_running == this)
    {
        s_running = nullptr;
    }
    SimulatorImpl::DoDispose();
}

void
FabricSimulatorImpl::Destroy()
{
    NS_LOG_FUNCTION(this);
    while (!m_destroyEvents.empty())
    {
        Ptr<EventImpl> ev = m_destroyEvents.front().PeekEventImpl();
        m_destroyEvents.pop_front();
        if (!ev->IsCancelled())
        {
            ev->Invoke();
        }
    }
}

void
FabricSimulatorImpl::SetScheduler(ObjectFactory schedulerFactory)
{
    NS_LOG_FUNCTION(this << schedulerFactory);
    Ptr<Scheduler> scheduler = schedulerFactory.Create<Scheduler>();
    if (m_wheel != nullptr && m_wheel->GetCallEvents() != 0)
    {
        NS_FATAL_ERROR("FabricSimulatorImpl::SetScheduler: " << m_wheel->GetCallEvents()
                                                             << " scheduled events are calls "
                                                                "(frames on cables, ends of "
                                                                "transmission) that another "
                                                                "event list cannot hold; change "
                                                                "the event list before Run");
    }
    if (m_events)
    {
        while (!m_events->IsEmpty())
        {
            scheduler->Insert(m_events->RemoveNext());
        }
    }
    m_replacedEvents = m_events; // an event running now may hold one of its nodes
    m_events = scheduler;
    m_wheel = dynamic_cast<TimingWheelScheduler*>(PeekPointer(scheduler));
    m_heap = m_wheel != nullptr ? nullptr
                                : dynamic_cast<QuaternaryHeapScheduler*>(PeekPointer(scheduler));
}

uint32_t
FabricSimulatorImpl::GetSystemId() const
{
    return 0; // a sequential simulation is system 0
}

bool
FabricSimulatorImpl::NoEvents() const
{
    return m_wheel != nullptr ? m_wheel->IsEmptyInline() : m_events->IsEmpty();
}

uint64_t
FabricSimulatorImpl::NextEventTs() const
{
    return m_wheel != nullptr ? m_wheel->NextTs() : m_events->PeekNext().key.m_ts;
}

void
FabricSimulatorImpl::InsertFrom(uint32_t context,
                                uint64_t ts,
                                EventImpl* event,
                                const EventOrigin& origin)
{
    const Scheduler::Event ev = NewEvent(context, ts, event);
    if (m_wheel != nullptr)
    {
        m_wheel->InsertEvent(ev, origin);
    }
    else if (m_heap != nullptr)
    {
        m_heap->InsertFrom(ev, origin);
    }
    else
    {
        m_events->Insert(ev);
    }
}

bool
FabricSimulatorImpl::IsFinished() const
{
    return NoEvents() || m_stop;
}

void
FabricSimulatorImpl::InsertEventsFromThreads()
{
    if (!m_fromThreadsPending.load(std::memory_order_acquire))
    {
        return;
    }
    std::list<EventFromThread> events;
    {
        std::lock_guard<std::mutex> lock(m_fromThreadsMutex);
        events.swap(m_fromThreads);
        m_fromThreadsPending.store(false, std::memory_order_release);
    }
    for (const EventFromThread& e : events)
    {
        Insert(e.context, m_currentTs + e.delay, e.event);
    }
}

void
FabricSimulatorImpl::RunEvents()
{
    RunLoop<false>(0);
}

void
FabricSimulatorImpl::RunEventsBefore(uint64_t limit)
{
    RunLoop<true>(limit);
}

template <bool Limited>
void
FabricSimulatorImpl::RunLoop(uint64_t limit)
{
    // The loop DefaultSimulatorImpl::ProcessOneEvent runs, minus its PreEventHook
    // EventId and logging; the event list without virtual calls when it is the wheel,
    // and a FabricEvent scheduled by the fast path run by Fire, not Invoke.
    while (!m_stop && !NoEvents() && (!Limited || NextEventTs() < limit))
    {
        bool direct = false;
        uint32_t node = 0;
        void* payload = nullptr;
        const TimingWheelScheduler::CallOps* call = nullptr;
        void* arg = nullptr;
        // The node goes back to the wheel it came from, even if the event changes
        // the event list (SetScheduler keeps the replaced one until Destroy).
        TimingWheelScheduler* const wheel = m_wheel;
        const Scheduler::Event next = wheel != nullptr
                                          ? wheel->TakeNext(direct, node, payload, call, arg)
                                          : m_events->RemoveNext();
        NS_ASSERT(next.key.m_ts >= m_currentTs);
        --m_unscheduledEvents;
        ++m_eventCount;
        m_currentTs = next.key.m_ts;
        m_currentContext = next.key.m_context;
        m_currentUid = next.key.m_uid;
        if (m_wheel != nullptr)
        {
            m_wheel->PrefetchNext(); // loads while this event runs
        }
        bool relinked = false; // its node is in the list again (ScheduleCallInPlace)
        if (call != nullptr)
        {
            m_runningPayload = payload;
            m_runningNode = node;
            call->fire(arg, payload); // no EventImpl
            relinked = payload != nullptr && m_runningPayload == nullptr;
            m_runningPayload = nullptr;
        }
        else if (direct)
        {
            static_cast<FabricEvent*>(next.impl)->Fire();
            next.impl->Unref();
        }
        else
        {
            next.impl->Invoke();
            next.impl->Unref();
        }
        if (wheel != nullptr && !relinked)
        {
            wheel->ReleaseNode(node); // (a no-op for a far-heap event: NIL)
        }
        InsertEventsFromThreads();
    }
}

void
FabricSimulatorImpl::BeginRun()
{
    m_mainThreadId = std::this_thread::get_id();
    s_running = this;
    InsertEventsFromThreads();
    m_stop = false;
}

void
FabricSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    BeginRun();
    RunEvents();
    NS_ASSERT(!NoEvents() || m_unscheduledEvents == 0);
}

void
FabricSimulatorImpl::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stop = true;
}

void
FabricSimulatorImpl::Stop(const Time& delay)
{
    NS_LOG_FUNCTION(this << delay.GetTimeStep());
    Simulator::Schedule(delay, &Simulator::Stop);
}

EventId
FabricSimulatorImpl::Schedule(const Time& delay, EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::Schedule from a thread other than the simulation's");
    NS_ASSERT_MSG(delay.IsPositive(), "FabricSimulatorImpl::Schedule: negative delay");
    const uint64_t ts = m_currentTs + delay.GetTimeStep();
    const uint32_t uid = m_uid;
    Insert(m_currentContext, ts, event);
    return EventId(event, ts, m_currentContext, uid);
}

void
FabricSimulatorImpl::ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event)
{
    if (m_mainThreadId == std::this_thread::get_id())
    {
        Insert(context, m_currentTs + delay.GetTimeStep(), event);
        return;
    }
    // Another thread (e.g. an emulation device): inserted at the next event boundary,
    // its delay counted from then, as DefaultSimulatorImpl does.
    std::lock_guard<std::mutex> lock(m_fromThreadsMutex);
    m_fromThreads.push_back(
        EventFromThread{context, static_cast<uint64_t>(delay.GetTimeStep()), event});
    m_fromThreadsPending.store(true, std::memory_order_release);
}

EventId
FabricSimulatorImpl::ScheduleNow(EventImpl* event)
{
    return Schedule(Time(0), event);
}

EventId
FabricSimulatorImpl::ScheduleDestroy(EventImpl* event)
{
    NS_ASSERT_MSG(m_mainThreadId == std::this_thread::get_id(),
                  "Simulator::ScheduleDestroy from a thread other than the simulation's");
    EventId id(Ptr<EventImpl>(event, false), m_currentTs, 0xffffffff, UID_DESTROY);
    m_destroyEvents.push_back(id);
    ++m_uid; // as DefaultSimulatorImpl: destroy events take a uid too
    return id;
}

Time
FabricSimulatorImpl::Now() const
{
    return TimeStep(m_currentTs);
}

Time
FabricSimulatorImpl::GetDelayLeft(const EventId& id) const
{
    return IsExpired(id) ? TimeStep(0) : TimeStep(id.GetTs() - m_currentTs);
}

void
FabricSimulatorImpl::Remove(const EventId& id)
{
    if (id.GetUid() == UID_DESTROY)
    {
        for (auto i = m_destroyEvents.begin(); i != m_destroyEvents.end(); ++i)
        {
            if (*i == id)
            {
                m_destroyEvents.erase(i);
                break;
            }
        }
        return;
    }
    if (IsExpired(id))
    {
        return;
    }
    Scheduler::Event event;
    event.impl = id.PeekEventImpl();
    event.key.m_ts = id.GetTs();
    event.key.m_context = id.GetContext();
    event.key.m_uid = id.GetUid();
    m_events->Remove(event);
    event.impl->Cancel();
    event.impl->Unref(); // the list's reference
    --m_unscheduledEvents;
}

void
FabricSimulatorImpl::Cancel(const EventId& id)
{
    if (!IsExpired(id))
    {
        id.PeekEventImpl()->Cancel();
    }
}

bool
FabricSimulatorImpl::IsExpired(const EventId& id) const
{
    if (id.GetUid() == UID_DESTROY)
    {
        if (id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled())
        {
            return true;
        }
        for (const EventId& d : m_destroyEvents)
        {
            if (d == id)
            {
                return false;
            }
        }
        return true;
    }
    if (id.PeekEventImpl() == nullptr || id.GetTs() < m_currentTs ||
        id.PeekEventImpl()->IsCancelled())
    {
        return true; // run already (earlier), or cancelled
    }
    if (id.GetTs() > m_currentTs)
    {
        return false;
    }
    // The same time as now: run already if no longer in the list. (With ns-3's
    // schedulers uids give the order; with ours EventOrigin does, under which an
    // event of a higher uid may have run before.)
    if (m_wheel != nullptr)
    {
        return !m_wheel->Contains(id.GetTs(), id.GetUid());
    }
    if (m_heap != nullptr)
    {
        return !m_heap->Contains(id.GetTs(), id.GetUid());
    }
    return id.GetUid() <= m_currentUid;
}

Time
FabricSimulatorImpl::GetMaximumSimulationTime() const
{
    return TimeStep(0x7fffffffffffffffLL);
}

uint32_t
FabricSimulatorImpl::GetContext() const
{
    return m_currentContext;
}

uint64_t
FabricSimulatorImpl::GetEventCount() const
{
    return m_eventCount;
}

} // namespace ns3
