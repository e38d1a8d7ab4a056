/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PSN_H
#define RDMA_PSN_H

#include <cstdint>

namespace ns3
{

/// The BTH carries the low 24 bits of a PSN (IBTA vol. 1, 9.2).
constexpr uint64_t RDMA_PSN_MASK = 0xFFFFFF;

/**
 * \ingroup ai-fabric
 * The 64-bit PSN nearest to \p reference whose low 24 bits are \p wirePsn: a
 * queue pair counts PSNs in 64 bits and compares what the wire carries with the
 * PSN it expects (responder) or the oldest unacknowledged one (requester).
 */
inline uint64_t
UnwrapPsn(uint32_t wirePsn, uint64_t reference)
{
    const uint64_t base = reference & ~RDMA_PSN_MASK;
    uint64_t candidate = base | wirePsn;
    const uint64_t half = (RDMA_PSN_MASK + 1) / 2;
    if (candidate + half < reference)
    {
        candidate += RDMA_PSN_MASK + 1;
    }
    else if (candidate > reference + half && candidate >= RDMA_PSN_MASK + 1)
    {
        candidate -= RDMA_PSN_MASK + 1;
    }
    return candidate;
}

} // namespace ns3

#endif // RDMA_PSN_H
