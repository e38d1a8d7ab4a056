/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUATERNARY_HEAP_SCHEDULER_H
#define QUATERNARY_HEAP_SCHEDULER_H

#include "event-origin.h"

#include "ns3/scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An event list kept as a 4-ary min-heap in one std::vector.
 *
 * Through ns-3's Scheduler interface, the order of every ns-3 scheduler (time stamp,
 * then insertion uid), so a run gives byte-identical results with any of them; it is
 * only faster. FabricSimulatorImpl inserts with each event's origin (InsertFrom), and
 * equal times are then ordered as EventOrigin says. Why a new
 * one: a packet hop costs two events here, and ns-3's MapScheduler allocates a
 * tree node per event (11% of a fat-tree run's instructions with its rebalancing)
 * while ns-3's HeapScheduler, allocation-free too, pays a logging check in each
 * of its index helpers (Debian builds ns-3 with logging compiled in). A 4-ary
 * heap has half the depth of a binary one and its children share a cache line.
 *
 * Insert and RemoveNext are O(log n) without allocation once the vector has
 * grown; Remove (Simulator::Remove, rare: Cancel only marks events) is O(n).
 */
class QuaternaryHeapScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();

    QuaternaryHeapScheduler();
    ~QuaternaryHeapScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// Insert \p ev scheduled at \p origin (EventOrigin's order among equal times).
    void InsertFrom(const Event& ev, const EventOrigin& origin);

    /// \return the origin of the next event (the list must not be empty)
    const EventOrigin& PeekNextOrigin() const
    {
        return m_heap.front().origin;
    }

    /// \return true if the event at \p ts with uid \p uid is in the list
    bool Contains(uint64_t ts, uint32_t uid) const;

  private:
    /// An event and its origin.
    struct Entry
    {
        Event ev;           //!< the event
        EventOrigin origin; //!< when and where it was scheduled
    };

    /// \return true if \p a runs before \p b
    static bool Earlier(const Entry& a, const Entry& b)
    {
        return EventOrigin::Earlier(a.ev.key, a.origin, b.ev.key, b.origin);
    }

    /// Move e up from the hole at index i to its place.
    void SiftUp(std::size_t i, const Entry& e);
    /// Move e down from the hole at index i to its place.
    void SiftDown(std::size_t i, const Entry& e);

    std::vector<Entry> m_heap; //!< m_heap[0] is the next event
};

} // namespace ns3

#endif // QUATERNARY_HEAP_SCHEDULER_H
