/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_SCENARIO_WORKLOAD_H
#define CHAKRA_SCENARIO_WORKLOAD_H

#include "scenario-workload.h"

#include "ns3/chakra-workload.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The runner's Chakra workload (--workload=chakra --chakra=PREFIX): a
 * ChakraWorkload of WorkloadOptions::Training with the trace's prefix, summary.json
 * "chakra" and chakra.csv.
 */
class ChakraScenarioWorkload : public ScenarioWorkload
{
  public:
    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void AddSummary(nlohmann::json& s) const override;
    void WriteFiles(OutputWriter& writer) override;
    void Dispose() override;

  private:
    Ptr<ChakraWorkload> m_chakra;
};

} // namespace ns3

#endif // CHAKRA_SCENARIO_WORKLOAD_H
