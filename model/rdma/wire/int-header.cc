/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "int-header.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IntHeader");

NS_OBJECT_ENSURE_REGISTERED(IntHeader);

namespace
{
/// Link rates by code 1..9, Gb/s (code 0: unknown).
constexpr uint64_t RATE_GBPS[] = {0, 10, 25, 40, 50, 100, 200, 400, 800, 1600};
constexpr uint32_t N_RATES = sizeof(RATE_GBPS) / sizeof(RATE_GBPS[0]);
} // namespace

uint8_t
IntHop::RateCode(uint64_t bps)
{
    for (uint32_t c = 1; c < N_RATES; ++c)
    {
        if (RATE_GBPS[c] * 1000000000ULL == bps)
        {
            return static_cast<uint8_t>(c);
        }
    }
    return RATE_CODE_UNKNOWN;
}

uint64_t
IntHop::RateOfCode(uint8_t code)
{
    return code < N_RATES ? RATE_GBPS[code] * 1000000000ULL : 0;
}

const char*
IntHop::AllowedRates()
{
    return "10, 25, 40, 50, 100, 200, 400, 800 or 1600 Gb/s";
}

void
IntHop::Set(uint64_t bps, uint64_t nowNs, uint64_t txBytes, uint64_t qlenBytes)
{
    rateCode = RateCode(bps);
    timeNs = static_cast<uint32_t>(nowNs & ((1ULL << TIME_BITS) - 1));
    txUnits = static_cast<uint32_t>((txBytes / BYTE_UNIT) & ((1ULL << TX_BITS) - 1));
    qlenUnits =
        static_cast<uint32_t>(std::min<uint64_t>(qlenBytes / BYTE_UNIT, (1ULL << QLEN_BITS) - 1));
}

uint64_t
IntHop::Pack() const
{
    return (uint64_t(rateCode & 0xF) << 60) | (uint64_t(timeNs) << 36) | (uint64_t(txUnits) << 16) |
           uint64_t(qlenUnits);
}

void
IntHop::Unpack(uint64_t word)
{
    rateCode = static_cast<uint8_t>(word >> 60);
    timeNs = static_cast<uint32_t>((word >> 36) & ((1ULL << TIME_BITS) - 1));
    txUnits = static_cast<uint32_t>((word >> 16) & ((1ULL << TX_BITS) - 1));
    qlenUnits = static_cast<uint32_t>(word & ((1ULL << QLEN_BITS) - 1));
}

IntHeader::IntHeader()
    : m_hopCount(0),
      m_flags(0)
{
}

TypeId
IntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IntHeader>();
    return tid;
}

TypeId
IntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IntHeader::Print(std::ostream& os) const
{
    os << "INT hops=" << +m_hopCount << (IsEcho() ? " echo" : "");
    for (uint32_t i = 0; i < GetNHops(); ++i)
    {
        const IntHop& h = m_hops[i];
        os << " [" << h.GetRateBps() / 1000000000ULL << "G ts=" << h.timeNs << " tx=" << h.txUnits
           << " q=" << h.GetQlenBytes() << "]";
    }
}

uint32_t
IntHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IntHeader::Write(uint8_t* out) const
{
    out[0] = static_cast<uint8_t>(VERSION << 4);
    out[1] = m_hopCount;
    out[2] = static_cast<uint8_t>(MAX_HOPS);
    out[3] = m_flags;
    uint8_t* o = out + SHIM_SIZE;
    for (uint32_t i = 0; i < MAX_HOPS; ++i)
    {
        const uint64_t w = i < GetNHops() ? m_hops[i].Pack() : 0;
        for (int b = 7; b >= 0; --b)
        {
            *o++ = static_cast<uint8_t>(w >> (8 * b));
        }
    }
}

bool
IntHeader::Read(const uint8_t* in)
{
    if ((in[0] >> 4) != VERSION || in[2] != MAX_HOPS)
    {
        return false;
    }
    m_hopCount = in[1];
    m_flags = in[3];
    const uint8_t* p = in + SHIM_SIZE;
    for (uint32_t i = 0; i < MAX_HOPS; ++i)
    {
        uint64_t w = 0;
        for (int b = 0; b < 8; ++b)
        {
            w = (w << 8) | *p++;
        }
        m_hops[i].Unpack(w);
    }
    return true;
}

void
IntHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t b[SIZE];
    Write(b);
    start.Write(b, SIZE);
}

uint32_t
IntHeader::Deserialize(Buffer::Iterator start)
{
    uint8_t b[SIZE];
    start.Read(b, SIZE);
    if (!Read(b))
    {
        NS_LOG_WARN("INT block of version " << (b[0] >> 4) << " with " << +b[2]
                                            << " slots: not this model's");
        *this = IntHeader();
    }
    return SIZE;
}

void
IntHeader::PushHop(const IntHop& hop)
{
    if (m_hopCount < MAX_HOPS)
    {
        m_hops[m_hopCount] = hop;
    }
    if (m_hopCount < 255)
    {
        ++m_hopCount;
    }
}

uint32_t
IntHeader::GetHopCount() const
{
    return m_hopCount;
}

uint32_t
IntHeader::GetNHops() const
{
    return std::min<uint32_t>(m_hopCount, MAX_HOPS);
}

const IntHop&
IntHeader::GetHop(uint32_t i) const
{
    NS_ASSERT(i < MAX_HOPS);
    return m_hops[i];
}

void
IntHeader::SetEcho(bool echo)
{
    m_flags = echo ? static_cast<uint8_t>(m_flags | FLAG_ECHO)
                   : static_cast<uint8_t>(m_flags & ~FLAG_ECHO);
}

bool
IntHeader::IsEcho() const
{
    return (m_flags & FLAG_ECHO) != 0;
}

} // namespace ns3
