/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-size-distribution.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSizeDistribution");

NS_OBJECT_ENSURE_REGISTERED(FlowSizeDistribution);

namespace
{

// Tolerance on "ends at 100": files are often written with 2-6 decimals.
constexpr double kEndTolerancePercent = 1e-6;

[[noreturn]] void
ThrowAt(const std::string& source, uint32_t line, const std::string& text, const std::string& why)
{
    std::ostringstream os;
    os << "flow size CDF " << source;
    if (line > 0)
    {
        os << ", line " << line << " \"" << text << "\"";
    }
    os << ": " << why;
    throw std::invalid_argument(os.str());
}

std::string
Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
    {
        return "";
    }
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

} // namespace

TypeId
FlowSizeDistribution::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowSizeDistribution")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<FlowSizeDistribution>()
            .AddAttribute("Source",
                          "Flow size CDF: \"websearch\" (DCTCP paper, Alizadeh et al. 2010), "
                          "\"fbhadoop\" (Facebook Hadoop, Roy et al. 2015), both as bundled "
                          "with the HPCC-derived simulators, or a path to a file of "
                          "\"bytes cumulative-percent\" lines.",
                          StringValue("websearch"),
                          MakeStringAccessor(&FlowSizeDistribution::GetSourceName,
                                             &FlowSizeDistribution::Load),
                          MakeStringChecker());
    return tid;
}

FlowSizeDistribution::FlowSizeDistribution()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

FlowSizeDistribution::~FlowSizeDistribution()
{
    NS_LOG_FUNCTION(this);
}

void
FlowSizeDistribution::DoDispose()
{
    m_uniform = nullptr;
    Object::DoDispose();
}

std::vector<FlowSizeDistribution::Point>
FlowSizeDistribution::BuiltinPoints(const std::string& name)
{
    // (size bytes, cumulative percent) of the built-in workloads, by name
    static const std::map<std::string, std::vector<Point>> builtin = {
        {"websearch",
         {{0, 0},
          {10000, 15},
          {20000, 20},
          {30000, 30},
          {50000, 40},
          {80000, 53},
          {200000, 60},
          {1000000, 70},
          {2000000, 80},
          {5000000, 90},
          {10000000, 97},
          {30000000, 100}}},
        {"fbhadoop",
         {{0, 0},       {100, 1},     {200, 2},        {300, 5},      {350, 15},
          {400, 20},    {500, 30},    {600, 40},       {700, 50},     {1000, 60},
          {2000, 67},   {7000, 70},   {30000, 72},     {50000, 82},   {80000, 87},
          {120000, 90}, {300000, 95}, {1000000, 97.5}, {2000000, 99}, {10000000, 100}}}};
    auto it = builtin.find(name);
    return it == builtin.end() ? std::vector<Point>{} : it->second;
}

void
FlowSizeDistribution::Load(const std::string& nameOrPath)
{
    NS_LOG_FUNCTION(this << nameOrPath);
    auto builtin = BuiltinPoints(nameOrPath);
    if (!builtin.empty())
    {
        SetPoints(builtin, nameOrPath);
        return;
    }
    std::ifstream in(nameOrPath);
    if (!in)
    {
        ThrowAt(nameOrPath,
                0,
                "",
                "not a built-in name and no readable file of that name; allowed: websearch, "
                "fbhadoop, or a path to a \"bytes cumulative-percent\" CDF file");
    }
    Parse(in, nameOrPath);
}

void
FlowSizeDistribution::Parse(std::istream& in, const std::string& sourceName)
{
    std::vector<Point> points;
    std::string raw;
    uint32_t lineNo = 0;
    double prevBytes = 0;
    double prevPercent = 0;
    while (std::getline(in, raw))
    {
        ++lineNo;
        const std::string text = Trim(raw);
        if (text.empty() || text[0] == '#')
        {
            continue;
        }
        std::istringstream fields(text);
        double bytes = 0;
        double percent = 0;
        std::string extra;
        if (!(fields >> bytes >> percent) || (fields >> extra))
        {
            ThrowAt(sourceName, lineNo, text, "expected two numbers \"bytes cumulative-percent\"");
        }
        if (!std::isfinite(bytes) || bytes < 0)
        {
            ThrowAt(sourceName, lineNo, text, "bytes must be a finite number >= 0");
        }
        if (!std::isfinite(percent) || percent < 0 || percent > 100 + kEndTolerancePercent)
        {
            ThrowAt(sourceName, lineNo, text, "cumulative percent must be in [0, 100]");
        }
        if (!points.empty() && (bytes < prevBytes || percent < prevPercent))
        {
            ThrowAt(sourceName,
                    lineNo,
                    text,
                    "CDF not monotone: bytes and percent must be non-decreasing (previous point " +
                        std::to_string(prevBytes) + " " + std::to_string(prevPercent) + ")");
        }
        points.emplace_back(bytes, percent);
        prevBytes = bytes;
        prevPercent = percent;
    }
    if (points.empty())
    {
        ThrowAt(sourceName, 0, "", "no CDF points; expected lines \"bytes cumulative-percent\"");
    }
    if (std::fabs(points.back().second - 100) > kEndTolerancePercent)
    {
        ThrowAt(sourceName,
                lineNo,
                std::to_string(points.back().first) + " " + std::to_string(points.back().second),
                "the CDF must end at cumulative percent 100");
    }
    SetPoints(points, sourceName);
}

void
FlowSizeDistribution::SetPoints(const std::vector<Point>& points, const std::string& sourceName)
{
    NS_LOG_FUNCTION(this << sourceName << points.size());
    if (points.empty())
    {
        ThrowAt(sourceName, 0, "", "no CDF points");
    }
    for (size_t i = 0; i < points.size(); ++i)
    {
        const auto& p = points[i];
        const std::string text = std::to_string(p.first) + " " + std::to_string(p.second);
        if (!(p.first >= 0) || !(p.second >= 0) || p.second > 100 + kEndTolerancePercent)
        {
            ThrowAt(sourceName,
                    static_cast<uint32_t>(i + 1),
                    text,
                    "bytes must be >= 0 and percent in [0, 100]");
        }
        if (i > 0 && (p.first < points[i - 1].first || p.second < points[i - 1].second))
        {
            ThrowAt(sourceName,
                    static_cast<uint32_t>(i + 1),
                    text,
                    "CDF not monotone: bytes and percent must be non-decreasing");
        }
    }
    if (std::fabs(points.back().second - 100) > kEndTolerancePercent)
    {
        ThrowAt(sourceName, 0, "", "the CDF must end at cumulative percent 100");
    }
    m_points = points;
    m_points.back().second = 100; // absorb the tolerance so InverseCdf never runs off the end
    m_cumulative.clear();
    m_cumulative.reserve(m_points.size());
    for (const auto& p : m_points)
    {
        m_cumulative.push_back(p.second / 100.0);
    }
    m_source = sourceName;
}

const std::vector<FlowSizeDistribution::Point>&
FlowSizeDistribution::GetPoints() const
{
    return m_points;
}

std::string
FlowSizeDistribution::GetSourceName() const
{
    return m_source;
}

double
FlowSizeDistribution::GetMeanBytes() const
{
    NS_ASSERT_MSG(!m_points.empty(), "FlowSizeDistribution: no CDF loaded");
    // Atom at the first point, then uniform mass on each segment.
    double mean = m_points[0].first * m_points[0].second / 100.0;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        const double mass = (m_points[i].second - m_points[i - 1].second) / 100.0;
        mean += mass * 0.5 * (m_points[i].first + m_points[i - 1].first);
    }
    return mean;
}

double
FlowSizeDistribution::GetMaxBytes() const
{
    NS_ASSERT_MSG(!m_points.empty(), "FlowSizeDistribution: no CDF loaded");
    return m_points.back().first;
}

double
FlowSizeDistribution::InverseCdf(double u) const
{
    NS_ASSERT_MSG(!m_points.empty(), "FlowSizeDistribution: no CDF loaded");
    NS_ASSERT_MSG(u >= 0 && u < 1, "InverseCdf needs u in [0, 1), got " << u);
    // First point whose cumulative probability exceeds u; a vector search, no allocation.
    const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), u);
    const size_t i = static_cast<size_t>(it - m_cumulative.begin());
    if (i == 0)
    {
        return m_points[0].first; // inside the atom at the first point
    }
    const double p0 = m_cumulative[i - 1];
    const double p1 = m_cumulative[i];
    const double x0 = m_points[i - 1].first;
    const double x1 = m_points[i].first;
    return x0 + (u - p0) / (p1 - p0) * (x1 - x0);
}

uint64_t
FlowSizeDistribution::ToFlowSize(double bytes)
{
    const auto size = static_cast<uint64_t>(std::llround(bytes));
    return std::max<uint64_t>(size, 1);
}

uint64_t
FlowSizeDistribution::Sample()
{
    return ToFlowSize(InverseCdf(m_uniform->GetValue(0.0, 1.0)));
}

int64_t
FlowSizeDistribution::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
