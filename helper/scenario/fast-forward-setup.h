/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAST_FORWARD_SETUP_H
#define FAST_FORWARD_SETUP_H

#include "scenario-config.h"

#include "ns3/fast-forward-transport.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * --fast-forward=1 in the runner (doc/fast-forward.md): where it applies and its
 * summary.json block "fast_forward".
 */
class FastForwardSetup
{
  public:
    /**
     * \return "" when the run's collective or training messages may be skipped once
     * steady; else why fast-forward skips nothing (traffic it does not see changes the
     * contention: background or file flows, failures; or a workload of no collective)
     */
    static std::string InactiveReason(const ScenarioConfig& c);
    /// The block of a run whose workload installed a FastForwardTransport.
    static nlohmann::json ToJson(const FastForwardTransport& ff);
    /// The block of a --fast-forward=1 run that installed none: nothing skipped, and why.
    static nlohmann::json InactiveJson(const ScenarioConfig& c);
    /// With --fast-forward=1: InactiveJson as \p summary's "fast_forward" unless a
    /// workload's transport wrote its block.
    static void AddInactive(const ScenarioConfig& c, nlohmann::json& summary);
};

} // namespace ns3

#endif // FAST_FORWARD_SETUP_H
