/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-queued-frame.h"

#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/uinteger.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace ns3
{

static_assert(sizeof(RoceQueuedFrame) == 12,
              "a queued frame and a pool's link are a quarter of a cache line");

namespace
{

constexpr uint16_t ETHERTYPE_IPV4 = 0x0800; //!< EtherType of IPv4
constexpr uint8_t L3_OFFSET = 14;           //!< IPv4 header offset of an untagged frame
constexpr uint8_t L3_OFFSET_VLAN = 18;      //!< behind an 802.1Q tag

/// RoceQueuedFrame::Fits, inlined into the constructor (the 18 bytes of PFC fields
/// tested as three loads).
[[gnu::always_inline]] inline bool
FitsInline(const RoceFrameView& v)
{
    static_assert(offsetof(RoceFrameView, pfcPauseTime) ==
                      offsetof(RoceFrameView, pfcEnableVector) + 2,
                  "the PFC fields are contiguous");
    uint64_t pfc[2];
    uint16_t pfcLast;
    const char* p = reinterpret_cast<const char*>(&v.pfcEnableVector);
    std::memcpy(pfc, p, sizeof(pfc));
    std::memcpy(&pfcLast, p + sizeof(pfc), sizeof(pfcLast));
    const uint64_t reth = v.rethVa | v.rethRKey | v.rethDmaLen;
    const uint32_t other = v.hasImm ? v.aethMsn : v.imm;
    return v.isRoce && !v.isPfc && !v.hasReth && v.etherType == ETHERTYPE_IPV4 &&
           v.ipProtocol == RoceFrame::IP_PROTO_UDP && v.udpDst == RoceFrame::ROCEV2_UDP_PORT &&
           v.l3Offset == (v.hasVlan ? L3_OFFSET_VLAN : L3_OFFSET) && reth == 0 && other == 0 &&
           (v.destQp | v.psn) < (1U << 24) && v.frameBytes <= 0xFFFF && v.pcp <= 7 &&
           v.vid <= 0xFFF && v.padCnt <= 3 && (pfc[0] | pfc[1] | pfcLast) == 0 && v.journey == 0;
}

} // namespace

bool
RoceQueuedFrame::Fits(const RoceFrameView& v)
{
    return FitsInline(v);
}

RoceQueuedFrame::WholePool RoceQueuedFrame::s_whole{nullptr, nullptr, 0, 0, 4096};
RoceQueuedFrame::ReadyEpochs RoceQueuedFrame::s_epochs{{0, 0}, {0, 0}};

namespace
{

/// The whole-frame budget as ns-3 sets a process-wide value (Config::SetGlobal,
/// --RoceQueuedFrameWholeBudget on a script's CommandLine).
GlobalValue g_wholeBudget(
    "RoceQueuedFrameWholeBudget",
    "Frames kept whole in the switches' egress queues of the process before the next are "
    "packed into 16-byte slots with their links (RoceQueuedFrame): packing saves memory where "
    "millions of "
    "frames wait and costs ~280 instructions a frame. Default 4,096 frames (0.6 MB), our "
    "choice: BENCHMARKS.md's 8 MB medium-like run peaks at 2,960 and never packs. 0 packs "
    "every frame that fits. Read when a RoCEv2 fabric is installed.",
    UintegerValue(4096),
    MakeUintegerChecker<uint32_t>());

} // namespace

void
RoceQueuedFrame::ApplyWholeBudgetGlobalValue()
{
    UintegerValue v;
    g_wholeBudget.GetValue(v);
    SetWholeBudget(static_cast<uint32_t>(v.Get()));
}

uint32_t
RoceQueuedFrame::SetWholeBudget(uint32_t frames)
{
    const uint32_t before = s_whole.budget;
    s_whole.budget = frames;
    return before;
}

uint32_t
RoceQueuedFrame::GetWholeFrames()
{
    return s_whole.made - s_whole.freeCount;
}

uint32_t
RoceQueuedFrame::NewWhole()
{
    WholePool& w = s_whole;
    if (w.freeCount != 0)
    {
        return w.free[--w.freeCount];
    }
    // A new frame, and room on the free list for every frame made (never freed: the
    // pool lives to the end of the process).
    NS_ABORT_MSG_IF(w.made == NO_WHOLE, "RoceQueuedFrame: 2^32 - 1 whole frames");
    auto** frames = static_cast<RoceParsedFrame**>(
        std::realloc(static_cast<void*>(w.frames), sizeof(RoceParsedFrame*) * (w.made + 1)));
    NS_ABORT_MSG_IF(frames == nullptr, "RoceQueuedFrame: out of memory for the frame pool");
    w.frames = frames;
    auto* free = static_cast<uint32_t*>(
        std::realloc(static_cast<void*>(w.free), sizeof(uint32_t) * (w.made + 1)));
    NS_ABORT_MSG_IF(free == nullptr, "RoceQueuedFrame: out of memory for the frame pool");
    w.free = free;
    w.frames[w.made] = new RoceParsedFrame();
    return w.made++;
}

void
RoceQueuedFrame::TakeWhole(RoceParsedFrame& frame, uint32_t tag)
{
    Adopt(NewWhole(), frame, tag);
}

void
RoceQueuedFrame::Take(RoceParsedFrame& frame, uint32_t tag)
{
    const RoceFrameView& v = frame.view;
    // Whole: within the budget, a frame with bytes or an INT block (no room for the
    // pointer), or one the packed form cannot describe.
    if (s_whole.made - s_whole.freeCount < s_whole.budget || frame.m_held != 0 ||
        __builtin_expect(!FitsInline(v), false))
    {
        TakeWhole(frame, tag);
        return;
    }
    // The ready time's epoch entry: free, or naming this epoch already.
    const int64_t epoch = frame.readyTicks >> READY_LOW;
    const uint32_t e = static_cast<uint32_t>(epoch) & 1;
    ReadyEpochs& epochs = s_epochs;
    if (epochs.live[e] != 0 && epochs.epoch[e] != epoch)
    {
        TakeWhole(frame, tag);
        return;
    }
    RoceHeaderContexts::Key key;
    key.srcIp = v.srcIp;
    key.dstIp = v.dstIp;
    key.destQp = static_cast<uint32_t>(v.bthOpcode) << 24 | v.destQp;
    key.immOrMsn = v.hasImm ? v.imm : v.aethMsn;
    key.udpSrc = v.udpSrc;
    key.pKey = v.pKey;
    key.tci = static_cast<uint16_t>(v.pcp << 13 | v.vid);
    key.flags = static_cast<uint16_t>((v.isIpv4 ? F_IPV4 : 0) | (v.hasVlan ? F_VLAN : 0) |
                                      (v.hasImm ? F_IMM : 0) | (v.hasAeth ? F_AETH : 0) |
                                      (v.dei ? F_DEI : 0) | (v.migReq ? F_MIGREQ : 0) | F_ROCE);
    key.dscp = v.dscp;
    key.ttl = v.ttl;
    std::memcpy(key.dstMac, v.dstMac, sizeof(key.dstMac));
    std::memcpy(key.srcMac, v.srcMac, sizeof(key.srcMac));
    key.frameBytes = static_cast<uint16_t>(v.frameBytes);
    key.ipId = v.ipId;
    key.pad = 0;
    key.tag = tag;
    const uint32_t ctx = RoceHeaderContexts::Acquire(key);
    if (__builtin_expect(ctx >= (1U << (32 - CTX_SHIFT)), false))
    {
        RoceHeaderContexts::Release(ctx); // (16 M sets in use: no room for the id)
        TakeWhole(frame, tag);
        return;
    }
    epochs.epoch[e] = epoch;
    epochs.live[e]++;
    m_ctxBits = ctx << CTX_SHIFT | (v.fecn ? B_FECN : 0) | (v.becn ? B_BECN : 0) |
                (v.ackReq ? B_ACKREQ : 0) | (v.se ? B_SE : 0) | v.padCnt << PAD_SHIFT |
                (v.ecn & 3) << ECN_SHIFT;
    m_psn = static_cast<uint32_t>(v.aethSyndrome) << 24 | v.psn;
    m_ready =
        e << READY_LOW | static_cast<uint32_t>(frame.readyTicks & ((int64_t{1} << READY_LOW) - 1));
}

uint32_t
RoceQueuedFrame::Give(RoceParsedFrame& out)
{
    if (m_ctxBits == 0)
    {
        out.Release(); // (it held something: MoveTo's own path did not take it)
        return MoveTo(out);
    }
    out.Release();
    out.readyTicks = UnpackReady(m_ready);
    s_epochs.live[m_ready >> READY_LOW]--;
    const uint32_t ctx = m_ctxBits >> CTX_SHIFT;
    RoceFrameView& v = out.view;
    const RoceHeaderContexts::Key& key = RoceHeaderContexts::Get(ctx);
    const uint16_t f = key.flags;
    const uint8_t bits = static_cast<uint8_t>(m_ctxBits);
    const bool vlan = (f & F_VLAN) != 0;
    const bool imm = (f & F_IMM) != 0;
    v.frameBytes = key.frameBytes;
    v.srcIp = key.srcIp;
    v.dstIp = key.dstIp;
    v.udpSrc = key.udpSrc;
    v.udpDst = RoceFrame::ROCEV2_UDP_PORT;
    v.ipProtocol = RoceFrame::IP_PROTO_UDP;
    v.dscp = key.dscp;
    v.ecn = static_cast<uint8_t>(bits >> ECN_SHIFT);
    v.pcp = static_cast<uint8_t>(key.tci >> 13);
    v.isPfc = false;
    v.isIpv4 = (f & F_IPV4) != 0;
    v.isRoce = (f & F_ROCE) != 0;
    v.hasVlan = vlan;
    v.destQp = key.destQp & 0xFFFFFF;
    v.psn = m_psn & 0xFFFFFF;
    v.aethMsn = imm ? 0 : key.immOrMsn;
    v.imm = imm ? key.immOrMsn : 0;
    v.bthOpcode = static_cast<uint8_t>(key.destQp >> 24);
    v.aethSyndrome = static_cast<uint8_t>(m_psn >> 24);
    v.fecn = (bits & B_FECN) != 0;
    v.becn = (bits & B_BECN) != 0;
    v.ackReq = (bits & B_ACKREQ) != 0;
    v.hasReth = false;
    v.hasImm = imm;
    v.hasAeth = (f & F_AETH) != 0;
    v.rethVa = 0;
    v.rethRKey = 0;
    v.rethDmaLen = 0;
    v.etherType = ETHERTYPE_IPV4;
    v.vid = static_cast<uint16_t>(key.tci & 0xFFF);
    v.ipId = key.ipId;
    v.pKey = key.pKey;
    v.pfcEnableVector = 0;
    std::memset(v.pfcPauseTime, 0, sizeof(v.pfcPauseTime));
    std::memcpy(v.dstMac, key.dstMac, sizeof(key.dstMac));
    std::memcpy(v.srcMac, key.srcMac, sizeof(key.srcMac));
    v.l3Offset = vlan ? L3_OFFSET_VLAN : L3_OFFSET;
    v.ttl = key.ttl;
    v.padCnt = static_cast<uint8_t>((bits >> PAD_SHIFT) & 3);
    v.dei = (f & F_DEI) != 0;
    v.se = (bits & B_SE) != 0;
    v.migReq = (f & F_MIGREQ) != 0;
    v.journey = 0; // (a followed frame is never packed: Fits)
    const uint32_t tag = key.tag;
    RoceHeaderContexts::Release(ctx);
    m_ctxBits = 0;
    m_whole = NO_WHOLE;
    return tag;
}

void
RoceQueuedFrame::ReleaseHeld()
{
    if (m_ctxBits == 0)
    {
        s_whole.frames[m_whole]->Assign(RoceFrameView{}); // drops its bytes or INT block
        s_whole.free[s_whole.freeCount++] = m_whole;
    }
    else
    {
        RoceHeaderContexts::Release(m_ctxBits >> CTX_SHIFT);
        s_epochs.live[m_ready >> READY_LOW]--;
        m_ctxBits = 0;
    }
    m_whole = NO_WHOLE;
}

} // namespace ns3
