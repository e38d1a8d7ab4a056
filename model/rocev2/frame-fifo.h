/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FRAME_FIFO_H
#define FRAME_FIFO_H

#include <algorithm>
#include <boost/circular_buffer.hpp>
#include <cstddef>
#include <utility>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An unbounded FIFO of frames in one ring (a boost::circular_buffer that
 * doubles its capacity when full).
 *
 * Why not std::deque: its 512-byte chunks hold only five parsed frames, and a
 * queue that fills and drains allocates and frees a chunk every five frames;
 * its 80-byte header is also where an empty() check lands, a cache line apart
 * from the rest of a port's state. A ring keeps the frames contiguous, grows to
 * the deepest backlog once and then never allocates.
 */
template <typename T>
class FrameFifo
{
  public:
    /// \return true if no frame is queued
    bool empty() const
    {
        return m_ring.empty();
    }

    /// \return the number of frames queued
    std::size_t size() const
    {
        return m_ring.size();
    }

    /// \return the oldest frame (the FIFO must not be empty)
    T& front()
    {
        return m_ring.front();
    }

    /// \return the oldest frame (the FIFO must not be empty)
    const T& front() const
    {
        return m_ring.front();
    }

    /// Append \p v, growing the ring when it is full.
    void push_back(T&& v)
    {
        if (m_ring.full())
        {
            m_ring.set_capacity(std::max<std::size_t>(INITIAL_CAPACITY, 2 * m_ring.capacity()));
        }
        m_ring.push_back(std::move(v));
    }

    /// Drop the oldest frame.
    void pop_front()
    {
        m_ring.pop_front();
    }

    /// Drop every frame (the capacity stays).
    void clear()
    {
        m_ring.clear();
    }

  private:
    static constexpr std::size_t INITIAL_CAPACITY = 8; //!< first allocation, in frames

    boost::circular_buffer<T> m_ring; //!< the frames, oldest at the front
};

} // namespace ns3

#endif // FRAME_FIFO_H
