/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-send-times.h"

#include <algorithm>

namespace ns3
{

RdmaSendTimes::RdmaSendTimes(uint64_t size)
    : m_mask(size - 1)
{
}

void
RdmaSendTimes::Grow(uint64_t size, uint64_t from, uint64_t end)
{
    const uint64_t mask = size - 1;
    if (m_wide != nullptr)
    {
        std::unique_ptr<int64_t[]> grown(new int64_t[size]());
        for (uint64_t p = from; p < end; ++p)
        {
            grown[p & mask] = m_wide[p & m_mask];
        }
        m_wide.swap(grown);
    }
    else if (m_narrow != nullptr)
    {
        std::unique_ptr<uint32_t[]> grown(new uint32_t[size]);
        std::fill(grown.get(), grown.get() + size, ZERO);
        for (uint64_t p = from; p < end; ++p)
        {
            grown[p & mask] = m_narrow[p & m_mask];
        }
        m_narrow.swap(grown);
    }
    m_mask = mask;
}

void
RdmaSendTimes::SetSlow(uint64_t psn, int64_t ticks, uint64_t liveFrom, uint64_t liveEnd)
{
    if (m_narrow == nullptr && m_wide == nullptr)
    {
        // The first time: the ring's memory, every entry reading 0.
        m_narrow.reset(new uint32_t[m_mask + 1]);
        std::fill(m_narrow.get(), m_narrow.get() + m_mask + 1, ZERO);
        m_base = ticks;
        m_narrow[psn & m_mask] = 0;
        return;
    }
    if (m_wide == nullptr)
    {
        // Rebase on the earliest time still needed (times only grow: ticks is the latest).
        int64_t base = ticks;
        for (uint64_t p = liveFrom; p < liveEnd; ++p)
        {
            if (p != psn && m_narrow[p & m_mask] != ZERO)
            {
                base = std::min(base, m_base + m_narrow[p & m_mask]);
            }
        }
        if (static_cast<uint64_t>(ticks - base) < ZERO)
        {
            for (uint64_t p = liveFrom; p < liveEnd; ++p)
            {
                uint32_t& e = m_narrow[p & m_mask];
                if (e != ZERO)
                {
                    e = static_cast<uint32_t>(m_base + e - base);
                }
            }
            m_base = base;
            m_narrow[psn & m_mask] = static_cast<uint32_t>(ticks - base);
            return;
        }
        // The live times span more than 32 bits: every entry at full width.
        const uint64_t size = m_mask + 1;
        std::unique_ptr<int64_t[]> wide(new int64_t[size]);
        for (uint64_t i = 0; i < size; ++i)
        {
            wide[i] = m_narrow[i] == ZERO ? 0 : m_base + m_narrow[i];
        }
        m_wide.swap(wide);
        m_narrow.reset();
    }
    m_wide[psn & m_mask] = ticks;
}

} // namespace ns3
