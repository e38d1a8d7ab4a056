/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-workload-registry.h"

#include "ns3/abort.h"
#include "ns3/config-error.h"

#include <stdexcept>

namespace ns3
{

std::map<std::string, ScenarioWorkloadRegistry::Factory>&
ScenarioWorkloadRegistry::ByName()
{
    static std::map<std::string, Factory> table;
    return table;
}

std::map<WorkloadRegistry::Family, ScenarioWorkloadRegistry::Factory>&
ScenarioWorkloadRegistry::ByFamily()
{
    static std::map<WorkloadRegistry::Family, Factory> table;
    return table;
}

void
ScenarioWorkloadRegistry::Add(WorkloadRegistry::Family family, Factory create)
{
    NS_ABORT_MSG_IF(!ByFamily().emplace(family, std::move(create)).second,
                    "ScenarioWorkloadRegistry: family " << family << " registered twice");
}

void
ScenarioWorkloadRegistry::Add(const std::string& name, Factory create)
{
    NS_ABORT_MSG_IF(name.empty() || !ByName().emplace(name, std::move(create)).second,
                    "ScenarioWorkloadRegistry: workload '" << name
                                                           << "' empty or registered twice");
}

std::unique_ptr<ScenarioWorkload>
ScenarioWorkloadRegistry::Create(const std::string& workload, uint32_t gpusPerServer)
{
    const WorkloadRegistry::Entry* entry = nullptr;
    try
    {
        entry = &WorkloadRegistry::Get(workload);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--workload: ") + e.what());
    }
    if (auto it = ByName().find(workload); it != ByName().end())
    {
        return it->second();
    }
    const WorkloadRegistry::Family family = WorkloadRegistry::GetFamily(entry->name, gpusPerServer);
    auto it = ByFamily().find(family);
    NS_ABORT_MSG_IF(it == ByFamily().end(),
                    "--workload=" << workload << ": no ScenarioWorkload for its family " << family);
    return it->second();
}

} // namespace ns3
