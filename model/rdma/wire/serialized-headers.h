/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SERIALIZED_HEADERS_H
#define SERIALIZED_HEADERS_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A run of already serialized header bytes, added to a packet in one step.
 *
 * RoceFrame::Encapsulate writes Ethernet / IPv4 / UDP / BTH / RETH / ImmDt / AETH
 * straight into one of these and adds it with a single Packet::AddHeader: one
 * buffer operation per frame instead of one per header (each ns-3 header costs a
 * buffer grow and a serialization pass through an iterator). The bytes are the
 * same as the header classes write, so the header classes (RoceEthernetHeader,
 * Ipv4Header, BthHeader, ...) remove and decode them as usual, and pcaps read
 * the same. Deserialize reads back as many bytes as SetSize says. IbFrame::Materialize
 * writes an InfiniBand packet's first bytes (LRH, BTH, extended headers) with one too.
 */
class SerializedHeaders : public Header
{
  public:
    static constexpr uint32_t MAX_BYTES = 128; //!< room for the largest RoCEv2 stack

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /// \return the bytes, to be written by the caller (GetSize() of them are used)
    uint8_t* Data();
    /// \return the bytes
    const uint8_t* Data() const;
    /// Set how many bytes of Data() form the headers (<= MAX_BYTES).
    void SetSize(uint32_t bytes);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    std::array<uint8_t, MAX_BYTES> m_bytes; //!< deliberately left uninitialized
    uint32_t m_size{0};
};

} // namespace ns3

#endif // SERIALIZED_HEADERS_H
