/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IPOIB_HEADER_H
#define IPOIB_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The IPoIB encapsulation header (4 bytes, RFC 4391 section 6): a 16-bit Type
 * field carrying the EtherType of the payload (0x0800 IPv4, 0x0806 ARP, 0x86DD IPv6)
 * and 16 reserved bits, zero. It is the first 4 bytes of every IPoIB packet's payload,
 * in the UD SEND after the BTH and DETH.
 */
class IpoibHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 4;                //!< serialized bytes
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800; //!< IPv4 (RFC 4391)

    IpoibHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param type the payload's EtherType
    void SetType(uint16_t type);
    uint16_t GetType() const;
    /// \return the reserved field as received (0 when sent by this model)
    uint16_t GetReserved() const;

  private:
    uint16_t m_type;     //!< EtherType of the payload
    uint16_t m_reserved; //!< reserved, 0
};

} // namespace ns3

#endif // IPOIB_HEADER_H
