/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SIMULATOR_IMPL_H
#define FABRIC_SIMULATOR_IMPL_H

#include "event-origin.h"
#include "fabric-event.h"
#include "quaternary-heap-scheduler.h"
#include "timing-wheel-scheduler.h"

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/scheduler.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <atomic>
#include <list>
#include <mutex>
#include <thread>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A sequential simulator implementation for packet-level fabric runs:
 * ns-3's DefaultSimulatorImpl semantics with a lighter per-event path.
 *
 * Events run in time stamp order. Equal times: with ai-fabric's event lists
 * (TimingWheelScheduler, QuaternaryHeapScheduler) in EventOrigin's order (when the
 * event was scheduled, by which context, then insertion), an order that does not
 * depend on how the fabric is partitioned over MPI ranks
 * (FabricDistributedSimulatorImpl gives the same); with ns-3's schedulers in
 * DefaultSimulatorImpl's order (insertion uid, given in the same sequence), so then a
 * run gives byte-identical results with either. Select it with GlobalValue
 * SimulatorImplementationType = ns3::FabricSimulatorImpl before the first
 * Simulator call (the scenario runner does, see --simulator). What it
 * leaves out per event: the EventId DefaultSimulatorImpl builds for
 * PreEventHook (two reference-count updates), logging checks, and, when the
 * event list is a TimingWheelScheduler, the virtual calls into it.
 *
 * Models on a packet's path schedule through the static ScheduleWithContext /
 * Now below: with this implementation running they insert into its event list
 * directly (no Simulator::GetImpl, no virtual call); with any other (default,
 * real-time, distributed) they call ns3::Simulator. Like every Simulator call,
 * they are for the simulation thread; other threads keep using
 * Simulator::ScheduleWithContext, which this implementation queues under a lock
 * as DefaultSimulatorImpl does.
 */
class FabricSimulatorImpl : public SimulatorImpl
{
  public:
    static TypeId GetTypeId();

    FabricSimulatorImpl();
    ~FabricSimulatorImpl() override;

    void Destroy() override;
    bool IsFinished() const override;
    void Stop() override;
    void Stop(const Time& delay) override;
    EventId Schedule(const Time& delay, EventImpl* event) override;
    void ScheduleWithContext(uint32_t context, const Time& delay, EventImpl* event) override;
    EventId ScheduleNow(EventImpl* event) override;
    EventId ScheduleDestroy(EventImpl* event) override;
    void Remove(const EventId& id) override;
    void Cancel(const EventId& id) override;
    bool IsExpired(const EventId& id) const override;
    void Run() override;
    Time Now() const override;
    Time GetDelayLeft(const EventId& id) const override;
    Time GetMaximumSimulationTime() const override;
    void SetScheduler(ObjectFactory schedulerFactory) override;
    uint32_t GetSystemId() const override;
    uint32_t GetContext() const override;
    uint64_t GetEventCount() const override;

    /**
     * Simulator::ScheduleWithContext for the simulation thread's per-packet paths:
     * insert \p event (whose reference the simulator takes over) to run after
     * \p delay in \p context. \p hint: memory the event will read (its frame, its
     * port), prefetched just before it runs; only a hint, it changes nothing else.
     */
    static void ScheduleWithContextFast(uint32_t context,
                                        const Time& delay,
                                        EventImpl* event,
                                        const void* hint = nullptr)
    {
        FabricSimulatorImpl* sim = s_running;
        if (sim != nullptr)
        {
            sim->Insert(context, sim->m_currentTs + delay.GetTimeStep(), event, hint);
        }
        else
        {
            Simulator::ScheduleWithContext(context, delay, event);
        }
    }

    /**
     * ScheduleWithContextFast for a reusable FabricEvent, \p delayTicks (time steps)
     * ahead: with this implementation running, it is run by FabricEvent::Fire.
     */
    static void ScheduleWithContextFast(uint32_t context,
                                        int64_t delayTicks,
                                        FabricEvent* event,
                                        const void* hint)
    {
        FabricSimulatorImpl* sim = s_running;
        if (sim != nullptr)
        {
            sim->Insert(context, sim->m_currentTs + delayTicks, event, hint, true);
        }
        else
        {
            Simulator::ScheduleWithContext(context, TimeStep(delayTicks), event);
        }
    }

    /**
     * Schedule a call of \p ops->fire(\p arg, payload), \p delayTicks time steps ahead,
     * when this implementation runs with a TimingWheelScheduler and the time is within
     * the wheel's span: an event without an EventImpl (no object to load or
     * reference-count per event; \p arg is prefetched before it runs), which cannot be
     * cancelled and runs whatever the state of the objects it names: \p arg must live
     * as long as the event list (a port: until Simulator::Destroy).
     * \return room for the payload (TimingWheelScheduler::PAYLOAD_BYTES) where the
     * caller constructs it when ops->destroy is set (placement new; destroyed after
     * the call ran, or with the event list), or nullptr: nothing was scheduled, and
     * the caller schedules an EventImpl (ScheduleWithContextFast).
     */
    static void* ScheduleCallFast(uint32_t context,
                                  int64_t delayTicks,
                                  const TimingWheelScheduler::CallOps* ops,
                                  const void* arg)
    {
        FabricSimulatorImpl* sim = s_running;
        if (sim == nullptr || sim->m_wheel == nullptr)
        {
            return nullptr;
        }
        const uint64_t ts = sim->m_currentTs + delayTicks;
        if (!sim->m_wheel->InWheel(ts))
        {
            return nullptr;
        }
        return sim->m_wheel->InsertCall(sim->NewEvent(context, ts, nullptr),
                                        sim->CurrentOrigin(),
                                        ops,
                                        arg);
    }

    /**
     * ScheduleCallFast for a payload that is the running call event's own (\p payload,
     * its address): the event's node goes back into the event list as the new event,
     * with the payload where it is (no copy; a frame forwarded on). \p ops must be the
     * running event's. (The event list cannot change while a call event runs:
     * SetScheduler refuses while any is in it, and the running one still is.)
     * \return false if that cannot be (another event, another payload, or beyond the
     * wheel's span): nothing was done, use ScheduleCallFast.
     */
    static bool ScheduleCallInPlace(uint32_t context,
                                    int64_t delayTicks,
                                    const TimingWheelScheduler::CallOps* ops,
                                    const void* arg,
                                    const void* payload)
    {
        FabricSimulatorImpl* sim = s_running;
        if (sim == nullptr || payload == nullptr || payload != sim->m_runningPayload ||
            ops != sim->m_wheel->GetCall(sim->m_runningNode))
        {
            return false;
        }
        const uint64_t ts = sim->m_currentTs + delayTicks;
        if (!sim->m_wheel->InWheel(ts))
        {
            return false;
        }
        sim->m_wheel->RelinkCall(sim->m_runningNode,
                                 sim->NewEvent(context, ts, nullptr),
                                 sim->CurrentOrigin(),
                                 ops,
                                 arg);
        sim->m_runningPayload = nullptr; // (once: the node is the new event's now)
        return true;
    }

    /// The payload type \p T's destructor, for a CallOps.
    template <typename T>
    static void DestroyPayload(void* payload)
    {
        static_assert(sizeof(T) <= TimingWheelScheduler::PAYLOAD_BYTES && alignof(T) <= 64,
                      "payload too large for TimingWheelScheduler::PAYLOAD_BYTES");
        static_cast<T*>(payload)->~T();
    }

    /// Simulator::Now in time steps, for the simulation thread's per-packet paths.
    static int64_t NowTicksFast()
    {
        const FabricSimulatorImpl* sim = s_running;
        return sim != nullptr ? static_cast<int64_t>(sim->m_currentTs)
                              : Simulator::Now().GetTimeStep();
    }

    /// Simulator::GetContext for the simulation thread's per-packet paths.
    static uint32_t ContextFast()
    {
        const FabricSimulatorImpl* sim = s_running;
        return sim != nullptr ? sim->m_currentContext : Simulator::GetContext();
    }

    /// Simulator::Now for the simulation thread's per-packet paths.
    static Time NowFast()
    {
        const FabricSimulatorImpl* sim = s_running;
        return sim != nullptr ? TimeStep(sim->m_currentTs) : Simulator::Now();
    }

  protected:
    void DoDispose() override;

    /// \return the origin of an event scheduled now (EventOrigin)
    EventOrigin CurrentOrigin() const
    {
        return EventOrigin{m_currentTs, m_currentContext};
    }

    /// Insert \p event (its reference is the list's) at \p ts in \p context as if
    /// scheduled at \p origin (a frame from another rank: its sender's instant and node).
    void InsertFrom(uint32_t context, uint64_t ts, EventImpl* event, const EventOrigin& origin);

    /// Run events until the list is empty or Stop is called.
    void RunEvents();
    /// Run the events before \p limit (ticks) until the list has none or Stop is called.
    void RunEventsBefore(uint64_t limit);
    /// \return the time (ticks) of the next event; the list must not be empty
    uint64_t NextEventTs() const;
    /// \return true if no event is scheduled
    bool NoEvents() const;

    /// Make the clock and context read \p now (a frame from another rank is scheduled
    /// as at its sender: see FabricDistributedSimulatorImpl::RawReceiver), or back.
    void SetCurrent(const EventOrigin& now)
    {
        m_currentTs = now.ts;
        m_currentContext = now.context;
    }

    /// \return true if Stop was called since Run began
    bool StopCalled() const
    {
        return m_stop;
    }

    /// Mark the run as stopped (Run returns once the events running now are done).
    void SetStopped()
    {
        m_stop = true;
    }

    /// Begin Run: the calling thread is the simulation's, events from threads are in.
    void BeginRun();

    /// \return true if the event list orders equal times by EventOrigin (ours)
    bool OrdersByOrigin() const
    {
        return m_wheel != nullptr || m_heap != nullptr;
    }

  private:
    /// The loop of RunEvents (\p Limited false) and RunEventsBefore.
    template <bool Limited>
    void RunLoop(uint64_t limit);

    /// An event scheduled from another thread, inserted at the next event boundary.
    struct EventFromThread
    {
        uint32_t context; //!< its context
        uint64_t delay;   //!< its delay in ticks, from when it is inserted
        EventImpl* event; //!< the event (its reference is the simulator's)
    };

    /// Insert \p event at absolute time \p ts with the next uid, scheduled now
    /// (\p hint, \p direct: see TimingWheelScheduler::InsertEvent).
    void Insert(uint32_t context,
                uint64_t ts,
                EventImpl* event,
                const void* hint = nullptr,
                bool direct = false)
    {
        const Scheduler::Event ev = NewEvent(context, ts, event);
        if (m_wheel != nullptr)
        {
            m_wheel->InsertEvent(ev, CurrentOrigin(), hint, direct);
        }
        else if (m_heap != nullptr)
        {
            m_heap->InsertFrom(ev, CurrentOrigin());
        }
        else
        {
            m_events->Insert(ev);
        }
    }

    /// \return the event \p impl (nullptr: a call event) at \p ts in \p context with the
    /// next uid, counted as in the list (the caller inserts it)
    Scheduler::Event NewEvent(uint32_t context, uint64_t ts, EventImpl* impl)
    {
        Scheduler::Event ev;
        ev.impl = impl;
        ev.key.m_ts = ts;
        ev.key.m_context = context;
        ev.key.m_uid = m_uid++;
        ++m_unscheduledEvents;
        return ev;
    }

    /// Move events scheduled by other threads into the event list.
    void InsertEventsFromThreads();

    static FabricSimulatorImpl* s_running; //!< the instance in use, if one is

    Ptr<Scheduler> m_events;                  //!< the event list
    Ptr<Scheduler> m_replacedEvents;          //!< the one SetScheduler replaced last
    TimingWheelScheduler* m_wheel{nullptr};   //!< m_events when it is a TimingWheelScheduler
    QuaternaryHeapScheduler* m_heap{nullptr}; //!< m_events when it is a QuaternaryHeapScheduler
    std::list<EventId> m_destroyEvents;       //!< run by Destroy, in order
    std::list<EventFromThread> m_fromThreads; //!< scheduled by other threads
    std::mutex m_fromThreadsMutex;            //!< guards m_fromThreads
    std::atomic<bool> m_fromThreadsPending{false}; //!< m_fromThreads is not empty
    std::thread::id m_mainThreadId;                //!< the thread that runs the simulation

    bool m_stop{false};
    uint32_t m_uid;                 //!< next event uid
    uint32_t m_currentUid;          //!< uid of the event running (or last run)
    uint64_t m_currentTs{0};        //!< its time stamp (ticks)
    uint32_t m_currentContext;      //!< its context
    uint64_t m_eventCount{0};       //!< events run
    int64_t m_unscheduledEvents{0}; //!< events in the list

    // The call event running (ScheduleCallInPlace)
    void* m_runningPayload{nullptr}; //!< its payload, until re-used
    uint32_t m_runningNode{0};       //!< its node in m_wheel
};

} // namespace ns3

#endif // FABRIC_SIMULATOR_IMPL_H
