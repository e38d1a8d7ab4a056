/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "buffer-coverage-check.h"

#include "ns3/log.h"

#include <map>
#include <sstream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BufferCoverageCheck");

std::string
BufferCoverageCheck::Describe(const RdmaFabric& fabric)
{
    return Describe(*fabric.GetGraph(), fabric.GetBufferShortfalls());
}

std::string
BufferCoverageCheck::Describe(const TopologyGraph& graph,
                              const std::vector<RdmaFabric::BufferShortfall>& shortfalls)
{
    if (shortfalls.empty())
    {
        return "";
    }
    // One entry per (buffer kind, buffer, need kind, need), in order of first port.
    using Key = std::tuple<std::string, uint64_t, std::string, uint64_t>;

    struct Group
    {
        size_t first;   //!< index of its first port in shortfalls
        uint64_t ports; //!< ports like it
    };

    std::map<Key, Group> groups;
    std::vector<Key> order;
    for (size_t i = 0; i < shortfalls.size(); ++i)
    {
        const RdmaFabric::BufferShortfall& s = shortfalls[i];
        const Key key{s.buffer, s.bufferBytes, s.needed, s.neededBytes};
        auto [it, fresh] = groups.emplace(key, Group{i, 0});
        it->second.ports++;
        if (fresh)
        {
            order.push_back(key);
        }
    }
    std::ostringstream os;
    os << (shortfalls.size() == 1
               ? "1 port's buffer is below its link's"
               : std::to_string(shortfalls.size()) + " ports' buffers are below their links'")
       << " bandwidth-delay product: ";
    for (size_t g = 0; g < order.size() && g < MAX_GROUPS; ++g)
    {
        const Group& group = groups.at(order[g]);
        const RdmaFabric::BufferShortfall& s = shortfalls[group.first];
        os << (g == 0 ? "" : "; ");
        if (group.ports > 1)
        {
            os << group.ports << " ports like ";
        }
        os << graph.GetNodeName(s.node) << " port " << s.port << ": " << s.buffer << " "
           << s.bufferBytes << " B < " << s.needed << " " << s.neededBytes << " B";
    }
    if (order.size() > MAX_GROUPS)
    {
        os << "; and " << order.size() - MAX_GROUPS << " more kinds of ports";
    }
    const bool vl = shortfalls.front().buffer.rfind("VL buffer", 0) == 0;
    os << (vl ? " (the link waits for credits: it cannot run at line rate)"
              : " (a lossless class can drop)");
    NS_LOG_WARN(os.str());
    return os.str();
}

} // namespace ns3
