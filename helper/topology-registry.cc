/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-registry.h"

#include "ns3/fatal-error.h"
#include "ns3/topology-file-reader.h"

#include <stdexcept>

namespace ns3
{

std::vector<TopologyRegistry::Entry>&
TopologyRegistry::Table()
{
    static std::vector<Entry> table;
    return table;
}

void
TopologyRegistry::Add(Entry entry)
{
    if (entry.name.empty())
    {
        NS_FATAL_ERROR("a topology family registered without a name");
    }
    for (const Entry& e : Table())
    {
        if (e.name == entry.name)
        {
            NS_FATAL_ERROR("topology '" << entry.name << "' registered twice");
        }
    }
    auto& table = Table();
    auto at = table.begin();
    while (at != table.end() && at->name < entry.name)
    {
        ++at;
    }
    table.insert(at, std::move(entry));
}

const TopologyRegistry::Entry&
TopologyRegistry::Get(const std::string& name)
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
    throw std::invalid_argument("unknown topology '" + name + "'; allowed: " + allowed);
}

std::vector<std::string>
TopologyRegistry::GetNames()
{
    std::vector<std::string> names;
    for (const Entry& e : Table())
    {
        names.push_back(e.name);
    }
    return names;
}

/// A topology file in the HPCC-derived simulators' format: its cables carry their own
/// rates and delays, so the Links are not used.
static const bool g_fileRegistered = [] {
    TopologyRegistry::Entry e;
    e.name = "file";
    e.help = "a file in the HPCC-derived simulators' format (--topology-file)";
    e.flags = {"topology-file"};
    e.build = [](const TopologyRegistry::Links&, const TopologyRegistry::FlagReader& flag) {
        const std::string path = flag("topology-file");
        if (path.empty())
        {
            throw std::invalid_argument("needs --topology-file=PATH");
        }
        return TopologyFileReader::Read(path);
    };
    TopologyRegistry::Add(std::move(e));
    return true;
}();

} // namespace ns3
