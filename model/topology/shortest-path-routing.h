/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHORTEST_PATH_ROUTING_H
#define SHORTEST_PATH_ROUTING_H

#include "routing-engine.h"

namespace ns3
{

/**
 * \brief Min-hop routing with all equal-cost next hops (ECMP), for any topology.
 *
 * One multi-source BFS per set of attachment switches (hosts on the same ToR share
 * it); candidates at a switch are all ports to a switch one hop closer. Hosts never
 * transit. Not deadlock free by itself on cyclic topologies (torus, dragonfly).
 */
class ShortestPathRouting : public RoutingEngine
{
  public:
    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;
};

} // namespace ns3

#endif // SHORTEST_PATH_ROUTING_H
