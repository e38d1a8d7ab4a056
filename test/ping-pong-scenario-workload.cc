/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ping-pong-scenario-workload.h"

#include "ns3/lambda-callback.h"
#include "ns3/message-kind.h"
#include "ns3/scenario-workload-registry.h"
#include "ns3/simulator.h"
#include "ns3/workload-registry.h"

namespace ns3
{

namespace
{
WorkloadRegistration g_workload({"test-ping-pong",
                                 "the first and the last host exchange 4 KB 4 times (test "
                                 "library)",
                                 WorkloadRegistry::OTHER,
                                 {}});
ScenarioWorkloadRegistration<PingPongScenarioWorkload> g_component("test-ping-pong");
} // namespace

void
PingPongScenarioWorkload::Install(const ScenarioConfig& /* c */, const Context& ctx)
{
    m_fabric = ctx.fabric;
    m_ping = 0;
    m_pong = m_fabric->GetNHosts() - 1;
    m_roundStart = Simulator::Now();
    Post(m_ping, m_pong);
}

void
PingPongScenarioWorkload::Post(uint32_t src, uint32_t dst)
{
    m_fabric->PostWrite(src, dst, kBytes, 0, KIND_PERMUTATION);
}

bool
PingPongScenarioWorkload::HasWork() const
{
    return true;
}

bool
PingPongScenarioWorkload::IsFinished() const
{
    return m_roundTrips.size() >= kRounds;
}

void
PingPongScenarioWorkload::OnMessage(const RdmaFabric::MessageRecord& r, bool /* tcp */)
{
    if (r.kind != KIND_PERMUTATION)
    {
        return;
    }
    m_finished++;
    if (r.src == m_ping)
    {
        // (posted from an event of its own: the fabric is inside its completion here)
        ScheduleLambdaNow([this]() { Post(m_pong, m_ping); });
        return;
    }
    m_roundTrips.push_back(r.end - m_roundStart);
    if (m_roundTrips.size() < kRounds)
    {
        ScheduleLambdaNow([this]() {
            m_roundStart = Simulator::Now();
            Post(m_ping, m_pong);
        });
    }
}

uint64_t
PingPongScenarioWorkload::GetExpectedMessages() const
{
    return 2 * kRounds;
}

uint64_t
PingPongScenarioWorkload::GetFinishedMessages() const
{
    return m_finished;
}

void
PingPongScenarioWorkload::AddSummary(nlohmann::json& s) const
{
    nlohmann::json trips = nlohmann::json::array();
    for (const Time& t : m_roundTrips)
    {
        trips.push_back(t.GetNanoSeconds());
    }
    s["ping_pong"] = {{"rounds", m_roundTrips.size()}, {"round_trip_ns", trips}};
}

void
PingPongScenarioWorkload::Dispose()
{
    m_fabric = nullptr;
}

} // namespace ns3
