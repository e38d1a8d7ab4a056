/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_ETHERNET_HEADER_H
#define ROCE_ETHERNET_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Ethernet II header with an optional IEEE 802.1Q tag (14 or 18 bytes).
 *
 * Layout: destination MAC (6), source MAC (6), [TPID 0x8100 (2), PCP(3) DEI(1)
 * VID(12) (2)], EtherType (2). Preamble, start-of-frame delimiter, FCS and the
 * inter-frame gap are not part of the header: the device counts them as wire
 * overhead (WIRE_OVERHEAD_BYTES) when it computes serialization time, so a
 * packet's GetSize() is the frame without FCS, as a pcap shows it.
 */
class RoceEthernetHeader : public Header
{
  public:
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;        //!< IPv4 (RoCEv2)
    static constexpr uint16_t ETHERTYPE_VLAN = 0x8100;        //!< 802.1Q TPID
    static constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808; //!< MAC control (PFC)
    static constexpr uint32_t FCS_BYTES = 4;                  //!< frame check sequence
    static constexpr uint32_t PREAMBLE_SFD_BYTES = 8;         //!< 7 preamble + 1 SFD
    static constexpr uint32_t IFG_BYTES = 12;                 //!< minimum inter-frame gap
    /// Bytes a frame occupies on the wire beyond GetSize(): FCS + preamble/SFD + IFG = 24.
    static constexpr uint32_t WIRE_OVERHEAD_BYTES = FCS_BYTES + PREAMBLE_SFD_BYTES + IFG_BYTES;
    static constexpr uint32_t UNTAGGED_SIZE = 14; //!< header bytes without 802.1Q tag
    static constexpr uint32_t TAGGED_SIZE = 18;   //!< header bytes with 802.1Q tag

    RoceEthernetHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetDestination(Mac48Address dst);
    Mac48Address GetDestination() const;
    void SetSource(Mac48Address src);
    Mac48Address GetSource() const;
    void SetEtherType(uint16_t type);
    uint16_t GetEtherType() const;

    /**
     * Add an 802.1Q tag.
     * \param pcp priority code point, 0..7
     * \param dei drop eligible indicator
     * \param vid VLAN id, 0..4095
     */
    void SetVlan(uint8_t pcp, bool dei, uint16_t vid);
    /// Remove the 802.1Q tag (14-byte header).
    void ClearVlan();
    bool HasVlan() const;
    uint8_t GetPcp() const;
    bool GetDei() const;
    uint16_t GetVid() const;

  private:
    Mac48Address m_dst;   //!< destination MAC
    Mac48Address m_src;   //!< source MAC
    bool m_hasVlan;       //!< 802.1Q tag present
    uint8_t m_pcp;        //!< priority code point (3 bits)
    bool m_dei;           //!< drop eligible indicator
    uint16_t m_vid;       //!< VLAN id (12 bits)
    uint16_t m_etherType; //!< EtherType of the payload
};

} // namespace ns3

#endif // ROCE_ETHERNET_HEADER_H
