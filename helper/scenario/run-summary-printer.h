/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RUN_SUMMARY_PRINTER_H
#define RUN_SUMMARY_PRINTER_H

#include <nlohmann/json_fwd.hpp>
#include <ostream>

namespace ns3
{

/**
 * \brief Print a short human-readable block from a run's summary JSON: what was
 * simulated (fabric, topology and size, workload), whether it completed, the
 * headline numbers (sim and wall time, events, FCT slowdown p50/p99, collective
 * time and busbw, drops lossless/lossy, pause frames, retransmissions) and where
 * the files are.
 *
 * Missing keys are skipped, so it works on partial summaries too.
 * \param os the stream
 * \param summary the summary (as written to summary.json)
 */
void PrintRunSummary(std::ostream& os, const nlohmann::json& summary);

} // namespace ns3

#endif // RUN_SUMMARY_PRINTER_H
