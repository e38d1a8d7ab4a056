/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHANNEL_DEPENDENCY_GRAPH_H
#define CHANNEL_DEPENDENCY_GRAPH_H

#include "route-table.h"
#include "topology-graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The channel dependency graph of a route table: is its routing deadlock
 * free on a lossless fabric?
 *
 * A channel is a switch-to-switch cable in one direction, in one class (the PFC
 * priority / VL the table's class rule puts a packet on). Channel a depends on b
 * when some packet may arrive over a and leave over b: the route table offers b at
 * a's far end for a destination that a carries. Routing on lossless links is
 * deadlock free if this graph has no cycle (Dally and Seitz, "Deadlock-free message
 * routing in multiprocessor interconnection networks", IEEE Trans. Computers 36(5),
 * 1987; for adaptive sets, which may use every candidate, acyclic is sufficient).
 * Host cables cannot be on a cycle and are left out.
 *
 * The graph is built from every candidate the table holds, following each
 * destination from every switch a host attaches to (in the path's layer under
 * RouteTable::ClassRule::PATH_LAYER), with hosts of the same attachment switches and
 * the same routes at every switch counted once. Up*\/down*, dimension order with the dateline
 * classes and DragonFly minimal with its global-hop classes come out acyclic;
 * shortest paths (ecmp) on a graph with cycles of switches usually do not.
 */
class ChannelDependencyGraph
{
  public:
    /// What Compute found.
    enum class Result
    {
        ACYCLIC,    //!< deadlock free
        CYCLIC,     //!< a cycle of dependencies exists (GetCycle)
        NOT_CHECKED //!< the work would exceed the budget
    };

    /// One channel: the cable leaving \p node by \p port, in class \p cls.
    struct Channel
    {
        uint32_t node; //!< the switch the channel leaves
        uint32_t port; //!< its port
        uint8_t cls;   //!< the class (0 when classes are off)
    };

    /**
     * \param graph the topology
     * \param routes its route table
     * \param useClasses follow the table's class rule (false: every packet stays in
     *        class 0, as a RoCEv2 fabric with RoceSwitch::UseClassRule false)
     */
    ChannelDependencyGraph(Ptr<const TopologyGraph> graph,
                           Ptr<const RouteTable> routes,
                           bool useClasses);

    /**
     * Build the graph and look for a cycle.
     * \param budget largest number of (channel, candidate) steps to take (0: none)
     * \return the result; NOT_CHECKED when the budget ran out
     */
    Result Compute(uint64_t budget);

    /// \return the cycle Compute found (each channel waits for the next, the last for the first)
    const std::vector<Channel>& GetCycle() const;
    /// \return the cycle as "node:port:class -> ... -> " back to the first (at most
    /// \p maxChannels shown, then "...")
    std::string DescribeCycle(uint32_t maxChannels) const;

  private:
    /// Channel index of (node, port, cls).
    uint32_t Index(uint32_t node, uint32_t port, uint8_t cls) const;

    Ptr<const TopologyGraph> m_graph;
    Ptr<const RouteTable> m_routes;
    uint8_t m_classes;                //!< classes followed (1 when off)
    std::vector<uint32_t> m_portBase; //!< per node: index of its port 0
    std::vector<Channel> m_channels;  //!< by index
    std::vector<Channel> m_cycle;
};

} // namespace ns3

#endif // CHANNEL_DEPENDENCY_GRAPH_H
