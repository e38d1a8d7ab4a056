/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FRAME_POOL_H
#define FRAME_POOL_H

#include <cstddef>
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
 *
 * Each slot also carries a 32-bit tag its owner may set (EmplaceBackTagged), kept
 * beside the slot's link rather than in the slot: a switch's 16-byte queued frame
 * (RoceQueuedFrame) with its 3 bytes of ingress port and priority would take half a
 * cache line where the frame alone takes a quarter.
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
        // Slots on the free list hold no frame; every other made slot does.
        std::vector<bool> isFree(m_count, false);
        for (uint32_t i = m_free; i != NIL; i = LinkAt(i).next)
        {
            isFree[i] = true;
        }
        for (uint32_t i = 0; i < m_count; ++i)
        {
            if (!isFree[i])
            {
                Value(i)->~T();
            }
        }
    }

    /// Construct a frame at the back of \p q from \p args (its tag 0).
    template <typename... Args>
    void EmplaceBack(Queue& q, Args&&... args)
    {
        EmplaceBackTagged(q, 0, std::forward<Args>(args)...);
    }

    /// Construct a frame at the back of \p q from \p args, with tag \p tag (FrontTag).
    template <typename... Args>
    void EmplaceBackTagged(Queue& q, uint32_t tag, Args&&... args)
    {
        const uint32_t i = Allocate();
        new (SlotAt(i).storage) T(std::forward<Args>(args)...);
        LinkAt(i) = Link{NIL, tag};
        if (q.tail == NIL)
        {
            q.head = i;
        }
        else
        {
            LinkAt(q.tail).next = i;
        }
        q.tail = i;
        ++q.size;
    }

    /// \return the oldest frame of \p q (which must not be empty)
    T& Front(const Queue& q)
    {
        return *Value(q.head);
    }

    /// \return the tag of the oldest frame of \p q (which must not be empty)
    uint32_t FrontTag(const Queue& q) const
    {
        return LinkAt(q.head).tag;
    }

    /// Drop the oldest frame of \p q and start loading the next one.
    void PopFront(Queue& q)
    {
        const uint32_t i = q.head;
        Value(i)->~T();
        q.head = LinkAt(i).next;
        if (q.head == NIL)
        {
            q.tail = NIL;
        }
        else
        {
            __builtin_prefetch(&SlotAt(q.head));
        }
        --q.size;
        LinkAt(i).next = m_free;
        m_free = i;
    }

    /// \return true if \p pred holds for a frame of \p q (oldest first; stops at the first)
    template <typename Pred>
    bool AnyOf(const Queue& q, Pred pred) const
    {
        for (uint32_t i = q.head; i != NIL; i = LinkAt(i).next)
        {
            if (pred(*Value(i)))
            {
                return true;
            }
        }
        return false;
    }

    /// \return true if \p pred holds for the tag of a frame of \p q (oldest first)
    template <typename Pred>
    bool AnyTag(const Queue& q, Pred pred) const
    {
        for (uint32_t i = q.head; i != NIL; i = LinkAt(i).next)
        {
            if (pred(LinkAt(i).tag))
            {
                return true;
            }
        }
        return false;
    }

    /// \return the slots made so far (the most frames queued at once)
    uint32_t GetSlots() const
    {
        return m_count;
    }

    /// \return the bytes one slot takes: its room and its link
    static constexpr std::size_t BytesPerSlot()
    {
        return sizeof(Chunk) / CHUNK;
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

    /// A slot's alignment: whole cache lines for a frame of 33 bytes or more (links
    /// and tags live apart, so a 128-byte frame takes two lines, not three), half a
    /// line for one of 17 to 32 bytes, a quarter for one of 16 bytes or fewer (none split).
    static constexpr std::size_t SLOT_ALIGN = sizeof(T) <= 16 ? 16 : sizeof(T) <= 32 ? 32 : 64;

    /// One slot: a frame's room (SLOT_ALIGN).
    struct alignas(SLOT_ALIGN) Slot
    {
        alignas(T) unsigned char storage[sizeof(T)]; //!< the frame
    };

    /// A slot's link and tag, together: a dequeue reads both from one line.
    struct Link
    {
        uint32_t next; //!< next slot of its queue or of the free list, or NIL
        uint32_t tag;  //!< EmplaceBackTagged's tag
    };

    /// CHUNK slots and their links, allocated together: the pool grows without
    /// moving a frame or copying the links, and without a vector's spare room.
    struct Chunk
    {
        Slot slots[CHUNK]; //!< the frames' room
        Link links[CHUNK]; //!< their links and tags
    };

    Slot& SlotAt(uint32_t i) const
    {
        return m_chunks[i / CHUNK]->slots[i % CHUNK];
    }

    Link& LinkAt(uint32_t i) const
    {
        return m_chunks[i / CHUNK]->links[i % CHUNK];
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
            m_free = LinkAt(i).next;
            return i;
        }
        if (m_count % CHUNK == 0)
        {
            m_chunks.emplace_back(new Chunk);
        }
        return m_count++;
    }

    std::vector<std::unique_ptr<Chunk>> m_chunks; //!< the slots, CHUNK at a time
    uint32_t m_count{0};                          //!< slots made so far
    uint32_t m_free{NIL};                         //!< free list head (last freed)
};

} // namespace ns3

#endif // FRAME_POOL_H
