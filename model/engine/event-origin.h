/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EVENT_ORIGIN_H
#define EVENT_ORIGIN_H

#include "ns3/scheduler.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief When and in which context an event was scheduled: the tie-break of events
 * at the same time stamp in ai-fabric's event lists (TimingWheelScheduler,
 * QuaternaryHeapScheduler under FabricSimulatorImpl).
 *
 * ns-3 orders events of equal time by insertion (EventKey's uid, one counter per
 * process). That order depends on everything the process simulates: a frame that
 * another MPI rank sent is inserted when its window's messages are read, not when its
 * sender scheduled it, so a partitioned run can take two equal-time events in another
 * order than one process. Ordered by (time stamp, scheduling time, scheduling context,
 * uid) instead, two events of equal time and origin were both scheduled by the events
 * of one context (one node) at one instant, which every partition runs on one rank in
 * the same order; so the uid decides only between events whose relative order every
 * partition gives alike, and the order of the events of each node does not depend on
 * the number of ranks (doc/distributed.md, "Lookahead and ties").
 *
 * The default (time 0, no context) is what an event inserted through ns-3's
 * Scheduler::Insert gets: among such events the order is ns-3's (time, uid).
 */
struct EventOrigin
{
    uint64_t ts{0};               //!< the time (ticks) at which the event was scheduled
    uint32_t context{0xffffffff}; //!< the context that scheduled it (Simulator::NO_CONTEXT)

    /// \return true if an event with key \p a from \p oa runs before one with \p b from \p ob
    static bool Earlier(const Scheduler::EventKey& a,
                        const EventOrigin& oa,
                        const Scheduler::EventKey& b,
                        const EventOrigin& ob)
    {
        if (a.m_ts != b.m_ts)
        {
            return a.m_ts < b.m_ts;
        }
        if (oa.ts != ob.ts)
        {
            return oa.ts < ob.ts;
        }
        if (oa.context != ob.context)
        {
            return oa.context < ob.context;
        }
        return a.m_uid < b.m_uid;
    }
};

} // namespace ns3

#endif // EVENT_ORIGIN_H
