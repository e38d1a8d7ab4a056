/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COMMUNICATOR_H
#define COMMUNICATOR_H

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An ordered set of hosts taking part in a collective: rank i runs on
 * host GetHost(i) (a transport rank, i.e. a host index of the topology).
 *
 * The order matters: rings follow it, trees and halving-doubling pair ranks by
 * it. The factories give the natural orders (all hosts, a pod/group, a torus
 * line, a rail). Invalid shapes throw std::invalid_argument naming the value.
 */
class Communicator
{
  public:
    /// An empty communicator (not usable until assigned).
    Communicator() = default;
    /// hosts[i] is the host of rank i; throws if empty or if a host repeats.
    explicit Communicator(std::vector<uint32_t> hosts);

    uint32_t GetSize() const;
    /// Host of rank; throws std::out_of_range if rank >= GetSize().
    uint32_t GetHost(uint32_t rank) const;
    const std::vector<uint32_t>& GetHosts() const;
    /// Largest host index + 1 (the transport must connect at least this many ranks).
    uint32_t GetMinTransportRanks() const;

    /// Hosts 0 .. nHosts-1 in order.
    static Communicator AllHosts(uint32_t nHosts);
    /// Hosts h < nHosts with groupOf(h) == group, increasing (a pod, a DragonFly group).
    static Communicator Group(uint32_t nHosts,
                              const std::function<uint32_t(uint32_t)>& groupOf,
                              uint32_t group);
    /**
     * One rank per router along dimension dim of a torus/mesh with sizes dims,
     * the other coordinates fixed to coords (coords[dim] is ignored). Router id
     * = sum_d x_d prod_{j<d} dims_j (dimension 0 fastest); the host of router id
     * is id * hostsPerRouter + hostOffset.
     */
    static Communicator TorusLine(const std::vector<uint32_t>& dims,
                                  const std::vector<uint32_t>& coords,
                                  uint32_t dim,
                                  uint32_t hostsPerRouter = 1,
                                  uint32_t hostOffset = 0);
    /// The hosts with local index rail in servers of hostsPerServer hosts: h % hostsPerServer ==
    /// rail, for h < nHosts.
    static Communicator Rail(uint32_t nHosts, uint32_t hostsPerServer, uint32_t rail);

    /**
     * The GPUs per server of this communicator on servers of \p hostsPerServer hosts
     * (server = host / hostsPerServer), as the server-aware algorithms read them (their
     * GpusPerServer: rank = server x g + local index): g if the ranks are runs of g
     * consecutive ranks, each run on one server and each on another server; 0 otherwise,
     * or if \p hostsPerServer < 2 (one-NIC hosts). A training job's tensor-parallel group
     * inside a server gives g = its size; a data-parallel group of one GPU per server g = 1.
     */
    uint32_t GetRanksPerServer(uint32_t hostsPerServer) const;

  private:
    std::vector<uint32_t> m_hosts;
};

} // namespace ns3

#endif // COMMUNICATOR_H
