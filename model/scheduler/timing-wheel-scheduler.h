/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TIMING_WHEEL_SCHEDULER_H
#define TIMING_WHEEL_SCHEDULER_H

#include "quaternary-heap-scheduler.h"

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An event list for packet-level fabrics: a timing wheel for the near
 * future, a 4-ary heap for the rest.
 *
 * Almost every event of a fabric run lies less than a few microseconds ahead:
 * a frame's arrival after its serialization and the cable's delay, the end of a
 * transmission. Those go into the wheel: SlotCount slots of SlotWidth each, a
 * slot holding its events as a list sorted by (time, uid), found through a
 * two-level bitmap of non-empty slots. Insert and RemoveNext are O(1) for them
 * (a new event almost always goes to the end of its slot's list), where a heap
 * of the thousand-odd frames in flight costs a dozen unpredictable comparisons
 * per pop. Events beyond the wheel's span (timers, flow starts) go to a
 * QuaternaryHeapScheduler; RemoveNext takes the smaller of the two heads.
 *
 * The order is ns-3's (time stamp, then insertion uid), so results are
 * byte-identical to every other ns-3 scheduler's. Nodes live in one pool
 * recycled through a free list: no allocation per event once it has grown.
 *
 * The wheel holds an event only if its slot index (time / SlotWidth) is less
 * than SlotCount ahead of the last event removed; time never goes back, so a
 * slot never holds two laps of the wheel.
 */
class TimingWheelScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();

    TimingWheelScheduler();
    ~TimingWheelScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /**
     * Insert without a virtual call (what Insert does; for FabricSimulatorImpl).
     * \param ev the event
     * \param hint memory the event will read when it runs, or nullptr: prefetched
     *        with the event object while the event before it runs (PrefetchNext)
     * \param direct ev.impl is a FabricEvent, to be run by FabricEvent::Fire
     */
    inline void InsertEvent(const Event& ev, const void* hint = nullptr, bool direct = false);

    /// RemoveNext without a virtual call (the list must not be empty).
    inline Event RemoveNextEvent()
    {
        bool direct;
        return RemoveNextEvent(direct);
    }

    /// RemoveNext without a virtual call; \p direct: InsertEvent's flag of the event.
    inline Event RemoveNextEvent(bool& direct);

    /// Ask the CPU to start loading the next event's object and hint (no effect on
    /// the order): a packet hop's event reads memory last touched microseconds ago.
    inline void PrefetchNext() const;

    /// IsEmpty without a virtual call.
    bool IsEmptyInline() const
    {
        return m_inWheel == 0 && m_farEmpty;
    }

  protected:
    void NotifyConstructionCompleted() override;

  private:
    static constexpr uint32_t NIL = 0xFFFFFFFFU; //!< no node
    static constexpr uint32_t MAX_SLOTS = 4096;  //!< 64 bitmap words under one summary word

    /// One scheduled event in a slot's list.
    struct Node
    {
        Event ev;         //!< the event
        const void* hint; //!< what it will read (InsertEvent), or nullptr
        uint32_t next;    //!< next node of the slot (later key), or NIL
        bool direct;      //!< ev.impl is a FabricEvent (InsertEvent)
    };

    /// \return the wheel slot of the earliest non-empty one, or NIL if the wheel is empty
    inline uint32_t FirstSlot() const;
    /// \return true if the far heap's next event comes before the wheel's head \p wheelHead
    inline bool FarFirst(uint32_t wheelHead) const;
    /// Take the head node of \p slot out of the wheel (\p direct: its flag).
    inline Event PopSlot(uint32_t slot, bool& direct);
    /// Put \p ev into the far heap (beyond the wheel's span).
    void InsertFar(const Event& ev);
    /// Take the far heap's next event.
    Event RemoveNextFar();
    /// Insert \p ev into \p slot's list, after a walk from its head (ev is not its last).
    void InsertSorted(uint32_t slot, uint32_t node);
    /// Grow the node pool by one node; \return its index.
    uint32_t GrowPool();
    /// Remember the far heap's next key (after each change to the far heap).
    void RefreshFarHead();
    inline void MarkSlot(uint32_t slot);
    inline void ClearSlot(uint32_t slot);

    Time m_slotWidth;     //!< attribute: time one slot spans (rounded down to 2^n ticks)
    uint32_t m_slotCount; //!< attribute: number of slots (power of two, 64..4096)

    uint32_t m_shift{0};   //!< log2 of the slot width in ticks
    uint64_t m_mask{0};    //!< m_slotCount - 1
    uint64_t m_current{0}; //!< slot index (ts >> m_shift) of the last event removed
    uint64_t m_inWheel{0}; //!< events in the wheel

    std::vector<uint32_t> m_head;  //!< per slot: first node (earliest key) or NIL
    std::vector<uint32_t> m_tail;  //!< per slot: last node (latest key) or NIL
    std::vector<uint64_t> m_words; //!< bit per slot: non-empty
    uint64_t m_summary{0};         //!< bit per word of m_words: non-zero
    std::vector<Node> m_nodes;     //!< node pool
    uint32_t m_free{NIL};          //!< free list through Node::next

    Ptr<QuaternaryHeapScheduler> m_far; //!< events beyond the wheel's span
    bool m_farEmpty{true};              //!< m_far holds nothing
    EventKey m_farHead{};               //!< m_far's next key when not empty
};

// Per-event paths, inline so that FabricSimulatorImpl calls them directly.

inline void
TimingWheelScheduler::MarkSlot(uint32_t slot)
{
    m_words[slot >> 6] |= uint64_t{1} << (slot & 63);
    m_summary |= uint64_t{1} << (slot >> 6);
}

inline void
TimingWheelScheduler::ClearSlot(uint32_t slot)
{
    uint64_t& word = m_words[slot >> 6];
    word &= ~(uint64_t{1} << (slot & 63));
    if (word == 0)
    {
        m_summary &= ~(uint64_t{1} << (slot >> 6));
    }
}

inline void
TimingWheelScheduler::InsertEvent(const Event& ev, const void* hint, bool direct)
{
    const uint64_t index = ev.key.m_ts >> m_shift;
    if (index - m_current > m_mask)
    {
        InsertFar(ev); // beyond the wheel's span (runs through Invoke, as any event)
        return;
    }
    uint32_t n = m_free;
    if (n != NIL)
    {
        m_free = m_nodes[n].next;
    }
    else
    {
        n = GrowPool();
    }
    Node& node = m_nodes[n];
    node.ev = ev;
    node.hint = hint;
    node.next = NIL;
    node.direct = direct;
    const auto slot = static_cast<uint32_t>(index & m_mask);
    const uint32_t tail = m_tail[slot];
    if (tail == NIL)
    {
        m_head[slot] = n;
        m_tail[slot] = n;
        MarkSlot(slot);
    }
    else if (m_nodes[tail].ev.key < ev.key)
    {
        // The common case: later than everything in its slot (uids only grow).
        m_nodes[tail].next = n;
        m_tail[slot] = n;
    }
    else
    {
        InsertSorted(slot, n);
    }
    ++m_inWheel;
}

inline uint32_t
TimingWheelScheduler::FirstSlot() const
{
    if (m_inWheel == 0)
    {
        return NIL;
    }
    // Slots in time order: from the current one to the end of the wheel, then
    // from slot 0 up to the current one (the next lap).
    const auto cur = static_cast<uint32_t>(m_current & m_mask);
    const uint32_t word = cur >> 6;
    const uint64_t here = m_words[word] & (~uint64_t{0} << (cur & 63));
    if (here != 0)
    {
        return (word << 6) | static_cast<uint32_t>(__builtin_ctzll(here));
    }
    // (2 << 63 is 0 in 64 bits: no later words then.)
    uint64_t words = m_summary & ~((uint64_t{2} << word) - 1);
    if (words == 0)
    {
        words = m_summary & ((uint64_t{1} << word) - 1);
    }
    if (words != 0)
    {
        const auto w = static_cast<uint32_t>(__builtin_ctzll(words));
        return (w << 6) | static_cast<uint32_t>(__builtin_ctzll(m_words[w]));
    }
    // Only slots of the current word before the current slot (the wheel's far end).
    const uint64_t before = m_words[word] & ((uint64_t{1} << (cur & 63)) - 1);
    return (word << 6) | static_cast<uint32_t>(__builtin_ctzll(before));
}

inline bool
TimingWheelScheduler::FarFirst(uint32_t wheelHead) const
{
    return !m_farEmpty && m_farHead < m_nodes[wheelHead].ev.key;
}

inline Scheduler::Event
TimingWheelScheduler::PopSlot(uint32_t slot, bool& direct)
{
    const uint32_t n = m_head[slot];
    Node& node = m_nodes[n];
    m_head[slot] = node.next;
    if (node.next == NIL)
    {
        m_tail[slot] = NIL;
        ClearSlot(slot);
    }
    node.next = m_free;
    m_free = n;
    --m_inWheel;
    direct = node.direct;
    return node.ev;
}

inline Scheduler::Event
TimingWheelScheduler::RemoveNextEvent(bool& direct)
{
    const uint32_t slot = FirstSlot();
    direct = false;
    const Event ev =
        (slot == NIL || FarFirst(m_head[slot])) ? RemoveNextFar() : PopSlot(slot, direct);
    m_current = ev.key.m_ts >> m_shift;
    return ev;
}

inline void
TimingWheelScheduler::PrefetchNext() const
{
    const uint32_t slot = FirstSlot();
    if (slot != NIL)
    {
        const Node& node = m_nodes[m_head[slot]];
        __builtin_prefetch(node.ev.impl);
        if (node.hint != nullptr)
        {
            __builtin_prefetch(node.hint);
        }
    }
}

} // namespace ns3

#endif // TIMING_WHEEL_SCHEDULER_H
