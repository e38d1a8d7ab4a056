/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-control-registry.h"

namespace ns3
{

NameRegistry<CongestionControlRegistry::Entry>&
CongestionControlRegistry::Table()
{
    static NameRegistry<Entry> table("congestion control");
    return table;
}

void
CongestionControlRegistry::Add(Entry entry)
{
    Table().Add(std::move(entry));
}

bool
CongestionControlRegistry::Has(const std::string& name)
{
    return Table().Has(name);
}

const CongestionControlRegistry::Entry&
CongestionControlRegistry::Get(const std::string& name)
{
    return Table().Get(name);
}

std::vector<std::string>
CongestionControlRegistry::GetNames()
{
    return Table().GetNames();
}

} // namespace ns3
