/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_HEADER_CONTEXTS_H
#define ROCE_HEADER_CONTEXTS_H

#include <cstdint>
#include <cstring>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The header fields a flow's queued frames share, each distinct set stored once
 * and reference-counted (RoceQueuedFrame's packed form keeps only an id).
 *
 * A queued frame of a flow at a hop repeats its addresses, QP, ports, P_Key, DSCP,
 * TTL, opcode, length (but for a message's last frame), IPv4 identification (0, or
 * an ACK's echoed hops) and the switch's ingress port and priority: 48 bytes the
 * same for every frame of the flow waiting at that hop. A fat-tree permutation queues ~600 frames
 * per host at once (4.9 M at 8,192 hosts), so the shared part is stored once per distinct set (a
 * few per flow and hop) and each frame keeps a 32-bit id. Ids do not reach any output: the frame
 * given back is the same field for field.
 *
 * A set whose last frame left stays in the table (the flow's next frame is likely to
 * want it again) until the unused sets outnumber the used ones and 4,096: then they
 * are all dropped at once, so the table is bounded by twice the sets in use.
 * Process-wide and never destroyed, like RoceQueuedFrame's whole-frame pool: a queue
 * emptied during static destruction may release its sets after any static object is
 * gone.
 */
class RoceHeaderContexts
{
  public:
    /// The shared fields (48 bytes, padding zeroed: compared and hashed as bytes).
    struct Key
    {
        uint32_t srcIp;      //!< IPv4 source
        uint32_t dstIp;      //!< IPv4 destination
        uint32_t destQp;     //!< bthOpcode << 24 | destQp
        uint32_t immOrMsn;   //!< ImmDt if present, else the AETH MSN
        uint16_t udpSrc;     //!< UDP source port
        uint16_t pKey;       //!< BTH P_Key
        uint16_t tci;        //!< pcp << 13 | vid
        uint16_t flags;      //!< RoceQueuedFrame's flags that hold for the set
        uint8_t dscp;        //!< DSCP
        uint8_t ttl;         //!< IPv4 TTL
        uint8_t dstMac[6];   //!< Ethernet destination
        uint8_t srcMac[6];   //!< Ethernet source
        uint16_t frameBytes; //!< the frame's length (a flow's frames share it but its last)
        uint16_t ipId;       //!< IPv4 identification
        uint16_t pad;        //!< zero
        uint32_t tag;        //!< the queue's tag for the frame (a switch: ingress port, PG)
    };

    static_assert(sizeof(Key) == 48, "a context key is 48 bytes");

    /// \return the id (never 0) of a set equal to \p key, its reference taken
    static uint32_t Acquire(const Key& key);

    /// \return the set of id \p id (taken by Acquire and not yet released)
    static const Key& Get(uint32_t id)
    {
        return s_table.entries[id].key;
    }

    /// Release the reference to set \p id (taken by Acquire).
    static void Release(uint32_t id)
    {
        if (--s_table.entries[id].refs == 0)
        {
            ++s_table.unused;
        }
    }

    /// \return the sets with a reference (in queued frames) at present
    static uint32_t GetUsed();

    /// \return the sets stored (used, and unused ones not yet dropped)
    static uint32_t GetStored();

  private:
    /// One stored set.
    struct Entry
    {
        Key key;       //!< the fields
        uint32_t refs; //!< queued frames holding it
        uint32_t next; //!< next entry of its bucket, or of the free list; 0 none
    };

    /// The table: plain data, never destroyed (see the class comment).
    struct Table
    {
        Entry* entries;    //!< by id; entry 0 unused (id 0 is "none")
        uint32_t* buckets; //!< first entry of each bucket, or 0
        uint32_t capacity; //!< entries allocated (ids < capacity)
        uint32_t made;     //!< ids handed out so far (entry 1 .. made)
        uint32_t mask;     //!< buckets - 1 (a power of two)
        uint32_t free;     //!< first dropped id to reuse, or 0
        uint32_t stored;   //!< entries in buckets
        uint32_t unused;   //!< of them, with no reference
    };

    static Table s_table; //!< the process's sets

    /// \return the hash of \p key
    static uint64_t Hash(const Key& key);
    /// Drop every set without a reference (their ids go to the free list).
    static void DropUnused();
    /// Double the buckets when the sets outnumber them.
    static void GrowBuckets();
};

} // namespace ns3

#endif // ROCE_HEADER_CONTEXTS_H
