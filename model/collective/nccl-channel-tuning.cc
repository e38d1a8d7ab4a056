/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-channel-tuning.h"

#include <algorithm>

namespace ns3
{

namespace
{
constexpr uint32_t kWarp = 32;
} // namespace

uint32_t
NcclChannelTuning::MaxThreads(NcclProtocol protocol)
{
    switch (protocol)
    {
    case NcclProtocol::LL:
        return 512; // NCCL_LL_MAX_NTHREADS (src/include/device.h)
    case NcclProtocol::LL128:
        return 640; // NCCL_LL128_MAX_NTHREADS
    case NcclProtocol::SIMPLE:
    default:
        return 512; // NCCL_SIMPLE_MAX_NTHREADS (256 only over PCIe at <= PCI_BW)
    }
}

uint32_t
NcclChannelTuning::ThreadThreshold(NcclAlgorithm algorithm, NcclProtocol protocol, uint32_t ranks)
{
    switch (protocol)
    {
    case NcclProtocol::LL:
        // NCCL_LL_THREAD_THRESHOLD 8, times nRanks for the ring (ncclTopoTuneModel)
        return algorithm == NcclAlgorithm::RING ? 8 * std::max(ranks, 1u) : 8;
    case NcclProtocol::LL128:
        return 8; // NCCL_LL128_THREAD_THRESHOLD
    case NcclProtocol::SIMPLE:
    default:
        return 64; // NCCL_SIMPLE_THREAD_THRESHOLD
    }
}

uint32_t
NcclChannelTuning::Channels(NcclAlgorithm algorithm,
                            NcclProtocol protocol,
                            uint64_t bytes,
                            uint32_t ranks,
                            uint32_t commChannels)
{
    uint32_t nc = std::max(commChannels, 1u);
    if (algorithm != NcclAlgorithm::RING && algorithm != NcclAlgorithm::TREE)
    {
        return nc;
    }
    const uint64_t perChannel =
        static_cast<uint64_t>(MaxThreads(protocol)) * ThreadThreshold(algorithm, protocol, ranks);
    while (nc >= 2 && bytes < nc * perChannel)
    {
        --nc;
    }
    return nc;
}

uint32_t
NcclChannelTuning::Threads(NcclAlgorithm algorithm,
                           NcclProtocol protocol,
                           uint64_t bytes,
                           uint32_t ranks,
                           uint32_t commChannels)
{
    const uint32_t nc = Channels(algorithm, protocol, bytes, ranks, commChannels);
    uint32_t nt = MaxThreads(protocol);
    const uint64_t threshold = ThreadThreshold(algorithm, protocol, ranks);
    while (bytes < static_cast<uint64_t>(nc) * nt * threshold && nt % 128 == 0)
    {
        nt /= 2;
    }
    return std::max(nt, 3 * kWarp);
}

} // namespace ns3
