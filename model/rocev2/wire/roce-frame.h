/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_FRAME_H
#define ROCE_FRAME_H

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/rdma-transport-fields.h"

#include <cstdint>

namespace ns3
{

class IntHeader;
class PfcHeader;
class SerializedHeaders;

/**
 * \ingroup ai-fabric
 * \brief Everything a sender chooses for one RoCEv2 frame (Ethernet / IPv4 / UDP 4791 /
 * BTH [/ RETH] [/ ImmDt] [/ AETH] / payload / ICRC). Defaults: no VLAN, DSCP 26 and
 * ECN ECT(0) (the usual RoCE traffic class with DCQCN), TTL 64, P_Key 0xFFFF.
 */
struct RoceFrameFields : RdmaTransportFields
{
    /// The TTL a NIC sends with: 64, the default TTL IANA assigns for IPv4 (RFC 1700,
    /// "Assigned Numbers", IP TTL; Linux's net.ipv4.ip_default_ttl). Switches decrement
    /// it (RoceSwitch), the receiver echoes INITIAL_TTL - TTL as the hop count (RoceNic).
    static constexpr uint8_t INITIAL_TTL = 64;

    Mac48Address srcMac; //!< Ethernet source
    Mac48Address dstMac; //!< Ethernet destination (next hop)
    bool useVlan{false}; //!< add an 802.1Q tag
    uint8_t pcp{3};      //!< 802.1Q priority (0..7), used only with useVlan
    bool dei{false};     //!< 802.1Q drop eligible
    uint16_t vid{0};     //!< 802.1Q VLAN id (0..4095)

    Ipv4Address srcIp;          //!< IPv4 source
    Ipv4Address dstIp;          //!< IPv4 destination
    uint8_t dscp{26};           //!< IPv4 DSCP (0..63)
    uint8_t ecn{2};             //!< IPv4 ECN (0..3): 0 not-ECT, 2 ECT(0), 1 ECT(1), 3 CE
    uint8_t ttl{INITIAL_TTL};   //!< IPv4 TTL
    uint16_t ipId{0};           //!< IPv4 identification (RoCE packets are never fragmented)
    uint16_t udpSrcPort{49152}; //!< UDP source port = flow entropy for ECMP

    bool se{false};     //!< BTH solicited event
    bool migReq{false}; //!< BTH MigReq
    uint8_t padCnt{0};  //!< BTH pad count (0..3)

    /// Set hasReth / hasAeth / hasImm to what the IBTA prescribes for \c opcode.
    void SetExtHeadersForOpcode();
};

/**
 * \ingroup ai-fabric
 * \brief Every header field of a frame, decoded: what the switch and NIC hot paths
 * read, and everything else the bytes carry, so that the bytes can be written
 * back from the view alone (RoceFrame::Materialize). IPs are host-order integers.
 * pcp, vid and dei are 0 for untagged frames (classify by dscp then). RETH, ImmDt
 * and AETH fields are 0 unless the opcode carries them.
 */
struct RoceFrameView
{
    // What a switch reads of a frame (with RoceParsedFrame's packet pointer, the
    // first cache line), then what the NIC reads, then the rest.
    uint32_t frameBytes;      //!< whole frame, FCS excluded
    uint32_t srcIp;           //!< IPv4 source (host order)
    uint32_t dstIp;           //!< IPv4 destination (host order)
    uint16_t udpSrc;          //!< UDP (or TCP) source port
    uint16_t udpDst;          //!< UDP (or TCP) destination port
    uint8_t ipProtocol;       //!< IPv4 protocol (17 = UDP)
    uint8_t dscp;             //!< IPv4 DSCP
    uint8_t ecn;              //!< IPv4 ECN (3 = CE)
    uint8_t pcp;              //!< 802.1Q priority
    bool isPfc;               //!< 802.1Qbb PFC frame (EtherType 0x8808, opcode 0x0101)
    bool isIpv4;              //!< EtherType 0x0800
    bool isRoce;              //!< IPv4 / UDP dst port 4791 with a full BTH
    bool hasVlan;             //!< 802.1Q tagged
    uint32_t destQp;          //!< BTH DestQP
    uint32_t psn;             //!< BTH PSN
    uint32_t aethMsn;         //!< AETH MSN
    uint32_t imm;             //!< immediate data
    uint8_t bthOpcode;        //!< BTH opcode
    uint8_t aethSyndrome;     //!< AETH syndrome
    bool fecn;                //!< BTH FECN
    bool becn;                //!< BTH BECN
    bool ackReq;              //!< BTH AckReq
    bool hasReth;             //!< RETH decoded (WRITE first/only, READ request)
    bool hasImm;              //!< ImmDt decoded (*-with-immediate)
    bool hasAeth;             //!< AETH decoded (ACK / READ response first/last/only)
    uint64_t rethVa;          //!< RETH virtual address
    uint32_t rethRKey;        //!< RETH R_Key
    uint32_t rethDmaLen;      //!< RETH DMA length
    uint16_t etherType;       //!< EtherType after any VLAN tag
    uint16_t vid;             //!< 802.1Q VLAN id
    uint16_t ipId;            //!< IPv4 identification
    uint16_t pKey;            //!< BTH P_Key
    uint16_t pfcEnableVector; //!< PFC class-enable vector
    uint16_t pfcPauseTime[8]; //!< PFC pause quanta per priority
    uint8_t dstMac[6];        //!< Ethernet destination
    uint8_t srcMac[6];        //!< Ethernet source
    uint8_t l3Offset;         //!< IPv4 header offset (14 or 18)
    uint8_t ttl;              //!< IPv4 TTL
    uint8_t padCnt;           //!< BTH pad count
    bool dei;                 //!< 802.1Q drop eligible
    bool se;                  //!< BTH solicited event
    bool migReq;              //!< BTH MigReq
    /// Not a header field: the FctAttribution journey of this frame (0: none, always
    /// with attribution off). In the view's tail padding; the bytes never carry it.
    uint32_t journey{0};

    Ipv4Address GetSrcAddress() const; //!< \return srcIp as an Ipv4Address
    Ipv4Address GetDstAddress() const; //!< \return dstIp as an Ipv4Address
};

/**
 * \ingroup ai-fabric
 * \brief A frame as it travels between RoCEv2 ports: its decoded headers, and its
 * bytes once something needs them.
 *
 * The view is decoded once, where the frame is made (the NIC writes it from the
 * fields it sends, a pause frame is peeked once), and travels on the cable and
 * through switch queues; a hop reads only the view. The bytes are the frame's
 * wire format exactly (RoceFrame::Build of the same fields; a test checks every
 * field and opcode), written the first time they are asked for: by a trace sink
 * (pcap, PhyTxBegin, ...), or non-minimal DragonFly routing's packet tag. A NIC's
 * frame that nothing observes never allocates a packet, which is most of a
 * frame's cost otherwise. What changes a frame on its way (ECN marking, a class
 * change) changes the view, and the bytes too when they exist. A frame without bytes
 * carries its INT records (RoceFrame::HasInt) as a pooled IntHeader once a NIC or a
 * switch writes some (RoceFrame::WriteInt); its bytes, when written, hold them.
 */
class RoceParsedFrame
{
  public:
    RoceParsedFrame() = default;

    /// A frame known by its view; its bytes are written when first asked for.
    explicit RoceParsedFrame(const RoceFrameView& view)
        : view(view)
    {
    }

    /// \p packet (one more reference to it) with its decoded headers \p view.
    RoceParsedFrame(const Ptr<Packet>& packet, const RoceFrameView& view)
        : m_held(reinterpret_cast<uintptr_t>(PeekPointer(packet))),
          view(view)
    {
        if (m_held != 0)
        {
            packet->Ref();
        }
    }

    // Moves hand the packet's reference (or the INT block) over without touching it:
    // ns-3's Ptr (before ns-3.42) copies even from an rvalue, a reference-count update
    // on the packet object, whose cache line a hop would otherwise never need.
    RoceParsedFrame(RoceParsedFrame&& other) noexcept
        : m_held(other.m_held),
          view(other.view),
          readyTicks(other.readyTicks)
    {
        other.m_held = 0;
    }

    RoceParsedFrame& operator=(RoceParsedFrame&& other) noexcept
    {
        if (this != &other)
        {
            Release();
            view = other.view;
            readyTicks = other.readyTicks;
            m_held = other.m_held;
            other.m_held = 0;
        }
        return *this;
    }

    RoceParsedFrame(const RoceParsedFrame&) = delete;
    RoceParsedFrame& operator=(const RoceParsedFrame&) = delete;

    ~RoceParsedFrame()
    {
        Release();
    }

    /// \return the frame's bytes (FCS excluded), written from the view on first use
    Ptr<Packet> GetPacket();

    /// Drop the bytes, if any, and take \p v as the view: a frame rebuilt where it
    /// is, without a temporary frame copied in (see RoceFrame::CompleteParsed).
    void Assign(const RoceFrameView& v)
    {
        Release();
        view = v;
        readyTicks = 0;
    }

    /// \return true if the bytes have been written (GetPacket was called, or given)
    bool HasPacket() const
    {
        return m_held != 0 && (m_held & INT_TAG) == 0;
    }

    /// \return the INT records of a frame without bytes (RoceFrame::WriteInt), or
    /// nullptr (none written yet, or the frame has bytes)
    IntHeader* GetIntBlock() const
    {
        return (m_held & INT_TAG) != 0 ? reinterpret_cast<IntHeader*>(m_held & ~INT_TAG) : nullptr;
    }

    /// Carry \p h as the INT records of this frame, which has no bytes (!HasPacket()).
    void SetIntBlock(const IntHeader& h);

  private:
    friend class RoceQueuedFrame; // packs the view and takes m_held over while queued

    /// m_held's low bit: it holds an INT block, not a packet (both are 8-byte aligned).
    static constexpr uintptr_t INT_TAG = 1;

    void Release()
    {
        if (m_held != 0)
        {
            ReleaseHeld(); // out of line: most frames hold nothing
        }
    }

    /// Drop the packet's reference or give the INT block back to its pool; m_held = 0.
    [[gnu::noinline]] void ReleaseHeld();

    // The packet pointer first, then the view's fields a switch reads: a frame's
    // hop through a switch reads one cache line of it. One word holds the bytes or
    // the INT block (a frame with bytes keeps its records there): a frame stays 128
    // bytes, the event payload's room.
    uintptr_t m_held{0}; //!< Packet* (one reference), or IntHeader* | INT_TAG, or 0

  public:
    RoceFrameView view; //!< the frame's decoded headers
    /**
     * The earliest time step at which the port sending the frame next may start it;
     * 0: at once. A switch writes it (its SwitchLatency, store-and-forward or
     * cut-through) when the frame arrives, the sending port reads it and clears it
     * (RoceNetDevice::PutOnWire): it is a hop's state, not part of the frame's bytes.
     */
    int64_t readyTicks{0};
};

/**
 * \ingroup ai-fabric
 * \brief RoCEv2 framing used by the NIC and the switch: build, peek, mark, parse.
 *
 * Frames carry real bytes (pcaps decode), with the payload usually a virtual
 * zero-filled area; on the data path the bytes are written when first observed
 * (RoceParsedFrame). GetSize() of a frame excludes the FCS; preamble, FCS and IFG are
 * accounted by the device (RoceEthernetHeader::WIRE_OVERHEAD_BYTES).
 */
class RoceFrame
{
  public:
    static constexpr uint16_t ROCEV2_UDP_PORT = 4791; //!< IANA port of RoCEv2
    static constexpr uint8_t IP_PROTO_UDP = 17;       //!< IPv4 protocol number of UDP
    static constexpr uint8_t IP_PROTO_TCP = 6;        //!< IPv4 protocol number of TCP
    static constexpr uint32_t PEEK_BYTES = 80;        //!< bytes Peek copies at most
    static constexpr uint8_t INITIAL_TTL = RoceFrameFields::INITIAL_TTL; //!< a NIC's TTL
    /**
     * The DSCP bit that says an INT block (IntHeader, 44 bytes) follows the BTH and its
     * extended headers, before the payload: INT-MD over UDP indicates INT with a DSCP
     * value or bit (P4.org In-band Network Telemetry specification v2.1, sec. 5.7.1);
     * ai-fabric's classes use DSCP bits 5..3 (priority << 3), so bit 0 is free. Set only
     * by NICs running an INT-based congestion control (RoceNic IntEnabled). Build and
     * Encapsulate write an (empty) block for fields with the bit, HeaderBytes counts
     * it, Decapsulate removes it; CNPs never carry one.
     */
    static constexpr uint8_t INT_DSCP_BIT = 0x01;
    static constexpr uint8_t CNP_OPCODE = 0x81; //!< BTH opcode of a RoCEv2 CNP

    /// \return true if the RoCEv2 frame of view \p v carries an INT block: its DSCP
    /// has INT_DSCP_BIT and it is not a CNP (whose DSCP bits mean nothing more)
    static bool HasInt(const RoceFrameView& v)
    {
        return v.isRoce && (v.dscp & INT_DSCP_BIT) != 0 && v.bthOpcode != CNP_OPCODE;
    }

    /// \return true if the frame of fields \p f carries an INT block (as HasInt(view))
    static bool HasInt(const RoceFrameFields& f)
    {
        return (f.dscp & INT_DSCP_BIT) != 0 && f.opcode != CNP_OPCODE;
    }

    /// \return the byte offset of the INT block in the frame of view \p v (HasInt)
    static uint32_t IntOffset(const RoceFrameView& v);
    /**
     * The bytes of the RoCEv2 frame of view \p v (HasInt; v.frameBytes includes the
     * block) with INT block \p h: what Materialize gives, with \p h's records.
     */
    static Ptr<Packet> MaterializeWithInt(const RoceFrameView& v, const IntHeader& h);
    /// Read the INT block of \p frame (HasInt): from its bytes if it has them, else
    /// the records it carries (none: an empty block, what its bytes would hold).
    /// \return false if the block is not a version this model reads
    static bool ReadInt(RoceParsedFrame& frame, IntHeader& h);
    /// Overwrite the INT block of \p frame (HasInt) with \p h: in its bytes if it has
    /// them (the ICRC is recomputed when ICRC computation is on: it covers the block),
    /// else in the records it carries until its bytes are written.
    static void WriteInt(RoceParsedFrame& frame, const IntHeader& h);

    /**
     * Wrap the payload in \p p (p->GetSize() must equal f.payloadBytes) into a full
     * frame: BTH, RETH, ImmDt, AETH (as flagged; CNPs get their 16 reserved bytes),
     * UDP (dst 4791, checksum 0), IPv4 (DF, checksum), Ethernet, ICRC trailer.
     */
    static void Encapsulate(Ptr<Packet> p, const RoceFrameFields& f);
    /**
     * A new frame with a zero-filled payload of f.payloadBytes: the bytes
     * Encapsulate gives, built with one buffer operation (the NIC's per-packet path).
     */
    static Ptr<Packet> Build(const RoceFrameFields& f);
    /**
     * The view Peek gives of the frame Build(f) makes, from the fields alone (no
     * decoding): what the NIC carries with each frame it sends.
     */
    static void Describe(const RoceFrameFields& f, RoceFrameView& v);
    /// \return the fields Build makes a RoCEv2 frame of view \p v with (v.isRoce)
    static RoceFrameFields FieldsOf(const RoceFrameView& v);
    /// \return the bytes of the RoCEv2 frame of view \p v: Build(FieldsOf(v))
    static Ptr<Packet> Materialize(const RoceFrameView& v);
    /**
     * The frame Build(f) makes, as the NIC sends it: the view now, the bytes when
     * asked for (RoceParsedFrame::GetPacket). With ICRC computation on, the bytes
     * are written at once (the CRC covers the payload's zeros, from the same bytes).
     */
    static RoceParsedFrame BuildParsed(const RoceFrameFields& f);
    /// The frame of view \p v as BuildParsed makes it (bytes later, unless ICRC is on).
    static RoceParsedFrame MakeParsed(const RoceFrameView& v);
    /// MakeParsed for a frame whose view was written in place (RoceParsedFrame::Assign,
    /// then its per-packet fields): its bytes now if ICRC computation is on.
    static void CompleteParsed(RoceParsedFrame& frame);
    /// Wrap PFC body \p pfc (p is empty) into a 60-byte frame to 01:80:C2:00:00:01.
    static void EncapsulatePfc(Ptr<Packet> p, Mac48Address srcMac, const PfcHeader& pfc);
    /// \return framing bytes around the payload (FCS excluded): 58 for an untagged
    /// WRITE-middle, +16 with RETH, +4 with AETH or ImmDt, +16 for a CNP, +4 with VLAN,
    /// +44 with the INT block (HasInt).
    static uint32_t HeaderBytes(const RoceFrameFields& f);

    /// Decode \p p's headers into \p v from its first PEEK_BYTES bytes, without
    /// allocation. \return false if the frame is neither IPv4 nor PFC, or truncated.
    static bool Peek(const Packet& p, RoceFrameView& v);
    /// Same as Peek(*p, v).
    static bool Peek(Ptr<const Packet> p, RoceFrameView& v);
    /// Seeded hash of (src IP, dst IP, protocol, UDP src, UDP dst), for ECMP.
    static uint32_t FlowHash(const RoceFrameView& v, uint32_t seed);

    /// \return hash % n (n > 0), without a division when n is a power of two (a fat
    /// tree's k/2 up-links): the same index, a mask instead of ~10-20 cycles of div.
    static uint32_t HashIndex(uint32_t hash, uint32_t n)
    {
        return (n & (n - 1)) == 0 ? hash & (n - 1) : hash % n;
    }

    /// Rewrite the IPv4 ECN field to CE (11), recomputing the IPv4 header checksum.
    static void SetEcnCe(Ptr<Packet> p);
    /// Mark the frame CE: its view, and its bytes if they exist.
    static void SetEcnCe(RoceParsedFrame& frame);
    /// Decrement the IPv4 TTL by one, recomputing the IPv4 header checksum (RFC 1812
    /// 5.3.1; the ICRC masks TTL and checksum, so it stays valid).
    static void DecrementTtl(Ptr<Packet> p);

    /**
     * What an IPv4 router does to a frame it forwards (RFC 1812 5.3.1): TTL - 1. The
     * view's byte always (the bytes written later follow it), the bytes too if they
     * exist (pcap, ICRC computation, DragonFly's non-minimal routing tag).
     */
    static void DecrementTtl(RoceParsedFrame& frame)
    {
        frame.view.ttl--;
        if (frame.HasPacket())
        {
            DecrementTtlBytes(frame); // out of line: no packet pointer on the common path
        }
    }

    /// DecrementTtl(frame.GetPacket()), for a frame whose bytes exist.
    [[gnu::noinline]] static void DecrementTtlBytes(RoceParsedFrame& frame);

    /**
     * Remove all headers and the ICRC, leaving the payload in \p p, and fill \p out
     * (payloadBytes = what is left). Extended headers follow from the opcode.
     * \return false (p untouched) if \p p is not a RoCEv2 frame.
     */
    static bool Decapsulate(Ptr<Packet> p, RoceFrameFields& out);
    /// \return true if the frame's ICRC matches its bytes (see IcrcTrailer::Calculate).
    static bool VerifyIcrc(Ptr<const Packet> p);

  private:
    /// Stop with one message naming the field if \p f cannot be framed.
    static void CheckFields(const RoceFrameFields& f);
    /// Check f and write its headers (Ethernet .. AETH / CNP, INT) into block; the INT
    /// block (HasInt(f)) holds \p h's records, or none if \p h is nullptr.
    /// \return the header bytes written
    static uint32_t WriteHeaders(const RoceFrameFields& f,
                                 SerializedHeaders& block,
                                 const IntHeader* h = nullptr);
    /// Encapsulate with the INT block's records \p h (nullptr: none yet).
    static void Encapsulate(Ptr<Packet> p, const RoceFrameFields& f, const IntHeader* h);
    /// Build with the INT block's records \p h (nullptr: none yet).
    static Ptr<Packet> Build(const RoceFrameFields& f, const IntHeader* h);
};

} // namespace ns3

#endif // ROCE_FRAME_H
