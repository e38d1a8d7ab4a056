/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dctcp-congestion-control.h"

#include "cc-preset-table.h"
#include "congestion-control-registry.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DctcpCongestionControl");

namespace
{

/// The one preset: the HPCC simulator's run.py for --cc dctcp.
const CcPresetTable&
Presets()
{
    static const CcPresetTable table("DCTCP",
                                     {{"hpcc",
                                       // g 0.0625, DCTCP_RATE_AI 615 Mb/s, MIN_RATE 1000 Mb/s,
                                       // HAS_WIN 1 and VAR_WIN 1; alpha starts at 1.
                                       {{"G", "0.0625"},
                                        {"InitialAlpha", "1"},
                                        {"AdditiveIncrement", "615Mbps"},
                                        {"MinRate", "1Gbps"},
                                        {"UseWindow", "true"}},
                                       // KMIN_MAP = KMAX_MAP = 30 KB per 10 Gb/s of link rate (KB =
                                       // 1000 bytes, switch-mmu.cc), PMAX_MAP 1.0: DCTCP's single
                                       // threshold K (mark every packet dequeued above K).
                                       {{"Kmin", "30000"},
                                        {"Kmax", "30000"},
                                        {"Pmax", "1"},
                                        {"ReferenceRate", "10Gbps"},
                                        {"ScaleWithRate", "true"}}}});
    return table;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(DctcpCongestionControl);
static CongestionControlRegistration<DctcpCongestionControl> g_registration(
    "dctcp",
    "DCTCP (Alizadeh et al. 2010, RFC 8257) as the HPCC simulator runs it on RDMA: "
    "ECN CE echoed in ACKs, rate cut by alpha/2 once per window, window from the rate",
    "",
    true,  // ECN marks are its signal (data ECT(0))
    true); // read from the ACKs' echo, not from CNPs

TypeId
DctcpCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DctcpCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<DctcpCongestionControl>()
            .AddAttribute("G",
                          "g, the EWMA gain of alpha (dimensionless, (0, 1]). Default 1/16: "
                          "Alizadeh et al. 2010, RFC 8257 and the HPCC simulator's run.py for "
                          "DCTCP (EwmaGain 0.0625).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&DctcpCongestionControl::m_g),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("InitialAlpha",
                          "alpha at the start of a flow (dimensionless, [0, 1]). Default 1: "
                          "the HPCC simulator (rdma-queue-pair.cc) and RFC 8257 4.2's "
                          "conservative start (Linux dctcp_alpha_on_init 1024/1024).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DctcpCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AdditiveIncrement",
                          "Rate added once per window without a cut (bit/s). Default 615 "
                          "Mb/s: the HPCC simulator's run.py for DCTCP (DctcpRateAI, one "
                          "1 KB MTU per 13 us RTT, TCP's one segment per RTT as a rate).",
                          DataRateValue(DataRate("615Mbps")),
                          MakeDataRateAccessor(&DctcpCongestionControl::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate (bit/s). Default 1 Gb/s: the HPCC simulator's run.py "
                          "MIN_RATE.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&DctcpCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("UseWindow",
                          "Limit in-flight payload to BDP x rate / line rate (at least one "
                          "MTU), BDP = line rate x base RTT; false: the rate alone. Default "
                          "true: the HPCC simulator's run.py for DCTCP (HAS_WIN 1, VAR_WIN "
                          "1).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DctcpCongestionControl::m_useWindow),
                          MakeBooleanChecker())
            .AddTraceSource("Alpha",
                            "alpha after each per-window update",
                            MakeTraceSourceAccessor(&DctcpCongestionControl::m_alphaTrace),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

DctcpCongestionControl::DctcpCongestionControl()
    : m_g(1.0 / 16),
      m_initialAlpha(1.0),
      m_useWindow(true),
      m_rate(0),
      m_alpha(1.0),
      m_sentPackets(0),
      m_ackedPackets(0),
      m_windowEnd(0),
      m_firstWindow(true),
      m_winAcked(0),
      m_winMarked(0),
      m_inCwr(false),
      m_cwrEnd(0),
      m_windows(0),
      m_cuts(0),
      m_echoed(0),
      m_bdpBytes(0),
      m_alphaTrace(1.0)
{
}

DctcpCongestionControl::~DctcpCongestionControl() = default;

std::string
DctcpCongestionControl::GetName() const
{
    return "dctcp";
}

Ptr<RdmaCongestionControl>
DctcpCongestionControl::Fork() const
{
    return CopyObject<DctcpCongestionControl>(this);
}

void
DctcpCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.lineRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("DCTCP: context needs a positive line rate");
    }
    // A flow starts at line rate with a full BDP window, as in the HPCC simulator.
    m_rate = static_cast<double>(ctx.lineRate.GetBitRate());
    m_alpha = m_initialAlpha;
    m_alphaTrace.Set(m_alpha);
    m_sentPackets = 0;
    m_ackedPackets = 0;
    m_windowEnd = 0;
    m_firstWindow = true;
    m_winAcked = 0;
    m_winMarked = 0;
    m_inCwr = false;
    m_cwrEnd = 0;
    m_windows = 0;
    m_cuts = 0;
    m_echoed = 0;
    m_bdpBytes = std::round(m_rate * ctx.baseRtt.GetSeconds() / 8.0);
    Apply();
}

void
DctcpCongestionControl::OnPacketSent(uint32_t /* payloadBytes */)
{
    ++m_sentPackets;
}

void
DctcpCongestionControl::OnAck(const RdmaAckSample& sample)
{
    m_ackedPackets += sample.ackedPackets;
    m_winAcked += sample.ackedPackets;
    const uint64_t marked = sample.ecnEcho ? sample.ackedPackets : 0;
    m_winMarked += marked;
    m_echoed += marked;
    // A window ends at the ACK that covers every packet sent when it began; the first
    // one at the first ACK. Its fraction of marked packets updates alpha, except for
    // the first (HPCC's first RTT: no full window of feedback yet).
    bool newWindow = false;
    if (m_ackedPackets >= m_windowEnd)
    {
        newWindow = true;
        if (m_firstWindow)
        {
            m_firstWindow = false;
        }
        else
        {
            const double f = m_winAcked == 0 ? 0.0
                                             : static_cast<double>(m_winMarked) /
                                                   static_cast<double>(m_winAcked);
            m_alpha = (1.0 - m_g) * m_alpha + m_g * f;
            m_alphaTrace.Set(m_alpha);
            ++m_windows;
            m_winAcked = 0;
            m_winMarked = 0;
        }
        m_windowEnd = std::max(m_sentPackets, m_ackedPackets + 1);
    }
    if (m_inCwr && m_ackedPackets >= m_cwrEnd)
    {
        m_inCwr = false; // everything sent at the cut is acknowledged
    }
    if (sample.ecnEcho && !m_inCwr)
    {
        m_rate *= 1.0 - m_alpha / 2.0;
        m_inCwr = true;
        m_cwrEnd = std::max(m_sentPackets, m_ackedPackets + 1);
        ++m_cuts;
    }
    else if (!m_inCwr && newWindow)
    {
        m_rate += static_cast<double>(m_ai.GetBitRate());
    }
    Apply();
}

void
DctcpCongestionControl::Apply()
{
    const double line = static_cast<double>(m_ctx.lineRate.GetBitRate());
    const double floor = static_cast<double>(m_minRate.GetBitRate());
    m_rate = std::min(std::max(m_rate, floor), line);
    SetRate(DataRate(static_cast<uint64_t>(m_rate + 0.5)));
    if (m_useWindow)
    {
        const auto w = static_cast<uint64_t>(std::llround(m_bdpBytes * m_rate / line));
        SetWindowBytes(std::max<uint64_t>(m_ctx.mtuBytes, w));
    }
}

double
DctcpCongestionControl::GetAlpha() const
{
    return m_alpha;
}

double
DctcpCongestionControl::GetExactRateBps() const
{
    return m_rate;
}

bool
DctcpCongestionControl::IsInCwr() const
{
    return m_inCwr;
}

uint64_t
DctcpCongestionControl::GetWindows() const
{
    return m_windows;
}

uint64_t
DctcpCongestionControl::GetCuts() const
{
    return m_cuts;
}

uint64_t
DctcpCongestionControl::GetEchoedPackets() const
{
    return m_echoed;
}

std::vector<std::string>
DctcpCongestionControl::GetPresetNames()
{
    return Presets().GetNames();
}

std::string
DctcpCongestionControl::GetDefaultPresetName()
{
    return Presets().GetDefaultName();
}

std::vector<std::pair<std::string, std::string>>
DctcpCongestionControl::GetPreset(const std::string& name)
{
    return Presets().GetSender(name);
}

std::vector<std::pair<std::string, std::string>>
DctcpCongestionControl::GetSwitchPreset(const std::string& name)
{
    return Presets().GetSwitches(name);
}

} // namespace ns3
