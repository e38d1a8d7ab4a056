/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fault-injection-helper.h"

#include "ns3/pfc-watchdog.h"
#include "ns3/topology-graph.h"

#include <stdexcept>

namespace ns3
{

FaultInjectionHelper::FaultInjectionHelper()
{
    m_watchdog.SetTypeId(PfcWatchdog::GetTypeId());
}

void
FaultInjectionHelper::FailLink(Ptr<RdmaFabric> fabric, uint32_t link, Time down, Time up) const
{
    fabric->FailLink(link, down, up > Time(0) ? up : Time(-1));
}

uint32_t
FaultInjectionHelper::FailLinkBetween(Ptr<RdmaFabric> fabric,
                                      uint32_t nodeA,
                                      uint32_t nodeB,
                                      Time down,
                                      Time up) const
{
    const uint32_t link = GetLinkBetween(*fabric->GetGraph(), nodeA, nodeB);
    FailLink(fabric, link, down, up);
    return link;
}

std::vector<uint32_t>
FaultInjectionHelper::FailNode(Ptr<RdmaFabric> fabric, uint32_t node, Time at) const
{
    const std::vector<uint32_t> links = GetNodeCables(*fabric->GetGraph(), node);
    for (uint32_t link : links)
    {
        FailLink(fabric, link, at);
    }
    return links;
}

void
FaultInjectionHelper::PfcStorm(Ptr<RdmaFabric> fabric, uint32_t host, Time start, Time end) const
{
    fabric->StallReceive(host, start, end > Time(0) ? end : Time(-1));
}

void
FaultInjectionHelper::FailHost(Ptr<RdmaFabric> fabric, uint32_t host, Time at) const
{
    fabric->FailHost(host, at);
}

void
FaultInjectionHelper::SetPfcWatchdogAttribute(const std::string& name, const AttributeValue& value)
{
    m_watchdog.Set(name, value);
}

Ptr<PfcWatchdog>
FaultInjectionHelper::InstallPfcWatchdog(Ptr<RdmaFabric> fabric) const
{
    Ptr<PfcWatchdog> watchdog = m_watchdog.Create<PfcWatchdog>();
    watchdog->Install(fabric);
    return watchdog;
}

std::vector<uint32_t>
FaultInjectionHelper::GetNodeCables(const TopologyGraph& g, uint32_t node)
{
    if (node >= g.GetNNodes() || g.IsHost(node))
    {
        throw std::invalid_argument("node " + std::to_string(node) +
                                    (node >= g.GetNNodes() ? " does not exist" : " is a host") +
                                    "; allowed: a switch, node " + std::to_string(g.GetNHosts()) +
                                    ".." + std::to_string(g.GetNNodes() - 1) +
                                    ", with no host attached (hosts cannot fail in this model)");
    }
    std::vector<uint32_t> links;
    for (const TopologyGraph::Port& port : g.GetPorts(node))
    {
        if (g.IsHost(port.peer))
        {
            throw std::invalid_argument("switch " + std::to_string(node) + " has host " +
                                        std::to_string(port.peer) +
                                        " attached, whose cable cannot fail in this model; "
                                        "allowed: a switch whose cables all lead to switches");
        }
        links.push_back(port.link);
    }
    return links;
}

uint32_t
FaultInjectionHelper::GetLinkBetween(const TopologyGraph& g, uint32_t nodeA, uint32_t nodeB)
{
    if (nodeA < g.GetNNodes())
    {
        for (const TopologyGraph::Port& port : g.GetPorts(nodeA))
        {
            if (port.peer == nodeB)
            {
                return port.link;
            }
        }
    }
    throw std::invalid_argument("nodes " + std::to_string(nodeA) + " and " + std::to_string(nodeB) +
                                " share no cable (allowed: two nodes " + "of the graph's " +
                                std::to_string(g.GetNNodes()) + " joined by a link)");
}

} // namespace ns3
