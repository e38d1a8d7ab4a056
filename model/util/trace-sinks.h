/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRACE_SINKS_H
#define TRACE_SINKS_H

#include "ns3/traced-callback.h"

// waf-era trees (wscript-compat/wscript defines AI_FABRIC_NS3_WAF_TREE) have no
// version-defines.h; __has_include would find an installed ns-3's (Debian: 3.37).
#if !defined(AI_FABRIC_NS3_WAF_TREE) && __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#endif
#if defined(NS3_VERSION_MAJOR) && defined(NS3_VERSION_MINOR) &&                                    \
    (NS3_VERSION_MAJOR > 3 || (NS3_VERSION_MAJOR == 3 && NS3_VERSION_MINOR >= 36))
#define AI_FABRIC_TRACED_CALLBACK_HAS_IS_EMPTY 1
#else
#define AI_FABRIC_TRACED_CALLBACK_HAS_IS_EMPTY 0
#endif

namespace ns3
{

/**
 * \ingroup ai-fabric
 * Whether a trace source has sinks. Firing an unconnected packet trace still copies
 * a Ptr (two reference-count updates) and walks an empty list on every packet; the
 * devices test this first so that a trace nobody listens to (pcap off) costs one
 * load and branch. TracedCallback::IsEmpty exists from ns-3.36 on (the releases with
 * version-defines.h); older trees always fire.
 */
template <typename... Ts>
inline bool
HasSinks(const TracedCallback<Ts...>& trace)
{
#if AI_FABRIC_TRACED_CALLBACK_HAS_IS_EMPTY
    return !trace.IsEmpty();
#else
    (void)trace;
    return true;
#endif
}

} // namespace ns3

#endif // TRACE_SINKS_H
