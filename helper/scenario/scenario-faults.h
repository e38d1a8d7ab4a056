/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_FAULTS_H
#define SCENARIO_FAULTS_H

#include "scenario-config.h"

#include "ns3/ptr.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ns3
{

class FaultInjectionHelper;
class PfcWatchdog;
class RdmaFabric;
class RunRecorder;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief The scenario layer's fault injectors: --pfc-storm, --link-failure,
 * --node-failure and --pfc-watchdog on a built fabric (through FaultInjectionHelper, the
 * same calls a script makes), and their summary.json blocks ("failures",
 * "pfc_watchdog_events").
 */
class ScenarioFaults
{
  public:
    ScenarioFaults();
    ~ScenarioFaults();

    /**
     * Inject the configuration's faults into \p fabric.
     * \param c the configuration
     * \param graph the fabric's topology
     * \param fabric the fabric (disposed of if a fault is refused)
     * \throws ConfigError naming the flag whose fault the fabric refused
     */
    void Install(const ScenarioConfig& c, const TopologyGraph& graph, Ptr<RdmaFabric> fabric);
    /// \return the PFC watchdog (null without --pfc-watchdog)
    Ptr<PfcWatchdog> GetWatchdog() const;
    /// Add "failures" (with a failed cable) and "pfc_watchdog_events" (with the
    /// watchdog) to \p s; \p recorder counted the link_down drops.
    void AddSummary(nlohmann::json& s, const RunRecorder& recorder) const;
    /// Dispose of the watchdog.
    void Dispose();

  private:
    /// --link-failure's cables, then each --node-failure switch's (every switch checked
    /// first); fills m_failedNodeOfLink
    void FailCables(const FaultInjectionHelper& faults);
    /// A fault the fabric refused (\p e): dispose of the fabric (its reference cycles)
    /// and throw ConfigError naming \p flag
    [[noreturn]] void Refuse(const std::string& flag, const std::invalid_argument& e);

    const ScenarioConfig* m_config{nullptr}; //!< Install's
    const TopologyGraph* m_graph{nullptr};   //!< Install's
    Ptr<RdmaFabric> m_fabric;                //!< Install's
    Ptr<PfcWatchdog> m_watchdog;             //!< when --pfc-watchdog is set
    /// link -> the switch whose --node-failure failed it, for summary.json's failures
    std::unordered_map<uint32_t, uint32_t> m_failedNodeOfLink;
};

} // namespace ns3

#endif // SCENARIO_FAULTS_H
