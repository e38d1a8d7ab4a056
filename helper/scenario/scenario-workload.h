/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_WORKLOAD_H
#define SCENARIO_WORKLOAD_H

#include "rank-run.h"
#include "scenario-config.h"

#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>

namespace ns3
{

class OutputWriter;
class CollectiveApplication;
class TcpFlowTransport;

/**
 * \ingroup ai-fabric
 * \brief A workload as the scenario runner runs it: installed on the built fabric,
 * told of every finished message, asked whether its work is done, and contributing its
 * own summary.json block and output files.
 *
 * The runner makes the component of --workload once (ScenarioWorkloadRegistry: the
 * component registered under the workload's name, else its family's) plus the flows'
 * (FlowScenarioWorkload: --background and --flows), and never asks which workload it
 * runs. Each component wraps a public helper a script can use without the runner
 * (CollectiveWorkload, TrainingWorkload, FlowWorkload, PointToPointPatterns).
 *
 * This base class is the workload "none": it does nothing and has no work.
 */
class ScenarioWorkload
{
  public:
    /// What Install uses besides the configuration.
    struct Context
    {
        Ptr<RdmaFabric> fabric;    //!< the built fabric
        Ptr<TcpFlowTransport> tcp; //!< --transport=tcp: carries the messages (else null)
        OutputWriter* writer;      //!< the run's writer (not open yet unless --pcap)
        /// The run's completion check (RunRecorder::CheckCompletion): for a workload whose
        /// last step is no message
        std::function<void()> checkCompletion;
    };

    virtual ~ScenarioWorkload();

    /**
     * Install the workload on \p ctx's fabric and start it (its messages posted at time
     * 0 or scheduled).
     * \param c the configuration (resolved; it outlives this)
     * \param ctx the fabric, the TCP transport and the writer
     * \throws ConfigError naming the flag, its value and what is allowed
     */
    virtual void Install(const ScenarioConfig& c, const Context& ctx);
    /// \return whether the run waits for this workload (false: it has no work)
    virtual bool HasWork() const;
    /// \return whether its work is done (checked after each finished message)
    virtual bool IsFinished() const;
    /**
     * After --out was opened: open the files the workload writes during the run.
     * \throws ConfigError naming a file that cannot be written
     */
    virtual void OpenFiles();
    /// A finished message or TCP flow (\p tcp), after its fct.csv row: count it if it is
    /// this workload's.
    virtual void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp);
    /// \return the messages it posts that summary.json's "messages" counts
    virtual uint64_t GetExpectedMessages() const;
    /// \return those finished on this rank
    virtual uint64_t GetFinishedMessages() const;
    /// --mpi: add this rank's progress to \p p (RankRun's completion check)
    virtual void AddProgress(RankRun::Progress& p) const;
    /// Add its summary.json block(s) to \p s.
    virtual void AddSummary(nlohmann::json& s) const;
    /**
     * After the run: write its output files into \p writer's directory (registered as run
     * files). A failed write abandons the run (OutputWriter::AbandonAfterWriteError).
     */
    virtual void WriteFiles(OutputWriter& writer);
    /// Dispose of its objects (before the fabric).
    virtual void Dispose();
    /// \return the collective application this workload runs, if any (--attribution's
    /// critical paths); nullptr by default
    virtual Ptr<CollectiveApplication> GetCollectiveApplication() const;
};

} // namespace ns3

#endif // SCENARIO_WORKLOAD_H
