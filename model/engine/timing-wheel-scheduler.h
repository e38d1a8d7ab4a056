/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TIMING_WHEEL_SCHEDULER_H
#define TIMING_WHEEL_SCHEDULER_H

#include "quaternary-heap-scheduler.h"

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <memory>
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
 * bitmap of non-empty slots under two summary levels. Insert and RemoveNext are O(1)
 * for them while slots are narrow enough that a new event almost always goes to the
 * end of its slot's list (a fabric's events per nanosecond grow with its ports, issue
 * #52) and few enough that finding the next non-empty one scans little: by default
 * the slots start at 2,048 ps and halve, down to 128 ps, each time the events pending
 * at once outnumber them (the span stays: 8.4 us). A heap of the thousand-odd
 * frames in flight costs a dozen unpredictable comparisons per pop. Events beyond the wheel's span
 * (timers, flow starts) go to a QuaternaryHeapScheduler; RemoveNext takes the smaller of the two
 * heads.
 *
 * Events of equal time are ordered by their origin (EventOrigin: when and in which
 * context they were scheduled, then the uid), which FabricSimulatorImpl gives with
 * each insert, so that the order does not depend on how a fabric is partitioned over
 * MPI ranks. Through ns-3's Scheduler::Insert an event has the default origin: among
 * such events the order is ns-3's (time stamp, then insertion uid), as every other
 * ns-3 scheduler's. Nodes live in one pool
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
     * Insert without a virtual call (for FabricSimulatorImpl).
     * \param ev the event
     * \param origin when and where it was scheduled (the order among equal times)
     * \param hint memory the event will read when it runs, or nullptr: prefetched
     *        with the event object while the event before it runs (PrefetchNext)
     * \param direct ev.impl is a FabricEvent, to be run by FabricEvent::Fire
     */
    inline void InsertEvent(const Event& ev,
                            const EventOrigin& origin,
                            const void* hint = nullptr,
                            bool direct = false);

    /// \return the width of a slot now (it narrows with SlotWidth auto)
    Time GetSlotWidth() const
    {
        return TimeStep(int64_t{1} << m_shift);
    }

    /// \return true if the event at \p ts with uid \p uid is in the list
    bool Contains(uint64_t ts, uint32_t uid) const;

    /// Bytes an event's payload may take (InsertCall), 64-byte aligned.
    static constexpr std::size_t PAYLOAD_BYTES = 128;

    /**
     * How a call event runs and ends (InsertCall); one static instance per kind.
     * A call event has no EventImpl: nothing to reference-count, no object to
     * load before the code that handles it.
     */
    struct CallOps
    {
        void (*fire)(void* arg, void* payload); //!< run it (payload nullptr if it has none)
        void (*destroy)(void* payload);         //!< end its payload, or nullptr: no payload
    };

    /// \return true if an event at \p ts would go into the wheel (not the far heap)
    bool InWheel(uint64_t ts) const
    {
        return (ts >> m_shift) - m_current <= m_mask;
    }

    /**
     * Insert a call event at \p ev's key (ev.impl must be nullptr; InWheel must hold):
     * \p ops->fire(\p arg, payload) runs it; \p arg is also prefetched before it runs.
     * A payload (when ops->destroy is set) lives in the event's node, which the event
     * that schedules it has usually just freed: writing it is a cache hit, where a
     * separate queue of such objects is written a lap of its ring later, long
     * evicted. ops->destroy ends it when the event has run (TakeNext, ReleaseNode)
     * or is discarded. Only this wheel can hold a call event (see GetCallEvents).
     * \return where to construct the payload (PAYLOAD_BYTES)
     */
    inline void* InsertCall(const Event& ev,
                            const EventOrigin& origin,
                            const CallOps* ops,
                            const void* arg);
    /**
     * Put node \p n, taken by TakeNext and not released, back into the wheel as the
     * call event \p ev (InsertCall's arguments) with the payload it holds: a frame
     * forwarded by the event that carried it stays where it is. The node is then
     * not to be released by its taker.
     */
    inline void RelinkCall(uint32_t n,
                           const Event& ev,
                           const EventOrigin& origin,
                           const CallOps* ops,
                           const void* arg);

    /// \return the ops of node \p n's call event (taken or not), or nullptr
    const CallOps* GetCall(uint32_t n) const
    {
        return m_nodes[n].call;
    }

    /**
     * RemoveNext for FabricSimulatorImpl's loop: the node stays allocated, with its
     * payload, until ReleaseNode (an event may schedule others while it runs).
     * \param direct the event is a FabricEvent
     * \param node the node to release (NIL for a far-heap event)
     * \param payload the event's payload, or nullptr
     * \param call a call event's ops (the returned event's impl is then nullptr), or nullptr
     * \param arg a call event's argument
     */
    inline Event TakeNext(bool& direct,
                          uint32_t& node,
                          void*& payload,
                          const CallOps*& call,
                          void*& arg);
    /// Destroy \p node's payload, if any, and free it (after TakeNext's event ran).
    inline void ReleaseNode(uint32_t node);

    /// \return the nodes InsertSorted has walked past so far (each a likely cache miss)
    uint64_t GetSortedWalkNodes() const
    {
        return m_walked;
    }

    /// \return the number of call events in the list (another event list cannot hold them)
    uint64_t GetCallEvents() const
    {
        return m_callEvents;
    }

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

    /// \return the time stamp of the next event (the list must not be empty)
    inline uint64_t NextTs() const;

    /// IsEmpty without a virtual call.
    bool IsEmptyInline() const
    {
        return m_inWheel == 0 && m_farEmpty;
    }

  protected:
    void NotifyConstructionCompleted() override;

  private:
    static constexpr uint32_t NIL = 0xFFFFFFFFU; //!< no node
    static constexpr uint32_t MAX_SLOTS = 65536; //!< 1,024 bitmap words under 16 summary words

    static constexpr uint32_t PAYLOAD_CHUNK = 1024; //!< payload slots per allocation

    /// One scheduled event in a slot's list (one cache line).
    struct alignas(64) Node
    {
        Event ev;            //!< the event (impl nullptr for a call event)
        const void* hint;    //!< what it will read (InsertEvent), or a call's argument
        const CallOps* call; //!< a call event's ops, or nullptr
        EventOrigin origin;  //!< when and where it was scheduled
        uint32_t next;       //!< next node of the slot (later key), or NIL
        bool direct;         //!< ev.impl is a FabricEvent (InsertEvent)
    };

    /// \return true if node \p a runs before node \p b
    static bool Earlier(const Node& a, const Node& b)
    {
        return EventOrigin::Earlier(a.ev.key, a.origin, b.ev.key, b.origin);
    }

    /// Room for one node's payload (same index as the node), two whole cache lines.
    struct alignas(64) Payload
    {
        unsigned char bytes[PAYLOAD_BYTES]; //!< the payload object
    };

    /// \return the payload room of node \p n (stable while the pool grows)
    void* PayloadOf(uint32_t n) const
    {
        return m_payloads[n / PAYLOAD_CHUNK][n % PAYLOAD_CHUNK].bytes;
    }

    /// Take a free node (growing the pool) holding \p ev; \return its index.
    inline uint32_t NewNode(const Event& ev,
                            const EventOrigin& origin,
                            const void* hint,
                            bool direct);
    /// Link node \p n (its event at slot index \p index) into its slot's list (inlined:
    /// each insert's path).
    [[gnu::always_inline]] inline void LinkNode(uint32_t n, uint64_t index);

    /// \return the wheel slot of the earliest non-empty one, or NIL if the wheel is empty
    inline uint32_t FirstSlot() const;
    /// \return true if the far heap's next event comes before the wheel's head \p wheelHead
    inline bool FarFirst(uint32_t wheelHead) const;
    /// Take the head node of \p slot out of the wheel (\p direct: its flag) and
    /// free it, discarding any payload.
    inline Event PopSlot(uint32_t slot, bool& direct);
    /// Unlink the head node of \p slot; \return its index (not freed).
    inline uint32_t UnlinkHead(uint32_t slot);
    /// Put \p ev into the far heap (beyond the wheel's span).
    void InsertFar(const Event& ev, const EventOrigin& origin);
    /// Take the far heap's next event.
    Event RemoveNextFar();
    /// Insert \p ev into \p slot's list, after a walk from its head (ev is not its last).
    void InsertSorted(uint32_t slot, uint32_t node);
    /// Grow the node pool by one node (narrowing the wheel first if it has more events
    /// than slots, auto width); \return its index.
    uint32_t GrowPool();
    /// \p count slots, all empty (m_shift set).
    void Resize(uint32_t count);
    /// Halve the slot width, doubling the slots: the same span, every event relinked.
    void Narrow();
    /// Remember the far heap's next key (after each change to the far heap).
    void RefreshFarHead();
    inline void MarkSlot(uint32_t slot);
    inline void ClearSlot(uint32_t slot);

    Time m_slotWidth;     //!< attribute: time one slot spans (rounded down to 2^n ticks)
    uint32_t m_slotCount; //!< attribute: number of slots (power of two, 64..65536)

    /// Auto width starts this much wider than the narrowest (2,048 ps against 128 ps).
    static constexpr uint32_t AUTO_WIDER_SHIFT = 4;

    bool m_auto{true};      //!< SlotWidth 0: the width narrows as the events grow
    uint32_t m_minShift{0}; //!< log2 of the narrowest slot width in ticks
    uint32_t m_shift{0};    //!< log2 of the slot width in ticks
    uint64_t m_mask{0};     //!< slots - 1
    uint64_t m_current{0};  //!< slot index (ts >> m_shift) of the last event removed
    uint64_t m_inWheel{0};  //!< events in the wheel

    /// A slot's list; head, tail and finger side by side, as inserting into an empty
    /// slot and taking a slot's last event write both ends and taking its head checks
    /// the finger (one cache line, not three arrays' lines).
    struct Slot
    {
        uint32_t head;   //!< first node (earliest key) or NIL
        uint32_t tail;   //!< last node (latest key) or NIL
        uint32_t finger; //!< the node InsertSorted linked last (still here), or NIL
        uint32_t pad;    //!< (16 bytes: a slot never spans two cache lines)
    };

    std::vector<Slot> m_slots;       //!< per slot
    std::vector<uint64_t> m_words;   //!< bit per slot: non-empty
    std::vector<uint64_t> m_summary; //!< bit per word of m_words: non-zero (64 words each)
    std::vector<Node> m_nodes;       //!< node pool
    std::vector<std::unique_ptr<Payload[]>> m_payloads; //!< payload room, by node index
    uint64_t m_callEvents{0};                           //!< nodes holding a call event
    uint64_t m_walked{0}; //!< nodes InsertSorted walked past (GetSortedWalkNodes)
    uint32_t m_free{NIL}; //!< free list through Node::next

    Ptr<QuaternaryHeapScheduler> m_far; //!< events beyond the wheel's span
    bool m_farEmpty{true};              //!< m_far holds nothing
    EventKey m_farHead{};               //!< m_far's next key when not empty
    EventOrigin m_farHeadOrigin{};      //!< and its origin
};

// Per-event paths, inline so that FabricSimulatorImpl calls them directly.

inline void
TimingWheelScheduler::MarkSlot(uint32_t slot)
{
    m_words[slot >> 6] |= uint64_t{1} << (slot & 63);
    m_summary[slot >> 12] |= uint64_t{1} << ((slot >> 6) & 63);
}

inline void
TimingWheelScheduler::ClearSlot(uint32_t slot)
{
    uint64_t& word = m_words[slot >> 6];
    word &= ~(uint64_t{1} << (slot & 63));
    if (word == 0)
    {
        m_summary[slot >> 12] &= ~(uint64_t{1} << ((slot >> 6) & 63));
    }
}

inline uint32_t
TimingWheelScheduler::NewNode(const Event& ev,
                              const EventOrigin& origin,
                              const void* hint,
                              bool direct)
{
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
    node.call = nullptr;
    node.origin = origin;
    node.next = NIL;
    node.direct = direct;
    return n;
}

inline void
TimingWheelScheduler::LinkNode(uint32_t n, uint64_t index)
{
    const auto slot = static_cast<uint32_t>(index & m_mask);
    const uint32_t tail = m_slots[slot].tail;
    if (tail == NIL)
    {
        m_slots[slot].head = n;
        m_slots[slot].tail = n;
        MarkSlot(slot);
    }
    else if (Earlier(m_nodes[tail], m_nodes[n]))
    {
        // The common case: later than everything in its slot.
        m_nodes[tail].next = n;
        m_slots[slot].tail = n;
    }
    else
    {
        InsertSorted(slot, n);
    }
    ++m_inWheel;
}

inline void
TimingWheelScheduler::InsertEvent(const Event& ev,
                                  const EventOrigin& origin,
                                  const void* hint,
                                  bool direct)
{
    if ((ev.key.m_ts >> m_shift) - m_current > m_mask)
    {
        InsertFar(ev, origin); // beyond the wheel's span (runs through Invoke, as any event)
        return;
    }
    const uint32_t n = NewNode(ev, origin, hint, direct); // (may narrow the wheel)
    LinkNode(n, ev.key.m_ts >> m_shift);
}

inline void*
TimingWheelScheduler::InsertCall(const Event& ev,
                                 const EventOrigin& origin,
                                 const CallOps* ops,
                                 const void* arg)
{
    const uint32_t n = NewNode(ev, origin, arg, false);
    m_nodes[n].call = ops;
    ++m_callEvents;
    LinkNode(n, ev.key.m_ts >> m_shift);
    return PayloadOf(n);
}

inline void
TimingWheelScheduler::RelinkCall(uint32_t n,
                                 const Event& ev,
                                 const EventOrigin& origin,
                                 const CallOps* ops,
                                 const void* arg)
{
    Node& node = m_nodes[n];
    node.ev = ev;
    node.hint = arg;
    node.call = ops; // (still counted in m_callEvents: it was never released)
    node.origin = origin;
    node.next = NIL;
    node.direct = false;
    LinkNode(n, ev.key.m_ts >> m_shift);
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
    // Later words under the current summary word (2 << 63 is 0 in 64 bits: none
    // then), the summary words after it, from the first again, and the earlier words
    // under the current one.
    const uint32_t group = word >> 6;
    const auto nGroups = static_cast<uint32_t>(m_summary.size());
    uint64_t words = m_summary[group] & ~((uint64_t{2} << (word & 63)) - 1);
    uint32_t g = group;
    for (uint32_t i = 1; words == 0 && i < nGroups; ++i)
    {
        g = group + i < nGroups ? group + i : group + i - nGroups;
        words = m_summary[g];
    }
    if (words == 0)
    {
        g = group;
        words = m_summary[group] & ((uint64_t{1} << (word & 63)) - 1);
    }
    if (words != 0)
    {
        const uint32_t w = (g << 6) | static_cast<uint32_t>(__builtin_ctzll(words));
        return (w << 6) | static_cast<uint32_t>(__builtin_ctzll(m_words[w]));
    }
    // Only slots of the current word before the current slot (the wheel's far end).
    const uint64_t before = m_words[word] & ((uint64_t{1} << (cur & 63)) - 1);
    return (word << 6) | static_cast<uint32_t>(__builtin_ctzll(before));
}

inline bool
TimingWheelScheduler::FarFirst(uint32_t wheelHead) const
{
    const Node& head = m_nodes[wheelHead];
    return !m_farEmpty &&
           EventOrigin::Earlier(m_farHead, m_farHeadOrigin, head.ev.key, head.origin);
}

inline uint32_t
TimingWheelScheduler::UnlinkHead(uint32_t slot)
{
    const uint32_t n = m_slots[slot].head;
    const uint32_t next = m_nodes[n].next;
    m_slots[slot].head = next;
    if (__builtin_expect(n == m_slots[slot].finger, false))
    {
        m_slots[slot].finger = NIL; // (InsertSorted's start: a node in the wheel)
    }
    if (next == NIL)
    {
        m_slots[slot].tail = NIL;
        ClearSlot(slot);
    }
    --m_inWheel;
    return n;
}

inline void
TimingWheelScheduler::ReleaseNode(uint32_t n)
{
    if (n == NIL)
    {
        return; // a far-heap event: no node
    }
    Node& node = m_nodes[n];
    if (node.call != nullptr)
    {
        if (node.call->destroy != nullptr)
        {
            node.call->destroy(PayloadOf(n));
        }
        node.call = nullptr;
        --m_callEvents;
    }
    node.next = m_free;
    m_free = n;
}

inline Scheduler::Event
TimingWheelScheduler::PopSlot(uint32_t slot, bool& direct)
{
    const uint32_t n = UnlinkHead(slot);
    const Event ev = m_nodes[n].ev;
    direct = m_nodes[n].direct;
    ReleaseNode(n);
    return ev;
}

inline Scheduler::Event
TimingWheelScheduler::TakeNext(bool& direct,
                               uint32_t& node,
                               void*& payload,
                               const CallOps*& call,
                               void*& arg)
{
    const uint32_t slot = FirstSlot();
    direct = false;
    node = NIL;
    payload = nullptr;
    call = nullptr;
    Event ev;
    if (slot == NIL || FarFirst(m_slots[slot].head))
    {
        ev = RemoveNextFar();
    }
    else
    {
        node = UnlinkHead(slot);
        const Node& taken = m_nodes[node];
        ev = taken.ev;
        direct = taken.direct;
        call = taken.call;
        if (call != nullptr)
        {
            arg = const_cast<void*>(taken.hint);
            if (call->destroy != nullptr)
            {
                payload = PayloadOf(node);
            }
        }
    }
    m_current = ev.key.m_ts >> m_shift;
    return ev;
}

inline Scheduler::Event
TimingWheelScheduler::RemoveNextEvent(bool& direct)
{
    const uint32_t slot = FirstSlot();
    direct = false;
    const Event ev =
        (slot == NIL || FarFirst(m_slots[slot].head)) ? RemoveNextFar() : PopSlot(slot, direct);
    m_current = ev.key.m_ts >> m_shift;
    return ev;
}

inline uint64_t
TimingWheelScheduler::NextTs() const
{
    const uint32_t slot = FirstSlot();
    if (slot == NIL || FarFirst(m_slots[slot].head))
    {
        return m_farHead.m_ts;
    }
    return m_nodes[m_slots[slot].head].ev.key.m_ts;
}

inline void
TimingWheelScheduler::PrefetchNext() const
{
    const uint32_t slot = FirstSlot();
    if (slot != NIL)
    {
        const uint32_t n = m_slots[slot].head;
        const Node& node = m_nodes[n];
        if (node.ev.impl != nullptr)
        {
            __builtin_prefetch(node.ev.impl);
        }
        if (node.hint != nullptr)
        {
            __builtin_prefetch(node.hint);
        }
        if (node.call != nullptr)
        {
            // A call's argument is an object whose first lines it reads (a port).
            __builtin_prefetch(static_cast<const char*>(node.hint) + 64);
            if (node.call->destroy != nullptr)
            {
                __builtin_prefetch(PayloadOf(n));
            }
        }
    }
}

} // namespace ns3

#endif // TIMING_WHEEL_SCHEDULER_H
