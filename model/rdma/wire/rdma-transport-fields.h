/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TRANSPORT_FIELDS_H
#define RDMA_TRANSPORT_FIELDS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The transport headers' fields of one packet, the same on both fabrics (IBTA
 * Vol. 1 ch. 9; RoCEv2 carries them unchanged after UDP): BTH, RETH, AETH and ImmDt,
 * and the payload size. RoceFrameFields and IbFrameFields add their link and network
 * headers' fields.
 */
struct RdmaTransportFields
{
    uint8_t opcode{0x07};  //!< BTH opcode (RdmaOpcode constants; 0x07 RC RDMA WRITE middle)
    uint16_t pKey{0xFFFF}; //!< BTH partition key
    bool fecn{false};      //!< BTH FECN
    bool becn{false};      //!< BTH BECN
    uint32_t destQp{0};    //!< BTH destination QP (24 bits)
    bool ackReq{false};    //!< BTH AckReq
    uint32_t psn{0};       //!< BTH PSN (24 bits)

    bool hasReth{false};        //!< RETH present (WRITE first/only, READ request)
    uint64_t rethVa{0};         //!< RETH virtual address
    uint32_t rethRKey{0};       //!< RETH R_Key
    uint32_t rethDmaLen{0};     //!< RETH DMA length (bytes of the message)
    bool hasAeth{false};        //!< AETH present (ACK, READ response first/last/only)
    uint8_t aethSyndrome{0x1F}; //!< AETH syndrome (default: ACK, credits not tracked)
    uint32_t aethMsn{0};        //!< AETH MSN
    bool hasImm{false};         //!< ImmDt present (*-with-immediate)
    uint32_t imm{0};            //!< immediate data

    uint32_t payloadBytes{0}; //!< RDMA payload bytes in the packet
};

} // namespace ns3

#endif // RDMA_TRANSPORT_FIELDS_H
