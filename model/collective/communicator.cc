/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "communicator.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

Communicator::Communicator(std::vector<uint32_t> hosts)
    : m_hosts(std::move(hosts))
{
    if (m_hosts.empty())
    {
        throw std::invalid_argument("communicator with zero ranks; at least 1 rank is required");
    }
    std::vector<uint32_t> sorted = m_hosts;
    std::sort(sorted.begin(), sorted.end());
    auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end())
    {
        throw std::invalid_argument("communicator lists host " + std::to_string(*dup) +
                                    " twice; each host may hold one rank");
    }
}

uint32_t
Communicator::GetSize() const
{
    return static_cast<uint32_t>(m_hosts.size());
}

uint32_t
Communicator::GetHost(uint32_t rank) const
{
    if (rank >= m_hosts.size())
    {
        throw std::out_of_range("rank " + std::to_string(rank) +
                                " out of range; communicator has " +
                                std::to_string(m_hosts.size()) + " ranks");
    }
    return m_hosts[rank];
}

const std::vector<uint32_t>&
Communicator::GetHosts() const
{
    return m_hosts;
}

uint32_t
Communicator::GetMinTransportRanks() const
{
    return m_hosts.empty() ? 0 : *std::max_element(m_hosts.begin(), m_hosts.end()) + 1;
}

Communicator
Communicator::AllHosts(uint32_t nHosts)
{
    if (nHosts == 0)
    {
        throw std::invalid_argument("AllHosts(0): at least 1 host is required");
    }
    std::vector<uint32_t> h(nHosts);
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        h[i] = i;
    }
    return Communicator(std::move(h));
}

Communicator
Communicator::Group(uint32_t nHosts,
                    const std::function<uint32_t(uint32_t)>& groupOf,
                    uint32_t group)
{
    std::vector<uint32_t> h;
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        if (groupOf(i) == group)
        {
            h.push_back(i);
        }
    }
    if (h.empty())
    {
        throw std::invalid_argument("group " + std::to_string(group) + " has no host among " +
                                    std::to_string(nHosts));
    }
    return Communicator(std::move(h));
}

Communicator
Communicator::TorusLine(const std::vector<uint32_t>& dims,
                        const std::vector<uint32_t>& coords,
                        uint32_t dim,
                        uint32_t hostsPerRouter,
                        uint32_t hostOffset)
{
    if (dims.empty() || coords.size() != dims.size() || dim >= dims.size())
    {
        throw std::invalid_argument("TorusLine: dims (" + std::to_string(dims.size()) +
                                    ") and coords (" + std::to_string(coords.size()) +
                                    ") must have the same non-zero length and dim (" +
                                    std::to_string(dim) + ") must be below it");
    }
    if (hostsPerRouter == 0 || hostOffset >= hostsPerRouter)
    {
        throw std::invalid_argument("TorusLine: hostOffset " + std::to_string(hostOffset) +
                                    " must be below hostsPerRouter " +
                                    std::to_string(hostsPerRouter) + " (>= 1)");
    }
    uint64_t base = 0;
    uint64_t stride = 1;
    uint64_t dimStride = 1;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        if (dims[d] == 0 || (d != dim && coords[d] >= dims[d]))
        {
            throw std::invalid_argument("TorusLine: coordinate " + std::to_string(coords[d]) +
                                        " of dimension " + std::to_string(d) +
                                        " must be below its size " + std::to_string(dims[d]) +
                                        " (>= 1)");
        }
        if (d == dim)
        {
            dimStride = stride;
        }
        else
        {
            base += coords[d] * stride;
        }
        stride *= dims[d];
    }
    std::vector<uint32_t> h(dims[dim]);
    for (uint32_t x = 0; x < dims[dim]; ++x)
    {
        h[x] = static_cast<uint32_t>((base + x * dimStride) * hostsPerRouter + hostOffset);
    }
    return Communicator(std::move(h));
}

Communicator
Communicator::Rail(uint32_t nHosts, uint32_t hostsPerServer, uint32_t rail)
{
    if (hostsPerServer == 0 || rail >= hostsPerServer)
    {
        throw std::invalid_argument("Rail: rail " + std::to_string(rail) +
                                    " must be below hostsPerServer " +
                                    std::to_string(hostsPerServer) + " (>= 1)");
    }
    return Group(
        nHosts,
        [hostsPerServer](uint32_t h) { return h % hostsPerServer; },
        rail);
}

uint32_t
Communicator::GetRanksPerServer(uint32_t hostsPerServer) const
{
    if (hostsPerServer < 2 || m_hosts.empty())
    {
        return 0;
    }
    const uint32_t n = GetSize();
    uint32_t g = 1;
    while (g < n && m_hosts[g] / hostsPerServer == m_hosts[0] / hostsPerServer)
    {
        ++g;
    }
    if (n % g != 0)
    {
        return 0;
    }
    std::set<uint32_t> servers;
    for (uint32_t b = 0; b < n; b += g)
    {
        const uint32_t server = m_hosts[b] / hostsPerServer;
        if (!servers.insert(server).second)
        {
            return 0;
        }
        for (uint32_t r = b; r < b + g; ++r)
        {
            if (m_hosts[r] / hostsPerServer != server)
            {
                return 0;
            }
        }
    }
    return g;
}

} // namespace ns3
