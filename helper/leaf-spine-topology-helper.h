/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAF_SPINE_TOPOLOGY_HELPER_H
#define LEAF_SPINE_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-helper.h"

namespace ns3
{

/**
 * \brief Builds a two-tier leaf-spine (folded Clos) fabric.
 *
 * Leaves (tier 0, group = leaf index) each hold HostsPerLeaf hosts and
 * LinksPerPair parallel cables to every spine (tier 1). Hosts = L*H,
 * switches = L+S, cables = L*H + L*S*P. Node ids: hosts first (id = rank),
 * then leaves, then spines.
 */
class LeafSpineTopologyHelper : public TopologyHelper
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    LeafSpineTopologyHelper();

    /**
     * Build the graph. Throws std::invalid_argument for a zero count.
     * \return the graph
     */
    Ptr<TopologyGraph> Build() const override;
    /// \return the closed-form counts of Build()
    Size GetSize() const override;

  private:
    uint32_t m_leaves;       //!< number of leaves
    uint32_t m_spines;       //!< number of spines
    uint32_t m_hostsPerLeaf; //!< hosts per leaf
    uint32_t m_linksPerPair; //!< parallel cables per leaf-spine pair
};

} // namespace ns3

#endif // LEAF_SPINE_TOPOLOGY_HELPER_H
