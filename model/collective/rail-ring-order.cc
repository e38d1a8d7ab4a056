/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-ring-order.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailRingOrder");

RailRingOrder::RailRingOrder(uint32_t ranks, uint32_t gpusPerServer, bool pxn)
    : m_ranks(ranks),
      m_gpus(1),
      m_servers(ranks),
      m_pxn(pxn),
      m_rail(false)
{
    if (gpusPerServer >= 2 && ranks % gpusPerServer == 0 && ranks / gpusPerServer >= 2)
    {
        m_rail = true;
        m_gpus = gpusPerServer;
        m_servers = ranks / gpusPerServer;
    }
    if (m_rail && !m_pxn && (m_gpus % 2 != 0 || m_servers % 2 != 0))
    {
        throw std::invalid_argument(
            "ring without PXN on " + std::to_string(m_servers) + " servers of " +
            std::to_string(m_gpus) +
            " GPUs is not possible (allowed: an even number of GPUs per server and of "
            "servers, whose rings NCCL alternates so that no network hop changes rail; "
            "otherwise PXN on)");
    }
    NS_LOG_FUNCTION(this << ranks << gpusPerServer << pxn << m_rail);
}

bool
RailRingOrder::IsRailAligned() const
{
    return m_rail;
}

uint32_t
RailRingOrder::GetEntryGpu(uint32_t channel, uint32_t server) const
{
    NS_ASSERT(m_rail && server < m_servers);
    const uint32_t k = channel % m_gpus;
    if (m_pxn)
    {
        return k;
    }
    const uint32_t a = k - k % 2;                 // the pair's first NIC
    const uint32_t b = (a + m_gpus - 1) % m_gpus; // and its second
    const bool forward = (k % 2 == 0) == (server % 2 == 0);
    return forward ? a : b;
}

uint32_t
RailRingOrder::GetExitGpu(uint32_t channel, uint32_t server) const
{
    NS_ASSERT(m_rail && server < m_servers);
    const uint32_t k = channel % m_gpus;
    if (m_pxn)
    {
        return (k + m_gpus - 1) % m_gpus;
    }
    const uint32_t a = k - k % 2;
    const uint32_t b = (a + m_gpus - 1) % m_gpus;
    const bool forward = (k % 2 == 0) == (server % 2 == 0);
    return forward ? b : a;
}

std::vector<uint32_t>
RailRingOrder::GetRing(uint32_t channel) const
{
    std::vector<uint32_t> ring;
    ring.reserve(m_ranks);
    if (!m_rail)
    {
        for (uint32_t r = 0; r < m_ranks; ++r)
        {
            ring.push_back(r);
        }
        return ring;
    }
    for (uint32_t s = 0; s < m_servers; ++s)
    {
        const uint32_t entry = GetEntryGpu(channel, s);
        // From the entry GPU to the exit GPU through every GPU of the server: upwards
        // when the exit is the entry's predecessor (a, a+1, ..., a-1), else downwards.
        const bool up = GetExitGpu(channel, s) == (entry + m_gpus - 1) % m_gpus;
        for (uint32_t i = 0; i < m_gpus; ++i)
        {
            const uint32_t gpu = up ? (entry + i) % m_gpus : (entry + m_gpus - i) % m_gpus;
            ring.push_back(s * m_gpus + gpu);
        }
    }
    return ring;
}

void
RailRingOrder::NcclRingGraph(uint32_t nicsPerServer,
                             DataRate nicRate,
                             uint32_t& channels,
                             double& bwGBps)
{
    // sm90SpeedArrayInter (src/graph/search.cc), GB/s: the ring search starts at the
    // highest speed the GPU-to-NIC path reaches.
    static const double speeds[] = {48.0,
                                    45.0,
                                    42.0,
                                    40.0,
                                    30.0,
                                    24.0,
                                    22.0,
                                    20.0,
                                    17.5,
                                    15.0,
                                    12.0,
                                    6.0,
                                    3.0,
                                    2.4,
                                    1.2,
                                    0.24,
                                    0.12};
    const double nicGBps = nicRate.GetBitRate() / 8e9;
    double speed = speeds[sizeof(speeds) / sizeof(speeds[0]) - 1];
    for (double s : speeds)
    {
        if (s <= nicGBps)
        {
            speed = s;
            break;
        }
    }
    const uint32_t maxSearch = 32; // ringGraph->maxChannels = MAXCHANNELS / 2 (src/init.cc)
    // One channel per NIC: it enters through the NIC (the NET's bandwidth) and leaves
    // through it (the GPU-to-NIC path's), each at the search speed.
    uint32_t n = std::min(std::max(nicsPerServer, 1u), maxSearch);
    // ncclTopoDupChannels (src/graph/search.cc)
    if (speed >= 25.0 && !(speed < 50.0 && n > 4))
    {
        n = std::min(2 * n, maxSearch);
        speed /= 2;
    }
    channels = n;
    bwGBps = speed;
}

uint32_t
RailRingOrder::NcclChannels(uint32_t nicsPerServer, DataRate nicRate)
{
    const uint32_t maxChannels = 64;
    uint32_t n = 0;
    double speed = 0;
    NcclRingGraph(nicsPerServer, nicRate, n, speed);
    // ncclTopoPostset (src/graph/connect.cc): duplicated, then on Hopper doubled while
    // the per-channel speed is above 45 GB/s and fewer than 16 channels
    n = std::min(2 * n, maxChannels);
    if (speed > 45.0 && n < 16)
    {
        n = std::min(2 * n, maxChannels);
    }
    return n;
}

} // namespace ns3
