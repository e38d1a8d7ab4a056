/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_SCENARIO_WORKLOAD_H
#define TRAINING_SCENARIO_WORKLOAD_H

#include "scenario-workload.h"

#include "ns3/chakra-workload.h"
#include "ns3/training-workload.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The runner's training workload (--workload=training): a TrainingWorkload of
 * WorkloadOptions::Training, summary.json "training" and its CSVs (training.csv, ...);
 * with --chakra a ChakraWorkload of the trace instead, summary.json "chakra" and
 * chakra.csv.
 */
class TrainingScenarioWorkload : public ScenarioWorkload
{
  public:
    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void AddProgress(RankRun::Progress& p) const override;
    void AddSummary(nlohmann::json& s) const override;
    void WriteFiles(OutputWriter& writer) override;
    void Dispose() override;

  private:
    Ptr<TrainingWorkload> m_training;
    Ptr<ChakraWorkload> m_chakra; //!< --chakra (then no m_training)
    bool m_mpi{false};            //!< --mpi: rank 0 writes the files
};

} // namespace ns3

#endif // TRAINING_SCENARIO_WORKLOAD_H
