/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-metrics.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

std::string
CollectiveOpToString(CollectiveOp op)
{
    switch (op)
    {
    case CollectiveOp::ALLREDUCE:
        return "allreduce";
    case CollectiveOp::REDUCE_SCATTER:
        return "reducescatter";
    case CollectiveOp::ALL_GATHER:
        return "allgather";
    case CollectiveOp::ALL_TO_ALL:
        return "alltoall";
    case CollectiveOp::BROADCAST:
        return "broadcast";
    case CollectiveOp::REDUCE:
        return "reduce";
    }
    return "unknown";
}

CollectiveOp
CollectiveOpFromString(const std::string& name)
{
    for (auto op : {CollectiveOp::ALLREDUCE,
                    CollectiveOp::REDUCE_SCATTER,
                    CollectiveOp::ALL_GATHER,
                    CollectiveOp::ALL_TO_ALL,
                    CollectiveOp::BROADCAST,
                    CollectiveOp::REDUCE})
    {
        if (CollectiveOpToString(op) == name)
        {
            return op;
        }
    }
    throw std::invalid_argument("unknown collective operation '" + name +
                                "'; allowed: allreduce, reducescatter, allgather, alltoall, "
                                "broadcast, reduce");
}

double
CollectiveMetrics::BusBwFactor(CollectiveOp op, uint32_t n)
{
    if (n == 0)
    {
        return 0.0;
    }
    switch (op)
    {
    case CollectiveOp::ALLREDUCE:
        return 2.0 * (n - 1) / n;
    case CollectiveOp::REDUCE_SCATTER:
    case CollectiveOp::ALL_GATHER:
    case CollectiveOp::ALL_TO_ALL:
        return static_cast<double>(n - 1) / n;
    case CollectiveOp::BROADCAST:
    case CollectiveOp::REDUCE:
        return 1.0;
    }
    return 0.0;
}

double
CollectiveMetrics::AlgBwGBps(uint64_t bytes, int64_t durationNs)
{
    // bytes per nanosecond is exactly 1e9 bytes per second
    return durationNs > 0 ? static_cast<double>(bytes) / static_cast<double>(durationNs) : 0.0;
}

double
CollectiveMetrics::BusBwGBps(CollectiveOp op, uint32_t n, uint64_t bytes, int64_t durationNs)
{
    return AlgBwGBps(bytes, durationNs) * BusBwFactor(op, n);
}

CollectiveRecord
CollectiveMetrics::MakeRecord(uint64_t opId,
                              CollectiveOp op,
                              const std::string& algorithm,
                              uint32_t job,
                              uint32_t iteration,
                              uint32_t ranks,
                              uint64_t bytes,
                              int64_t startNs,
                              int64_t endNs)
{
    CollectiveRecord r;
    r.opId = opId;
    r.operation = CollectiveOpToString(op);
    r.algorithm = algorithm;
    r.job = job;
    r.iteration = iteration;
    r.ranks = ranks;
    r.bytes = bytes;
    r.startNs = startNs;
    r.endNs = endNs;
    r.durationNs = endNs - startNs;
    r.algbwGBps = AlgBwGBps(bytes, r.durationNs);
    r.busbwGBps = BusBwGBps(op, ranks, bytes, r.durationNs);
    return r;
}

std::string
CollectiveMetrics::CsvHeader()
{
    return "op_id,algorithm,ranks,bytes,start_ns,end_ns,duration_ns,algbw_gbps,busbw_gbps";
}

std::string
CollectiveMetrics::ToCsvRow(const CollectiveRecord& r)
{
    std::ostringstream os;
    os << r.opId << ',' << r.algorithm << ',' << r.ranks << ',' << r.bytes << ',' << r.startNs
       << ',' << r.endNs << ',' << r.durationNs << ',' << std::setprecision(6) << std::fixed
       << 8.0 * r.algbwGBps << ',' << 8.0 * r.busbwGBps; // GB/s -> Gbit/s
    return os.str();
}

} // namespace ns3
