/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "routing-engine-registry.h"

#include <utility>

namespace ns3
{

NameRegistry<RoutingEngineRegistry::Entry>&
RoutingEngineRegistry::Table()
{
    static NameRegistry<Entry> table("routing engine");
    return table;
}

void
RoutingEngineRegistry::Add(Entry entry)
{
    Table().Add(std::move(entry));
}

const RoutingEngineRegistry::Entry&
RoutingEngineRegistry::Get(const std::string& name)
{
    return Table().Get(name);
}

bool
RoutingEngineRegistry::Has(const std::string& name)
{
    return Table().Has(name);
}

std::vector<std::string>
RoutingEngineRegistry::GetNames()
{
    return Table().GetNames();
}

RoutingEngineRegistration::RoutingEngineRegistration(const std::string& name,
                                                     const std::string& help,
                                                     std::function<Ptr<RoutingEngine>()> create,
                                                     bool reorders)
{
    RoutingEngineRegistry::Add({name, help, std::move(create), reorders});
}

} // namespace ns3
