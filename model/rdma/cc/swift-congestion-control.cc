/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "swift-congestion-control.h"

#include "cc-preset-table.h"
#include "congestion-control-registry.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rounded-time.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwiftCongestionControl");

namespace
{

/// The presets: our default (the attribute defaults) and one public implementation's.
const CcPresetTable&
Presets()
{
    static const CcPresetTable::Values common = {{"AdditiveIncrement", "1"},
                                                 {"Beta", "0.8"},
                                                 {"MaxMdf", "0.5"},
                                                 {"FsRange", "0s"},
                                                 {"FsMinCwnd", "0.1"},
                                                 {"FsMaxCwnd", "100"},
                                                 {"RetxResetThreshold", "5"},
                                                 {"MinCwnd", "0.001"},
                                                 {"MaxCwnd", "0"},
                                                 {"InitialCwnd", "0"}};
    static const CcPresetTable table(
        "Swift",
        {{"default",
          CcPresetTable::Join(
              common,
              {{"BaseTarget", "10us"}, {"PerHopScaling", "1us"}, {"EndpointTarget", "10us"}}),
          {}},
         // The constants of one public Swift implementation (the paper leaves them open:
         // base 20 us, fs_range 5 x base = 100 us); sized for a software stack's larger
         // base delay.
         {"paper",
          CcPresetTable::Join(
              common,
              {{"BaseTarget", "20us"}, {"PerHopScaling", "1us"}, {"EndpointTarget", "20us"}}),
          {}}});
    return table;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(SwiftCongestionControl);
static CongestionControlRegistration<SwiftCongestionControl> g_registration(
    "swift",
    "Swift (Kumar et al. 2020): a window that keeps the delay near a target",
    "",
    false); // delay is its only congestion signal (Kumar et al. 2020): no ECN

TypeId
SwiftCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwiftCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<SwiftCongestionControl>()
            .AddAttribute("AdditiveIncrement",
                          "ai, window growth in packets per RTT below target. Default 1: "
                          "a public Swift implementation's choice (the paper leaves it open).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_ai),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Beta",
                          "beta, multiplicative decrease per unit of relative excess delay "
                          "(dimensionless). Default 0.8: a public Swift implementation.",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxMdf",
                          "max_mdf, largest fraction one decrease removes (dimensionless). "
                          "Default 0.5: a public Swift implementation.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_maxMdf),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("BaseTarget",
                          "Base fabric target delay (time). Default 10 us: above the ~5-13 us "
                          "unloaded RTT of this module's 100G fabrics with a few us of "
                          "queue; the public implementation's 20 us (Google's software "
                          "stack) would let a standing queue of ~190 KB per 100G port build.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_baseTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PerHopScaling",
                          "h, target delay added per switch hop (time). Default 1 us "
                          "(~12.5 KB of queue per hop at 100 Gb/s; the paper gives no value).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_perHop),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsRange",
                          "fs_range, largest target added by flow scaling (time); 0 = 5 x "
                          "BaseTarget, the public implementation's ratio.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsMinCwnd",
                          "fs_min_cwnd, window (packets) at which flow scaling adds the "
                          "whole fs_range. Default 0.1: public implementation.",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("FsMaxCwnd",
                          "fs_max_cwnd, window (packets) at and above which flow scaling "
                          "adds nothing. Default 100: public implementation.",
                          DoubleValue(100.0),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("EndpointTarget",
                          "Target for the remote (endpoint) delay (time). Default 10 us: "
                          "well above an unloaded NIC's turnaround (the paper gives no "
                          "value).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_endpointTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RetxResetThreshold",
                          "RETX_RESET_THRESHOLD: consecutive timeouts after which the "
                          "window drops to MinCwnd. Default 5: public implementation.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&SwiftCongestionControl::m_retxReset),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinCwnd",
                          "Smallest window, packets. Default 0.001 (one packet per 1000 "
                          "RTTs): public implementation.",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_minCwndAttr),
                          MakeDoubleChecker<double>(1e-9))
            .AddAttribute("MaxCwnd",
                          "Largest window, packets; 0 = 2 x BDP (line rate x base RTT / wire "
                          "bytes per packet), enough for line rate on the longest path.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_maxCwndAttr),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("InitialCwnd",
                          "Window at start, packets; 0 = 1 x BDP, so a flow starts at line "
                          "rate as RDMA NICs do.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_initCwndAttr),
                          MakeDoubleChecker<double>(0.0))
            .AddTraceSource("Cwnd",
                            "Effective window min(fabric, endpoint), in packets",
                            MakeTraceSourceAccessor(&SwiftCongestionControl::m_cwndTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetDelay",
                            "Fabric target delay computed for the latest ACK",
                            MakeTraceSourceAccessor(&SwiftCongestionControl::m_targetDelay),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

SwiftCongestionControl::SwiftCongestionControl()
    : m_ai(1.0),
      m_beta(0.8),
      m_maxMdf(0.5),
      m_fsMinCwnd(0.1),
      m_fsMaxCwnd(100.0),
      m_retxReset(5),
      m_minCwndAttr(0.001),
      m_maxCwndAttr(0),
      m_initCwndAttr(0),
      m_minCwnd(0.001),
      m_maxCwnd(1.0),
      m_fabricCwnd(1.0),
      m_endpointCwnd(1.0),
      m_retransmitCount(0),
      m_cwndTrace(1.0)
{
}

SwiftCongestionControl::~SwiftCongestionControl() = default;

std::string
SwiftCongestionControl::GetName() const
{
    return "swift";
}

Ptr<RdmaCongestionControl>
SwiftCongestionControl::Fork() const
{
    return CopyObject<SwiftCongestionControl>(this);
}

void
SwiftCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.mtuBytes == 0 || ctx.wireBytes == 0 || ctx.lineRate.GetBitRate() == 0 ||
        !ctx.baseRtt.IsStrictlyPositive())
    {
        NS_FATAL_ERROR("Swift: context needs positive mtuBytes ("
                       << ctx.mtuBytes << "), wireBytes (" << ctx.wireBytes << "), line rate ("
                       << ctx.lineRate << ") and baseRtt (" << ctx.baseRtt << ")");
    }
    if (m_fsMinCwnd >= m_fsMaxCwnd)
    {
        NS_FATAL_ERROR("Swift: FsMinCwnd " << m_fsMinCwnd << " must be below FsMaxCwnd "
                                           << m_fsMaxCwnd);
    }
    double bdp = static_cast<double>(ctx.lineRate.GetBitRate()) * ctx.baseRtt.GetSeconds() /
                 (8.0 * ctx.wireBytes);
    m_minCwnd = m_minCwndAttr;
    m_maxCwnd = m_maxCwndAttr > 0 ? m_maxCwndAttr : std::max(1.0, 2.0 * bdp);
    if (m_minCwnd > m_maxCwnd)
    {
        NS_FATAL_ERROR("Swift: MinCwnd " << m_minCwnd << " exceeds MaxCwnd " << m_maxCwnd
                                         << " packets");
    }
    double init = m_initCwndAttr > 0 ? m_initCwndAttr : std::max(1.0, bdp);
    m_fabricCwnd = Clamp(init);
    m_endpointCwnd = m_fabricCwnd;
    // Allow a decrease on the very first ACK.
    m_fabricLastDecrease = Time(0) - Time::Max() / 2;
    m_endpointLastDecrease = m_fabricLastDecrease;
    m_lastRtt = Time(0);
    m_retransmitCount = 0;
    Time hopTarget = GetTargetDelay(m_fabricCwnd, ctx.hops);
    m_targetDelay.Set(hopTarget);
    if (ctx.baseRtt >= hopTarget)
    {
        NS_LOG_WARN("Swift: base RTT " << ctx.baseRtt << " is not below the fabric target "
                                       << hopTarget << "; the window will collapse");
    }
    Apply();
}

Time
SwiftCongestionControl::GetTargetDelay(double cwnd, uint32_t hops) const
{
    double range = (m_fsRange.IsZero() ? 5 * m_baseTarget : m_fsRange).GetSeconds();
    double a = range / (1.0 / std::sqrt(m_fsMinCwnd) - 1.0 / std::sqrt(m_fsMaxCwnd));
    double b = -a / std::sqrt(m_fsMaxCwnd);
    double fs = a / std::sqrt(std::max(cwnd, 1e-12)) + b;
    fs = std::min(std::max(fs, 0.0), range);
    return m_baseTarget + hops * m_perHop + RoundedSeconds(fs);
}

double
SwiftCongestionControl::GetCwnd() const
{
    return std::min(m_fabricCwnd, m_endpointCwnd);
}

double
SwiftCongestionControl::GetFabricCwnd() const
{
    return m_fabricCwnd;
}

double
SwiftCongestionControl::GetEndpointCwnd() const
{
    return m_endpointCwnd;
}

double
SwiftCongestionControl::GetMinCwnd() const
{
    return m_minCwnd;
}

double
SwiftCongestionControl::GetMaxCwnd() const
{
    return m_maxCwnd;
}

uint32_t
SwiftCongestionControl::GetRetransmitCount() const
{
    return m_retransmitCount;
}

Time
SwiftCongestionControl::CurrentRtt() const
{
    return m_lastRtt.IsStrictlyPositive() ? m_lastRtt : m_ctx.baseRtt;
}

double
SwiftCongestionControl::Clamp(double cwnd) const
{
    return std::min(std::max(cwnd, m_minCwnd), m_maxCwnd);
}

bool
SwiftCongestionControl::CanDecrease(Time lastDecrease) const
{
    return Simulator::Now() - lastDecrease >= CurrentRtt();
}

void
SwiftCongestionControl::AckWindow(double& cwnd,
                                  Time& lastDecrease,
                                  Time delay,
                                  Time target,
                                  double acked)
{
    double prev = cwnd;
    if (delay < target)
    {
        if (cwnd >= 1.0)
        {
            cwnd += m_ai / cwnd * acked;
        }
        else
        {
            cwnd += m_ai * acked;
        }
    }
    else if (delay.IsStrictlyPositive() && CanDecrease(lastDecrease))
    {
        double d = delay.GetSeconds();
        double excess = (delay - target).GetSeconds();
        cwnd *= std::max(1.0 - m_beta * excess / d, 1.0 - m_maxMdf);
    }
    cwnd = Clamp(cwnd);
    if (cwnd < prev)
    {
        lastDecrease = Simulator::Now();
    }
}

void
SwiftCongestionControl::OnAck(const RdmaAckSample& sample)
{
    m_retransmitCount = 0;
    if (sample.rtt.IsStrictlyPositive())
    {
        m_lastRtt = sample.rtt;
    }
    uint32_t hops = sample.hops > 0 ? sample.hops : m_ctx.hops;
    Time fabricDelay = sample.rtt - sample.remoteDelay;
    Time target = GetTargetDelay(m_fabricCwnd, hops);
    m_targetDelay.Set(target);
    double acked = static_cast<double>(sample.ackedPackets);
    AckWindow(m_fabricCwnd, m_fabricLastDecrease, fabricDelay, target, acked);
    AckWindow(m_endpointCwnd, m_endpointLastDecrease, sample.remoteDelay, m_endpointTarget, acked);
    Apply();
}

bool
SwiftCongestionControl::DecreaseByMaxMdf()
{
    // A loss says nothing about which window is at fault, so it cuts the effective
    // window: both windows, unless either already decreased within the last RTT
    // (Algorithm 1 keeps a single t_last_decrease for its single cwnd).
    if (!CanDecrease(std::max(m_fabricLastDecrease, m_endpointLastDecrease)))
    {
        return false;
    }
    m_fabricCwnd = Clamp(m_fabricCwnd * (1.0 - m_maxMdf));
    m_endpointCwnd = Clamp(m_endpointCwnd * (1.0 - m_maxMdf));
    m_fabricLastDecrease = Simulator::Now();
    m_endpointLastDecrease = Simulator::Now();
    return true;
}

void
SwiftCongestionControl::OnNack()
{
    // Fast recovery: cut by max_mdf, at most once per RTT.
    DecreaseByMaxMdf();
    Apply();
}

void
SwiftCongestionControl::OnTimeout()
{
    ++m_retransmitCount;
    if (m_retransmitCount >= m_retxReset)
    {
        m_fabricCwnd = m_minCwnd;
        m_endpointCwnd = m_minCwnd;
        m_fabricLastDecrease = Simulator::Now();
        m_endpointLastDecrease = Simulator::Now();
    }
    else
    {
        DecreaseByMaxMdf();
    }
    Apply();
}

void
SwiftCongestionControl::Apply()
{
    double cwnd = GetCwnd();
    m_cwndTrace.Set(cwnd);
    if (cwnd >= 1.0)
    {
        SetRate(m_ctx.lineRate);
        SetWindowBytes(static_cast<uint64_t>(std::llround(cwnd * m_ctx.mtuBytes)));
    }
    else
    {
        // Below one packet: one packet in flight, sent every rtt/cwnd.
        SetWindowBytes(m_ctx.mtuBytes);
        double bps = 8.0 * m_ctx.wireBytes * cwnd / CurrentRtt().GetSeconds();
        SetRate(DataRate(static_cast<uint64_t>(std::llround(bps))));
    }
}

std::vector<std::string>
SwiftCongestionControl::GetPresetNames()
{
    return Presets().GetNames();
}

std::string
SwiftCongestionControl::GetDefaultPresetName()
{
    return Presets().GetDefaultName();
}

std::vector<std::pair<std::string, std::string>>
SwiftCongestionControl::GetPreset(const std::string& name)
{
    return Presets().GetSender(name);
}

} // namespace ns3
