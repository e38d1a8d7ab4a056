/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * QuaternaryHeapScheduler against a reference ordered set: the same (time, uid)
 * order under random inserts, removals of arbitrary events and pops, including
 * many events at equal times (a fabric's common case).
 */
#include "ai-fabric-test-compat.h"

#include "ns3/quaternary-heap-scheduler.h"
#include "ns3/random-variable-stream.h"

#include <set>
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
 * scheduled event) with time stamps drawn from a small range so that ties are
 * frequent; after each pop the heap's event must be the reference's smallest.
 */
class SchedulerOrderTestCase : public TestCase
{
  public:
    SchedulerOrderTestCase()
        : TestCase("quaternary heap keeps ns-3's (time, uid) order under inserts, removes, pops")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QuaternaryHeapScheduler> heap = CreateObject<QuaternaryHeapScheduler>();
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
                const uint64_t ts = now + u->GetInteger(0, 50); // many equal stamps
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
        NS_TEST_ASSERT_MSG_GT(pops, 50000, "enough pops exercised");
        NS_TEST_ASSERT_MSG_GT(removes, 10000, "enough removals exercised");
    }
};

class QuaternaryHeapSchedulerTestSuite : public TestSuite
{
  public:
    QuaternaryHeapSchedulerTestSuite()
        : TestSuite("ai-fabric-scheduler", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new SchedulerOrderTestCase, AI_FABRIC_QUICK);
    }
};

static QuaternaryHeapSchedulerTestSuite g_quaternaryHeapSchedulerTestSuite;
