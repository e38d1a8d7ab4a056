/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_SCENARIO_WORKLOAD_H
#define COLLECTIVE_SCENARIO_WORKLOAD_H

#include "scenario-workload.h"

#include "ns3/collective-workload.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The runner's collective workloads (allreduce, allgather, ...): a
 * CollectiveWorkload of WorkloadOptions::Collective, its collective.csv rows written as
 * they end (--mpi: by rank 0 after the run), summary.json "collectives".
 */
class CollectiveScenarioWorkload : public ScenarioWorkload
{
  public:
    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp) override;
    void AddProgress(RankRun::Progress& p) const override;
    void AddSummary(nlohmann::json& s) const override;
    void Dispose() override;
    Ptr<CollectiveApplication> GetCollectiveApplication() const override;

  private:
    Ptr<CollectiveWorkload> m_collective;
    uint64_t m_finished{0}; //!< collective messages finished (acknowledged) here
};

} // namespace ns3

#endif // COLLECTIVE_SCENARIO_WORKLOAD_H
