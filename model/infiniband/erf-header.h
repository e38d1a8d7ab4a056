/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ERF_HEADER_H
#define ERF_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The 16-byte header of an ERF record (Endace's Extensible Record Format), as
 * LINKTYPE_ERF (197) pcaps carry it in front of each packet.
 *
 * Layout (Wireshark's wiretap/erf_record.h and its pcap reader, Endace's ERF types
 * document): timestamp (8 bytes, little-endian 64-bit fixed point: seconds in the upper
 * 32 bits, the binary fraction of the second in the lower 32), type (1; bit 7 = an
 * extension header follows), flags (1; bits 0-1 capture interface, bit 2 varying
 * record length, bit 3 truncated, bit 4 RX error, bit 5 DS error), rlen (2, big-endian:
 * bytes of the record, this header included), lctr (2, big-endian: loss counter),
 * wlen (2, big-endian: the packet's length on the wire).
 *
 * Type 21 (TYPE_INFINIBAND) is an InfiniBand packet from its Local Route Header on,
 * what NVIDIA's ibdump writes (flags 4, lctr 0, rlen = 16 + the packet's bytes, wlen =
 * the packet's bytes) and Wireshark dissects with its "infiniband" dissector.
 */
class ErfHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 16;                 //!< serialized bytes
    static constexpr uint32_t LINKTYPE_ERF = 197;        //!< pcap link type (DLT_ERF)
    static constexpr uint8_t TYPE_INFINIBAND = 21;       //!< ERF_TYPE_INFINIBAND
    static constexpr uint8_t FLAG_VARYING_LENGTH = 4;    //!< vlen: no padding to 8 bytes
    static constexpr uint32_t MAX_RECORD_LENGTH = 65535; //!< rlen is 16 bits

    ErfHeader();
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \param t a time since the epoch (the simulation's start), >= 0
     * \return ERF's 64-bit timestamp of \p t: the whole seconds in the upper 32 bits,
     * the rest of the second in units of 2^-32 s (about 0.233 ns) in the lower 32,
     * rounded to the nearest unit (the module's time steps are picoseconds)
     */
    static uint64_t ToFixedPoint(Time t);
    /**
     * \param ts an ERF timestamp
     * \return it in nanoseconds since the epoch, rounded to the nearest nanosecond, as
     * Wireshark's pcap reader converts it (wiretap: (fraction x 10^9 + 2^31) >> 32)
     */
    static uint64_t ToNanoSeconds(uint64_t ts);

    void SetTimestamp(Time t); //!< SetFixedPointTimestamp(ToFixedPoint(t))
    void SetFixedPointTimestamp(uint64_t ts);
    uint64_t GetFixedPointTimestamp() const;
    void SetType(uint8_t type); //!< record type, bit 7 the extension-header flag
    uint8_t GetType() const;
    void SetFlags(uint8_t flags);
    uint8_t GetFlags() const;
    void SetRecordLength(uint16_t rlen); //!< bytes of the record, this header included
    uint16_t GetRecordLength() const;
    void SetLossCounter(uint16_t lctr);
    uint16_t GetLossCounter() const;
    void SetWireLength(uint16_t wlen); //!< the packet's bytes on the wire
    uint16_t GetWireLength() const;

  private:
    uint64_t m_ts;   //!< fixed-point timestamp
    uint8_t m_type;  //!< record type
    uint8_t m_flags; //!< flags
    uint16_t m_rlen; //!< record length
    uint16_t m_lctr; //!< loss counter
    uint16_t m_wlen; //!< wire length
};

} // namespace ns3

#endif // ERF_HEADER_H
