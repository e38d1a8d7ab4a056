/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_TOPOLOGY_H
#define SCENARIO_TOPOLOGY_H

#include "scenario-config.h"

#include "ns3/ptr.h"
#include "ns3/topology-helper.h"

namespace ns3
{

class RouteTable;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief The scenario layer's topology: --topology's family (TopologyRegistry) built
 * from its flags, refused before allocation when it would not fit in memory, and its
 * routes by --routing. ScenarioRunner::BuildTopology and BuildRoutes call these.
 */
class ScenarioTopology
{
  public:
    /**
     * \param c the configuration
     * \return the topology graph it describes (no simulation)
     * \throws ConfigError naming --topology when the family refuses its flags or the
     * fabric would not fit in this machine's memory (MemoryEstimate)
     */
    static Ptr<TopologyGraph> Build(const ScenarioConfig& c);
    /**
     * \param c the configuration
     * \param graph its topology
     * \return the route table of --routing on \p graph
     * \throws ConfigError naming --routing when the engine does not fit the graph
     */
    static Ptr<RouteTable> Routes(const ScenarioConfig& c, Ptr<TopologyGraph> graph);
    /// \return the graph's hosts, switches and cables
    static TopologyHelper::Size SizeOf(Ptr<const TopologyGraph> graph);
};

} // namespace ns3

#endif // SCENARIO_TOPOLOGY_H
