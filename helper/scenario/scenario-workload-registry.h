/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_WORKLOAD_REGISTRY_H
#define SCENARIO_WORKLOAD_REGISTRY_H

#include "scenario-workload.h"

#include "ns3/workload-registry.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The scenario runner's workload components: for a --workload (a name of
 * WorkloadRegistry), the ScenarioWorkload registered under that name, else the one of
 * its family. Each registers with one line in its .cc file:
 * \code
 *   static ScenarioWorkloadRegistration<CollectiveScenarioWorkload> g_registration(
 *       WorkloadRegistry::COLLECTIVE);
 *   static ScenarioWorkloadRegistration<MyScenarioWorkload> g_mine("my-workload");
 * \endcode
 */
class ScenarioWorkloadRegistry
{
  public:
    /// Makes a new component.
    typedef std::function<std::unique_ptr<ScenarioWorkload>()> Factory;

    /// Add the component of every workload of \p family (at load time); aborts on a
    /// family registered twice.
    static void Add(WorkloadRegistry::Family family, Factory create);
    /// Add the component of workload \p name (at load time; it wins over its family's);
    /// aborts on a name registered twice.
    static void Add(const std::string& name, Factory create);
    /**
     * \param workload a --workload value
     * \param gpusPerServer GPUs per server (0 or 1: one-NIC hosts); on servers a workload
     *        runs as its WorkloadRegistry::GetFamily family there (alltoall: the collective)
     * \return a new component of it
     * \throws ConfigError "--workload: unknown workload 'x'; allowed: ..." for a name
     * WorkloadRegistry does not have
     */
    static std::unique_ptr<ScenarioWorkload> Create(const std::string& workload,
                                                    uint32_t gpusPerServer = 0);

  private:
    /// The components by workload name (made on first use: registrations run in static
    /// constructors)
    static std::map<std::string, Factory>& ByName();
    /// The components by family
    static std::map<WorkloadRegistry::Family, Factory>& ByFamily();
};

/**
 * \ingroup ai-fabric
 * \brief Registers the ScenarioWorkload subclass T (default-constructible) for a
 * workload family or one workload (one static object per registration).
 */
template <typename T>
class ScenarioWorkloadRegistration
{
  public:
    /// \param family the family whose workloads T runs
    explicit ScenarioWorkloadRegistration(WorkloadRegistry::Family family)
    {
        ScenarioWorkloadRegistry::Add(family, [] { return std::make_unique<T>(); });
    }

    /// \param name the workload (a WorkloadRegistry name) T runs
    explicit ScenarioWorkloadRegistration(const std::string& name)
    {
        ScenarioWorkloadRegistry::Add(name, [] { return std::make_unique<T>(); });
    }
};

} // namespace ns3

#endif // SCENARIO_WORKLOAD_REGISTRY_H
