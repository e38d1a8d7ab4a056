/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_PDS_HEADER_H
#define UET_PDS_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The Ultra Ethernet Transport's packet delivery sublayer (PDS) header, in the
 * three forms --fabric=uet sends (Ultra Ethernet specification 1.0.1, PDS; field layout
 * as Wireshark's UET dissector, epan/dissectors/packet-uet.c, decodes it):
 *
 *   prologue (every form, 2 bytes): type (5 bits) | next header (4) | flags (7)
 *   RUD request (12 bytes): clear PSN offset (signed 16) | PSN (32) | SPDCID (16) |
 *                           DPDCID (16), or with SYN: PDC mode (4) | PSN offset (12)
 *   ACK (12 bytes):         ACK PSN offset (signed 16) | cumulative ACK PSN (32) |
 *                           SPDCID (16) | DPDCID (16)
 *   ACK_CC (32 bytes):      the ACK's 12 | CC type (4) | CC flags (4) | MPR (8) | SACK
 *                           PSN offset (16) | SACK bitmap (64) | CC state (64; NSCC:
 *                           service time 16 | RC 1 | rcv_cwnd_pend 7 | rcvd bytes 24 |
 *                           OOO count 16)
 *   NACK (16 bytes):        NACK code (8) | vendor code (8) | NACK PSN (32) | SPDCID (16)
 *                           | DPDCID (16) | maximum received PSN (32)
 *   RUD CC request (16):    the RUD request's 12 bytes | CCC id (8) | credit target (24)
 *   control (16 bytes):     (the prologue's next header is the control type) probe
 *                           opaque (16) | PSN (32) | SPDCID (16) | DPDCID (16) | payload
 *                           (32; a CREDIT's: the credit granted)
 *
 * Request flags: RETX 0x10, AR (ACK request) 0x08, SYN 0x04. ACK flags: M (ECN marked)
 * 0x20, RETX 0x10, P (probe) 0x08, REQ 0x06. NACK flags: M 0x20, RETX 0x10, NT 0x08.
 */
class UetPdsHeader : public Header
{
  public:
    /// PDS packet types (the prologue's 5-bit type).
    enum Type : uint8_t
    {
        RUD_REQ = 2,     //!< reliable unordered delivery request
        ROD_REQ = 3,     //!< reliable ordered delivery request
        ACK = 7,         //!< acknowledgement
        ACK_CC = 8,      //!< acknowledgement with SACK bitmap and CC state
        NACK = 10,       //!< negative acknowledgement
        CONTROL = 11,    //!< control packet (CP): its type in the next-header field
        RUD_CC_REQ = 13, //!< RUD request with congestion control state (RCCC)
    };

    /// Control packet types (a CONTROL packet's next-header field).
    static constexpr uint8_t CTL_CREDIT = 7; //!< credit (RCCC: the receiver's grant)

    /// Next header values (the prologue's 4 bits): which SES header follows.
    static constexpr uint8_t NH_NONE = 0;    //!< none
    static constexpr uint8_t NH_REQ_STD = 3; //!< SES standard request header

    static constexpr uint8_t FLAG_M = 0x20;    //!< ACK/NACK: the request was ECN-marked
    static constexpr uint8_t FLAG_RETX = 0x10; //!< retransmitted
    static constexpr uint8_t FLAG_AR = 0x08;   //!< request: ACK requested
    static constexpr uint8_t FLAG_SYN = 0x04;  //!< request: PDC not yet established

    static constexpr uint8_t CC_TYPE_NSCC = 0; //!< ACK_CC: its CC state is NSCC's

    /// NACK codes.
    static constexpr uint8_t NACK_TRIMMED = 0x01;          //!< the packet was trimmed
    static constexpr uint8_t NACK_NO_SES_MSG_AVAIL = 0x09; //!< no message state (RNR)
    static constexpr uint8_t NACK_RCVR_INFER_LOSS = 0x1A;  //!< the receiver infers a loss

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \return whether PDS type \p type is a RUD request (with or without CC state)
    static bool IsRudRequest(uint8_t type)
    {
        return type == RUD_REQ || type == RUD_CC_REQ;
    }

    /// \return the size of a PDS header of type \p type (12; 16 for a NACK, a control
    /// packet and a request with CC state)
    static uint32_t SizeOf(uint8_t type);

    uint8_t type{RUD_REQ};    //!< prologue type
    uint8_t nextHeader{0};    //!< prologue next header (requests), 0 otherwise
    uint8_t flags{0};         //!< prologue flags (7 bits)
    int16_t psnOffset{0};     //!< request: clear PSN offset; ACK: ACK PSN offset
    uint32_t psn{0};          //!< request: PSN; ACK: cumulative ACK PSN; NACK: NACK PSN
    uint16_t spdcid{0};       //!< source PDC id
    uint16_t dpdcid{0};       //!< destination PDC id (request with SYN: PDC mode | offset)
    uint8_t nackCode{0};      //!< NACK: code
    uint8_t vendorCode{0};    //!< NACK: vendor code
    uint32_t maxRecvPsn{0};   //!< NACK: the highest PSN received
    uint8_t cccId{0};         //!< RUD CC request: congestion control context id
    uint32_t creditTarget{0}; //!< RUD CC request: credit target (24 bits)
    uint8_t ccType{0};        //!< ACK_CC: CC type (4 bits)
    uint8_t mpr{0};           //!< ACK_CC: maximum PSN range
    uint16_t sackOffset{0};   //!< ACK_CC: SACK base PSN - cumulative ACK PSN
    uint64_t sackBitmap{0};   //!< ACK_CC: bit i: PSN SACK base + i arrived
    uint64_t ccState{0};      //!< ACK_CC: CC state (NSCC: OOO count in its low 16 bits)
    uint16_t probeOpaque{0};  //!< control packet: probe opaque
    uint32_t ctlPayload{0};   //!< control packet: payload (CREDIT: the credit)
};

} // namespace ns3

#endif // UET_PDS_HEADER_H
