/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header-contexts.h"

#include "ns3/abort.h"

#include <cstdlib>

namespace ns3
{

RoceHeaderContexts::Table RoceHeaderContexts::s_table{nullptr, nullptr, 0, 0, 0, 0, 0, 0};

namespace
{

constexpr uint32_t MIN_UNUSED_TO_DROP = 4096; //!< keep at least this many unused sets

/// \return \p p's next 8 bytes
inline uint64_t
Load64(const unsigned char* p)
{
    uint64_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

} // namespace

uint64_t
RoceHeaderContexts::Hash(const Key& key)
{
    // Six words, each mixed by a multiply (the key's padding is zero).
    const auto* p = reinterpret_cast<const unsigned char*>(&key);
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 6; ++i)
    {
        h = (h ^ Load64(p + 8 * i)) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
    }
    return h;
}

uint32_t
RoceHeaderContexts::Acquire(const Key& key)
{
    Table& t = s_table;
    if (t.buckets != nullptr)
    {
        for (uint32_t id = t.buckets[Hash(key) & t.mask]; id != 0; id = t.entries[id].next)
        {
            Entry& e = t.entries[id];
            if (std::memcmp(&e.key, &key, sizeof(Key)) == 0)
            {
                if (e.refs++ == 0)
                {
                    --t.unused;
                }
                return id;
            }
        }
    }
    if (t.unused > MIN_UNUSED_TO_DROP && t.unused > t.stored - t.unused)
    {
        DropUnused();
    }
    uint32_t id = t.free;
    if (id != 0)
    {
        t.free = t.entries[id].next;
    }
    else
    {
        id = ++t.made;
        NS_ABORT_MSG_IF(id == 0, "RoceHeaderContexts: more than 2^32 - 1 header sets");
        if (id >= t.capacity)
        {
            const uint32_t capacity = t.capacity == 0 ? 1024 : 2 * t.capacity;
            auto* grown = static_cast<Entry*>(
                std::realloc(static_cast<void*>(t.entries), sizeof(Entry) * capacity));
            NS_ABORT_MSG_IF(grown == nullptr, "RoceHeaderContexts: out of memory");
            t.entries = grown;
            t.capacity = capacity;
        }
    }
    if (t.stored + 1 > t.mask)
    {
        GrowBuckets(); // (also the first: no buckets yet)
    }
    Entry& e = t.entries[id];
    e.key = key;
    e.refs = 1;
    uint32_t& head = t.buckets[Hash(key) & t.mask];
    e.next = head;
    head = id;
    ++t.stored;
    return id;
}

void
RoceHeaderContexts::GrowBuckets()
{
    Table& t = s_table;
    const uint32_t count = t.buckets == nullptr ? 1024 : 2 * (t.mask + 1);
    auto* buckets = static_cast<uint32_t*>(std::calloc(count, sizeof(uint32_t)));
    NS_ABORT_MSG_IF(buckets == nullptr, "RoceHeaderContexts: out of memory");
    if (t.buckets != nullptr)
    {
        for (uint32_t b = 0; b <= t.mask; ++b)
        {
            for (uint32_t id = t.buckets[b]; id != 0;)
            {
                const uint32_t next = t.entries[id].next;
                uint32_t& head = buckets[Hash(t.entries[id].key) & (count - 1)];
                t.entries[id].next = head;
                head = id;
                id = next;
            }
        }
        std::free(t.buckets);
    }
    t.buckets = buckets;
    t.mask = count - 1;
}

void
RoceHeaderContexts::DropUnused()
{
    Table& t = s_table;
    for (uint32_t b = 0; b <= t.mask; ++b)
    {
        uint32_t* link = &t.buckets[b];
        while (*link != 0)
        {
            const uint32_t id = *link;
            Entry& e = t.entries[id];
            if (e.refs == 0)
            {
                *link = e.next;
                e.next = t.free;
                t.free = id;
                --t.stored;
            }
            else
            {
                link = &e.next;
            }
        }
    }
    t.unused = 0;
}

uint32_t
RoceHeaderContexts::GetUsed()
{
    return s_table.stored - s_table.unused;
}

uint32_t
RoceHeaderContexts::GetStored()
{
    return s_table.stored;
}

} // namespace ns3
