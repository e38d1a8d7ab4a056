/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_OPCODE_H
#define RDMA_OPCODE_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * IBTA Reliable Connected BTH opcodes used by the transport (IBTA vol. 1,
 * table 38; the same byte in RoCEv2 and native InfiniBand).
 */
namespace RdmaOpcode
{
constexpr uint8_t SEND_FIRST = 0x00;
constexpr uint8_t SEND_MIDDLE = 0x01;
constexpr uint8_t SEND_LAST = 0x02;
constexpr uint8_t SEND_LAST_IMM = 0x03;
constexpr uint8_t SEND_ONLY = 0x04;
constexpr uint8_t SEND_ONLY_IMM = 0x05;
constexpr uint8_t WRITE_FIRST = 0x06;
constexpr uint8_t WRITE_MIDDLE = 0x07;
constexpr uint8_t WRITE_LAST = 0x08;
constexpr uint8_t WRITE_LAST_IMM = 0x09;
constexpr uint8_t WRITE_ONLY = 0x0A;
constexpr uint8_t WRITE_ONLY_IMM = 0x0B;
constexpr uint8_t READ_REQUEST = 0x0C;         //!< BTH + RETH, no payload
constexpr uint8_t READ_RESPONSE_FIRST = 0x0D;  //!< BTH + AETH + payload
constexpr uint8_t READ_RESPONSE_MIDDLE = 0x0E; //!< BTH + payload
constexpr uint8_t READ_RESPONSE_LAST = 0x0F;   //!< BTH + AETH + payload
constexpr uint8_t READ_RESPONSE_ONLY = 0x10;   //!< BTH + AETH + payload
constexpr uint8_t ACKNOWLEDGE = 0x11;
constexpr uint8_t CNP = 0x81;

/// From a WRITE packet's opcode to the SEND packet's of the same place in its message
/// (first, middle, last, last with immediate, only, only with immediate): table 38
/// numbers both families in the same order, SEND 0x00..0x05 and WRITE 0x06..0x0B.
constexpr uint8_t WRITE_TO_SEND = WRITE_FIRST - SEND_FIRST;

/// A SEND packet (any place in its message, with or without immediate).
inline bool
IsSend(uint8_t op)
{
    return op <= SEND_ONLY_IMM;
}

/// First (or only) packet of a SEND: the one that consumes a posted receive.
inline bool
StartsSend(uint8_t op)
{
    return op == SEND_FIRST || op == SEND_ONLY || op == SEND_ONLY_IMM;
}

/// First packet of a WRITE, or a READ request: carries the RETH.
inline bool
HasReth(uint8_t op)
{
    return op == WRITE_FIRST || op == WRITE_ONLY || op == WRITE_ONLY_IMM || op == READ_REQUEST;
}

/// Carries 4 bytes of immediate data.
inline bool
HasImm(uint8_t op)
{
    return op == WRITE_LAST_IMM || op == WRITE_ONLY_IMM || op == SEND_LAST_IMM ||
           op == SEND_ONLY_IMM;
}

/// Last (or only) packet of a message.
inline bool
IsLast(uint8_t op)
{
    return op == WRITE_LAST || op == WRITE_LAST_IMM || op == WRITE_ONLY || op == WRITE_ONLY_IMM ||
           op == SEND_LAST || op == SEND_LAST_IMM || op == SEND_ONLY || op == SEND_ONLY_IMM;
}

/// A data packet of the transport (SEND or WRITE).
inline bool
IsData(uint8_t op)
{
    return op <= WRITE_ONLY_IMM;
}

/// A READ request or response (0x0C..0x10).
inline bool
IsRead(uint8_t op)
{
    return static_cast<uint8_t>(op - READ_REQUEST) <= READ_RESPONSE_ONLY - READ_REQUEST;
}

/// A READ response (0x0D..0x10): payload from the responder, implicitly acknowledged.
inline bool
IsReadResponse(uint8_t op)
{
    return static_cast<uint8_t>(op - READ_RESPONSE_FIRST) <=
           READ_RESPONSE_ONLY - READ_RESPONSE_FIRST;
}

/// A READ response with an AETH (first, last, only; IBTA vol. 1 table 40).
inline bool
ReadResponseHasAeth(uint8_t op)
{
    return op == READ_RESPONSE_FIRST || op == READ_RESPONSE_LAST || op == READ_RESPONSE_ONLY;
}
} // namespace RdmaOpcode

} // namespace ns3

#endif // RDMA_OPCODE_H
