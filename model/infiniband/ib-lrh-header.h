/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_LRH_HEADER_H
#define IB_LRH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief InfiniBand Local Route Header (8 bytes, IBTA vol. 1 ch. 7.7).
 *
 * Layout: VL(4) LVer(4) | SL(4) rsvd(2) LNH(2) | DLID(16) | rsvd(5) PktLen(11) | SLID(16).
 * PktLen counts 4-byte words from the LRH up to and including the ICRC (VCRC excluded).
 */
class IbLrhHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 8;            //!< serialized bytes
    static constexpr uint8_t LNH_RAW = 0x0;        //!< raw packet
    static constexpr uint8_t LNH_IBA_LOCAL = 0x2;  //!< BTH follows
    static constexpr uint8_t LNH_IBA_GLOBAL = 0x3; //!< GRH follows

    IbLrhHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetVl(uint8_t vl); //!< virtual lane (0..15)
    uint8_t GetVl() const;
    void SetLVer(uint8_t v); //!< link version (0)
    uint8_t GetLVer() const;
    void SetSl(uint8_t sl); //!< service level (0..15)
    uint8_t GetSl() const;
    void SetLnh(uint8_t lnh); //!< link next header (0..3)
    uint8_t GetLnh() const;
    void SetDlid(uint16_t lid); //!< destination LID
    uint16_t GetDlid() const;
    void SetPacketLengthWords(uint16_t words); //!< PktLen (11 bits)
    uint16_t GetPacketLengthWords() const;
    void SetSlid(uint16_t lid); //!< source LID
    uint16_t GetSlid() const;

  private:
    uint8_t m_vl;
    uint8_t m_lver;
    uint8_t m_sl;
    uint8_t m_lnh;
    uint16_t m_dlid;
    uint16_t m_pktLen;
    uint16_t m_slid;
};

} // namespace ns3

#endif // IB_LRH_HEADER_H
