/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-congestion-control.h"

#include "cc-preset-table.h"
#include "congestion-control-registry.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionControl");

namespace
{

/// HPCC's mix/config.txt (run.py writes the same maps): KMIN_MAP 100/200/400 KB,
/// KMAX_MAP 400/800/1600 KB, PMAX_MAP 0.2 at 25/50/100 Gb/s (KB = 1000 bytes,
/// switch-mmu.cc), i.e. linear in the link rate from 25 Gb/s.
CcPresetTable::Values
HpccSwitchValues()
{
    return {{"Kmin", "100000"},
            {"Kmax", "400000"},
            {"Pmax", "0.2"},
            {"ReferenceRate", "25Gbps"},
            {"ScaleWithRate", "true"}};
}

/// The presets: the paper's (the attribute defaults), the HPCC simulator's config.txt and run.py.
const CcPresetTable&
Presets()
{
    static const CcPresetTable table(
        "DCQCN",
        {{"paper",
          // Zhu et al., SIGCOMM 2015: g, K = 55 us, T = 55 us, B = 10 MB, F = 5, R_AI =
          // 40 Mb/s at the 40 Gb/s testbed; the CNP spacing (50 us) is the decrease interval.
          {{"G", "0.00390625"},
           {"InitialAlpha", "1"},
           {"AlphaTimer", "55us"},
           {"RateDecreaseInterval", "50us"},
           {"IncreaseTimer", "55us"},
           {"ByteCounter", "10000000"},
           {"FastRecoveryThreshold", "5"},
           {"RateAI", "40Mbps"},
           {"RateHAI", "400Mbps"},
           {"RateReference", "40Gbps"},
           {"MinRate", "100Mbps"}},
          // Section 5 (parameter guidelines from the fluid model, used in the 40 Gb/s
          // testbed): Kmin 5 KB, Kmax 200 KB, Pmax 1 %; thresholds in bytes scale with the
          // link rate (same queueing delay).
          {{"Kmin", "5000"},
           {"Kmax", "200000"},
           {"Pmax", "0.01"},
           {"ReferenceRate", "40Gbps"},
           {"ScaleWithRate", "true"}}},
         {"hpcc",
          // The HPCC simulator's configuration file, simulation/mix/config.txt of
          // github.com/alibaba-edu/High-Precision-Congestion-Control: EWMA_GAIN 1/256,
          // ALPHA_RESUME_INTERVAL 1 (us), RATE_DECREASE_INTERVAL 4 (us), RP_TIMER 900 (us),
          // FAST_RECOVERY_TIMES 1, RATE_AI 50Mb/s, RATE_HAI 100Mb/s, MIN_RATE 100Mb/s,
          // whatever the line rate (no byte counter in that code). Its reaction point's
          // rules differ from the paper's (AlphaUpdate, ClampTargetRate, HyperIncrease; and
          // it compares the stage before counting it, so its F is ours + 1): doc/dcqcn.md
          // gives the flags that run them; this preset keeps the paper's.
          {{"G", "0.00390625"},
           {"InitialAlpha", "1"},
           {"AlphaTimer", "1us"},
           {"RateDecreaseInterval", "4us"},
           {"IncreaseTimer", "900us"},
           {"ByteCounter", "0"},
           {"FastRecoveryThreshold", "1"},
           {"RateAI", "50Mbps"},
           {"RateHAI", "100Mbps"},
           {"RateReference", "0bps"},
           {"MinRate", "100Mbps"}},
          HpccSwitchValues()},
         {"hpcc-run",
          // What that repository's simulation/run.py writes for --cc dcqcn (the DCQCN runs
          // of the HPCC paper): ALPHA_RESUME_INTERVAL 1, RATE_DECREASE_INTERVAL 4,
          // RP_TIMER 300, RATE_AI 5 x bw/25 and RATE_HAI 50 x bw/25 Mb/s (bw in Gb/s),
          // MIN_RATE 1000Mb/s.
          {{"G", "0.00390625"},
           {"InitialAlpha", "1"},
           {"AlphaTimer", "1us"},
           {"RateDecreaseInterval", "4us"},
           {"IncreaseTimer", "300us"},
           {"ByteCounter", "0"},
           {"FastRecoveryThreshold", "1"},
           {"RateAI", "5Mbps"},
           {"RateHAI", "50Mbps"},
           {"RateReference", "25Gbps"},
           {"MinRate", "1000Mbps"}},
          HpccSwitchValues()}});
    return table;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);
static CongestionControlRegistration<DcqcnCongestionControl> g_registration(
    "dcqcn",
    "DCQCN (Zhu et al. 2015): ECN marks become CNPs, which cut the sender's rate",
    "hpcc-run");

TypeId
DcqcnCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G",
                          "Gain g of the alpha estimator (dimensionless, 0 < g <= 1). "
                          "Default 1/256: Zhu et al. 2015, also the HPCC-derived simulators.",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("InitialAlpha",
                          "Alpha at start (dimensionless, 0..1). Default 1 so that the first "
                          "CNP halves the rate, as in Zhu et al. 2015 and the Mellanox NICs.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaTimer",
                          "Alpha update period K (time): every K without a CNP, "
                          "alpha = (1-g) alpha. Default 55 us: Zhu et al. 2015 "
                          "(HPCC-derived simulators: 1 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateDecreaseInterval",
                          "Minimum time between two rate cuts; a CNP inside it defers the "
                          "cut to the end of the interval. Default 50 us: Zhu et al. 2015 "
                          "(equals the notification point's CNP spacing, so every CNP cuts); "
                          "HPCC-derived simulators: 4 us.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("IncreaseTimer",
                          "Rate increase timer T (time). Default 55 us: Zhu et al. 2015 "
                          "(HPCC-derived simulators: 300 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_increaseTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Rate increase byte counter B, payload bytes sent per increase "
                          "event; 0 turns it off (then the byte stage follows the timer "
                          "stage). Default 10 MB (10^7 bytes): Zhu et al. 2015 "
                          "(HPCC-derived simulators: off).",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoveryThreshold",
                          "F: increase events are fast recovery while both stage counters "
                          "are below F, additive once one reaches F, hyper once both "
                          "exceed F. Default 5: Zhu et al. 2015 (HPCC-derived: 1).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_threshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RateAI",
                          "Additive increase step R_AI, given at line rate RateReference "
                          "and scaled in proportion to the actual line rate. Default "
                          "40 Mb/s at 40 Gb/s: Zhu et al. 2015.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHAI",
                          "Hyper increase step R_HAI (multiplied by the hyper stage i), "
                          "given at RateReference and scaled like RateAI. Default 400 Mb/s "
                          "at 40 Gb/s: 10 x R_AI, the QCN/Mellanox ratio (the paper gives "
                          "no value).",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("RateReference",
                          "Line rate at which RateAI and RateHAI are given; the steps are "
                          "multiplied by lineRate/RateReference. 0 = use them unscaled. "
                          "Default 40 Gb/s: the paper's testbed.",
                          DataRateValue(DataRate("40Gbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rateReference),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Floor of the current and target rates. Default 100 Mb/s: the "
                          "HPCC-derived simulators (the paper gives none).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("AlphaUpdate",
                          "When alpha moves up. PerCnp: alpha = (1-g) alpha + g on each CNP, "
                          "which restarts the alpha timer (Zhu et al. 2015, the default). "
                          "PerPeriod: once per AlphaTimer period from the first CNP, up by g "
                          "if a CNP came in the period, else down; however many CNPs came "
                          "(the ConnectX NICs' DCQCN, NVIDIA's DCQCN parameters: "
                          "DceAlphaUpdatePeriod; the HPCC-derived simulators' UpdateAlphaMlx).",
                          EnumValue(DcqcnCongestionControl::PER_CNP),
                          MakeEnumAccessor(&DcqcnCongestionControl::m_alphaUpdate),
                          MakeEnumChecker(DcqcnCongestionControl::PER_CNP,
                                          "PerCnp",
                                          DcqcnCongestionControl::PER_PERIOD,
                                          "PerPeriod"))
            .AddAttribute("ClampTargetRate",
                          "Whether a cut always sets the target rate RT to the current rate "
                          "(true: Zhu et al. 2015, the default). False: RT = RC only if an "
                          "increase event came since the previous cut, so cuts in a row keep "
                          "the RT of before them (ConnectX clamp_tgt_rate 0, NVIDIA's DCQCN "
                          "parameters; the HPCC-derived simulators' CLAMP_TARGET_RATE 0).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("HyperIncrease",
                          "Hyper increase step. Linear: RT += i R_HAI, i the hyper stage "
                          "(Zhu et al. 2015, the default). Constant: RT += R_HAI at every "
                          "hyper step (the HPCC-derived simulators' HyperIncreaseMlx).",
                          EnumValue(DcqcnCongestionControl::HYPER_LINEAR),
                          MakeEnumAccessor(&DcqcnCongestionControl::m_hyperIncrease),
                          MakeEnumChecker(DcqcnCongestionControl::HYPER_LINEAR,
                                          "Linear",
                                          DcqcnCongestionControl::HYPER_CONSTANT,
                                          "Constant"))
            .AddTraceSource("Alpha",
                            "DCQCN alpha (dimensionless), updated on CNPs and increase "
                            "events",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_alphaTrace),
                            "ns3::TracedValueCallback::Double")
            .AddTraceSource("TargetRate",
                            "Target rate RT, in bit/s",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_targetRate),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

DcqcnCongestionControl::DcqcnCongestionControl()
    : m_g(1.0 / 256),
      m_initialAlpha(1.0),
      m_byteCounter(0),
      m_threshold(5),
      m_alphaUpdate(PER_CNP),
      m_clampTargetRate(true),
      m_hyperIncrease(HYPER_LINEAR),
      m_rc(0),
      m_rai(0),
      m_rhai(0),
      m_lineBps(0),
      m_minBps(0),
      m_alpha(1.0),
      m_cnpSeen(false),
      m_cnpInPeriod(false),
      m_increasing(false),
      m_increasedSinceCut(false),
      m_timerCount(0),
      m_byteCount(0),
      m_bytes(0),
      m_alphaTrace(1.0),
      m_targetRate(0)
{
}

DcqcnCongestionControl::~DcqcnCongestionControl() = default;

void
DcqcnCongestionControl::DoDispose()
{
    // A released queue pair's controller goes before the simulation ends: no timer of
    // it may run after.
    m_increaseEvent.Cancel();
    m_cutEvent.Cancel();
    RdmaCongestionControl::DoDispose();
}

std::string
DcqcnCongestionControl::GetName() const
{
    return "dcqcn";
}

Ptr<RdmaCongestionControl>
DcqcnCongestionControl::Fork() const
{
    return CopyObject<DcqcnCongestionControl>(this);
}

void
DcqcnCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    Stop();
    RdmaCongestionControl::Start(ctx);
    m_lineBps = static_cast<double>(ctx.lineRate.GetBitRate());
    m_minBps = static_cast<double>(m_minRate.GetBitRate());
    if (m_lineBps <= 0)
    {
        NS_FATAL_ERROR("DCQCN: line rate " << ctx.lineRate << " must be positive");
    }
    if (m_minBps <= 0 || m_minBps > m_lineBps)
    {
        NS_FATAL_ERROR("DCQCN: MinRate " << m_minRate << " must be in (0, line rate "
                                         << ctx.lineRate << "]");
    }
    // Steps scale with the line rate so that a preset keeps its recovery time in
    // line-rate units across 25/40/100/400G.
    double scale = 1.0;
    if (m_rateReference.GetBitRate() > 0)
    {
        scale = m_lineBps / static_cast<double>(m_rateReference.GetBitRate());
    }
    m_rai = static_cast<double>(m_rateAi.GetBitRate()) * scale;
    m_rhai = static_cast<double>(m_rateHai.GetBitRate()) * scale;
    m_rc = m_lineBps;
    m_targetRate.Set(ctx.lineRate.GetBitRate());
    m_alpha = m_initialAlpha;
    m_alphaTrace.Set(m_alpha);
    m_alphaAnchor = Simulator::Now();
    m_lastCut = Simulator::Now();
    m_cnpSeen = false;
    m_cnpInPeriod = false;
    m_increasing = false;
    m_increasedSinceCut = false;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytes = 0;
}

void
DcqcnCongestionControl::Stop()
{
    m_increaseEvent.Cancel();
    m_cutEvent.Cancel();
    m_increasing = false;
}

double
DcqcnCongestionControl::AlphaAfterPeriods(int64_t& periods) const
{
    periods = (Simulator::Now() - m_alphaAnchor).GetTimeStep() / m_alphaTimer.GetTimeStep();
    if (periods <= 0)
    {
        return m_alpha;
    }
    double alpha = m_alpha;
    int64_t decays = periods;
    if (m_alphaUpdate == PER_PERIOD && m_cnpInPeriod)
    {
        // The period the CNP came in ends with a rise; the later ones saw none.
        alpha = (1.0 - m_g) * alpha + m_g;
        --decays;
    }
    return alpha * std::pow(1.0 - m_g, static_cast<double>(decays));
}

double
DcqcnCongestionControl::GetAlpha() const
{
    if (!m_cnpSeen)
    {
        // The alpha timer starts with the first CNP, so the first CNP halves.
        return m_alpha;
    }
    int64_t periods = 0;
    return AlphaAfterPeriods(periods);
}

void
DcqcnCongestionControl::UpdateAlpha()
{
    if (!m_cnpSeen)
    {
        return;
    }
    int64_t periods = 0;
    const double alpha = AlphaAfterPeriods(periods);
    if (periods > 0)
    {
        m_alpha = alpha;
        m_cnpInPeriod = false;
        // Keep the timer's phase: the next period ends K after the last one.
        m_alphaAnchor += TimeStep(periods * m_alphaTimer.GetTimeStep());
        m_alphaTrace.Set(m_alpha);
    }
}

double
DcqcnCongestionControl::GetCurrentRateBps() const
{
    return m_rc;
}

double
DcqcnCongestionControl::GetTargetRateBps() const
{
    return static_cast<double>(m_targetRate.Get());
}

uint32_t
DcqcnCongestionControl::GetTimerCount() const
{
    return m_timerCount;
}

uint32_t
DcqcnCongestionControl::GetByteCount() const
{
    return m_byteCount;
}

double
DcqcnCongestionControl::GetRateAiBps() const
{
    return m_rai;
}

double
DcqcnCongestionControl::GetRateHaiBps() const
{
    return m_rhai;
}

void
DcqcnCongestionControl::OnCnp()
{
    NS_LOG_FUNCTION(this);
    const bool first = !m_cnpSeen;
    if (first)
    {
        m_cnpSeen = true;
        m_alphaAnchor = Simulator::Now();
        m_lastCut = Simulator::Now() - m_decreaseInterval;
    }
    UpdateAlpha();
    if (Simulator::Now() - m_lastCut >= m_decreaseInterval)
    {
        // The cut uses alpha from before this CNP (Zhu et al. 2015, Fig. 7 order).
        m_cutEvent.Cancel();
        CutRate();
    }
    else if (!m_cutEvent.IsRunning())
    {
        m_cutEvent = Simulator::Schedule(m_lastCut + m_decreaseInterval - Simulator::Now(),
                                         &DcqcnCongestionControl::DeferredCut,
                                         this);
    }
    if (m_alphaUpdate == PER_CNP)
    {
        m_alpha = (1.0 - m_g) * m_alpha + m_g;
        m_alphaAnchor = Simulator::Now(); // a CNP restarts the alpha timer
        m_alphaTrace.Set(m_alpha);
    }
    else if (!first)
    {
        // The rise comes when the period ends; the first CNP only starts the timer
        // (alpha stays InitialAlpha through its period unless another CNP comes).
        m_cnpInPeriod = true;
    }
    ResetIncrease();
}

void
DcqcnCongestionControl::DeferredCut()
{
    UpdateAlpha();
    CutRate();
    ResetIncrease();
}

void
DcqcnCongestionControl::CutRate()
{
    m_lastCut = Simulator::Now();
    if (m_clampTargetRate || m_increasedSinceCut)
    {
        m_targetRate.Set(static_cast<uint64_t>(std::llround(m_rc)));
    }
    m_increasedSinceCut = false;
    m_rc = m_rc * (1.0 - m_alpha / 2.0);
    NS_LOG_LOGIC("cut: alpha " << m_alpha << " RT " << m_targetRate.Get() << " RC " << m_rc);
    ApplyRate();
}

void
DcqcnCongestionControl::ResetIncrease()
{
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytes = 0;
    m_increasing = true;
    m_increaseEvent.Cancel();
    m_increaseEvent =
        Simulator::Schedule(m_increaseTimer, &DcqcnCongestionControl::IncreaseTimerExpired, this);
}

void
DcqcnCongestionControl::IncreaseTimerExpired()
{
    ++m_timerCount;
    IncreaseEvent();
    if (m_increasing)
    {
        m_increaseEvent = Simulator::Schedule(m_increaseTimer,
                                              &DcqcnCongestionControl::IncreaseTimerExpired,
                                              this);
    }
}

void
DcqcnCongestionControl::OnPacketSent(uint32_t payloadBytes)
{
    if (!m_increasing || m_byteCounter == 0)
    {
        return;
    }
    m_bytes += payloadBytes;
    while (m_bytes >= m_byteCounter && m_increasing)
    {
        m_bytes -= m_byteCounter;
        ++m_byteCount;
        IncreaseEvent();
    }
}

void
DcqcnCongestionControl::IncreaseEvent()
{
    m_increasedSinceCut = true;
    UpdateAlpha();
    uint32_t tc = m_timerCount;
    // With the byte counter off, the byte stage follows the timer stage, so the
    // timer alone walks through all three stages (as in the HPCC-derived code).
    uint32_t bc = m_byteCounter == 0 ? m_timerCount : m_byteCount;
    double rt = static_cast<double>(m_targetRate.Get());
    if (std::max(tc, bc) < m_threshold)
    {
        NS_LOG_LOGIC("fast recovery");
    }
    else if (std::min(tc, bc) > m_threshold)
    {
        uint32_t i = m_hyperIncrease == HYPER_LINEAR ? std::min(tc, bc) - m_threshold : 1;
        rt += i * m_rhai;
        NS_LOG_LOGIC("hyper increase i=" << i);
    }
    else
    {
        rt += m_rai;
        NS_LOG_LOGIC("additive increase");
    }
    rt = std::min(std::max(rt, m_minBps), m_lineBps);
    m_targetRate.Set(static_cast<uint64_t>(std::llround(rt)));
    m_rc = (rt + m_rc) / 2.0;
    // Fast recovery halves the gap forever; snap once it is below a bit/s.
    if (rt - m_rc < 1.0)
    {
        m_rc = rt;
    }
    ApplyRate();
    if (m_rc >= m_lineBps && rt >= m_lineBps)
    {
        // Back at line rate: further increase events would change nothing.
        m_increasing = false;
        m_increaseEvent.Cancel();
    }
}

void
DcqcnCongestionControl::ApplyRate()
{
    m_rc = std::min(std::max(m_rc, m_minBps), m_lineBps);
    if (m_targetRate.Get() < static_cast<uint64_t>(m_minBps))
    {
        m_targetRate.Set(static_cast<uint64_t>(m_minBps));
    }
    SetRate(DataRate(static_cast<uint64_t>(std::llround(m_rc))));
}

std::vector<std::string>
DcqcnCongestionControl::GetPresetNames()
{
    return Presets().GetNames();
}

std::string
DcqcnCongestionControl::GetDefaultPresetName()
{
    return Presets().GetDefaultName();
}

std::vector<std::pair<std::string, std::string>>
DcqcnCongestionControl::GetPreset(const std::string& name)
{
    return Presets().GetSender(name);
}

std::vector<std::pair<std::string, std::string>>
DcqcnCongestionControl::GetSwitchPreset(const std::string& name)
{
    return Presets().GetSwitches(name);
}

} // namespace ns3
