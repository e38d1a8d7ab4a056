/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nscc-congestion-control.h"

#include "ns3/boolean.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NsccCongestionControl");
NS_OBJECT_ENSURE_REGISTERED(NsccCongestionControl);

static CongestionControlRegistration<NsccCongestionControl> g_registration(
    "nscc",
    "NSCC, Ultra Ethernet's network-signal congestion control (UEC specification 1.0; "
    "uet-htsim): a window from ECN and queueing delay in four quadrants, quick adapt on "
    "trims",
    "",
    true,  // ECN marks are one of its signals (data ECT(0))
    true); // read from the ACKs' echo, not from CNPs

/// Where the defaults below come from (the UEC's simulator's NSCC initialisation).
#define NSCC_SOURCE "uet-htsim htsim/sim/uec.cpp initNsccParams"

TypeId
NsccCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NsccCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<NsccCongestionControl>()
            .AddAttribute("TargetQueueDelay",
                          "Target queueing delay (time); 0: 0.75 x the path's base RTT, "
                          "what " NSCC_SOURCE " uses with trimming on.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NsccCongestionControl::m_targetDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Gamma",
                          "Multiplicative decrease gain (dimensionless): cwnd *= 1 - Gamma "
                          "(avg delay - target) / avg delay. Default 0.8: " NSCC_SOURCE
                          " (_gamma).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&NsccCongestionControl::m_gamma),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxDecrease",
                          "Floor of the multiplicative decrease factor (dimensionless). "
                          "Default 0.5: uet-htsim multiplicative_decrease.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&NsccCongestionControl::m_maxDecrease),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("FairIncreaseMtus",
                          "Fair increase per ACKed byte, in MTUs times the BDP scale a "
                          "(dimensionless). Default 5: " NSCC_SOURCE " (_fi = 5 mss a).",
                          DoubleValue(5.0),
                          MakeDoubleAccessor(&NsccCongestionControl::m_fairMtus),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("ProportionalIncreaseMtus",
                          "Proportional increase, in MTUs x a x b per target delay "
                          "(dimensionless). Default 4: " NSCC_SOURCE
                          " (_alpha = 4 mss a b / target).",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&NsccCongestionControl::m_propMtus),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("EtaMtus",
                          "Additive increase once per network RTT, in MTUs x a "
                          "(dimensionless). Default 0.15: " NSCC_SOURCE " (_eta).",
                          DoubleValue(0.15),
                          MakeDoubleAccessor(&NsccCongestionControl::m_etaMtus),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("FastIncreaseScale",
                          "Fast increase per ACKed byte, times a (dimensionless). Default "
                          "0.25: " NSCC_SOURCE " (_fi_scale).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&NsccCongestionControl::m_fastScale),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("FastIncreaseDelay",
                          "Delay under which a whole window of ACKs starts fast increase "
                          "(time). Default 1 us: uet-htsim fast_increase.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&NsccCongestionControl::m_fastDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DelayEwmaGain",
                          "Gain of the averaged delay the decrease reads (dimensionless). "
                          "Default 0.0125: " NSCC_SOURCE " (_delay_alpha).",
                          DoubleValue(0.0125),
                          MakeDoubleAccessor(&NsccCongestionControl::m_delayGain),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("QuickAdapt",
                          "Quick adapt on NACKs and large delays. Default true: uet-htsim "
                          "(_disable_quick_adapt false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NsccCongestionControl::m_quickAdaptEnabled),
                          MakeBooleanChecker())
            .AddAttribute("QuickAdaptGate",
                          "Quick adapt runs only if the bytes achieved in its period are "
                          "below max window >> this (shift). Default 3: " NSCC_SOURCE
                          " (_qa_gate).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&NsccCongestionControl::m_qaGate),
                          MakeUintegerChecker<uint32_t>(0, 16))
            .AddAttribute("QuickAdaptFactor",
                          "A delay above this many targets triggers quick adapt "
                          "(dimensionless). Default 4: " NSCC_SOURCE " (_qa_threshold).",
                          DoubleValue(4.0),
                          MakeDoubleAccessor(&NsccCongestionControl::m_qaFactor),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("AdjustMtus",
                          "Accumulated increases apply after this many MTUs of ACKed bytes "
                          "(packets), or a network RTT. Default 8: " NSCC_SOURCE
                          " (_adjust_bytes_threshold).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&NsccCongestionControl::m_adjustMtus),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxWindowBdps",
                          "Largest window, in BDPs (line rate x base RTT); also the initial "
                          "window. Default 1.5: uet-htsim update_base_rtt (_maxwnd).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&NsccCongestionControl::m_maxWindowBdps),
                          MakeDoubleChecker<double>(0.01))
            .AddAttribute("ReferenceRate",
                          "Link rate of the reference network the gains are scaled from "
                          "(bit/s). Default 100 Gb/s: " NSCC_SOURCE ".",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&NsccCongestionControl::m_referenceRate),
                          MakeDataRateChecker())
            .AddAttribute("ReferenceRtt",
                          "RTT of the reference network (time). Default 12 us: " NSCC_SOURCE ".",
                          TimeValue(MicroSeconds(12)),
                          MakeTimeAccessor(&NsccCongestionControl::m_referenceRtt),
                          MakeTimeChecker(PicoSeconds(1)));
    return tid;
}

#undef NSCC_SOURCE

NsccCongestionControl::NsccCongestionControl()
    : m_targetDelay(Time(0)),
      m_gamma(0.8),
      m_maxDecrease(0.5),
      m_fairMtus(5.0),
      m_propMtus(4.0),
      m_etaMtus(0.15),
      m_fastScale(0.25),
      m_fastDelay(MicroSeconds(1)),
      m_delayGain(0.0125),
      m_qaGate(3),
      m_qaFactor(4.0),
      m_adjustMtus(8),
      m_maxWindowBdps(1.5),
      m_quickAdaptEnabled(true),
      m_referenceRate("100Gbps"),
      m_referenceRtt(MicroSeconds(12))
{
}

NsccCongestionControl::~NsccCongestionControl() = default;

std::string
NsccCongestionControl::GetName() const
{
    return "nscc";
}

Ptr<RdmaCongestionControl>
NsccCongestionControl::Fork() const
{
    return CopyObject<NsccCongestionControl>(this);
}

void
NsccCongestionControl::Start(const RdmaCcContext& ctx)
{
    RdmaCongestionControl::Start(ctx);
    const double mtu = ctx.mtuBytes;
    const double rate = static_cast<double>(ctx.lineRate.GetBitRate());
    m_networkRtt = std::max<int64_t>(ctx.baseRtt.GetPicoSeconds(), 1);
    m_baseRtt = m_networkRtt;
    // Payload bytes of one BDP (a full packet's payload share of its wire bytes).
    m_bdp = rate / 8.0 * static_cast<double>(m_networkRtt) * 1e-12 * mtu / ctx.wireBytes;
    const double refBdp = static_cast<double>(m_referenceRate.GetBitRate()) / 8.0 *
                          m_referenceRtt.GetSeconds() * mtu / ctx.wireBytes;
    m_target = m_targetDelay.IsZero() ? static_cast<int64_t>(0.75 * m_networkRtt)
                                      : m_targetDelay.GetPicoSeconds();
    m_target = std::max<int64_t>(m_target, 1);
    const double a = m_bdp / refBdp;
    const double b = static_cast<double>(m_target) / m_referenceRtt.GetPicoSeconds();
    m_fi = m_fairMtus * a;
    m_alpha = m_propMtus * a * b / static_cast<double>(m_target); // per ps of headroom
    m_eta = m_etaMtus * mtu * a;
    m_fiScale = m_fastScale * a;
    m_minWnd = mtu;
    m_maxWnd = std::max(m_maxWindowBdps * m_bdp, mtu);
    m_cwnd = m_maxWnd;
    m_avgDelay = 0;
    m_incBytes = 0;
    m_receivedBytes = 0;
    m_achievedBytes = 0;
    m_inFlight = 0;
    m_bytesToIgnore = 0;
    m_bytesIgnored = 0;
    m_fastCount = 0;
    m_increase = false;
    m_triggerQa = false;
    m_qaEnd = 0;
    const int64_t now = Simulator::Now().GetPicoSeconds();
    m_lastAdjust = now;
    m_lastDecrease = now;
    m_decreases = 0;
    m_quickAdapts = 0;
    SetRate(ctx.lineRate);
    Apply();
}

void
NsccCongestionControl::OnPacketSent(uint32_t payloadBytes)
{
    m_inFlight += payloadBytes;
}

void
NsccCongestionControl::UpdateDelay(int64_t rttPs, bool ecn)
{
    const double delay = static_cast<double>(rttPs - m_baseRtt);
    if (!ecn && delay > m_target)
    {
        // A delay without a mark is another path's queue or the receiver's: it pulls the
        // average toward a quarter base RTT only (uet-htsim update_delay).
        m_avgDelay = m_delayGain * m_baseRtt * 0.25 + (1 - m_delayGain) * m_avgDelay;
    }
    else
    {
        m_avgDelay = m_delayGain * delay + (1 - m_delayGain) * m_avgDelay;
    }
}

bool
NsccCongestionControl::QuickAdapt(bool loss, bool ecn, int64_t delayPs)
{
    if (!m_quickAdaptEnabled)
    {
        return false;
    }
    bool done = false;
    const int64_t now = Simulator::Now().GetPicoSeconds();
    if (m_bytesIgnored < m_bytesToIgnore && ecn)
    {
        done = true; // the marks of what was in flight at the last adaptation
    }
    else if (now > m_qaEnd)
    {
        if (m_qaEnd != 0 &&
            (m_triggerQa || loss || static_cast<double>(delayPs) > m_qaFactor * m_target) &&
            static_cast<double>(m_achievedBytes) <
                m_maxWnd / static_cast<double>(uint64_t{1} << m_qaGate))
        {
            m_cwnd = std::max(static_cast<double>(m_achievedBytes), m_minWnd);
            m_bytesToIgnore = m_inFlight;
            m_bytesIgnored = 0;
            m_triggerQa = false;
            m_quickAdapts++;
            done = true;
        }
        m_achievedBytes = 0;
        m_qaEnd = now + m_baseRtt + m_target;
    }
    if (done)
    {
        m_incBytes = 0;
        m_receivedBytes = 0;
    }
    return done;
}

void
NsccCongestionControl::OnAck(const RdmaAckSample& sample)
{
    const uint64_t acked = sample.ackedBytes;
    m_inFlight -= std::min(m_inFlight, acked);
    m_achievedBytes += acked;
    m_receivedBytes += acked;
    m_bytesIgnored += acked;
    const bool ecn = sample.ecnEcho;
    const int64_t rtt = sample.rtt.GetPicoSeconds();
    if (rtt > 0 && rtt < m_baseRtt)
    {
        m_baseRtt = rtt; // the lowest RTT seen is the base (uet-htsim update_base_rtt)
    }
    const int64_t delay = rtt > 0 ? rtt - m_baseRtt : 0;
    UpdateDelay(rtt > 0 ? rtt : m_baseRtt, ecn);
    if (QuickAdapt(false, ecn, delay))
    {
        Apply();
        return;
    }
    const int64_t now = Simulator::Now().GetPicoSeconds();
    if (!ecn && delay >= m_target)
    {
        m_incBytes += m_fi * static_cast<double>(acked);
    }
    else if (!ecn)
    {
        // Fast increase: a whole window's ACKs with almost no queue.
        if (delay < m_fastDelay.GetPicoSeconds())
        {
            m_fastCount += acked;
            if (static_cast<double>(m_fastCount) > m_cwnd || m_increase)
            {
                m_cwnd += static_cast<double>(acked) * m_fiScale;
                m_increase = true;
            }
        }
        else
        {
            m_fastCount = 0;
            m_increase = false;
        }
        if (!m_increase)
        {
            m_incBytes +=
                m_alpha * static_cast<double>(acked) * static_cast<double>(m_target - delay);
        }
    }
    else if (delay >= m_target)
    {
        m_increase = false;
        m_fastCount = 0;
        if (m_avgDelay > m_target && now - m_lastDecrease > m_baseRtt)
        {
            m_cwnd *= std::max(1 - m_gamma * (m_avgDelay - m_target) / m_avgDelay, m_maxDecrease);
            m_lastDecrease = now;
            m_decreases++;
        }
    }
    // (ECN with a small delay: nothing; the spraying moves on.)
    m_cwnd = std::clamp(m_cwnd, m_minWnd, m_maxWnd);
    if (static_cast<double>(m_receivedBytes) >
            m_adjustMtus * static_cast<double>(GetContext().mtuBytes) ||
        now - m_lastAdjust > m_networkRtt)
    {
        m_cwnd += m_incBytes / m_cwnd;
        if (now - m_lastAdjust >= m_networkRtt)
        {
            m_cwnd += m_eta;
            m_lastAdjust = now;
        }
        m_incBytes = 0;
        m_receivedBytes = 0;
    }
    Apply();
}

void
NsccCongestionControl::OnNack()
{
    const double nacked = GetContext().mtuBytes;
    m_inFlight -= std::min<uint64_t>(m_inFlight, GetContext().mtuBytes);
    m_bytesIgnored += GetContext().mtuBytes;
    // A trim says a queue reached its threshold: about a network RTT of queueing.
    UpdateDelay(m_baseRtt + m_networkRtt, true);
    m_triggerQa = true;
    if (!QuickAdapt(true, true, 0))
    {
        m_cwnd -= nacked;
    }
    Apply();
}

void
NsccCongestionControl::OnLossNack()
{
    // uet-htsim: only a trimmed packet's NACK reaches NSCC (UecSrc::processNack); a
    // packet lost on its way (a failed path) is resent without a window rule.
}

void
NsccCongestionControl::OnTimeout()
{
    // A retransmission timeout: everything in flight is presumed lost (model choice:
    // uet-htsim's RTO resends without a window rule of NSCC's own).
    m_inFlight = 0;
    Apply();
}

void
NsccCongestionControl::Apply()
{
    m_cwnd = std::clamp(m_cwnd, m_minWnd, m_maxWnd);
    SetWindowBytes(static_cast<uint64_t>(m_cwnd));
}

double
NsccCongestionControl::GetCwnd() const
{
    return m_cwnd;
}

Time
NsccCongestionControl::GetTarget() const
{
    return PicoSeconds(m_target);
}

uint64_t
NsccCongestionControl::GetDecreases() const
{
    return m_decreases;
}

uint64_t
NsccCongestionControl::GetQuickAdapts() const
{
    return m_quickAdapts;
}

} // namespace ns3
