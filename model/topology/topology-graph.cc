/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-graph.h"

#include "ns3/log.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyGraph");

TopologyGraph::TopologyGraph()
{
}

void
TopologyGraph::CheckNode(uint32_t node, const char* what) const
{
    if (node >= m_kind.size())
    {
        std::ostringstream os;
        os << "TopologyGraph::" << what << ": node id " << node << " does not exist (allowed 0.."
           << (m_kind.empty() ? 0 : m_kind.size() - 1) << ")";
        throw std::invalid_argument(os.str());
    }
}

uint32_t
TopologyGraph::AddHost(uint32_t group)
{
    uint32_t id = m_kind.size();
    m_kind.push_back(NodeKind::HOST);
    m_tier.push_back(0);
    m_group.push_back(group);
    m_index.push_back(0);
    m_hostIndex.push_back(m_hosts.size());
    m_ports.emplace_back();
    m_hosts.push_back(id);
    return id;
}

uint32_t
TopologyGraph::AddSwitch(uint32_t tier, uint32_t group, uint32_t index)
{
    uint32_t id = m_kind.size();
    m_kind.push_back(NodeKind::SWITCH);
    m_tier.push_back(tier);
    m_group.push_back(group);
    m_index.push_back(index);
    m_hostIndex.push_back(UNREACHABLE);
    m_ports.emplace_back();
    m_switches.push_back(id);
    return id;
}

uint32_t
TopologyGraph::AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay)
{
    CheckNode(a, "AddLink");
    CheckNode(b, "AddLink");
    if (a == b)
    {
        std::ostringstream os;
        os << "TopologyGraph::AddLink: self loop on node " << a
           << " (a link must join two different nodes)";
        throw std::invalid_argument(os.str());
    }
    uint32_t id = m_links.size();
    Link l{a,
           static_cast<uint32_t>(m_ports[a].size()),
           b,
           static_cast<uint32_t>(m_ports[b].size()),
           rate,
           delay,
           NO_TIER};
    m_links.push_back(l);
    m_linkUp.push_back(1);
    m_ports[a].push_back(Port{id, b, l.portB});
    m_ports[b].push_back(Port{id, a, l.portA});
    NS_LOG_LOGIC("link " << id << ": " << a << ":" << l.portA << " <-> " << b << ":" << l.portB);
    return id;
}

uint32_t
TopologyGraph::AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay, uint32_t tier)
{
    const uint32_t id = AddLink(a, b, rate, delay);
    m_links[id].tier = tier;
    return id;
}

void
TopologyGraph::SetLinkDelay(uint32_t id, Time delay)
{
    GetLink(id); // throws for an unknown id
    m_links[id].delay = delay;
}

uint32_t
TopologyGraph::GetNNodes() const
{
    return m_kind.size();
}

uint32_t
TopologyGraph::GetNHosts() const
{
    return m_hosts.size();
}

uint32_t
TopologyGraph::GetNSwitches() const
{
    return m_switches.size();
}

uint32_t
TopologyGraph::GetNLinks() const
{
    return m_links.size();
}

TopologyGraph::NodeKind
TopologyGraph::GetKind(uint32_t node) const
{
    CheckNode(node, "GetKind");
    return m_kind[node];
}

bool
TopologyGraph::IsHost(uint32_t node) const
{
    return GetKind(node) == NodeKind::HOST;
}

uint32_t
TopologyGraph::GetTier(uint32_t node) const
{
    CheckNode(node, "GetTier");
    return m_tier[node];
}

uint32_t
TopologyGraph::GetGroup(uint32_t node) const
{
    CheckNode(node, "GetGroup");
    return m_group[node];
}

uint32_t
TopologyGraph::GetIndex(uint32_t node) const
{
    CheckNode(node, "GetIndex");
    return m_index[node];
}

std::string
TopologyGraph::GetNodeName(uint32_t node) const
{
    CheckNode(node, "GetNodeName");
    const uint32_t tier = m_tier[node];
    const std::string group = std::to_string(m_group[node]);
    const std::string index = std::to_string(m_index[node]);
    if (m_kind[node] == NodeKind::HOST)
    {
        return "host" + std::to_string(m_hostIndex[node]);
    }
    if (IsScaleUpSwitch(node))
    {
        return "server" + std::to_string(node - m_shape.firstScaleUpSwitch) + "-xbar";
    }
    if (m_shape.switchNames == Shape::SwitchNames::BY_TIER && !m_shape.tierNames.empty())
    {
        const std::string& name =
            m_shape.tierNames[std::min<size_t>(tier, m_shape.tierNames.size() - 1)];
        return tier < m_shape.groupedTiers ? m_shape.groupPrefix + group + "-" + name + index
                                           : name + index;
    }
    if (m_shape.switchNames == Shape::SwitchNames::BY_COORDINATES && !m_shape.dims.empty())
    {
        std::string name = "sw";
        uint32_t rest = m_index[node];
        for (size_t d = 0; d < m_shape.dims.size(); ++d)
        {
            name += (d == 0 ? "" : "-") + std::to_string(rest % m_shape.dims[d]);
            rest /= m_shape.dims[d];
        }
        return name;
    }
    const auto it = std::lower_bound(m_switches.begin(), m_switches.end(), node);
    return "switch" + std::to_string(it - m_switches.begin());
}

void
TopologyGraph::SetTier(uint32_t node, uint32_t tier)
{
    CheckNode(node, "SetTier");
    m_tier[node] = tier;
}

const std::vector<TopologyGraph::Port>&
TopologyGraph::GetPorts(uint32_t node) const
{
    CheckNode(node, "GetPorts");
    return m_ports[node];
}

const TopologyGraph::Link&
TopologyGraph::GetLink(uint32_t id) const
{
    if (id >= m_links.size())
    {
        std::ostringstream os;
        os << "TopologyGraph::GetLink: link id " << id << " does not exist (" << m_links.size()
           << " links)";
        throw std::invalid_argument(os.str());
    }
    return m_links[id];
}

void
TopologyGraph::SetLinkUp(uint32_t id, bool up)
{
    GetLink(id); // throws for an unknown id
    m_linkUp[id] = up ? 1 : 0;
    NS_LOG_INFO("link " << id << (up ? " up" : " down"));
}

bool
TopologyGraph::IsSwitchDown(uint32_t node) const
{
    return m_kind.at(node) == NodeKind::SWITCH && !m_ports[node].empty() &&
           std::none_of(m_ports[node].begin(), m_ports[node].end(), [this](const Port& p) {
               return IsLinkUp(p.link);
           });
}

bool
TopologyGraph::IsLinkUp(uint32_t id) const
{
    GetLink(id);
    return m_linkUp[id] != 0;
}

uint32_t
TopologyGraph::GetNLinksDown() const
{
    uint32_t n = 0;
    for (uint8_t up : m_linkUp)
    {
        n += up ? 0 : 1;
    }
    return n;
}

const std::vector<uint32_t>&
TopologyGraph::GetHosts() const
{
    return m_hosts;
}

const std::vector<uint32_t>&
TopologyGraph::GetSwitches() const
{
    return m_switches;
}

uint32_t
TopologyGraph::GetHostIndex(uint32_t node) const
{
    CheckNode(node, "GetHostIndex");
    if (m_kind[node] != NodeKind::HOST)
    {
        std::ostringstream os;
        os << "TopologyGraph::GetHostIndex: node " << node << " is a switch, not a host";
        throw std::invalid_argument(os.str());
    }
    return m_hostIndex[node];
}

std::vector<uint32_t>
TopologyGraph::Distances(uint32_t from) const
{
    std::vector<uint32_t> dist;
    Distances(from, dist);
    return dist;
}

void
TopologyGraph::Distances(uint32_t from, std::vector<uint32_t>& dist) const
{
    CheckNode(from, "Distances");
    dist.assign(m_kind.size(), UNREACHABLE);
    std::vector<uint32_t> queue;
    queue.reserve(m_kind.size());
    dist[from] = 0;
    queue.push_back(from);
    for (size_t head = 0; head < queue.size(); ++head)
    {
        uint32_t u = queue[head];
        if (u != from && m_kind[u] == NodeKind::HOST)
        {
            continue; // hosts do not forward
        }
        for (const auto& p : m_ports[u])
        {
            if (dist[p.peer] == UNREACHABLE && m_linkUp[p.link])
            {
                dist[p.peer] = dist[u] + 1;
                queue.push_back(p.peer);
            }
        }
    }
}

void
TopologyGraph::SetShape(const Shape& shape)
{
    m_shape = shape;
}

const TopologyGraph::Shape&
TopologyGraph::GetShape() const
{
    return m_shape;
}

std::string
TopologyGraph::Describe() const
{
    std::ostringstream os;
    os << m_shape.label << ": " << GetNHosts() << " hosts, " << GetNSwitches() << " switches, "
       << GetNLinks() << " links";
    return os.str();
}

void
TopologyGraph::Validate() const
{
    if (m_hosts.empty())
    {
        throw std::invalid_argument("topology has no hosts (at least one host is required)");
    }
    for (uint32_t h : m_hosts)
    {
        if (m_ports[h].empty())
        {
            std::ostringstream os;
            os << "topology: host node " << h << " has no link (every host needs >= 1 link)";
            throw std::invalid_argument(os.str());
        }
        for (const auto& p : m_ports[h])
        {
            if (m_kind[p.peer] == NodeKind::HOST)
            {
                std::ostringstream os;
                os << "topology: host node " << h << " is linked to host node " << p.peer
                   << " (hosts may only attach to switches)";
                throw std::invalid_argument(os.str());
            }
        }
    }
    if (m_switches.empty())
    {
        throw std::invalid_argument("topology has no switches (hosts attach to switches)");
    }
    // A failed switch is out of the fabric: the rest must still be connected.
    auto failed = [this](uint32_t n) { return IsSwitchDown(n); };
    const auto live = std::find_if_not(m_switches.begin(), m_switches.end(), failed);
    if (live == m_switches.end())
    {
        throw std::invalid_argument("every switch's cables are down");
    }
    std::vector<uint32_t> dist;
    Distances(*live, dist);
    for (uint32_t n = 0; n < dist.size(); ++n)
    {
        if (dist[n] == UNREACHABLE && !IsSwitchDown(n))
        {
            std::ostringstream os;
            os << "topology is not connected: node " << n << " cannot be reached from switch "
               << *live;
            throw std::invalid_argument(os.str());
        }
    }
}

} // namespace ns3
