/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-topology.h"

#include "memory-estimate.h"

#include "ns3/config-error.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-registry.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

TopologyHelper::Size
ScenarioTopology::SizeOf(Ptr<const TopologyGraph> graph)
{
    return {graph->GetNHosts(), graph->GetNSwitches(), graph->GetNLinks()};
}

Ptr<TopologyGraph>
ScenarioTopology::Build(const ScenarioConfig& c)
{
    try
    {
        const TopologyRegistry::Links links{c.hostRate,
                                            c.linkDelay,
                                            c.fabricRate,
                                            c.linkDelay,
                                            c.cableLengths,
                                            c.propagationDelay};
        const TopologyRegistry::Entry& entry = TopologyRegistry::Get(c.topology);
        const TopologyRegistry::FlagReader flag = [&c](const std::string& name) {
            return c.Get(name);
        };
        std::string what = "--topology=" + c.topology;
        // A family sized in servers (rail) always has them; others with --gpus-per-server
        const bool servers =
            c.gpusPerServer > 1 ||
            std::find(entry.flags.begin(), entry.flags.end(), "servers") != entry.flags.end();
        const auto& serverFlags = TopologyRegistry::ServerFlags();
        for (const std::string& name : entry.flags)
        {
            // Plain hosts (one GPU per server): the server flags say nothing.
            const bool serverFlag = std::any_of(serverFlags.begin(),
                                                serverFlags.end(),
                                                [&name](const auto& f) { return f.first == name; });
            if (!serverFlag || servers)
            {
                what += " --" + name + "=" + c.Get(name);
            }
        }
        // Refused before anything is allocated when the shape's closed form says so;
        // a topology file is as large as its own lines, so it is checked once read.
        if (entry.size)
        {
            MemoryEstimate::Check(entry.size(flag), c.fabric, what);
        }
        Ptr<TopologyGraph> graph = entry.build(links, flag);
        if (!entry.size)
        {
            MemoryEstimate::Check(SizeOf(graph), c.fabric, what);
        }
        return graph;
    }
    catch (const ConfigError&)
    {
        throw;
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--topology=") + c.topology + ": " + e.what());
    }
}

Ptr<RouteTable>
ScenarioTopology::Routes(const ScenarioConfig& c, Ptr<TopologyGraph> graph)
{
    try
    {
        return RoutingEngine::BuildTable(c.routing, graph);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--routing=") + c.routing + ": " + e.what());
    }
}

} // namespace ns3
