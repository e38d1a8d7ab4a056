/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ICRC_TRAILER_H
#define ICRC_TRAILER_H

#include "ns3/trailer.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief RoCEv2 invariant CRC (4 bytes at the end of the UDP payload).
 *
 * Computing a real ICRC per packet costs a CRC over the whole payload, which a
 * simulation does not need (nothing in the model corrupts bits). By default the
 * trailer is written as zeros; SetComputeEnabled(true) makes RoceFrame compute the real
 * value (useful for pcaps checked by other tools).
 *
 * The real ICRC (IBTA RoCEv2 annex A17.4.1): CRC-32 (the Ethernet polynomial, reflected,
 * initial value and final XOR 0xFFFFFFFF) over 8 bytes of 0xFF standing for the masked
 * LRH, then the IPv4 header with TOS, TTL and header checksum set to all ones, the UDP
 * header with its checksum set to all ones, the BTH with its byte 4 (FECN, BECN,
 * reserved) set to all ones, and the rest of the packet up to the ICRC. It is sent
 * least significant byte first, like the Ethernet FCS (as Linux rdma_rxe does).
 */
class IcrcTrailer : public Trailer
{
  public:
    static constexpr uint32_t SIZE = 4; //!< serialized bytes

    IcrcTrailer();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

    void SetIcrc(uint32_t icrc);
    uint32_t GetIcrc() const;

    /// Process-wide switch: compute real ICRCs (and InfiniBand VCRCs) when framing
    /// (default false: zeros). The fabric helpers set it from ns-3's ChecksumEnabled
    /// GlobalValue when they install a fabric.
    static void SetComputeEnabled(bool enabled);
    static bool IsComputeEnabled();

    /**
     * Compute the RoCEv2 ICRC of one packet.
     * \param l3 the IPv4 header's first byte
     * \param len bytes from the IPv4 header to the end of the payload, ICRC excluded
     * \return the ICRC value (as a number; serialized LSB first)
     */
    static uint32_t Calculate(const uint8_t* l3, uint32_t len);

  private:
    uint32_t m_icrc;              //!< ICRC value
    static bool s_computeEnabled; //!< see SetComputeEnabled
};

} // namespace ns3

#endif // ICRC_TRAILER_H
