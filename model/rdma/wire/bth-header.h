/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BTH_HEADER_H
#define BTH_HEADER_H

#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief InfiniBand Base Transport Header (12 bytes, IBTA vol. 1 sec. 9.2), as carried
 * in RoCEv2 after UDP port 4791.
 *
 * Layout (network byte order):
 * byte 0: OpCode; byte 1: SE(1) M(1) PadCnt(2) TVer(4); bytes 2-3: P_Key;
 * byte 4: FECN(1) BECN(1) reserved(6); bytes 5-7: DestQP;
 * byte 8: AckReq(1) reserved(7); bytes 9-11: PSN.
 * FECN/BECN are the RoCEv2 annex's use of the first two bits of the IBTA "resv8a" byte.
 */
class BthHeader : public Header
{
  public:
    /// \name Reliable Connected opcodes (IBTA vol. 1 table 38) and the RoCEv2 CNP.
    /// \{
    static constexpr uint8_t SEND_FIRST = 0x00;
    static constexpr uint8_t SEND_MIDDLE = 0x01;
    static constexpr uint8_t SEND_LAST = 0x02;
    static constexpr uint8_t SEND_LAST_IMM = 0x03;
    static constexpr uint8_t SEND_ONLY = 0x04;
    static constexpr uint8_t SEND_ONLY_IMM = 0x05;
    static constexpr uint8_t WRITE_FIRST = 0x06;
    static constexpr uint8_t WRITE_MIDDLE = 0x07;
    static constexpr uint8_t WRITE_LAST = 0x08;
    static constexpr uint8_t WRITE_LAST_IMM = 0x09;
    static constexpr uint8_t WRITE_ONLY = 0x0A;
    static constexpr uint8_t WRITE_ONLY_IMM = 0x0B;
    static constexpr uint8_t READ_REQUEST = 0x0C;
    static constexpr uint8_t READ_RESPONSE_FIRST = 0x0D;
    static constexpr uint8_t READ_RESPONSE_MIDDLE = 0x0E;
    static constexpr uint8_t READ_RESPONSE_LAST = 0x0F;
    static constexpr uint8_t READ_RESPONSE_ONLY = 0x10;
    static constexpr uint8_t ACKNOWLEDGE = 0x11;
    static constexpr uint8_t CNP = 0x81; //!< RoCEv2 congestion notification packet
    /// \}
    static constexpr uint16_t DEFAULT_PKEY = 0xFFFF; //!< full-member default partition
    static constexpr uint32_t SIZE = 12;             //!< serialized bytes
    static constexpr uint32_t MAX_24BIT = 0xFFFFFF;  //!< largest QPN / PSN

    /// \return true if a packet with this opcode carries a RETH after the BTH.
    static bool OpcodeHasReth(uint8_t opcode);
    /// \return true if a packet with this opcode carries an AETH after the BTH.
    static bool OpcodeHasAeth(uint8_t opcode);
    /// \return true if a packet with this opcode carries immediate data (ImmDt).
    static bool OpcodeHasImm(uint8_t opcode);

    BthHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetOpcode(uint8_t opcode);
    uint8_t GetOpcode() const;
    void SetSolicitedEvent(bool se);
    bool GetSolicitedEvent() const;
    void SetMigReq(bool m);
    bool GetMigReq() const;
    /// \param padCnt bytes of padding added to the payload, 0..3
    void SetPadCount(uint8_t padCnt);
    uint8_t GetPadCount() const;
    /// \param tver transport header version, 0..15 (0 in IBTA 1.x)
    void SetTVer(uint8_t tver);
    uint8_t GetTVer() const;
    void SetPKey(uint16_t pkey);
    uint16_t GetPKey() const;
    void SetFecn(bool fecn);
    bool GetFecn() const;
    void SetBecn(bool becn);
    bool GetBecn() const;
    /// \param qp destination queue pair number, 0..2^24-1
    void SetDestQp(uint32_t qp);
    uint32_t GetDestQp() const;
    void SetAckReq(bool ackReq);
    bool GetAckReq() const;
    /// \param psn packet sequence number, 0..2^24-1
    void SetPsn(uint32_t psn);
    uint32_t GetPsn() const;

  private:
    uint8_t m_opcode;  //!< OpCode
    bool m_se;         //!< solicited event
    bool m_migReq;     //!< migration state
    uint8_t m_padCnt;  //!< pad count (2 bits)
    uint8_t m_tver;    //!< transport version (4 bits)
    uint16_t m_pkey;   //!< partition key
    bool m_fecn;       //!< forward explicit congestion notification
    bool m_becn;       //!< backward explicit congestion notification
    uint32_t m_destQp; //!< destination QP (24 bits)
    bool m_ackReq;     //!< acknowledge request
    uint32_t m_psn;    //!< packet sequence number (24 bits)
};

} // namespace ns3

#endif // BTH_HEADER_H
