/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AI_FABRIC_DEPRECATED_H
#define AI_FABRIC_DEPRECATED_H

/**
 * \file
 * \ingroup ai-fabric
 * The deprecation tag of this module's public names, on every ns-3 release it builds
 * against (CHANGES.md lists what is deprecated and what replaces it).
 *
 * ns-3.36 and later define NS_DEPRECATED(msg) as [[deprecated(msg)]] (ns3/deprecated.h);
 * its versioned forms (NS_DEPRECATED_3_37, ...) say in which ns-3 release ns-3 itself
 * deprecated something and are dropped a few releases later (ns-3-dev keeps only the
 * recent ones), so this module uses the plain form. Waf-era trees (ns-3.35 and older;
 * wscript-compat/wscript defines AI_FABRIC_NS3_WAF_TREE) define NS_DEPRECATED without a
 * message: there the standard attribute is used directly.
 */

#include "ns3/deprecated.h"

#ifdef AI_FABRIC_NS3_WAF_TREE
#define AI_FABRIC_DEPRECATED(msg) [[deprecated(msg)]]
#else
#define AI_FABRIC_DEPRECATED(msg) NS_DEPRECATED(msg)
#endif

/**
 * Silence -Wdeprecated-declarations from here to AI_FABRIC_WARNING_POP: around the
 * definition of a struct with a deprecated data member (so that the constructor the
 * compiler writes for it, which initialises that member, does not warn in every
 * program that makes one) and where the module itself fills a deprecated member.
 * A use of the member elsewhere still warns. (ns-3.37 has no ns3/warnings.h.)
 */
#define AI_FABRIC_WARNING_PUSH_DEPRECATED                                                          \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
/// Ends AI_FABRIC_WARNING_PUSH_DEPRECATED.
#define AI_FABRIC_WARNING_POP _Pragma("GCC diagnostic pop")

#endif // AI_FABRIC_DEPRECATED_H
