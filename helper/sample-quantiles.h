/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SAMPLE_QUANTILES_H
#define SAMPLE_QUANTILES_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The \p q quantile (0..1) of \p n > 0 ascending values, value i being \p at(i),
 * interpolated linearly between the closest ranks (numpy's default, "linear"): what
 * summary.json's FCT and slowdown percentiles report (OutputWriter::Percentile,
 * FctSample::Stats).
 */
template <typename At>
double
InterpolatedQuantile(std::size_t n, At at, double q)
{
    const double pos = q * static_cast<double>(n - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, n - 1);
    const double frac = pos - static_cast<double>(lo);
    return at(lo) + (at(hi) - at(lo)) * frac;
}

/**
 * \ingroup ai-fabric
 * The nearest-rank percentile \p p (0 < p <= 1) of ascending values: the smallest value
 * with at least p of them at or below it; 0 for no values. What the collective and
 * training summaries report as p50 and p99 of their durations.
 */
inline int64_t
NearestRankPercentile(const std::vector<int64_t>& sorted, double p)
{
    if (sorted.empty())
    {
        return 0;
    }
    auto rank = static_cast<std::size_t>(std::ceil(p * sorted.size()));
    rank = std::min(std::max<std::size_t>(rank, 1), sorted.size());
    return sorted[rank - 1];
}

} // namespace ns3

#endif // SAMPLE_QUANTILES_H
