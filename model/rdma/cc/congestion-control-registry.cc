/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-control-registry.h"

#include "ns3/fatal-error.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

std::vector<CongestionControlRegistry::Entry>&
CongestionControlRegistry::Table()
{
    static std::vector<Entry> table;
    return table;
}

void
CongestionControlRegistry::Add(Entry entry)
{
    if (entry.name.empty())
    {
        NS_FATAL_ERROR("congestion control " << entry.typeName << " registered without a name");
    }
    if (Has(entry.name))
    {
        NS_FATAL_ERROR("congestion control '" << entry.name << "' registered twice (by "
                                              << Get(entry.name).typeName << " and "
                                              << entry.typeName << ")");
    }
    auto& table = Table();
    const auto at =
        std::lower_bound(table.begin(),
                         table.end(),
                         entry.name,
                         [](const Entry& e, const std::string& n) { return e.name < n; });
    table.insert(at, std::move(entry));
}

bool
CongestionControlRegistry::Has(const std::string& name)
{
    const auto& table = Table();
    return std::any_of(table.begin(), table.end(), [&](const Entry& e) { return e.name == name; });
}

const CongestionControlRegistry::Entry&
CongestionControlRegistry::Get(const std::string& name)
{
    for (const Entry& e : Table())
    {
        if (e.name == name)
        {
            return e;
        }
    }
    std::string allowed;
    for (const std::string& n : GetNames())
    {
        allowed += (allowed.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("unknown congestion control '" + name + "'; allowed: " + allowed);
}

std::vector<std::string>
CongestionControlRegistry::GetNames()
{
    std::vector<std::string> names;
    for (const Entry& e : Table())
    {
        names.push_back(e.name);
    }
    return names;
}

} // namespace ns3
