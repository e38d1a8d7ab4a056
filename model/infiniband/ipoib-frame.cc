/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ipoib-frame.h"

#include "ib-frame.h"
#include "ib-lrh-header.h"
#include "ib-vcrc-trailer.h"
#include "ipoib-header.h"

#include "ns3/bth-header.h"
#include "ns3/deth-header.h"
#include "ns3/icrc-trailer.h"
#include "ns3/packet.h"

#include <vector>

namespace ns3
{

void
IpoibFrame::Encapsulate(Ptr<Packet> p, const IpoibFrameFields& f)
{
    // The UD payload is the encapsulation header and the IP packet, padded to 4 bytes
    // (PadCnt in the BTH) with zeros.
    const auto pad = static_cast<uint8_t>((4 - (ENCAP_BYTES + p->GetSize()) % 4) % 4);
    if (pad != 0)
    {
        p->AddAtEnd(Create<Packet>(pad));
    }
    IpoibHeader encap;
    encap.SetType(f.type);
    p->AddHeader(encap);
    DethHeader deth;
    deth.SetQKey(f.qKey);
    deth.SetSourceQp(f.srcQp & 0xFFFFFF);
    p->AddHeader(deth);
    BthHeader bth;
    bth.SetOpcode(OPCODE_UD_SEND_ONLY);
    bth.SetPadCount(pad);
    bth.SetPKey(f.pKey);
    bth.SetDestQp(f.destQp & 0xFFFFFF);
    bth.SetAckReq(false);
    bth.SetPsn(f.psn & 0xFFFFFF);
    p->AddHeader(bth);
    IbLrhHeader lrh;
    lrh.SetVl(f.vl);
    lrh.SetSl(f.sl);
    lrh.SetLnh(IbLrhHeader::LNH_IBA_LOCAL);
    lrh.SetDlid(f.dlid);
    lrh.SetSlid(f.slid);
    // PktLen: LRH to ICRC inclusive, in 4-byte words.
    lrh.SetPacketLengthWords(
        static_cast<uint16_t>((IbFrame::LRH_BYTES + p->GetSize() + IbFrame::ICRC_BYTES) / 4));
    p->AddHeader(lrh);
    if (!IcrcTrailer::IsComputeEnabled())
    {
        p->AddTrailer(IcrcTrailer());
        p->AddTrailer(IbVcrcTrailer());
        return;
    }
    std::vector<uint8_t> bytes(p->GetSize() + IbFrame::ICRC_BYTES);
    p->CopyData(bytes.data(), p->GetSize());
    IcrcTrailer icrc;
    icrc.SetIcrc(IbFrame::CalculateIcrc(bytes.data(), p->GetSize()));
    p->AddTrailer(icrc);
    p->CopyData(bytes.data(), bytes.size());
    IbVcrcTrailer vcrc;
    vcrc.SetVcrc(IbVcrcTrailer::Calculate(bytes.data(), bytes.size()));
    p->AddTrailer(vcrc);
}

bool
IpoibFrame::Decapsulate(Ptr<Packet> p, IpoibFrameFields& f)
{
    uint8_t b[HEADER_BYTES];
    if (p->GetSize() < HEADER_BYTES + TRAILER_BYTES ||
        p->CopyData(b, HEADER_BYTES) != HEADER_BYTES ||
        b[IbFrame::LRH_BYTES] != OPCODE_UD_SEND_ONLY)
    {
        return false;
    }
    IbLrhHeader lrh;
    BthHeader bth;
    DethHeader deth;
    IpoibHeader encap;
    p->RemoveHeader(lrh);
    p->RemoveHeader(bth);
    p->RemoveHeader(deth);
    p->RemoveHeader(encap);
    f.vl = lrh.GetVl();
    f.sl = lrh.GetSl();
    f.dlid = lrh.GetDlid();
    f.slid = lrh.GetSlid();
    f.pKey = bth.GetPKey();
    f.destQp = bth.GetDestQp();
    f.psn = bth.GetPsn();
    f.qKey = deth.GetQKey();
    f.srcQp = deth.GetSourceQp();
    f.type = encap.GetType();
    // What is left: IP packet, pad, ICRC, VCRC.
    p->RemoveAtEnd(TRAILER_BYTES + bth.GetPadCount());
    return true;
}

} // namespace ns3
