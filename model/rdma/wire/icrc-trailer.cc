/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "icrc-trailer.h"

#include "ns3/log.h"

#include <boost/crc.hpp>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IcrcTrailer");

NS_OBJECT_ENSURE_REGISTERED(IcrcTrailer);

bool IcrcTrailer::s_computeEnabled = false;

IcrcTrailer::IcrcTrailer()
    : m_icrc(0)
{
}

TypeId
IcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IcrcTrailer>();
    return tid;
}

TypeId
IcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IcrcTrailer::Print(std::ostream& os) const
{
    os << "ICRC 0x" << std::hex << m_icrc << std::dec;
}

uint32_t
IcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
IcrcTrailer::Serialize(Buffer::Iterator end) const
{
    end.Prev(SIZE);
    end.WriteHtolsbU32(m_icrc);
}

uint32_t
IcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SIZE);
    m_icrc = end.ReadLsbtohU32();
    return SIZE;
}

void
IcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
IcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

void
IcrcTrailer::SetComputeEnabled(bool enabled)
{
    s_computeEnabled = enabled;
}

bool
IcrcTrailer::IsComputeEnabled()
{
    return s_computeEnabled;
}

uint32_t
IcrcTrailer::Calculate(const uint8_t* l3, uint32_t len)
{
    constexpr uint32_t UDP_BYTES = 8;
    constexpr uint32_t BTH_BYTES = 12;
    if (len < 20 || (l3[0] >> 4) != 4)
    {
        NS_FATAL_ERROR("IcrcTrailer::Calculate: not an IPv4 packet (only IPv4 RoCEv2 is "
                       "modelled)");
    }
    const uint32_t ipBytes = (l3[0] & 0x0F) * 4u;
    const uint32_t fixed = ipBytes + UDP_BYTES + BTH_BYTES;
    if (ipBytes < 20 || len < fixed)
    {
        NS_FATAL_ERROR("IcrcTrailer::Calculate: " << len << " bytes is too short for IPv4 ("
                                                  << ipBytes << ") + UDP + BTH");
    }
    uint8_t masked[60 + UDP_BYTES + BTH_BYTES];
    std::memcpy(masked, l3, fixed);
    // Fields a router or switch may rewrite are excluded by setting them to ones.
    masked[1] = 0xFF;  // TOS: DSCP + ECN
    masked[8] = 0xFF;  // TTL
    masked[10] = 0xFF; // header checksum
    masked[11] = 0xFF;
    masked[ipBytes + 6] = 0xFF; // UDP checksum
    masked[ipBytes + 7] = 0xFF;
    masked[ipBytes + UDP_BYTES + 4] = 0xFF; // BTH FECN/BECN/resv6
    static const uint8_t maskedLrh[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    boost::crc_32_type crc;
    crc.process_bytes(maskedLrh, sizeof(maskedLrh));
    crc.process_bytes(masked, fixed);
    crc.process_bytes(l3 + fixed, len - fixed);
    return crc.checksum();
}

} // namespace ns3
