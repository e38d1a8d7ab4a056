/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-pds-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(UetPdsHeader);

TypeId
UetPdsHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::UetPdsHeader")
                            .SetParent<Header>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<UetPdsHeader>();
    return tid;
}

TypeId
UetPdsHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
UetPdsHeader::SizeOf(uint8_t type)
{
    return type == ACK_CC ? 32 : type == NACK || type == CONTROL || type == RUD_CC_REQ ? 16 : 12;
}

uint32_t
UetPdsHeader::GetSerializedSize() const
{
    return SizeOf(type);
}

void
UetPdsHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(
        static_cast<uint16_t>(((type & 0x1F) << 11) | ((nextHeader & 0xF) << 7) | (flags & 0x7F)));
    if (type == NACK)
    {
        i.WriteU8(nackCode);
        i.WriteU8(vendorCode);
        i.WriteHtonU32(psn);
        i.WriteHtonU16(spdcid);
        i.WriteHtonU16(dpdcid);
        i.WriteHtonU32(maxRecvPsn);
        return;
    }
    i.WriteHtonU16(type == CONTROL ? probeOpaque : static_cast<uint16_t>(psnOffset));
    i.WriteHtonU32(psn);
    i.WriteHtonU16(spdcid);
    i.WriteHtonU16(dpdcid);
    if (type == CONTROL)
    {
        i.WriteHtonU32(ctlPayload);
    }
    else if (type == RUD_CC_REQ)
    {
        i.WriteHtonU32((static_cast<uint32_t>(cccId) << 24) | (creditTarget & 0xFFFFFF));
    }
    else if (type == ACK_CC)
    {
        i.WriteU8(static_cast<uint8_t>(ccType << 4));
        i.WriteU8(mpr);
        i.WriteHtonU16(sackOffset);
        i.WriteHtonU64(sackBitmap);
        i.WriteHtonU64(ccState);
    }
}

uint32_t
UetPdsHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    const uint16_t prologue = i.ReadNtohU16();
    type = static_cast<uint8_t>(prologue >> 11);
    nextHeader = static_cast<uint8_t>((prologue >> 7) & 0xF);
    flags = static_cast<uint8_t>(prologue & 0x7F);
    if (type == NACK)
    {
        nackCode = i.ReadU8();
        vendorCode = i.ReadU8();
        psn = i.ReadNtohU32();
        spdcid = i.ReadNtohU16();
        dpdcid = i.ReadNtohU16();
        maxRecvPsn = i.ReadNtohU32();
    }
    else
    {
        const uint16_t first = i.ReadNtohU16();
        psnOffset = static_cast<int16_t>(first);
        probeOpaque = first;
        psn = i.ReadNtohU32();
        spdcid = i.ReadNtohU16();
        dpdcid = i.ReadNtohU16();
        if (type == CONTROL)
        {
            ctlPayload = i.ReadNtohU32();
        }
        else if (type == RUD_CC_REQ)
        {
            const uint32_t w = i.ReadNtohU32();
            cccId = static_cast<uint8_t>(w >> 24);
            creditTarget = w & 0xFFFFFF;
        }
        else if (type == ACK_CC)
        {
            ccType = static_cast<uint8_t>(i.ReadU8() >> 4);
            mpr = i.ReadU8();
            sackOffset = i.ReadNtohU16();
            sackBitmap = i.ReadNtohU64();
            ccState = i.ReadNtohU64();
        }
    }
    return i.GetDistanceFrom(start);
}

void
UetPdsHeader::Print(std::ostream& os) const
{
    os << "PDS type=" << +type << " nh=" << +nextHeader << " flags=0x" << std::hex << +flags
       << std::dec << " psn=" << psn << " spdcid=" << spdcid << " dpdcid=" << dpdcid;
    if (type == NACK)
    {
        os << " code=" << +nackCode;
    }
}

} // namespace ns3
