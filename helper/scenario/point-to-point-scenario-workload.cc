/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "point-to-point-scenario-workload.h"

#include "scenario-workload-registry.h"
#include "workload-options.h"

#include "ns3/message-kind.h"
#include "ns3/random-variable-stream.h"
#include "ns3/tcp-flow-transport.h"

namespace ns3
{

static ScenarioWorkloadRegistration<PointToPointScenarioWorkload> g_registration(
    WorkloadRegistry::POINT_TO_POINT);

void
PointToPointScenarioWorkload::Install(const ScenarioConfig& c, const Context& ctx)
{
    const WorkloadRegistry::Entry& workload = WorkloadRegistry::Get(c.workload);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(1);
    PointToPointPattern pattern;
    WorkloadOptions::AsConfigError([&]() {
        pattern = workload.pattern(WorkloadOptions::PointToPoint(c), ctx.fabric->GetNHosts(), rng);
    });
    m_expected += pattern.pairs.size();
    const ScenarioConfig::Verb verb = c.GetVerb(); // (resolved once, not per message)
    for (const auto& [src, dst] : pattern.pairs)
    {
        if (ctx.tcp)
        {
            ctx.tcp->PostFlow(src, dst, pattern.bytes, 0, pattern.kind);
        }
        else if (verb == ScenarioConfig::Verb::READ)
        {
            ctx.fabric->PostRead(dst, src, pattern.bytes, 0, pattern.kind); // dst reads src
        }
        else if (verb == ScenarioConfig::Verb::SEND)
        {
            ctx.fabric->PostSend(src, dst, pattern.bytes, 0, pattern.kind);
        }
        else
        {
            ctx.fabric->PostWrite(src, dst, pattern.bytes, 0, pattern.kind);
        }
    }
}

bool
PointToPointScenarioWorkload::HasWork() const
{
    return true;
}

bool
PointToPointScenarioWorkload::IsFinished() const
{
    return m_finished >= m_expected;
}

void
PointToPointScenarioWorkload::OnMessage(const RdmaFabric::MessageRecord& r, bool /* tcp */)
{
    // (flows, background flows and collectives are other workloads')
    if (r.kind != KIND_FLOW && r.kind != KIND_BACKGROUND && r.kind != KIND_COLLECTIVE)
    {
        m_finished++;
    }
}

uint64_t
PointToPointScenarioWorkload::GetExpectedMessages() const
{
    return m_expected;
}

uint64_t
PointToPointScenarioWorkload::GetFinishedMessages() const
{
    return m_finished;
}

void
PointToPointScenarioWorkload::AddProgress(RankRun::Progress& p) const
{
    p.expectedMessages += m_expected;
    p.finishedMessages += m_finished;
}

} // namespace ns3
