/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAT_TREE_TOPOLOGY_HELPER_H
#define FAT_TREE_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-helper.h"

namespace ns3
{

/**
 * \brief Builds a k-ary three-tier fat-tree (Al-Fares et al., SIGCOMM 2008).
 *
 * k pods, each with k/2 edge (tier 0) and k/2 aggregation (tier 1) switches;
 * (k/2)^2 core switches (tier 2); core j joins aggregation switch j/(k/2) of
 * every pod. With the default k/2 hosts per edge switch: k^3/4 hosts,
 * 5k^2/4 switches, 3k^3/4 cables. HostsPerEdge > k/2 oversubscribes the edge.
 * Node ids: hosts first (id = rank), then per pod its edge then aggregation
 * switches, then the core. Switch groups are pods (core: group k).
 */
class FatTreeTopologyHelper : public TopologyHelper
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    FatTreeTopologyHelper();

    /**
     * Build the graph. Throws std::invalid_argument for odd or zero K.
     * \return the graph
     */
    Ptr<TopologyGraph> Build() const override;
    /// \return the closed-form counts of Build()
    Size GetSize() const override;

  private:
    uint32_t m_k;            //!< arity
    uint32_t m_hostsPerEdge; //!< 0 = k/2
};

} // namespace ns3

#endif // FAT_TREE_TOPOLOGY_HELPER_H
