/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The frame queues of the data path: FrameFifo (NIC control frames, cable FIFOs)
 * and FramePool (a switch's egress queues) keep FIFO order per queue through
 * growth and interleaved use, reuse freed room, keep each frame's tag, and destroy
 * every frame once; a switch's queued frame takes two cache lines and its link.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/frame-fifo.h"
#include "ns3/frame-pool.h"
#include "ns3/roce-frame.h"

#include <cstdint>
#include <deque>
#include <vector>

using namespace ns3;

namespace
{

/// A frame stand-in that counts its live copies.
struct Counted
{
    static int s_alive; //!< constructed and not destroyed

    explicit Counted(uint64_t v)
        : value(v)
    {
        ++s_alive;
    }

    Counted(Counted&& o) noexcept
        : value(o.value)
    {
        ++s_alive;
    }

    ~Counted()
    {
        --s_alive;
    }

    uint64_t value;    //!< its identity
    uint8_t pad[56]{}; //!< a frame's size, more or less
};

int Counted::s_alive = 0;

/// A small deterministic generator.
uint64_t
Next(uint64_t& state)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
}

} // namespace

/**
 * 64 queues of one FramePool and 64 FrameFifos, driven by the same random pushes
 * and pops, against std::deque references: every pop returns the reference's
 * front, the pool reuses slots (it never holds more than the peak backlog), and
 * every frame is destroyed exactly once, also those left queued at the end.
 */
class FrameQueueTestCase : public TestCase
{
  public:
    FrameQueueTestCase()
        : TestCase("FrameFifo and FramePool keep FIFO order and destroy each frame once")
    {
    }

  private:
    void DoRun() override
    {
        {
            FramePool<Counted> pool;
            std::vector<FramePool<Counted>::Queue> queues(64);
            std::vector<FrameFifo<Counted>> fifos(64);
            std::vector<std::deque<uint64_t>> ref(64);
            uint64_t state = 7;
            uint64_t id = 0;
            uint32_t wrong = 0;
            std::size_t queued = 0;
            std::size_t peak = 0;
            for (int op = 0; op < 200000; ++op)
            {
                const uint32_t q = Next(state) % 64;
                // Pushes outnumber pops early, then pops win: queues fill and drain.
                const bool push = Next(state) % 100 < (op < 100000 ? 60u : 40u);
                if (push)
                {
                    pool.EmplaceBackTagged(queues[q], static_cast<uint32_t>(id * 7), id);
                    fifos[q].emplace_back(id);
                    ref[q].push_back(id);
                    ++id;
                    peak = std::max(peak, ++queued);
                }
                else if (!ref[q].empty())
                {
                    wrong += pool.Front(queues[q]).value != ref[q].front();
                    wrong += pool.FrontTag(queues[q]) != static_cast<uint32_t>(ref[q].front() * 7);
                    wrong += fifos[q].front().value != ref[q].front();
                    wrong += queues[q].size != ref[q].size();
                    wrong += fifos[q].size() != ref[q].size();
                    pool.PopFront(queues[q]);
                    fifos[q].pop_front();
                    ref[q].pop_front();
                    --queued;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(wrong, 0, "FIFO order and sizes of every queue");
            NS_TEST_ASSERT_MSG_EQ(Counted::s_alive,
                                  static_cast<int>(2 * queued),
                                  "one live frame per queued entry, in each structure");
            NS_TEST_ASSERT_MSG_GT(peak, 5000, "deep backlogs exercised");
            NS_TEST_ASSERT_MSG_EQ(pool.GetSlots(), peak, "no more slots than the peak backlog");
            // AnyTag finds the tag of a queued frame and not one of a popped frame.
            uint32_t q0 = 0;
            while (ref[q0].size() < 2)
            {
                ++q0;
            }
            const uint64_t last = ref[q0].back();
            NS_TEST_ASSERT_MSG_EQ(
                pool.AnyTag(queues[q0],
                            [last](uint32_t t) { return t == static_cast<uint32_t>(last * 7); }),
                true,
                "a queued frame's tag is found");
            NS_TEST_ASSERT_MSG_EQ(
                pool.AnyTag(queues[q0], [](uint32_t t) { return t == 0xffffffffU; }),
                false,
                "no tag that was never given");
            for (uint32_t q = 0; q < 8; ++q)
            {
                pool.Clear(queues[q]);
                fifos[q].clear();
            }
            // The remaining 56 queues of each are destroyed with their containers.
        }
        NS_TEST_ASSERT_MSG_EQ(Counted::s_alive, 0, "every frame destroyed exactly once");
    }
};

/**
 * The cause of issue #52's scale regression: a switch's queued frame grew from two
 * cache lines (128 bytes) to three (192) when the switch-latency change added the
 * frame's 8-byte ready time and the 3 bytes of ingress port and priority stayed in the
 * slot, so a fat-tree that queues millions of frames took half again the memory and
 * the cache lines per hop. A queued RoCEv2 frame takes its two lines and an 8-byte
 * link (ingress port and priority in the link's tag).
 */
class QueuedFrameBytesTestCase : public TestCase
{
  public:
    QueuedFrameBytesTestCase()
        : TestCase("A switch's queued frame takes two cache lines and its link")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sizeof(RoceParsedFrame),
                                    128u,
                                    "a parsed RoCEv2 frame fits two cache lines");
        NS_TEST_ASSERT_MSG_EQ(FramePool<RoceParsedFrame>::BytesPerSlot(),
                              136u,
                              "a queued frame: its 128 bytes and an 8-byte link");
    }
};

class FrameQueueTestSuite : public TestSuite
{
  public:
    FrameQueueTestSuite()
        : TestSuite("ai-fabric-frame-queues", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new FrameQueueTestCase, AI_FABRIC_QUICK);
        AddTestCase(new QueuedFrameBytesTestCase, AI_FABRIC_QUICK);
    }
};

static FrameQueueTestSuite g_frameQueueTestSuite;
