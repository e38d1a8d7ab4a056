/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DFSSSP_ROUTING_H
#define DFSSSP_ROUTING_H

#include "routing-engine.h"

namespace ns3
{

/**
 * \brief Deadlock-free single-source shortest-path routing ("dfsssp"): OpenSM's
 * dfsssp engine, after Domke, Hoefler and Nagel, "Deadlock-Free Oblivious Routing
 * for Arbitrary Topologies", IPDPS 2011.
 *
 * Paths (SSSP: Hoefler, Schneider and Lumsdaine, "Optimized Routing for Large-Scale
 * InfiniBand Networks", HOTI 2009): every switch-to-switch channel (a cable in one
 * direction) starts with weight 1. For each destination host in rank (LID) order a
 * Dijkstra from its attachment switches over the reversed channels gives every
 * switch one egress port, the first hop of its lightest path (ties: the lower node,
 * then the lower port); then each channel on the path from a switch to that
 * destination gets the number of hosts attached to that switch added to its weight,
 * so later destinations avoid the channels already carrying many routes. One port
 * per (switch, destination), like OpenSM's LFTs.
 *
 * Virtual layers (the paper's deadlock removal): a path is (source switch,
 * destination host), its channels the switch-to-switch cables it takes. All paths
 * start in layer 0. While the channel dependency graph of a layer's paths (a -> b
 * when a path takes b right after a) has a cycle, the cycle's edge with the fewest
 * paths is broken by moving those paths to the next layer. Each layer is then
 * acyclic, so packets that stay in their layer cannot deadlock (Dally and Seitz
 * 1987). The table's class rule is RouteTable::ClassRule::PATH_LAYER: the layer of
 * (source switch, destination) is the service level the source HCA puts in the LRH
 * (the SL a path record query returns), and the switches' SL-to-VL maps keep it on
 * VL = SL. More layers than GetMaxLayers is an error (std::invalid_argument naming
 * the count). Unlike OpenSM, the paths are not spread over the unused VLs once the
 * cycles are broken: the layer count is the minimum this heuristic finds.
 *
 * Any connected graph fits. Cost: one Dijkstra per host, and a channel dependency
 * graph per broken edge.
 */
class DfssspRouting : public RoutingEngine
{
  public:
    /// Data VLs of an InfiniBand port at most: VL0..VL14 (IBTA Vol. 1, 7.6 Virtual Lanes).
    static constexpr uint8_t MAX_LAYERS = 15;

    DfssspRouting();

    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

    /**
     * Cap the virtual layers (data VLs the ports offer). Throws std::invalid_argument
     * outside 1..MAX_LAYERS.
     * \param layers the largest number of layers Compute may use
     */
    void SetMaxLayers(uint8_t layers);
    /// \return the cap (MAX_LAYERS unless set)
    uint8_t GetMaxLayers() const;

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;

  private:
    uint8_t m_maxLayers; //!< layers allowed
};

} // namespace ns3

#endif // DFSSSP_ROUTING_H
