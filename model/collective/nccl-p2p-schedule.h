/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_P2P_SCHEDULE_H
#define NCCL_P2P_SCHEDULE_H

#include "ns3/data-rate.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NCCL's point-to-point schedule on GPU servers (doc/collectives.md, "All-to-all on
 * GPU servers"): in which round each rank sends to and receives from which peer, and on
 * which channels a round's data travels. nccl-tests' all-to-all posts one send and one
 * receive per peer in a group; NCCL (source at 2.30.7) runs them as follows.
 *
 * Rounds (ncclP2pSchedule, src/init.cc): the ranks of each server are cut into groups
 * of g = NCCL_P2P_SCHEDULE_GROUP_SIZE (8, NCCL_MAX_DEV_WORK_P2P_PER_BATCH) GPUs, or
 * gcd(8, G) when G is not a multiple of 8. Round r of rank i pairs the group at distance
 * d(r / g) after i's group (and before it, for receives), d running through the
 * quadratic sequence (k^2 + k) / 2 mod 2^ceil(log2 groups) with distances beyond the
 * group count skipped; inside the pair of groups the local distance is r mod g. Round 0
 * is the rank itself; rank i sends to j in the round in which j receives from i.
 *
 * Channels (src/include/channel.h ncclP2pChannelBaseForRound, src/enqueue.cc
 * addP2pToPlan): round r starts at channel bitreverse(r / g x ceil(g / 8) + (r mod g) / 8)
 * over log2(P) bits, P the p2p channels (a power of two), and its send of b bytes is cut
 * into parts on consecutive channels from there, as many as NCCL's rule gives for b
 * (GetParts). Rounds on the same base channel form one batch of a channel's kernel block
 * and run at once; rounds whose channels overlap another batch's run after it.
 *
 * Channels per peer (src/graph/paths.cc): a network peer gets max(1 NIC, ceil(NIC GB/s
 * / NCCL_P2P_PER_CHANNEL_NET_BW 14)) channels (NetChannelsPerPeer), rounded up to a power
 * of two, then halved while that times ceil(N / 8) exceeds P
 * (ncclTopoComputeP2pChannels).
 */
class NcclP2pSchedule
{
  public:
    /// One round of a rank: the peer it sends to and the peer it receives from.
    struct Round
    {
        uint32_t send; //!< communicator rank sent to
        uint32_t recv; //!< communicator rank received from
    };

    /**
     * \param ranks communicator ranks N, server x G + local GPU
     * \param gpusPerServer G
     * \param channels the communicator's channels; P is the largest power of two <= it
     * \param netChannelsPerPeer channels NCCL gives a network peer before its reduction
     *        (NetChannelsPerPeer of the NIC rate), >= 1
     */
    NcclP2pSchedule(uint32_t ranks,
                    uint32_t gpusPerServer,
                    uint32_t channels,
                    uint32_t netChannelsPerPeer);

    /// \return true if the ranks are >= 2 whole servers of >= 2 GPUs (NCCL's schedule
    /// over servers); otherwise the caller keeps its one-NIC schedule
    bool IsServerAware() const;

    /// \return the rounds of \p rank, N of them; round 0 is the rank itself
    std::vector<Round> GetRounds(uint32_t rank) const;

    /// \return the channel round \p round's first part uses
    uint32_t GetChannelBase(uint32_t round) const;

    /// \return the channel of part \p part of round \p round
    uint32_t GetChannel(uint32_t round, uint32_t part) const;

    /// \return P, the p2p channels
    uint32_t GetP2pChannels() const;

    /// \return the channels a peer may use (NCCL's p2pnChannelsPerPeer)
    uint32_t GetChannelsPerPeer() const;

    /// \return the group size g of the rounds
    uint32_t GetGroupSize() const;

    /**
     * The parts (channels) NCCL cuts a send of \p bytes into between servers
     * (addP2pToPlan, src/enqueue.cc): from the fewest channels that let every peer have
     * one (halving p2pnChannelsPerPeer while it times N exceeds P), doubled while a part
     * would exceed one step of NCCL_P2P_NET_CHUNKSIZE (128 KiB), at most
     * GetChannelsPerPeer; parts are at least half a step.
     * \param bytes the send's size
     * \return the number of parts, >= 1
     */
    uint32_t GetParts(uint64_t bytes) const;

    /**
     * \param nicRate one NIC's rate
     * \return max(1, ceil(floor(rate in GB/s) / 14)): NCCL's channels for a network peer
     *         (ncclTopoGetNchannels, NCCL_P2P_PER_CHANNEL_NET_BW 14 GB/s); 4 for 400 Gb/s,
     *         2 for 200 Gb/s, 1 for 100 Gb/s
     */
    static uint32_t NetChannelsPerPeer(DataRate nicRate);

    /// NCCL_P2P_NET_CHUNKSIZE default, bytes (src/init.cc): the step of a p2p connection
    /// between servers.
    static constexpr uint32_t P2P_NET_CHUNK_BYTES = 128 * 1024;

  private:
    uint32_t m_ranks;       //!< N
    uint32_t m_gpus;        //!< G
    bool m_servers;         //!< IsServerAware
    uint32_t m_groupSize;   //!< g
    uint32_t m_p2pChannels; //!< P
    uint32_t m_perPeer;     //!< p2pnChannelsPerPeer
    uint32_t m_minParts;    //!< the op's fewest channels (nChannelsMin)
};

} // namespace ns3

#endif // NCCL_P2P_SCHEDULE_H
