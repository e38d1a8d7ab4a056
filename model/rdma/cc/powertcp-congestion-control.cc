/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "powertcp-congestion-control.h"

#include "cc-preset-table.h"
#include "congestion-control-registry.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PowertcpCongestionControl");

namespace
{

/// The presets: the paper's Algorithm 1 (the attribute defaults) and the authors' simulator.
/// BaseRtt (tau) is left as set: the paper and the authors' runs take the network's
/// largest RTT, which depends on the topology.
const CcPresetTable&
Presets()
{
    static const CcPresetTable::Values common = {{"Gamma", "0.9"},
                                                 {"BetaRate", "150Mbps"},
                                                 {"ExpectedFlows", "0"}};
    static const CcPresetTable table(
        "PowerTCP",
        {// Addanki et al. 2022, Algorithm 1: lambda = dq/dt + mu, no eta, no floor,
         // W_old = GETCWND(ack.seq).
         {"paper",
          CcPresetTable::Join(common,
                              {{"QueueGradient", "true"},
                               {"TargetUtilization", "1"},
                               {"MinCurrent", "0"},
                               {"ReferenceWindow", "AtSend"}}),
          {}},
         // The authors' ns-3 simulator, which ran the paper's evaluation (inet-tub/
         // ns3-datacenter, RdmaHw::UpdateRatePower with U_TARGET 0.95 of its PowerTCP
         // configurations): lambda = the arrival rate its switches count (dq/dt + mu
         // here), at least half the line rate; the power divided by eta 0.95; W_old and
         // the EWMA's other term = m_curRate, the latest once-per-round-trip update.
         {"ns3-datacenter",
          CcPresetTable::Join(common,
                              {{"QueueGradient", "true"},
                               {"TargetUtilization", "0.95"},
                               {"MinCurrent", "0.5"},
                               {"ReferenceWindow", "LatestUpdate"}}),
          {}}});
    return table;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(PowertcpCongestionControl);
static CongestionControlRegistration<PowertcpCongestionControl> g_registration(
    "powertcp",
    "PowerTCP (Addanki et al. 2022): a window from the power (current x voltage) INT "
    "measures on each link",
    "",
    false); // INT is its only congestion signal (usesInt via UsesInt()): no ECN

TypeId
PowertcpCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PowertcpCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<PowertcpCongestionControl>()
            .AddAttribute("Gamma",
                          "gamma, EWMA weight of the window update (dimensionless, (0, 1]). "
                          "Default 0.9: Addanki et al., NSDI 2022 (evaluation), and the "
                          "PowerTCP Linux module of TU Berlin (gamma 921/1024).",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&PowertcpCongestionControl::m_gamma),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("BetaRate",
                          "beta / tau: the additive increase beta of each window update is "
                          "this rate times the base RTT tau (bit/s). Default 150 Mb/s: the "
                          "authors' ns-3 simulator (inet-tub/ns3-datacenter, RdmaHw::"
                          "UpdateRatePower: + 150 Mbps with gamma 0.9), which ran the paper's "
                          "evaluation; the paper leaves beta to the operator.",
                          DataRateValue(DataRate("150Mbps")),
                          MakeDataRateAccessor(&PowertcpCongestionControl::m_betaRate),
                          MakeDataRateChecker())
            .AddAttribute("ExpectedFlows",
                          "N: if above 0, beta is the line rate x tau / N instead (flows), "
                          "the rule of the PowerTCP Linux module of TU Berlin (inet-tub/"
                          "powertcp-linux: expected_flows, default 10 there). Default 0: "
                          "BetaRate.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PowertcpCongestionControl::m_expectedFlows),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("QueueGradient",
                          "Include the queue-length gradient dq/dt in the current lambda = "
                          "dq/dt + mu, the rate at which bytes arrive at the queue; false: "
                          "lambda = mu, the transmit rate alone (HPCC's view of the link). "
                          "Default true: Addanki et al. 2022, Algorithm 1; the authors' ns-3 "
                          "simulator (inet-tub/ns3-datacenter) measures the same arrival "
                          "rate directly, its switches writing the queue's received-bytes "
                          "counter into INT when PowerTCP runs (SwitchNode, "
                          "GetNBytesRxTotal).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PowertcpCongestionControl::m_queueGradient),
                          MakeBooleanChecker())
            .AddAttribute("TargetUtilization",
                          "eta: the window update divides the normalized power by eta, so "
                          "the window aims at eta x the bandwidth-delay product (dimensionless, "
                          "(0, 1]). Algorithm 1 of Addanki et al. 2022 has none (1); the "
                          "authors' ns-3 simulator (inet-tub/ns3-datacenter, RdmaHw::"
                          "UpdateRatePower) divides by HPCC's eta, m_targetUtil 0.95.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&PowertcpCongestionControl::m_eta),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("MinCurrent",
                          "A floor on the current lambda of each hop, as a fraction of the "
                          "hop's link rate (dimensionless, [0, 1]). Default 0: none "
                          "(Addanki et al. 2022, Algorithm 1); the authors' ns-3 simulator "
                          "(inet-tub/ns3-datacenter, RdmaHw::UpdateRatePower) raises a "
                          "current below half the line rate to half (0.5).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&PowertcpCongestionControl::m_minCurrent),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ReferenceWindow",
                          "W_old, the window an ACK's update divides by the power. AtSend: the "
                          "window remembered (once per round trip) before the acknowledged packet "
                          "was sent, Algorithm 1's GETCWND, with the current W as the EWMA's other "
                          "term (Addanki et al. 2022, Eq. 7; the authors' Linux module inet-tub/"
                          "powertcp-linux). LatestUpdate: the window of the latest once-per-round-"
                          "trip update, also the EWMA's other term, as the authors' ns-3 simulator "
                          "(inet-tub/ns3-datacenter, RdmaHw::UpdateRatePower: m_curRate, as HPCC's "
                          "reference). Default AtSend.",
                          EnumValue(PowertcpCongestionControl::REFERENCE_AT_SEND),
                          MakeEnumAccessor(&PowertcpCongestionControl::m_reference),
                          MakeEnumChecker(PowertcpCongestionControl::REFERENCE_AT_SEND,
                                          "AtSend",
                                          PowertcpCongestionControl::REFERENCE_LATEST_UPDATE,
                                          "LatestUpdate"))
            .AddAttribute("BaseRtt",
                          "tau, the base RTT that sets the BDP (voltage), the base power and "
                          "R = W / tau (time). Default 0: the queue pair's path's unloaded RTT "
                          "(Addanki et al. 2022: tau is the base RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PowertcpCongestionControl::m_baseRttAttr),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Power",
                            "Gamma, the smoothed normalized power of the most loaded link, at "
                            "each update",
                            MakeTraceSourceAccessor(&PowertcpCongestionControl::m_powerTrace),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

PowertcpCongestionControl::PowertcpCongestionControl()
    : m_gamma(0.9),
      m_betaRate(DataRate("150Mbps")),
      m_expectedFlows(0),
      m_queueGradient(true),
      m_eta(1.0),
      m_minCurrent(0.0),
      m_reference(REFERENCE_AT_SEND),
      m_tau(0),
      m_power(1.0),
      m_lastPower(0),
      m_w(0),
      m_wOld(0),
      m_beta(0),
      m_wMax(0),
      m_wMin(0),
      m_sentPackets(0),
      m_ackedPackets(0),
      m_updateMark(0),
      m_updates(0),
      m_powerTrace(1.0)
{
}

PowertcpCongestionControl::~PowertcpCongestionControl() = default;

std::string
PowertcpCongestionControl::GetName() const
{
    return "powertcp";
}

Ptr<RdmaCongestionControl>
PowertcpCongestionControl::Fork() const
{
    return CopyObject<PowertcpCongestionControl>(this);
}

void
PowertcpCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.lineRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("PowerTCP: context needs a positive line rate");
    }
    const Time t = m_baseRttAttr.IsStrictlyPositive() ? m_baseRttAttr : ctx.baseRtt;
    if (!t.IsStrictlyPositive())
    {
        NS_FATAL_ERROR("PowerTCP: needs a positive base RTT (BaseRtt or the path's)");
    }
    m_tau = t.GetSeconds();
    const double line = static_cast<double>(ctx.lineRate.GetBitRate());
    m_wMax = line * m_tau / 8.0;
    m_wMin = static_cast<double>(ctx.wireBytes);
    m_beta = m_expectedFlows > 0 ? m_wMax / static_cast<double>(m_expectedFlows)
                                 : static_cast<double>(m_betaRate.GetBitRate()) * m_tau / 8.0;
    // A flow starts at line rate: W = W_old = line rate x tau.
    m_w = m_wMax;
    m_wOld = m_wMax;
    m_power = 1.0;
    m_lastPower = 0;
    m_prev.Reset();
    m_sentPackets = 0;
    m_ackedPackets = 0;
    m_updateMark = 0;
    m_updates = 0;
    m_oldWindows.clear();
    m_oldWindows.emplace_back(0, m_w);
    Apply();
}

void
PowertcpCongestionControl::OnPacketSent(uint32_t /* payloadBytes */)
{
    ++m_sentPackets;
}

void
PowertcpCongestionControl::OnAck(const RdmaAckSample& sample)
{
    m_ackedPackets += sample.ackedPackets;
    if (sample.intHeader == nullptr)
    {
        return; // no telemetry (a fabric without INT): the window stays
    }
    if (m_reference == REFERENCE_AT_SEND)
    {
        // GETCWND(ack.seq): the latest W remembered before packet m_ackedPackets was sent.
        while (m_oldWindows.size() > 1 && m_oldWindows[1].first < m_ackedPackets)
        {
            m_oldWindows.pop_front();
        }
        m_wOld = m_oldWindows.front().second;
    }
    // UPDATE_OLD: ack.seq > lastUpdated, with packets for sequence numbers.
    const bool refreshOld = m_ackedPackets > m_updateMark;
    const bool computed = Update(*sample.intHeader, refreshOld);
    if (refreshOld || !computed)
    {
        m_updateMark = m_sentPackets; // lastUpdated = snd_nxt
    }
}

bool
PowertcpCongestionControl::Update(const IntHeader& h, bool refreshOld)
{
    if (!m_prev.Accept(h))
    {
        return false; // no records yet, or the first of this path: the window stays
    }
    NormPower(h);
    UpdateWindow(m_power);
    Apply();
    if (refreshOld)
    {
        m_wOld = m_w;
        if (m_reference == REFERENCE_AT_SEND)
        {
            m_oldWindows.emplace_back(m_sentPackets, m_w);
        }
    }
    return true;
}

double
PowertcpCongestionControl::NormPower(const IntHeader& h)
{
    const uint32_t n = std::min(h.GetNHops(), m_prev.GetNHops());
    bool any = false;
    double best = 0;
    double dtMax = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const IntHop& now = h.GetHop(i);
        const IntHop& before = m_prev.GetHop(i);
        const uint32_t dtNs = now.TimeSince(before);
        const double b = static_cast<double>(now.GetRateBps()) / 8.0; // bytes/s
        if (dtNs == 0 || b <= 0)
        {
            continue; // the same record again (or no rate): no gradient to measure
        }
        const double dt = dtNs * 1e-9;
        const double q = static_cast<double>(now.GetQlenBytes());
        const double dq = q - static_cast<double>(before.GetQlenBytes());
        const double mu = static_cast<double>(now.BytesSince(before)) / dt;
        double current = (m_queueGradient ? dq / dt : 0.0) + mu; // lambda, bytes/s
        if (m_minCurrent > 0)
        {
            current = std::max(current, m_minCurrent * b); // the authors' simulator's floor
        }
        const double voltage = q + b * m_tau;                     // nu, bytes
        const double power = current * voltage / (b * b * m_tau); // / base power
        if (!any || power > best)
        {
            best = power;
            dtMax = dt;
            any = true;
        }
    }
    m_prev.Store(h); // prevInt = ack.H
    // A draining queue can make the current negative: the power is at least 0.
    const double gammaNorm = std::max(best, 0.0);
    const double dt = std::min(dtMax, m_tau);
    m_power = (m_power * (m_tau - dt) + gammaNorm * dt) / m_tau;
    m_lastPower = gammaNorm;
    m_powerTrace.Set(m_power);
    return m_power;
}

double
PowertcpCongestionControl::UpdateWindow(double power)
{
    // Gamma = 0 (an idle path) allows the most: the line rate.
    const double kept = m_reference == REFERENCE_AT_SEND ? m_w : m_wOld;
    double w =
        power > 0 ? m_gamma * (m_wOld * m_eta / power + m_beta) + (1.0 - m_gamma) * kept : m_wMax;
    w = std::min(std::max(w, m_wMin), m_wMax);
    m_w = w;
    ++m_updates;
    return w;
}

void
PowertcpCongestionControl::Apply()
{
    // The queue pair's window counts payload bytes; W counts wire bytes.
    const double payloadPerWire =
        static_cast<double>(m_ctx.mtuBytes) / static_cast<double>(m_ctx.wireBytes);
    SetWindowBytes(std::max<uint64_t>(1, static_cast<uint64_t>(m_w * payloadPerWire)));
    SetRate(DataRate(static_cast<uint64_t>(m_w * 8.0 / m_tau + 0.5)));
}

double
PowertcpCongestionControl::GetPower() const
{
    return m_power;
}

double
PowertcpCongestionControl::GetLastHopPower() const
{
    return m_lastPower;
}

double
PowertcpCongestionControl::GetWindow() const
{
    return m_w;
}

double
PowertcpCongestionControl::GetOldWindow() const
{
    return m_wOld;
}

double
PowertcpCongestionControl::GetBeta() const
{
    return m_beta;
}

double
PowertcpCongestionControl::GetMaxWindow() const
{
    return m_wMax;
}

uint64_t
PowertcpCongestionControl::GetUpdates() const
{
    return m_updates;
}

std::vector<std::string>
PowertcpCongestionControl::GetPresetNames()
{
    return Presets().GetNames();
}

std::string
PowertcpCongestionControl::GetDefaultPresetName()
{
    return Presets().GetDefaultName();
}

std::vector<std::pair<std::string, std::string>>
PowertcpCongestionControl::GetPreset(const std::string& name)
{
    return Presets().GetSender(name);
}

} // namespace ns3
