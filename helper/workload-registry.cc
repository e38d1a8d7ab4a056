/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "workload-registry.h"

namespace ns3
{

NameRegistry<WorkloadRegistry::Entry>&
WorkloadRegistry::Table()
{
    static NameRegistry<Entry> table("workload");
    return table;
}

void
WorkloadRegistry::Add(Entry entry)
{
    Table().Add(std::move(entry));
}

const WorkloadRegistry::Entry&
WorkloadRegistry::Get(const std::string& name)
{
    return Table().Get(name);
}

bool
WorkloadRegistry::Has(const std::string& name)
{
    return Table().Has(name);
}

std::vector<std::string>
WorkloadRegistry::GetNames()
{
    return Table().GetNames();
}

std::vector<std::string>
WorkloadRegistry::GetNames(Family family)
{
    std::vector<std::string> names;
    for (const std::string& name : GetNames())
    {
        if (Get(name).family == family)
        {
            names.push_back(name);
        }
    }
    return names;
}

std::map<std::string, WorkloadRegistry::Family>&
WorkloadRegistry::ServerFamilies()
{
    static std::map<std::string, Family> families;
    return families;
}

void
WorkloadRegistry::SetServerFamily(const std::string& name, Family family)
{
    ServerFamilies()[name] = family;
}

WorkloadRegistry::Family
WorkloadRegistry::GetFamily(const std::string& name, uint32_t gpusPerServer)
{
    const Entry& entry = Get(name);
    if (gpusPerServer > 1)
    {
        auto it = ServerFamilies().find(name);
        if (it != ServerFamilies().end())
        {
            return it->second;
        }
    }
    return entry.family;
}

WorkloadRegistration::WorkloadRegistration(WorkloadRegistry::Entry entry)
{
    WorkloadRegistry::Add(std::move(entry));
}

static WorkloadRegistration g_noneRegistration({"none",
                                                "no main workload: only --background and "
                                                "--flows",
                                                WorkloadRegistry::NONE,
                                                {}});

} // namespace ns3
