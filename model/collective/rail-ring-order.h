/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RAIL_RING_ORDER_H
#define RAIL_RING_ORDER_H

#include "ns3/data-rate.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The ring of each collective channel as NCCL builds it on GPU servers with one
 * NIC per GPU and an NVSwitch-like scale-up domain (doc/collectives.md, "Rings on GPU
 * servers").
 *
 * Ranks are numbered as hosts: rank = server x G + local GPU, and local GPU j owns NIC j
 * (its rail). Every channel's ring visits the servers in order 0, 1, ..., S-1 and inside
 * each server runs through its G GPUs over the scale-up domain, so only S of its hops
 * cross the network, one per server.
 *
 * With PXN (NCCL >= 2.12 default): channel c enters and leaves every server through NIC
 * a = c mod G: server s is visited as GPU a, a+1, ..., a-1 (NCCL's search,
 * src/graph/search.cc: channel c starts at NET c mod nNets and its local GPU, an NVSwitch
 * system tries the next GPU first, and with crossNic 0 the ring returns to the NET it
 * entered through, reached from GPU a-1 over NVLink by PXN). The hop from GPU a-1 of
 * server s to GPU a of server s+1 goes out on the destination's rail a, which is what the
 * rail routing engine does.
 *
 * Without PXN: no GPU sends through another GPU's NIC. NCCL then pairs the channels
 * (crossNic 2): search channel k = c mod G of pair p = k / 2 enters through NIC a = 2p
 * and leaves through NIC b = a-1 (forward ring a, a+1, ..., b), and its partner enters
 * through b and leaves through a (backward ring b, b-1, ..., a); ncclTopoPostset
 * (src/graph/connect.cc, "Alternate rings to avoid crossing rails") swaps the two on odd
 * nodes. So every network hop joins two GPUs of the same local index (the same rail),
 * each sending through its own NIC. This needs an even G and an even number of servers
 * (otherwise the ring's closing hop changes rail, which without PXN only a spine could
 * do, and the model's destination-based crossbar routes would do by PXN).
 *
 * Applies when the ranks are >= 2 whole servers of G >= 2 GPUs; otherwise the ring of
 * every channel is the flat 0, 1, ..., N-1 (one-NIC hosts: today's ring).
 */
class RailRingOrder
{
  public:
    /**
     * \param ranks communicator ranks N
     * \param gpusPerServer G (0 or 1: one-NIC hosts, the flat ring)
     * \param pxn NCCL's PXN (NCCL_PXN_DISABLE=0)
     * \throws std::invalid_argument for PXN off on servers when G or N / G is odd
     */
    RailRingOrder(uint32_t ranks, uint32_t gpusPerServer, bool pxn);

    /// \return true if the ranks are >= 2 whole servers of >= 2 GPUs (per-channel rings)
    bool IsRailAligned() const;

    /**
     * \param channel the collective channel
     * \return the communicator ranks in ring order (ring[i] sends to ring[i+1], the last
     * to the first)
     */
    std::vector<uint32_t> GetRing(uint32_t channel) const;

    /**
     * \param channel the collective channel
     * \param server a server index < N / G
     * \return the local index of the GPU (and NIC) that receives \p channel's data from
     * the network in \p server (rail-aligned rings only)
     */
    uint32_t GetEntryGpu(uint32_t channel, uint32_t server) const;

    /**
     * \param channel the collective channel
     * \param server a server index < N / G
     * \return the local index of the GPU that sends \p channel's data to the next server
     * (rail-aligned rings only); with PXN it sends through NIC GetEntryGpu
     */
    uint32_t GetExitGpu(uint32_t channel, uint32_t server) const;

    /**
     * The number of channels NCCL (source at 2.30.7, Hopper GPUs) gives a communicator over
     * servers of \p nicsPerServer NICs of \p nicRate each, one NIC per GPU, with NVLink
     * much faster than the NICs (doc/collectives.md): its ring search finds one channel
     * per NIC at the highest search speed the NIC reaches (sm90SpeedArrayInter of
     * src/graph/search.cc, at most 48 GB/s), as many per NIC as the NIC's bandwidth holds;
     * ncclTopoDupChannels doubles them unless the speed is below 25 GB/s or (Hopper) below
     * 50 GB/s with more than 4 channels; ncclTopoPostset (src/graph/connect.cc) doubles
     * them, and doubles again on Hopper when the per-channel speed is above 45 GB/s and
     * fewer than 16 channels remain; at most MAXCHANNELS (64).
     * \param nicsPerServer NICs (GPUs) per server, >= 1
     * \param nicRate one NIC's rate
     * \return the channel count, 1..64
     */
    static uint32_t NcclChannels(uint32_t nicsPerServer, DataRate nicRate);

    /**
     * NCCL's ring graph on such servers as its tuner reads it (ncclTopoTuneModel's
     * graph->nChannels and bwInter = bwIntra): the search's channels and speed after
     * ncclTopoDupChannels, before ncclTopoPostset doubles the communicator's channels.
     * 8 x 400 Gb/s: 8 channels of 48 GB/s; one 100 Gb/s NIC: 1 channel of 12 GB/s.
     * \param nicsPerServer NICs (GPUs) per server, >= 1
     * \param nicRate one NIC's rate
     * \param[out] channels the graph's channels
     * \param[out] bwGBps bandwidth per channel, GB/s
     */
    static void NcclRingGraph(uint32_t nicsPerServer,
                              DataRate nicRate,
                              uint32_t& channels,
                              double& bwGBps);

  private:
    uint32_t m_ranks;   //!< N
    uint32_t m_gpus;    //!< G (1 when not rail-aligned)
    uint32_t m_servers; //!< N / G
    bool m_pxn;         //!< PXN on
    bool m_rail;        //!< IsRailAligned
};

} // namespace ns3

#endif // RAIL_RING_ORDER_H
