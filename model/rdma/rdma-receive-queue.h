/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RECEIVE_QUEUE_H
#define RDMA_RECEIVE_QUEUE_H

#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The receive work requests an application has posted (ibv_post_recv) and a
 * SEND has not consumed yet: a queue pair's own receive queue, or a shared receive
 * queue (SRQ) one adapter's queue pairs all take from (ibv_create_srq).
 *
 * A SEND (or SEND with immediate) consumes one at its first packet (IBTA vol. 1
 * ch. 9: a SEND's data goes to the next receive WQE); without one the responder
 * answers an RNR NAK. An application that keeps the queue full (\p autoRepost)
 * posts each consumed receive again once it has handled the message's completion,
 * a processing delay after it: what perftest's ib_send_bw does (it re-posts a
 * receive for each receive completion it polls).
 */
class RdmaReceiveQueue : public SimpleRefCount<RdmaReceiveQueue>
{
  public:
    /// \p posted receives to start with; \p autoRepost: consumed ones are re-posted
    RdmaReceiveQueue(uint32_t posted, bool autoRepost);

    /// The application posts \p n more receives.
    void Post(uint32_t n);

    /// A SEND's first packet takes one. \return false if none is posted (RNR)
    bool Take()
    {
        if (m_posted == 0)
        {
            return false;
        }
        m_posted--;
        m_consumed++;
        return true;
    }

    /// A message that took one completed: with auto re-posting, the receive is posted
    /// again \p delay later (at once for 0).
    void Completed(Time delay);
    /// \return receives posted and not consumed
    uint32_t GetPosted() const;
    /// \return receives consumed since the start
    uint64_t GetConsumed() const;
    /// \return whether consumed receives are re-posted
    bool IsAutoRepost() const;

  private:
    uint32_t m_posted;   //!< posted, not consumed
    bool m_autoRepost;   //!< re-post each consumed receive
    uint64_t m_consumed; //!< consumed so far
};

} // namespace ns3

#endif // RDMA_RECEIVE_QUEUE_H
