/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UP_DOWN_ROUTING_H
#define UP_DOWN_ROUTING_H

#include "routing-engine.h"

namespace ns3
{

/**
 * \brief up*&#47;down* routing (Autonet; OpenSM "updn"): deadlock free on any graph.
 *
 * Roots: the switches of the top tier when the graph has more than one tier
 * (fat-tree core, leaf-spine spines, file topologies by host distance), else the
 * lowest-id switch. Levels: BFS distance from the roots. A cable is "up" towards
 * the smaller (level, node id), so up cables form no cycle. A legal path goes up
 * zero or more times, then only down. Per destination a BFS labels each switch
 * with its shortest legal distance and whether that route is down-only; a switch
 * only sends down to a neighbour whose own route is down-only, so every packet's
 * whole path is legal with destination-only tables. Among equal distances a
 * down-only route is preferred; candidates are all next hops of that kind.
 */
class UpDownRouting : public RoutingEngine
{
  public:
    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

    /**
     * \param graph the topology
     * \return per node: BFS level from the roots (UNREACHABLE for hosts)
     */
    static std::vector<uint32_t> Levels(const TopologyGraph& graph);

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;
};

} // namespace ns3

#endif // UP_DOWN_ROUTING_H
