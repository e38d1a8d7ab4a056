/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "theta-powertcp-congestion-control.h"

#include "congestion-control-registry.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ThetaPowertcpCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(ThetaPowertcpCongestionControl);
static CongestionControlRegistration<ThetaPowertcpCongestionControl> g_registration(
    "theta-powertcp",
    "theta-PowerTCP (Addanki et al. 2022): a window from the power of the path, "
    "estimated from the RTT and its gradient",
    "",
    false); // the RTT is its only signal: no ECN

TypeId
ThetaPowertcpCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ThetaPowertcpCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<ThetaPowertcpCongestionControl>()
            .AddAttribute("Gamma",
                          "gamma, EWMA weight of the per-RTT window update (dimensionless, "
                          "(0, 1]). Default 0.9: Addanki et al., NSDI 2022.",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&ThetaPowertcpCongestionControl::m_gamma),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("BetaRatio",
                          "beta, the additive increase per update, as a fraction of the BDP "
                          "(line rate x base RTT; dimensionless, [0, 1]). Default 0.0005: "
                          "the RateAIRatio of a public ns-3 RoCEv2 port of PowerTCP (the "
                          "paper leaves beta to the operator).",
                          DoubleValue(0.0005),
                          MakeDoubleAccessor(&ThetaPowertcpCongestionControl::m_betaRatio),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

ThetaPowertcpCongestionControl::ThetaPowertcpCongestionControl()
    : m_gamma(0.9),
      m_betaRatio(0.0005),
      m_cwnd(0),
      m_oldCwnd(0),
      m_power(1.0),
      m_bdp(0),
      m_first(true),
      m_sentPackets(0),
      m_ackedPackets(0),
      m_updateMark(0)
{
}

ThetaPowertcpCongestionControl::~ThetaPowertcpCongestionControl() = default;

std::string
ThetaPowertcpCongestionControl::GetName() const
{
    return "theta-powertcp";
}

Ptr<RdmaCongestionControl>
ThetaPowertcpCongestionControl::Fork() const
{
    return CopyObject<ThetaPowertcpCongestionControl>(this);
}

void
ThetaPowertcpCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.lineRate.GetBitRate() == 0 || !ctx.baseRtt.IsStrictlyPositive())
    {
        NS_FATAL_ERROR("theta-PowerTCP: context needs a positive line rate and base RTT");
    }
    m_bdp =
        std::round(static_cast<double>(ctx.lineRate.GetBitRate()) * ctx.baseRtt.GetSeconds() / 8.0);
    // A flow starts with one BDP (line rate), as the HPCC-derived simulators start.
    m_cwnd = m_bdp;
    m_oldCwnd = m_bdp;
    m_power = 1.0;
    m_first = true;
    m_sentPackets = 0;
    m_ackedPackets = 0;
    m_updateMark = 0;
    Apply();
}

void
ThetaPowertcpCongestionControl::OnPacketSent(uint32_t /* payloadBytes */)
{
    ++m_sentPackets;
}

void
ThetaPowertcpCongestionControl::OnAck(const RdmaAckSample& sample)
{
    Update(sample, Simulator::Now());
}

void
ThetaPowertcpCongestionControl::Update(const RdmaAckSample& sample, Time now)
{
    m_ackedPackets += sample.ackedPackets;
    if (!sample.rtt.IsStrictlyPositive())
    {
        return;
    }
    const bool canUpdate = m_ackedPackets >= m_updateMark;
    if (!m_first && now > m_prevTime)
    {
        const double tau = m_ctx.baseRtt.GetSeconds();
        const double dt = (now - m_prevTime).GetSeconds();
        // in integer time steps: a negative Time converted to seconds is undefined
        const double drtt =
            static_cast<double>(sample.rtt.GetTimeStep() - m_prevRtt.GetTimeStep()) /
            static_cast<double>(Seconds(1).GetTimeStep());
        const double norm = (drtt / dt + 1.0) * sample.rtt.GetSeconds() / tau;
        const double w = std::min(dt / tau, 1.0);
        m_power = m_power * (1.0 - w) + norm * w;
        if (canUpdate && m_power > 0)
        {
            m_cwnd =
                m_gamma * (m_oldCwnd / m_power + m_betaRatio * m_bdp) + (1.0 - m_gamma) * m_cwnd;
            Apply();
        }
    }
    m_first = false;
    m_prevRtt = sample.rtt;
    m_prevTime = now;
    if (canUpdate)
    {
        m_updateMark = std::max(m_sentPackets, m_ackedPackets + 1);
        m_oldCwnd = m_cwnd;
    }
}

void
ThetaPowertcpCongestionControl::Apply()
{
    // cwnd stays between one MTU and one BDP (line rate x tau), as the authors' ns-3
    // simulator clamps the rate of its update at the line rate (inet-tub/ns3-datacenter,
    // RdmaHw::UpdateRatePower: m_max_rate). Without the cap, a flow alone keeps dividing
    // cwnd_old by a power below 1 every RTT: its window grew without bound (gigabytes)
    // and took dozens of RTTs to come back below a BDP when a burst arrived.
    m_cwnd = std::max(std::min(m_cwnd, m_bdp), static_cast<double>(m_ctx.mtuBytes));
    const double line = static_cast<double>(m_ctx.lineRate.GetBitRate());
    const double rate = std::min(line, m_cwnd * 8.0 / m_ctx.baseRtt.GetSeconds());
    SetRate(DataRate(static_cast<uint64_t>(rate + 0.5)));
    SetWindowBytes(static_cast<uint64_t>(std::llround(m_cwnd)));
}

double
ThetaPowertcpCongestionControl::GetPower() const
{
    return m_power;
}

double
ThetaPowertcpCongestionControl::GetExactWindow() const
{
    return m_cwnd;
}

} // namespace ns3
