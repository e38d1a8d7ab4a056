/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "int-record-history.h"

namespace ns3
{

void
IntRecordHistory::Reset()
{
    m_have = false;
    m_nHops = 0;
}

bool
IntRecordHistory::Accept(const IntHeader& h)
{
    const uint32_t n = h.GetNHops();
    if (n == 0)
    {
        return false; // no record (nothing echoed yet): the history stays
    }
    if (!m_have || n != m_nHops)
    {
        Store(h); // the first records (or another path): nothing to compare with yet
        return false;
    }
    return true;
}

void
IntRecordHistory::Store(const IntHeader& h)
{
    m_nHops = h.GetNHops();
    for (uint32_t i = 0; i < m_nHops; ++i)
    {
        m_hops[i] = h.GetHop(i);
    }
    m_have = true;
}

} // namespace ns3
