/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INT_HEADER_H
#define INT_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief One switch hop's in-band network telemetry record, decoded: what HPCC (Li et
 * al., SIGCOMM 2019, sec. 3.2) reads of each link: its rate B, the egress timestamp
 * ts, the transmitted-bytes counter txBytes and the egress queue length qLen.
 *
 * On the wire it is one big-endian 64-bit word (IntHeader):
 *   bits 63..60  rate code (RateCode)
 *   bits 59..36  ts: egress time in ns, modulo 2^24 (wraps every 16.78 ms)
 *   bits 35..16  txBytes: wire bytes (preamble, FCS and inter-frame gap included) the
 *                port has sent, this frame included, in units of BYTE_UNIT, modulo 2^20
 *   bits 15..0   qLen: bytes queued at the egress port (all classes) when the frame
 *                leaves, in units of BYTE_UNIT, saturating at 2^16 - 1
 */
struct IntHop
{
    static constexpr uint32_t BYTE_UNIT = 128;       //!< unit of txBytes and qLen, bytes
    static constexpr uint32_t TIME_BITS = 24;        //!< width of ts
    static constexpr uint32_t TX_BITS = 20;          //!< width of txBytes
    static constexpr uint32_t QLEN_BITS = 16;        //!< width of qLen
    static constexpr uint32_t RATE_CODE_UNKNOWN = 0; //!< rate code of no known rate

    uint8_t rateCode{0};   //!< link rate code (RateCode)
    uint32_t timeNs{0};    //!< ts, ns modulo 2^24
    uint32_t txUnits{0};   //!< txBytes / BYTE_UNIT modulo 2^20
    uint32_t qlenUnits{0}; //!< qLen / BYTE_UNIT, saturated at 2^16 - 1

    /// \return the code of \p bps (10, 25, 40, 50, 100, 200, 400, 800 Gb/s, 1.6 Tb/s:
    /// 1..9), RATE_CODE_UNKNOWN for any other rate
    static uint8_t RateCode(uint64_t bps);
    /// \return the rate of code \p code in bit/s, 0 for an unknown code
    static uint64_t RateOfCode(uint8_t code);
    /// \return the allowed link rates, for error messages: "10, 25, ... Gb/s"
    static const char* AllowedRates();

    /// Fill the record of a port of rate \p bps at time \p nowNs that has sent \p txBytes
    /// wire bytes and has \p qlenBytes queued.
    void Set(uint64_t bps, uint64_t nowNs, uint64_t txBytes, uint64_t qlenBytes);

    /// \return the link rate in bit/s (0 if the code is unknown)
    uint64_t GetRateBps() const
    {
        return RateOfCode(rateCode);
    }

    /// \return qLen in bytes
    uint64_t GetQlenBytes() const
    {
        return uint64_t(qlenUnits) * BYTE_UNIT;
    }

    /// \return ns from record \p earlier to this one, modulo 2^24
    uint32_t TimeSince(const IntHop& earlier) const
    {
        return (timeNs - earlier.timeNs) & ((1U << TIME_BITS) - 1);
    }

    /// \return bytes sent from record \p earlier to this one (modulo 2^20 units)
    uint64_t BytesSince(const IntHop& earlier) const
    {
        return uint64_t((txUnits - earlier.txUnits) & ((1U << TX_BITS) - 1)) * BYTE_UNIT;
    }

    /// \return the 64-bit wire word
    uint64_t Pack() const;
    /// Decode the 64-bit wire word \p word.
    void Unpack(uint64_t word);
};

/**
 * \ingroup ai-fabric
 * \brief In-band network telemetry block of a RoCEv2 frame (SIZE = 44 bytes) for
 * INT-based congestion control (HPCC): a 4-byte shim, then MAX_HOPS hop records
 * (IntHop) of 8 bytes, the first switch's first.
 *
 *   byte 0   version (bits 7..4, VERSION) and 4 reserved bits (0)
 *   byte 1   hop count: switches that pushed a record (saturating at 255; those
 *            beyond MAX_HOPS count but write nothing)
 *   byte 2   MAX_HOPS, the record slots that follow
 *   byte 3   flags: bit 0 ECHO (an ACK carrying the records of the data packet it
 *            acknowledges: switches leave it alone); other bits reserved (0)
 *   4..43    MAX_HOPS records; slots beyond the hop count are zero
 *
 * In a RoCEv2 frame it follows the BTH and its extended headers (RETH, ImmDt, AETH),
 * before the payload, and a DSCP bit tells it is there (RoceFrame::INT_DSCP_BIT).
 */
class IntHeader : public Header
{
  public:
    static constexpr uint32_t MAX_HOPS = 5;  //!< record slots: a 3-tier Clos path's 5 switches
    static constexpr uint32_t SHIM_SIZE = 4; //!< shim bytes
    static constexpr uint32_t HOP_SIZE = 8;  //!< bytes per record
    static constexpr uint32_t SIZE = SHIM_SIZE + MAX_HOPS * HOP_SIZE; //!< 44 bytes
    static constexpr uint8_t VERSION = 1;                             //!< shim version
    static constexpr uint8_t FLAG_ECHO = 1; //!< shim flag: records echoed by an ACK

    IntHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// Append a hop's record (a switch's egress). Beyond MAX_HOPS only the count grows.
    void PushHop(const IntHop& hop);
    /// \return switches that pushed a record (may exceed MAX_HOPS)
    uint32_t GetHopCount() const;
    /// \return the records held: min(hop count, MAX_HOPS)
    uint32_t GetNHops() const;
    /// \return record \p i (< GetNHops())
    const IntHop& GetHop(uint32_t i) const;
    void SetEcho(bool echo);
    bool IsEcho() const;

    /// Write the SIZE bytes of this block to \p out.
    void Write(uint8_t* out) const;
    /// Read a block from \p in (SIZE bytes). \return false if its version or slot
    /// count is not this one's
    bool Read(const uint8_t* in);

  private:
    std::array<IntHop, MAX_HOPS> m_hops; //!< records
    uint8_t m_hopCount;                  //!< switches that pushed a record
    uint8_t m_flags;                     //!< FLAG_ECHO
};

} // namespace ns3

#endif // INT_HEADER_H
