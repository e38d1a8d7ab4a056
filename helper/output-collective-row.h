/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OUTPUT_COLLECTIVE_ROW_H
#define OUTPUT_COLLECTIVE_ROW_H

#include <cstdint>
#include <string>

namespace ns3
{

/// One finished collective: a row of collective.csv (named so as not to clash with
/// model/collective's CollectiveRecord). Declared in helper/ so that CollectiveWorkload
/// reports rows without including the scenario layer's OutputWriter.
struct OutputCollectiveRow
{
    uint64_t opId{0};      ///< collective operation id
    std::string algorithm; ///< ring, tree, hd, 2d (no commas)
    uint32_t ranks{0};     ///< participating ranks
    uint64_t bytes{0};     ///< buffer size S, bytes
    int64_t startNs{0};    ///< start, ns
    int64_t endNs{0};      ///< end, ns (duration_ns = end - start)
    double algbwGbps{
        0}; ///< nccl-tests algbw = S / t in Gbit/s (8 x GB/s), as the caller computes it
    double busbwGbps{0};            ///< nccl-tests busbw = algbw x the operation's factor, Gbit/s
    std::string protocol{"simple"}; ///< NCCL protocol it ran with: ll, ll128, simple
};

} // namespace ns3

#endif // OUTPUT_COLLECTIVE_ROW_H
