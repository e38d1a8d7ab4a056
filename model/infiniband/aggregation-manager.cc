/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-manager.h"

#include "ib-fabric.h"
#include "ib-hca.h"
#include "ib-switch.h"
#include "sharp-aggregation-engine.h"

#include "ns3/log.h"
#include "ns3/topology-graph.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationManager");

NS_OBJECT_ENSURE_REGISTERED(AggregationManager);

TypeId
AggregationManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationManager")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<AggregationManager>()
            .AddTraceSource("TreeAllocated",
                            "A tree was allocated: (tree id, hosts, aggregation switches)",
                            MakeTraceSourceAccessor(&AggregationManager::m_allocatedTrace),
                            "ns3::AggregationManager::TreeAllocatedCallback")
            .AddTraceSource("TreeRefused",
                            "No tree was left for a job's hosts: (hosts)",
                            MakeTraceSourceAccessor(&AggregationManager::m_refusedTrace),
                            "ns3::AggregationManager::TreeRefusedCallback");
    return tid;
}

AggregationManager::AggregationManager() = default;

AggregationManager::~AggregationManager() = default;

void
AggregationManager::DoDispose()
{
    m_fabric = nullptr;
    m_engines.clear();
    m_hostPorts.clear();
    m_trees.clear();
    Object::DoDispose();
}

void
AggregationManager::SetFabric(Ptr<IbFabric> fabric)
{
    m_fabric = PeekPointer(fabric);
    Ptr<TopologyGraph> g = fabric->GetGraph();
    m_switchIndexOf.assign(g->GetNNodes(), std::numeric_limits<uint32_t>::max());
    for (uint32_t i = 0; i < fabric->GetSwitches().size(); ++i)
    {
        m_switchIndexOf[fabric->GetSwitchNode(i)] = i;
    }
    m_hostPorts.assign(g->GetNHosts(), nullptr);
}

Ptr<IbFabric>
AggregationManager::GetFabric() const
{
    return Ptr<IbFabric>(m_fabric);
}

uint16_t
AggregationManager::LidOf(uint32_t node) const
{
    Ptr<TopologyGraph> g = m_fabric->GetGraph();
    if (g->IsHost(node))
    {
        const auto& hosts = g->GetHosts();
        const auto it = std::find(hosts.begin(), hosts.end(), node);
        return m_fabric->GetSubnetManager()->GetHostLid(static_cast<uint32_t>(it - hosts.begin()));
    }
    return m_fabric->GetSubnetManager()->GetSwitchLid(m_switchIndexOf.at(node));
}

Ptr<SharpAggregationEngine>
AggregationManager::EngineOf(uint32_t node)
{
    auto it = m_engines.find(node);
    if (it != m_engines.end())
    {
        return it->second;
    }
    Ptr<SharpAggregationEngine> e = CreateObject<SharpAggregationEngine>();
    m_engines[node] = e;
    return e;
}

bool
AggregationManager::AllocateTree(const std::vector<uint32_t>& hosts,
                                 SharpHcaPort::ResultCallback cb,
                                 TreeInfo& info,
                                 std::string* why)
{
    NS_ABORT_MSG_IF(!m_fabric, "AggregationManager::AllocateTree before SetFabric");
    Ptr<TopologyGraph> g = m_fabric->GetGraph();
    if (hosts.size() < 2)
    {
        throw std::invalid_argument("a SHARP tree needs at least 2 hosts, not " +
                                    std::to_string(hosts.size()));
    }

    // Each member's attachment: (leaf switch, its port towards the member, the member's
    // node there: the host, or its server's crossbar acting as relay).
    struct Attach
    {
        uint32_t leaf;
        uint32_t leafPort;
        uint32_t child;
    };

    std::vector<Attach> attach;
    std::map<uint32_t, NodePlan> relays;
    std::set<uint32_t> seen;
    for (uint32_t h : hosts)
    {
        if (h >= g->GetNHosts() || !seen.insert(h).second)
        {
            throw std::invalid_argument("SHARP tree member host " + std::to_string(h) +
                                        " is repeated or not a host");
        }
        const uint32_t node = g->GetHosts()[h];
        const TopologyGraph::Port& up = g->GetPorts(node)[0];
        if (g->IsScaleUpSwitch(up.peer))
        {
            // GPU j's NIC is its crossbar's uplink j (crossbar port G + j is its scale-up
            // cable): the crossbar relays between the two.
            const uint32_t gpus = g->GetShape().gpusPerServer;
            const uint32_t j = up.peerPort - gpus;
            const TopologyGraph::Port& nic = g->GetPorts(up.peer).at(j);
            if (relays.count(up.peer))
            {
                throw std::invalid_argument("SHARP tree members share a server (host " +
                                            std::to_string(h) + "): one GPU per server per tree");
            }
            relays[up.peer] = NodePlan{j, LidOf(nic.peer), {up.peerPort}, {LidOf(node)}};
            attach.push_back(Attach{nic.peer, nic.peerPort, up.peer});
        }
        else
        {
            attach.push_back(Attach{up.peer, up.peerPort, node});
        }
    }
    // Candidate roots: every scale-out switch that reaches every leaf, nearest first.
    std::set<uint32_t> leaves;
    for (const Attach& a : attach)
    {
        leaves.insert(a.leaf);
    }

    struct Bfs
    {
        std::vector<uint32_t> dist;
        std::vector<uint32_t> parent;     //!< node towards the root
        std::vector<uint32_t> upPort;     //!< port at the node towards the parent
        std::vector<uint32_t> parentPort; //!< port at the parent towards the node
    };

    const uint32_t none = std::numeric_limits<uint32_t>::max();
    auto bfs = [&](uint32_t root) {
        Bfs b;
        b.dist.assign(g->GetNNodes(), none);
        b.parent.assign(g->GetNNodes(), none);
        b.upPort.assign(g->GetNNodes(), none);
        b.parentPort.assign(g->GetNNodes(), none);
        std::vector<uint32_t> q{root};
        b.dist[root] = 0;
        for (size_t i = 0; i < q.size(); ++i)
        {
            const uint32_t n = q[i];
            const auto& ports = g->GetPorts(n);
            for (uint32_t p = 0; p < ports.size(); ++p)
            {
                const uint32_t m = ports[p].peer;
                if (g->IsHost(m) || g->IsScaleUpSwitch(m) || !g->IsPortUp(n, p) ||
                    b.dist[m] != none)
                {
                    continue;
                }
                b.dist[m] = b.dist[n] + 1;
                b.parent[m] = n;
                b.upPort[m] = ports[p].peerPort;
                b.parentPort[m] = p;
                q.push_back(m);
            }
        }
        return b;
    };
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> candidates; // (max, sum, node)
    for (uint32_t s : g->GetSwitches())
    {
        if (g->IsScaleUpSwitch(s) || g->IsSwitchDown(s))
        {
            continue;
        }
        const Bfs b = bfs(s);
        uint32_t worst = 0;
        uint32_t sum = 0;
        for (uint32_t l : leaves)
        {
            worst = std::max(worst, b.dist[l]);
            sum += b.dist[l] == none ? 0 : b.dist[l];
        }
        if (worst != none)
        {
            candidates.emplace_back(worst, sum, s);
        }
    }
    std::sort(candidates.begin(), candidates.end());
    bool full = false;
    for (const auto& c : candidates)
    {
        const uint32_t root = std::get<2>(c);
        const Bfs b = bfs(root);
        // The union of the leaves' paths to the root.
        std::map<uint32_t, NodePlan> nodes;
        for (const Attach& a : attach)
        {
            NodePlan& leafPlan = nodes[a.leaf];
            leafPlan.childPorts.push_back(a.leafPort);
            leafPlan.childLids.push_back(LidOf(a.child));
        }
        for (uint32_t l : leaves)
        {
            for (uint32_t n = l; n != root; n = b.parent[n])
            {
                NodePlan& plan = nodes[n];
                if (plan.parentLid != 0)
                {
                    break; // joined an earlier leaf's path
                }
                plan.parentPort = b.upPort[n];
                plan.parentLid = LidOf(b.parent[n]);
                NodePlan& up = nodes[b.parent[n]];
                up.childPorts.push_back(b.parentPort[n]);
                up.childLids.push_back(LidOf(n));
            }
        }
        nodes[root].parentPort = SharpAggregationEngine::NO_PARENT;
        bool fits = true;
        for (const auto& [node, plan] : nodes)
        {
            Ptr<SharpAggregationEngine> e = EngineOf(node);
            if (m_used[node] >= e->GetMaxTrees())
            {
                fits = false;
                break;
            }
        }
        if (!fits)
        {
            full = true;
            continue;
        }
        // Install it.
        const uint16_t id = m_nextTree++;
        Allocated a;
        a.hosts = hosts;
        info = TreeInfo();
        info.id = id;
        info.root = root;
        info.windowBytes = std::numeric_limits<uint64_t>::max();
        uint32_t levels = 0;
        for (const Attach& at : attach)
        {
            levels = std::max(levels, b.dist[at.leaf] + 1);
        }
        info.levels = levels;
        auto install = [&](uint32_t node, const NodePlan& plan, bool counted) {
            Ptr<SharpAggregationEngine> e = EngineOf(node);
            if (!e->IsAttached())
            {
                e->Attach(m_fabric->GetSwitches().at(m_switchIndexOf.at(node)), LidOf(node));
            }
            e->AddTree(id, plan.parentPort, plan.parentLid, plan.childPorts, plan.childLids);
            a.nodes[node] = plan;
            if (counted)
            {
                // Each tree through a switch gets its share of the buffer (sharp_am's
                // per-job quota of a node's buffers).
                info.windowBytes =
                    std::min(info.windowBytes, e->GetBufferBytes() / e->GetMaxTrees());
                m_used[node]++;
                a.counted.push_back(node);
                info.switches.push_back(node);
            }
        };
        for (const auto& [node, plan] : nodes)
        {
            install(node, plan, true);
        }
        for (const auto& [node, plan] : relays)
        {
            install(node, plan, false);
        }
        for (size_t i = 0; i < hosts.size(); ++i)
        {
            const uint32_t h = hosts[i];
            if (!m_hostPorts[h])
            {
                m_hostPorts[h] = CreateObject<SharpHcaPort>();
                m_hostPorts[h]->Attach(m_fabric->GetHca(h));
            }
            m_hostPorts[h]->JoinTree(id,
                                     LidOf(g->GetPorts(g->GetHosts()[h])[0].peer),
                                     info.windowBytes,
                                     cb);
        }
        m_trees[id] = a;
        m_allocations++;
        NS_LOG_INFO("SHARP tree " << id << ": " << hosts.size() << " hosts, root node " << root
                                  << ", " << info.switches.size() << " switches, " << levels
                                  << " levels, window " << info.windowBytes << " B");
        m_allocatedTrace(id,
                         static_cast<uint32_t>(hosts.size()),
                         static_cast<uint32_t>(info.switches.size()));
        return true;
    }
    m_refusals++;
    m_refusedTrace(static_cast<uint32_t>(hosts.size()));
    if (why)
    {
        *why = full ? "every tree over these hosts' switches would pass a switch with no "
                      "streaming-aggregation tree left (SharpAggregationEngine MaxTrees)"
                    : "no switch reaches every host";
    }
    return false;
}

void
AggregationManager::ReleaseTree(uint16_t id)
{
    auto it = m_trees.find(id);
    if (it == m_trees.end())
    {
        return;
    }
    for (const auto& [node, plan] : it->second.nodes)
    {
        m_engines.at(node)->RemoveTree(id);
    }
    for (uint32_t node : it->second.counted)
    {
        m_used[node]--;
    }
    for (uint32_t h : it->second.hosts)
    {
        m_hostPorts[h]->LeaveTree(id);
    }
    m_trees.erase(it);
}

Ptr<SharpHcaPort>
AggregationManager::GetHostPort(uint32_t host) const
{
    return host < m_hostPorts.size() ? m_hostPorts[host] : nullptr;
}

Ptr<SharpAggregationEngine>
AggregationManager::GetEngine(uint32_t node) const
{
    auto it = m_engines.find(node);
    return it == m_engines.end() || !it->second->IsAttached() ? nullptr : it->second;
}

uint32_t
AggregationManager::GetTreesInUse() const
{
    return static_cast<uint32_t>(m_trees.size());
}

uint32_t
AggregationManager::GetAllocations() const
{
    return m_allocations;
}

uint32_t
AggregationManager::GetRefusals() const
{
    return m_refusals;
}

} // namespace ns3
