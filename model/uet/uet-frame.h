/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_FRAME_H
#define UET_FRAME_H

#include "uet-pds-header.h"

#include "ns3/roce-frame.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Ultra Ethernet Transport framing: Ethernet / IPv4 / UDP 4793 / PDS [/ SES] /
 * payload, as the specification lays it out (UetPdsHeader, UetSesHeader), no ICRC
 * (UET's optional TSS security header is not modelled). The NIC keeps RoceNic's RDMA
 * transport: UetNic encodes the transport's frames (a RoCEv2 view: BTH opcode, PSN,
 * DestQP, AETH, RETH) into UET bytes when they leave and decodes UET bytes back into
 * those fields when they arrive, with this class:
 *
 *   WRITE/SEND first..only [with imm] -> PDS RUD request + SES standard request
 *     (UET_WRITE / UET_SEND, SOM on first/only, EOM on last/only, HD on *_WITH_IMM)
 *   ACK -> PDS ACK (cumulative ACK PSN; M flag: the ECN echo)
 *   NAK, RNR NAK, trim NACK -> PDS NACK (codes RCVR_INFER_LOSS, NO_SES_MSG_AVAIL,
 *     TRIMMED; the vendor code carries the RDMA syndrome it stands for)
 *
 * Frames shorter than Ethernet's 60-byte minimum (without FCS) are padded.
 */
class UetFrame
{
  public:
    static constexpr uint16_t UDP_PORT = 4793;      //!< IANA port of the Ultra Ethernet Transport
    static constexpr uint32_t MIN_FRAME_BYTES = 60; //!< Ethernet minimum without FCS
    /// The AETH syndrome of the transport's frame that stands for a CREDIT control packet
    /// (RCCC; its AETH MSN the credit): NAK code 6, reserved by the IBTA, never sent as
    /// such (UetNic::TRIM_NACK_SYNDROME is code 5).
    static constexpr uint8_t CREDIT_SYNDROME = 0x66;
    /// Bytes a PDS request's CC state adds (RUD_CC_REQ: CCC id and credit target).
    static constexpr uint32_t CC_STATE_BYTES = 4;

    /// What a data packet's SES header carries that its RoCEv2 view does not.
    struct SesInfo
    {
        uint16_t spdcid{0};         //!< the sender's PDC id
        bool syn{false};            //!< the PDC is not established yet (no ACK seen)
        uint16_t synPsnOffset{0};   //!< with syn: PSN - the PDC's start PSN (12 bits)
        bool retransmission{false}; //!< PDS RETX
        uint16_t messageId{0};      //!< SES message id
        uint64_t offset{0};         //!< the packet's byte offset in the message
        uint64_t messageBytes{0};   //!< the message's length
        uint32_t initiator{0};      //!< SES initiator id
        bool ccState{false};        //!< a RUD_CC_REQ: with CC state (RCCC)
        uint32_t creditTarget{0};   //!< with ccState: the credit target (24 bits)
    };

    /// \return true if the frame of view \p v is a UET frame (IPv4, UDP, port 4793)
    static bool IsUet(const RoceFrameView& v)
    {
        return !v.isRoce && v.isIpv4 && v.ipProtocol == RoceFrame::IP_PROTO_UDP &&
               v.udpDst == UDP_PORT;
    }

    /// \return the UET header bytes of a data frame (Ethernet to SES), \p vlan: tagged,
    /// \p ccState: a RUD_CC_REQ (CC_STATE_BYTES more)
    static uint32_t DataHeaderBytes(bool vlan, bool ccState = false);

    /// Replace RoCEv2 data frame \p frame (RoceNic's) by its UET frame.
    static void EncodeData(RoceParsedFrame& frame, const SesInfo& info);
    /// Replace RoCEv2 ACK/NAK frame \p frame by its UET frame; \p spdcid: the sender's PDC;
    /// \p sack: an ACK becomes an ACK_CC with SACK bitmap \p sackBitmap from PSN
    /// \p sackBase (bit i: PSN sackBase + i arrived).
    static void EncodeControl(RoceParsedFrame& frame,
                              uint16_t spdcid,
                              bool sack = false,
                              uint32_t sackBase = 0,
                              uint64_t sackBitmap = 0);
    /**
     * Decode UET frame \p frame (IsUet) into the RoCEv2 fields the transport reads
     * (\p f: DestQP from the DPDCID, which a SYN request does not carry: see \p pds) and
     * its PDS header \p pds. A CREDIT control packet fills DestQP only (its credit is in
     * \p pds). \return false if it is not a PDS type this model sends
     */
    static bool Decode(RoceParsedFrame& frame, RoceFrameFields& f, UetPdsHeader& pds);
    /// \return true if UET frame \p frame is a request with payload (what a switch trims)
    static bool IsRequest(RoceParsedFrame& frame);
    /// Cut UET request \p frame to its headers (IP and UDP lengths follow) and give it
    /// DSCP \p dscp.
    static void Trim(RoceParsedFrame& frame, uint8_t dscp);

  private:
    /// \return the PDS type of UET frame \p frame (its prologue's first 5 bits)
    static uint8_t PdsTypeOf(RoceParsedFrame& frame, uint8_t* nextHeader = nullptr);
    /// Put UDP (source port \p v's), IPv4 (\p v's addresses, DSCP, ECN, TTL, id) and
    /// Ethernet (\p v's MACs and tag) around \p p, pad it, and make it \p frame.
    static void Wrap(Ptr<Packet> p, const RoceFrameView& v, RoceParsedFrame& frame);
};

} // namespace ns3

#endif // UET_FRAME_H
