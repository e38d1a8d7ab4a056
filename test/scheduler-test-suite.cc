/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The module's event lists (QuaternaryHeapScheduler, TimingWheelScheduler) against
 * a reference ordered set: the same (time, uid) order under random inserts,
 * removals of arbitrary events and pops, including many events at equal times (a
 * fabric's common case), and for the wheel events beyond its span (its far heap),
 * around its wrap, and several per slot. And FabricSimulatorImpl against ns-3's
 * DefaultSimulatorImpl: the same events at the same times in the same order.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-simulator.h"
#include "ns3/global-value.h"
#include "ns3/lambda-callback.h"
#include "ns3/quaternary-heap-scheduler.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/timing-wheel-scheduler.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <new>
#include <set>
#include <thread>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

Scheduler::Event
MakeEv(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = nullptr; // never invoked here
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = 0;
    return ev;
}

} // namespace

/**
 * 200,000 random operations (60% insert, 30% pop, 10% remove of a random
 * scheduled event) with time stamps drawn from [now, now + range] so that ties
 * are frequent; after each pop the list's event must be the reference's smallest.
 */
class SchedulerOrderTestCase : public TestCase
{
  public:
    /// \param heap the event list under test (empty)
    /// \param range time stamps of new events are now + [0, range] ticks
    /// \param what the list and what the range exercises
    /// \param narrows the list is an auto-width wheel that must end 16 times narrower
    SchedulerOrderTestCase(Ptr<Scheduler> heap,
                           uint64_t range,
                           const std::string& what,
                           bool narrows = false)
        : TestCase(what + " keeps ns-3's (time, uid) order under inserts, removes, pops"),
          m_heap(heap),
          m_range(range),
          m_narrows(narrows)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Scheduler> heap = m_heap;
        Ptr<TimingWheelScheduler> wheel = DynamicCast<TimingWheelScheduler>(heap);
        const Time firstWidth = wheel ? wheel->GetSlotWidth() : Time(0);
        std::set<std::pair<uint64_t, uint32_t>> ref;
        std::vector<std::pair<uint64_t, uint32_t>> live; // for picking a random victim
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(11);
        uint32_t uid = 0;
        uint64_t now = 0;
        uint32_t mismatches = 0;
        uint32_t pops = 0;
        uint32_t removes = 0;
        for (uint32_t op = 0; op < 200000; ++op)
        {
            const double r = u->GetValue();
            if (r < 0.6 || ref.empty())
            {
                const uint64_t ts = now + u->GetInteger(0, m_range); // many equal stamps
                heap->Insert(MakeEv(ts, uid));
                ref.emplace(ts, uid);
                live.emplace_back(ts, uid);
                ++uid;
            }
            else if (r < 0.9)
            {
                const Scheduler::Event next = heap->PeekNext();
                const Scheduler::Event ev = heap->RemoveNext();
                const auto want = *ref.begin();
                ref.erase(ref.begin());
                if (ev.key.m_ts != want.first || ev.key.m_uid != want.second ||
                    next.key.m_uid != ev.key.m_uid)
                {
                    ++mismatches;
                }
                now = ev.key.m_ts; // time never goes back, as in a simulation
                ++pops;
            }
            else
            {
                // Remove a random still-scheduled event (Simulator::Remove).
                for (;;)
                {
                    const uint32_t i = u->GetInteger(0, static_cast<uint32_t>(live.size() - 1));
                    const auto victim = live[i];
                    live[i] = live.back();
                    live.pop_back();
                    if (ref.erase(victim) == 1)
                    {
                        heap->Remove(MakeEv(victim.first, victim.second));
                        ++removes;
                        break;
                    }
                }
            }
            if (live.size() > 4 * ref.size() + 64)
            {
                std::vector<std::pair<uint64_t, uint32_t>> keep(ref.begin(), ref.end());
                live.swap(keep);
            }
        }
        while (!ref.empty())
        {
            const Scheduler::Event ev = heap->RemoveNext();
            if (ev.key.m_uid != ref.begin()->second)
            {
                ++mismatches;
            }
            ref.erase(ref.begin());
        }
        NS_TEST_ASSERT_MSG_EQ(mismatches, 0, "every pop returns the reference's smallest event");
        NS_TEST_ASSERT_MSG_EQ(heap->IsEmpty(), true, "empty at the end");
        if (m_narrows)
        {
            // Thousands of events pending: from the widest slots to the narrowest,
            // every event relinked each time (the order above checks them).
            NS_TEST_ASSERT_MSG_EQ(wheel->GetSlotWidth(),
                                  firstWidth / 16,
                                  "the auto wheel narrowed to its narrowest slots");
        }
        NS_TEST_ASSERT_MSG_GT(pops, 50000, "enough pops exercised");
        NS_TEST_ASSERT_MSG_GT(removes, 10000, "enough removals exercised");
        m_heap = nullptr;
    }

    Ptr<Scheduler> m_heap; //!< the list under test
    uint64_t m_range;      //!< spread of new time stamps (ticks)
    bool m_narrows;        //!< an auto-width wheel, to end at its narrowest slots
};

/// A TimingWheelScheduler of \p slots slots \p width ticks wide.
Ptr<Scheduler>
MakeWheel(uint32_t slots, int64_t width)
{
    return CreateObjectWithAttributes<TimingWheelScheduler>("SlotCount",
                                                            UintegerValue(slots),
                                                            "SlotWidth",
                                                            TimeValue(TimeStep(width)));
}

/// A FabricSimulator call's payload: a tag, counted while alive (moves included).
struct CarriedTag
{
    static int s_alive; //!< constructed and not yet destroyed

    explicit CarriedTag(uint32_t tag)
        : tag(tag)
    {
        ++s_alive;
    }

    CarriedTag(CarriedTag&& other) noexcept
        : tag(other.tag),
          forwarded(other.forwarded)
    {
        ++s_alive;
    }

    CarriedTag(const CarriedTag&) = delete;
    CarriedTag& operator=(const CarriedTag&) = delete;

    ~CarriedTag()
    {
        --s_alive;
    }

    uint32_t tag;          //!< the event's tag
    bool forwarded{false}; //!< it was sent on once from its own call
};

int CarriedTag::s_alive = 0;

/**
 * A self-driving event workload that uses the whole Simulator API: events that
 * schedule events (Schedule, ScheduleNow, ScheduleWithContext, the fabric fast
 * path), cancel and remove pending ones, ask IsExpired and GetDelayLeft, one
 * event scheduled from another thread, and a destroy event. It records what ran
 * when, in which context, and every answer it got.
 */
class EngineWorkload;

/// A reusable FabricEvent (as a cable direction is one): fires the workload (spawning
/// more events) or only records its tag.
class RecordEvent : public FabricEvent
{
  public:
    RecordEvent(EngineWorkload* w, uint32_t tag, bool spawn)
        : m_workload(w),
          m_tag(tag),
          m_spawn(spawn)
    {
    }

  private:
    void Notify() override;

    EngineWorkload* m_workload;
    uint32_t m_tag;
    bool m_spawn;
};

class EngineWorkload
{
  public:
    /// Run the workload on simulator implementation \p impl with event list \p list.
    static std::vector<uint64_t> Trace(const std::string& impl,
                                       const std::string& list,
                                       uint64_t& payloads)
    {
        StringValue previous;
        GlobalValue::GetValueByName("SimulatorImplementationType", previous);
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        ObjectFactory factory;
        factory.SetTypeId(list);
        Simulator::SetScheduler(factory);
        EngineWorkload w;
        w.m_direct = Create<RecordEvent>(&w, 0xF0000001U, true);
        w.m_disabled = Create<RecordEvent>(&w, 0xF0000002U, false);
        Simulator::Schedule(TimeStep(1), &EngineWorkload::Fire, &w, 0U);
        Simulator::ScheduleDestroy(&EngineWorkload::Record, &w, 0xF0000004U);
        Simulator::Run();
        const uint64_t events = Simulator::GetEventCount();
        const bool ran = Simulator::GetImplementation()->GetInstanceTypeId().GetName() == impl;
        Simulator::Destroy(); // runs the destroy event
        GlobalValue::Bind("SimulatorImplementationType", previous);
        w.m_trace.push_back(events);
        w.m_trace.push_back(w.m_cancelled);
        w.m_trace.push_back(static_cast<uint64_t>(CarriedTag::s_alive));
        payloads = w.m_payloadsCarried;
        w.m_trace.push_back(ran); // last: which implementation ran
        return w.m_trace;
    }

  private:
    uint64_t Next()
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return m_state >> 33;
    }

    void FromThread(uint32_t tag)
    {
        // A thread other than the simulation's: queued, inserted after this event.
        Simulator::ScheduleWithContext(7, TimeStep(5), &EngineWorkload::Record, this, tag);
    }

  public:
    bool IsDisabled() const
    {
        return m_isDisabled;
    }

    void Record(uint32_t tag)
    {
        m_trace.push_back(static_cast<uint64_t>(Simulator::Now().GetTimeStep()));
        m_trace.push_back(tag);
        m_trace.push_back(Simulator::GetContext());
    }

    void Fire(uint32_t tag)
    {
        Record(tag);
        if (++m_fired > 30000)
        {
            return;
        }
        if (tag % 4999 == 0)
        {
            std::thread t(&EngineWorkload::FromThread, this, tag + 1);
            t.join();
        }
        const uint64_t children = 1 + Next() % 2 + (m_fired < 200 ? 1 : 0);
        for (uint64_t i = 0; i < children; ++i)
        {
            const uint32_t child = m_nextTag++;
            const uint64_t delay = Next() % 3000; // near and (for a 1 ns wheel) far
            if (m_fired == 25000)
            {
                m_disabled->Disable();
                m_isDisabled = true;
            }
            switch (Next() % 8)
            {
            case 0:
                m_pending.push_back(
                    Simulator::Schedule(TimeStep(delay), &EngineWorkload::Fire, this, child));
                break;
            case 1:
                m_pending.push_back(Simulator::ScheduleNow(&EngineWorkload::Fire, this, child));
                break;
            case 2:
                Simulator::ScheduleWithContext(child % 13,
                                               TimeStep(delay),
                                               &EngineWorkload::Fire,
                                               this,
                                               child);
                break;
            case 3:
                FabricSimulatorImpl::ScheduleWithContextFast(
                    child % 11,
                    TimeStep(delay),
                    MakeEvent(&EngineWorkload::Fire, this, child));
                break;
            case 4: {
                // A call event with a tag carried in the event list's node; without
                // FabricSimulatorImpl (or beyond the wheel) the same firing as an
                // ordinary event.
                static const TimingWheelScheduler::CallOps fireTag{
                    [](void* arg, void* payload) {
                        static_cast<EngineWorkload*>(arg)->Fire(*static_cast<uint32_t*>(payload));
                    },
                    &FabricSimulatorImpl::DestroyPayload<uint32_t>};
                void* room = FabricSimulatorImpl::ScheduleCallFast(child % 5,
                                                                   static_cast<int64_t>(delay),
                                                                   &fireTag,
                                                                   this);
                if (room != nullptr)
                {
                    new (room) uint32_t(child);
                    ++m_payloadsCarried;
                }
                else
                {
                    Simulator::ScheduleWithContext(child % 5,
                                                   TimeStep(delay),
                                                   &EngineWorkload::Fire,
                                                   this,
                                                   child);
                }
                break;
            }
            case 5: {
                // A FabricSimulator call carrying its tag: in the wheel's node with
                // FabricSimulatorImpl and the wheel, an EventImpl otherwise.
                CarriedTag carried(child);
                FabricSimulator::ScheduleCall(child % 3,
                                              static_cast<int64_t>(delay),
                                              &CarriedOps(),
                                              this,
                                              carried);
                break;
            }
            default:
                // A reusable direct event, possibly many times in the list at once.
                m_direct->Ref();
                FabricSimulatorImpl::ScheduleWithContextFast(child % 7,
                                                             static_cast<int64_t>(delay),
                                                             PeekPointer(m_direct),
                                                             nullptr);
                if (m_fired % 1000 == 0)
                {
                    // Scheduled, then disabled: must never run, on any implementation.
                    m_disabled->Ref();
                    FabricSimulatorImpl::ScheduleWithContextFast(3,
                                                                 static_cast<int64_t>(delay),
                                                                 PeekPointer(m_disabled),
                                                                 this);
                }
                break;
            }
        }
        if (!m_pending.empty() && Next() % 8 == 0)
        {
            const std::size_t i = Next() % m_pending.size();
            const EventId victim = m_pending[i];
            m_trace.push_back(victim.IsExpired());
            m_trace.push_back(Simulator::GetDelayLeft(victim).GetTimeStep());
            m_cancelled += victim.IsExpired() ? 0 : 1;
            if (Next() % 2 == 0)
            {
                Simulator::Cancel(victim);
            }
            else
            {
                Simulator::Remove(victim);
            }
            m_trace.push_back(victim.IsExpired());
            m_pending[i] = m_pending.back();
            m_pending.pop_back();
        }
        m_trace.push_back(FabricSimulatorImpl::NowFast().GetTimeStep());
    }

    /// The ops of case 5's calls.
    static const FabricSimulator::CallOps& CarriedOps()
    {
        static const FabricSimulator::CallOps ops{
            [](void* arg, void* payload) {
                static_cast<EngineWorkload*>(arg)->FireCarried(*static_cast<CarriedTag*>(payload));
            },
            &FabricSimulator::DestroyPayload<CarriedTag>};
        return ops;
    }

    /// One call in three sends its payload on once, from the call itself (in place in
    /// the wheel's node where it can be), before it fires.
    void FireCarried(CarriedTag& carried)
    {
        if (!carried.forwarded && carried.tag % 3 == 0)
        {
            carried.forwarded = true;
            Record(carried.tag | 0x40000000U);
            FabricSimulator::ScheduleCall(Simulator::GetContext(),
                                          static_cast<int64_t>(Next() % 100),
                                          &CarriedOps(),
                                          this,
                                          carried);
            return;
        }
        Fire(carried.tag);
    }

    std::vector<uint64_t> m_trace;
    std::vector<EventId> m_pending;
    Ptr<RecordEvent> m_direct; //!< a reusable FabricEvent

  public:
    uint64_t m_payloadsCarried{0}; //!< events scheduled with a payload

  private:
    Ptr<RecordEvent> m_disabled; //!< disabled while scheduled
    bool m_isDisabled{false};    //!< m_disabled->Disable() was called
    uint64_t m_state{42};
    uint32_t m_nextTag{1};
    uint32_t m_fired{0};
    uint64_t m_cancelled{0};
};

void
RecordEvent::Notify()
{
    if (m_spawn)
    {
        m_workload->Fire(m_tag);
    }
    else
    {
        // After Disable this must never run: 0xF0000003 in the trace would say it did.
        m_workload->Record(m_workload->IsDisabled() ? 0xF0000003U : m_tag);
    }
}

class FabricSimulatorImplTestCase : public TestCase
{
  public:
    FabricSimulatorImplTestCase()
        : TestCase("FabricSimulatorImpl runs every event as DefaultSimulatorImpl does with "
                   "ns-3's event lists, and alike with both of ours")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t payloads = 0;
        const std::vector<uint64_t> reference =
            EngineWorkload::Trace("ns3::DefaultSimulatorImpl", "ns3::MapScheduler", payloads);
        NS_TEST_ASSERT_MSG_EQ(payloads, 0, "no payloads without FabricSimulatorImpl");
        NS_TEST_ASSERT_MSG_GT(reference.size(), 100000, "a long trace");
        NS_TEST_ASSERT_MSG_GT(reference[reference.size() - 3], 100, "events cancelled or removed");
        NS_TEST_ASSERT_MSG_EQ(reference[reference.size() - 2], 0, "every call's payload destroyed");
        NS_TEST_ASSERT_MSG_GT(std::count_if(reference.begin(),
                                            reference.end(),
                                            [](uint64_t v) { return (v >> 30) == 1; }),
                              1000,
                              "FabricSimulator calls ran, and forwarded their payloads");
        NS_TEST_ASSERT_MSG_EQ(reference.back(), 1, "the default impl ran");
        NS_TEST_ASSERT_MSG_GT(std::count(reference.begin(), reference.end(), 0xF0000001U),
                              1000,
                              "the reusable direct event ran many times");
        NS_TEST_ASSERT_MSG_GT(std::count(reference.begin(), reference.end(), 0xF0000002U),
                              1,
                              "the disabled event ran before it was disabled");
        NS_TEST_ASSERT_MSG_EQ(std::count(reference.begin(), reference.end(), 0xF0000003U),
                              0,
                              "and never after");
        // ns-3's list: ns-3's order of equal times (insertion uid).
        const std::vector<uint64_t> map =
            EngineWorkload::Trace("ns3::FabricSimulatorImpl", "ns3::MapScheduler", payloads);
        NS_TEST_ASSERT_MSG_EQ(map.back(), 1, "FabricSimulatorImpl ran");
        NS_TEST_ASSERT_MSG_EQ((map == reference), true, "same trace with ns3::MapScheduler");
        // Ours: EventOrigin's order of equal times (the workload has ties), the same
        // with both, and every event kind as above.
        const std::vector<uint64_t> wheel = EngineWorkload::Trace("ns3::FabricSimulatorImpl",
                                                                  "ns3::TimingWheelScheduler",
                                                                  payloads);
        NS_TEST_ASSERT_MSG_GT(payloads, 1000, "events carried their payloads");
        const std::vector<uint64_t> heap = EngineWorkload::Trace("ns3::FabricSimulatorImpl",
                                                                 "ns3::QuaternaryHeapScheduler",
                                                                 payloads);
        for (const auto* trace : {&wheel, &heap})
        {
            NS_TEST_ASSERT_MSG_EQ(trace->back(), 1, "FabricSimulatorImpl ran");
            NS_TEST_ASSERT_MSG_GT(trace->size(), 100000, "a long trace");
            NS_TEST_ASSERT_MSG_EQ((*trace)[trace->size() - 2], 0, "every payload destroyed");
            NS_TEST_ASSERT_MSG_GT(std::count(trace->begin(), trace->end(), 0xF0000001U),
                                  1000,
                                  "the reusable direct event ran many times");
            NS_TEST_ASSERT_MSG_EQ(std::count(trace->begin(), trace->end(), 0xF0000003U),
                                  0,
                                  "a disabled event never runs");
        }
        NS_TEST_ASSERT_MSG_EQ((wheel == heap), true, "the same trace with both of our lists");
        NS_TEST_ASSERT_MSG_EQ((EngineWorkload::Trace("ns3::DefaultSimulatorImpl",
                                                     "ns3::TimingWheelScheduler",
                                                     payloads) == reference),
                              true,
                              "same trace with the wheel in DefaultSimulatorImpl");
    }
};

/// A payload that counts its lives: constructed, destroyed, and what it carries.
struct CountedPayload
{
    static int s_alive; //!< payloads constructed and not yet destroyed

    explicit CountedPayload(uint32_t value)
        : value(value)
    {
        ++s_alive;
    }

    ~CountedPayload()
    {
        --s_alive;
    }

    uint32_t value; //!< what it carries
};

int CountedPayload::s_alive = 0;

/**
 * TimingWheelScheduler's payloads (what a cable's arrival events carry their frame
 * in): popped with their event in order, each destroyed exactly once, whether its
 * event ran (TakeNext, ReleaseNode), was removed, or was left in the list.
 */
class WheelPayloadTestCase : public TestCase
{
  public:
    WheelPayloadTestCase()
        : TestCase("timing wheel payloads travel with their events and are destroyed once")
    {
    }

  private:
    static void Destroy(void* p)
    {
        static_cast<CountedPayload*>(p)->~CountedPayload();
    }

    static void Ignore(void* /* arg */, void* /* payload */)
    {
    }

    void DoRun() override
    {
        {
            Ptr<TimingWheelScheduler> wheel = DynamicCast<TimingWheelScheduler>(MakeWheel(64, 1));
            // 2000 events at 0..49 ticks (many per slot, out of order), every other
            // one with a payload that names its uid.
            uint32_t uid = 0;
            Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
            u->SetStream(3);
            std::vector<uint64_t> tsOf;
            std::vector<bool> popped(2000, false);
            for (; uid < 2000; ++uid)
            {
                Scheduler::Event ev = MakeEv(u->GetInteger(0, 49), uid);
                tsOf.push_back(ev.key.m_ts);
                if (uid % 2 == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(wheel->InWheel(ev.key.m_ts), true, "in the span");
                    ev.impl = nullptr; // a call event
                    new (wheel->InsertCall(ev, EventOrigin{}, &carrying, this)) CountedPayload(uid);
                }
                else
                {
                    wheel->InsertEvent(ev, EventOrigin{}, nullptr, true);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(CountedPayload::s_alive, 1000, "1000 payloads");
            NS_TEST_ASSERT_MSG_EQ(wheel->GetCallEvents(), 1000, "counted by the wheel");
            uint64_t lastTs = 0;
            uint32_t lastUid = 0;
            uint32_t wrong = 0;
            for (int i = 0; i < 1500; ++i)
            {
                bool direct = false;
                uint32_t node = 0;
                void* payload = nullptr;
                const TimingWheelScheduler::CallOps* call = nullptr;
                void* arg = nullptr;
                const Scheduler::Event ev = wheel->TakeNext(direct, node, payload, call, arg);
                if (i > 0 &&
                    (ev.key.m_ts < lastTs || (ev.key.m_ts == lastTs && ev.key.m_uid < lastUid)))
                {
                    ++wrong; // out of (time, uid) order
                }
                lastTs = ev.key.m_ts;
                lastUid = ev.key.m_uid;
                if (ev.key.m_uid < 2000)
                {
                    popped[ev.key.m_uid] = true;
                }
                const bool hasPayload = ev.key.m_uid % 2 == 0;
                if ((payload != nullptr) != hasPayload || direct == hasPayload ||
                    (call != nullptr) != hasPayload ||
                    (hasPayload && (call != &carrying || arg != this || ev.impl != nullptr)) ||
                    (hasPayload && static_cast<CountedPayload*>(payload)->value != ev.key.m_uid))
                {
                    ++wrong; // a payload or call on the wrong event
                }
                // Events inserted while one runs must not disturb its payload.
                wheel->InsertEvent(MakeEv(ev.key.m_ts + 60, uid++), EventOrigin{}, nullptr, true);
                if (hasPayload && static_cast<CountedPayload*>(payload)->value != ev.key.m_uid)
                {
                    ++wrong;
                }
                wheel->ReleaseNode(node);
            }
            NS_TEST_ASSERT_MSG_EQ(wrong, 0, "order and payloads");
            NS_TEST_ASSERT_MSG_EQ(CountedPayload::s_alive,
                                  static_cast<int>(wheel->GetCallEvents()),
                                  "released payloads destroyed");
            // Remove (Simulator::Remove) an event that still holds its payload.
            const int before = CountedPayload::s_alive;
            for (uint32_t v = 0; v < 2000; v += 2)
            {
                if (!popped[v])
                {
                    wheel->Remove(MakeEv(tsOf[v], v));
                    break;
                }
            }
            NS_TEST_ASSERT_MSG_GT(before, 0, "payloads left to remove");
            NS_TEST_ASSERT_MSG_EQ(CountedPayload::s_alive, before - 1, "removed payload destroyed");
        } // the list goes with the rest
        NS_TEST_ASSERT_MSG_EQ(CountedPayload::s_alive, 0, "the rest destroyed with the list");
    }

    const TimingWheelScheduler::CallOps carrying{&Ignore, &Destroy}; //!< the call events' ops
};

/**
 * An event that changes the event list while the wheel runs it: the wheel node it was
 * taken from must go back to that wheel, not to the new list (a wheel-to-map switch
 * used to dereference a null wheel). The firing order must be that of a run without
 * switching.
 */
class SwitchSchedulerMidRunTestCase : public TestCase
{
  public:
    SwitchSchedulerMidRunTestCase()
        : TestCase("FabricSimulatorImpl: an event may change the event list while it runs")
    {
    }

  private:
    /// Fire events at pseudo-random times in 0-9 us (within the wheel's span and beyond); with
    /// \p switchLists, events 100 and 200 change the list to a map, then to a wheel.
    static std::vector<uint32_t> Order(bool switchLists)
    {
        StringValue previous;
        GlobalValue::GetValueByName("SimulatorImplementationType", previous);
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
        ObjectFactory wheel;
        wheel.SetTypeId("ns3::TimingWheelScheduler");
        Simulator::SetScheduler(wheel);
        std::vector<uint32_t> order;
        uint64_t x = 12345;
        for (uint32_t i = 0; i < 400; ++i)
        {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            const Time delay = NanoSeconds(static_cast<int64_t>((x >> 33) % 9000));
            ScheduleLambda(delay, [&order, i, switchLists]() {
                order.push_back(i);
                if (switchLists && (order.size() == 100 || order.size() == 200))
                {
                    ObjectFactory list;
                    list.SetTypeId(order.size() == 100 ? "ns3::MapScheduler"
                                                       : "ns3::TimingWheelScheduler");
                    Simulator::SetScheduler(list);
                }
            });
        }
        Simulator::Run();
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", previous);
        return order;
    }

    void DoRun() override
    {
        const std::vector<uint32_t> plain = Order(false);
        const std::vector<uint32_t> switched = Order(true);
        NS_TEST_ASSERT_MSG_EQ(plain.size(), 400, "every event ran");
        NS_TEST_ASSERT_MSG_EQ((plain == switched), true, "same order with the lists switched");
    }
};

/**
 * Equal-time events run in EventOrigin's order (scheduling time, then scheduling
 * context, then insertion) with ai-fabric's lists, whatever order they were inserted
 * in: two nodes' events at t = 10 ns each schedule an event at t = 20 ns; the one
 * scheduled by the lower node id runs first, whichever of the two nodes ran first
 * (ns-3's insertion order would run them as their schedulers ran). And EventId still
 * says which of them has run (IsRunning of a lower-uid event not yet run).
 */
class TieOrderTestCase : public TestCase
{
  public:
    TieOrderTestCase()
        : TestCase("equal-time events run in EventOrigin's order, not insertion order")
    {
    }

  private:
    struct Run
    {
        std::vector<uint32_t> order;     //!< the contexts that scheduled the t=20 events, as run
        std::map<uint32_t, EventId> ids; //!< each t=20 event, by the context that scheduled it
        uint32_t pendingSeen{0};         //!< the other t=20 event was pending when one ran
        uint32_t expiredSeen{0};         //!< the other t=20 event had run when one ran
    };

    static void Second(Run* run, uint32_t from)
    {
        run->order.push_back(from);
        for (const auto& [other, id] : run->ids)
        {
            if (other != from)
            {
                (id.IsRunning() ? run->pendingSeen : run->expiredSeen)++;
            }
        }
    }

    static void First(Run* run)
    {
        const uint32_t ctx = Simulator::GetContext();
        run->ids[ctx] = Simulator::Schedule(NanoSeconds(10), &TieOrderTestCase::Second, run, ctx);
    }

    /// \return the run with the node \p a's event inserted before node \p b's
    static Run Trace(const std::string& list, uint32_t a, uint32_t b)
    {
        StringValue previous;
        GlobalValue::GetValueByName("SimulatorImplementationType", previous);
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
        ObjectFactory factory;
        factory.SetTypeId(list);
        Simulator::SetScheduler(factory);
        Run run;
        Simulator::ScheduleWithContext(a, NanoSeconds(10), &TieOrderTestCase::First, &run);
        Simulator::ScheduleWithContext(b, NanoSeconds(10), &TieOrderTestCase::First, &run);
        Simulator::Run();
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", previous);
        return run;
    }

    void DoRun() override
    {
        for (const char* list : {"ns3::TimingWheelScheduler", "ns3::QuaternaryHeapScheduler"})
        {
            for (const auto& [a, b] : {std::pair<uint32_t, uint32_t>{7, 3}, {3, 7}})
            {
                const Run run = Trace(list, a, b);
                NS_TEST_ASSERT_MSG_EQ(run.order.size(), 2, "both ran");
                NS_TEST_ASSERT_MSG_EQ(run.order[0],
                                      3,
                                      list << ": node 3's first (inserted " << a << " then " << b
                                           << ")");
                NS_TEST_ASSERT_MSG_EQ(run.order[1], 7, list << ": node 7's second");
                NS_TEST_ASSERT_MSG_EQ(run.pendingSeen, 1, "the second pending when the first ran");
                NS_TEST_ASSERT_MSG_EQ(run.expiredSeen, 1, "the first run when the second ran");
            }
        }
        // ns-3's list in our engine keeps ns-3's order: node 7's event was inserted first.
        const Run ns3 = Trace("ns3::MapScheduler", 7, 3);
        NS_TEST_ASSERT_MSG_EQ(ns3.order.size(), 2, "both ran");
        NS_TEST_ASSERT_MSG_EQ(ns3.order[0], 7, "insertion order with ns3::MapScheduler");
        NS_TEST_ASSERT_MSG_EQ(ns3.pendingSeen, 1, "and EventId agrees");
    }
};

/**
 * The events run at one instant schedule bursts of ties: the same time, ordered by
 * the scheduling context, each burst ascending (the events of one origin time run in
 * context order), the bursts of two targets interleaved (a frame's wire end and its
 * next transmission). A slot's sorted insert resumes after the node it linked last,
 * so 4 bursts of 500 ties into each of two slots walk a few thousand nodes, not the
 * ~1.5 M a walk from the head would (k=24 permutation: 672 M, 18.5 per event), and
 * every event still comes out in EventOrigin's order.
 */
class WheelTieBurstTestCase : public TestCase
{
  public:
    WheelTieBurstTestCase()
        : TestCase("timing wheel: bursts of equal-time events are sorted in without rewalking")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TimingWheelScheduler> wheel = DynamicCast<TimingWheelScheduler>(MakeWheel(1024, 64));
        const uint32_t bursts = 4;
        const uint32_t perBurst = 500;
        uint32_t uid = 0;
        for (uint32_t b = 0; b < bursts; ++b)
        {
            for (uint32_t i = 0; i < perBurst; ++i)
            {
                for (uint64_t ts : {1000, 5000})
                {
                    EventOrigin origin;
                    origin.ts = 10;
                    origin.context = i * bursts + b; // ascending within a burst
                    wheel->InsertEvent(MakeEv(ts, uid++), origin);
                }
            }
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(wheel->GetSortedWalkNodes(),
                                    2 * bursts * perBurst * 2,
                                    "each burst walks its slot about once");
        uint64_t lastTs = 0;
        uint32_t lastContext = 0;
        uint32_t wrong = 0;
        for (uint32_t n = 0; n < 2 * bursts * perBurst; ++n)
        {
            const Scheduler::Event ev = wheel->RemoveNext();
            const uint32_t context =
                (ev.key.m_uid / 2) % perBurst * bursts + ev.key.m_uid / 2 / perBurst;
            if (n != 0 && ev.key.m_ts == lastTs && context <= lastContext)
            {
                ++wrong;
            }
            lastTs = ev.key.m_ts;
            lastContext = context;
        }
        NS_TEST_ASSERT_MSG_EQ(wrong, 0, "ties come out in context order");
        NS_TEST_ASSERT_MSG_EQ(wheel->IsEmpty(), true, "every event came out");
    }
};

class QuaternaryHeapSchedulerTestSuite : public TestSuite
{
  public:
    QuaternaryHeapSchedulerTestSuite()
        : TestSuite("ai-fabric-scheduler", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new SchedulerOrderTestCase(CreateObject<QuaternaryHeapScheduler>(),
                                               50,
                                               "quaternary heap"),
                    AI_FABRIC_QUICK);
        // 64 one-tick slots for stamps up to 200 ticks ahead: a third of the events
        // start in the far heap, and the wheel wraps every 64 ticks.
        AddTestCase(
            new SchedulerOrderTestCase(MakeWheel(64, 1), 200, "timing wheel (far heap, wrap)"),
            AI_FABRIC_QUICK);
        // 8-tick slots (rounded from 12): several events per slot, inserted out of order.
        AddTestCase(
            new SchedulerOrderTestCase(MakeWheel(4096, 12), 5000, "timing wheel (sorted slots)"),
            AI_FABRIC_QUICK);
        // 16,384 one-tick slots (four summary words) for stamps up to 40,000 ticks ahead:
        // the search for the next slot crosses summary words and wraps past the last one,
        // and the far heap takes the events beyond the span (the default wheel at its
        // narrowest, 128 ps slots, has 65,536 of them).
        AddTestCase(new SchedulerOrderTestCase(MakeWheel(16384, 1),
                                               40000,
                                               "timing wheel (summary words, wrap)"),
                    AI_FABRIC_QUICK);
        // The default, auto width: 64 slots 16 times wider than the narrowest (1,024
        // of them span the same time), halved as the events pending grow to thousands.
        AddTestCase(
            new SchedulerOrderTestCase(
                CreateObjectWithAttributes<TimingWheelScheduler>("SlotCount", UintegerValue(1024)),
                3000,
                "timing wheel (auto width, narrowed while full)",
                true),
            AI_FABRIC_QUICK);
        // The largest wheel: 65,536 slots under 16 summary words, sparse.
        AddTestCase(new SchedulerOrderTestCase(MakeWheel(65536, 2),
                                               300000,
                                               "timing wheel (65,536 slots, sparse)"),
                    AI_FABRIC_QUICK);
        AddTestCase(new WheelPayloadTestCase, AI_FABRIC_QUICK);
        AddTestCase(new FabricSimulatorImplTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TieOrderTestCase, AI_FABRIC_QUICK);
        AddTestCase(new WheelTieBurstTestCase, AI_FABRIC_QUICK);
        AddTestCase(new SwitchSchedulerMidRunTestCase, AI_FABRIC_QUICK);
    }
};

static QuaternaryHeapSchedulerTestSuite g_quaternaryHeapSchedulerTestSuite;
