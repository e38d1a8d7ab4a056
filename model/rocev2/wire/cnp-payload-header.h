/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CNP_PAYLOAD_HEADER_H
#define CNP_PAYLOAD_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The 16 reserved bytes that follow the BTH of a RoCEv2 congestion notification
 * packet (opcode 0x81, RoCEv2 annex A17.9.3). Sent as zeros, ignored on receipt.
 */
class CnpPayloadHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16; //!< serialized bytes

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
};

} // namespace ns3

#endif // CNP_PAYLOAD_HEADER_H
