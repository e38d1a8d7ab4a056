/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PING_PONG_SCENARIO_WORKLOAD_H
#define PING_PONG_SCENARIO_WORKLOAD_H

#include "ns3/scenario-workload.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric-tests
 * \brief A toy workload of the test library, --workload=test-ping-pong: the first host
 * WRITEs kBytes to the last, which answers with kBytes once it has them, kRounds times;
 * summary.json "ping_pong": the rounds and each round trip. It shows what adding a
 * workload component takes (this class, its .cc file with its registrations) and lets a
 * test check that the runner installs it, tells it of its messages, waits for it and
 * writes its summary block.
 */
class PingPongScenarioWorkload : public ScenarioWorkload
{
  public:
    static constexpr uint64_t kBytes = 4096; //!< bytes of every message
    static constexpr uint32_t kRounds = 4;   //!< round trips

    void Install(const ScenarioConfig& c, const Context& ctx) override;
    bool HasWork() const override;
    bool IsFinished() const override;
    void OnMessage(const RdmaFabric::MessageRecord& r, bool tcp) override;
    uint64_t GetExpectedMessages() const override;
    uint64_t GetFinishedMessages() const override;
    void AddSummary(nlohmann::json& s) const override;
    void Dispose() override;

  private:
    /// Post one message from \p src to \p dst
    void Post(uint32_t src, uint32_t dst);

    Ptr<RdmaFabric> m_fabric;
    uint32_t m_ping{0};             //!< the first host
    uint32_t m_pong{0};             //!< the last host
    uint64_t m_finished{0};         //!< messages finished
    Time m_roundStart;              //!< when the current round's ping was posted
    std::vector<Time> m_roundTrips; //!< one per finished round
};

} // namespace ns3

#endif // PING_PONG_SCENARIO_WORKLOAD_H
