/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pairwise-all-to-all.h"

#include "nccl-p2p-schedule.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PairwiseAllToAll");

NS_OBJECT_ENSURE_REGISTERED(PairwiseAllToAll);

static CollectiveAlgorithmRegistration g_registration(
    {"pairwise",
     CollectiveOp::ALL_TO_ALL,
     "pairwise exchange, N-1 steps of S/N bytes; on GPU servers NCCL's rounds, all peers at once",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<PairwiseAllToAll>()); },
     true});

TypeId
PairwiseAllToAll::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PairwiseAllToAll")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<PairwiseAllToAll>()
            .AddAttribute("GpusPerServer",
                          "GPUs per server, one NIC each (ranks server * G + GPU): with G >= 2 "
                          "dividing the ranks into >= 2 servers the all-to-all runs NCCL's "
                          "point-to-point schedule (src/init.cc ncclP2pSchedule, "
                          "src/enqueue.cc): all peers at once in NCCL's rounds, each round's "
                          "send cut over the channels NCCL gives it; the scenario runner sets "
                          "it from --gpus-per-server. 0 or 1 = one-NIC hosts: the pairwise "
                          "exchange.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PairwiseAllToAll::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NetChannelsPerPeer",
                          "Channels NCCL gives a peer on another server before fitting them to "
                          "the p2p channels (ncclTopoGetNchannels, src/graph/paths.cc: "
                          "max(1 NIC, ceil(NIC GB/s / NCCL_P2P_PER_CHANNEL_NET_BW 14))). "
                          "Default 4: a 400 Gb/s (50 GB/s) NIC, NCCL 2.30.7; the scenario "
                          "runner sets it from --host-rate (NcclP2pSchedule::NetChannelsPerPeer).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PairwiseAllToAll::m_netChannelsPerPeer),
                          MakeUintegerChecker<uint32_t>(1, MAX_CHANNELS))
            .AddAttribute("Pxn",
                          "NCCL's PXN (NCCL_PXN_DISABLE=0, NCCL_P2P_PXN_LEVEL 2): a send to "
                          "another server leaves through the NIC on the destination GPU's "
                          "rail, reached over the scale-up domain (src/graph/search.cc "
                          "ncclTopoGetNetDev). false (NCCL_PXN_DISABLE=1: out of the sender's "
                          "own NIC, across the rails at the spines) is refused on servers: "
                          "the fabrics' routes are destination-based and leave a server on the "
                          "destination's rail. Default true: NCCL's default.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PairwiseAllToAll::m_pxn),
                          MakeBooleanChecker());
    return tid;
}

PairwiseAllToAll::PairwiseAllToAll() = default;

CollectiveOp
PairwiseAllToAll::GetOp() const
{
    return CollectiveOp::ALL_TO_ALL;
}

std::string
PairwiseAllToAll::GetName() const
{
    return "pairwise";
}

uint32_t
PairwiseAllToAll::GetUnitOwner(uint32_t unit) const
{
    return unit / (GetChannelUnits() / GetCommunicator().GetSize());
}

bool
PairwiseAllToAll::BuildsChannels() const
{
    return NcclP2pSchedule(GetCommunicator().GetSize(), m_gpusPerServer, m_channels, 1)
        .IsServerAware();
}

void
PairwiseAllToAll::BuildSchedule()
{
    if (BuildsChannels())
    {
        BuildServers();
    }
    else
    {
        BuildPairwise();
    }
}

void
PairwiseAllToAll::BuildPairwise()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t c = ChunksFor(GetChannelBytes() / n);
    // unit = source * c + chunk: what rank j holds of unit i*c+k is "the block i sent
    // me"; the block's size is S/N, whatever its destination
    SetNUnits(n * c);
    std::vector<uint32_t> prev(static_cast<size_t>(n) * c);
    std::vector<uint32_t> cur(prev.size());
    std::vector<uint32_t> deps;
    for (uint32_t k = 1; k < n; ++k)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t from = (i + n - (k - 1)) % n; // who sent to i in step k-1
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                deps.clear();
                if (k > 1)
                {
                    deps.push_back(prev[from * c + ch]);
                }
                cur[i * c + ch] =
                    AddTransfer(i, (i + k) % n, i * c + ch, i * c + ch + 1, false, deps);
            }
        }
        std::swap(prev, cur);
    }
}

void
PairwiseAllToAll::BuildServers()
{
    const uint32_t n = GetCommunicator().GetSize();
    if (!m_pxn)
    {
        throw std::invalid_argument(
            "all-to-all without PXN on " + std::to_string(n / m_gpusPerServer) + " servers of " +
            std::to_string(m_gpusPerServer) +
            " GPUs is not modelled (allowed: PXN on; without it NCCL sends out of the "
            "sender's own NIC and changes rail at the spines, which the destination-based "
            "routes of the crossbars do not express)");
    }
    const NcclP2pSchedule sched(n, m_gpusPerServer, m_channels, m_netChannelsPerPeer);
    const uint64_t block = GetChannelBytes() / n;
    const uint32_t parts = sched.GetParts(block);
    const uint32_t chunks = ChunksFor((block + parts - 1) / parts);
    // unit = source * c + part * chunks + chunk: the block the source sends every peer
    const uint32_t c = parts * chunks;
    SetNUnits(n * c);
    std::vector<std::vector<NcclP2pSchedule::Round>> rounds(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        rounds[i] = sched.GetRounds(i);
    }
    // A channel runs its batches (the rounds with one base channel) one after another: a
    // rank's transfers of a batch wait for the last step of each of its sends and receives
    // of the channel's previous batch.
    const uint32_t p2p = sched.GetP2pChannels();
    std::vector<int64_t> batchOf(p2p, -1);
    std::vector<std::vector<std::vector<uint32_t>>> cur(p2p), prev(p2p);
    std::vector<uint32_t> deps;
    for (uint32_t r = 1; r < n; ++r) // round 0 is the rank's own block: a local copy
    {
        const uint32_t base = sched.GetChannelBase(r);
        for (uint32_t p = 0; p < parts; ++p)
        {
            const uint32_t ch = sched.GetChannel(r, p);
            if (batchOf[ch] != base)
            {
                batchOf[ch] = base;
                prev[ch] = std::move(cur[ch]);
                cur[ch].assign(n, std::vector<uint32_t>());
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t dst = rounds[i][r].send;
            for (uint32_t p = 0; p < parts; ++p)
            {
                const uint32_t ch = sched.GetChannel(r, p);
                SetBuildChannel(ch);
                deps.clear();
                if (!prev[ch].empty())
                {
                    deps = prev[ch][i];
                    deps.insert(deps.end(), prev[ch][dst].begin(), prev[ch][dst].end());
                    std::sort(deps.begin(), deps.end());
                    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
                }
                uint32_t last = 0;
                for (uint32_t k = 0; k < chunks; ++k)
                {
                    const uint32_t u = i * c + p * chunks + k;
                    last = AddTransfer(i, dst, u, u + 1, false, deps);
                }
                cur[ch][i].push_back(last);
                cur[ch][dst].push_back(last);
            }
        }
    }
}

} // namespace ns3
