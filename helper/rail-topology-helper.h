/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RAIL_TOPOLOGY_HELPER_H
#define RAIL_TOPOLOGY_HELPER_H

#include "ns3/topology-helper.h"

namespace ns3
{

/**
 * \brief Builds a rail fabric of GPU servers: GPU r of every server on rail leaf r.
 *
 * Servers servers of GpusPerServer (G) GPUs; GPU r's NIC cable (HostLinkRate) goes to
 * rail leaf r (tier 0), so G rail leaves of Servers ports each. Spines = 0 is
 * rail-only (Wang et al. 2023, "How to build low-cost networks for large language
 * models (without sacrificing performance)": no switch joins two rails, traffic
 * between rails crosses a server's scale-up domain); Spines > 0 is rail-optimized
 * (every rail leaf cabled to every spine, tier 1, FabricLinkRate), as in the large
 * public GPU clusters (e.g. Alibaba HPN, Qian et al. SIGCOMM 2024, and NVIDIA's
 * DGX SuperPOD reference architecture). With G > 1 every server has its crossbar
 * (TopologyHelper); host i = GPU i % G of server i / G.
 * Hosts = S*G; switches = G + spines (+ S crossbars when G > 1); cables = S*G +
 * G*spines (+ S*G scale-up cables when G > 1).
 */
class RailTopologyHelper : public TopologyHelper
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    RailTopologyHelper();

    /**
     * Build the graph. Throws std::invalid_argument for zero servers.
     * \return the graph
     */
    Ptr<TopologyGraph> Build() const override;
    /// \return the closed-form counts of Build()'s scale-out part (every GPU a host)
    Size GetSize() const override;

  private:
    uint32_t m_servers; //!< servers
    uint32_t m_spines;  //!< spines (0 = rail-only)
};

} // namespace ns3

#endif // RAIL_TOPOLOGY_HELPER_H
