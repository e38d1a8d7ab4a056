/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_CHECKS_H
#define FABRIC_CHECKS_H

#include "ns3/ptr.h"

#include <cstdint>
#include <nlohmann/json.hpp>

namespace ns3
{

class RdmaFabric;
class RouteTable;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief What the runner checks of a built fabric before it runs: whether the routing
 * is deadlock free on its lossless links (ChannelDependencyGraph) and whether every
 * port's buffer covers its link's bandwidth-delay product (BufferCoverageCheck). A
 * failed check is a warning (stderr and summary.json "warnings"), not an error.
 */
class FabricChecks
{
  public:
    /**
     * \param fabric the built fabric
     * \param graph its topology
     * \param routes its routes
     * \param printWarnings whether to print the warnings on stderr (--mpi: rank 0 only)
     * \param summary gets routing_deadlock_free, routing_vls and warnings
     */
    static void Run(const RdmaFabric& fabric,
                    Ptr<TopologyGraph> graph,
                    Ptr<RouteTable> routes,
                    bool printWarnings,
                    nlohmann::json& summary);

    /// ChannelDependencyGraph steps the deadlock-freedom check may take (about a
    /// second); larger fabrics are reported as not checked.
    static constexpr uint64_t kDependencyCheckBudget = 50'000'000;

  private:
    /// summary.json routing_deadlock_free (null: not checked or no lossless links),
    /// routing_vls, and a warning when it is not
    static void CheckDeadlockFreedom(const RdmaFabric& fabric,
                                     Ptr<TopologyGraph> graph,
                                     Ptr<RouteTable> routes,
                                     bool printWarnings,
                                     nlohmann::json& summary);
    /// The ports whose buffer cannot cover their link's bandwidth-delay product
    static void CheckBufferCoverage(const RdmaFabric& fabric,
                                    bool printWarnings,
                                    nlohmann::json& summary);
};

} // namespace ns3

#endif // FABRIC_CHECKS_H
