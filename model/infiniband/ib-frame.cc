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
#include "ns3/serialized-headers.h"

#include <algorithm>
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
        // Zeros: AddPaddingAtEnd would leave the bytes unwritten (whatever the buffer
        // held), in pcaps and under the ICRC. A sized Packet is zero-filled, and after a
        // payload that is one too (the HCA's) its zero area only grows.
        p->AddAtEnd(Create<Packet>(pad));
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
    v.pKey = static_cast<uint16_t>((t[2] << 8) | t[3]);
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

bool
IbFrame::ReadHeaders(Ptr<const Packet> p, IbFrameHeaders& h)
{
    constexpr uint32_t CRC_BYTES = ICRC_BYTES + VCRC_BYTES;
    const uint32_t size = p->GetSize();
    if (size < LRH_BYTES + BTH_BYTES + CRC_BYTES || p->GetPacketTagIterator().HasNext() ||
        p->GetByteTagIterator().HasNext())
    {
        return false;
    }
    h.packetBytes = size;
    h.leadingBytes = static_cast<uint8_t>(std::min(PEEK_BYTES, size - CRC_BYTES));
    h.reserved = 0;
    p->CopyData(h.leading, h.leadingBytes);
    h.icrc = 0;
    h.vcrc = 0;
    if (IcrcTrailer::IsComputeEnabled())
    {
        // (Zeros otherwise: Encapsulate writes them, SetVl and SetFecn leave them.)
        uint8_t crcs[CRC_BYTES];
        p->CreateFragment(size - CRC_BYTES, CRC_BYTES)->CopyData(crcs, CRC_BYTES);
        h.icrc = crcs[0] | (crcs[1] << 8) | (crcs[2] << 16) | (uint32_t(crcs[3]) << 24);
        h.vcrc = static_cast<uint16_t>(crcs[4] | (crcs[5] << 8));
    }
#ifdef NS3_ASSERT_ENABLE
    // The rest is zeros (IbFrameHeaders): checked where assertions are compiled in.
    std::vector<uint8_t> sent(size);
    std::vector<uint8_t> again(size);
    p->CopyData(sent.data(), size);
    Materialize(h)->CopyData(again.data(), size);
    NS_ASSERT_MSG(sent == again,
                  "IbFrame::ReadHeaders: a packet of " << size << " bytes whose payload is not "
                                                       << "zeros or whose CRCs are not its own");
#endif
    return true;
}

Ptr<Packet>
IbFrame::Materialize(const IbFrameHeaders& h)
{
    NS_ABORT_MSG_IF(h.leadingBytes > PEEK_BYTES ||
                        h.packetBytes < h.leadingBytes + ICRC_BYTES + VCRC_BYTES,
                    "IbFrame::Materialize: " << +h.leadingBytes << " leading bytes of a "
                                             << h.packetBytes << "-byte packet");
    SerializedHeaders headers;
    std::memcpy(headers.Data(), h.leading, h.leadingBytes);
    headers.SetSize(h.leadingBytes);
    if (h.icrc == 0 && h.vcrc == 0)
    {
        // Zero CRCs (not computed, the default): zeros from the payload to the end.
        Ptr<Packet> p = Create<Packet>(h.packetBytes - h.leadingBytes);
        p->AddHeader(headers);
        return p;
    }
    Ptr<Packet> p = Create<Packet>(h.packetBytes - h.leadingBytes - ICRC_BYTES - VCRC_BYTES);
    p->AddHeader(headers);
    IcrcTrailer icrc;
    icrc.SetIcrc(h.icrc);
    p->AddTrailer(icrc);
    IbVcrcTrailer vcrc;
    vcrc.SetVcrc(h.vcrc);
    p->AddTrailer(vcrc);
    return p;
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
