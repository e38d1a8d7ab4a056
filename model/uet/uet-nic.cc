/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-nic.h"

#include "uet-frame.h"
#include "uet-pds-header.h"
#include "uet-trimmer.h"

#include "ns3/aeth-header.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fct-attribution.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetNic");
NS_OBJECT_ENSURE_REGISTERED(UetNic);

TypeId
UetNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetNic")
            .SetParent<RoceNic>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetNic>()
            .AddAttribute("SprayEntropies",
                          "Entropy values (UDP source ports) each queue pair's data packets "
                          "cycle over, one per packet: UET's oblivious packet spraying (Ultra "
                          "Ethernet specification 1.0, PDS: the sender chooses an entropy "
                          "per packet). uet-htsim draws among 64 by default "
                          "(htsim/sim/datacenter/main_uec.cpp, path_entropy_size); these "
                          "are cycled in order, not drawn, so the switches' hash needs more "
                          "values to spread evenly: on a k=8 fat-tree permutation (300 KB "
                          "per host) 64 give 0.90 of line rate, 256 give 0.93 (measured, "
                          "doc/uet.md). Default 256.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&UetNic::m_sprayEntropies),
                          MakeUintegerChecker<uint32_t>(1, 16384))
            .AddAttribute("RetransmitTimeout",
                          "Each PDC's retransmission timeout (time): with nothing "
                          "acknowledged for this long, resend from the oldest "
                          "unacknowledged PSN (ns3::RdmaQueuePair::RetransmitTimeout of its "
                          "queue pair). Default 100 us: uet-htsim's minimum RTO "
                          "(htsim/sim/uec.h DEFAULT_UEC_RTO_MIN).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&UetNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("Reps",
                          "Recycle entropies (REPS, Bonato et al., \"REPS: Recycled Entropy "
                          "Packet Spraying for Adaptive Load Balancing and Failure "
                          "Mitigation\", 2024; uet-htsim's UecMpReps): a data packet takes "
                          "the earliest entropy whose ACK came back without the ECN mark and "
                          "was not reused yet, else the next of SprayEntropies. Default "
                          "false: on the k=8 fat-tree permutation (doc/uet.md) it measured "
                          "0.908 of line rate per flow (300 KB) and 0.879 (1 MB) against "
                          "oblivious spraying's 0.931 and 0.927, with ACKs coalesced or not; "
                          "REPS' freezing mode is not modelled.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UetNic::m_reps),
                          MakeBooleanChecker())
            .AddAttribute("RepsBufferSize",
                          "Entropies a PDC's REPS buffer holds (count). Default 8: "
                          "uet-htsim htsim/sim/buffer_reps.cpp (repsBufferSize).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&UetNic::m_repsBufferSize),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("PathPenaltyMax",
                          "Spray cycles a PDC skips an entropy after a packet sent on it was "
                          "lost (the receiver's NACK with RCVR_INFER_LOSS names it): UET's "
                          "path-failure handling, as uet-htsim's bitmap spraying penalizes "
                          "an entropy (htsim/sim/uec_mp.cpp UecMpBitmap: a timeout sets the "
                          "maximum penalty; each pass of the cycle takes one off and skips "
                          "it). Default 15: uet-htsim's _max_penalty. 0: off (every entropy "
                          "stays in use).",
                          UintegerValue(15),
                          MakeUintegerAccessor(&UetNic::m_pathPenaltyMax),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("Rccc",
                          "Receiver-credit congestion control (RCCC; Ultra Ethernet "
                          "specification 1.0, congestion management; uet-htsim's "
                          "-receiver_cc): a PDC sends only with credit (after a speculative "
                          "first window), its requests carry a credit target "
                          "(RUD_CC_REQ), and each receiving NIC grants credit at its line "
                          "rate in CREDIT control packets (ns3::RcccCreditGate, "
                          "ns3::RcccCreditPacer). On top of --cc (NSCC, or none). Default "
                          "false: uet-htsim runs sender-based NSCC alone unless asked.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UetNic::m_rccc),
                          MakeBooleanChecker())
            .AddAttribute("Sack",
                          "Selective acknowledgements (Ultra Ethernet specification 1.0, PDS: "
                          "ACK_CC with a SACK PSN offset and 64-bit SACK bitmap; field "
                          "layout as Wireshark's uet dissector): while the target holds "
                          "packets beyond the expected PSN its ACKs carry which of the 64 "
                          "PSNs from the SACK base arrived, and the source resends each one "
                          "shown missing below SackLossThreshold later arrivals without "
                          "waiting for a timeout. Default false: on the k=4 ring allreduce "
                          "with a failed cable (doc/uet.md) it ends at 1.08 ms against "
                          "13.37 ms, but on the 64 x 500 KB incast its last completion is "
                          "3.87 ms against 3.17 ms, not understood yet. false: cumulative "
                          "ACKs only (a NACK names the first hole).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&UetNic::m_sack),
                          MakeBooleanChecker())
            .AddAttribute("SackBytes",
                          "Out-of-order payload after which the target sends a SACK even "
                          "without an in-order ACK due (bytes). Default 16,384: uet-htsim "
                          "htsim/sim/uec.cpp (UecSink::_bytes_unacked_threshold).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&UetNic::m_sackBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SackLossThreshold",
                          "Later arrivals a SACK must show above a missing PSN before the "
                          "source resends it (packets, at most 63: the bitmap's width). "
                          "A packet resent already is lost again only if still missing two "
                          "base RTTs after its resend. Default 8, a model choice: on the "
                          "k=4 link failure (doc/uet.md) 4 gave 89 timeouts, 8 gave 9, 16 "
                          "gave 111, 32 (the bitmap's half) 391; on the k=8 permutation 8 "
                          "resends 2,730 of 38,400 packets that were only late.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&UetNic::m_sackLossThreshold),
                          MakeUintegerChecker<uint32_t>(1, 63));
    return tid;
}

UetNic::UetNic()
    : m_sprayEntropies(256),
      m_rto(MicroSeconds(100)),
      m_reps(false),
      m_repsBufferSize(8),
      m_rccc(false),
      m_pathPenaltyMax(15),
      m_sack(false),
      m_sackBytes(16384),
      m_sackLossThreshold(8)
{
    m_rewriteFrames = true; // every frame leaves in UET's framing
}

void
UetNic::NotifyConstructionCompleted()
{
    RoceNic::NotifyConstructionCompleted();
    // Here, not in the constructor: the trace source is found by the instance's TypeId,
    // which the object factory sets after construction.
    TraceConnectWithoutContext("QpCreated", MakeCallback(&UetNic::ConfigureQueuePair, this));
}

UetNic::~UetNic() = default;

void
UetNic::DoDispose()
{
    for (EventId& e : m_sackRecheck)
    {
        e.Cancel();
    }
    if (m_pacer)
    {
        m_pacer->Dispose();
        m_pacer = nullptr;
    }
    m_gates.clear();
    RoceNic::DoDispose();
}

void
UetNic::ConfigureQueuePair(Ptr<RdmaQueuePair> qp)
{
    // Reordering is the rule under spraying: the receiver places in any order (RUD).
    qp->SetAttribute("Recovery", EnumValue(RdmaQueuePair::SELECTIVE_REPEAT));
    qp->SetAttribute("NicEntropy", UintegerValue(m_sprayEntropies));
    qp->SetAttribute("EntropyBurst", UintegerValue(1));
    qp->SetAttribute("RetransmitTimeout", TimeValue(m_rto));
    m_pdcOf[PdcKey(qp->GetPeerHost(), qp->GetPeerQpn())] = qp->GetLocalQpn();
    const uint32_t slot = QpnSlot(qp->GetLocalQpn());
    if (slot >= m_established.size())
    {
        m_established.resize(slot + 1, false);
    }
    m_established[slot] = false; // a new PDC (a reused QPN starts over)
    if (slot >= m_repsBuffers.size())
    {
        m_repsBuffers.resize(slot + 1);
    }
    if (slot >= m_oooBytes.size())
    {
        m_oooBytes.resize(slot + 1, 0);
        m_sackRecheck.resize(slot + 1);
    }
    m_sackRecheck[slot].Cancel();
    m_oooBytes[slot] = 0;
    m_repsBuffers[slot] = RepsBuffer{std::vector<uint16_t>(m_reps ? m_repsBufferSize : 0), 0, 0};
    if (slot >= m_paths.size())
    {
        m_paths.resize(slot + 1);
    }
    if (m_paths[slot])
    {
        // (a reused QPN: the released PDC's counts stay in the NIC's)
        m_pathPenalties += m_paths[slot]->GetPenalized();
        m_pathsAvoided += m_paths[slot]->GetAvoided();
    }
    m_paths[slot] =
        m_pathPenaltyMax != 0 && m_sprayEntropies > 1
            ? std::make_unique<UetPathPenalty>(m_sprayEntropies, qp->GetEntropy(), m_pathPenaltyMax)
            : nullptr;
    if (m_paths[slot])
    {
        qp->TraceConnectWithoutContext("RetransmitTimeout",
                                       MakeCallback(&UetNic::PdcTimedOut, this));
    }
    if (m_rccc)
    {
        ConfigureRccc(*qp, slot);
    }
    NS_LOG_LOGIC("host " << GetHostIndex() << " PDC " << qp->GetLocalQpn() << ": "
                         << m_sprayEntropies << " entropies, selective repeat");
}

void
UetNic::PdcTimedOut(Ptr<const RdmaQueuePair> qp, uint64_t psn)
{
    const uint32_t slot = QpnSlot(qp->GetLocalQpn());
    if (slot < m_paths.size() && m_paths[slot])
    {
        m_paths[slot]->OnLoss(static_cast<uint32_t>(psn)); // (uet-htsim: PATH_TIMEOUT)
    }
}

void
UetNic::ConfigureRccc(RdmaQueuePair& qp, uint32_t slot)
{
    const Ptr<RdmaCongestionControl> inner = qp.GetCongestionControl();
    const RdmaCcContext ctx = inner ? inner->GetContext() : RdmaCcContext{};
    Ptr<RcccCreditGate> gate = CreateObject<RcccCreditGate>();
    gate->Wrap(inner, &qp.GetRequester());
    qp.SetCongestionControl(gate, ctx);
    if (slot >= m_gates.size())
    {
        m_gates.resize(slot + 1);
    }
    m_gates[slot] = gate;
    if (!m_pacer)
    {
        m_pacer = CreateObject<RcccCreditPacer>();
        m_pacer->Configure(ctx.lineRate,
                           GetMtu(),
                           gate->GetQuantum(),
                           MakeCallback(&UetNic::SendCredit, this));
    }
    m_pacer->Reset(slot);
}

void
UetNic::SendCredit(uint32_t slot, uint32_t granted)
{
    if (slot < m_qps.size() && m_qps[slot])
    {
        QueueAethFrame(*m_qps[slot], 0, granted, UetFrame::CREDIT_SYNDROME);
    }
}

void
UetNic::RewriteData(const RdmaQueuePair& qp, const RdmaSegment& s, RoceParsedFrame& frame)
{
    const uint32_t slot = QpnSlot(qp.GetLocalQpn());
    UetFrame::SesInfo info;
    info.spdcid = static_cast<uint16_t>(qp.GetLocalQpn());
    info.syn = slot >= m_established.size() || !m_established[slot];
    info.synPsnOffset = static_cast<uint16_t>(s.psn); // the PDC starts at PSN 0
    info.retransmission = s.retransmission;
    // The message's first PSN names it (16 bits: unique among a PDC's open messages).
    info.messageId = static_cast<uint16_t>(s.psn - s.offset / GetMtu());
    info.offset = s.offset;
    info.messageBytes = s.messageBytes;
    info.initiator = GetHostIndex();
    if (slot < m_paths.size() && m_paths[slot])
    {
        frame.view.udpSrc = m_paths[slot]->Choose(frame.view.udpSrc, s.psn);
    }
    if (m_rccc && slot < m_gates.size() && m_gates[slot])
    {
        info.ccState = true;
        info.creditTarget = m_gates[slot]->GetCreditTarget();
    }
    if (m_reps && slot < m_repsBuffers.size() && m_repsBuffers[slot].fresh != 0)
    {
        // The earliest fresh entropy of the ring (REPS), used once.
        RepsBuffer& b = m_repsBuffers[slot];
        const auto n = static_cast<uint32_t>(b.ring.size());
        frame.view.udpSrc = b.ring[(b.head + n - b.fresh) % n];
        b.fresh--;
        m_repsRecycled++;
    }
    UetFrame::EncodeData(frame, info);
}

void
UetNic::RewriteControl(RoceParsedFrame& frame)
{
    if (frame.view.bthOpcode != RdmaOpcode::ACKNOWLEDGE)
    {
        return; // (a CNP: --fabric=uet refuses the algorithms that send them)
    }
    if (m_echoEntropy != 0)
    {
        // An ACK or NACK answering a request goes back on the request's entropy (as
        // uet-htsim's sink answers on the data packet's path id), so the answers spread
        // over the paths as the data does (and REPS reads the entropy back).
        frame.view.udpSrc = m_echoEntropy;
    }
    const auto it = m_pdcOf.find(PdcKey(RoceNic::HostIndexOf(frame.view.dstIp), frame.view.destQp));
    const uint32_t local = it != m_pdcOf.end() ? it->second : 0;
    const uint32_t slot = QpnSlot(local);
    if (m_sack && it != m_pdcOf.end() && (frame.view.aethSyndrome & 0x60) == 0 &&
        slot < m_qps.size() && m_qps[slot] && m_qps[slot]->GetResponder().GetHeldPackets() != 0)
    {
        // An ACK_CC: which of the 64 PSNs from the SACK base arrived. The base follows
        // uet-htsim's (UecSink::sackBitmapBase): the request being answered and the 63
        // before it, never at or below the hole the cumulative ACK stops at.
        const RdmaResponder& r = m_qps[slot]->GetResponder();
        const uint64_t expected = r.GetExpectedPsn();
        uint64_t base = std::max(m_sackTrigger > 63 ? m_sackTrigger - 63 : 0, expected + 1);
        uint64_t bitmap = r.GetReceivedBitmap(base);
        if (bitmap == 0 && base != expected + 1)
        {
            base = expected + 1; // (a stale trigger: the held packets lie above the hole)
            bitmap = r.GetReceivedBitmap(base);
        }
        if (bitmap != 0)
        {
            m_oooBytes[slot] = 0;
            m_sacksSent++;
            UetFrame::EncodeControl(frame,
                                    static_cast<uint16_t>(local),
                                    true,
                                    static_cast<uint32_t>(base & 0xFFFFFF),
                                    bitmap);
            return;
        }
    }
    UetFrame::EncodeControl(frame, static_cast<uint16_t>(local));
}

void
UetNic::ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame)
{
    if (!UetFrame::IsUet(frame.view))
    {
        RoceNic::ReceiveFrame(dev, frame); // (IP of the host stack)
        return;
    }
    RoceFrameFields f;
    UetPdsHeader pds;
    if (!UetFrame::Decode(frame, f, pds))
    {
        NS_LOG_WARN("PDS type " << +pds.type << " not handled: dropped");
        return;
    }
    const uint32_t srcHost = RoceNic::HostIndexOf(frame.view.srcIp);
    const bool request = UetPdsHeader::IsRudRequest(pds.type);
    if (request && (pds.flags & UetPdsHeader::FLAG_SYN) != 0)
    {
        // No DPDCID yet: the PDC is the one of the source's SPDCID.
        const auto it = m_pdcOf.find(PdcKey(srcHost, pds.spdcid));
        if (it == m_pdcOf.end())
        {
            NS_LOG_WARN("SYN from host " << srcHost << " PDC " << pds.spdcid << ": no PDC");
            return;
        }
        f.destQp = it->second;
    }
    const uint32_t slot = QpnSlot(f.destQp);
    if (slot >= m_qps.size() || !m_qps[slot])
    {
        RoceNic::ReceiveFrame(dev, frame); // (counted as stale or unknown there)
        return;
    }
    RdmaQueuePair& qp = *m_qps[slot];
    if (pds.type == UetPdsHeader::CONTROL)
    {
        // RCCC: a CREDIT from the PDC's target (Decode passes no other control type).
        m_established[slot] = true;
        m_creditsReceived++;
        if (slot < m_gates.size() && m_gates[slot])
        {
            m_gates[slot]->ReceiveCredit(pds.ctlPayload);
        }
        return;
    }
    if (pds.type == UetPdsHeader::RUD_CC_REQ && m_pacer)
    {
        m_pacer->OnCreditTarget(slot, pds.creditTarget); // (a trimmed request's too)
    }
    if (!request)
    {
        m_established[slot] = true; // the target has the PDC: no more SYN
        if (pds.type == UetPdsHeader::ACK && (pds.flags & UetPdsHeader::FLAG_M) == 0 &&
            slot < m_repsBuffers.size() && !m_repsBuffers[slot].ring.empty())
        {
            // An unmarked ACK: its entropy's path is good; reuse it (REPS).
            RepsBuffer& b = m_repsBuffers[slot];
            const auto n = static_cast<uint32_t>(b.ring.size());
            b.ring[b.head] = frame.view.udpSrc;
            b.head = (b.head + 1) % n;
            b.fresh = std::min(b.fresh + 1, n);
        }
        if (pds.type == UetPdsHeader::NACK && pds.nackCode == UetPdsHeader::NACK_RCVR_INFER_LOSS &&
            slot < m_paths.size() && m_paths[slot])
        {
            m_paths[slot]->OnLoss(pds.psn); // its path may have failed
        }
        if (pds.type == UetPdsHeader::NACK && pds.nackCode == UetPdsHeader::NACK_TRIMMED)
        {
            m_trimNacksReceived++;
            qp.ReceiveTrimNack(f.psn);
            return;
        }
        if (pds.type == UetPdsHeader::ACK_CC && pds.sackBitmap != 0)
        {
            ReceiveSack(qp, slot, pds);
        }
    }
    else if (UetTrimmer::IsTrimmed(frame.view))
    {
        // A header without its payload: NACK it at once, deliver nothing.
        m_trimmedReceived++;
        if (__builtin_expect(frame.view.journey != 0, false))
        {
            GetAttribution()->Forget(frame.view.journey); // (its resend is followed anew)
        }
        QueueAethFrame(qp, f.psn, 0, TRIM_NACK_SYNDROME);
        return;
    }
    RoceFrameView v;
    RoceFrame::Describe(f, v);
    v.journey = frame.view.journey; // (attribution: the packet's, as it arrived)
    RoceParsedFrame decoded(v);
    m_echoEntropy = request ? frame.view.udpSrc : 0;
    if (request && m_sack)
    {
        // The request's PSN near the expected one (24 bits on the wire): the SACK base.
        const uint64_t expected = qp.GetResponder().GetExpectedPsn();
        const uint32_t ahead = (f.psn - static_cast<uint32_t>(expected)) & 0xFFFFFF;
        m_sackTrigger = ahead < 0x800000 ? expected + ahead : expected;
    }
    RoceNic::ReceiveFrame(dev, decoded);
    if (request && m_sack && slot < m_qps.size() && m_qps[slot])
    {
        CountOutOfOrder(*m_qps[slot], slot, f.payloadBytes);
    }
    m_echoEntropy = 0;
}

uint32_t
UetNic::GetFullPacketWireBytes() const
{
    RoceFrameFields f;
    f.opcode = RdmaOpcode::WRITE_MIDDLE;
    return RoceNic::GetFullPacketWireBytes() + UetFrame::DataHeaderBytes(false, m_rccc) -
           RoceFrame::HeaderBytes(f);
}

uint32_t
UetNic::GetAckWireBytes() const
{
    return UetFrame::MIN_FRAME_BYTES + RoceEthernetHeader::WIRE_OVERHEAD_BYTES;
}

RoceNic::IdealFraming
UetNic::GetIdealFraming() const
{
    return {UetFrame::DataHeaderBytes(false, m_rccc) + RoceEthernetHeader::WIRE_OVERHEAD_BYTES,
            0,
            0};
}

void
UetNic::CountOutOfOrder(RdmaQueuePair& qp, uint32_t slot, uint32_t payloadBytes)
{
    if (qp.GetResponder().GetHeldPackets() == 0)
    {
        m_oooBytes[slot] = 0; // in order: the RDMA core's ACKs say it all
        return;
    }
    m_oooBytes[slot] += payloadBytes;
    if (m_oooBytes[slot] >= m_sackBytes)
    {
        // (RewriteControl makes it an ACK_CC and restarts the count.)
        const uint64_t expected = qp.GetResponder().GetExpectedPsn();
        QueueAethFrame(qp,
                       static_cast<uint32_t>((expected - 1) & 0xFFFFFF),
                       0,
                       AethHeader::ResponderSyndrome(false));
    }
}

void
UetNic::ReceiveSack(RdmaQueuePair& qp, uint32_t slot, const UetPdsHeader& pds)
{
    const uint64_t bitmap = pds.sackBitmap;
    const uint32_t base = (pds.psn + pds.sackOffset) & 0xFFFFFF;
    const int top = 63 - __builtin_clzll(bitmap); // the highest PSN it shows arrived
    UetPathPenalty* paths = slot < m_paths.size() ? m_paths[slot].get() : nullptr;
    Time recheck = Time::Max();
    auto lost = [&](uint32_t psn) {
        Time at = Time::Max();
        const bool queued = qp.ReceiveSackLoss(psn, &at);
        recheck = std::min(recheck, at);
        if (queued)
        {
            m_sackLosses++;
            if (paths)
            {
                paths->OnLoss(psn); // its path may have failed
            }
        }
    };
    // The hole the cumulative ACK stops at, below every PSN the bitmap holds.
    if (static_cast<uint32_t>(__builtin_popcountll(bitmap)) >= m_sackLossThreshold)
    {
        lost((pds.psn + 1) & 0xFFFFFF);
    }
    for (int i = 0; i < top; ++i)
    {
        if (((bitmap >> i) & 1) == 0 &&
            static_cast<uint32_t>(__builtin_popcountll(bitmap >> (i + 1))) >= m_sackLossThreshold)
        {
            lost((base + i) & 0xFFFFFF);
        }
    }
    if (recheck != Time::Max() && !m_sackRecheck[slot].IsRunning())
    {
        // A hole not yet old enough to be lost: look at this SACK again then (no later
        // SACK may come: the window can be full of packets above the hole).
        m_sackRecheck[slot] = Simulator::Schedule(recheck - Simulator::Now(),
                                                  &UetNic::RecheckSack,
                                                  this,
                                                  qp.GetLocalQpn(),
                                                  pds);
    }
}

void
UetNic::RecheckSack(uint32_t qpn, UetPdsHeader pds)
{
    const uint32_t slot = QpnSlot(qpn);
    if (slot < m_qps.size() && m_qps[slot] && m_qps[slot]->GetLocalQpn() == qpn)
    {
        ReceiveSack(*m_qps[slot], slot, pds);
    }
}

uint64_t
UetNic::GetSacksSent() const
{
    return m_sacksSent;
}

uint64_t
UetNic::GetSackLosses() const
{
    return m_sackLosses;
}

uint64_t
UetNic::GetTrimmedReceived() const
{
    return m_trimmedReceived;
}

uint64_t
UetNic::GetRepsRecycled() const
{
    return m_repsRecycled;
}

uint64_t
UetNic::GetPathPenalties() const
{
    uint64_t n = m_pathPenalties;
    for (const auto& p : m_paths)
    {
        n += p ? p->GetPenalized() : 0;
    }
    return n;
}

uint64_t
UetNic::GetPathsAvoided() const
{
    uint64_t n = m_pathsAvoided;
    for (const auto& p : m_paths)
    {
        n += p ? p->GetAvoided() : 0;
    }
    return n;
}

uint64_t
UetNic::GetCreditsSent() const
{
    return m_pacer ? m_pacer->GetCreditsSent() : 0;
}

uint64_t
UetNic::GetCreditsReceived() const
{
    return m_creditsReceived;
}

uint64_t
UetNic::GetTrimNacksReceived() const
{
    return m_trimNacksReceived;
}

} // namespace ns3
