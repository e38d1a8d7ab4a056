/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NVLS_HEADER_H
#define NVLS_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The 16-byte header of an NVLS frame (in-switch reduction and multicast on a
 * server's scale-up crossbar, NvlsSwitchEngine), after an 802.1Q-tagged Ethernet
 * header of EtherType ETHERTYPE (0x88B5, IEEE 802's local experimental EtherType: NVLink
 * has no public frame format, so this one is the model's).
 *
 * Fields (network order): kind (1 byte: CONTRIBUTION, RESULT, MULTICAST), members
 * (1: the group's size, the contributions a slice needs and the copies a multicast
 * makes), group (2), slice (4), frame (2: its index in the slice), frames (2: frames of
 * the slice), owner (2: the host index of the slice's owner, which the result goes to),
 * payload (2: payload bytes after this header).
 */
class NvlsHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16;          //!< serialized bytes
    static constexpr uint16_t ETHERTYPE = 0x88B5; //!< IEEE 802 local experimental 1

    /// What a frame is.
    enum Kind : uint8_t
    {
        CONTRIBUTION = 1, //!< a GPU's part of a slice, to be summed in the switch
        RESULT = 2,       //!< the switch's sum of a slice, to its owner
        MULTICAST = 3,    //!< the owner's result, replicated to every member by the switch
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    uint8_t kind{CONTRIBUTION}; //!< Kind
    uint8_t members{0};         //!< the group's size
    uint16_t group{0};          //!< multicast group (one per communicator on a crossbar)
    uint32_t slice{0};          //!< the slice of the operation
    uint16_t frame{0};          //!< this frame's index in the slice
    uint16_t frames{0};         //!< frames of the slice
    uint16_t owner{0};          //!< host index of the slice's owner
    uint16_t payload{0};        //!< payload bytes after the header
};

} // namespace ns3

#endif // NVLS_HEADER_H
