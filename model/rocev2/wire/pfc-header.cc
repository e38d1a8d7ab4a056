/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
constexpr uint64_t PS_PER_S = 1000000000000ULL;

uint64_t
CheckedBitRate(DataRate rate, const char* who)
{
    uint64_t bps = rate.GetBitRate();
    if (bps == 0)
    {
        NS_FATAL_ERROR("PfcHeader::" << who << ": link rate 0 bit/s (must be > 0)");
    }
    return bps;
}
} // namespace

Mac48Address
PfcHeader::GetPfcDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}

uint64_t
PfcHeader::QuantaToPicoSeconds(uint16_t quanta, DataRate rate)
{
    uint64_t bps = CheckedBitRate(rate, "QuantaToPicoSeconds");
    // 65535 * 512 * 1e12 overflows 64 bits; 128-bit intermediate keeps it exact.
    unsigned __int128 num = (unsigned __int128)quanta * BITS_PER_QUANTUM * PS_PER_S;
    return (uint64_t)((num + bps / 2) / bps);
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate rate)
{
    uint64_t ps = QuantaToPicoSeconds(quanta, rate);
    Time t = PicoSeconds(ps);
    // PicoSeconds() truncates at a coarser resolution; round up instead.
    if (t.GetPicoSeconds() < (int64_t)ps)
    {
        t += Time::FromInteger(1, Time::GetResolution());
    }
    return t;
}

uint16_t
PfcHeader::TimeToQuanta(Time t, DataRate rate)
{
    if (t.IsStrictlyNegative())
    {
        NS_FATAL_ERROR("PfcHeader::TimeToQuanta: negative time " << t << " (must be >= 0)");
    }
    uint64_t bps = CheckedBitRate(rate, "TimeToQuanta");
    unsigned __int128 bits = (unsigned __int128)(uint64_t)t.GetPicoSeconds() * bps;
    unsigned __int128 perQuantum = (unsigned __int128)BITS_PER_QUANTUM * PS_PER_S;
    unsigned __int128 q = (bits + perQuantum - 1) / perQuantum;
    return q > MAX_QUANTA ? MAX_QUANTA : (uint16_t)q;
}

PfcHeader::PfcHeader()
    : m_opcode(OPCODE),
      m_enableVector(0)
{
    m_pauseTime.fill(0);
}

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC opcode=0x" << std::hex << m_opcode << " enable=0x" << m_enableVector << std::dec;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (IsClassEnabled(p))
        {
            os << " p" << +p << "=" << m_pauseTime[p];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_enableVector);
    for (uint16_t q : m_pauseTime)
    {
        i.WriteHtonU16(q);
    }
    i.WriteU8(0, SIZE - 4 - 2 * NUM_PRIORITIES);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    m_enableVector = i.ReadNtohU16();
    for (auto& q : m_pauseTime)
    {
        q = i.ReadNtohU16();
    }
    i.Next(SIZE - 4 - 2 * NUM_PRIORITIES);
    return SIZE;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

void
PfcHeader::SetPauseTime(uint8_t prio, uint16_t quanta)
{
    if (prio >= NUM_PRIORITIES)
    {
        NS_FATAL_ERROR("PfcHeader: priority " << +prio << " out of range (allowed 0..7)");
    }
    m_enableVector |= (1U << prio);
    m_pauseTime[prio] = quanta;
}

uint16_t
PfcHeader::GetPauseTime(uint8_t prio) const
{
    if (prio >= NUM_PRIORITIES)
    {
        NS_FATAL_ERROR("PfcHeader: priority " << +prio << " out of range (allowed 0..7)");
    }
    return m_pauseTime[prio];
}

bool
PfcHeader::IsClassEnabled(uint8_t prio) const
{
    return prio < NUM_PRIORITIES && (m_enableVector & (1U << prio));
}

void
PfcHeader::SetClassEnableVector(uint16_t vector)
{
    if (vector > 0xFF)
    {
        NS_FATAL_ERROR("PfcHeader: class-enable vector 0x" << std::hex << vector
                                                           << " has bits above priority 7 "
                                                              "(allowed 0x00..0xFF)");
    }
    m_enableVector = vector;
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_enableVector;
}

} // namespace ns3
