/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_FRAME_H
#define IB_FRAME_H

#include "ns3/ptr.h"
#include "ns3/rdma-transport-fields.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup ai-fabric
 * \brief Everything a sender chooses for one InfiniBand packet
 * (LRH / BTH [/ RETH] [/ ImmDt] [/ AETH] / payload / ICRC / VCRC). No GRH: the model
 * is one subnet, routed by LIDs.
 */
struct IbFrameFields : RdmaTransportFields
{
    uint8_t vl{0};    //!< LRH virtual lane on the first link
    uint8_t sl{0};    //!< LRH service level
    uint16_t dlid{0}; //!< LRH destination LID
    uint16_t slid{0}; //!< LRH source LID
};

/**
 * \ingroup ai-fabric
 * \brief What the HCA and switch hot paths need, decoded from fixed offsets.
 */
struct IbFrameView
{
    uint32_t packetBytes{0};  //!< whole packet, LRH to VCRC
    uint8_t vl{0};            //!< LRH VL
    uint8_t sl{0};            //!< LRH SL
    uint8_t lnh{0};           //!< LRH LNH
    uint16_t dlid{0};         //!< LRH DLID
    uint16_t slid{0};         //!< LRH SLID
    uint8_t opcode{0};        //!< BTH opcode
    bool fecn{false};         //!< BTH FECN
    bool becn{false};         //!< BTH BECN
    uint16_t pKey{0xFFFF};    //!< BTH P_Key
    bool ackReq{false};       //!< BTH AckReq
    uint32_t destQp{0};       //!< BTH DestQP
    uint32_t psn{0};          //!< BTH PSN
    bool hasAeth{false};      //!< AETH decoded (ACK)
    uint8_t aethSyndrome{0};  //!< AETH syndrome
    uint32_t aethMsn{0};      //!< AETH MSN
    uint32_t payloadBytes{0}; //!< RDMA payload bytes (a READ response's AETH included)
    uint32_t rethDmaLen{0};   //!< RETH DMA length (READ requests only)
    uint32_t journey{0};      //!< not a header field: FctAttribution's journey (IbHca)
};

/**
 * \ingroup ai-fabric
 * \brief An InfiniBand packet as its headers and length, from which its bytes are
 * written again (IbFrame::Materialize): what IbRemoteChannel sends to another rank
 * instead of the packet.
 *
 * Every byte of a packet of the model past its first PEEK_BYTES (LRH, BTH, and the
 * RETH, ImmDt or AETH its opcode carries; at most 40 bytes) up to its ICRC is payload
 * or pad, which are zeros (IbHca makes its payloads as a zero-filled area; switches
 * rewrite only the LRH's VL and the BTH's FECN, and the VCRC): the first bytes, the
 * length and the two CRCs give every byte.
 */
struct IbFrameHeaders
{
    uint32_t packetBytes{0}; //!< whole packet, LRH to VCRC
    uint32_t icrc{0};        //!< the ICRC as on the wire (0 unless computed)
    uint16_t vcrc{0};        //!< the VCRC as on the wire (0 unless computed)
    uint8_t leadingBytes{0}; //!< bytes of \c leading in use: the packet's first ones
    uint8_t reserved{0};     //!< zero
    uint8_t leading[40]{};   //!< the packet's first bytes (LRH, BTH, extended headers)
};

/**
 * \ingroup ai-fabric
 * \brief InfiniBand framing: build, peek, change the VL, and credit arithmetic.
 *
 * Packets carry real header bytes; GetSize() is the whole packet from the LRH to the
 * VCRC, which is what credits (64-byte blocks) and the wire both count. The physical
 * layer's start/end delimiters and idles are not modelled (the link rates used are
 * data rates after 64b/66b encoding). The ICRC and VCRC are zeros unless
 * IcrcTrailer::IsComputeEnabled(); then Encapsulate computes both and SetVl/SetFecn
 * recompute the VCRC, as a switch does when it rewrites a variant field.
 */
class IbFrame
{
  public:
    static constexpr uint32_t LRH_BYTES = 8;    //!< Local Route Header
    static constexpr uint32_t BTH_BYTES = 12;   //!< Base Transport Header
    static constexpr uint32_t RETH_BYTES = 16;  //!< RDMA Extended Transport Header
    static constexpr uint32_t AETH_BYTES = 4;   //!< ACK Extended Transport Header
    static constexpr uint32_t IMM_BYTES = 4;    //!< Immediate data
    static constexpr uint32_t ICRC_BYTES = 4;   //!< invariant CRC
    static constexpr uint32_t VCRC_BYTES = 2;   //!< variant CRC
    static constexpr uint32_t BLOCK_BYTES = 64; //!< one flow-control credit
    static constexpr uint32_t PEEK_BYTES = 40;  //!< LRH + BTH + RETH + AETH at most
    static_assert(sizeof(IbFrameHeaders::leading) == PEEK_BYTES, "room for PEEK_BYTES");

    /// Wrap the payload in p (size f.payloadBytes) into a full packet.
    static void Encapsulate(Ptr<Packet> p, const IbFrameFields& f);
    /// \return bytes around the payload: 26 for a WRITE middle (LRH 8, BTH 12, ICRC 4,
    /// VCRC 2), +16 with RETH, +4 with ImmDt, +4 with AETH.
    static uint32_t HeaderBytes(uint8_t opcode, bool hasAeth);
    /// Decode p's headers into v without allocation. \return false if truncated.
    static bool Peek(Ptr<const Packet> p, IbFrameView& v);
    /**
     * The headers and length of \p p, from which Materialize writes its bytes again.
     * \return false if \p p carries more than its bytes (a packet or byte tag), or is
     * shorter than an LRH, a BTH and the CRCs
     */
    static bool ReadHeaders(Ptr<const Packet> p, IbFrameHeaders& h);
    /// \return the packet of headers \p h (ReadHeaders): its first bytes, zeros up to
    /// the ICRC, the ICRC and the VCRC
    static Ptr<Packet> Materialize(const IbFrameHeaders& h);
    /// Rewrite the LRH's VL (switches do when SL-to-VL maps to another lane).
    static void SetVl(Ptr<Packet> p, uint8_t vl);
    /// Set the BTH's FECN bit (a congested switch port does, IB congestion control).
    static void SetFecn(Ptr<Packet> p);

    /**
     * The ICRC of a local (LRH, no GRH) packet, IBTA Vol. 1 section 7.8.1: CRC-32 of
     * Ethernet over the packet from the LRH to the end of the payload and pad, with the
     * variant fields (the LRH's VL, the BTH's FECN/BECN/reserved byte) taken as ones.
     * \param lrh the LRH's first byte
     * \param len bytes from the LRH to the ICRC, excluded
     * \return the ICRC value (serialized LSB first)
     */
    static uint32_t CalculateIcrc(const uint8_t* lrh, uint32_t len);
    /// \return true if p's ICRC and VCRC both hold the values its bytes give.
    static bool VerifyCrcs(Ptr<const Packet> p);

    /// \return credits (64-byte blocks, rounded up) a packet of this many bytes takes.
    static uint32_t Blocks(uint32_t packetBytes)
    {
        return (packetBytes + BLOCK_BYTES - 1) / BLOCK_BYTES;
    }
};

} // namespace ns3

#endif // IB_FRAME_H
