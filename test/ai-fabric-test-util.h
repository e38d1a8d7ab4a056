/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the fabric test suites.
 */
#ifndef AI_FABRIC_TEST_UTIL_H
#define AI_FABRIC_TEST_UTIL_H

#include "ns3/nstime.h"

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

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

/**
 * Print one measured figure of doc/validation.md's table as "validation: KEY = VALUE"
 * (6 significant digits); test/python/test_validation_doc.py runs the suite and checks
 * that the table shows this value.
 */
inline void
ReportValidation(const std::string& key, double value)
{
    std::ostringstream line;
    line << "validation: " << key << " = " << std::setprecision(6) << value << "\n";
    std::cout << line.str() << std::flush;
}

} // namespace ns3

#endif // AI_FABRIC_TEST_UTIL_H
