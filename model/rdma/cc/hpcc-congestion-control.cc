/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-congestion-control.h"

#include "cc-preset-table.h"
#include "congestion-control-registry.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccCongestionControl");

namespace
{

/// The presets: the paper's (the attribute defaults) and the HPCC simulator's run.py.
const CcPresetTable&
Presets()
{
    static const CcPresetTable::Values common = {{"TargetUtilization", "0.95"},
                                                 {"RateAi", "40Mbps"},
                                                 {"MinRate", "1Gbps"},
                                                 {"BaseRtt", "0s"},
                                                 {"PerAckUpdate", "true"}};
    static const CcPresetTable table(
        "HPCC",
        {// Li et al. 2019: eta 95%, maxStage 5, per-ACK reaction; W_AI from the
         // simulator's RATE_AI at 100 Gb/s (the paper's simulations ran it).
         {"paper", CcPresetTable::Join(common, {{"MaxStage", "5"}}), {}},
         // The HPCC simulator's run.py for --cc hp: U_TARGET 0.95, MI_THRESH 0 (every
         // reference update multiplicative), FAST_REACT 1, RATE_AI 40 Mb/s at 100 Gb/s,
         // MIN_RATE 1000 Mb/s.
         {"simulator", CcPresetTable::Join(common, {{"MaxStage", "0"}}), {}}});
    return table;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(HpccCongestionControl);
static CongestionControlRegistration<HpccCongestionControl> g_registration(
    "hpcc",
    "HPCC (Li et al. 2019): a window from the in-flight bytes INT measures on each link",
    "",
    false); // INT is its only congestion signal (Li et al. 2019): no ECN

TypeId
HpccCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<HpccCongestionControl>()
            .AddAttribute("TargetUtilization",
                          "eta, the target utilization of the most loaded link "
                          "(dimensionless). Default 0.95: Li et al. 2019 (sec. 3.3 and "
                          "evaluation) and the HPCC simulator's U_TARGET.",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccCongestionControl::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "maxStage, additive-increase steps of the reference window before "
                          "a multiplicative step while U < eta. Default 5: Li et al. 2019 "
                          "(the HPCC simulator's run.py uses MI_THRESH 0 by default: the "
                          "'simulator' preset).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&HpccCongestionControl::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "W_AI / T: the additive window increase W_AI is this rate times "
                          "the base RTT T (bit/s). Default 40 Mb/s: the HPCC simulator's "
                          "run.py for HPCC at 100 Gb/s (RATE_AI = 10 Mb/s per 25 Gb/s of NIC "
                          "rate), the setting of Li et al. 2019's simulations.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&HpccCongestionControl::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate (bit/s): W >= MinRate x T. Default 1 Gb/s: the HPCC "
                          "simulator's MIN_RATE in run.py.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&HpccCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T, the base RTT that normalizes queue lengths and sets R = W / T "
                          "(time). Default 0: the queue pair's path's unloaded RTT (the HPCC "
                          "simulator's per-flow base RTT; Li et al. 2019 use the network's).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&HpccCongestionControl::m_baseRttAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InitialUtilization",
                          "U before the first measurement (dimensionless): the EWMA starts "
                          "here. Default 1: the HPCC simulator's RdmaQueuePair (hp.u = 1), so "
                          "that a flow joining a busy link cuts at its first update instead "
                          "of averaging its way up from 0 over a base RTT (Li et al. 2019's "
                          "Algorithm 1 leaves U's start unstated).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&HpccCongestionControl::m_uInit),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("PerAckUpdate",
                          "React to every ACK with the reference window unchanged "
                          "(Algorithm 1's ComputeWind(U, False)); false: only once per "
                          "round trip. Default true: Li et al. 2019 (sec. 3.3) and the HPCC "
                          "simulator's FAST_REACT.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&HpccCongestionControl::m_perAckUpdate),
                          MakeBooleanChecker())
            .AddTraceSource("Utilization",
                            "U, the EWMA of the most loaded link's normalized in-flight "
                            "bytes, at each update",
                            MakeTraceSourceAccessor(&HpccCongestionControl::m_uTrace),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

HpccCongestionControl::HpccCongestionControl()
    : m_eta(0.95),
      m_maxStage(5),
      m_rateAi(DataRate("40Mbps")),
      m_minRate(DataRate("1Gbps")),
      m_perAckUpdate(true),
      m_uInit(1.0),
      m_tSeconds(0),
      m_u(0),
      m_lastU(0),
      m_w(0),
      m_wc(0),
      m_wAi(0),
      m_wInit(0),
      m_wMin(0),
      m_incStage(0),
      m_sentPackets(0),
      m_ackedPackets(0),
      m_updateMark(0),
      m_updates(0),
      m_refUpdates(0),
      m_uTrace(0)
{
}

HpccCongestionControl::~HpccCongestionControl() = default;

std::string
HpccCongestionControl::GetName() const
{
    return "hpcc";
}

Ptr<RdmaCongestionControl>
HpccCongestionControl::Fork() const
{
    return CopyObject<HpccCongestionControl>(this);
}

void
HpccCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.lineRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("HPCC: context needs a positive line rate");
    }
    const Time t = m_baseRttAttr.IsStrictlyPositive() ? m_baseRttAttr : ctx.baseRtt;
    if (!t.IsStrictlyPositive())
    {
        NS_FATAL_ERROR("HPCC: needs a positive base RTT (BaseRtt or the path's)");
    }
    m_tSeconds = t.GetSeconds();
    const double line = static_cast<double>(ctx.lineRate.GetBitRate());
    m_wInit = line * m_tSeconds / 8.0;
    m_wAi = static_cast<double>(m_rateAi.GetBitRate()) * m_tSeconds / 8.0;
    m_wMin = std::min(static_cast<double>(m_minRate.GetBitRate()), line) * m_tSeconds / 8.0;
    // RDMA NICs start a flow at line rate: W = W_c = W_init (Li et al. 2019, sec. 3.2).
    m_w = m_wInit;
    m_wc = m_wInit;
    m_u = m_uInit;
    m_lastU = 0;
    m_incStage = 0;
    m_prev.Reset();
    m_sentPackets = 0;
    m_ackedPackets = 0;
    m_updateMark = 0;
    m_updates = 0;
    m_refUpdates = 0;
    Apply();
}

void
HpccCongestionControl::OnPacketSent(uint32_t /* payloadBytes */)
{
    ++m_sentPackets;
}

void
HpccCongestionControl::OnAck(const RdmaAckSample& sample)
{
    m_ackedPackets += sample.ackedPackets;
    if (sample.intHeader == nullptr)
    {
        return; // no telemetry (a fabric without INT): the window stays
    }
    // Algorithm 1's NewAck: ack.seq > lastUpdateSeq, with packets for sequence numbers:
    // the ACK covers a packet sent after the previous reference update.
    const bool updateWc = m_ackedPackets > m_updateMark;
    if (!updateWc && !m_perAckUpdate)
    {
        return;
    }
    const bool computed = Update(*sample.intHeader, updateWc);
    if (updateWc || !computed)
    {
        m_updateMark = m_sentPackets; // lastUpdateSeq = snd_nxt
    }
}

bool
HpccCongestionControl::Update(const IntHeader& h, bool updateWc)
{
    if (!m_prev.Accept(h))
    {
        return false; // no records yet, or the first of this path: the window stays
    }
    MeasureInflight(h);
    ComputeWind(m_u, updateWc);
    Apply();
    return true;
}

double
HpccCongestionControl::MeasureInflight(const IntHeader& h)
{
    const uint32_t n = std::min(h.GetNHops(), m_prev.GetNHops());
    double u = 0;
    double tauNs = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const IntHop& now = h.GetHop(i);
        const IntHop& before = m_prev.GetHop(i);
        const uint32_t dtNs = now.TimeSince(before);
        const double b = static_cast<double>(now.GetRateBps());
        if (dtNs == 0 || b <= 0)
        {
            continue; // the same record again (or no rate): no rate to measure
        }
        const double txRate = static_cast<double>(now.BytesSince(before)) * 8.0 / (dtNs * 1e-9);
        const double qlen =
            static_cast<double>(std::min(now.GetQlenBytes(), before.GetQlenBytes()));
        const double ui = qlen * 8.0 / (b * m_tSeconds) + txRate / b;
        if (ui > u)
        {
            u = ui;
            tauNs = dtNs;
        }
    }
    m_prev.Store(h); // L = ack.L
    const double tau = std::min(tauNs * 1e-9, m_tSeconds);
    m_u = (1.0 - tau / m_tSeconds) * m_u + (tau / m_tSeconds) * u;
    m_lastU = u;
    m_uTrace.Set(m_u);
    return m_u;
}

double
HpccCongestionControl::ComputeWind(double u, bool updateWc)
{
    double w;
    uint32_t stage;
    if (u >= m_eta || m_incStage >= m_maxStage)
    {
        // W_c / (U / eta); U = 0 (an idle path) allows the most: W_init
        w = u > 0 ? m_wc * m_eta / u + m_wAi : m_wInit;
        stage = 0;
    }
    else
    {
        w = m_wc + m_wAi;
        stage = m_incStage + 1;
    }
    w = std::min(std::max(w, m_wMin), m_wInit);
    m_w = w;
    ++m_updates;
    if (updateWc)
    {
        m_wc = w;
        m_incStage = stage;
        ++m_refUpdates;
    }
    return w;
}

void
HpccCongestionControl::Apply()
{
    // The queue pair's window counts payload bytes; W counts wire bytes.
    const double payloadPerWire =
        static_cast<double>(m_ctx.mtuBytes) / static_cast<double>(m_ctx.wireBytes);
    SetWindowBytes(std::max<uint64_t>(1, static_cast<uint64_t>(m_w * payloadPerWire)));
    SetRate(DataRate(static_cast<uint64_t>(m_w * 8.0 / m_tSeconds + 0.5)));
}

double
HpccCongestionControl::GetUtilization() const
{
    return m_u;
}

double
HpccCongestionControl::GetLastLinkUtilization() const
{
    return m_lastU;
}

double
HpccCongestionControl::GetWindow() const
{
    return m_w;
}

double
HpccCongestionControl::GetReferenceWindow() const
{
    return m_wc;
}

double
HpccCongestionControl::GetWindowAi() const
{
    return m_wAi;
}

double
HpccCongestionControl::GetInitialWindow() const
{
    return m_wInit;
}

Time
HpccCongestionControl::GetBaseRtt() const
{
    return Seconds(m_tSeconds);
}

uint32_t
HpccCongestionControl::GetIncStage() const
{
    return m_incStage;
}

uint64_t
HpccCongestionControl::GetUpdates() const
{
    return m_updates;
}

uint64_t
HpccCongestionControl::GetReferenceUpdates() const
{
    return m_refUpdates;
}

std::vector<std::string>
HpccCongestionControl::GetPresetNames()
{
    return Presets().GetNames();
}

std::string
HpccCongestionControl::GetDefaultPresetName()
{
    return Presets().GetDefaultName();
}

std::vector<std::pair<std::string, std::string>>
HpccCongestionControl::GetPreset(const std::string& name)
{
    return Presets().GetSender(name);
}

} // namespace ns3
