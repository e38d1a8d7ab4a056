/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_CHANNEL_TUNING_H
#define NCCL_CHANNEL_TUNING_H

#include "ns3/nccl-tuning-model.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief How many of a communicator's channels NCCL gives one ring or tree collective,
 * and how many threads each channel's block runs, from the size of the call.
 *
 * NCCL 2.30.7's topoGetAlgoInfo (src/enqueue.cc), after the tuner has picked the
 * algorithm and protocol: starting from the communicator's channels and the
 * protocol's most threads per block (maxThreads, src/graph/tuning.cc: LL 512, LL128
 * 640, Simple 512 on NVLink), it drops one channel at a time while
 * bytes < channels x threads x threadThreshold, then halves the threads (while a
 * multiple of 128) under the same test, and raises them to at least 3 warps. The
 * threshold is bytes per thread: LL 8 x ranks for the ring (8 for the tree), LL128 8,
 * Simple 64 (src/include/comm.h, ncclTopoTuneModel). On 8 ranks the ring with LL
 * therefore runs on one channel up to 64 KiB - 1 and adds one channel per 32 KiB.
 * NVLS, CollNet and the other algorithms keep their own counts (not handled here).
 */
class NcclChannelTuning
{
  public:
    /// NCCL_LL_MAX_NTHREADS, NCCL_LL128_MAX_NTHREADS, NCCL_SIMPLE_MAX_NTHREADS.
    static uint32_t MaxThreads(NcclProtocol protocol);
    /// Bytes per thread below which a channel (then threads) is dropped.
    static uint32_t ThreadThreshold(NcclAlgorithm algorithm, NcclProtocol protocol, uint32_t ranks);
    /**
     * \param algorithm RING or TREE (any other: \p commChannels unchanged)
     * \param bytes NCCL's nBytes: the larger of the send and receive buffers
     * \param commChannels the communicator's channels (at least 1)
     * \return the channels the call runs on, 1..commChannels
     */
    static uint32_t Channels(NcclAlgorithm algorithm,
                             NcclProtocol protocol,
                             uint64_t bytes,
                             uint32_t ranks,
                             uint32_t commChannels);
    /// \return the threads of each channel's block for the same call (before Simple's
    /// extra sync warp and the tree's fixed 640)
    static uint32_t Threads(NcclAlgorithm algorithm,
                            NcclProtocol protocol,
                            uint64_t bytes,
                            uint32_t ranks,
                            uint32_t commChannels);
};

} // namespace ns3

#endif // NCCL_CHANNEL_TUNING_H
