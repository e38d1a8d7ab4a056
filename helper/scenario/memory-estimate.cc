/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "memory-estimate.h"

#include "fabric-builder-registry.h"

#include "ns3/config-error.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/resource.h>

namespace ns3
{

uint64_t
MemoryEstimate::FabricBytes(const TopologyHelper::Size& size, const std::string& fabric)
{
    const uint64_t perCable = FabricBuilderRegistry::GetProperties(fabric).GetBytesPerCable();
    const uint64_t routes = TopologyHelper::SaturatingMultiply(
        TopologyHelper::SaturatingMultiply(size.switches, size.hosts),
        ROUTE_BYTES_PER_ENTRY);
    return TopologyHelper::SaturatingAdd(
        TopologyHelper::SaturatingAdd(PROCESS_BYTES + MPI_PROCESS_BYTES,
                                      TopologyHelper::SaturatingMultiply(size.cables, perCable)),
        routes);
}

uint64_t
MemoryEstimate::PeakResidentBytes()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

uint64_t
MemoryEstimate::AvailableBytes()
{
    // /proc/meminfo: "Key: value kB" lines (proc(5)); sizes in kB
    static const std::map<std::string, uint64_t> unitBytes = {{"kB", 1024}};
    std::ifstream in("/proc/meminfo");
    std::map<std::string, uint64_t> fields;
    for (std::string line; std::getline(in, line);)
    {
        std::istringstream words(line);
        std::string key;
        uint64_t value = 0;
        std::string unit; // (none on the page counts, e.g. HugePages_Total)
        if (words >> key >> value)
        {
            words >> unit;
            auto scale = unitBytes.find(unit);
            fields.emplace(key, scale == unitBytes.end() ? value : value * scale->second);
        }
    }
    auto available = fields.find("MemAvailable:");
    return available == fields.end() ? 0 : available->second;
}

std::string
MemoryEstimate::Format(uint64_t bytes)
{
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = static_cast<double>(bytes);
    size_t u = 0;
    while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0]))
    {
        v /= 1024;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof(text), u == 0 ? "%.0f %s" : "%.3g %s", v, units[u]);
    return text;
}

void
MemoryEstimate::Check(const TopologyHelper::Size& size,
                      const std::string& fabric,
                      const std::string& what)
{
    std::ostringstream counts;
    counts << size.hosts << " hosts, " << size.switches << " switches and " << size.cables
           << " cables";
    // Node ids are uint32_t and UINT32_MAX is TopologyGraph::UNREACHABLE.
    const uint64_t nodes = TopologyHelper::SaturatingAdd(size.hosts, size.switches);
    if (nodes > UINT32_MAX - 1)
    {
        throw ConfigError(what + ": " + counts.str() + ": more than the " +
                          std::to_string(UINT32_MAX - 1) + " nodes a fabric may have");
    }
    const uint64_t need = FabricBytes(size, fabric);
    const uint64_t available = AvailableBytes();
    if (available != 0 && need > available)
    {
        throw ConfigError(what + ": " + counts.str() + " need about " + Format(need) +
                          " of memory (estimated for " + fabric + " before any traffic); " +
                          "this machine has " + Format(available) +
                          " available (MemAvailable in /proc/meminfo)");
    }
}

} // namespace ns3
