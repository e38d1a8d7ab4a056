/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROUTING_ENGINE_H
#define ROUTING_ENGINE_H

#include "route-table.h"
#include "topology-graph.h"

#include "ns3/simple-ref-count.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Base of the routing engines that fill a RouteTable from a TopologyGraph.
 *
 * Shared by the RoCEv2 fabric (ECMP tables) and the InfiniBand Subnet Manager
 * (LFTs). Engines: "ecmp" (ShortestPathRouting), "updown" (UpDownRouting),
 * "dor" (DimensionOrderRouting), "minimal" / "valiant" / "ugal"
 * (DragonflyRouting), "minhop" (MinHopRouting), "ftree" (FatTreeRouting), "dfsssp"
 * (DfssspRouting). "auto" picks the topology's natural engine.
 */
class RoutingEngine : public SimpleRefCount<RoutingEngine>
{
  public:
    virtual ~RoutingEngine();

    /// \return the engine name ("ecmp", "updown", ...)
    virtual std::string GetName() const = 0;
    /// \return true if the engine can route this topology
    virtual bool Fits(const TopologyGraph& graph) const = 0;
    /**
     * \return how switches choose a packet's path under this engine, beyond its
     * table's candidates (DragonFly Valiant and UGAL: per packet); Compute stores it in
     * the table (RouteTable::GetPathMode). The default: MINIMAL.
     */
    virtual RouteTable::PathMode GetPathMode() const;

    /**
     * Fill a table. Throws std::invalid_argument if the engine does not fit.
     * \param graph the topology
     * \return the complete table
     */
    Ptr<RouteTable> Compute(Ptr<const TopologyGraph> graph);

    /**
     * \param name auto, ecmp, updown, dor, minimal, valiant, ugal
     * \param graph the topology the engine will route
     * \return the engine; throws std::invalid_argument for an unknown name or an
     *         engine that does not fit, listing the engines that fit
     */
    static Ptr<RoutingEngine> CreateByName(const std::string& name, Ptr<const TopologyGraph> graph);
    /// CreateByName(name, graph)->Compute(graph).
    static Ptr<RouteTable> BuildTable(const std::string& name, Ptr<const TopologyGraph> graph);
    /// \return the natural engine the graph's builder named (Shape::routing: ecmp, dor, minimal)
    static std::string AutoName(const TopologyGraph& graph);
    /// \return the names of the engines that fit the graph
    static std::vector<std::string> FittingEngines(const TopologyGraph& graph);

  protected:
    /**
     * Fill every switch row of table.
     * \param graph the topology
     * \param table the table to fill
     */
    virtual void DoCompute(const TopologyGraph& graph, RouteTable& table) = 0;

    /// Hosts that attach to the same set of switches (they share all routes but the last hop).
    struct AttachGroup
    {
        std::vector<uint32_t> switches; //!< attachment switches, ascending
        std::vector<uint32_t> hosts;    //!< host ranks
    };

    /// \return the hosts grouped by attachment switch set, in order of first host rank
    static std::vector<AttachGroup> GroupHostsByAttachment(const TopologyGraph& graph);
    /**
     * Set, at every attachment switch of a group, the route to each of its hosts:
     * the switch's ports to that host.
     */
    static void SetLastHop(const TopologyGraph& graph, const AttachGroup& group, RouteTable& table);
};

} // namespace ns3

#endif // ROUTING_ENGINE_H
