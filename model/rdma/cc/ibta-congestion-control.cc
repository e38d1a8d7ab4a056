/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ibta-congestion-control.h"

#include "congestion-control-registry.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbtaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(IbtaCongestionControl);
static CongestionControlRegistration<IbtaCongestionControl> g_registration(
    "ibta",
    "InfiniBand congestion control (IBTA Vol. 1 Annex A10): each BECN raises the CCT "
    "index, a timer lowers it; the table entry is the injection delay",
    "",
    true); // FECN/ECN marks come back as BECN in CNPs

namespace
{

/// The Cct attribute's checker: a StringValue that ParseCct accepts.
class CctChecker : public StringChecker
{
  public:
    bool Check(const AttributeValue& value) const override
    {
        const auto* v = dynamic_cast<const StringValue*>(&value);
        std::vector<IbtaCongestionControl::CctEntry> table;
        std::string error;
        return v != nullptr && IbtaCongestionControl::ParseCct(v->Get(), table, error);
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::StringValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return "1 to 16384 comma-separated CCT entries shift:multiplier, shift 0-3, "
               "multiplier 0-16383";
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<StringValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* src = dynamic_cast<const StringValue*>(&source);
        auto* dst = dynamic_cast<StringValue*>(&destination);
        if (src == nullptr || dst == nullptr)
        {
            return false;
        }
        *dst = *src;
        return true;
    }
};

} // namespace

TypeId
IbtaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbtaCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<IbtaCongestionControl>()
            .AddAttribute(
                "Cct",
                "The Congestion Control Table: comma-separated entries CCT_Shift:"
                "CCT_Multiplier (2 and 14 bits, IBTA Annex A10), index 0 first; entry "
                "(s, m) delays each packet by (T >> s) x m, T one full packet's time on the "
                "line. Its last index is CCTI_Limit. Default: 128 entries, entry i = 0:i (a "
                "delay of i packet times, rate line / (1 + i)); the IBTA leaves the table to "
                "the subnet manager.",
                StringValue(DefaultCct()),
                MakeStringAccessor(&IbtaCongestionControl::SetCct,
                                   &IbtaCongestionControl::GetCctText),
                Ptr<const AttributeChecker>(ns3::Create<CctChecker>()))
            .AddAttribute("CctiIncrease",
                          "CCTI_Increase: CCT index steps per BECN (8 bits). Default 1: what "
                          "OpenSM congestion-control configurations set "
                          "(cc_ca_cong_setting_ccti_increase).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IbtaCongestionControl::m_cctiIncrease),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("CctiMin",
                          "CCTI_Min: the index the timer lowers the CCTI to, and where it "
                          "starts (8 bits; above the table's last index: that index). Default "
                          "0: no delay when uncongested (OpenSM configurations' "
                          "cc_ca_cong_setting_ccti_min).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbtaCongestionControl::m_cctiMin),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("CctiTimer",
                          "CCTI_Timer: period of the one-step decrease, in units of 1.024 us "
                          "(16 bits; 0 = never decrease). Default 16 (16.384 us): within the "
                          "2-8192 that published OpenSM tuning studies sweep; the IBTA gives no "
                          "default.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&IbtaCongestionControl::m_cctiTimer),
                          MakeUintegerChecker<uint16_t>())
            .AddTraceSource("Ccti",
                            "CCT index after each change",
                            MakeTraceSourceAccessor(&IbtaCongestionControl::m_cctiTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

IbtaCongestionControl::IbtaCongestionControl()
    : m_cctiIncrease(1),
      m_cctiMin(0),
      m_cctiTimer(16),
      m_ccti(0),
      m_becns(0),
      m_cctiTrace(0)
{
    SetCct(DefaultCct());
}

IbtaCongestionControl::~IbtaCongestionControl() = default;

std::string
IbtaCongestionControl::GetName() const
{
    return "ibta";
}

Ptr<RdmaCongestionControl>
IbtaCongestionControl::Fork() const
{
    return CopyObject<IbtaCongestionControl>(this);
}

std::string
IbtaCongestionControl::DefaultCct()
{
    std::string s;
    for (uint32_t i = 0; i < 128; ++i)
    {
        s += (i == 0 ? "" : ",") + std::string("0:") + std::to_string(i);
    }
    return s;
}

bool
IbtaCongestionControl::ParseCct(const std::string& text,
                                std::vector<CctEntry>& table,
                                std::string& error)
{
    table.clear();
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        const size_t colon = item.find(':');
        const auto digits = [](const std::string& d) {
            return !d.empty() && d.size() <= 5 &&
                   std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
        };
        if (colon == std::string::npos || !digits(item.substr(0, colon)) ||
            !digits(item.substr(colon + 1)))
        {
            error = "entry '" + item + "' is not shift:multiplier";
            return false;
        }
        const unsigned long shift = std::stoul(item.substr(0, colon));
        const unsigned long mult = std::stoul(item.substr(colon + 1));
        if (shift > 3 || mult > 16383)
        {
            error = "entry '" + item + "': shift 0-3, multiplier 0-16383";
            return false;
        }
        table.push_back({static_cast<uint8_t>(shift), static_cast<uint16_t>(mult)});
    }
    if (table.empty() || table.size() > 16384 || (!text.empty() && text.back() == ','))
    {
        error = "1 to 16384 entries";
        return false;
    }
    return true;
}

void
IbtaCongestionControl::SetCct(const std::string& text)
{
    std::string error;
    std::vector<CctEntry> table;
    if (!ParseCct(text, table, error))
    {
        NS_FATAL_ERROR("IbtaCongestionControl Cct '" << text << "': " << error);
    }
    m_cct = table;
    m_cctText = text;
}

std::string
IbtaCongestionControl::GetCctText() const
{
    return m_cctText;
}

void
IbtaCongestionControl::Start(const RdmaCcContext& ctx)
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionControl::Start(ctx);
    if (ctx.lineRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("IBTA CC: context needs a positive line rate");
    }
    m_packetTime = ctx.lineRate.CalculateBytesTxTime(ctx.wireBytes);
    m_ccti = std::min<uint16_t>(m_cctiMin, static_cast<uint16_t>(m_cct.size() - 1));
    m_becns = 0;
    Apply();
}

void
IbtaCongestionControl::Stop()
{
    m_timer.Cancel();
    RdmaCongestionControl::Stop();
}

void
IbtaCongestionControl::OnCnp()
{
    ++m_becns;
    const uint32_t limit = static_cast<uint32_t>(m_cct.size() - 1);
    m_ccti = static_cast<uint16_t>(std::min<uint32_t>(m_ccti + m_cctiIncrease, limit));
    Apply();
}

void
IbtaCongestionControl::TimerExpired()
{
    const uint16_t floor = std::min<uint16_t>(m_cctiMin, static_cast<uint16_t>(m_cct.size() - 1));
    if (m_ccti > floor)
    {
        --m_ccti;
    }
    Apply();
}

Time
IbtaCongestionControl::GetInjectionDelay() const
{
    const CctEntry& e = m_cct[m_ccti];
    // (T >> shift) x multiplier, in time steps
    return TimeStep((m_packetTime.GetTimeStep() >> e.shift) * e.multiplier);
}

void
IbtaCongestionControl::Apply()
{
    m_cctiTrace.Set(m_ccti);
    const double t = static_cast<double>(m_packetTime.GetTimeStep());
    const double d = static_cast<double>(GetInjectionDelay().GetTimeStep());
    const double line = static_cast<double>(m_ctx.lineRate.GetBitRate());
    SetRate(DataRate(static_cast<uint64_t>(line * t / (t + d) + 0.5)));
    const uint16_t floor = std::min<uint16_t>(m_cctiMin, static_cast<uint16_t>(m_cct.size() - 1));
    if (m_ccti > floor && m_cctiTimer > 0 && !m_timer.IsRunning())
    {
        // 1.024 us units (IBTA Annex A10; the Linux hfi1 driver's 1024 ns per unit)
        m_timer = Simulator::Schedule(NanoSeconds(1024) * m_cctiTimer,
                                      &IbtaCongestionControl::TimerExpired,
                                      this);
    }
}

uint16_t
IbtaCongestionControl::GetCcti() const
{
    return m_ccti;
}

uint64_t
IbtaCongestionControl::GetBecns() const
{
    return m_becns;
}

} // namespace ns3
