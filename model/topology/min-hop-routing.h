/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MIN_HOP_ROUTING_H
#define MIN_HOP_ROUTING_H

#include "routing-engine.h"

namespace ns3
{

/**
 * \brief OpenSM's default engine ("minhop"): min-hop paths, one port per (switch,
 * destination), balanced per switch port.
 *
 * OpenSM's minhop (osm_ucast_mgr.c, osm_switch_recommend_path in osm_switch.c)
 * walks each switch's destination LIDs in order and, among the ports on a shortest
 * path, gives the LID the port with the fewest routes assigned so far. Here the
 * destinations are taken in rank order (LID = rank + 1, as the Subnet Manager
 * assigns them), the count is per (switch, port) over all destinations, and ties go
 * to the lowest port number. Any connected graph fits; like OpenSM's minhop it is
 * not deadlock free on cyclic topologies (the runner's channel dependency check
 * says so).
 */
class MinHopRouting : public RoutingEngine
{
  public:
    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;
};

} // namespace ns3

#endif // MIN_HOP_ROUTING_H
