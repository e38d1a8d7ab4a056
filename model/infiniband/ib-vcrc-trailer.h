/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_VCRC_TRAILER_H
#define IB_VCRC_TRAILER_H

#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief InfiniBand Variant CRC (2 bytes, last field of every packet).
 *
 * The VCRC covers the whole packet from the LRH to the ICRC and is recomputed at every
 * hop (the LRH's VL may change). IBTA Vol. 1 section 7.8.2: CRC-16 with polynomial
 * 0x100B (x^16 + x^12 + x^3 + x + 1), seed 0xFFFF, bits processed least significant
 * first and the result complemented. It is sent least significant byte first, like the
 * ICRC. Frames carry zeros unless IcrcTrailer::SetComputeEnabled(true) (ns-3's
 * ChecksumEnabled GlobalValue, read when a fabric is installed): no bit errors are
 * simulated, so computing it would only cost time.
 */
class IbVcrcTrailer : public Trailer
{
  public:
    static constexpr uint32_t SIZE = 2; //!< serialized bytes

    IbVcrcTrailer();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

    void SetVcrc(uint16_t v); //!< value to write
    uint16_t GetVcrc() const; //!< \return the value

    /**
     * Compute the VCRC of one packet.
     * \param lrh the LRH's first byte
     * \param len bytes from the LRH to the end of the ICRC
     * \return the VCRC value (as a number; serialized LSB first)
     */
    static uint16_t Calculate(const uint8_t* lrh, uint32_t len);

  private:
    uint16_t m_vcrc;
};

} // namespace ns3

#endif // IB_VCRC_TRAILER_H
