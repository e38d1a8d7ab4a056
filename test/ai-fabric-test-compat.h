/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One place for the parts of ns-3's test API that changed between releases
 * (3.35 .. dev): TestSuite::UNIT became TestSuite::Type::UNIT and
 * TestCase::QUICK became TestCase::Duration::QUICK in ns-3.41.
 */
#ifndef AI_FABRIC_TEST_COMPAT_H
#define AI_FABRIC_TEST_COMPAT_H

#include "ns3/test.h"

// A waf-era tree (wscript-compat/wscript defines AI_FABRIC_NS3_WAF_TREE) is
// ns-3.35 or older and has no ns3/version-defines.h: __has_include would find
// an installed ns-3's (Debian's 3.37 in /usr/include) and take its version.
#if !defined(AI_FABRIC_NS3_WAF_TREE) && __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#endif

#if defined(NS3_VERSION_MAJOR) && defined(NS3_VERSION_MINOR) &&                                    \
    (NS3_VERSION_MAJOR > 3 || (NS3_VERSION_MAJOR == 3 && NS3_VERSION_MINOR >= 41))
#define AI_FABRIC_UNIT_SUITE ns3::TestSuite::Type::UNIT
#define AI_FABRIC_SYSTEM_SUITE ns3::TestSuite::Type::SYSTEM
#define AI_FABRIC_QUICK ns3::TestCase::Duration::QUICK
#define AI_FABRIC_EXTENSIVE ns3::TestCase::Duration::EXTENSIVE
#else
#define AI_FABRIC_UNIT_SUITE ns3::TestSuite::UNIT
#define AI_FABRIC_SYSTEM_SUITE ns3::TestSuite::SYSTEM
#define AI_FABRIC_QUICK ns3::TestCase::QUICK
#define AI_FABRIC_EXTENSIVE ns3::TestCase::EXTENSIVE
#endif

#endif // AI_FABRIC_TEST_COMPAT_H
