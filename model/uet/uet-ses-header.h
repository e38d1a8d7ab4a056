/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_SES_HEADER_H
#define UET_SES_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The Ultra Ethernet Transport's semantic sublayer (SES) standard request header,
 * 44 bytes (Ultra Ethernet specification 1.0.1, SES; field layout as Wireshark's UET
 * dissector decodes it):
 *
 *   rsv (2 bits) | opcode (6) | flags: ver (2) dc ie rel hd eom som | message id (16) |
 *   index generation (8) | job id (24) | rsv (4) | PID on FEP (12) | rsv (4) |
 *   resource index (12) | buffer offset (64) | initiator (32) |
 *   memory key / match bits (64) | header data (64) with SOM, else payload length (32) |
 *   message offset (32) | request length (32)
 */
class UetSesHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 44;      //!< bytes
    static constexpr uint8_t OP_WRITE = 0x01; //!< UET_WRITE
    static constexpr uint8_t OP_SEND = 0x05;  //!< UET_SEND
    static constexpr uint8_t FLAG_HD = 0x04;  //!< header data present
    static constexpr uint8_t FLAG_EOM = 0x02; //!< end of message
    static constexpr uint8_t FLAG_SOM = 0x01; //!< start of message

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint8_t opcode{OP_WRITE};   //!< SES opcode (6 bits)
    uint8_t flags{0};           //!< ver | dc | ie | rel | hd | eom | som
    uint16_t messageId{0};      //!< message id
    uint8_t indexGeneration{0}; //!< resource index generation
    uint32_t jobId{0};          //!< job id (24 bits)
    uint16_t pidOnFep{0};       //!< PID on the fabric endpoint (12 bits)
    uint16_t resourceIndex{0};  //!< resource index (12 bits)
    uint64_t bufferOffset{0};   //!< offset in the target buffer
    uint32_t initiator{0};      //!< initiator id
    uint64_t memoryKey{0};      //!< memory key / match bits
    uint64_t headerData{0};     //!< with SOM: header data
    uint32_t payloadLength{0};  //!< without SOM: this packet's payload bytes
    uint32_t messageOffset{0};  //!< without SOM: this packet's offset in the message
    uint32_t requestLength{0};  //!< the message's length
};

} // namespace ns3

#endif // UET_SES_HEADER_H
