/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_METRICS_H
#define COLLECTIVE_METRICS_H

#include "ns3/ai-fabric-deprecated.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The collective operations; names as in the scenario runner's --workload flag.
 */
enum class CollectiveOp
{
    ALLREDUCE,
    REDUCE_SCATTER,
    ALL_GATHER,
    ALL_TO_ALL,
    BROADCAST,
    REDUCE
};

/// "allreduce", "reducescatter", "allgather", "alltoall", "broadcast", "reduce".
std::string CollectiveOpToString(CollectiveOp op);
/// Inverse of CollectiveOpToString; throws std::invalid_argument listing the allowed names.
CollectiveOp CollectiveOpFromString(const std::string& name);

/**
 * \ingroup ai-fabric
 * One finished collective operation: a row of collective.csv.
 *
 * Bandwidths are in GB/s (1e9 bytes per second), the unit nccl-tests prints; the
 * field names say so (algbwGBps). collective.csv and summary.json carry 8 x these
 * values, in Gbit/s (algbw_gbps, busbw_gbps).
 */
struct CollectiveRecord
{
    uint64_t opId{0};      //!< sequence number of the operation within its application
    std::string operation; //!< CollectiveOpToString of the op
    std::string algorithm; //!< "ring", "tree", "hd", "2d", "pairwise"
    uint32_t job{0};       //!< job (communicator) index within the application
    uint32_t iteration{0}; //!< iteration of the training loop, from 0
    uint32_t ranks{0};     //!< communicator size N
    uint64_t bytes{0};     //!< S: bytes per rank (nccl-tests "size")
    int64_t startNs{0};    //!< when the operation was started
    int64_t endNs{0};      //!< when its last transfer completed
    int64_t durationNs{0}; //!< endNs - startNs

    // The names before commit 8abbc0e, kept for one release as deprecated aliases of
    // the same storage (CHANGES.md): an anonymous union gives each GB/s value a second
    // name, so old code reads and writes it unchanged, with a warning, while the
    // layout, size, copies and aggregate initialisation stay those of the new names.
    union {
        double algbwGBps{0}; //!< S / duration, GB/s
        /// \deprecated the same value as algbwGBps (GB/s despite its spelling)
        AI_FABRIC_DEPRECATED("CollectiveRecord::algbwGbps held GB/s, not Gbit/s: use algbwGBps "
                             "(same value; see CHANGES.md)")
        double algbwGbps;
    };

    union {
        double busbwGBps{0}; //!< algbw x BusBwFactor, GB/s
        /// \deprecated the same value as busbwGBps (GB/s despite its spelling)
        AI_FABRIC_DEPRECATED("CollectiveRecord::busbwGbps held GB/s, not Gbit/s: use busbwGBps "
                             "(same value; see CHANGES.md)")
        double busbwGbps;
    };
};

/**
 * \ingroup ai-fabric
 * \brief nccl-tests' bandwidth definitions (doc/PERFORMANCE.md of nccl-tests).
 *
 * algbw = S / t. busbw = algbw x factor, where the factor makes busbw comparable
 * to the link bandwidth for an optimal algorithm: 2(N-1)/N for allreduce,
 * (N-1)/N for reduce-scatter, all-gather and all-to-all, 1 for broadcast and reduce.
 */
class CollectiveMetrics
{
  public:
    /// busbw / algbw for op on n ranks (0 ranks gives 0).
    static double BusBwFactor(CollectiveOp op, uint32_t n);
    /// bytes / durationNs in GB/s (1e9 B/s); 0 if durationNs <= 0.
    static double AlgBwGBps(uint64_t bytes, int64_t durationNs);
    /// AlgBwGBps x BusBwFactor.
    static double BusBwGBps(CollectiveOp op, uint32_t n, uint64_t bytes, int64_t durationNs);
    /// Fills durationNs, algbw and busbw of a record from its other fields.
    static CollectiveRecord MakeRecord(uint64_t opId,
                                       CollectiveOp op,
                                       const std::string& algorithm,
                                       uint32_t job,
                                       uint32_t iteration,
                                       uint32_t ranks,
                                       uint64_t bytes,
                                       int64_t startNs,
                                       int64_t endNs);
    /// "op_id,algorithm,ranks,bytes,start_ns,end_ns,duration_ns,algbw_gbps,busbw_gbps"
    static std::string CsvHeader();
    /// One collective.csv row (no newline), columns as CsvHeader: the bandwidths in
    /// Gbit/s (8 x the record's GB/s), as their column names and collective.csv say.
    static std::string ToCsvRow(const CollectiveRecord& r);
};

} // namespace ns3

#endif // COLLECTIVE_METRICS_H
