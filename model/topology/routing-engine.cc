/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "routing-engine.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoutingEngine");

RoutingEngine::~RoutingEngine()
{
}

RouteTable::PathMode
RoutingEngine::GetPathMode() const
{
    return RouteTable::PathMode::MINIMAL;
}

/// A new engine of that name, or null for a name no engine registered.
static Ptr<RoutingEngine>
MakeEngine(const std::string& name)
{
    if (!RoutingEngineRegistry::Has(name))
    {
        return nullptr;
    }
    return RoutingEngineRegistry::Get(name).create();
}

static std::string
Join(const std::vector<std::string>& v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
    {
        s += (i ? ", " : "") + v[i];
    }
    return s;
}

std::vector<std::string>
RoutingEngine::FittingEngines(const TopologyGraph& graph)
{
    std::vector<std::string> out;
    for (const std::string& n : RoutingEngineRegistry::GetNames())
    {
        if (MakeEngine(n)->Fits(graph))
        {
            out.emplace_back(n);
        }
    }
    return out;
}

std::string
RoutingEngine::AutoName(const TopologyGraph& graph)
{
    return graph.GetShape().routing;
}

Ptr<RoutingEngine>
RoutingEngine::CreateByName(const std::string& name, Ptr<const TopologyGraph> graph)
{
    std::string n = name == "auto" ? AutoName(*graph) : name;
    Ptr<RoutingEngine> e = MakeEngine(n);
    if (!e)
    {
        throw std::invalid_argument("routing '" + name + "' is not allowed (allowed: auto, " +
                                    Join(RoutingEngineRegistry::GetNames()) + ")");
    }
    if (!e->Fits(*graph))
    {
        throw std::invalid_argument("routing '" + name + "' does not fit topology '" +
                                    graph->GetShape().type + "' (allowed there: auto, " +
                                    Join(FittingEngines(*graph)) + ")");
    }
    return e;
}

Ptr<RouteTable>
RoutingEngine::BuildTable(const std::string& name, Ptr<const TopologyGraph> graph)
{
    return CreateByName(name, graph)->Compute(graph);
}

Ptr<RouteTable>
RoutingEngine::Compute(Ptr<const TopologyGraph> graph)
{
    if (!Fits(*graph))
    {
        throw std::invalid_argument("routing '" + GetName() + "' does not fit topology '" +
                                    graph->GetShape().type + "' (allowed there: auto, " +
                                    Join(FittingEngines(*graph)) + ")");
    }
    Ptr<RouteTable> t = Create<RouteTable>(graph, GetName());
    t->SetPathMode(GetPathMode());
    DoCompute(*graph, *t);
    t->Finish();
    NS_LOG_INFO(GetName() << " on " << graph->Describe() << ": " << t->GetNPortSets()
                          << " port sets, " << t->GetMemoryBytes() << " bytes");
    return t;
}

std::vector<RoutingEngine::AttachGroup>
RoutingEngine::GroupHostsByAttachment(const TopologyGraph& graph)
{
    std::vector<AttachGroup> groups;
    std::map<std::vector<uint32_t>, uint32_t> index;
    std::vector<uint32_t> att;
    const auto& hosts = graph.GetHosts();
    for (uint32_t rank = 0; rank < hosts.size(); ++rank)
    {
        att.clear();
        for (const auto& p : graph.GetPorts(hosts[rank]))
        {
            if (graph.IsLinkUp(p.link))
            {
                att.push_back(p.peer);
            }
        }
        std::sort(att.begin(), att.end());
        att.erase(std::unique(att.begin(), att.end()), att.end());
        auto it = index.find(att);
        if (it == index.end())
        {
            it = index.emplace(att, groups.size()).first;
            groups.push_back(AttachGroup{att, {}});
        }
        groups[it->second].hosts.push_back(rank);
    }
    return groups;
}

void
RoutingEngine::SetLastHop(const TopologyGraph& graph, const AttachGroup& group, RouteTable& table)
{
    std::vector<uint32_t> ports;
    for (uint32_t s : group.switches)
    {
        const auto& sp = graph.GetPorts(s);
        for (uint32_t rank : group.hosts)
        {
            const uint32_t node = graph.GetHosts()[rank];
            ports.clear();
            for (uint32_t p = 0; p < sp.size(); ++p)
            {
                if (sp[p].peer == node && graph.IsPortUp(s, p))
                {
                    ports.push_back(p);
                }
            }
            table.SetRoute(s, rank, table.InternPortSet(ports));
        }
    }
}

} // namespace ns3
