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
QuaternaryHeapScheduler::SiftUp(std::size_t i, const Event& ev)
{
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / ARITY;
        if (!(ev.key < m_heap[parent].key))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = ev;
}

void
QuaternaryHeapScheduler::SiftDown(std::size_t i, const Event& ev)
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
            if (m_heap[c].key < m_heap[best].key)
            {
                best = c;
            }
        }
        if (!(m_heap[best].key < ev.key))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = ev;
}

void
QuaternaryHeapScheduler::Insert(const Event& ev)
{
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, ev);
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
    return m_heap.front();
}

Scheduler::Event
QuaternaryHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    const Event next = m_heap.front();
    const Event last = m_heap.back();
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
    while (i < m_heap.size() && m_heap[i].key.m_uid != ev.key.m_uid)
    {
        ++i;
    }
    NS_ASSERT_MSG(i < m_heap.size(), "event " << ev.key.m_uid << " is not scheduled");
    const Event last = m_heap.back();
    m_heap.pop_back();
    if (i == m_heap.size())
    {
        return; // it was the last element
    }
    if (i > 0 && last.key < m_heap[(i - 1) / ARITY].key)
    {
        SiftUp(i, last);
    }
    else
    {
        SiftDown(i, last);
    }
}

} // namespace ns3
