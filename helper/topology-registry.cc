/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-registry.h"

#include "ns3/topology-file-reader.h"

#include <stdexcept>

namespace ns3
{

NameRegistry<TopologyRegistry::Entry>&
TopologyRegistry::Table()
{
    static NameRegistry<Entry> table("topology");
    return table;
}

void
TopologyRegistry::Add(Entry entry)
{
    Table().Add(std::move(entry));
}

const TopologyRegistry::Entry&
TopologyRegistry::Get(const std::string& name)
{
    return Table().Get(name);
}

std::vector<std::string>
TopologyRegistry::GetNames()
{
    return Table().GetNames();
}

const std::vector<std::pair<std::string, std::string>>&
TopologyRegistry::ServerFlags()
{
    static const std::vector<std::pair<std::string, std::string>> flags{
        {"gpus-per-server", "GpusPerServer"},
        {"scaleup-rate", "ScaleUpRate"},
        {"scaleup-latency", "ScaleUpDelay"},
        {"scaleup-efficiency", "ScaleUpEfficiency"}};
    return flags;
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
