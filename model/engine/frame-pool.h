/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FRAME_POOL_H
#define FRAME_POOL_H

#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief FIFO queues of frames whose slots come from one shared pool, reused last
 * freed first.
 *
 * A switch's queues take their slots from its pool: the slot a frame is written
 * into is the one a frame left moments ago, still in cache, where a per-queue ring
 * writes into the slot it used a lap ago (long evicted on a busy port: a quarter of
 * a large fabric's cache misses were these writes). Each queue is a list through
 * its slots; a dequeue asks for the next frame's slot, so it is loaded by the time
 * the port pulls it. Slots live in fixed chunks: a frame does not move while the
 * pool grows.
 */
template <typename T>
class FramePool
{
  public:
    static constexpr uint32_t NIL = 0xFFFFFFFFU; //!< no slot

    /// One FIFO queue of the pool's frames.
    struct Queue
    {
        uint32_t head{NIL}; //!< oldest frame's slot, or NIL
        uint32_t tail{NIL}; //!< newest frame's slot, or NIL
        uint32_t size{0};   //!< frames queued
    };

    FramePool() = default;
    FramePool(const FramePool&) = delete;
    FramePool& operator=(const FramePool&) = delete;

    ~FramePool()
    {
        for (uint32_t i = 0; i < m_count; ++i)
        {
            if (m_used[i])
            {
                Value(i)->~T();
            }
        }
    }

    /// Construct a frame at the back of \p q from \p args.
    template <typename... Args>
    void EmplaceBack(Queue& q, Args&&... args)
    {
        const uint32_t i = Allocate();
        new (SlotAt(i).storage) T(std::forward<Args>(args)...);
        m_used[i] = 1;
        m_next[i] = NIL;
        if (q.tail == NIL)
        {
            q.head = i;
        }
        else
        {
            m_next[q.tail] = i;
        }
        q.tail = i;
        ++q.size;
    }

    /// \return the oldest frame of \p q (which must not be empty)
    T& Front(const Queue& q)
    {
        return *Value(q.head);
    }

    /// Drop the oldest frame of \p q and start loading the next one.
    void PopFront(Queue& q)
    {
        const uint32_t i = q.head;
        Value(i)->~T();
        m_used[i] = 0;
        q.head = m_next[i];
        if (q.head == NIL)
        {
            q.tail = NIL;
        }
        else
        {
            __builtin_prefetch(&SlotAt(q.head));
        }
        --q.size;
        m_next[i] = m_free;
        m_free = i;
    }

    /// \return true if \p pred holds for a frame of \p q (oldest first; stops at the first)
    template <typename Pred>
    bool AnyOf(const Queue& q, Pred pred) const
    {
        for (uint32_t i = q.head; i != NIL; i = m_next[i])
        {
            if (pred(*Value(i)))
            {
                return true;
            }
        }
        return false;
    }

    /// Drop every frame of \p q.
    void Clear(Queue& q)
    {
        while (q.size != 0)
        {
            PopFront(q);
        }
    }

  private:
    static constexpr uint32_t CHUNK = 256; //!< slots per allocation

    /// One slot: a frame's room, on whole cache lines (links and flags live apart,
    /// so a 128-byte frame takes two lines, not three).
    struct alignas(64) Slot
    {
        alignas(T) unsigned char storage[sizeof(T)]; //!< the frame
    };

    Slot& SlotAt(uint32_t i) const
    {
        return m_chunks[i / CHUNK][i % CHUNK];
    }

    T* Value(uint32_t i) const
    {
        return reinterpret_cast<T*>(SlotAt(i).storage);
    }

    /// \return a free slot: the last freed, or a new one
    uint32_t Allocate()
    {
        if (m_free != NIL)
        {
            const uint32_t i = m_free;
            m_free = m_next[i];
            return i;
        }
        if (m_count % CHUNK == 0)
        {
            m_chunks.emplace_back(new Slot[CHUNK]);
        }
        m_next.push_back(NIL);
        m_used.push_back(0);
        return m_count++;
    }

    std::vector<std::unique_ptr<Slot[]>> m_chunks; //!< the slots, CHUNK at a time
    std::vector<uint32_t> m_next;                  //!< per slot: next of its queue / free list
    std::vector<uint8_t> m_used;                   //!< per slot: holds a frame
    uint32_t m_count{0};                           //!< slots made so far
    uint32_t m_free{NIL};                          //!< free list head (last freed)
};

} // namespace ns3

#endif // FRAME_POOL_H
