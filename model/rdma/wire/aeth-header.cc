/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aeth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AethHeader");

NS_OBJECT_ENSURE_REGISTERED(AethHeader);

namespace
{
constexpr uint8_t KIND_MASK = 0x60;
constexpr uint8_t KIND_ACK = 0x00;
constexpr uint8_t KIND_RNR = 0x20;
constexpr uint8_t KIND_NAK = 0x60;
constexpr uint8_t VALUE_MASK = 0x1F;
} // namespace

AethHeader::AethHeader()
    : m_syndrome(KIND_ACK | CREDITS_INVALID),
      m_msn(0)
{
}

TypeId
AethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AethHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<AethHeader>();
    return tid;
}

TypeId
AethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
AethHeader::Print(std::ostream& os) const
{
    os << "AETH "
       << (IsAck()      ? "ACK"
           : IsNak()    ? "NAK"
           : IsRnrNak() ? "RNR-NAK"
                        : "reserved")
       << " value=" << +GetValue() << " msn=" << m_msn;
}

uint32_t
AethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
AethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((uint32_t(m_syndrome) << 24) | m_msn);
}

uint32_t
AethHeader::Deserialize(Buffer::Iterator start)
{
    uint32_t w = start.ReadNtohU32();
    m_syndrome = w >> 24;
    m_msn = w & 0xFFFFFF;
    return SIZE;
}

void
AethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
AethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
AethHeader::SetMsn(uint32_t msn)
{
    if (msn > 0xFFFFFF)
    {
        NS_FATAL_ERROR("AethHeader: MSN " << msn << " out of range (allowed 0..16777215)");
    }
    m_msn = msn;
}

uint32_t
AethHeader::GetMsn() const
{
    return m_msn;
}

void
AethHeader::SetAck(uint8_t credits)
{
    if (credits > VALUE_MASK)
    {
        NS_FATAL_ERROR("AethHeader: ACK credit count " << +credits
                                                       << " out of range (allowed 0..31)");
    }
    m_syndrome = KIND_ACK | credits;
}

void
AethHeader::SetNak(uint8_t code)
{
    if (code > VALUE_MASK)
    {
        NS_FATAL_ERROR("AethHeader: NAK code " << +code << " out of range (allowed 0..31)");
    }
    m_syndrome = KIND_NAK | code;
}

void
AethHeader::SetRnrNak(uint8_t timer)
{
    if (timer > VALUE_MASK)
    {
        NS_FATAL_ERROR("AethHeader: RNR timer " << +timer << " out of range (allowed 0..31)");
    }
    m_syndrome = KIND_RNR | timer;
}

bool
AethHeader::IsAck() const
{
    return (m_syndrome & KIND_MASK) == KIND_ACK;
}

bool
AethHeader::IsNak() const
{
    return (m_syndrome & KIND_MASK) == KIND_NAK;
}

bool
AethHeader::IsRnrNak() const
{
    return (m_syndrome & KIND_MASK) == KIND_RNR;
}

uint8_t
AethHeader::GetValue() const
{
    return m_syndrome & VALUE_MASK;
}

} // namespace ns3
