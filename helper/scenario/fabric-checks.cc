/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-checks.h"

#include "ns3/buffer-coverage-check.h"
#include "ns3/channel-dependency-graph.h"
#include "ns3/rdma-fabric.h"
#include "ns3/route-table.h"
#include "ns3/topology-graph.h"

#include <iostream>
#include <string>

namespace ns3
{

void
FabricChecks::Run(const RdmaFabric& fabric,
                  Ptr<TopologyGraph> graph,
                  Ptr<RouteTable> routes,
                  bool printWarnings,
                  nlohmann::json& summary)
{
    CheckDeadlockFreedom(fabric, graph, routes, printWarnings, summary);
    CheckBufferCoverage(fabric, printWarnings, summary);
}

void
FabricChecks::CheckDeadlockFreedom(const RdmaFabric& fabric,
                                   Ptr<TopologyGraph> graph,
                                   Ptr<RouteTable> routes,
                                   bool printWarnings,
                                   nlohmann::json& summary)
{
    // Only lossless links can deadlock: RoCEv2 with PFC, InfiniBand always.
    if (!fabric.HasLosslessLinks())
    {
        summary["routing_deadlock_free"] = nullptr;
        return;
    }
    // A RoCEv2 switch with UseClassRule false keeps every packet in one class.
    const bool classesOff = routes->GetNumClasses() > 1 && fabric.GetSwitchClasses() == 1;
    const bool useClasses = !classesOff;
    summary["routing_vls"] = useClasses ? routes->GetNumClasses() : 1;
    ChannelDependencyGraph cdg(graph, routes, useClasses);
    const ChannelDependencyGraph::Result r = cdg.Compute(kDependencyCheckBudget);
    if (r == ChannelDependencyGraph::Result::NOT_CHECKED)
    {
        summary["routing_deadlock_free"] = nullptr;
        return;
    }
    const bool free = r == ChannelDependencyGraph::Result::ACYCLIC;
    summary["routing_deadlock_free"] = free;
    if (!free)
    {
        const std::string warning =
            "--routing=" + routes->GetEngineName() +
            (classesOff ? " with one class (RoceSwitch::UseClassRule false)" : "") +
            " is not deadlock free on this topology: its channel dependencies close a cycle "
            "(node:port:class " +
            cdg.DescribeCycle(8) +
            "), so lossless links can lock up (the run then stops with exit 4); updown is "
            "deadlock free on any topology";
        if (printWarnings)
        {
            std::cerr << "ai-fabric-sim: warning: " << warning << "\n";
        }
        summary["warnings"].push_back(warning);
    }
}

void
FabricChecks::CheckBufferCoverage(const RdmaFabric& fabric,
                                  bool printWarnings,
                                  nlohmann::json& summary)
{
    const std::string warning = BufferCoverageCheck::Describe(fabric);
    if (warning.empty())
    {
        return;
    }
    if (printWarnings)
    {
        std::cerr << "ai-fabric-sim: warning: " << warning << "\n";
    }
    summary["warnings"].push_back(warning);
}

} // namespace ns3
