/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FRAME_FIFO_H
#define FRAME_FIFO_H

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An unbounded FIFO of frames in one ring that doubles when full (and takes no
 * memory until its first frame: a queue pair's rarely used queues cost 16 bytes, where
 * an empty std::deque holds a 512-byte chunk and its map).
 *
 * Why not std::deque: its 512-byte chunks hold only four parsed frames, so a
 * queue that fills and drains allocates and frees a chunk every four frames,
 * and its 80-byte header puts an empty() check a cache line away from the rest
 * of a port's state. Why not boost::circular_buffer (tried): its full() and
 * index arithmetic divide pointer differences by the element size on every
 * push. Here the capacity is a power of two and the ring two 32-bit indices:
 * a push or pop is a mask and a move; the ring grows to the deepest backlog
 * once and then never allocates.
 */
template <typename T>
class FrameFifo
{
  public:
    FrameFifo() = default;
    FrameFifo(const FrameFifo&) = delete;
    FrameFifo& operator=(const FrameFifo&) = delete;

    FrameFifo(FrameFifo&& other) noexcept
        : m_slots(std::move(other.m_slots)),
          m_mask(other.m_mask),
          m_head(other.m_head),
          m_size(other.m_size)
    {
        other.m_mask = 0;
        other.m_head = 0;
        other.m_size = 0;
    }

    ~FrameFifo()
    {
        clear();
    }

    /// \return true if no frame is queued
    bool empty() const
    {
        return m_size == 0;
    }

    /// \return the number of frames queued
    uint32_t size() const
    {
        return m_size;
    }

    /// \return the oldest frame (the FIFO must not be empty)
    T& front()
    {
        return *Slot(m_head);
    }

    /// \return the oldest frame (the FIFO must not be empty)
    const T& front() const
    {
        return *Slot(m_head);
    }

    /// \return the newest frame (the FIFO must not be empty)
    T& back()
    {
        return *Slot(m_head + m_size - 1);
    }

    /// Construct a frame at the back from \p args, growing the ring when it is full.
    template <typename... Args>
    T& emplace_back(Args&&... args)
    {
        if (m_size == Capacity())
        {
            Grow();
        }
        T* slot = Slot(m_head + m_size);
        new (slot) T(std::forward<Args>(args)...);
        ++m_size;
        // The next frame goes to the next slot, last written a lap of the ring ago and
        // long since evicted: ask for it now, for writing.
        const char* next = reinterpret_cast<const char*>(Slot(m_head + m_size));
        __builtin_prefetch(next, 1);
        __builtin_prefetch(next + sizeof(T) - 1, 1);
        return *slot;
    }

    /// Append \p v (moved from).
    void push_back(T&& v)
    {
        emplace_back(std::move(v));
    }

    /// Append a copy of \p v.
    void push_back(const T& v)
    {
        emplace_back(v);
    }

    /// Drop the oldest frame.
    void pop_front()
    {
        Slot(m_head)->~T();
        // Emptied: start again at slot 0, whose cache lines the last frames used, so
        // a queue that rarely holds more than a frame keeps reusing warm memory
        // instead of walking its whole ring.
        m_head = --m_size == 0 ? 0 : (m_head + 1) & m_mask;
    }

    /// Drop the newest frame.
    void pop_back()
    {
        Slot(m_head + m_size - 1)->~T();
        m_head = --m_size == 0 ? 0 : m_head;
    }

    /// Drop every frame (the capacity stays).
    void clear()
    {
        while (m_size != 0)
        {
            pop_front();
        }
    }

  private:
    /// First allocation, in frames: 8, or 2 of a frame of a cache line or more (a NIC's
    /// ACK and CNP queues rarely hold more than one or two: 8,192 NICs' two queues of
    /// eight 128-byte parsed frames took 16 MB of the k=32 permutation, issue #52).
    static constexpr uint32_t INITIAL_CAPACITY = sizeof(T) >= 64 ? 2 : 8;

    /// Raw storage for one frame.
    struct Storage
    {
        alignas(T) unsigned char bytes[sizeof(T)];
    };

    uint32_t Capacity() const
    {
        return m_slots ? m_mask + 1 : 0;
    }

    T* Slot(uint32_t i) const
    {
        return reinterpret_cast<T*>(m_slots[i & m_mask].bytes);
    }

    /// Double the ring (rare: only when the backlog reaches a new depth).
    void Grow()
    {
        const uint32_t capacity = Capacity() == 0 ? INITIAL_CAPACITY : 2 * Capacity();
        std::unique_ptr<Storage[]> slots(new Storage[capacity]);
        for (uint32_t i = 0; i < m_size; ++i)
        {
            T* from = Slot(m_head + i);
            new (slots[i].bytes) T(std::move(*from));
            from->~T();
        }
        m_slots = std::move(slots);
        m_mask = capacity - 1;
        m_head = 0;
    }

    std::unique_ptr<Storage[]> m_slots; //!< the ring, a power-of-two number of slots
    uint32_t m_mask{0};                 //!< capacity - 1
    uint32_t m_head{0};                 //!< slot of the oldest frame
    uint32_t m_size{0};                 //!< frames queued
};

} // namespace ns3

#endif // FRAME_FIFO_H
