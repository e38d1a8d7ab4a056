/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-scenario-workload.h"

#include "fast-forward-setup.h"
#include "rank-coordinator.h"
#include "scenario-workload-registry.h"
#include "workload-options.h"

#include "ns3/lambda-callback.h"
#include "ns3/output-writer.h"

#include <filesystem>

namespace ns3
{

static ScenarioWorkloadRegistration<TrainingScenarioWorkload> g_registration(
    WorkloadRegistry::TRAINING);

void
TrainingScenarioWorkload::Install(const ScenarioConfig& c, const Context& ctx)
{
    if (!c.chakra.empty())
    {
        // a Chakra trace (ScenarioConfig refuses --training beside it)
        TrainingWorkload::Options o = WorkloadOptions::Training(c);
        o.file = c.chakra;
        m_chakra = CreateObject<ChakraWorkload>();
        WorkloadOptions::AsConfigError([&]() { m_chakra->Setup(o, ctx.fabric); });
        m_chakra->SetFinishedCallback(MakeLambdaCallback<void>(ctx.checkCompletion));
        m_chakra->Start();
        return;
    }
    m_mpi = c.mpi;
    m_training = CreateObject<TrainingWorkload>();
    WorkloadOptions::AsConfigError(
        [&]() { m_training->Setup(WorkloadOptions::Training(c), ctx.fabric); });
    // The last iteration may end with a compute step, after its last message.
    m_training->SetFinishedCallback(MakeLambdaCallback<void>(ctx.checkCompletion));
    m_training->Start();
}

bool
TrainingScenarioWorkload::HasWork() const
{
    return true;
}

bool
TrainingScenarioWorkload::IsFinished() const
{
    return m_chakra ? m_chakra->IsFinished() : m_training->IsFinished();
}

void
TrainingScenarioWorkload::AddProgress(RankRun::Progress& p) const
{
    if (m_training)
    {
        p.training = m_training;
        p.finishedGpus += m_training->GetEngine()->GetFinishedGpus();
        p.pendingTraining += m_training->GetTransport()->GetPendingMessages();
    }
}

void
TrainingScenarioWorkload::AddSummary(nlohmann::json& s) const
{
    if (m_chakra)
    {
        s["chakra"] = m_chakra->ToJson();
        return;
    }
    s["training"] = m_training->ToJson();
    if (Ptr<FastForwardTransport> ff = m_training->GetFastForward())
    {
        s["fast_forward"] = FastForwardSetup::ToJson(*ff);
    }
}

void
TrainingScenarioWorkload::WriteFiles(OutputWriter& writer)
{
    if (m_mpi && RankCoordinator::GetRank() != 0)
    {
        return; // (rank 0 writes every GPU's rows, GatherTraining)
    }
    std::string names;
    for (const std::string& name : m_chakra ? m_chakra->GetCsvNames() : m_training->GetCsvNames())
    {
        const std::string csv = (std::filesystem::path(writer.GetDirectory()) / name).string();
        writer.AddRunFile(csv);
        names += (names.empty() ? "" : " or ") + csv;
    }
    if (!(m_chakra ? m_chakra->WriteCsv(writer.GetDirectory())
                   : m_training->WriteCsv(writer.GetDirectory())))
    {
        writer.AbandonAfterWriteError("cannot write " + names);
    }
}

void
TrainingScenarioWorkload::Dispose()
{
    if (m_training)
    {
        m_training->Dispose();
        m_training = nullptr;
    }
    if (m_chakra)
    {
        m_chakra->Dispose();
        m_chakra = nullptr;
    }
}

} // namespace ns3
