/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-scenario-workload.h"

#include "fast-forward-setup.h"
#include "scenario-workload-registry.h"
#include "workload-options.h"

#include "ns3/collective-application.h"
#include "ns3/config-error.h"
#include "ns3/lambda-callback.h"
#include "ns3/message-kind.h"
#include "ns3/output-writer.h"

namespace ns3
{

static ScenarioWorkloadRegistration<CollectiveScenarioWorkload> g_registration(
    WorkloadRegistry::COLLECTIVE);

void
CollectiveScenarioWorkload::Install(const ScenarioConfig& c, const Context& ctx)
{
    m_collective = CreateObject<CollectiveWorkload>();
    WorkloadOptions::AsConfigError(
        [&]() { m_collective->Setup(WorkloadOptions::Collective(c), ctx.fabric); });
    if (c.mpi && !m_collective->DependsOnlyOnDeliveriesAtSource())
    {
        throw ConfigError("--mpi=1 does not run --workload=" + c.workload +
                          " --algorithm=" + c.algorithm +
                          " yet: some of its transfers wait for deliveries at another host "
                          "than their source, which another rank may see; allowed across "
                          "ranks: an algorithm whose transfers wait only for deliveries at "
                          "their source (every --algorithm of the runner's collectives)");
    }
    if (c.mpi && c.iterations > 1 && !m_collective->IsPerRank())
    {
        throw ConfigError("--mpi=1 does not run --workload=" + c.workload + " --iterations=" +
                          std::to_string(c.iterations) + " --algorithm=" + c.algorithm +
                          " with iterations that start at a barrier (no rank sees the "
                          "operation end); allowed across ranks: ns3::CollectiveApplication::"
                          "IterationStart per-rank and an algorithm that posts on the RDMA "
                          "transport (not nvls or collnet), or --iterations=1");
    }
    if (!c.mpi) // (--mpi: rank 0 writes the rows after the run, into the merged files)
    {
        OutputWriter* w = ctx.writer;
        Ptr<RdmaFabric> fabric = ctx.fabric;
        std::function<void()> check = ctx.checkCompletion;
        m_collective->SetRowCallback(MakeLambdaCallback<void, const OutputCollectiveRow&>(
            [w, fabric, check](const OutputCollectiveRow& r) {
                w->AppendCollective(r);
                if (fabric->GetPendingMessages() == 0)
                {
                    // No fabric message left whose completion would check (nvls posts
                    // none): check once the operation has marked itself finished.
                    ScheduleLambdaNow(check);
                }
            }));
        // The last iteration may end after its last message's acknowledgement (a
        // protocol's step latency): then its record ends the run.
        m_collective->SetFinishedCallback(MakeLambdaCallback<void>(check));
    }
    m_collective->Start();
}

bool
CollectiveScenarioWorkload::HasWork() const
{
    return true;
}

bool
CollectiveScenarioWorkload::IsFinished() const
{
    return m_collective->IsFinished();
}

void
CollectiveScenarioWorkload::OnMessage(const RdmaFabric::MessageRecord& r, bool /* tcp */)
{
    if (r.kind == KIND_COLLECTIVE)
    {
        m_finished++; // (--mpi: the completion checks wait for every one)
    }
}

void
CollectiveScenarioWorkload::AddProgress(RankRun::Progress& p) const
{
    p.finishedCollective += m_finished;
    p.collective = m_collective;
}

void
CollectiveScenarioWorkload::AddSummary(nlohmann::json& s) const
{
    s["collectives"] = m_collective->ToJson();
    if (Ptr<FastForwardTransport> ff = m_collective->GetFastForward())
    {
        s["fast_forward"] = FastForwardSetup::ToJson(*ff);
    }
}

void
CollectiveScenarioWorkload::Dispose()
{
    if (m_collective)
    {
        m_collective->Dispose();
        m_collective = nullptr;
    }
}

Ptr<CollectiveApplication>
CollectiveScenarioWorkload::GetCollectiveApplication() const
{
    return m_collective ? m_collective->GetApplication() : nullptr;
}

} // namespace ns3
