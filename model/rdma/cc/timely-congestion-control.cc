/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "timely-congestion-control.h"

#include "cc-preset-table.h"
#include "congestion-control-registry.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimelyCongestionControl");

namespace
{

/// The presets: the HPCC simulator's (the attribute defaults) and the paper's.
const CcPresetTable&
Presets()
{
    static const CcPresetTable::Values common = {{"Alpha", "0.875"},
                                                 {"Beta", "0.8"},
                                                 {"TLow", "50us"},
                                                 {"THigh", "500us"},
                                                 {"MinRtt", "20us"},
                                                 {"HaiThreshold", "5"},
                                                 {"HaiFactor", "5"}};
    static const CcPresetTable table(
        "TIMELY",
        {// The HPCC simulator (rdma-hw.cc defaults, run.py for TIMELY at 100 Gb/s):
         // RATE_AI 100 Mb/s, RATE_HAI 500 Mb/s, MIN_RATE 1000 Mb/s, one update per RTT.
         {"hpcc",
          CcPresetTable::Join(
              common,
              {{"AdditiveIncrement", "100Mbps"}, {"MinRate", "1Gbps"}, {"UpdateBytes", "0"}}),
          {}},
         // Mittal et al. 2015 at 10 Gb/s: delta 10 Mb/s, one update per 16 KB segment
         // (the small end of the paper's 16-64 KB). The paper names no floor: 10 Mb/s,
         // one delta.
         {"paper",
          CcPresetTable::Join(
              common,
              {{"AdditiveIncrement", "10Mbps"}, {"MinRate", "10Mbps"}, {"UpdateBytes", "16384"}}),
          {}}});
    return table;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(TimelyCongestionControl);
static CongestionControlRegistration<TimelyCongestionControl> g_registration(
    "timely",
    "TIMELY (Mittal et al. 2015): a rate driven by the RTT and its gradient",
    "",
    false); // the RTT is its only congestion signal (Mittal et al. 2015): no ECN

TypeId
TimelyCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimelyCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<TimelyCongestionControl>()
            .AddAttribute("Alpha",
                          "alpha, EWMA weight of a new RTT difference in rtt_diff "
                          "(dimensionless). Default 0.875: the HPCC simulator's TimelyAlpha (the "
                          "TIMELY authors' published code snippet recommends 0.02).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_alpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "beta, multiplicative decrement factor (dimensionless). Default "
                          "0.8: Mittal et al. 2015 (the authors' code snippet's decreaseFactor) "
                          "and the HPCC simulator's TimelyBeta.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("TLow",
                          "T_low (time): an RTT below it increases the rate by delta whatever "
                          "the gradient. Default 50 us: Mittal et al. 2015 (the authors' code "
                          "snippet, for 64 KB segments) and the HPCC simulator's TimelyTLow.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "T_high (time): an RTT above it cuts the rate by beta (1 - "
                          "T_high/RTT). Default 500 us: the HPCC simulator's TimelyTHigh (the "
                          "authors' code snippet recommends 1 ms).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tHigh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRtt",
                          "minRTT (time), the gradient's normalizer: gradient = rtt_diff / "
                          "minRTT. Default 20 us: the HPCC simulator's TimelyMinRtt.",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AdditiveIncrement",
                          "delta, rate added per completion event (bit/s). Default 100 Mb/s: "
                          "the HPCC simulator's run.py for TIMELY at 100 Gb/s (10 Mb/s per "
                          "Gb/s of NIC rate; the paper's 10 Mb/s is for 10 Gb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_delta),
                          MakeDataRateChecker())
            .AddAttribute("HaiThreshold",
                          "Consecutive completion events with a non-positive gradient after "
                          "which the increase is HaiFactor x delta (hyperactive increase). "
                          "Default 5: Mittal et al. 2015 (HAI_Thresh in the authors' snippet) "
                          "and the HPCC simulator.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HaiFactor",
                          "N, the multiple of delta added in HAI mode (dimensionless). "
                          "Default 5: Mittal et al. 2015 (the HPCC simulator's RATE_HAI is "
                          "5 x RATE_AI for TIMELY).",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_haiFactor),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("MinRate",
                          "Lowest rate (bit/s). Default 1 Gb/s: the HPCC simulator's MIN_RATE "
                          "in run.py.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("UpdateBytes",
                          "Acknowledged payload bytes per completion event, the paper's "
                          "segment Seg (16-64 KB in Mittal et al. 2015); 0 = one event per "
                          "round trip, when the packets sent by the previous event's time are "
                          "acknowledged (the HPCC simulator's update). Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_updateBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Gradient",
                            "Normalized RTT gradient (rtt_diff / MinRtt) of each update",
                            MakeTraceSourceAccessor(&TimelyCongestionControl::m_gradientTrace),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

TimelyCongestionControl::TimelyCongestionControl()
    : m_alpha(0.875),
      m_beta(0.8),
      m_haiThreshold(5),
      m_haiFactor(5.0),
      m_updateBytes(0),
      m_rate(0),
      m_rttDiff(0),
      m_gradient(0),
      m_nonPositive(0),
      m_updates(0),
      m_sentPackets(0),
      m_ackedPackets(0),
      m_ackedBytes(0),
      m_nextUpdate(0),
      m_updateMark(0),
      m_gradientTrace(0)
{
}

TimelyCongestionControl::~TimelyCongestionControl() = default;

std::string
TimelyCongestionControl::GetName() const
{
    return "timely";
}

Ptr<RdmaCongestionControl>
TimelyCongestionControl::Fork() const
{
    return CopyObject<TimelyCongestionControl>(this);
}

void
TimelyCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.lineRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("TIMELY: context needs a positive line rate");
    }
    // Any TLow, THigh and MinRate are well defined: the branches are tried in order
    // (TLow first) and the line rate caps MinRate (Apply), so none is refused here.
    // RDMA NICs start a flow at line rate; TIMELY then reacts to its RTTs.
    m_rate = static_cast<double>(ctx.lineRate.GetBitRate());
    m_rttDiff = 0;
    m_gradient = 0;
    m_prevRtt = Time(0);
    m_nonPositive = 0;
    m_updates = 0;
    m_sentPackets = 0;
    m_ackedPackets = 0;
    m_ackedBytes = 0;
    m_nextUpdate = m_updateBytes;
    m_updateMark = 0;
    Apply();
}

void
TimelyCongestionControl::OnPacketSent(uint32_t /* payloadBytes */)
{
    ++m_sentPackets;
}

void
TimelyCongestionControl::OnAck(const RdmaAckSample& sample)
{
    m_ackedPackets += sample.ackedPackets;
    m_ackedBytes += sample.ackedBytes;
    if (!sample.rtt.IsStrictlyPositive())
    {
        return;
    }
    if (m_updateBytes > 0)
    {
        // Segment mode: one event per UpdateBytes of acknowledged payload (an ACK that
        // completes several segments is one event: it carries one RTT).
        if (m_ackedBytes < m_nextUpdate)
        {
            return;
        }
        m_nextUpdate = (m_ackedBytes / m_updateBytes + 1) * m_updateBytes;
    }
    else
    {
        // Round-trip mode: the event ends when every packet sent by the previous
        // event's time is acknowledged.
        if (m_ackedPackets < m_updateMark)
        {
            return;
        }
        m_updateMark = std::max(m_sentPackets, m_ackedPackets + 1);
    }
    UpdateRate(sample.rtt);
}

void
TimelyCongestionControl::UpdateRate(Time rtt)
{
    if (m_prevRtt.IsZero())
    {
        m_prevRtt = rtt; // the first event has no previous RTT: difference 0
    }
    // in integer time steps: a negative ns-3 Time converted to seconds left-shifts a
    // negative value inside int64x64_t (undefined behaviour UBSan reports)
    const int64_t diffSteps = rtt.GetTimeStep() - m_prevRtt.GetTimeStep();
    const double newDiff =
        static_cast<double>(diffSteps) / static_cast<double>(Seconds(1).GetTimeStep());
    m_prevRtt = rtt;
    m_rttDiff = (1.0 - m_alpha) * m_rttDiff + m_alpha * newDiff;
    m_gradient = m_rttDiff / m_minRtt.GetSeconds();
    m_gradientTrace.Set(m_gradient);
    m_nonPositive = m_gradient <= 0 ? m_nonPositive + 1 : 0;
    ++m_updates;
    const double delta = static_cast<double>(m_delta.GetBitRate());
    if (rtt < m_tLow)
    {
        m_rate += delta;
    }
    else if (rtt > m_tHigh)
    {
        m_rate *= 1.0 - m_beta * (1.0 - m_tHigh.GetSeconds() / rtt.GetSeconds());
    }
    else if (m_gradient <= 0)
    {
        double n = m_nonPositive >= m_haiThreshold ? m_haiFactor : 1.0;
        m_rate += n * delta;
    }
    else
    {
        m_rate *= std::max(0.0, 1.0 - m_beta * m_gradient);
    }
    Apply();
}

void
TimelyCongestionControl::Apply()
{
    const double line = static_cast<double>(m_ctx.lineRate.GetBitRate());
    const double floor = static_cast<double>(m_minRate.GetBitRate());
    m_rate = std::min(std::max(m_rate, floor), line);
    SetRate(DataRate(static_cast<uint64_t>(m_rate + 0.5)));
}

double
TimelyCongestionControl::GetRttDiff() const
{
    return m_rttDiff;
}

double
TimelyCongestionControl::GetGradient() const
{
    return m_gradient;
}

uint32_t
TimelyCongestionControl::GetNonPositiveGradients() const
{
    return m_nonPositive;
}

uint64_t
TimelyCongestionControl::GetUpdates() const
{
    return m_updates;
}

double
TimelyCongestionControl::GetExactRateBps() const
{
    return m_rate;
}

std::vector<std::string>
TimelyCongestionControl::GetPresetNames()
{
    return Presets().GetNames();
}

std::string
TimelyCongestionControl::GetDefaultPresetName()
{
    return Presets().GetDefaultName();
}

std::vector<std::pair<std::string, std::string>>
TimelyCongestionControl::GetPreset(const std::string& name)
{
    return Presets().GetSender(name);
}

} // namespace ns3
