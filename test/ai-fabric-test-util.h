/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the fabric test suites.
 */
#ifndef AI_FABRIC_TEST_UTIL_H
#define AI_FABRIC_TEST_UTIL_H

#include "ns3/nstime.h"

namespace ns3
{

/**
 * Switch ns-3 to picosecond time, as the scenario runner does (at 400 Gb/s a byte
 * is 20 ps). Only before anything has run: ns-3 cannot change resolution later.
 */
inline void
UsePicoseconds()
{
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
}

} // namespace ns3

#endif // AI_FABRIC_TEST_UTIL_H
