/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-frame.h"

#include "cnp-payload-header.h"
#include "pfc-header.h"
#include "roce-ethernet-header.h"

#include "ns3/aeth-header.h"
#include "ns3/bth-header.h"
#include "ns3/icrc-trailer.h"
#include "ns3/imm-header.h"
#include "ns3/int-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/reth-header.h"
#include "ns3/serialized-headers.h"
#include "ns3/udp-header.h"

#include <cstring>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFrame");

namespace
{
constexpr uint32_t IPV4_BYTES = 20;
constexpr uint32_t UDP_BYTES = 8;

inline uint16_t
Be16(const uint8_t* b)
{
    return (uint16_t(b[0]) << 8) | b[1];
}

inline uint32_t
Be24(const uint8_t* b)
{
    return (uint32_t(b[0]) << 16) | (uint32_t(b[1]) << 8) | b[2];
}

inline uint32_t
Be32(const uint8_t* b)
{
    return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
}

inline uint8_t*
PutBe16(uint8_t* b, uint16_t v)
{
    b[0] = static_cast<uint8_t>(v >> 8);
    b[1] = static_cast<uint8_t>(v);
    return b + 2;
}

inline uint8_t*
PutBe32(uint8_t* b, uint32_t v)
{
    b[0] = static_cast<uint8_t>(v >> 24);
    b[1] = static_cast<uint8_t>(v >> 16);
    b[2] = static_cast<uint8_t>(v >> 8);
    b[3] = static_cast<uint8_t>(v);
    return b + 4;
}

/// RFC 791 header checksum of a 20-byte IPv4 header (its checksum field zero).
inline uint16_t
Ipv4Checksum(const uint8_t* ip)
{
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
    {
        sum += Be16(ip + i);
    }
    sum = (sum & 0xFFFF) + (sum >> 16);
    sum = (sum & 0xFFFF) + (sum >> 16);
    return static_cast<uint16_t>(~sum);
}

inline uint32_t
Rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

/// One MurmurHash3 (x86, 32-bit) block step.
inline uint32_t
MixBlock(uint32_t h, uint32_t k)
{
    k *= 0xcc9e2d51U;
    k = Rotl32(k, 15);
    k *= 0x1b873593U;
    h ^= k;
    h = Rotl32(h, 13);
    return h * 5 + 0xe6546b64U;
}

/// MurmurHash3's finalizer: every input bit affects every output bit.
inline uint32_t
Fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bU;
    h ^= h >> 13;
    h *= 0xc2b2ae35U;
    h ^= h >> 16;
    return h;
}
} // namespace

void
RoceFrameFields::SetExtHeadersForOpcode()
{
    hasReth = BthHeader::OpcodeHasReth(opcode);
    hasAeth = BthHeader::OpcodeHasAeth(opcode);
    hasImm = BthHeader::OpcodeHasImm(opcode);
}

Ipv4Address
RoceFrameView::GetSrcAddress() const
{
    return Ipv4Address(srcIp);
}

Ipv4Address
RoceFrameView::GetDstAddress() const
{
    return Ipv4Address(dstIp);
}

uint32_t
RoceFrame::HeaderBytes(const RoceFrameFields& f)
{
    uint32_t n = (f.useVlan ? RoceEthernetHeader::TAGGED_SIZE : RoceEthernetHeader::UNTAGGED_SIZE) +
                 IPV4_BYTES + UDP_BYTES + BthHeader::SIZE + IcrcTrailer::SIZE;
    if (f.hasReth)
    {
        n += RethHeader::SIZE;
    }
    if (f.hasImm)
    {
        n += ImmHeader::SIZE;
    }
    if (f.hasAeth)
    {
        n += AethHeader::SIZE;
    }
    if (f.opcode == BthHeader::CNP)
    {
        n += CnpPayloadHeader::SIZE;
    }
    if (HasInt(f))
    {
        n += IntHeader::SIZE;
    }
    return n;
}

void
RoceFrame::CheckFields(const RoceFrameFields& f)
{
    if (f.hasReth != BthHeader::OpcodeHasReth(f.opcode) ||
        f.hasAeth != BthHeader::OpcodeHasAeth(f.opcode) ||
        f.hasImm != BthHeader::OpcodeHasImm(f.opcode))
    {
        NS_FATAL_ERROR("RoceFrame: extended headers (RETH "
                       << f.hasReth << ", AETH " << f.hasAeth << ", ImmDt " << f.hasImm
                       << ") do not match opcode 0x" << std::hex << +f.opcode << std::dec
                       << " (see RoceFrameFields::SetExtHeadersForOpcode)");
    }
    if (f.dscp > 63)
    {
        NS_FATAL_ERROR("RoceFrame: DSCP " << +f.dscp << " out of range (allowed 0..63)");
    }
    if (f.ecn > 3)
    {
        NS_FATAL_ERROR("RoceFrame: ECN " << +f.ecn << " out of range (allowed 0..3)");
    }
    if (f.opcode == BthHeader::CNP && f.payloadBytes != 0)
    {
        NS_FATAL_ERROR("RoceFrame: a CNP carries no payload, got " << f.payloadBytes
                                                                   << " bytes (allowed 0)");
    }

    if (f.padCnt > 3)
    {
        NS_FATAL_ERROR("RoceFrame: BTH PadCnt " << +f.padCnt << " out of range (allowed 0..3)");
    }
    if (f.destQp > 0xFFFFFF || f.psn > 0xFFFFFF || f.aethMsn > 0xFFFFFF)
    {
        NS_FATAL_ERROR("RoceFrame: DestQP " << f.destQp << ", PSN " << f.psn << " or MSN "
                                            << f.aethMsn << " out of range (allowed 0..16777215)");
    }
    if (f.useVlan && (f.pcp > 7 || f.vid > 0x0FFF))
    {
        NS_FATAL_ERROR("RoceFrame: 802.1Q PCP " << +f.pcp << " / VID " << f.vid
                                                << " out of range (allowed 0..7 / "
                                                   "0..4095)");
    }
}

uint32_t
RoceFrame::WriteHeaders(const RoceFrameFields& f, SerializedHeaders& block, const IntHeader* h)
{
    CheckFields(f);
    const uint32_t headerBytes = HeaderBytes(f) - IcrcTrailer::SIZE;
    const uint32_t ipBytes =
        headerBytes + f.payloadBytes + IcrcTrailer::SIZE -
        (f.useVlan ? RoceEthernetHeader::TAGGED_SIZE : RoceEthernetHeader::UNTAGGED_SIZE);
    if (ipBytes > 0xFFFF)
    {
        NS_FATAL_ERROR("RoceFrame: IPv4 packet of " << ipBytes << " bytes (allowed <= 65535)");
    }

    // Every header is written in place into one block and added with one AddHeader
    // (per-packet path: one buffer operation instead of one per header). The bytes
    // are exactly what RoceEthernetHeader, Ipv4Header, UdpHeader, BthHeader,
    // RethHeader, ImmHeader, AethHeader and CnpPayloadHeader serialize.
    uint8_t* b = block.Data();
    f.dstMac.CopyTo(b);
    f.srcMac.CopyTo(b + 6);
    uint8_t* o = b + 12;
    if (f.useVlan)
    {
        o = PutBe16(o, RoceEthernetHeader::ETHERTYPE_VLAN);
        o = PutBe16(o, (uint16_t(f.pcp) << 13) | (uint16_t(f.dei) << 12) | f.vid);
    }
    o = PutBe16(o, RoceEthernetHeader::ETHERTYPE_IPV4);

    uint8_t* ip = o;
    ip[0] = 0x45; // version 4, 5 words
    ip[1] = static_cast<uint8_t>((f.dscp << 2) | f.ecn);
    PutBe16(ip + 2, static_cast<uint16_t>(ipBytes));
    PutBe16(ip + 4, f.ipId);
    PutBe16(ip + 6, 0x4000); // DF, fragment offset 0
    ip[8] = f.ttl;
    ip[9] = IP_PROTO_UDP;
    PutBe16(ip + 10, 0);
    PutBe32(ip + 12, f.srcIp.Get());
    PutBe32(ip + 16, f.dstIp.Get());
    PutBe16(ip + 10, Ipv4Checksum(ip));
    o = ip + IPV4_BYTES;

    o = PutBe16(o, f.udpSrcPort);
    o = PutBe16(o, ROCEV2_UDP_PORT);
    o = PutBe16(o, static_cast<uint16_t>(ipBytes - IPV4_BYTES));
    o = PutBe16(o, 0); // checksum 0: allowed for RoCEv2 over IPv4

    *o++ = f.opcode;
    *o++ = static_cast<uint8_t>((uint8_t(f.se) << 7) | (uint8_t(f.migReq) << 6) |
                                (f.padCnt << 4)); // TVer 0
    o = PutBe16(o, f.pKey);
    o = PutBe32(o, (uint32_t(f.fecn) << 31) | (uint32_t(f.becn) << 30) | f.destQp);
    o = PutBe32(o, (uint32_t(f.ackReq) << 31) | f.psn);
    if (f.hasReth)
    {
        o = PutBe32(o, static_cast<uint32_t>(f.rethVa >> 32));
        o = PutBe32(o, static_cast<uint32_t>(f.rethVa));
        o = PutBe32(o, f.rethRKey);
        o = PutBe32(o, f.rethDmaLen);
    }
    if (f.hasImm)
    {
        o = PutBe32(o, f.imm);
    }
    if (f.hasAeth)
    {
        o = PutBe32(o, (uint32_t(f.aethSyndrome) << 24) | f.aethMsn);
    }
    if (f.opcode == BthHeader::CNP)
    {
        std::memset(o, 0, CnpPayloadHeader::SIZE);
        o += CnpPayloadHeader::SIZE;
    }
    if (HasInt(f))
    {
        // The INT block (IntHeader): the given records, or none yet.
        if (h != nullptr)
        {
            h->Write(o);
        }
        else
        {
            IntHeader().Write(o);
        }
        o += IntHeader::SIZE;
    }
    NS_ASSERT(static_cast<uint32_t>(o - b) == headerBytes);
    block.SetSize(headerBytes);
    return headerBytes;
}

void
RoceFrame::Encapsulate(Ptr<Packet> p, const RoceFrameFields& f)
{
    Encapsulate(p, f, nullptr);
}

void
RoceFrame::Encapsulate(Ptr<Packet> p, const RoceFrameFields& f, const IntHeader* h)
{
    NS_LOG_FUNCTION(p << +f.opcode << f.psn);
    if (p->GetSize() != f.payloadBytes)
    {
        NS_FATAL_ERROR("RoceFrame::Encapsulate: packet holds "
                       << p->GetSize() << " bytes but payloadBytes is " << f.payloadBytes
                       << " (they must be equal)");
    }
    SerializedHeaders block;
    const uint32_t headerBytes = WriteHeaders(f, block, h);
    p->AddHeader(block);
    p->AddTrailer(IcrcTrailer());
    if (IcrcTrailer::IsComputeEnabled())
    {
        // Opt-in: costs a copy and a CRC over the whole packet (ICRC over the IP
        // packet, so the Ethernet header is skipped).
        const uint32_t l2 =
            f.useVlan ? RoceEthernetHeader::TAGGED_SIZE : RoceEthernetHeader::UNTAGGED_SIZE;
        std::vector<uint8_t> buf(p->GetSize());
        p->CopyData(buf.data(), buf.size());
        IcrcTrailer icrc;
        p->RemoveTrailer(icrc);
        icrc.SetIcrc(IcrcTrailer::Calculate(buf.data() + l2, buf.size() - l2 - IcrcTrailer::SIZE));
        p->AddTrailer(icrc);
    }
    NS_ASSERT(p->GetSize() == headerBytes + f.payloadBytes + IcrcTrailer::SIZE);
}

Ptr<Packet>
RoceFrame::Build(const RoceFrameFields& f)
{
    return Build(f, nullptr);
}

Ptr<Packet>
RoceFrame::Build(const RoceFrameFields& f, const IntHeader* h)
{
    if (IcrcTrailer::IsComputeEnabled())
    {
        Ptr<Packet> p = Create<Packet>(f.payloadBytes);
        Encapsulate(p, f, h);
        return p;
    }
    // The zero-filled payload area also holds the (zero) ICRC: the same bytes as an
    // IcrcTrailer, without a second buffer operation at the far end.
    SerializedHeaders block;
    WriteHeaders(f, block, h);
    Ptr<Packet> p = Create<Packet>(f.payloadBytes + IcrcTrailer::SIZE);
    p->AddHeader(block);
    return p;
}

void
RoceFrame::Describe(const RoceFrameFields& f, RoceFrameView& v)
{
    // Field by field what Peek decodes from the bytes WriteHeaders writes.
    CheckFields(f);
    v = RoceFrameView{};
    v.frameBytes = HeaderBytes(f) + f.payloadBytes;
    v.etherType = RoceEthernetHeader::ETHERTYPE_IPV4;
    v.isIpv4 = true;
    v.isRoce = true;
    if (f.useVlan)
    {
        v.hasVlan = true;
        v.pcp = f.pcp;
        v.dei = f.dei;
        v.vid = f.vid;
    }
    v.l3Offset = static_cast<uint8_t>(f.useVlan ? RoceEthernetHeader::TAGGED_SIZE
                                                : RoceEthernetHeader::UNTAGGED_SIZE);
    f.dstMac.CopyTo(v.dstMac);
    f.srcMac.CopyTo(v.srcMac);
    v.ipId = f.ipId;
    v.se = f.se;
    v.migReq = f.migReq;
    v.padCnt = f.padCnt;
    v.dscp = f.dscp;
    v.ecn = f.ecn;
    v.ttl = f.ttl;
    v.ipProtocol = IP_PROTO_UDP;
    v.srcIp = f.srcIp.Get();
    v.dstIp = f.dstIp.Get();
    v.udpSrc = f.udpSrcPort;
    v.udpDst = ROCEV2_UDP_PORT;
    v.bthOpcode = f.opcode;
    v.fecn = f.fecn;
    v.becn = f.becn;
    v.ackReq = f.ackReq;
    v.pKey = f.pKey;
    v.destQp = f.destQp;
    v.psn = f.psn;
    if (f.hasReth)
    {
        v.hasReth = true;
        v.rethVa = f.rethVa;
        v.rethRKey = f.rethRKey;
        v.rethDmaLen = f.rethDmaLen;
    }
    if (f.hasImm)
    {
        v.hasImm = true;
        v.imm = f.imm;
    }
    if (f.hasAeth)
    {
        v.hasAeth = true;
        v.aethSyndrome = f.aethSyndrome;
        v.aethMsn = f.aethMsn;
    }
}

RoceFrameFields
RoceFrame::FieldsOf(const RoceFrameView& v)
{
    NS_ASSERT_MSG(v.isRoce, "RoceFrame::FieldsOf: not a RoCEv2 frame");
    RoceFrameFields f;
    f.dstMac.CopyFrom(v.dstMac);
    f.srcMac.CopyFrom(v.srcMac);
    f.useVlan = v.hasVlan;
    f.pcp = v.pcp;
    f.dei = v.dei;
    f.vid = v.vid;
    f.srcIp = Ipv4Address(v.srcIp);
    f.dstIp = Ipv4Address(v.dstIp);
    f.dscp = v.dscp;
    f.ecn = v.ecn;
    f.ttl = v.ttl;
    f.ipId = v.ipId;
    f.udpSrcPort = v.udpSrc;
    f.opcode = v.bthOpcode;
    f.se = v.se;
    f.migReq = v.migReq;
    f.padCnt = v.padCnt;
    f.pKey = v.pKey;
    f.fecn = v.fecn;
    f.becn = v.becn;
    f.destQp = v.destQp;
    f.ackReq = v.ackReq;
    f.psn = v.psn;
    f.hasReth = v.hasReth;
    f.rethVa = v.rethVa;
    f.rethRKey = v.rethRKey;
    f.rethDmaLen = v.rethDmaLen;
    f.hasAeth = v.hasAeth;
    f.aethSyndrome = v.aethSyndrome;
    f.aethMsn = v.aethMsn;
    f.hasImm = v.hasImm;
    f.imm = v.imm;
    f.payloadBytes = 0;
    f.payloadBytes = v.frameBytes - HeaderBytes(f);
    return f;
}

Ptr<Packet>
RoceFrame::Materialize(const RoceFrameView& v)
{
    // A frame with the INT bit whose bytes were never written has no records yet: its
    // bytes get an empty block (Build writes one).
    return Build(FieldsOf(v));
}

uint32_t
RoceFrame::IntOffset(const RoceFrameView& v)
{
    return v.l3Offset + IPV4_BYTES + UDP_BYTES + BthHeader::SIZE +
           (v.hasReth ? RethHeader::SIZE : 0) + (v.hasImm ? ImmHeader::SIZE : 0) +
           (v.hasAeth ? AethHeader::SIZE : 0);
}

Ptr<Packet>
RoceFrame::MaterializeWithInt(const RoceFrameView& v, const IntHeader& h)
{
    NS_ASSERT_MSG(HasInt(v), "RoceFrame::MaterializeWithInt: the view has no INT bit");
    return Build(FieldsOf(v), &h);
}

bool
RoceFrame::ReadInt(RoceParsedFrame& frame, IntHeader& h)
{
    if (!frame.HasPacket())
    {
        // The records travel with the view: none until one is written (Materialize
        // writes an empty block then).
        const IntHeader* carried = frame.GetIntBlock();
        h = carried != nullptr ? *carried : IntHeader();
        return true;
    }
    const uint32_t off = IntOffset(frame.view);
    uint8_t b[SerializedHeaders::MAX_BYTES + IntHeader::SIZE];
    const Ptr<Packet> p = frame.GetPacket();
    if (p->CopyData(b, off + IntHeader::SIZE) != off + IntHeader::SIZE)
    {
        return false;
    }
    return h.Read(b + off);
}

void
RoceFrame::WriteInt(RoceParsedFrame& frame, const IntHeader& h)
{
    if (!frame.HasPacket())
    {
        frame.SetIntBlock(h); // written into the bytes when they are (GetPacket)
        return;
    }
    const uint32_t off = IntOffset(frame.view);
    const uint32_t n = off + IntHeader::SIZE;
    NS_ASSERT(n <= SerializedHeaders::MAX_BYTES);
    const Ptr<Packet> p = frame.GetPacket();
    // The headers and the block as one run of bytes: copied out, the block rewritten,
    // put back (the payload behind them, a zero-filled area, is not touched).
    SerializedHeaders block;
    p->CopyData(block.Data(), n);
    h.Write(block.Data() + off);
    block.SetSize(n);
    p->RemoveAtStart(n);
    p->AddHeader(block);
    if (IcrcTrailer::IsComputeEnabled())
    {
        std::vector<uint8_t> buf(p->GetSize());
        p->CopyData(buf.data(), buf.size());
        IcrcTrailer icrc;
        p->RemoveTrailer(icrc);
        icrc.SetIcrc(IcrcTrailer::Calculate(buf.data() + frame.view.l3Offset,
                                            buf.size() - frame.view.l3Offset - IcrcTrailer::SIZE));
        p->AddTrailer(icrc);
    }
}

namespace
{
/// INT blocks of frames without bytes, for reuse: one per such frame in flight. Never
/// freed (a frame may outlive static destruction in the event list).
std::vector<IntHeader*>&
IntBlockPool()
{
    static auto* pool = new std::vector<IntHeader*>();
    return *pool;
}
} // namespace

Ptr<Packet>
RoceParsedFrame::GetPacket()
{
    if (!HasPacket())
    {
        // The bytes of the view, with the INT records the frame carries, if any; from
        // now on they live in the bytes (RoceFrame::ReadInt, WriteInt).
        const IntHeader* carried = GetIntBlock();
        Ptr<Packet> p = carried != nullptr ? RoceFrame::MaterializeWithInt(view, *carried)
                                           : RoceFrame::Materialize(view);
        Release();
        m_held = reinterpret_cast<uintptr_t>(PeekPointer(p));
        p->Ref(); // this frame's reference, beyond the returned Ptr's
        return p;
    }
    return Ptr<Packet>(reinterpret_cast<Packet*>(m_held));
}

void
RoceParsedFrame::SetIntBlock(const IntHeader& h)
{
    IntHeader* block = GetIntBlock();
    if (block == nullptr)
    {
        NS_ASSERT_MSG(m_held == 0, "RoceParsedFrame::SetIntBlock: the frame has bytes");
        std::vector<IntHeader*>& pool = IntBlockPool();
        if (pool.empty())
        {
            block = new IntHeader();
        }
        else
        {
            block = pool.back();
            pool.pop_back();
        }
        m_held = reinterpret_cast<uintptr_t>(block) | INT_TAG;
    }
    *block = h;
}

void
RoceParsedFrame::ReleaseHeld()
{
    if ((m_held & INT_TAG) != 0)
    {
        IntBlockPool().push_back(GetIntBlock());
    }
    else
    {
        reinterpret_cast<Packet*>(m_held)->Unref();
    }
    m_held = 0;
}

RoceParsedFrame
RoceFrame::BuildParsed(const RoceFrameFields& f)
{
    RoceFrameView view;
    Describe(f, view);
    return MakeParsed(view);
}

RoceParsedFrame
RoceFrame::MakeParsed(const RoceFrameView& v)
{
    RoceParsedFrame frame(v);
    CompleteParsed(frame);
    return frame;
}

void
RoceFrame::CompleteParsed(RoceParsedFrame& frame)
{
    if (IcrcTrailer::IsComputeEnabled())
    {
        frame.GetPacket(); // with the INT records it carries, if any
    }
}

void
RoceFrame::EncapsulatePfc(Ptr<Packet> p, Mac48Address srcMac, const PfcHeader& pfc)
{
    p->AddHeader(pfc);
    RoceEthernetHeader eth;
    eth.SetSource(srcMac);
    eth.SetDestination(PfcHeader::GetPfcDestination());
    eth.SetEtherType(RoceEthernetHeader::ETHERTYPE_MAC_CONTROL);
    p->AddHeader(eth);
}

bool
RoceFrame::Peek(Ptr<const Packet> p, RoceFrameView& v)
{
    return Peek(*p, v);
}

bool
RoceFrame::Peek(const Packet& p, RoceFrameView& v)
{
    uint8_t b[PEEK_BYTES];
    const uint32_t n = p.CopyData(b, PEEK_BYTES);
    v = RoceFrameView{};
    v.frameBytes = p.GetSize();
    if (n < RoceEthernetHeader::UNTAGGED_SIZE)
    {
        return false;
    }
    std::memcpy(v.dstMac, b, 6);
    std::memcpy(v.srcMac, b + 6, 6);
    uint32_t off = 12;
    uint16_t type = Be16(b + off);
    if (type == RoceEthernetHeader::ETHERTYPE_VLAN)
    {
        if (n < RoceEthernetHeader::TAGGED_SIZE)
        {
            return false;
        }
        uint16_t tci = Be16(b + 14);
        v.hasVlan = true;
        v.pcp = tci >> 13;
        v.dei = (tci >> 12) & 1;
        v.vid = tci & 0x0FFF;
        off = 16;
        type = Be16(b + off);
    }
    off += 2;
    v.etherType = type;

    if (type == RoceEthernetHeader::ETHERTYPE_MAC_CONTROL)
    {
        if (n < off + 4 + 2 * PfcHeader::NUM_PRIORITIES || Be16(b + off) != PfcHeader::OPCODE)
        {
            return false;
        }
        v.isPfc = true;
        v.pfcEnableVector = Be16(b + off + 2);
        for (uint32_t i = 0; i < PfcHeader::NUM_PRIORITIES; ++i)
        {
            v.pfcPauseTime[i] = Be16(b + off + 4 + 2 * i);
        }
        return true;
    }
    if (type != RoceEthernetHeader::ETHERTYPE_IPV4 || n < off + IPV4_BYTES)
    {
        return false;
    }
    const uint8_t* ip = b + off;
    const uint32_t ihl = (ip[0] & 0x0F) * 4u;
    if ((ip[0] >> 4) != 4 || ihl < IPV4_BYTES)
    {
        return false;
    }
    v.isIpv4 = true;
    v.l3Offset = off;
    v.dscp = ip[1] >> 2;
    v.ecn = ip[1] & 3;
    v.ipId = Be16(ip + 4);
    v.ttl = ip[8];
    v.ipProtocol = ip[9];
    v.srcIp = Be32(ip + 12);
    v.dstIp = Be32(ip + 16);
    off += ihl;
    if (v.ipProtocol == IP_PROTO_TCP && n >= off + 4)
    {
        // TCP's ports lead its header as UDP's do: the 5-tuple ECMP hashes.
        v.udpSrc = Be16(b + off);
        v.udpDst = Be16(b + off + 2);
        return true;
    }
    if (v.ipProtocol != IP_PROTO_UDP || n < off + UDP_BYTES)
    {
        return true;
    }
    v.udpSrc = Be16(b + off);
    v.udpDst = Be16(b + off + 2);
    off += UDP_BYTES;
    if (v.udpDst != ROCEV2_UDP_PORT || n < off + BthHeader::SIZE)
    {
        return true;
    }
    const uint8_t* bth = b + off;
    v.isRoce = true;
    v.bthOpcode = bth[0];
    v.se = bth[1] & 0x80;
    v.migReq = bth[1] & 0x40;
    v.padCnt = (bth[1] >> 4) & 3;
    v.pKey = Be16(bth + 2);
    v.fecn = bth[4] & 0x80;
    v.becn = bth[4] & 0x40;
    v.destQp = Be24(bth + 5);
    v.ackReq = bth[8] & 0x80;
    v.psn = Be24(bth + 9);
    off += BthHeader::SIZE;
    // Extended headers in the order they follow the BTH: RETH, ImmDt, AETH.
    if (BthHeader::OpcodeHasReth(v.bthOpcode) && n >= off + RethHeader::SIZE)
    {
        v.hasReth = true;
        v.rethVa = (uint64_t(Be32(b + off)) << 32) | Be32(b + off + 4);
        v.rethRKey = Be32(b + off + 8);
        v.rethDmaLen = Be32(b + off + 12);
        off += RethHeader::SIZE;
    }
    if (BthHeader::OpcodeHasImm(v.bthOpcode) && n >= off + ImmHeader::SIZE)
    {
        v.hasImm = true;
        v.imm = Be32(b + off);
        off += ImmHeader::SIZE;
    }
    if (BthHeader::OpcodeHasAeth(v.bthOpcode) && n >= off + AethHeader::SIZE)
    {
        v.hasAeth = true;
        v.aethSyndrome = b[off];
        v.aethMsn = Be24(b + off + 1);
    }
    return true;
}

uint32_t
RoceFrame::FlowHash(const RoceFrameView& v, uint32_t seed)
{
    uint32_t h = seed;
    h = MixBlock(h, v.srcIp);
    h = MixBlock(h, v.dstIp);
    h = MixBlock(h, (uint32_t(v.udpSrc) << 16) | v.udpDst);
    h = MixBlock(h, v.ipProtocol);
    h ^= 16; // input length in bytes, as Murmur3 does
    return Fmix32(h);
}

void
RoceFrame::SetEcnCe(Ptr<Packet> p)
{
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    if (eth.GetEtherType() != RoceEthernetHeader::ETHERTYPE_IPV4)
    {
        NS_FATAL_ERROR("RoceFrame::SetEcnCe: EtherType 0x" << std::hex << eth.GetEtherType()
                                                           << " is not IPv4 (0x800)");
    }
    Ipv4Header ip;
    p->RemoveHeader(ip);
    ip.SetEcn(Ipv4Header::ECN_CE);
    ip.EnableChecksum();
    p->AddHeader(ip);
    p->AddHeader(eth);
}

void
RoceFrame::DecrementTtl(Ptr<Packet> p)
{
    // The same header surgery as SetEcnCe: ns-3's Ipv4Header recomputes the whole
    // checksum on serialization, which equals RFC 1624's incremental update.
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    if (eth.GetEtherType() != RoceEthernetHeader::ETHERTYPE_IPV4)
    {
        NS_FATAL_ERROR("RoceFrame::DecrementTtl: EtherType 0x" << std::hex << eth.GetEtherType()
                                                               << " is not IPv4 (0x800)");
    }
    Ipv4Header ip;
    p->RemoveHeader(ip);
    ip.SetTtl(static_cast<uint8_t>(ip.GetTtl() - 1));
    ip.EnableChecksum();
    p->AddHeader(ip);
    p->AddHeader(eth);
}

void
RoceFrame::DecrementTtlBytes(RoceParsedFrame& frame)
{
    DecrementTtl(frame.GetPacket());
}

void
RoceFrame::SetEcnCe(RoceParsedFrame& frame)
{
    if (frame.HasPacket())
    {
        SetEcnCe(frame.GetPacket());
    }
    frame.view.ecn = Ipv4Header::ECN_CE;
}

bool
RoceFrame::Decapsulate(Ptr<Packet> p, RoceFrameFields& out)
{
    RoceFrameView v;
    if (!Peek(p, v) || !v.isRoce)
    {
        return false;
    }
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    out.srcMac = eth.GetSource();
    out.dstMac = eth.GetDestination();
    out.useVlan = eth.HasVlan();
    out.pcp = eth.GetPcp();
    out.dei = eth.GetDei();
    out.vid = eth.GetVid();

    Ipv4Header ip;
    p->RemoveHeader(ip);
    out.srcIp = ip.GetSource();
    out.dstIp = ip.GetDestination();
    out.dscp = ip.GetTos() >> 2;
    out.ecn = ip.GetTos() & 3;
    out.ttl = ip.GetTtl();
    out.ipId = ip.GetIdentification();

    UdpHeader udp;
    p->RemoveHeader(udp);
    out.udpSrcPort = udp.GetSourcePort();

    IcrcTrailer icrc;
    p->RemoveTrailer(icrc);

    BthHeader bth;
    p->RemoveHeader(bth);
    out.opcode = bth.GetOpcode();
    out.se = bth.GetSolicitedEvent();
    out.migReq = bth.GetMigReq();
    out.padCnt = bth.GetPadCount();
    out.pKey = bth.GetPKey();
    out.fecn = bth.GetFecn();
    out.becn = bth.GetBecn();
    out.destQp = bth.GetDestQp();
    out.ackReq = bth.GetAckReq();
    out.psn = bth.GetPsn();
    out.SetExtHeadersForOpcode();
    if (out.hasReth)
    {
        RethHeader reth;
        p->RemoveHeader(reth);
        out.rethVa = reth.GetVirtualAddress();
        out.rethRKey = reth.GetRKey();
        out.rethDmaLen = reth.GetDmaLength();
    }
    if (out.hasImm)
    {
        ImmHeader imm;
        p->RemoveHeader(imm);
        out.imm = imm.GetImmediate();
    }
    if (out.hasAeth)
    {
        AethHeader aeth;
        p->RemoveHeader(aeth);
        out.aethSyndrome = aeth.GetSyndrome();
        out.aethMsn = aeth.GetMsn();
    }
    if (out.opcode == BthHeader::CNP)
    {
        CnpPayloadHeader cnp;
        p->RemoveHeader(cnp);
    }
    if (HasInt(out))
    {
        IntHeader records;
        p->RemoveHeader(records);
    }
    out.payloadBytes = p->GetSize();
    return true;
}

bool
RoceFrame::VerifyIcrc(Ptr<const Packet> p)
{
    RoceFrameView v;
    if (!Peek(p, v) || !v.isRoce || v.frameBytes < v.l3Offset + IcrcTrailer::SIZE)
    {
        return false;
    }
    std::vector<uint8_t> buf(p->GetSize());
    p->CopyData(buf.data(), buf.size());
    const uint8_t* t = buf.data() + buf.size() - IcrcTrailer::SIZE;
    uint32_t onWire =
        uint32_t(t[0]) | (uint32_t(t[1]) << 8) | (uint32_t(t[2]) << 16) | (uint32_t(t[3]) << 24);
    return onWire == IcrcTrailer::Calculate(buf.data() + v.l3Offset,
                                            buf.size() - v.l3Offset - IcrcTrailer::SIZE);
}

} // namespace ns3
