/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DIMENSION_ORDER_ROUTING_H
#define DIMENSION_ORDER_ROUTING_H

#include "routing-engine.h"

namespace ns3
{

/**
 * \brief Dimension-order routing for torus and mesh (TorusTopologyHelper shapes).
 *
 * Resolves dimension 0 first, then 1, ... One candidate per hop. On a ring the
 * shorter direction is taken; at the tie (distance exactly k/2) the positive
 * direction, deterministically. Mesh: towards the destination coordinate.
 *
 * Dateline rule (torus; RouteTable::ClassRule::DATELINE, 2 classes): the class of
 * a packet on a ring cable is 0 when the packet enters a dimension (from the host
 * or from another dimension); it becomes 1 on the wrap cable of that dimension
 * (x = k-1 -> 0 going up, 0 -> k-1 going down) and stays 1 for the rest of that
 * dimension. Each ring's class-0 and class-1 channel graphs are then acyclic
 * (class 0 never uses the wrap cable; class 1 is only used after it and the path
 * is shorter than the ring), and dimensions are visited in increasing order, so the
 * channel dependency graph is acyclic (Dally & Seitz 1987). A mesh needs one class.
 * With radix 2 the two routers share one cable: 1 -> 0 is the wrap, 0 -> 1 not.
 */
class DimensionOrderRouting : public RoutingEngine
{
  public:
    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;
};

} // namespace ns3

#endif // DIMENSION_ORDER_ROUTING_H
