/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TAG_RUN_QUEUE_H
#define TAG_RUN_QUEUE_H

#include "ns3/frame-fifo.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A FIFO of 64-bit tags held as runs of arithmetic progressions: a tag that
 * continues the last run's progression (first + stride * count) extends it, any other
 * starts a run. Exact for any sequence; a sequence of progressions costs 24 bytes per
 * run instead of 8 per tag.
 *
 * Why: a collective posts every receive of an operation at its start (receives matched
 * in advance), and a connection's tags are the transfer indices it carries, which a ring
 * spaces evenly (one per step, the ring's size apart): the 1,024-rank ring's 4.2 million
 * posted receives are one run per queue pair.
 */
class TagRunQueue
{
  public:
    /// \return true if no tag is queued
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of tags queued
    uint64_t size() const
    {
        return m_size;
    }

    /// \return the first tag (not empty)
    uint64_t front() const
    {
        return m_runs.front().first;
    }

    /// Removes the first tag (not empty).
    void pop_front()
    {
        Run& r = m_runs.front();
        m_size--;
        if (--r.count == 0)
        {
            m_runs.pop_front();
            return;
        }
        r.first += r.stride;
    }

    /// Appends \p tag.
    void push_back(uint64_t tag)
    {
        m_size++;
        if (!m_runs.empty())
        {
            Run& last = m_runs.back();
            if (last.count == 1)
            {
                last.stride = tag - last.first; // (mod 2^64)
                last.count = 2;
                return;
            }
            if (tag == last.first + last.stride * last.count)
            {
                last.count++;
                return;
            }
        }
        m_runs.push_back(Run{tag, 0, 1});
    }

  private:
    /// The tags first, first + stride, ..., first + stride * (count - 1) (mod 2^64)
    struct Run
    {
        uint64_t first;  //!< its first tag
        uint64_t stride; //!< difference of consecutive tags (count >= 2)
        uint64_t count;  //!< its tags (>= 1)
    };

    FrameFifo<Run> m_runs; //!< the runs, in order
    uint64_t m_size{0};    //!< tags queued
};

} // namespace ns3

#endif // TAG_RUN_QUEUE_H
