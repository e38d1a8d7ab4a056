/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-frame.h"

#include "ib-lrh-header.h"
#include "ib-vcrc-trailer.h"

#include "ns3/abort.h"
#include "ns3/aeth-header.h"
#include "ns3/bth-header.h"
#include "ns3/icrc-trailer.h"
#include "ns3/imm-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/reth-header.h"

#include <boost/crc.hpp>
#include <cstring>
#include <vector>

namespace ns3
{

uint32_t
IbFrame::HeaderBytes(uint8_t opcode, bool hasAeth)
{
    return LRH_BYTES + BTH_BYTES + (RdmaOpcode::HasReth(opcode) ? RETH_BYTES : 0) +
           (RdmaOpcode::HasImm(opcode) ? IMM_BYTES : 0) + (hasAeth ? AETH_BYTES : 0) + ICRC_BYTES +
           VCRC_BYTES;
}

void
IbFrame::Encapsulate(Ptr<Packet> p, const IbFrameFields& f)
{
    NS_ABORT_MSG_IF(p->GetSize() != f.payloadBytes,
                    "IbFrame: payload " << p->GetSize() << " != payloadBytes " << f.payloadBytes);
    if (f.hasAeth)
    {
        AethHeader aeth;
        aeth.SetSyndrome(f.aethSyndrome);
        aeth.SetMsn(f.aethMsn & 0xFFFFFF);
        p->AddHeader(aeth);
    }
    if (f.hasImm)
    {
        ImmHeader imm;
        imm.SetImmediate(f.imm);
        p->AddHeader(imm);
    }
    if (f.hasReth)
    {
        RethHeader reth;
        reth.SetVirtualAddress(f.rethVa);
        reth.SetRKey(f.rethRKey);
        reth.SetDmaLength(f.rethDmaLen);
        p->AddHeader(reth);
    }
    BthHeader bth;
    bth.SetOpcode(f.opcode);
    bth.SetPKey(f.pKey);
    bth.SetFecn(f.fecn);
    bth.SetBecn(f.becn);
    bth.SetDestQp(f.destQp & 0xFFFFFF);
    bth.SetAckReq(f.ackReq);
    bth.SetPsn(f.psn & 0xFFFFFF);
    // Pad the payload to a 4-byte multiple, as the IBTA requires (PadCnt in the BTH).
    uint8_t pad = static_cast<uint8_t>((4 - (f.payloadBytes & 3)) & 3);
    bth.SetPadCount(pad);
    if (pad)
    {
        p->AddPaddingAtEnd(pad);
    }
    p->AddHeader(bth);
    IbLrhHeader lrh;
    lrh.SetVl(f.vl);
    lrh.SetSl(f.sl);
    lrh.SetLnh(IbLrhHeader::LNH_IBA_LOCAL);
    lrh.SetDlid(f.dlid);
    lrh.SetSlid(f.slid);
    // PktLen: LRH to ICRC inclusive, in 4-byte words.
    lrh.SetPacketLengthWords(static_cast<uint16_t>((LRH_BYTES + p->GetSize() + ICRC_BYTES) / 4));
    p->AddHeader(lrh);
    if (!IcrcTrailer::IsComputeEnabled())
    {
        p->AddTrailer(IcrcTrailer());
        p->AddTrailer(IbVcrcTrailer());
        return;
    }
    std::vector<uint8_t> bytes(p->GetSize() + ICRC_BYTES);
    p->CopyData(bytes.data(), p->GetSize());
    IcrcTrailer icrc;
    icrc.SetIcrc(CalculateIcrc(bytes.data(), p->GetSize()));
    p->AddTrailer(icrc);
    p->CopyData(bytes.data(), bytes.size());
    IbVcrcTrailer vcrc;
    vcrc.SetVcrc(IbVcrcTrailer::Calculate(bytes.data(), bytes.size()));
    p->AddTrailer(vcrc);
}

namespace
{
/// Recompute p's VCRC after a variant field changed (only when CRCs are computed).
void
RewriteVcrc(Ptr<Packet> p)
{
    if (!IcrcTrailer::IsComputeEnabled())
    {
        return;
    }
    IbVcrcTrailer vcrc;
    p->RemoveTrailer(vcrc);
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    vcrc.SetVcrc(IbVcrcTrailer::Calculate(bytes.data(), bytes.size()));
    p->AddTrailer(vcrc);
}
} // namespace

uint32_t
IbFrame::CalculateIcrc(const uint8_t* lrh, uint32_t len)
{
    NS_ABORT_MSG_IF(len < LRH_BYTES + BTH_BYTES,
                    "IbFrame::CalculateIcrc: " << len << " bytes is shorter than LRH + BTH");
    uint8_t masked[LRH_BYTES + BTH_BYTES];
    std::memcpy(masked, lrh, sizeof(masked));
    masked[0] |= 0xF0;            // LRH VL
    masked[LRH_BYTES + 4] = 0xFF; // BTH FECN, BECN, reserved
    boost::crc_32_type crc;
    crc.process_bytes(masked, sizeof(masked));
    crc.process_bytes(lrh + sizeof(masked), len - sizeof(masked));
    return crc.checksum();
}

bool
IbFrame::VerifyCrcs(Ptr<const Packet> p)
{
    const uint32_t size = p->GetSize();
    if (size < LRH_BYTES + BTH_BYTES + ICRC_BYTES + VCRC_BYTES)
    {
        return false;
    }
    std::vector<uint8_t> bytes(size);
    p->CopyData(bytes.data(), size);
    const uint8_t* icrc = bytes.data() + size - VCRC_BYTES - ICRC_BYTES;
    const uint8_t* vcrc = bytes.data() + size - VCRC_BYTES;
    const uint32_t sentIcrc =
        icrc[0] | (icrc[1] << 8) | (icrc[2] << 16) | (uint32_t(icrc[3]) << 24);
    const uint16_t sentVcrc = static_cast<uint16_t>(vcrc[0] | (vcrc[1] << 8));
    return sentIcrc == CalculateIcrc(bytes.data(), size - VCRC_BYTES - ICRC_BYTES) &&
           sentVcrc == IbVcrcTrailer::Calculate(bytes.data(), size - VCRC_BYTES);
}

bool
IbFrame::Peek(Ptr<const Packet> p, IbFrameView& v)
{
    uint8_t b[PEEK_BYTES];
    uint32_t n = p->CopyData(b, PEEK_BYTES);
    if (n < LRH_BYTES + BTH_BYTES)
    {
        return false;
    }
    v.packetBytes = p->GetSize();
    v.vl = b[0] >> 4;
    v.sl = b[1] >> 4;
    v.lnh = b[1] & 3;
    v.dlid = static_cast<uint16_t>((b[2] << 8) | b[3]);
    v.slid = static_cast<uint16_t>((b[6] << 8) | b[7]);
    const uint8_t* t = b + LRH_BYTES;
    v.opcode = t[0];
    uint8_t pad = (t[1] >> 4) & 3;
    v.fecn = (t[4] >> 7) & 1;
    v.becn = (t[4] >> 6) & 1;
    v.destQp = (uint32_t(t[5]) << 16) | (uint32_t(t[6]) << 8) | t[7];
    v.ackReq = (t[8] >> 7) & 1;
    v.psn = (uint32_t(t[9]) << 16) | (uint32_t(t[10]) << 8) | t[11];
    v.hasAeth = v.opcode == RdmaOpcode::ACKNOWLEDGE;
    if (v.hasAeth && n >= LRH_BYTES + BTH_BYTES + AETH_BYTES)
    {
        const uint8_t* a = t + BTH_BYTES;
        v.aethSyndrome = a[0];
        v.aethMsn = (uint32_t(a[1]) << 16) | (uint32_t(a[2]) << 8) | a[3];
    }
    if (v.opcode == RdmaOpcode::READ_REQUEST && n >= LRH_BYTES + BTH_BYTES + RETH_BYTES)
    {
        const uint8_t* r = t + BTH_BYTES + 12; // RETH: VA (8), R_Key (4), DMA length
        v.rethDmaLen =
            (uint32_t(r[0]) << 24) | (uint32_t(r[1]) << 16) | (uint32_t(r[2]) << 8) | r[3];
    }
    // (A READ response's AETH stays in payloadBytes: RdmaNic::DeliverRead takes it off.)
    uint32_t headers = HeaderBytes(v.opcode, v.hasAeth);
    v.payloadBytes = v.packetBytes >= headers + pad ? v.packetBytes - headers - pad : 0;
    return true;
}

void
IbFrame::SetVl(Ptr<Packet> p, uint8_t vl)
{
    IbLrhHeader lrh;
    p->RemoveHeader(lrh);
    lrh.SetVl(vl);
    p->AddHeader(lrh);
    RewriteVcrc(p);
}

void
IbFrame::SetFecn(Ptr<Packet> p)
{
    IbLrhHeader lrh;
    BthHeader bth;
    p->RemoveHeader(lrh);
    p->RemoveHeader(bth);
    bth.SetFecn(true); // a variant field: the ICRC does not cover it
    p->AddHeader(bth);
    p->AddHeader(lrh);
    RewriteVcrc(p);
}

} // namespace ns3
