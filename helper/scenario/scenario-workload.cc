/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-workload.h"

#include "scenario-workload-registry.h"

namespace ns3
{

ScenarioWorkload::~ScenarioWorkload() = default;

void
ScenarioWorkload::Install(const ScenarioConfig& /* c */, const Context& /* ctx */)
{
}

bool
ScenarioWorkload::HasWork() const
{
    return false;
}

bool
ScenarioWorkload::IsFinished() const
{
    return true;
}

void
ScenarioWorkload::OpenFiles()
{
}

void
ScenarioWorkload::OnMessage(const RdmaFabric::MessageRecord& /* r */, bool /* tcp */)
{
}

uint64_t
ScenarioWorkload::GetExpectedMessages() const
{
    return 0;
}

uint64_t
ScenarioWorkload::GetFinishedMessages() const
{
    return 0;
}

void
ScenarioWorkload::AddProgress(RankRun::Progress& /* p */) const
{
}

void
ScenarioWorkload::AddSummary(nlohmann::json& /* s */) const
{
}

void
ScenarioWorkload::WriteFiles(OutputWriter& /* writer */)
{
}

void
ScenarioWorkload::Dispose()
{
}

Ptr<CollectiveApplication>
ScenarioWorkload::GetCollectiveApplication() const
{
    return nullptr;
}

/// --workload=none (only --background and --flows): this base class, no work.
static ScenarioWorkloadRegistration<ScenarioWorkload> g_noneRegistration(WorkloadRegistry::NONE);

} // namespace ns3
