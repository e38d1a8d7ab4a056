/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quaternary-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuaternaryHeapScheduler");

NS_OBJECT_ENSURE_REGISTERED(QuaternaryHeapScheduler);

namespace
{
constexpr std::size_t ARITY = 4;
} // namespace

TypeId
QuaternaryHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuaternaryHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<QuaternaryHeapScheduler>();
    return tid;
}

QuaternaryHeapScheduler::QuaternaryHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

QuaternaryHeapScheduler::~QuaternaryHeapScheduler()
{
    NS_LOG_FUNCTION(this);
}

// Per-event paths: no NS_LOG_FUNCTION (its enabled check alone is a cost per event).

void
QuaternaryHeapScheduler::SiftUp(std::size_t i, const Entry& e)
{
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / ARITY;
        if (!Earlier(e, m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = e;
}

void
QuaternaryHeapScheduler::SiftDown(std::size_t i, const Entry& e)
{
    const std::size_t n = m_heap.size();
    for (;;)
    {
        const std::size_t first = i * ARITY + 1;
        if (first >= n)
        {
            break;
        }
        const std::size_t last = first + ARITY < n ? first + ARITY : n;
        std::size_t best = first;
        for (std::size_t c = first + 1; c < last; ++c)
        {
            if (Earlier(m_heap[c], m_heap[best]))
            {
                best = c;
            }
        }
        if (!Earlier(m_heap[best], e))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = e;
}

void
QuaternaryHeapScheduler::Insert(const Event& ev)
{
    InsertFrom(ev, EventOrigin{});
}

void
QuaternaryHeapScheduler::InsertFrom(const Event& ev, const EventOrigin& origin)
{
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, Entry{ev, origin});
}

bool
QuaternaryHeapScheduler::Contains(uint64_t ts, uint32_t uid) const
{
    // Only subtrees whose root is not later than ts can hold it (heap order).
    std::vector<std::size_t> todo;
    if (!m_heap.empty())
    {
        todo.push_back(0);
    }
    while (!todo.empty())
    {
        const std::size_t i = todo.back();
        todo.pop_back();
        const EventKey& key = m_heap[i].ev.key;
        if (key.m_ts > ts)
        {
            continue;
        }
        if (key.m_ts == ts && key.m_uid == uid)
        {
            return true;
        }
        for (std::size_t c = i * ARITY + 1; c < m_heap.size() && c <= i * ARITY + ARITY; ++c)
        {
            todo.push_back(c);
        }
    }
    return false;
}

bool
QuaternaryHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
QuaternaryHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front().ev;
}

Scheduler::Event
QuaternaryHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    const Event next = m_heap.front().ev;
    const Entry last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        SiftDown(0, last);
    }
    return next;
}

void
QuaternaryHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.key.m_ts << ev.key.m_uid);
    std::size_t i = 0;
    while (i < m_heap.size() && m_heap[i].ev.key.m_uid != ev.key.m_uid)
    {
        ++i;
    }
    NS_ASSERT_MSG(i < m_heap.size(), "event " << ev.key.m_uid << " is not scheduled");
    const Entry last = m_heap.back();
    m_heap.pop_back();
    if (i == m_heap.size())
    {
        return; // it was the last element
    }
    if (i > 0 && Earlier(last, m_heap[(i - 1) / ARITY]))
    {
        SiftUp(i, last);
    }
    else
    {
        SiftDown(i, last);
    }
}

} // namespace ns3
