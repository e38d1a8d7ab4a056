/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "bth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BthHeader");

NS_OBJECT_ENSURE_REGISTERED(BthHeader);

bool
BthHeader::OpcodeHasReth(uint8_t opcode)
{
    return opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_IMM ||
           opcode == READ_REQUEST;
}

bool
BthHeader::OpcodeHasAeth(uint8_t opcode)
{
    // READ response middle carries no AETH (IBTA vol. 1 table 40).
    return opcode == ACKNOWLEDGE || opcode == READ_RESPONSE_FIRST || opcode == READ_RESPONSE_LAST ||
           opcode == READ_RESPONSE_ONLY;
}

bool
BthHeader::OpcodeHasImm(uint8_t opcode)
{
    return opcode == SEND_LAST_IMM || opcode == SEND_ONLY_IMM || opcode == WRITE_LAST_IMM ||
           opcode == WRITE_ONLY_IMM;
}

BthHeader::BthHeader()
    : m_opcode(0),
      m_se(false),
      m_migReq(false),
      m_padCnt(0),
      m_tver(0),
      m_pkey(DEFAULT_PKEY),
      m_fecn(false),
      m_becn(false),
      m_destQp(0),
      m_ackReq(false),
      m_psn(0)
{
}

TypeId
BthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BthHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<BthHeader>();
    return tid;
}

TypeId
BthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
BthHeader::Print(std::ostream& os) const
{
    os << "BTH op=0x" << std::hex << +m_opcode << " pkey=0x" << m_pkey << std::dec
       << " qp=" << m_destQp << " psn=" << m_psn << (m_ackReq ? " A" : "") << (m_se ? " SE" : "")
       << (m_fecn ? " FECN" : "") << (m_becn ? " BECN" : "");
}

uint32_t
BthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
BthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8((uint8_t(m_se) << 7) | (uint8_t(m_migReq) << 6) | (m_padCnt << 4) | m_tver);
    i.WriteHtonU16(m_pkey);
    i.WriteHtonU32((uint32_t(m_fecn) << 31) | (uint32_t(m_becn) << 30) | m_destQp);
    i.WriteHtonU32((uint32_t(m_ackReq) << 31) | m_psn);
}

uint32_t
BthHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    uint8_t b = i.ReadU8();
    m_se = (b >> 7) & 1;
    m_migReq = (b >> 6) & 1;
    m_padCnt = (b >> 4) & 3;
    m_tver = b & 0x0F;
    m_pkey = i.ReadNtohU16();
    uint32_t w = i.ReadNtohU32();
    m_fecn = (w >> 31) & 1;
    m_becn = (w >> 30) & 1;
    m_destQp = w & MAX_24BIT;
    w = i.ReadNtohU32();
    m_ackReq = (w >> 31) & 1;
    m_psn = w & MAX_24BIT;
    return SIZE;
}

void
BthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
BthHeader::GetOpcode() const
{
    return m_opcode;
}

void
BthHeader::SetSolicitedEvent(bool se)
{
    m_se = se;
}

bool
BthHeader::GetSolicitedEvent() const
{
    return m_se;
}

void
BthHeader::SetMigReq(bool m)
{
    m_migReq = m;
}

bool
BthHeader::GetMigReq() const
{
    return m_migReq;
}

void
BthHeader::SetPadCount(uint8_t padCnt)
{
    if (padCnt > 3)
    {
        NS_FATAL_ERROR("BthHeader: PadCnt " << +padCnt << " out of range (allowed 0..3)");
    }
    m_padCnt = padCnt;
}

uint8_t
BthHeader::GetPadCount() const
{
    return m_padCnt;
}

void
BthHeader::SetTVer(uint8_t tver)
{
    if (tver > 15)
    {
        NS_FATAL_ERROR("BthHeader: TVer " << +tver << " out of range (allowed 0..15)");
    }
    m_tver = tver;
}

uint8_t
BthHeader::GetTVer() const
{
    return m_tver;
}

void
BthHeader::SetPKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
BthHeader::GetPKey() const
{
    return m_pkey;
}

void
BthHeader::SetFecn(bool fecn)
{
    m_fecn = fecn;
}

bool
BthHeader::GetFecn() const
{
    return m_fecn;
}

void
BthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
BthHeader::GetBecn() const
{
    return m_becn;
}

void
BthHeader::SetDestQp(uint32_t qp)
{
    if (qp > MAX_24BIT)
    {
        NS_FATAL_ERROR("BthHeader: DestQP " << qp << " out of range (allowed 0..16777215)");
    }
    m_destQp = qp;
}

uint32_t
BthHeader::GetDestQp() const
{
    return m_destQp;
}

void
BthHeader::SetAckReq(bool ackReq)
{
    m_ackReq = ackReq;
}

bool
BthHeader::GetAckReq() const
{
    return m_ackReq;
}

void
BthHeader::SetPsn(uint32_t psn)
{
    if (psn > MAX_24BIT)
    {
        NS_FATAL_ERROR("BthHeader: PSN " << psn << " out of range (allowed 0..16777215)");
    }
    m_psn = psn;
}

uint32_t
BthHeader::GetPsn() const
{
    return m_psn;
}

} // namespace ns3
