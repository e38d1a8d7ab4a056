/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_SCENARIO_WORKLOAD_H
#define FLOW_SCENARIO_WORKLOAD_H

#include "scenario-workload.h"

#include "ns3/flow-workload.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The runner's flows beside any --workload: --background traffic and --flows
 * files (a FlowWorkload of WorkloadOptions::Flows), posted as --verb says or as TCP
 * flows; fct.txt, summary.json "flow_workload". No work without either flag.
 */
class FlowScenarioWorkload : public ScenarioWorkload
{
  public:
    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void OpenFiles() override;
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp) override;
    uint64_t GetExpectedMessages() const override;
    uint64_t GetFinishedMessages() const override;
    void AddProgress(RankRun::Progress& p) const override;
    void AddSummary(nlohmann::json& s) const override;
    void WriteFiles(OutputWriter& writer) override;
    void Dispose() override;

  private:
    Ptr<FlowWorkload> m_flows; //!< null without --background or --flows
    uint64_t m_finished{0};    //!< background and flow-file messages finished (here)
};

} // namespace ns3

#endif // FLOW_SCENARIO_WORKLOAD_H
