/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "vl-arbiter.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VlArbiter");

NS_OBJECT_ENSURE_REGISTERED(VlArbiter);

TypeId
VlArbiter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VlArbiter")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<VlArbiter>()
            .AddAttribute("HighLimit",
                          "Limit of high-priority VL arbitration, in 4096-byte units "
                          "(IBTA VLArbitrationHighLimit; 255 = unbounded, 0 = one packet)",
                          UintegerValue(255),
                          MakeUintegerAccessor(&VlArbiter::m_highLimit),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

VlArbiter::VlArbiter()
    : m_highLimit(255),
      m_highBytes(0),
      m_lastFromHigh(false)
{
}

void
VlArbiter::SetHighTable(const std::vector<Entry>& t)
{
    for (const auto& e : t)
    {
        if (e.vl > 14)
        {
            throw std::invalid_argument("VL arbitration entry VL " + std::to_string(e.vl) +
                                        " invalid (data VLs are 0..14)");
        }
    }
    m_high = TableState();
    m_high.table = t;
}

void
VlArbiter::SetLowTable(const std::vector<Entry>& t)
{
    for (const auto& e : t)
    {
        if (e.vl > 14)
        {
            throw std::invalid_argument("VL arbitration entry VL " + std::to_string(e.vl) +
                                        " invalid (data VLs are 0..14)");
        }
    }
    m_low = TableState();
    m_low.table = t;
}

const std::vector<VlArbiter::Entry>&
VlArbiter::GetHighTable() const
{
    return m_high.table;
}

const std::vector<VlArbiter::Entry>&
VlArbiter::GetLowTable() const
{
    return m_low.table;
}

void
VlArbiter::SetDefaultTables(uint8_t numDataVls)
{
    std::vector<Entry> low;
    for (uint8_t v = 0; v < numDataVls; ++v)
    {
        low.push_back(Entry{v, 64});
    }
    m_high = TableState();
    SetLowTable(low);
}

bool
VlArbiter::AnyEligible(const TableState& s, uint16_t mask)
{
    for (const auto& e : s.table)
    {
        if (e.weight > 0 && (mask & (1U << e.vl)))
        {
            return true;
        }
    }
    return false;
}

bool
VlArbiter::PickFrom(TableState& s, uint16_t mask, uint8_t& vl)
{
    uint32_t n = static_cast<uint32_t>(s.table.size());
    if (n == 0)
    {
        return false;
    }
    const Entry& cur = s.table[s.index % n];
    if (s.remaining > 0 && (mask & (1U << cur.vl)))
    {
        vl = cur.vl;
        return true;
    }
    for (uint32_t i = 1; i <= n; ++i)
    {
        uint32_t j = (s.index + i) % n;
        const Entry& e = s.table[j];
        if (e.weight > 0 && (mask & (1U << e.vl)))
        {
            s.index = j;
            s.remaining = e.weight;
            vl = e.vl;
            return true;
        }
    }
    return false;
}

uint8_t
VlArbiter::Pick(uint16_t eligibleMask)
{
    NS_ASSERT(eligibleMask != 0);
    uint8_t vl = 0;
    bool highOk = AnyEligible(m_high, eligibleMask);
    bool lowOk = AnyEligible(m_low, eligibleMask);
    // IBTA LimitOfHighPriority: after HighLimit x 4096 bytes of high-priority data a
    // low-priority packet may go; 0 still lets one high-priority packet go first.
    const uint64_t limitBytes = std::max<uint64_t>(uint64_t(m_highLimit) * 4096, 1);
    bool limitHit = m_highLimit != 255 && m_highBytes >= limitBytes;
    if (highOk && !(limitHit && lowOk) && PickFrom(m_high, eligibleMask, vl))
    {
        m_lastFromHigh = true;
        return vl;
    }
    if (lowOk && PickFrom(m_low, eligibleMask, vl))
    {
        m_lastFromHigh = false;
        return vl;
    }
    // A VL in no table (or weight 0 everywhere) still gets served, lowest first, so a
    // misconfigured table cannot strand credits forever.
    m_lastFromHigh = false;
    for (uint8_t v = 0; v < 16; ++v)
    {
        if (eligibleMask & (1U << v))
        {
            return v;
        }
    }
    return 0;
}

void
VlArbiter::Charge(uint32_t bytes)
{
    int32_t units = static_cast<int32_t>((bytes + 63) / 64);
    if (m_lastFromHigh)
    {
        m_high.remaining -= units;
        m_highBytes += bytes;
    }
    else
    {
        m_low.remaining -= units;
        m_highBytes = 0;
    }
}

} // namespace ns3
