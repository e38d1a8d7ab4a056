/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-vcrc-trailer.h"

#include <boost/crc.hpp>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbVcrcTrailer);

IbVcrcTrailer::IbVcrcTrailer()
    : m_vcrc(0)
{
}

TypeId
IbVcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbVcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IbVcrcTrailer>();
    return tid;
}

TypeId
IbVcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbVcrcTrailer::Print(std::ostream& os) const
{
    os << "VCRC 0x" << std::hex << m_vcrc << std::dec;
}

uint32_t
IbVcrcTrailer::GetSerializedSize() const
{
    return SIZE;
}

void
IbVcrcTrailer::Serialize(Buffer::Iterator end) const
{
    end.Prev(SIZE);
    end.WriteHtolsbU16(m_vcrc);
}

uint32_t
IbVcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SIZE);
    m_vcrc = end.ReadLsbtohU16();
    return SIZE;
}

void
IbVcrcTrailer::SetVcrc(uint16_t v)
{
    m_vcrc = v;
}

uint16_t
IbVcrcTrailer::GetVcrc() const
{
    return m_vcrc;
}

uint16_t
IbVcrcTrailer::Calculate(const uint8_t* lrh, uint32_t len)
{
    boost::crc_optimal<16, 0x100B, 0xFFFF, 0xFFFF, true, true> crc;
    crc.process_bytes(lrh, len);
    return crc.checksum();
}

} // namespace ns3
