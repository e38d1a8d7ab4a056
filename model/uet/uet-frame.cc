/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-frame.h"

#include "uet-ses-header.h"

#include "ns3/aeth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/udp-header.h"

namespace ns3
{

namespace
{
constexpr uint32_t IPV4_BYTES = 20;    //!< IPv4 header without options
constexpr uint32_t UDP_BYTES = 8;      //!< UDP header
constexpr uint32_t PDS_REQ_BYTES = 12; //!< PDS RUD request header

/// The Ethernet header bytes of view \p v (14, 18 tagged).
uint32_t
EthernetBytes(bool vlan)
{
    return vlan ? 18 : 14;
}
} // namespace

uint32_t
UetFrame::DataHeaderBytes(bool vlan, bool ccState)
{
    return EthernetBytes(vlan) + IPV4_BYTES + UDP_BYTES + PDS_REQ_BYTES + UetSesHeader::SIZE +
           (ccState ? CC_STATE_BYTES : 0);
}

void
UetFrame::Wrap(Ptr<Packet> p, const RoceFrameView& v, RoceParsedFrame& frame)
{
    UdpHeader udp;
    udp.SetSourcePort(v.udpSrc);
    udp.SetDestinationPort(UDP_PORT);
    p->AddHeader(udp); // checksum 0: none (RFC 768), as RoCEv2's UDP
    Ipv4Header ip;
    ip.SetSource(v.GetSrcAddress());
    ip.SetDestination(v.GetDstAddress());
    ip.SetProtocol(RoceFrame::IP_PROTO_UDP);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(v.ttl);
    ip.SetIdentification(v.ipId);
    ip.SetTos(static_cast<uint8_t>((v.dscp << 2) | (v.ecn & 3)));
    ip.SetDontFragment();
    ip.EnableChecksum();
    p->AddHeader(ip);
    RoceEthernetHeader eth;
    Mac48Address src;
    Mac48Address dst;
    src.CopyFrom(v.srcMac);
    dst.CopyFrom(v.dstMac);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetEtherType(0x0800);
    if (v.hasVlan)
    {
        eth.SetVlan(v.pcp, v.dei, v.vid);
    }
    p->AddHeader(eth);
    if (p->GetSize() < MIN_FRAME_BYTES)
    {
        p->AddPaddingAtEnd(MIN_FRAME_BYTES - p->GetSize());
    }
    RoceFrameView view;
    RoceFrame::Peek(*p, view);
    view.journey = v.journey; // (attribution: an ACK's, set before its rewrite)
    const int64_t ready = frame.readyTicks;
    frame = RoceParsedFrame(p, view);
    frame.readyTicks = ready;
}

void
UetFrame::EncodeData(RoceParsedFrame& frame, const SesInfo& info)
{
    const RoceFrameView v = frame.view;
    const uint8_t op = v.bthOpcode;
    const uint32_t payload = RoceFrame::FieldsOf(v).payloadBytes;
    UetSesHeader ses;
    ses.opcode = RdmaOpcode::IsSend(op) ? UetSesHeader::OP_SEND : UetSesHeader::OP_WRITE;
    const uint8_t writeOp = RdmaOpcode::IsSend(op) ? op + RdmaOpcode::WRITE_TO_SEND : op;
    const bool som = writeOp == RdmaOpcode::WRITE_FIRST || writeOp == RdmaOpcode::WRITE_ONLY ||
                     writeOp == RdmaOpcode::WRITE_ONLY_IMM;
    const bool eom = writeOp == RdmaOpcode::WRITE_LAST || writeOp == RdmaOpcode::WRITE_LAST_IMM ||
                     writeOp == RdmaOpcode::WRITE_ONLY || writeOp == RdmaOpcode::WRITE_ONLY_IMM;
    ses.flags = static_cast<uint8_t>((som ? UetSesHeader::FLAG_SOM : 0) |
                                     (eom ? UetSesHeader::FLAG_EOM : 0) |
                                     (v.hasImm ? UetSesHeader::FLAG_HD : 0));
    ses.messageId = info.messageId;
    ses.bufferOffset = info.offset;
    ses.initiator = info.initiator;
    ses.memoryKey = v.rethRKey;
    ses.headerData = v.hasImm ? v.imm : 0;
    ses.payloadLength = payload;
    ses.messageOffset = static_cast<uint32_t>(info.offset);
    ses.requestLength = static_cast<uint32_t>(info.messageBytes);
    UetPdsHeader pds;
    pds.type = info.ccState ? UetPdsHeader::RUD_CC_REQ : UetPdsHeader::RUD_REQ;
    pds.creditTarget = info.creditTarget & 0xFFFFFF; // (CCC id 0: one context per PDC)
    pds.nextHeader = UetPdsHeader::NH_REQ_STD;
    pds.flags = static_cast<uint8_t>((info.retransmission ? UetPdsHeader::FLAG_RETX : 0) |
                                     (v.ackReq ? UetPdsHeader::FLAG_AR : 0) |
                                     (info.syn ? UetPdsHeader::FLAG_SYN : 0));
    pds.psn = v.psn;
    pds.spdcid = info.spdcid;
    // With SYN the target has no PDC for it yet: PDC mode 0 (RUD) and the PSN's offset
    // from the PDC's start instead of the DPDCID.
    pds.dpdcid = info.syn ? static_cast<uint16_t>(info.synPsnOffset & 0x0FFF)
                          : static_cast<uint16_t>(v.destQp);
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddHeader(ses);
    p->AddHeader(pds);
    Wrap(p, v, frame);
}

void
UetFrame::EncodeControl(RoceParsedFrame& frame,
                        uint16_t spdcid,
                        bool sack,
                        uint32_t sackBase,
                        uint64_t sackBitmap)
{
    const RoceFrameView v = frame.view;
    UetPdsHeader pds;
    pds.nextHeader = UetPdsHeader::NH_NONE;
    pds.psn = v.psn;
    pds.spdcid = spdcid;
    pds.dpdcid = static_cast<uint16_t>(v.destQp);
    const uint8_t s = v.aethSyndrome;
    if (s == CREDIT_SYNDROME)
    {
        // RCCC: a CREDIT control packet, its payload the credit granted so far.
        pds.type = UetPdsHeader::CONTROL;
        pds.nextHeader = UetPdsHeader::CTL_CREDIT;
        pds.ctlPayload = v.aethMsn;
    }
    else if ((s & 0x60) == 0)
    {
        pds.type = sack ? UetPdsHeader::ACK_CC : UetPdsHeader::ACK;
        pds.flags = v.becn ? UetPdsHeader::FLAG_M : 0;
        if (sack)
        {
            pds.ccType = UetPdsHeader::CC_TYPE_NSCC;
            pds.sackOffset = static_cast<uint16_t>(sackBase - v.psn);
            pds.sackBitmap = sackBitmap;
        }
    }
    else
    {
        pds.type = UetPdsHeader::NACK;
        pds.flags = v.becn ? UetPdsHeader::FLAG_M : 0;
        pds.nackCode = AethHeader::IsRnrNakSyndrome(s) ? UetPdsHeader::NACK_NO_SES_MSG_AVAIL
                       : (s & 0x1F) <= 4               ? UetPdsHeader::NACK_RCVR_INFER_LOSS
                                                       : UetPdsHeader::NACK_TRIMMED;
        pds.vendorCode = s;
        pds.maxRecvPsn = v.psn;
    }
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(pds);
    Wrap(p, v, frame);
}

bool
UetFrame::Decode(RoceParsedFrame& frame, RoceFrameFields& f, UetPdsHeader& pds)
{
    const RoceFrameView& v = frame.view;
    Ptr<Packet> p = frame.GetPacket()->Copy();
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    p->RemoveHeader(pds);
    f.srcMac = eth.GetSource();
    f.dstMac = eth.GetDestination();
    f.useVlan = v.hasVlan;
    f.pcp = v.pcp;
    f.dei = v.dei;
    f.vid = v.vid;
    f.srcIp = v.GetSrcAddress();
    f.dstIp = v.GetDstAddress();
    f.dscp = v.dscp;
    f.ecn = v.ecn;
    f.ttl = v.ttl;
    f.ipId = v.ipId;
    f.udpSrcPort = v.udpSrc;
    f.destQp = pds.dpdcid;
    f.psn = pds.psn & 0xFFFFFF;
    if (pds.type == UetPdsHeader::CONTROL)
    {
        return pds.nextHeader == UetPdsHeader::CTL_CREDIT;
    }
    if (UetPdsHeader::IsRudRequest(pds.type))
    {
        UetSesHeader ses;
        p->RemoveHeader(ses);
        const bool som = (ses.flags & UetSesHeader::FLAG_SOM) != 0;
        const bool eom = (ses.flags & UetSesHeader::FLAG_EOM) != 0;
        const bool imm = (ses.flags & UetSesHeader::FLAG_HD) != 0;
        uint8_t op = som && eom ? (imm ? RdmaOpcode::WRITE_ONLY_IMM : RdmaOpcode::WRITE_ONLY)
                     : som      ? RdmaOpcode::WRITE_FIRST
                     : eom      ? (imm ? RdmaOpcode::WRITE_LAST_IMM : RdmaOpcode::WRITE_LAST)
                                : RdmaOpcode::WRITE_MIDDLE;
        if (ses.opcode == UetSesHeader::OP_SEND)
        {
            op = static_cast<uint8_t>(op - RdmaOpcode::WRITE_TO_SEND);
        }
        f.opcode = op;
        f.SetExtHeadersForOpcode();
        f.ackReq = (pds.flags & UetPdsHeader::FLAG_AR) != 0;
        // The IPv4 length, not the frame's: a short frame's padding is not payload.
        f.payloadBytes =
            ip.GetPayloadSize() - UDP_BYTES - UetPdsHeader::SizeOf(pds.type) - UetSesHeader::SIZE;
        if (f.hasReth)
        {
            f.rethVa = ses.bufferOffset;
            f.rethRKey = static_cast<uint32_t>(ses.memoryKey);
            f.rethDmaLen = ses.requestLength;
        }
        if (f.hasImm)
        {
            f.imm = static_cast<uint32_t>(ses.headerData);
        }
        return true;
    }
    if (pds.type == UetPdsHeader::ACK || pds.type == UetPdsHeader::ACK_CC ||
        pds.type == UetPdsHeader::NACK)
    {
        f.opcode = RdmaOpcode::ACKNOWLEDGE;
        f.SetExtHeadersForOpcode();
        f.aethSyndrome =
            pds.type != UetPdsHeader::NACK ? AethHeader::ResponderSyndrome(false) : pds.vendorCode;
        f.becn = (pds.flags & UetPdsHeader::FLAG_M) != 0;
        f.payloadBytes = 0;
        return true;
    }
    return false;
}

bool
UetFrame::IsRequest(RoceParsedFrame& frame)
{
    const RoceFrameView& v = frame.view;
    if (!IsUet(v) || v.frameBytes < DataHeaderBytes(v.hasVlan))
    {
        return false;
    }
    uint8_t nh = 0;
    const uint8_t type = PdsTypeOf(frame, &nh);
    return UetPdsHeader::IsRudRequest(type) && nh == UetPdsHeader::NH_REQ_STD;
}

uint8_t
UetFrame::PdsTypeOf(RoceParsedFrame& frame, uint8_t* nextHeader)
{
    // The PDS prologue, after Ethernet, IPv4 and UDP (the first 50 bytes at most).
    const RoceFrameView& v = frame.view;
    uint8_t head[64];
    const uint32_t at = v.l3Offset + IPV4_BYTES + UDP_BYTES;
    frame.GetPacket()->CopyData(head, at + 2);
    if (nextHeader != nullptr)
    {
        *nextHeader = static_cast<uint8_t>(((head[at] & 0x7) << 1) | (head[at + 1] >> 7));
    }
    return head[at] >> 3;
}

void
UetFrame::Trim(RoceParsedFrame& frame, uint8_t dscp)
{
    RoceFrameView v = frame.view;
    const uint32_t headers =
        DataHeaderBytes(v.hasVlan, PdsTypeOf(frame) == UetPdsHeader::RUD_CC_REQ);
    Ptr<Packet> p = frame.GetPacket()->CreateFragment(0, headers);
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    // The UDP length and IPv4 total length follow the cut (Wrap rewrites both).
    v.dscp = dscp;
    Wrap(p, v, frame);
}

} // namespace ns3
