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
