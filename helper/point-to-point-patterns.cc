/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "point-to-point-patterns.h"

#include "message-kind.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

PointToPointPattern
PointToPointPatterns::Incast(const PointToPointOptions& o, uint32_t n, Ptr<UniformRandomVariable>)
{
    if (o.fanin == 0 || o.fanin >= n)
    {
        throw std::invalid_argument("--fanin: " + std::to_string(o.fanin) + " senders need " +
                                    std::to_string(o.fanin + 1) + " hosts, the topology has " +
                                    std::to_string(n) + " (allowed 1.." + std::to_string(n - 1) +
                                    ")");
    }
    PointToPointPattern p;
    p.bytes = o.bytes;
    p.kind = KIND_INCAST;
    // Host 0 receives; the senders are the hosts farthest from it in rank order
    // (other leaves first), so the incast crosses the fabric.
    for (uint32_t i = 0; i < o.fanin; ++i)
    {
        p.pairs.emplace_back(n - 1 - i, 0);
    }
    return p;
}

PointToPointPattern
PointToPointPatterns::Permutation(const PointToPointOptions& o,
                                  uint32_t n,
                                  Ptr<UniformRandomVariable> rng)
{
    // A random derangement: every host sends to one distinct other host.
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    bool ok = false;
    while (!ok)
    {
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(perm[i], perm[rng->GetInteger(0, i)]);
        }
        ok = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            ok = ok && perm[i] != i;
        }
    }
    PointToPointPattern p;
    p.bytes = o.bytes;
    p.kind = KIND_PERMUTATION;
    for (uint32_t i = 0; i < n; ++i)
    {
        p.pairs.emplace_back(i, perm[i]);
    }
    return p;
}

PointToPointPattern
PointToPointPatterns::AllToAll(const PointToPointOptions& o, uint32_t n, Ptr<UniformRandomVariable>)
{
    PointToPointPattern p;
    // nccl-tests semantics: each rank's buffer of `bytes` is split among all ranks.
    p.bytes = std::max<uint64_t>(1, o.bytes / n);
    p.kind = KIND_ALLTOALL;
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 1; d < n; ++d)
        {
            p.pairs.emplace_back(s, (s + d) % n);
        }
    }
    return p;
}

static WorkloadRegistration g_incast({"incast",
                                      "--fanin hosts send --bytes each to host 0 at once",
                                      WorkloadRegistry::POINT_TO_POINT,
                                      &PointToPointPatterns::Incast});
static WorkloadRegistration g_permutation({"permutation",
                                           "every host sends --bytes to another, a random "
                                           "derangement",
                                           WorkloadRegistry::POINT_TO_POINT,
                                           &PointToPointPatterns::Permutation});
static WorkloadRegistration g_allToAll({"alltoall",
                                        "every host sends --bytes / hosts to each other host "
                                        "as nccl-tests' all-to-all does",
                                        WorkloadRegistry::POINT_TO_POINT,
                                        &PointToPointPatterns::AllToAll});

/// On GPU servers the all-to-all is NCCL's (CollectiveWorkload, PairwiseAllToAll's rounds
/// over servers): its sends leave on the destination's rail and report busbw.
static struct AllToAllOnServers
{
    AllToAllOnServers()
    {
        WorkloadRegistry::SetServerFamily("alltoall", WorkloadRegistry::COLLECTIVE);
    }
} g_allToAllOnServers;

} // namespace ns3
