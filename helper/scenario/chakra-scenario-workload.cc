/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "chakra-scenario-workload.h"

#include "scenario-workload-registry.h"
#include "workload-options.h"

#include "ns3/lambda-callback.h"
#include "ns3/output-writer.h"

#include <filesystem>

namespace ns3
{

static ScenarioWorkloadRegistration<ChakraScenarioWorkload> g_registration("chakra");

void
ChakraScenarioWorkload::Install(const ScenarioConfig& c, const Context& ctx)
{
    m_chakra = CreateObject<ChakraWorkload>();
    TrainingWorkload::Options o = WorkloadOptions::Training(c);
    o.file = c.chakra;
    WorkloadOptions::AsConfigError([&]() { m_chakra->Setup(o, ctx.fabric); });
    // The last iteration may end with a compute node, after its last message.
    m_chakra->SetFinishedCallback(MakeLambdaCallback<void>(ctx.checkCompletion));
    m_chakra->Start();
}

bool
ChakraScenarioWorkload::HasWork() const
{
    return true;
}

bool
ChakraScenarioWorkload::IsFinished() const
{
    return m_chakra->IsFinished();
}

void
ChakraScenarioWorkload::AddSummary(nlohmann::json& s) const
{
    s["chakra"] = m_chakra->ToJson();
}

void
ChakraScenarioWorkload::WriteFiles(OutputWriter& writer)
{
    const std::string csv = (std::filesystem::path(writer.GetDirectory()) / "chakra.csv").string();
    writer.AddRunFile(csv);
    if (!m_chakra->WriteCsv(writer.GetDirectory()))
    {
        writer.AbandonAfterWriteError("cannot write " + csv);
    }
}

void
ChakraScenarioWorkload::Dispose()
{
    if (m_chakra)
    {
        m_chakra->Dispose();
        m_chakra = nullptr;
    }
}

} // namespace ns3
