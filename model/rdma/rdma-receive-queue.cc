/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-receive-queue.h"

#include "ns3/ptr.h"
#include "ns3/simulator.h"

namespace ns3
{

RdmaReceiveQueue::RdmaReceiveQueue(uint32_t posted, bool autoRepost)
    : m_posted(posted),
      m_autoRepost(autoRepost),
      m_consumed(0)
{
}

void
RdmaReceiveQueue::Post(uint32_t n)
{
    m_posted += n;
}

void
RdmaReceiveQueue::Completed(Time delay)
{
    if (!m_autoRepost)
    {
        return;
    }
    if (delay.IsZero())
    {
        m_posted++;
        return;
    }
    // The queue outlives the event: it holds a reference until the re-post.
    Simulator::Schedule(delay, &RdmaReceiveQueue::Post, Ptr<RdmaReceiveQueue>(this), 1U);
}

uint32_t
RdmaReceiveQueue::GetPosted() const
{
    return m_posted;
}

uint64_t
RdmaReceiveQueue::GetConsumed() const
{
    return m_consumed;
}

bool
RdmaReceiveQueue::IsAutoRepost() const
{
    return m_autoRepost;
}

} // namespace ns3
