/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IPOIB_FRAME_H
#define IPOIB_FRAME_H

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup ai-fabric
 * \brief Everything a sender chooses for one IPoIB packet in datagram mode.
 */
struct IpoibFrameFields
{
    uint8_t vl{0};         //!< LRH virtual lane on the first link
    uint8_t sl{0};         //!< LRH service level
    uint16_t dlid{0};      //!< LRH destination LID
    uint16_t slid{0};      //!< LRH source LID
    uint16_t pKey{0xFFFF}; //!< BTH P_Key (default partition, full member)
    uint32_t destQp{0};    //!< BTH DestQP: the destination's IPoIB UD QP
    uint32_t psn{0};       //!< BTH PSN (the sending UD QP's counter; a UD receiver ignores it)
    uint32_t qKey{0};      //!< DETH Q_Key (the IPoIB broadcast group's)
    uint32_t srcQp{0};     //!< DETH SrcQP: the sender's IPoIB UD QP
    uint16_t type{0x0800}; //!< IPoIB encapsulation header: the payload's EtherType
};

/**
 * \ingroup ai-fabric
 * \brief IP over InfiniBand framing, datagram mode (RFC 4391): an IP packet as the
 * payload of an Unreliable Datagram SEND-only packet.
 *
 * LRH (8) / BTH (12, opcode 0x64 UD SEND only, AckReq 0) / DETH (8: Q_Key, SrcQP) /
 * IPoIB encapsulation header (4: EtherType, reserved) / IP packet / pad to 4 bytes /
 * ICRC (4) / VCRC (2). No GRH: the model is one subnet routed by LIDs, and a GRH is
 * optional in a UD packet between ports of one subnet (IBTA Vol. 1 section 8.3). The
 * CRCs are computed when IcrcTrailer::IsComputeEnabled() (zeros otherwise), as
 * IbFrame does for RC packets.
 */
class IpoibFrame
{
  public:
    static constexpr uint8_t OPCODE_UD_SEND_ONLY = 0x64; //!< IBTA Vol. 1 table 38
    static constexpr uint32_t DETH_BYTES = 8;            //!< Datagram Extended Transport Header
    static constexpr uint32_t ENCAP_BYTES = 4;           //!< IPoIB encapsulation header
    /// LRH + BTH + DETH + IPoIB header: the bytes before the IP packet
    static constexpr uint32_t HEADER_BYTES = 8 + 12 + DETH_BYTES + ENCAP_BYTES;
    /// ICRC + VCRC: the bytes after the IP packet and its pad
    static constexpr uint32_t TRAILER_BYTES = 4 + 2;

    /// Wrap the IP packet \p p into a whole IPoIB packet (LRH to VCRC).
    static void Encapsulate(Ptr<Packet> p, const IpoibFrameFields& f);
    /**
     * Take \p p (LRH to VCRC) back to its IP packet, reading its fields into \p f.
     * \return false if it is not a UD SEND-only packet long enough for its headers
     * (then \p p is unchanged)
     */
    static bool Decapsulate(Ptr<Packet> p, IpoibFrameFields& f);

    /// \return bytes of the IPoIB packet of an IP packet of \p ipBytes, LRH to VCRC
    static uint32_t PacketBytes(uint32_t ipBytes)
    {
        return HEADER_BYTES + ipBytes + ((4 - (ENCAP_BYTES + ipBytes) % 4) % 4) + TRAILER_BYTES;
    }
};

} // namespace ns3

#endif // IPOIB_FRAME_H
