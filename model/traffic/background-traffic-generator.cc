/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "background-traffic-generator.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rounded-time.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BackgroundTrafficGenerator");

NS_OBJECT_ENSURE_REGISTERED(BackgroundTrafficGenerator);

TypeId
BackgroundTrafficGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BackgroundTrafficGenerator")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<BackgroundTrafficGenerator>()
            .AddAttribute("Load",
                          "Offered load per host as a fraction of HostRate, in (0, 1]. "
                          "Default 0.5 (a mid-range point of the HPCC and DCQCN evaluations).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&BackgroundTrafficGenerator::m_load),
                          MakeDoubleChecker<double>())
            .AddAttribute("HostRate",
                          "Host link rate (bit/s) that Load refers to; default 100 Gb/s, "
                          "the module's default host link.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&BackgroundTrafficGenerator::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("Distribution",
                          "Flow size CDF: websearch, fbhadoop or a CDF file path "
                          "(see FlowSizeDistribution).",
                          StringValue("websearch"),
                          MakeStringAccessor(&BackgroundTrafficGenerator::m_distName),
                          MakeStringChecker())
            .AddAttribute("StartTime",
                          "Start of the arrival window (s); default 0.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&BackgroundTrafficGenerator::m_startTime),
                          MakeTimeChecker())
            .AddAttribute("StopTime",
                          "End of the arrival window (s): no flow starts at or after it. "
                          "Default 10 ms, a few hundred websearch flows per host at 50% load.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&BackgroundTrafficGenerator::m_stopTime),
                          MakeTimeChecker())
            .AddAttribute("MaxFlows",
                          "Stop after this many Poisson flows in total (earliest first); "
                          "0 = no limit (StopTime alone ends generation).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&BackgroundTrafficGenerator::m_maxFlows),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Priority",
                          "Priority (traffic class, 0..7) of generated flows; default 3, the "
                          "class the HPCC-derived simulators' flow files use.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&BackgroundTrafficGenerator::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("DestinationPort",
                          "Destination port of generated flows; default 100 as in the "
                          "HPCC-derived simulators' flow files.",
                          UintegerValue(100),
                          MakeUintegerAccessor(&BackgroundTrafficGenerator::m_dport),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("IncastFanIn",
                          "Senders per incast burst (distinct, != receiver); 0 disables "
                          "incast bursts.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&BackgroundTrafficGenerator::m_incastFanIn),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IncastBytes",
                          "Bytes per incast flow; default 64 KB, a partition-aggregate "
                          "response size in the incast literature.",
                          UintegerValue(64000),
                          MakeUintegerAccessor(&BackgroundTrafficGenerator::m_incastBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("IncastPeriod",
                          "Time between incast bursts (s); bursts at StartTime + k x period, "
                          "k = 1, 2, ... before StopTime.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&BackgroundTrafficGenerator::m_incastPeriod),
                          MakeTimeChecker())
            .AddTraceSource("Flow",
                            "A generated flow (after ids are assigned).",
                            MakeTraceSourceAccessor(&BackgroundTrafficGenerator::m_flowTrace),
                            "ns3::BackgroundTrafficGenerator::FlowTracedCallback");
    return tid;
}

BackgroundTrafficGenerator::BackgroundTrafficGenerator()
    : m_gapRng(CreateObject<ExponentialRandomVariable>()),
      m_dstRng(CreateObject<UniformRandomVariable>()),
      m_sizeRng(CreateObject<UniformRandomVariable>()),
      m_incastRng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
    // Unit mean, no bound: gaps are scaled by the mean gap at generation time.
    m_gapRng->SetAttribute("Mean", DoubleValue(1.0));
    m_gapRng->SetAttribute("Bound", DoubleValue(0.0));
}

BackgroundTrafficGenerator::~BackgroundTrafficGenerator()
{
    NS_LOG_FUNCTION(this);
}

void
BackgroundTrafficGenerator::DoDispose()
{
    m_dist = nullptr;
    m_gapRng = nullptr;
    m_dstRng = nullptr;
    m_sizeRng = nullptr;
    m_incastRng = nullptr;
    Object::DoDispose();
}

int64_t
BackgroundTrafficGenerator::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_gapRng->SetStream(stream);
    m_dstRng->SetStream(stream + 1);
    m_sizeRng->SetStream(stream + 2);
    m_incastRng->SetStream(stream + 3);
    return 4;
}

void
BackgroundTrafficGenerator::EnsureDistribution()
{
    if (!m_dist || m_dist->GetSourceName() != m_distName)
    {
        auto dist = CreateObject<FlowSizeDistribution>();
        dist->Load(m_distName); // throws std::invalid_argument with file and line
        m_dist = dist;
    }
}

Ptr<FlowSizeDistribution>
BackgroundTrafficGenerator::GetDistribution()
{
    EnsureDistribution();
    return m_dist;
}

Time
BackgroundTrafficGenerator::GetMeanInterArrival()
{
    EnsureDistribution();
    const double bps = static_cast<double>(m_hostRate.GetBitRate());
    return RoundedSeconds(m_dist->GetMeanBytes() * 8.0 / (bps * m_load));
}

void
BackgroundTrafficGenerator::Validate(uint32_t numHosts) const
{
    auto fail = [](const std::string& what) {
        throw std::invalid_argument("BackgroundTrafficGenerator: " + what);
    };
    std::ostringstream os;
    if (numHosts < 2)
    {
        os << "needs at least 2 hosts, got " << numHosts;
        fail(os.str());
    }
    if (!(m_load > 0 && m_load <= 1))
    {
        os << "Load " << m_load << " out of range; allowed: (0, 1] (fraction of HostRate)";
        fail(os.str());
    }
    if (m_hostRate.GetBitRate() == 0)
    {
        fail("HostRate 0 bps; allowed: a positive rate such as 100Gbps");
    }
    if (m_startTime.IsStrictlyNegative() || m_stopTime <= m_startTime)
    {
        os << "window StartTime " << m_startTime.As(Time::US) << " .. StopTime "
           << m_stopTime.As(Time::US) << " is empty; allowed: 0 <= StartTime < StopTime";
        fail(os.str());
    }
    if (m_incastFanIn > 0)
    {
        if (m_incastFanIn > numHosts - 1)
        {
            os << "IncastFanIn " << m_incastFanIn << " exceeds the " << numHosts - 1
               << " possible senders; allowed: 0 .. hosts-1";
            fail(os.str());
        }
        if (m_incastBytes == 0)
        {
            fail("IncastBytes 0; allowed: >= 1 byte");
        }
        if (!m_incastPeriod.IsStrictlyPositive())
        {
            os << "IncastPeriod " << m_incastPeriod.As(Time::US) << "; allowed: > 0";
            fail(os.str());
        }
    }
}

std::vector<FlowSpec>
BackgroundTrafficGenerator::Generate(uint32_t numHosts)
{
    NS_LOG_FUNCTION(this << numHosts);
    Validate(numHosts);
    EnsureDistribution();

    const double bps = static_cast<double>(m_hostRate.GetBitRate());
    const double meanGapS = m_dist->GetMeanBytes() * 8.0 / (bps * m_load);
    const double startS = m_startTime.GetSeconds();
    const double stopS = m_stopTime.GetSeconds();
    NS_LOG_INFO("mean size " << m_dist->GetMeanBytes() << " B, mean gap per host " << meanGapS
                             << " s");

    std::vector<FlowSpec> flows;
    // Per-host clocks kept in double seconds so ns rounding does not accumulate;
    // a min-heap merges the hosts' processes in time order (ties: lower host first),
    // which is what makes MaxFlows keep the globally earliest flows.
    using Arrival = std::pair<double, uint32_t>;
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> next;
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        next.emplace(startS + m_gapRng->GetValue() * meanGapS, h);
    }
    uint64_t poissonCount = 0;
    while (!next.empty())
    {
        const auto [t, src] = next.top();
        next.pop();
        if (t >= stopS || (m_maxFlows > 0 && poissonCount >= m_maxFlows))
        {
            break; // the heap top is the earliest, so nothing later qualifies
        }
        FlowSpec f;
        f.src = src;
        uint32_t dst = m_dstRng->GetInteger(0, numHosts - 2);
        f.dst = dst >= src ? dst + 1 : dst; // uniform over the other hosts
        f.sizeBytes = FlowSizeDistribution::ToFlowSize(m_dist->InverseCdf(m_sizeRng->GetValue()));
        f.start = RoundedSeconds(t);
        f.priority = m_priority;
        f.dport = m_dport;
        flows.push_back(f);
        ++poissonCount;
        next.emplace(t + m_gapRng->GetValue() * meanGapS, src);
    }

    if (m_incastFanIn > 0)
    {
        std::vector<uint32_t> candidates(numHosts);
        for (Time burst = m_startTime + m_incastPeriod; burst < m_stopTime; burst += m_incastPeriod)
        {
            const uint32_t receiver = m_incastRng->GetInteger(0, numHosts - 1);
            // Partial Fisher-Yates over the other hosts picks distinct senders.
            candidates.clear();
            for (uint32_t h = 0; h < numHosts; ++h)
            {
                if (h != receiver)
                {
                    candidates.push_back(h);
                }
            }
            for (uint32_t k = 0; k < m_incastFanIn; ++k)
            {
                const auto last = static_cast<uint32_t>(candidates.size() - 1);
                const uint32_t j = m_incastRng->GetInteger(k, last);
                std::swap(candidates[k], candidates[j]);
                FlowSpec f;
                f.src = candidates[k];
                f.dst = receiver;
                f.sizeBytes = m_incastBytes;
                f.start = burst;
                f.priority = m_priority;
                f.dport = m_dport;
                flows.push_back(f);
            }
        }
    }

    // Stable: equal start times keep generation order, so ids are reproducible.
    std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
        return a.start < b.start;
    });
    for (size_t i = 0; i < flows.size(); ++i)
    {
        flows[i].id = i;
        m_flowTrace(flows[i]);
    }
    NS_LOG_INFO("generated " << flows.size() << " flows (" << poissonCount << " Poisson)");
    return flows;
}

} // namespace ns3
