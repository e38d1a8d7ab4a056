/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fct-sample.h"

#include "sample-quantiles.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ns3
{

namespace
{

/// The statistics of a sample whose i-th value in ascending order is \p at(i): those
/// OutputWriter's percentiles of the sorted doubles give, the mean summed in that order.
template <typename At>
nlohmann::json
SortedStats(std::size_t n, At at)
{
    nlohmann::json j;
    if (n == 0)
    {
        for (const char* key : {"p50", "p90", "p99", "p999", "max", "mean"})
        {
            j[key] = nullptr;
        }
        return j;
    }
    j["p50"] = InterpolatedQuantile(n, at, 0.50);
    j["p90"] = InterpolatedQuantile(n, at, 0.90);
    j["p99"] = InterpolatedQuantile(n, at, 0.99);
    j["p999"] = InterpolatedQuantile(n, at, 0.999);
    j["max"] = at(n - 1);
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i)
    {
        sum += at(i);
    }
    j["mean"] = sum / n;
    return j;
}

/// A row's slowdown, as the writer computes it
template <typename T>
double
Slowdown(const std::pair<T, T>& row)
{
    return static_cast<double>(row.first) / static_cast<double>(row.second);
}

} // namespace

void
FctSample::AddWide(int64_t fctNs, int64_t idealFctNs)
{
    if (m_wide.empty())
    {
        m_wide.reserve(m_narrow.size() + 1);
        for (const auto& [fct, ideal] : m_narrow)
        {
            m_wide.emplace_back(fct, ideal);
        }
        std::vector<std::pair<uint32_t, uint32_t>>().swap(m_narrow);
    }
    m_wide.emplace_back(fctNs, idealFctNs);
}

void
FctSample::Append(const FctSample& other)
{
    for (const auto& [fct, ideal] : other.m_narrow)
    {
        Add(fct, ideal);
    }
    for (const auto& [fct, ideal] : other.m_wide)
    {
        Add(fct, ideal);
    }
}

nlohmann::json
FctSample::Stats()
{
    nlohmann::json j;
    j["count"] = static_cast<std::size_t>(Size());
    if (m_wide.empty())
    {
        auto& rows = m_narrow;
        // fct / ideal exactly (ideal > 0, products < 2^64): division rounds monotonically,
        // so the doubles come out ascending
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return static_cast<uint64_t>(a.first) * b.second <
                   static_cast<uint64_t>(b.first) * a.second;
        });
        j["slowdown"] =
            SortedStats(rows.size(), [&rows](std::size_t i) { return Slowdown(rows[i]); });
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
            return a.first < b.first;
        });
        j["fct_ns"] = SortedStats(rows.size(), [&rows](std::size_t i) {
            return static_cast<double>(rows[i].first);
        });
        return j;
    }
    // 64-bit values may round as doubles: sort by the doubles themselves
    auto& rows = m_wide;
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return Slowdown(a) < Slowdown(b);
    });
    j["slowdown"] = SortedStats(rows.size(), [&rows](std::size_t i) { return Slowdown(rows[i]); });
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return static_cast<double>(a.first) < static_cast<double>(b.first);
    });
    j["fct_ns"] = SortedStats(rows.size(), [&rows](std::size_t i) {
        return static_cast<double>(rows[i].first);
    });
    return j;
}

} // namespace ns3
