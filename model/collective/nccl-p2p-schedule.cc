/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-p2p-schedule.h"

#include "ns3/log.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NcclP2pSchedule");

namespace
{
/// NCCL_P2P_SCHEDULE_GROUP_SIZE's default, NCCL_MAX_DEV_WORK_P2P_PER_BATCH (device.h):
/// also the works one batch of a channel holds.
constexpr uint32_t kWorksPerBatch = 8;

uint32_t
Pow2Up(uint32_t x)
{
    uint32_t p = 1;
    while (p < x)
    {
        p <<= 1;
    }
    return p;
}

uint32_t
Pow2Down(uint32_t x)
{
    uint32_t p = 1;
    while (p * 2 <= x)
    {
        p <<= 1;
    }
    return p;
}

uint64_t
DivUp(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}
} // namespace

NcclP2pSchedule::NcclP2pSchedule(uint32_t ranks,
                                 uint32_t gpusPerServer,
                                 uint32_t channels,
                                 uint32_t netChannelsPerPeer)
    : m_ranks(ranks),
      m_gpus(1),
      m_servers(false),
      m_groupSize(1),
      m_p2pChannels(Pow2Down(std::max(channels, 1u))),
      m_perPeer(1),
      m_minParts(1)
{
    if (gpusPerServer >= 2 && ranks % gpusPerServer == 0 && ranks / gpusPerServer >= 2)
    {
        m_servers = true;
        m_gpus = gpusPerServer;
        // ncclP2pSchedule: 8, or gcd(8, G) when G is not a multiple of it
        m_groupSize =
            m_gpus % kWorksPerBatch == 0 ? kWorksPerBatch : std::gcd(kWorksPerBatch, m_gpus);
    }
    // ncclTopoComputeP2pChannels (more than one server): a power of two, halved until
    // every peer's channels fit the p2p channels ceil(N / 8) times
    m_perPeer = Pow2Up(std::max(netChannelsPerPeer, 1u));
    while (m_perPeer * DivUp(m_ranks, kWorksPerBatch) > m_p2pChannels && m_perPeer > 1)
    {
        m_perPeer /= 2;
    }
    // scheduleP2pTasksToPlan: one channel per operation if all peers do not fit otherwise
    m_minParts = m_perPeer;
    while (static_cast<uint64_t>(m_minParts) * m_ranks > m_p2pChannels && m_minParts > 1)
    {
        m_minParts /= 2;
    }
    NS_LOG_FUNCTION(this << ranks << gpusPerServer << channels << netChannelsPerPeer
                         << m_p2pChannels << m_perPeer << m_minParts);
}

bool
NcclP2pSchedule::IsServerAware() const
{
    return m_servers;
}

std::vector<NcclP2pSchedule::Round>
NcclP2pSchedule::GetRounds(uint32_t rank) const
{
    std::vector<Round> rounds;
    rounds.reserve(m_ranks);
    if (!m_servers)
    {
        for (uint32_t d = 0; d < m_ranks; ++d)
        {
            rounds.push_back({(rank + d) % m_ranks, (rank + m_ranks - d) % m_ranks});
        }
        return rounds;
    }
    const uint32_t g = m_groupSize;
    const uint32_t groupsPerServer = m_gpus / g;
    const uint32_t nGroups = m_ranks / g;
    const uint32_t nGroupsPow2 = Pow2Up(nGroups);
    const uint32_t local = (rank % m_gpus) % g;
    const uint32_t group = (rank / m_gpus) * groupsPerServer + (rank % m_gpus) / g;
    // the first rank of group k: its server's first rank plus the group's offset
    auto groupStart = [&](uint32_t k) {
        return (k / groupsPerServer) * m_gpus + (k % groupsPerServer) * g;
    };
    uint32_t groupRound = 0;
    uint32_t groupDelta = 0;
    do
    {
        if (groupDelta < nGroups)
        {
            const uint32_t sendGroup = (group + groupDelta) % nGroups;
            const uint32_t recvGroup = (group + nGroups - groupDelta) % nGroups;
            for (uint32_t delta = 0; delta < g; ++delta)
            {
                rounds.push_back({groupStart(sendGroup) + (local + delta) % g,
                                  groupStart(recvGroup) + (local + g - delta) % g});
            }
        }
        ++groupRound;
        // the triangular numbers modulo a power of two visit every residue once
        groupDelta = (groupDelta + groupRound) & (nGroupsPow2 - 1);
    } while (groupRound != nGroupsPow2);
    return rounds;
}

uint32_t
NcclP2pSchedule::GetChannelBase(uint32_t round) const
{
    const uint32_t g = m_groupSize;
    uint32_t base = m_servers ? (round / g) * static_cast<uint32_t>(DivUp(g, kWorksPerBatch)) +
                                    (round % g) / kWorksPerBatch
                              : round;
    // reverseBits(base, log2(P)): the low log2(P) bits in reverse order
    uint32_t bits = 0;
    while ((1u << bits) < m_p2pChannels)
    {
        ++bits;
    }
    uint32_t reversed = 0;
    for (uint32_t b = 0; b < bits; ++b)
    {
        reversed |= ((base >> b) & 1u) << (bits - 1 - b);
    }
    return reversed;
}

uint32_t
NcclP2pSchedule::GetChannel(uint32_t round, uint32_t part) const
{
    return (GetChannelBase(round) + part) & (m_p2pChannels - 1);
}

uint32_t
NcclP2pSchedule::GetP2pChannels() const
{
    return m_p2pChannels;
}

uint32_t
NcclP2pSchedule::GetChannelsPerPeer() const
{
    return m_perPeer;
}

uint32_t
NcclP2pSchedule::GetGroupSize() const
{
    return m_groupSize;
}

uint32_t
NcclP2pSchedule::GetParts(uint64_t bytes) const
{
    if (bytes == 0)
    {
        return 1;
    }
    const uint64_t minPart = P2P_NET_CHUNK_BYTES / 2;
    const uint64_t maxPart = P2P_NET_CHUNK_BYTES;
    auto n = static_cast<uint32_t>(std::min<uint64_t>(m_minParts, DivUp(bytes, minPart)));
    uint64_t part = std::max(minPart, DivUp(bytes, n));
    while (part > maxPart && n <= m_perPeer / 2)
    {
        n *= 2;
        part = DivUp(bytes, n);
    }
    return n;
}

uint32_t
NcclP2pSchedule::NetChannelsPerPeer(DataRate nicRate)
{
    // ncclTopoGetNchannels: netBw in GB/s, truncated to an int, over 14 GB/s per channel
    const auto gbps = static_cast<uint64_t>(nicRate.GetBitRate() / 8000000000ULL);
    return static_cast<uint32_t>(std::max<uint64_t>(1, DivUp(gbps, 14)));
}

} // namespace ns3
