/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POINT_TO_POINT_PATTERNS_H
#define POINT_TO_POINT_PATTERNS_H

#include "ns3/random-variable-stream.h"
#include "ns3/workload-registry.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The point-to-point workloads (--workload=incast, permutation, alltoall):
 * the messages each posts at time 0, registered in WorkloadRegistry.
 */
class PointToPointPatterns
{
  public:
    /// --fanin hosts, the farthest from host 0 in rank order, each send --bytes to host 0.
    static PointToPointPattern Incast(const PointToPointOptions& o,
                                      uint32_t nHosts,
                                      Ptr<UniformRandomVariable> rng);
    /// A random derangement drawn from \p rng: every host sends --bytes to one other host.
    static PointToPointPattern Permutation(const PointToPointOptions& o,
                                           uint32_t nHosts,
                                           Ptr<UniformRandomVariable> rng);
    /// nccl-tests' all-to-all: each host sends --bytes / nHosts to every other host.
    static PointToPointPattern AllToAll(const PointToPointOptions& o,
                                        uint32_t nHosts,
                                        Ptr<UniformRandomVariable> rng);
};

} // namespace ns3

#endif // POINT_TO_POINT_PATTERNS_H
