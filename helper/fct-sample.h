/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FCT_SAMPLE_H
#define FCT_SAMPLE_H

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The FCTs and ideal FCTs of fct.csv's rows (of one kind, or of several), kept
 * for summary.json's percentiles in the smallest exact form: two 32-bit nanosecond
 * counts per row while every value fits (FCTs under 4.29 s), two 64-bit ones otherwise.
 *
 * A row's slowdown is fct / ideal as doubles, computed when the statistics are asked
 * for; sorting the rows by it gives the same ascending sequence of doubles as sorting
 * the slowdowns themselves, so every percentile, the maximum and the mean (summed in
 * ascending order) are those of the doubles the writer once held (8 bytes per row here
 * against 32 with a kind's sample and the whole run's held apart).
 */
class FctSample
{
  public:
    /// Adds a row: FCT \p fctNs and ideal FCT \p idealFctNs (> 0), in ns.
    void Add(int64_t fctNs, int64_t idealFctNs)
    {
        if (m_wide.empty() && fctNs >= 0 && fctNs <= UINT32_MAX && idealFctNs > 0 &&
            idealFctNs <= UINT32_MAX)
        {
            m_narrow.emplace_back(static_cast<uint32_t>(fctNs), static_cast<uint32_t>(idealFctNs));
            return;
        }
        AddWide(fctNs, idealFctNs);
    }

    /// Adds every row of \p other.
    void Append(const FctSample& other);

    /// \return the rows added
    uint64_t Size() const
    {
        return m_narrow.size() + m_wide.size();
    }

    /**
     * \return {"count": n, "slowdown": {"p50","p90","p99","p999","max","mean"},
     *          "fct_ns": {same keys}}; the statistics are null when n == 0 (reorders the
     *          rows, which the statistics do not depend on)
     */
    nlohmann::json Stats();

  private:
    /// Add's case of a value that does not fit 32 bits (or of rows already wide).
    void AddWide(int64_t fctNs, int64_t idealFctNs);

    std::vector<std::pair<uint32_t, uint32_t>> m_narrow; //!< (fct, ideal) while all fit
    std::vector<std::pair<int64_t, int64_t>> m_wide;     //!< (fct, ideal) once one did not
};

} // namespace ns3

#endif // FCT_SAMPLE_H
