/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHARP_HEADER_H
#define SHARP_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The 16-byte header of a SHARP aggregation frame (in-network reduction on
 * InfiniBand switches, SharpAggregationEngine), the model's own: NVIDIA does not publish
 * the wire format of SHARP's streaming aggregation.
 *
 * A SHARP frame is an InfiniBand packet: LRH (8), BTH (12) with opcode OPCODE (0xE0, the
 * first of the IBTA's manufacturer-specific opcodes, transport bits 111), this header,
 * the payload (the data being reduced), ICRC (4) and VCRC (2): 42 bytes per frame
 * around the payload. Frames travel one hop (a child to its parent in the tree, or a
 * parent to its children), so the LRH's DLID names the next tree node.
 *
 * Fields (network order): kind (1: AGGREGATE, a child's data or partial sum going up;
 * RESULT, the root's sum coming down), reserved (1, zero), tree (2: the Aggregation
 * Manager's tree id), epoch (2: the job's operation number, mod 65536), operation (4:
 * the reduction within the epoch), frame (2: its index in the operation), frames (2),
 * payload (2: payload bytes after this header).
 */
class SharpHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16;    //!< serialized bytes
    static constexpr uint8_t OPCODE = 0xE0; //!< BTH opcode: manufacturer-specific range
    /// Bytes of a SHARP frame around its payload: LRH, BTH, this header, ICRC, VCRC
    static constexpr uint32_t FRAME_OVERHEAD = 8 + 12 + SIZE + 4 + 2;

    /// What a frame is.
    enum Kind : uint8_t
    {
        AGGREGATE = 1, //!< up the tree: a child's data (or a switch's partial sum)
        RESULT = 2,    //!< down the tree: the root's sum
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint8_t kind{AGGREGATE}; //!< Kind
    uint16_t tree{0};        //!< the tree
    uint16_t epoch{0};       //!< the job's operation number (mod 65536)
    uint32_t operation{0};   //!< the reduction within the epoch
    uint16_t frame{0};       //!< this frame's index in the operation
    uint16_t frames{0};      //!< frames of the operation
    uint16_t payload{0};     //!< payload bytes after the header
};

} // namespace ns3

#endif // SHARP_HEADER_H
