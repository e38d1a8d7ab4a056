/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RAIL_ROUTING_H
#define RAIL_ROUTING_H

#include "routing-engine.h"

namespace ns3
{

/**
 * \brief Rail-aware routing for GPU servers (TopologyGraph::Shape::gpusPerServer > 1):
 * every GPU is reached through its own NIC cable, and a server's scale-up crossbar
 * sends traffic for another server out through the NIC of the destination's rail
 * (the GPU with the destination's local index), as NCCL's PXN moves data over NVLink
 * to the GPU on the right rail before it enters the network.
 *
 * Routes towards GPU d (server s = d / G, rail r = d % G, NIC cable n = crossbar s's
 * uplink r, ending at switch A):
 * - crossbar s: the port to GPU d (intra-server traffic never leaves the scale-up
 *   domain);
 * - any other crossbar: its uplink r (to the destination's rail), or nothing when
 *   that cable is down;
 * - A: the port of cable n;
 * - any other scale-out switch: every port to a scale-out switch one hop closer to A
 *   (ECMP, crossbars never transit).
 * So same-rail traffic stays on its rail leaf in a rail topology (no spine), and
 * cross-rail traffic changes rail inside the source server. Min-hop for the rail
 * family; on leafspine or fat-tree servers the path may be one scale-up hop longer
 * than the shortest one (it enters the network on the destination's rail).
 */
class RailRouting : public RoutingEngine
{
  public:
    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;
};

} // namespace ns3

#endif // RAIL_ROUTING_H
