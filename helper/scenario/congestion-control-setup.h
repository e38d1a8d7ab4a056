/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CONGESTION_CONTROL_SETUP_H
#define CONGESTION_CONTROL_SETUP_H

#include "scenario-config.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class FabricBuilder;

/**
 * \ingroup ai-fabric
 * \brief The scenario layer's congestion control (--cc, --cc-preset, --ecn and the
 * --ns3:: overrides of the algorithm's attributes): what resolves before the fabric is
 * built and what summary.json reports of it. The fabric's part (its default preset,
 * whether its switches mark ECN, its marking block) is the FabricBuilder's.
 */
class CongestionControlSetup
{
  public:
    /**
     * --ecn and --cc-preset '' become the values used (echoed in summary.json): ECN
     * marking on where the algorithm reacts to it (or TCP carries the flows), the preset
     * the fabric names for the algorithm.
     * \param c the configuration (resolved in place)
     * \param builder --fabric's builder
     * \throws ConfigError for --kmin/--kmax/--pmax with marking off
     */
    static void Resolve(ScenarioConfig& c, const FabricBuilder& builder);
    /**
     * \param c the configuration
     * \return the --ns3:: overrides of the algorithm's attributes, as (attribute, value)
     * of the algorithm, for the fabric builder (its preset's values would otherwise win)
     * and summary.json
     */
    static std::vector<std::pair<std::string, std::string>> Overrides(const ScenarioConfig& c);
    /**
     * \param c the configuration (resolved)
     * \param builder --fabric's builder (after Build)
     * \return summary.json's congestion_control: the algorithm, its preset and attributes
     * as run, and the fabric's marking
     */
    static nlohmann::json ToJson(const ScenarioConfig& c, const FabricBuilder& builder);
};

} // namespace ns3

#endif // CONGESTION_CONTROL_SETUP_H
