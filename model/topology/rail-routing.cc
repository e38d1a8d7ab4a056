/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rail-routing.h"

#include "routing-engine-registry.h"

#include "ns3/log.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RailRouting");

static RoutingEngineRegistration g_registration(
    "rail",
    "GPU servers: each GPU reached through its own NIC; a server's crossbar sends "
    "inter-server traffic out on the destination's rail (NCCL PXN)",
    [] { return Ptr<RoutingEngine>(Create<RailRouting>()); });

std::string
RailRouting::GetName() const
{
    return "rail";
}

bool
RailRouting::Fits(const TopologyGraph& graph) const
{
    const auto& shape = graph.GetShape();
    return shape.gpusPerServer > 1 && shape.servers * shape.gpusPerServer == graph.GetNHosts();
}

void
RailRouting::DoCompute(const TopologyGraph& graph, RouteTable& table)
{
    const auto& shape = graph.GetShape();
    const uint32_t gpus = shape.gpusPerServer;
    const uint32_t n = graph.GetNNodes();
    // Crossbar s's port j < G is GPU s*G+j's NIC cable, port G+j its scale-up cable
    // (TopologyHelper's server wiring).
    auto xbar = [&shape](uint32_t server) { return shape.firstScaleUpSwitch + server; };
    // Scale-out distances to an attachment switch, by switch (shared by its GPUs).
    std::map<uint32_t, std::vector<uint32_t>> distTo;
    std::vector<uint32_t> queue;
    std::vector<uint32_t> ports;
    auto distances = [&](uint32_t a) -> const std::vector<uint32_t>& {
        auto it = distTo.find(a);
        if (it != distTo.end())
        {
            return it->second;
        }
        std::vector<uint32_t> dist(n, TopologyGraph::UNREACHABLE);
        queue.clear();
        dist[a] = 0;
        queue.push_back(a);
        for (size_t head = 0; head < queue.size(); ++head)
        {
            const uint32_t u = queue[head];
            for (const auto& p : graph.GetPorts(u))
            {
                if (dist[p.peer] == TopologyGraph::UNREACHABLE && !graph.IsHost(p.peer) &&
                    !graph.IsScaleUpSwitch(p.peer) && graph.IsLinkUp(p.link))
                {
                    dist[p.peer] = dist[u] + 1;
                    queue.push_back(p.peer);
                }
            }
        }
        return distTo.emplace(a, std::move(dist)).first->second;
    };
    for (uint32_t d = 0; d < graph.GetNHosts(); ++d)
    {
        const uint32_t server = d / gpus;
        const uint32_t rail = d % gpus;
        const TopologyGraph::Port& nic = graph.GetPorts(xbar(server))[rail];
        const TopologyGraph::Port& gpu = graph.GetPorts(xbar(server))[gpus + rail];
        NS_ABORT_MSG_IF(gpu.peer != graph.GetHosts()[d],
                        "rail routing: crossbar " << xbar(server) << " port " << gpus + rail
                                                  << " is not GPU " << d);
        // The destination's own crossbar: the GPU's scale-up port.
        if (graph.IsLinkUp(gpu.link))
        {
            table.SetRoute(xbar(server), d, table.InternSinglePort(gpus + rail));
        }
        // Every other crossbar: out on the destination's rail.
        for (uint32_t s = 0; s < shape.servers; ++s)
        {
            if (s != server && graph.IsLinkUp(graph.GetPorts(xbar(s))[rail].link) &&
                graph.IsLinkUp(nic.link))
            {
                table.SetRoute(xbar(s), d, table.InternSinglePort(rail));
            }
        }
        if (!graph.IsLinkUp(nic.link))
        {
            continue; // the GPU's NIC cable is down: unreachable from the network
        }
        // The scale-out switches: down to A, then the NIC cable.
        const uint32_t a = nic.peer;
        const std::vector<uint32_t>& dist = distances(a);
        table.SetRoute(a, d, table.InternSinglePort(nic.peerPort));
        for (uint32_t sw : graph.GetSwitches())
        {
            if (sw == a || graph.IsScaleUpSwitch(sw))
            {
                continue;
            }
            const auto& sp = graph.GetPorts(sw);
            ports.clear();
            if (dist[sw] == TopologyGraph::UNREACHABLE)
            {
                // No scale-out path to the destination's rail (rail-only, another rail's
                // leaf): down into the destination's server, whose crossbar delivers.
                // PXN never sends traffic here; the entry completes the table (an
                // InfiniBand Subnet Manager programs every LFT entry).
                for (uint32_t p = 0; p < sp.size(); ++p)
                {
                    if (sp[p].peer == xbar(server) && graph.IsLinkUp(sp[p].link))
                    {
                        ports.push_back(p);
                    }
                }
                if (!ports.empty())
                {
                    table.SetRoute(sw, d, table.InternPortSet(ports));
                }
                continue;
            }
            for (uint32_t p = 0; p < sp.size(); ++p)
            {
                if (!graph.IsHost(sp[p].peer) && !graph.IsScaleUpSwitch(sp[p].peer) &&
                    dist[sp[p].peer] + 1 == dist[sw] && graph.IsLinkUp(sp[p].link))
                {
                    ports.push_back(p);
                }
            }
            if (!ports.empty())
            {
                table.SetRoute(sw, d, table.InternPortSet(ports));
            }
        }
    }
}

} // namespace ns3
