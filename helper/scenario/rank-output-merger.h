/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANK_OUTPUT_MERGER_H
#define RANK_OUTPUT_MERGER_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class OutputWriter;

/**
 * \ingroup ai-fabric
 * \brief Merges the CSV rows the ranks of an MPI run wrote (each rank the rows of the
 * nodes it simulates, in its own part folder) into one output directory, as one process
 * writes it (doc/distributed.md, The scenario runner across ranks).
 *
 * fct.csv, pfc.csv, qlen.csv and drops.csv are read from every part folder, each part
 * keyed by its key columns (a rank writes rows in simulated-time order, so a part is
 * sorted already unless equal times came in another order; then those are sorted), and
 * the parts merged row by row into an OutputWriter (which recomputes slowdowns and the
 * FCT statistics). Memory: one file's parts at a time, their text and keys. Order:
 * fct.csv by completion time (start_ns + fct_ns), then flow_id; pfc.csv by time_ns,
 * node, port, priority, event; qlen.csv by time_ns, node, port, queue; drops.csv by
 * time_ns, node, port, reason. Rows of time-stamped files later
 * than the run's end (the ranks stop at a completion check after it) are left out.
 */
class RankOutputMerger
{
  public:
    /**
     * \param parts the ranks' part folders, rank order
     * \param endNs the run's end: rows of pfc.csv, qlen.csv and drops.csv after it are
     *        left out (< 0: none)
     * \param into the writer of the merged directory (its files open, no rows yet)
     * \throws OutputError naming a part file that cannot be read or a row it cannot parse
     */
    static void Merge(const std::vector<std::string>& parts, int64_t endNs, OutputWriter& into);
};

} // namespace ns3

#endif // RANK_OUTPUT_MERGER_H
