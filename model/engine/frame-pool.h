/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FRAME_POOL_H
#define FRAME_POOL_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
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
 * \p Tagged: each slot also carries a 32-bit tag its owner may set
 * (EmplaceBackTagged), kept with the slot's link in an array beside the slots, so a
 * frame of a whole number of lines stays that many. Untagged, the link (a 32-bit
 * index) is in the slot: a 12-byte frame and its link take 16 bytes, a quarter of a
 * cache line, and a dequeue reads one line where the link apart would be a second.
 */
template <typename T, bool Tagged = true>
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
        for (uint32_t i = m_free; i != NIL; i = NextAt(i))
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

    /// Construct a frame at the back of \p q from \p args (its tag 0, if Tagged).
    template <typename... Args>
    void EmplaceBack(Queue& q, Args&&... args)
    {
        const uint32_t i = Allocate();
        new (SlotAt(i).storage) T(std::forward<Args>(args)...);
        if constexpr (Tagged)
        {
            LinkAt(i).tag = 0;
        }
        Append(q, i);
    }

    /// Construct a frame at the back of \p q from \p args, with tag \p tag (FrontTag).
    template <typename... Args>
    void EmplaceBackTagged(Queue& q, uint32_t tag, Args&&... args)
    {
        static_assert(Tagged, "an untagged FramePool keeps no tags");
        const uint32_t i = Allocate();
        new (SlotAt(i).storage) T(std::forward<Args>(args)...);
        LinkAt(i).tag = tag;
        Append(q, i);
    }

    /// \return the oldest frame of \p q (which must not be empty)
    T& Front(const Queue& q)
    {
        return *Value(q.head);
    }

    /// \return the tag of the oldest frame of \p q (which must not be empty)
    uint32_t FrontTag(const Queue& q) const
    {
        static_assert(Tagged, "an untagged FramePool keeps no tags");
        return LinkAt(q.head).tag;
    }

    /// Drop the oldest frame of \p q and start loading the next one.
    void PopFront(Queue& q)
    {
        const uint32_t i = q.head;
        Value(i)->~T();
        q.head = NextAt(i);
        if (q.head == NIL)
        {
            q.tail = NIL;
        }
        else
        {
            __builtin_prefetch(&SlotAt(q.head));
        }
        --q.size;
        NextAt(i) = m_free;
        m_free = i;
    }

    /// \return true if \p pred holds for a frame of \p q (oldest first; stops at the first)
    template <typename Pred>
    bool AnyOf(const Queue& q, Pred pred) const
    {
        for (uint32_t i = q.head; i != NIL; i = NextAt(i))
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
        static_assert(Tagged, "an untagged FramePool keeps no tags");
        for (uint32_t i = q.head; i != NIL; i = NextAt(i))
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

    /// A slot's alignment: whole cache lines for one of 33 bytes or more (Tagged: links
    /// and tags live apart, so a 128-byte frame takes two lines, not three), half a
    /// line for one of 17 to 32 bytes, a quarter for one of 16 bytes or fewer (none split).
    static constexpr std::size_t AlignFor(std::size_t bytes)
    {
        return bytes <= 16 ? 16 : bytes <= 32 ? 32 : 64;
    }

    /// A slot's link and tag (Tagged), together: a dequeue reads both from one line.
    struct Link
    {
        uint32_t next; //!< next slot of its queue or of the free list, or NIL
        uint32_t tag;  //!< EmplaceBackTagged's tag
    };

    /// Tagged: one slot is a frame's room.
    struct alignas(AlignFor(sizeof(T))) TaggedSlot
    {
        alignas(T) unsigned char storage[sizeof(T)]; //!< the frame
    };

    /// The room and link of an untagged slot, unaligned (for its size).
    struct InlineSlotBody
    {
        alignas(T) unsigned char storage[sizeof(T)]; //!< the frame
        uint32_t next; //!< next slot of its queue or of the free list, or NIL
    };

    /// Untagged: one slot is a frame's room and its link.
    struct alignas(AlignFor(sizeof(InlineSlotBody))) InlineSlot : InlineSlotBody
    {
    };

    using Slot = std::conditional_t<Tagged, TaggedSlot, InlineSlot>; //!< one slot

    /// Tagged: CHUNK slots and their links, allocated together: the pool grows without
    /// moving a frame or copying the links, and without a vector's spare room.
    struct TaggedChunk
    {
        Slot slots[CHUNK]; //!< the frames' room
        Link links[CHUNK]; //!< their links and tags
    };

    /// Untagged: CHUNK slots, their links within.
    struct InlineChunk
    {
        Slot slots[CHUNK]; //!< the frames' room and links
    };

    using Chunk = std::conditional_t<Tagged, TaggedChunk, InlineChunk>; //!< CHUNK slots

    Slot& SlotAt(uint32_t i) const
    {
        return m_chunks[i / CHUNK]->slots[i % CHUNK];
    }

    /// \return slot \p i's link and tag (Tagged)
    Link& LinkAt(uint32_t i) const
    {
        return m_chunks[i / CHUNK]->links[i % CHUNK];
    }

    /// \return slot \p i's link: the next slot of its queue or of the free list
    uint32_t& NextAt(uint32_t i) const
    {
        if constexpr (Tagged)
        {
            return LinkAt(i).next;
        }
        else
        {
            return SlotAt(i).next;
        }
    }

    T* Value(uint32_t i) const
    {
        return reinterpret_cast<T*>(SlotAt(i).storage);
    }

    /// Link slot \p i (holding a new frame) at the back of \p q.
    void Append(Queue& q, uint32_t i)
    {
        NextAt(i) = NIL;
        if (q.tail == NIL)
        {
            q.head = i;
        }
        else
        {
            NextAt(q.tail) = i;
        }
        q.tail = i;
        ++q.size;
    }

    /// \return a free slot: the last freed, or a new one
    uint32_t Allocate()
    {
        if (m_free != NIL)
        {
            const uint32_t i = m_free;
            m_free = NextAt(i);
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
