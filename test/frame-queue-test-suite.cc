/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The frame queues of the data path: FrameFifo (NIC control frames, cable FIFOs)
 * and FramePool (a switch's egress queues) keep FIFO order per queue through
 * growth and interleaved use, reuse freed room, keep each frame's tag, and destroy
 * every frame once; a switch's queued frame (RoceQueuedFrame) with its link takes a
 * quarter of a line, and gives back every field, the frame's bytes, its ready time and
 * its tag.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/config.h"
#include "ns3/frame-fifo.h"
#include "ns3/frame-pool.h"
#include "ns3/global-value.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-header-contexts.h"
#include "ns3/roce-queued-frame.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
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

/**
 * 200,000 random pushes and pops over the 64 queues of \p ref (pushes outnumber pops
 * in the first half, then pops win: queues fill and drain), from generator state
 * \p seed. \p push(q, id) queues frame \p id on queue q; \p pop(q) checks and pops the
 * front of a non-empty queue q before \p ref drops it. \p queued is the backlog at the
 * end. \return the peak backlog
 */
template <class Push, class Pop>
std::size_t
DriveQueues(uint64_t seed,
            std::vector<std::deque<uint64_t>>& ref,
            std::size_t& queued,
            Push push,
            Pop pop)
{
    uint64_t state = seed;
    uint64_t id = 0;
    std::size_t peak = 0;
    queued = 0;
    for (int op = 0; op < 200000; ++op)
    {
        const uint32_t q = Next(state) % 64;
        const bool pushing = Next(state) % 100 < (op < 100000 ? 60u : 40u);
        if (pushing)
        {
            push(q, id);
            ref[q].push_back(id++);
            peak = std::max(peak, ++queued);
        }
        else if (!ref[q].empty())
        {
            pop(q);
            ref[q].pop_front();
            --queued;
        }
    }
    return peak;
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
            uint32_t wrong = 0;
            std::size_t queued = 0;
            const std::size_t peak = DriveQueues(
                7,
                ref,
                queued,
                [&](uint32_t q, uint64_t id) {
                    pool.EmplaceBackTagged(queues[q], static_cast<uint32_t>(id * 7), id);
                    fifos[q].emplace_back(id);
                },
                [&](uint32_t q) {
                    wrong += pool.Front(queues[q]).value != ref[q].front();
                    wrong += pool.FrontTag(queues[q]) != static_cast<uint32_t>(ref[q].front() * 7);
                    wrong += fifos[q].front().value != ref[q].front();
                    wrong += queues[q].size != ref[q].size();
                    wrong += fifos[q].size() != ref[q].size();
                    pool.PopFront(queues[q]);
                    fifos[q].pop_front();
                });
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
        {
            // Untagged: the links inside the slots, the same FIFO order and slot reuse.
            FramePool<Counted, false> pool;
            std::vector<FramePool<Counted, false>::Queue> queues(64);
            std::vector<std::deque<uint64_t>> ref(64);
            uint32_t wrong = 0;
            std::size_t queued = 0;
            const std::size_t peak = DriveQueues(
                11,
                ref,
                queued,
                [&](uint32_t q, uint64_t id) { pool.EmplaceBack(queues[q], id); },
                [&](uint32_t q) {
                    wrong += pool.Front(queues[q]).value != ref[q].front();
                    wrong += queues[q].size != ref[q].size();
                    pool.PopFront(queues[q]);
                });
            NS_TEST_ASSERT_MSG_EQ(wrong, 0, "FIFO order and sizes of every untagged queue");
            NS_TEST_ASSERT_MSG_EQ(Counted::s_alive,
                                  static_cast<int>(queued),
                                  "one live frame per queued entry");
            NS_TEST_ASSERT_MSG_EQ(pool.GetSlots(), peak, "no more slots than the peak backlog");
            uint32_t q0 = 0;
            while (ref[q0].empty())
            {
                ++q0;
            }
            const uint64_t last = ref[q0].back();
            NS_TEST_ASSERT_MSG_EQ(
                pool.AnyOf(queues[q0], [last](const Counted& c) { return c.value == last; }),
                true,
                "a queued frame is found");
        }
        NS_TEST_ASSERT_MSG_EQ(Counted::s_alive, 0, "every untagged frame destroyed exactly once");
    }
};

/**
 * The cause of issue #52's scale regression: a switch's queued frame grew from two
 * cache lines (128 bytes) to three (192) when the switch-latency change added the
 * frame's 8-byte ready time and the 3 bytes of ingress port and priority stayed in the
 * slot, so a fat-tree that queues millions of frames took half again the memory and
 * the cache lines per hop. A queued RoCEv2 frame now takes 12 bytes (RoceQueuedFrame,
 * packed, the fields its flow shares at the hop, its length, IP ID and ingress port and
 * priority in RoceHeaderContexts, its ready time in 32 bits) and a 4-byte link in the
 * slot: 16 bytes, a quarter of a line, where the whole parsed frame would take 136 (72
 * with the 64-byte packing before the shared fields, 40 with the 32-byte one, 24 with
 * the 16-byte frame and an 8-byte link and tag apart).
 */
class QueuedFrameBytesTestCase : public TestCase
{
  public:
    QueuedFrameBytesTestCase()
        : TestCase("A switch's queued frame takes a quarter of a cache line and its link")
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
                              "a parsed frame in a pool: its 128 bytes and an 8-byte link");
        NS_TEST_ASSERT_MSG_EQ(sizeof(RoceQueuedFrame), 12u, "a queued frame and its tag");
        NS_TEST_ASSERT_MSG_EQ((FramePool<RoceQueuedFrame, false>::BytesPerSlot()),
                              16u,
                              "a switch's queued frame: its 12 bytes and a 4-byte link, a "
                              "quarter of a cache line");
    }
};

/**
 * RoceQueuedFrame gives back exactly the frame it took: every view field (compared as
 * bytes, both views zero-filled first), the ready time, and the frame's bytes (the same
 * packet, one reference, released once); frames that do not fit one line (RETH, PFC,
 * IP, ImmDt with an AETH MSN) are kept whole and come back the same. The frames are the
 * NIC's own views (RoceFrame::Describe) of every opcode, with random header fields.
 */
class QueuedFrameRoundTripTestCase : public TestCase
{
  public:
    QueuedFrameRoundTripTestCase()
        : TestCase("A queued frame gives back every field, its bytes and its ready time")
    {
    }

  private:
    /// \return a view zero-filled, then described from \p f
    static RoceFrameView Described(const RoceFrameFields& f)
    {
        RoceFrameView v;
        std::memset(static_cast<void*>(&v), 0, sizeof(v));
        RoceFrame::Describe(f, v);
        return v;
    }

    /// Queue a frame of view \p v (with \p packet, if any) and take it back out.
    /// \return true if the view, the ready time and the packet came back unchanged
    static bool RoundTrip(const RoceFrameView& v,
                          int64_t ready,
                          Ptr<Packet> packet,
                          bool& fitted,
                          uint32_t tag = 0)
    {
        RoceParsedFrame in(packet, v);
        in.readyTicks = ready;
        RoceParsedFrame out;
        std::memset(static_cast<void*>(&out.view), 0, sizeof(out.view));
        {
            RoceQueuedFrame q(std::move(in), tag);
            fitted = !q.IsOverflow();
            if (q.GetFrameBytes() != v.frameBytes || q.GetReadyTicks() != ready ||
                q.GetTag() != tag || in.HasPacket())
            {
                return false;
            }
            if (q.MoveTo(out) != tag)
            {
                return false;
            }
        }
        const bool samePacket =
            packet ? out.HasPacket() && PeekPointer(out.GetPacket()) == PeekPointer(packet)
                   : !out.HasPacket();
        return std::memcmp(&out.view, &v, sizeof(v)) == 0 && out.readyTicks == ready && samePacket;
    }

    void DoRun() override
    {
        static const uint8_t OPCODES[] = {RdmaOpcode::SEND_FIRST,
                                          RdmaOpcode::SEND_MIDDLE,
                                          RdmaOpcode::SEND_LAST,
                                          RdmaOpcode::SEND_LAST_IMM,
                                          RdmaOpcode::SEND_ONLY,
                                          RdmaOpcode::SEND_ONLY_IMM,
                                          RdmaOpcode::WRITE_FIRST,
                                          RdmaOpcode::WRITE_MIDDLE,
                                          RdmaOpcode::WRITE_LAST,
                                          RdmaOpcode::WRITE_LAST_IMM,
                                          RdmaOpcode::WRITE_ONLY,
                                          RdmaOpcode::WRITE_ONLY_IMM,
                                          RdmaOpcode::READ_REQUEST,
                                          RdmaOpcode::READ_RESPONSE_FIRST,
                                          RdmaOpcode::READ_RESPONSE_MIDDLE,
                                          RdmaOpcode::READ_RESPONSE_LAST,
                                          RdmaOpcode::READ_RESPONSE_ONLY,
                                          RdmaOpcode::ACKNOWLEDGE,
                                          RoceFrame::CNP_OPCODE};
        // Every frame that fits packed (no whole-frame budget), as in a switch past it.
        const uint32_t budget = RoceQueuedFrame::SetWholeBudget(0);
        std::mt19937_64 rng(52);
        uint32_t wrong = 0;
        uint32_t fittedCount = 0;
        uint32_t overflowCount = 0;
        for (int i = 0; i < 4000; ++i)
        {
            RoceFrameFields f;
            f.opcode = OPCODES[rng() % (sizeof(OPCODES))];
            f.SetExtHeadersForOpcode();
            f.srcMac = Mac48Address::Allocate();
            f.dstMac = Mac48Address::Allocate();
            f.useVlan = rng() % 2 == 0;
            f.pcp = rng() % 8;
            f.dei = f.useVlan && rng() % 2 == 0;
            f.vid = f.useVlan ? rng() % 4096 : 0;
            f.srcIp = Ipv4Address(static_cast<uint32_t>(rng()));
            f.dstIp = Ipv4Address(static_cast<uint32_t>(rng()));
            f.dscp = rng() % 64;
            f.ecn = rng() % 4;
            f.ttl = rng() % 256;
            f.ipId = rng() % 65536;
            f.udpSrcPort = rng() % 65536;
            f.se = rng() % 2 == 0;
            f.migReq = rng() % 2 == 0;
            f.padCnt = rng() % 4;
            f.pKey = rng() % 65536;
            f.fecn = rng() % 2 == 0;
            f.becn = rng() % 2 == 0;
            f.ackReq = rng() % 2 == 0;
            f.destQp = rng() % (1U << 24);
            f.psn = rng() % (1U << 24);
            f.rethVa = f.hasReth ? rng() : 0;
            f.rethRKey = f.hasReth ? static_cast<uint32_t>(rng()) : 0;
            f.rethDmaLen = f.hasReth ? static_cast<uint32_t>(rng()) : 0;
            f.aethSyndrome = f.hasAeth ? rng() % 256 : 0;
            f.aethMsn = f.hasAeth ? rng() % (1U << 24) : 0;
            f.imm = f.hasImm ? static_cast<uint32_t>(rng()) : 0;
            f.payloadBytes = f.opcode == RdmaOpcode::ACKNOWLEDGE ||
                                     f.opcode == RoceFrame::CNP_OPCODE ||
                                     f.opcode == RdmaOpcode::READ_REQUEST
                                 ? 0
                                 : rng() % 4097;
            const RoceFrameView v = Described(f);
            const int64_t ready = (rng() % 2 == 0) ? 0 : static_cast<int64_t>(rng() >> 1);
            Ptr<Packet> packet = (rng() % 4 == 0) ? RoceFrame::Build(f) : nullptr;
            const uint32_t refs = packet ? packet->GetReferenceCount() : 0;
            bool fitted = false;
            const uint32_t tag = static_cast<uint32_t>(rng());
            wrong += !RoundTrip(v, ready, packet, fitted, tag);
            wrong += packet && packet->GetReferenceCount() != refs;
            // Packed: exactly the frames without a RETH (ImmDt and AETH are never
            // together) and without bytes (the packed form has no room for the pointer).
            wrong += fitted != (!f.hasReth && !packet);
            wrong += RoceQueuedFrame::Fits(v) != !f.hasReth;
            fittedCount += fitted;
            overflowCount += !fitted;
        }
        NS_TEST_ASSERT_MSG_EQ(wrong, 0, "every RoCEv2 frame comes back unchanged");
        NS_TEST_ASSERT_MSG_GT(fittedCount, 1000, "packed frames exercised");
        NS_TEST_ASSERT_MSG_GT(overflowCount, 100, "whole (RETH) frames exercised");

        // Views no NIC describes: a PFC frame, a TCP frame, ImmDt beside an AETH MSN.
        RoceFrameView pfc;
        std::memset(static_cast<void*>(&pfc), 0, sizeof(pfc));
        pfc.isPfc = true;
        pfc.etherType = 0x8808;
        pfc.frameBytes = 60;
        pfc.pfcEnableVector = 0x08;
        pfc.pfcPauseTime[3] = 0xFFFF;
        RoceFrameView tcp = Described(RoceFrameFields());
        tcp.isRoce = false;
        tcp.ipProtocol = RoceFrame::IP_PROTO_TCP;
        tcp.udpDst = 80;
        RoceFrameView both = Described(RoceFrameFields());
        both.hasImm = true;
        both.imm = 7;
        both.hasAeth = true;
        both.aethMsn = 9;
        // A data frame FctAttribution follows: its journey has no room in the packed form.
        RoceFrameFields data;
        data.opcode = RdmaOpcode::WRITE_MIDDLE;
        data.SetExtHeadersForOpcode();
        data.payloadBytes = 1000;
        RoceFrameView followed = Described(data);
        followed.journey = 42;
        for (const RoceFrameView* v : {&pfc, &tcp, &both, &followed})
        {
            bool fitted = true;
            NS_TEST_ASSERT_MSG_EQ(RoundTrip(*v, 5, nullptr, fitted), true, "kept whole");
            NS_TEST_ASSERT_MSG_EQ(fitted, false, "does not fit one line");
        }

        // A packed frame moved into a frame that held a followed one: no journey left.
        {
            RoceParsedFrame out(nullptr, followed);
            RoceQueuedFrame q(RoceParsedFrame(nullptr, Described(data)));
            NS_TEST_ASSERT_MSG_EQ(q.IsOverflow(), false, "an unfollowed frame is packed");
            q.MoveTo(out);
            NS_TEST_ASSERT_MSG_EQ(out.view.journey, 0, "the journey is not left over");
        }

        // Ready times: a packed frame keeps their low 31 bits and one of two epoch
        // entries (ready >> 31); a frame of a third epoch while both entries are held is
        // kept whole; every ready time comes back exact, and freed entries are reused.
        {
            const int64_t epoch = int64_t{1} << 31;
            const int64_t readies[] = {5, epoch + 7, 2 * epoch + 9, -3, 4 * epoch - 1, epoch + 8};
            const bool whole[] = {false, false, true, true, true, false};
            const uint32_t used = RoceHeaderContexts::GetUsed();
            std::vector<std::unique_ptr<RoceQueuedFrame>> queued;
            for (std::size_t i = 0; i < 6; ++i)
            {
                RoceParsedFrame in(nullptr, Described(data));
                in.readyTicks = readies[i];
                queued.push_back(std::make_unique<RoceQueuedFrame>(std::move(in)));
                NS_TEST_ASSERT_MSG_EQ(queued.back()->IsOverflow(), whole[i], "epoch entry");
                NS_TEST_ASSERT_MSG_EQ(queued.back()->GetReadyTicks(), readies[i], "ready time");
            }
            for (std::size_t i = 0; i < 6; ++i)
            {
                RoceParsedFrame out;
                queued[i]->MoveTo(out);
                NS_TEST_ASSERT_MSG_EQ(out.readyTicks, readies[i], "ready time unpacked");
            }
            queued.clear();
            // Both entries free again: two frames of other epochs are packed.
            RoceParsedFrame a(nullptr, Described(data));
            a.readyTicks = 6 * epoch;
            RoceQueuedFrame qa(std::move(a));
            RoceParsedFrame b(nullptr, Described(data));
            b.readyTicks = -2 * epoch - 1;
            RoceQueuedFrame qb(std::move(b));
            NS_TEST_ASSERT_MSG_EQ((qa.IsOverflow() || qb.IsOverflow()), false, "entries reused");
            NS_TEST_ASSERT_MSG_EQ(qb.GetReadyTicks(), -2 * epoch - 1, "a negative ready time");
            NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used + 1, "one header set");
        }

        // A packed frame destroyed without MoveTo gives its header set back.
        {
            const uint32_t used = RoceHeaderContexts::GetUsed();
            {
                RoceQueuedFrame q(RoceParsedFrame(nullptr, Described(data)));
                NS_TEST_ASSERT_MSG_EQ(q.IsOverflow(), false, "packed");
                NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used + 1, "a set held");
            }
            NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used, "released once");
        }

        // A queued frame destroyed without MoveTo (a discarded queue) releases its
        // packet once, packed or whole.
        for (bool reth : {false, true})
        {
            RoceFrameFields f;
            f.opcode = reth ? RdmaOpcode::WRITE_FIRST : RdmaOpcode::WRITE_MIDDLE;
            f.SetExtHeadersForOpcode();
            f.payloadBytes = 1000;
            Ptr<Packet> packet = RoceFrame::Build(f);
            const uint32_t refs = packet->GetReferenceCount();
            {
                RoceQueuedFrame q(RoceParsedFrame(packet, Described(f)));
                NS_TEST_ASSERT_MSG_EQ(packet->GetReferenceCount(), refs + 1, "held while queued");
                NS_TEST_ASSERT_MSG_EQ(q.IsOverflow(), true, "a frame with bytes is kept whole");
            }
            NS_TEST_ASSERT_MSG_EQ(packet->GetReferenceCount(), refs, "released once");
        }
        RoceQueuedFrame::SetWholeBudget(budget);
    }
};

/**
 * The whole-frame budget: while fewer than the budget's frames are kept whole, a
 * frame that fits is kept whole too (two copies, not pack and unpack); past it, frames
 * are packed; a frame taken out gives its room back. Either way the frame comes back
 * the same.
 */
class QueuedFrameBudgetTestCase : public TestCase
{
  public:
    QueuedFrameBudgetTestCase()
        : TestCase("Queued frames are kept whole up to the budget, packed beyond it")
    {
    }

  private:
    void DoRun() override
    {
        // (Frames another test left queued count against the budget too.)
        const uint32_t before = RoceQueuedFrame::GetWholeFrames();
        const uint32_t budget = RoceQueuedFrame::SetWholeBudget(before + 3);
        RoceFrameFields f;
        f.opcode = RdmaOpcode::WRITE_MIDDLE;
        f.SetExtHeadersForOpcode();
        std::vector<std::unique_ptr<RoceQueuedFrame>> queued;
        for (uint32_t i = 0; i < 5; ++i)
        {
            f.psn = 100 + i;
            f.payloadBytes = 1000 + i;
            RoceParsedFrame in(nullptr, RoceFrame::BuildParsed(f).view);
            in.readyTicks = 7 + i;
            queued.push_back(std::make_unique<RoceQueuedFrame>(std::move(in)));
            NS_TEST_ASSERT_MSG_EQ(queued.back()->IsOverflow(), (i < 3), "whole up to the budget");
            NS_TEST_ASSERT_MSG_EQ(queued.back()->GetFrameBytes(),
                                  RoceFrame::BuildParsed(f).view.frameBytes,
                                  "its bytes, whole or packed");
        }
        NS_TEST_ASSERT_MSG_EQ(RoceQueuedFrame::GetWholeFrames(), before + 3, "three kept whole");
        // The GlobalValue sets the budget (as RoceFabricHelper::Install applies it).
        UintegerValue global;
        GlobalValue::GetValueByName("RoceQueuedFrameWholeBudget", global);
        Config::SetGlobal("RoceQueuedFrameWholeBudget", UintegerValue(before + 7));
        RoceQueuedFrame::ApplyWholeBudgetGlobalValue();
        NS_TEST_ASSERT_MSG_EQ(RoceQueuedFrame::SetWholeBudget(before + 3),
                              before + 7,
                              "the GlobalValue's budget applied");
        Config::SetGlobal("RoceQueuedFrameWholeBudget", global);
        RoceParsedFrame out;
        queued[0]->MoveTo(out);
        NS_TEST_ASSERT_MSG_EQ(out.view.psn, 100, "the first frame back");
        NS_TEST_ASSERT_MSG_EQ(out.readyTicks, 7, "with its ready time");
        NS_TEST_ASSERT_MSG_EQ(RoceQueuedFrame::GetWholeFrames(), before + 2, "its room given back");
        f.psn = 200;
        RoceQueuedFrame again(RoceParsedFrame(nullptr, RoceFrame::BuildParsed(f).view));
        NS_TEST_ASSERT_MSG_EQ(again.IsOverflow(), true, "under the budget again: whole");
        for (uint32_t i = 1; i < 5; ++i)
        {
            queued[i]->MoveTo(out);
            NS_TEST_ASSERT_MSG_EQ(out.view.psn, 100 + i, "each frame back, whole or packed");
            NS_TEST_ASSERT_MSG_EQ(out.readyTicks, 7 + i, "with its ready time");
        }
        queued.clear();
        NS_TEST_ASSERT_MSG_EQ(RoceQueuedFrame::GetWholeFrames(),
                              before + 1,
                              "only the last one whole");
        RoceQueuedFrame::SetWholeBudget(budget);
    }
};

/**
 * The fields a flow's packed frames share are stored once (RoceHeaderContexts): a
 * thousand frames of one flow at a hop hold one set, frames of another flow, another
 * IP ID or another tag their own,
 * every frame comes back field for field, and the sets with no frame left are
 * dropped once they outnumber the used ones (the table stays bounded).
 */
class QueuedFrameSharedFieldsTestCase : public TestCase
{
  public:
    QueuedFrameSharedFieldsTestCase()
        : TestCase("Queued frames of a flow share one stored header set, dropped when unused")
    {
    }

  private:
    /// \return a WRITE_MIDDLE view of QP \p qp, PSN \p psn, zero-filled first, with
    /// IP ID \p ipId (a flow's frames share theirs: 0, or an ACK's echoed hops)
    static RoceFrameView Data(uint32_t qp, uint32_t psn, uint16_t ipId = 0)
    {
        RoceFrameFields f;
        f.opcode = RdmaOpcode::WRITE_MIDDLE;
        f.SetExtHeadersForOpcode();
        f.payloadBytes = 1000;
        f.destQp = qp;
        f.psn = psn;
        f.ipId = ipId;
        f.ecn = psn % 4;
        f.srcIp = Ipv4Address(0x0A000000U + qp);
        RoceFrameView v;
        std::memset(static_cast<void*>(&v), 0, sizeof(v));
        RoceFrame::Describe(f, v);
        return v;
    }

    void DoRun() override
    {
        const uint32_t budget = RoceQueuedFrame::SetWholeBudget(0);
        const uint32_t used = RoceHeaderContexts::GetUsed();
        std::vector<std::unique_ptr<RoceQueuedFrame>> queued;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            queued.push_back(
                std::make_unique<RoceQueuedFrame>(RoceParsedFrame(nullptr, Data(5, i))));
        }
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used + 1, "one set for the flow");
        queued.push_back(std::make_unique<RoceQueuedFrame>(RoceParsedFrame(nullptr, Data(6, 0))));
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used + 2, "another flow's own set");
        // The flow's frame with another IP ID, and one with another tag (a switch: another
        // ingress port or priority group): a set each.
        queued.push_back(
            std::make_unique<RoceQueuedFrame>(RoceParsedFrame(nullptr, Data(5, 1000, 77))));
        queued.push_back(
            std::make_unique<RoceQueuedFrame>(RoceParsedFrame(nullptr, Data(5, 1001)), 9));
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used + 4, "IP ID and tag shared");
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < queued.size(); ++i)
        {
            const RoceFrameView v = i < 1000    ? Data(5, i)
                                    : i == 1000 ? Data(6, 0)
                                    : i == 1001 ? Data(5, 1000, 77)
                                                : Data(5, 1001);
            RoceParsedFrame out;
            std::memset(static_cast<void*>(&out.view), 0, sizeof(out.view));
            wrong += queued[i]->GetTag() != (i == 1002 ? 9u : 0u);
            wrong += queued[i]->MoveTo(out) != (i == 1002 ? 9u : 0u);
            wrong += std::memcmp(&out.view, &v, sizeof(v)) != 0;
        }
        NS_TEST_ASSERT_MSG_EQ(wrong, 0, "every frame comes back unchanged, with its tag");
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used, "both sets released");
        queued.clear();
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used, "a moved-out slot holds none");

        // A queued frame destroyed without MoveTo releases its set.
        {
            RoceQueuedFrame q(RoceParsedFrame(nullptr, Data(7, 1)));
            NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used + 1, "held while queued");
        }
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used, "released by the destructor");

        // 20,000 flows one frame each, each gone before the next: the unused sets are
        // dropped past 4,096 and the used ones, so the table stays small.
        for (uint32_t qp = 100; qp < 20100; ++qp)
        {
            RoceQueuedFrame q(RoceParsedFrame(nullptr, Data(qp, qp)));
        }
        NS_TEST_ASSERT_MSG_LT_OR_EQ(RoceHeaderContexts::GetStored(),
                                    2 * used + 4098,
                                    "unused sets dropped: the table stays bounded");
        NS_TEST_ASSERT_MSG_EQ(RoceHeaderContexts::GetUsed(), used, "none left in use");
        RoceQueuedFrame::SetWholeBudget(budget);
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
        AddTestCase(new QueuedFrameRoundTripTestCase, AI_FABRIC_QUICK);
        AddTestCase(new QueuedFrameBudgetTestCase, AI_FABRIC_QUICK);
        AddTestCase(new QueuedFrameSharedFieldsTestCase, AI_FABRIC_QUICK);
    }
};

static FrameQueueTestSuite g_frameQueueTestSuite;
