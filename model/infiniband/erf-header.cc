/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "erf-header.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ErfHeader);

ErfHeader::ErfHeader()
    : m_ts(0),
      m_type(TYPE_INFINIBAND),
      m_flags(FLAG_VARYING_LENGTH),
      m_rlen(SIZE),
      m_lctr(0),
      m_wlen(0)
{
}

TypeId
ErfHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ErfHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<ErfHeader>();
    return tid;
}

TypeId
ErfHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
ErfHeader::Print(std::ostream& os) const
{
    os << "ERF ts=" << (m_ts >> 32) << "+" << (m_ts & 0xFFFFFFFFU) << "/2^32s type=" << +m_type
       << " flags=" << +m_flags << " rlen=" << m_rlen << " lctr=" << m_lctr << " wlen=" << m_wlen;
}

uint32_t
ErfHeader::GetSerializedSize() const
{
    return SIZE;
}

void
ErfHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtolsbU64(m_ts);
    start.WriteU8(m_type);
    start.WriteU8(m_flags);
    start.WriteHtonU16(m_rlen);
    start.WriteHtonU16(m_lctr);
    start.WriteHtonU16(m_wlen);
}

uint32_t
ErfHeader::Deserialize(Buffer::Iterator start)
{
    m_ts = start.ReadLsbtohU64();
    m_type = start.ReadU8();
    m_flags = start.ReadU8();
    m_rlen = start.ReadNtohU16();
    m_lctr = start.ReadNtohU16();
    m_wlen = start.ReadNtohU16();
    return SIZE;
}

uint64_t
ErfHeader::ToFixedPoint(Time t)
{
    NS_ABORT_MSG_IF(t.IsStrictlyNegative(), "ErfHeader: negative time " << t);
    constexpr uint64_t PS_PER_S = 1000000000000ULL;
    const auto ps = static_cast<uint64_t>(t.GetPicoSeconds());
    const uint64_t seconds = ps / PS_PER_S;
    NS_ABORT_MSG_IF(seconds > 0xFFFFFFFFULL, "ErfHeader: time " << t << " beyond 2^32 s");
    // The rest of the second in 2^-32 s units, to the nearest: rem x 2^32 / 10^12 =
    // rem x 2^20 / 5^12 (10^12 = 2^12 x 5^12), rounded as (2 x rem x 2^20 + 5^12) /
    // (2 x 5^12); rem < 10^12 keeps 2 x rem x 2^20 below 2^61 and the result at most 2^32
    // (which carries into the seconds).
    constexpr uint64_t FIVE_POW_12 = 244140625ULL;
    const uint64_t rem = ps % PS_PER_S;
    const uint64_t fraction = ((rem << 21) + FIVE_POW_12) / (2 * FIVE_POW_12);
    return (seconds << 32) + fraction;
}

uint64_t
ErfHeader::ToNanoSeconds(uint64_t ts)
{
    constexpr uint64_t NS_PER_S = 1000000000ULL;
    const uint64_t fraction = ts & 0xFFFFFFFFULL;
    // fraction x 10^9 < 2^62: no overflow; + 2^31 rounds to the nearest nanosecond.
    const uint64_t ns = (fraction * NS_PER_S + (1ULL << 31)) >> 32;
    return (ts >> 32) * NS_PER_S + ns; // ns may be 10^9: the next second's start
}

void
ErfHeader::SetTimestamp(Time t)
{
    m_ts = ToFixedPoint(t);
}

void
ErfHeader::SetFixedPointTimestamp(uint64_t ts)
{
    m_ts = ts;
}

uint64_t
ErfHeader::GetFixedPointTimestamp() const
{
    return m_ts;
}

void
ErfHeader::SetType(uint8_t type)
{
    m_type = type;
}

uint8_t
ErfHeader::GetType() const
{
    return m_type;
}

void
ErfHeader::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

uint8_t
ErfHeader::GetFlags() const
{
    return m_flags;
}

void
ErfHeader::SetRecordLength(uint16_t rlen)
{
    m_rlen = rlen;
}

uint16_t
ErfHeader::GetRecordLength() const
{
    return m_rlen;
}

void
ErfHeader::SetLossCounter(uint16_t lctr)
{
    m_lctr = lctr;
}

uint16_t
ErfHeader::GetLossCounter() const
{
    return m_lctr;
}

void
ErfHeader::SetWireLength(uint16_t wlen)
{
    m_wlen = wlen;
}

uint16_t
ErfHeader::GetWireLength() const
{
    return m_wlen;
}

} // namespace ns3
