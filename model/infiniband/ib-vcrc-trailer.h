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
 * The VCRC covers the whole packet and is recomputed at every hop (the LRH's VL may
 * change). The model writes the value it is given (0 by default): no bit errors are
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

  private:
    uint16_t m_vcrc;
};

} // namespace ns3

#endif // IB_VCRC_TRAILER_H
