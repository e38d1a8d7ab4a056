/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AETH_HEADER_H
#define AETH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief ACK Extended Transport Header (4 bytes, IBTA vol. 1 sec. 9.3.5): an 8-bit
 * syndrome and a 24-bit message sequence number (MSN).
 *
 * Syndrome bits 6..5 give the kind (bit 7 reserved, 0): 00 ACK (bits 4..0 = credit
 * count, 0x1F = credits not tracked), 01 RNR NAK (bits 4..0 = timer code), 11 NAK
 * (bits 4..0 = NAK code: 0 PSN sequence error, 1 invalid request, 2 remote access
 * error, 3 remote operational error, 4 invalid RD request).
 */
class AethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = 4;                        //!< serialized bytes
    static constexpr uint8_t NAK_PSN_SEQUENCE_ERROR = 0;       //!< out-of-order PSN
    static constexpr uint8_t NAK_INVALID_REQUEST = 1;          //!< invalid request
    static constexpr uint8_t NAK_REMOTE_ACCESS_ERROR = 2;      //!< R_Key / bounds
    static constexpr uint8_t NAK_REMOTE_OPERATIONAL_ERROR = 3; //!< responder failure
    static constexpr uint8_t NAK_INVALID_RD_REQUEST = 4;       //!< RD only
    static constexpr uint8_t CREDITS_INVALID = 0x1F;           //!< "no credit tracking"

    /// \return the syndrome an RC responder sends: a positive ACK without credit
    /// tracking, or (\p nak) a PSN sequence error NAK
    static constexpr uint8_t ResponderSyndrome(bool nak)
    {
        return nak ? static_cast<uint8_t>(0x60 | NAK_PSN_SEQUENCE_ERROR) : CREDITS_INVALID;
    }

    /// \return true if \p syndrome is an RNR NAK's (bits 6..5 = 01; bits 4..0: timer)
    static constexpr bool IsRnrNakSyndrome(uint8_t syndrome)
    {
        return (syndrome & 0x60) == 0x20;
    }

    /// \return true if \p syndrome is a NAK's (bits 6..5 = 11)
    static constexpr bool IsNakSyndrome(uint8_t syndrome)
    {
        return (syndrome & 0x60) == 0x60;
    }

    AethHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetSyndrome(uint8_t syndrome);
    uint8_t GetSyndrome() const;
    /// \param msn message sequence number, 0..2^24-1
    void SetMsn(uint32_t msn);
    uint32_t GetMsn() const;

    /// Positive ACK. \param credits credit count 0..31 (0x1F = not tracked)
    void SetAck(uint8_t credits = CREDITS_INVALID);
    /// NAK. \param code NAK code 0..31 (see NAK_* constants)
    void SetNak(uint8_t code);
    /// Receiver-not-ready NAK. \param timer RNR timer code 0..31
    void SetRnrNak(uint8_t timer);
    bool IsAck() const;
    bool IsNak() const;
    bool IsRnrNak() const;
    /// \return the low 5 bits of the syndrome (credit count, NAK code or RNR timer)
    uint8_t GetValue() const;

  private:
    uint8_t m_syndrome; //!< syndrome
    uint32_t m_msn;     //!< message sequence number (24 bits)
};

} // namespace ns3

#endif // AETH_HEADER_H
