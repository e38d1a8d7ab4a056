/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "load-balancing-registry.h"

#include <utility>

namespace ns3
{

NameRegistry<LoadBalancingRegistry::Entry>&
LoadBalancingRegistry::Table()
{
    static NameRegistry<Entry> table("load-balancing policy");
    return table;
}

void
LoadBalancingRegistry::Add(Entry entry)
{
    Table().Add(std::move(entry));
}

const LoadBalancingRegistry::Entry&
LoadBalancingRegistry::Get(const std::string& name)
{
    return Table().Get(name);
}

bool
LoadBalancingRegistry::Has(const std::string& name)
{
    return Table().Has(name);
}

std::vector<std::string>
LoadBalancingRegistry::GetNames()
{
    return Table().GetNames();
}

LoadBalancingRegistration::LoadBalancingRegistration(LoadBalancingRegistry::Entry entry)
{
    LoadBalancingRegistry::Add(std::move(entry));
}

} // namespace ns3
