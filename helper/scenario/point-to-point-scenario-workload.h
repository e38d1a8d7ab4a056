/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POINT_TO_POINT_SCENARIO_WORKLOAD_H
#define POINT_TO_POINT_SCENARIO_WORKLOAD_H

#include "scenario-workload.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The runner's point-to-point workloads (incast, permutation, alltoall, ...):
 * the registered pattern's messages (WorkloadRegistry::Entry::pattern) posted at time 0
 * as --verb says, or as TCP flows with --transport=tcp. Done once every one finished.
 */
class PointToPointScenarioWorkload : public ScenarioWorkload
{
  public:
    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp) override;
    uint64_t GetExpectedMessages() const override;
    uint64_t GetFinishedMessages() const override;
    void AddProgress(RankRun::Progress& p) const override;

  private:
    uint64_t m_expected{0}; //!< the pattern's messages
    uint64_t m_finished{0}; //!< those finished (on this rank)
};

} // namespace ns3

#endif // POINT_TO_POINT_SCENARIO_WORKLOAD_H
