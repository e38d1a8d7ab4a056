/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Routing engines: completeness, minimality, path counts, deadlock freedom.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/channel-dependency-graph.h"
#include "ns3/dimension-order-routing.h"
#include "ns3/dragonfly-routing.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/routing-engine-registry.h"
#include "ns3/routing-engine.h"
#include "ns3/string.h"
#include "ns3/topology-file-reader.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

Ptr<TopologyGraph>
FatTree(uint32_t k)
{
    Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
    h->SetAttribute("K", UintegerValue(k));
    return h->Build();
}

Ptr<TopologyGraph>
Torus(const std::string& dims, bool wrap, uint32_t hostsPerRouter = 1)
{
    Ptr<TorusTopologyHelper> h = wrap
                                     ? CreateObject<TorusTopologyHelper>()
                                     : Ptr<TorusTopologyHelper>(CreateObject<MeshTopologyHelper>());
    h->SetAttribute("Dims", StringValue(dims));
    h->SetAttribute("HostsPerRouter", UintegerValue(hostsPerRouter));
    return h->Build();
}

Ptr<TopologyGraph>
Dragonfly(uint32_t p, uint32_t a, uint32_t hh, uint32_t g)
{
    Ptr<DragonflyTopologyHelper> h = CreateObject<DragonflyTopologyHelper>();
    h->SetAttribute("P", UintegerValue(p));
    h->SetAttribute("A", UintegerValue(a));
    h->SetAttribute("H", UintegerValue(hh));
    h->SetAttribute("G", UintegerValue(g));
    return h->Build();
}

/**
 * Every host to every host, following all candidates (DP over the candidate DAG).
 * paths[s][d] = number of distinct candidate paths, minLen/maxLen in cables.
 * Fails (returns a message) on a loop, a dead end or a path through another host.
 */
struct WalkResult
{
    std::string error;                         //!< empty if complete and loop free
    std::vector<std::vector<double>> paths;    //!< [src rank][dst rank]
    std::vector<std::vector<uint32_t>> minLen; //!< [src rank][dst rank]
    std::vector<std::vector<uint32_t>> maxLen; //!< [src rank][dst rank]
};

WalkResult
WalkAll(const TopologyGraph& g, const RouteTable& t)
{
    WalkResult res;
    const uint32_t n = g.GetNNodes();
    const uint32_t H = g.GetNHosts();
    res.paths.assign(H, std::vector<double>(H, 0));
    res.minLen.assign(H, std::vector<uint32_t>(H, 0));
    res.maxLen.assign(H, std::vector<uint32_t>(H, 0));
    std::vector<uint8_t> state(n);
    std::vector<double> cnt(n);
    std::vector<uint32_t> mn(n);
    std::vector<uint32_t> mx(n);
    for (uint32_t d = 0; d < H && res.error.empty(); ++d)
    {
        const uint32_t dst = g.GetHosts()[d];
        std::fill(state.begin(), state.end(), 0);
        std::function<void(uint32_t, uint32_t)> visit = [&](uint32_t u, uint32_t srcHost) {
            if (!res.error.empty())
            {
                return;
            }
            state[u] = 1;
            cnt[u] = 0;
            mn[u] = TopologyGraph::UNREACHABLE;
            mx[u] = 0;
            auto cands = t.GetCandidates(u, d);
            if (cands.empty())
            {
                res.error =
                    "no candidate at node " + std::to_string(u) + " to rank " + std::to_string(d);
            }
            for (uint32_t port : cands)
            {
                const uint32_t v = g.GetPorts(u)[port].peer;
                if (v == dst)
                {
                    cnt[u] += 1;
                    mn[u] = std::min(mn[u], 1u);
                    mx[u] = std::max(mx[u], 1u);
                    continue;
                }
                if (g.IsHost(v))
                {
                    res.error = "path transits host " + std::to_string(v);
                    return;
                }
                if (state[v] == 1)
                {
                    res.error =
                        "loop through node " + std::to_string(v) + " to rank " + std::to_string(d);
                    return;
                }
                if (state[v] == 0)
                {
                    visit(v, srcHost);
                }
                cnt[u] += cnt[v];
                mn[u] = std::min(mn[u], mn[v] + 1);
                mx[u] = std::max(mx[u], mx[v] + 1);
            }
            state[u] = 2;
        };
        for (uint32_t s = 0; s < H && res.error.empty(); ++s)
        {
            if (s == d)
            {
                continue;
            }
            const uint32_t src = g.GetHosts()[s];
            state[src] = 0; // hosts are sources only
            visit(src, src);
            res.paths[s][d] = cnt[src];
            res.minLen[s][d] = mn[src];
            res.maxLen[s][d] = mx[src];
        }
    }
    return res;
}

/// \return "" if every path has the BFS length, else a description
std::string
CheckMinimal(const TopologyGraph& g, const WalkResult& w)
{
    for (uint32_t s = 0; s < g.GetNHosts(); ++s)
    {
        auto dist = g.Distances(g.GetHosts()[s]);
        for (uint32_t d = 0; d < g.GetNHosts(); ++d)
        {
            if (s != d && (w.minLen[s][d] != dist[g.GetHosts()[d]] ||
                           w.maxLen[s][d] != dist[g.GetHosts()[d]]))
            {
                std::ostringstream os;
                os << "rank " << s << " -> " << d << ": path lengths " << w.minLen[s][d] << ".."
                   << w.maxLen[s][d] << ", BFS distance " << dist[g.GetHosts()[d]];
                return os.str();
            }
        }
    }
    return "";
}

/**
 * Channel dependency graph of single-path routing with the table's class rule
 * (or with every class forced to 0); true if it has a cycle.
 */
bool
CdgHasCycle(const TopologyGraph& g, const RouteTable& t, bool useClasses)
{
    const uint32_t n = g.GetNNodes();
    std::vector<uint32_t> off(n + 1, 0);
    for (uint32_t u = 0; u < n; ++u)
    {
        off[u + 1] = off[u] + g.GetPorts(u).size();
    }
    const uint32_t C = std::max<uint32_t>(t.GetNumClasses(), 1);
    const uint32_t nch = off[n] * C;
    std::vector<std::set<uint32_t>> dep(nch);
    for (uint32_t s = 0; s < g.GetNHosts(); ++s)
    {
        for (uint32_t d = 0; d < g.GetNHosts(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            // every candidate path (all engines here give DAGs); DFS with the class state
            std::function<void(uint32_t, uint32_t, uint8_t, uint32_t)> go =
                [&](uint32_t u, uint32_t inPort, uint8_t cls, uint32_t prevCh) {
                    for (uint32_t port : t.GetCandidates(u, d))
                    {
                        uint8_t c = 0;
                        if (useClasses && !g.IsHost(u))
                        {
                            c = t.NextClass(u, inPort, port, cls);
                        }
                        const uint32_t ch = (off[u] + port) * C + c;
                        if (prevCh != RouteTable::NO_PORT)
                        {
                            dep[prevCh].insert(ch);
                        }
                        const auto& pr = g.GetPorts(u)[port];
                        if (!g.IsHost(pr.peer))
                        {
                            go(pr.peer, pr.peerPort, c, ch);
                        }
                    }
                };
            go(g.GetHosts()[s], RouteTable::NO_PORT, 0, RouteTable::NO_PORT);
        }
    }
    // Kahn
    std::vector<uint32_t> indeg(nch, 0);
    for (const auto& s : dep)
    {
        for (uint32_t v : s)
        {
            indeg[v]++;
        }
    }
    std::vector<uint32_t> q;
    for (uint32_t c = 0; c < nch; ++c)
    {
        if (indeg[c] == 0)
        {
            q.push_back(c);
        }
    }
    size_t seen = 0;
    while (!q.empty())
    {
        uint32_t c = q.back();
        q.pop_back();
        ++seen;
        for (uint32_t v : dep[c])
        {
            if (--indeg[v] == 0)
            {
                q.push_back(v);
            }
        }
    }
    return seen != nch;
}

} // namespace

/// \brief ECMP and up*/down* on fat-trees, leaf-spine and a file topology.
class TreeRoutingTestCase : public TestCase
{
  public:
    TreeRoutingTestCase()
        : TestCase("ecmp and updown on trees: complete, minimal, k^2 over 4 and k over 2 paths")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k : {4u, 8u})
        {
            Ptr<TopologyGraph> g = FatTree(k);
            for (const char* engine : {"ecmp", "updown", "auto"})
            {
                Ptr<RouteTable> t = RoutingEngine::BuildTable(engine, g);
                WalkResult w = WalkAll(*g, *t);
                NS_TEST_ASSERT_MSG_EQ(w.error, "", engine << " k=" << k);
                NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*g, w), "", engine << " k=" << k);
                const uint32_t perEdge = k / 2;
                const uint32_t perPod = k * k / 4;
                // host 0 vs: same edge, same pod other edge, other pod
                NS_TEST_ASSERT_MSG_EQ(w.paths[0][1], 1.0, "same edge: 1 path");
                NS_TEST_ASSERT_MSG_EQ(w.paths[0][perEdge], k / 2.0, "same pod: k/2 paths");
                NS_TEST_ASSERT_MSG_EQ(w.paths[0][perPod], k * k / 4.0, "other pod: k^2/4 paths");
                NS_TEST_ASSERT_MSG_EQ(w.paths[perPod * k - 1][0], k * k / 4.0, "k^2/4 back");
            }
        }
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("Leaves", UintegerValue(4));
        ls->SetAttribute("Spines", UintegerValue(3));
        ls->SetAttribute("LinksPerPair", UintegerValue(2));
        Ptr<TopologyGraph> l = ls->Build();
        for (const char* engine : {"ecmp", "updown"})
        {
            WalkResult w = WalkAll(*l, *RoutingEngine::BuildTable(engine, l));
            NS_TEST_ASSERT_MSG_EQ(w.error, "", engine);
            NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*l, w), "", engine);
            NS_TEST_ASSERT_MSG_EQ(w.paths[0][15], 12.0, "spines x parallel cables up and down");
        }
        // the k=4 fat-tree written as a file: tiers from host distance, same routes
        Ptr<TopologyGraph> f4 = FatTree(4);
        std::ostringstream os;
        os << f4->GetNNodes() << " " << f4->GetNSwitches() << " " << f4->GetNLinks() << "\n";
        for (uint32_t s : f4->GetSwitches())
        {
            os << s << " ";
        }
        os << "\n";
        for (uint32_t i = 0; i < f4->GetNLinks(); ++i)
        {
            os << f4->GetLink(i).a << " " << f4->GetLink(i).b << " 100Gbps 0.001ms 0\n";
        }
        std::istringstream in(os.str());
        Ptr<TopologyGraph> f = TopologyFileReader::Parse(in, "fattree4.txt");
        NS_TEST_ASSERT_MSG_EQ(f->GetTier(f4->GetSwitches().back()), 2u, "core tier from file");
        for (const char* engine : {"auto", "updown"})
        {
            WalkResult w = WalkAll(*f, *RoutingEngine::BuildTable(engine, f));
            NS_TEST_ASSERT_MSG_EQ(w.error, "", engine);
            NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*f, w), "", engine);
            NS_TEST_ASSERT_MSG_EQ(w.paths[0][15], 4.0, "file fat-tree: k^2/4");
        }
        NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*f, *RoutingEngine::BuildTable("updown", f), false),
                              false,
                              "updown CDG acyclic");
    }
};

/// \brief DOR on torus, ring and mesh; up*/down* and ECMP on a torus.
class TorusRoutingTestCase : public TestCase
{
  public:
    TorusRoutingTestCase()
        : TestCase("dor on torus and mesh: one path of length sum min(dx, k-dx) or sum dx")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* dims;
            std::vector<uint32_t> k;
            bool wrap;
        };

        const Case cases[] = {{"4x4", {4, 4}, true},
                              {"8x8", {8, 8}, true},
                              {"4x4x4", {4, 4, 4}, true},
                              {"8", {8}, true},
                              {"2x4", {2, 4}, true},
                              {"3x5", {3, 5}, true},
                              {"4x4", {4, 4}, false},
                              {"8x8", {8, 8}, false}};
        for (const auto& c : cases)
        {
            Ptr<TopologyGraph> g = Torus(c.dims, c.wrap);
            Ptr<RouteTable> t = RoutingEngine::BuildTable("auto", g);
            NS_TEST_ASSERT_MSG_EQ(t->GetEngineName(), "dor", "auto on torus/mesh");
            NS_TEST_ASSERT_MSG_EQ(uint32_t(t->GetNumClasses()), (c.wrap ? 2u : 1u), "classes");
            WalkResult w = WalkAll(*g, *t);
            NS_TEST_ASSERT_MSG_EQ(w.error, "", c.dims);
            NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*g, w), "", c.dims);
            for (uint32_t s = 0; s < g->GetNHosts(); ++s)
            {
                for (uint32_t d = 0; d < g->GetNHosts(); ++d)
                {
                    if (s == d)
                    {
                        continue;
                    }
                    // one host per router: rank == router id
                    uint32_t expect = 2; // host cables
                    uint32_t rs = s;
                    uint32_t rd = d;
                    for (uint32_t k : c.k)
                    {
                        uint32_t dx = rs % k > rd % k ? rs % k - rd % k : rd % k - rs % k;
                        expect += c.wrap ? std::min(dx, k - dx) : dx;
                        rs /= k;
                        rd /= k;
                    }
                    NS_TEST_ASSERT_MSG_EQ(w.minLen[s][d], expect, c.dims << " length");
                    NS_TEST_ASSERT_MSG_EQ(w.paths[s][d], 1.0, "dor: one path");
                }
            }
        }
        Ptr<TopologyGraph> g2 = Torus("4x4", true, 2);
        WalkResult w2 = WalkAll(*g2, *RoutingEngine::BuildTable("dor", g2));
        NS_TEST_ASSERT_MSG_EQ(w2.error, "", "2 hosts per router");
        NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*g2, w2), "", "2 hosts per router");
        NS_TEST_ASSERT_MSG_EQ(w2.minLen[0][1], 2u, "same router: 2 host cables");

        Ptr<TopologyGraph> g = Torus("4x4", true);
        WalkResult w = WalkAll(*g, *RoutingEngine::BuildTable("updown", g));
        NS_TEST_ASSERT_MSG_EQ(w.error, "", "updown on a torus is complete");
        NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*g, *RoutingEngine::BuildTable("updown", g), false),
                              false,
                              "updown on a torus: acyclic CDG with one class");
        w = WalkAll(*g, *RoutingEngine::BuildTable("ecmp", g));
        NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*g, w), "", "ecmp on a torus is minimal");
        NS_TEST_ASSERT_MSG_EQ(w.paths[0][5], 2.0, "(1,1) away: C(2,1) shortest paths");
        NS_TEST_ASSERT_MSG_EQ(w.paths[0][10], 24.0, "(2,2) away: C(4,2) orders x 2 x 2 directions");
    }
};

/// \brief Dateline rule: acyclic channel dependency graph; without it a cycle.
class DatelineTestCase : public TestCase
{
  public:
    DatelineTestCase()
        : TestCase("dor dateline: CDG acyclic on 4x4, 8x8 torus and ring 8; cyclic without it")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* dims : {"4x4", "8x8", "8", "3x5", "4x4x4"})
        {
            Ptr<TopologyGraph> g = Torus(dims, true);
            Ptr<RouteTable> t = RoutingEngine::BuildTable("dor", g);
            NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*g, *t, true), false, dims << " with dateline");
            NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*g, *t, false), true, dims << " without dateline");
        }
        Ptr<TopologyGraph> m = Torus("8x8", false);
        NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*m, *RoutingEngine::BuildTable("dor", m), true),
                              false,
                              "mesh: one class suffices");
        // ring of 8: router 6 -> router 1 goes + (distance 3): classes 0 (6->7), 1 (7->0 wrap), 1
        Ptr<TopologyGraph> r = Torus("8", true);
        Ptr<RouteTable> t = RoutingEngine::BuildTable("dor", r);
        uint32_t u = r->GetSwitches()[6];
        uint32_t in = RouteTable::NO_PORT;
        uint8_t cls = 0;
        std::vector<uint32_t> classes;
        std::vector<uint32_t> routers;
        while (!r->IsHost(u))
        {
            uint32_t port = t->GetCandidates(u, 1)[0];
            cls = t->NextClass(u, in, port, cls);
            const auto& p = r->GetPorts(u)[port];
            if (!r->IsHost(p.peer))
            {
                classes.push_back(cls);
                routers.push_back(r->GetGroup(p.peer));
            }
            in = p.peerPort;
            u = p.peer;
        }
        NS_TEST_ASSERT_MSG_EQ(routers.size(), 3u, "3 hops");
        NS_TEST_ASSERT_MSG_EQ(routers[0], 7u, "positive direction");
        NS_TEST_ASSERT_MSG_EQ(routers[1], 0u, "wrap");
        NS_TEST_ASSERT_MSG_EQ(classes[0], 0u, "class 0 before the dateline");
        NS_TEST_ASSERT_MSG_EQ(classes[1], 1u, "class 1 on the wrap cable");
        NS_TEST_ASSERT_MSG_EQ(classes[2], 1u, "class 1 after the wrap cable");
        // tie at k/2 = 4: 0 -> 4 goes positive (0 -> 1)
        uint32_t port = t->GetCandidates(r->GetSwitches()[0], 4)[0];
        NS_TEST_ASSERT_MSG_EQ(r->GetGroup(r->GetPorts(r->GetSwitches()[0])[port].peer),
                              1u,
                              "tie: positive");
    }
};

/// \brief DragonFly minimal routing and the Valiant/UGAL building blocks.
class DragonflyRoutingTestCase : public TestCase
{
  public:
    DragonflyRoutingTestCase()
        : TestCase("dragonfly minimal: <= 3 router hops, 1 global; valiant parts")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t groups : {9u, 5u})
        {
            Ptr<TopologyGraph> g = Dragonfly(2, 4, 2, groups);
            Ptr<RouteTable> t = RoutingEngine::BuildTable("auto", g);
            NS_TEST_ASSERT_MSG_EQ(t->GetEngineName(), "minimal", "auto on dragonfly");
            WalkResult w = WalkAll(*g, *t);
            NS_TEST_ASSERT_MSG_EQ(w.error, "", "complete, g=" << groups);
            uint32_t maxRouterHops = 0;
            for (uint32_t s = 0; s < g->GetNHosts(); ++s)
            {
                for (uint32_t d = 0; d < g->GetNHosts(); ++d)
                {
                    if (s != d)
                    {
                        maxRouterHops = std::max(maxRouterHops, w.maxLen[s][d] - 2);
                        NS_TEST_ASSERT_MSG_EQ(w.minLen[s][d], w.maxLen[s][d], "ties equal");
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(maxRouterHops, 3u, "local-global-local, g=" << groups);
            // global cables per path: count along every candidate from each router
            for (uint32_t s : g->GetSwitches())
            {
                for (uint32_t d = 0; d < g->GetNHosts(); ++d)
                {
                    std::function<uint32_t(uint32_t)> globals = [&](uint32_t u) -> uint32_t {
                        uint32_t most = 0;
                        for (uint32_t port : t->GetCandidates(u, d))
                        {
                            const auto& p = g->GetPorts(u)[port];
                            if (g->IsHost(p.peer))
                            {
                                continue;
                            }
                            uint32_t gl = g->GetGroup(p.peer) != g->GetGroup(u) ? 1 : 0;
                            most = std::max(most, gl + globals(p.peer));
                        }
                        return most;
                    };
                    uint32_t expect = g->GetGroup(s) == g->GetGroup(g->GetHosts()[d]) ? 0u : 1u;
                    NS_TEST_ASSERT_MSG_EQ(globals(s), expect, "global cables on the path");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*g, *t, true), false, "2 classes: acyclic CDG");
        }
        // valiant building blocks
        Ptr<TopologyGraph> g = Dragonfly(2, 4, 2, 9);
        Ptr<RoutingEngine> e = RoutingEngine::CreateByName("valiant", g);
        Ptr<RouteTable> t = e->Compute(g);
        NS_TEST_ASSERT_MSG_EQ(uint32_t(t->GetNumClasses()), 3u, "valiant: 3 classes");
        // The engine's path mode travels in its table: what RoceSwitch's RoutingMode
        // auto reads, instead of the engine's name.
        using PathMode = RouteTable::PathMode;
        const std::vector<std::pair<std::string, PathMode>> modes{{"minimal", PathMode::MINIMAL},
                                                                  {"valiant", PathMode::VALIANT},
                                                                  {"ugal", PathMode::UGAL},
                                                                  {"ecmp", PathMode::MINIMAL}};
        for (const auto& [name, mode] : modes)
        {
            NS_TEST_ASSERT_MSG_EQ(int(RoutingEngine::CreateByName(name, g)->GetPathMode()),
                                  int(mode),
                                  name << "'s path mode");
            NS_TEST_ASSERT_MSG_EQ(int(RoutingEngine::BuildTable(name, g)->GetPathMode()),
                                  int(mode),
                                  name << "'s table carries its path mode");
        }
        for (PathMode mode : {PathMode::MINIMAL, PathMode::VALIANT, PathMode::UGAL})
        {
            NS_TEST_ASSERT_MSG_EQ(
                int(DragonflyRouting(mode).GetPathMode()),
                int(mode),
                "the engine of a path mode: " << DragonflyRouting(mode).GetName());
        }
        Ptr<DragonflyRouting> df = DynamicCast<DragonflyRouting>(e);
        NS_TEST_ASSERT_MSG_NE(df, nullptr, "engine type");
        for (uint32_t s : g->GetSwitches())
        {
            for (uint32_t T = 0; T < 9; ++T)
            {
                auto c = df->MinimalCandidatesToGroup(s, T);
                if (T == g->GetGroup(s))
                {
                    NS_TEST_ASSERT_MSG_EQ(c.size(), 0u, "own group");
                    continue;
                }
                NS_TEST_ASSERT_MSG_GT(c.size(), 0u, "some port to group");
                for (uint32_t port : c)
                {
                    uint32_t peer = g->GetPorts(s)[port].peer;
                    bool direct = g->GetGroup(peer) == T;
                    bool viaGateway = false;
                    for (const auto& pp : g->GetPorts(peer))
                    {
                        viaGateway |= !g->IsHost(pp.peer) && g->GetGroup(pp.peer) == T;
                    }
                    NS_TEST_ASSERT_MSG_EQ(direct || viaGateway, true, "reaches group in <= 2");
                }
            }
        }
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(7);
        std::vector<uint32_t> hits(9, 0);
        for (int i = 0; i < 2000; ++i)
        {
            hits[df->ChooseIntermediateGroup(2, 5, rng)]++;
        }
        NS_TEST_ASSERT_MSG_EQ(hits[2] + hits[5], 0u, "never source or destination group");
        for (uint32_t x : {0u, 1u, 3u, 4u, 6u, 7u, 8u})
        {
            NS_TEST_ASSERT_MSG_GT(hits[x], 200u, "uniform over the 7 others (~286 each)");
        }
        NS_TEST_ASSERT_MSG_EQ(DragonflyRouting::UgalPreferMinimal(10, 5, 0), true, "10 <= 2*5");
        NS_TEST_ASSERT_MSG_EQ(DragonflyRouting::UgalPreferMinimal(11, 5, 0), false, "11 > 10");
        NS_TEST_ASSERT_MSG_EQ(DragonflyRouting::UgalPreferMinimal(11, 5, 1), true, "offset");
    }
};

/// \brief up*&#47;down* on cyclic graphs: complete and deadlock free with one class.
class UpDownAnyGraphTestCase : public TestCase
{
  public:
    UpDownAnyGraphTestCase()
        : TestCase("updown on torus, mesh and dragonfly: complete, acyclic CDG with one class")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Ptr<TopologyGraph>> graphs = {Torus("3x5", true),
                                                  Torus("4x4x4", true),
                                                  Torus("4x4", false),
                                                  Dragonfly(2, 4, 2, 9),
                                                  Dragonfly(1, 3, 1, 4)};
        for (const auto& g : graphs)
        {
            Ptr<RouteTable> t = RoutingEngine::BuildTable("updown", g);
            WalkResult w = WalkAll(*g, *t);
            NS_TEST_ASSERT_MSG_EQ(w.error, "", g->Describe());
            NS_TEST_ASSERT_MSG_EQ(CdgHasCycle(*g, *t, false), false, g->Describe());
            Ptr<RouteTable> e = RoutingEngine::BuildTable("ecmp", g);
            w = WalkAll(*g, *e);
            NS_TEST_ASSERT_MSG_EQ(w.error, "", g->Describe());
            NS_TEST_ASSERT_MSG_EQ(CheckMinimal(*g, w), "", "ecmp minimal on " << g->Describe());
        }
    }
};

/// \brief The engine factory.
class RoutingFactoryTestCase : public TestCase
{
  public:
    RoutingFactoryTestCase()
        : TestCase("engine factory: auto per topology, misfits and unknown names throw")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> f = FatTree(4);
        NS_TEST_ASSERT_MSG_EQ(RoutingEngine::AutoName(*f), "ecmp", "fattree -> ecmp");
        NS_TEST_ASSERT_MSG_EQ(RoutingEngine::AutoName(*Torus("4x4", false)), "dor", "mesh");
        NS_TEST_ASSERT_MSG_EQ(RoutingEngine::AutoName(*Dragonfly(1, 2, 1, 0)), "minimal", "df");
        std::string m;
        try
        {
            RoutingEngine::BuildTable("dor", f);
        }
        catch (const std::invalid_argument& e)
        {
            m = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ((m.find("dor") != std::string::npos &&
                               m.find("ecmp, ftree, minhop, updown") != std::string::npos),
                              true,
                              m);
        m = "";
        try
        {
            RoutingEngine::BuildTable("ospf", f);
        }
        catch (const std::invalid_argument& e)
        {
            m = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ((m.find("ospf") != std::string::npos), true, m);
        // a host's route is its uplink, whatever the destination
        Ptr<RouteTable> t = RoutingEngine::BuildTable("ecmp", f);
        NS_TEST_ASSERT_MSG_EQ(t->GetCandidates(f->GetHosts()[0], 9).size(), 1u, "host uplink");
        NS_TEST_ASSERT_MSG_EQ(t->GetCandidates(f->GetHosts()[0], 9)[0], 0u, "port 0");
    }
};

/// \brief Finish stores set ids in one or two bytes when the sets are that few, and
/// every lookup still gives the set stored for it.
class NarrowRowsTestCase : public TestCase
{
  public:
    NarrowRowsTestCase()
        : TestCase("route rows narrowed by Finish: same candidates in 1, 2 and 4 bytes")
    {
    }

  private:
    void DoRun() override
    {
        // A fat-tree's sets (single ports, the uplinks) fit in a byte.
        Ptr<TopologyGraph> f = FatTree(4);
        Ptr<RouteTable> e = RoutingEngine::BuildTable("ecmp", f);
        NS_TEST_ASSERT_MSG_EQ(+e->GetSetIdBytes(), 1, "k=4 fat-tree: 1-byte set ids");
        NS_TEST_ASSERT_MSG_EQ(WalkAll(*f, *e).error, "", "k=4 fat-tree walk");

        // 33-port leaves with a set per pair of ports: 528 sets, beyond a byte, and
        // set ids above 255 in the rows.
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("Leaves", UintegerValue(2));
        ls->SetAttribute("Spines", UintegerValue(1));
        ls->SetAttribute("HostsPerLeaf", UintegerValue(32));
        Ptr<TopologyGraph> g = ls->Build();
        RouteTable t(g, "test");
        const uint32_t nPorts = g->GetPorts(g->GetSwitches()[0]).size();
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        std::vector<uint32_t> ids;
        for (uint32_t p = 0; p < nPorts; ++p)
        {
            for (uint32_t q = p + 1; q < nPorts; ++q)
            {
                pairs.emplace_back(p, q);
                ids.push_back(t.InternPortSet({q, p}));
            }
        }
        NS_TEST_ASSERT_MSG_GT(pairs.size(), 256u, "more sets than a byte holds");
        const uint32_t nHosts = g->GetNHosts();
        auto expected = [&](uint32_t sw, uint32_t d) {
            return (sw * 131 + d * 7 + 300) % pairs.size(); // ids above 255 among them
        };
        for (uint32_t sw = 0; sw < g->GetSwitches().size(); ++sw)
        {
            for (uint32_t d = 0; d < nHosts; ++d)
            {
                t.SetRoute(g->GetSwitches()[sw], d, ids[expected(sw, d)]);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(+t.GetSetIdBytes(), 4, "4 bytes while filled");
        t.Finish();
        NS_TEST_ASSERT_MSG_EQ(+t.GetSetIdBytes(), 2, "528 sets: 2-byte set ids");
        for (uint32_t sw = 0; sw < g->GetSwitches().size(); ++sw)
        {
            for (uint32_t d = 0; d < nHosts; ++d)
            {
                RouteTable::PortSpan c = t.GetCandidates(g->GetSwitches()[sw], d);
                const auto& want = pairs[expected(sw, d)];
                NS_TEST_ASSERT_MSG_EQ(c.size(), 2u, "pair set");
                NS_TEST_ASSERT_MSG_EQ(c[0], want.first, "switch " << sw << " rank " << d);
                NS_TEST_ASSERT_MSG_EQ(c[1], want.second, "switch " << sw << " rank " << d);
            }
        }
    }
};

/// \brief RoutingEngineRegistry: every engine by its name, and the name is its own.
class RoutingEngineRegistryTestCase : public TestCase
{
  public:
    RoutingEngineRegistryTestCase()
        : TestCase("registry: every engine by name, each named as it registered")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> expected{"dfsssp",
                                                "dor",
                                                "ecmp",
                                                "ftree",
                                                "minhop",
                                                "minimal",
                                                "rail",
                                                "ugal",
                                                "updown",
                                                "valiant"};
        const auto names = RoutingEngineRegistry::GetNames();
        NS_TEST_ASSERT_MSG_EQ(names.size(), expected.size(), "ten engines");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(names[i], expected[i], "sorted names");
            NS_TEST_ASSERT_MSG_EQ(RoutingEngineRegistry::Get(names[i]).create()->GetName(),
                                  names[i],
                                  "the engine made under a name answers to it");
        }
        std::string error;
        try
        {
            RoutingEngineRegistry::Get("ospf");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "unknown routing engine 'ospf'; allowed: dfsssp, dor, ecmp, ftree, "
                              "minhop, minimal, rail, "
                              "ugal, "
                              "updown, valiant",
                              "names the value and what is allowed");
    }
};

/// \brief The routing suite.
/**
 * A failed switch (every cable down, --node-failure) is out of the fabric: Validate
 * accepts the rest when it is still connected, and the route tables need no route from
 * the dead switch while the others route around it; one cable down is not a failed
 * switch, and a dead edge switch cuts its hosts off (Validate refuses it).
 */
class FailedSwitchTestCase : public TestCase
{
  public:
    FailedSwitchTestCase()
        : TestCase("A switch whose cables all failed is left out of validation and routes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = FatTree(4); // hosts 0-15, edge/aggregation 16-31, cores 32-35
        const uint32_t core = 32;
        const auto& ports = g->GetPorts(core);
        g->SetLinkUp(ports[0].link, false);
        NS_TEST_ASSERT_MSG_EQ(g->IsSwitchDown(core), false, "one cable down: still up");
        for (const auto& p : ports)
        {
            g->SetLinkUp(p.link, false);
        }
        NS_TEST_ASSERT_MSG_EQ(g->IsSwitchDown(core), true, "every cable down");
        NS_TEST_ASSERT_MSG_EQ(g->IsSwitchDown(0), false, "a host is never a failed switch");
        bool valid = true;
        try
        {
            g->Validate();
        }
        catch (const std::invalid_argument&)
        {
            valid = false;
        }
        NS_TEST_ASSERT_MSG_EQ(valid, true, "the rest is connected");
        Ptr<RouteTable> t = RoutingEngine::BuildTable("ecmp", g);
        for (uint32_t agg : {18U, 22U, 26U, 30U})
        {
            // Aggregation switch port 2 led to core 32; its routes to another pod now
            // take port 3 (core 33) only.
            const RouteTable::PortSpan c = t->GetCandidates(agg, agg == 18 ? 15 : 0);
            NS_TEST_ASSERT_MSG_EQ(c.size(), 1, "one core left for switch " << agg);
            NS_TEST_ASSERT_MSG_EQ(c[0], 3, "not the dead core's port");
        }
        Ptr<TopologyGraph> e = FatTree(4);
        for (const auto& p : e->GetPorts(16))
        {
            e->SetLinkUp(p.link, false);
        }
        bool edgeValid = true;
        try
        {
            e->Validate();
        }
        catch (const std::invalid_argument&)
        {
            edgeValid = false;
        }
        NS_TEST_ASSERT_MSG_EQ(edgeValid, false, "a dead edge switch cuts its hosts off");
    }
};

/**
 * ChannelDependencyGraph (the runner's deadlock-freedom check) agrees with the
 * per-path reference CdgHasCycle on every engine and class setting, and a cycle it
 * reports is one: each channel's far end is where the next leaves from. A budget
 * smaller than the work gives NOT_CHECKED.
 */
class ChannelDependencyGraphTestCase : public TestCase
{
  public:
    ChannelDependencyGraphTestCase()
        : TestCase("ChannelDependencyGraph agrees with the per-path CDG; its cycle is real")
    {
    }

  private:
    void Check(Ptr<TopologyGraph> g, const std::string& engine, bool useClasses)
    {
        Ptr<RouteTable> t = RoutingEngine::BuildTable(engine, g);
        ChannelDependencyGraph cdg(g, t, useClasses);
        const auto r = cdg.Compute(0);
        const bool cyclic = CdgHasCycle(*g, *t, useClasses);
        const std::string what = g->Describe() + " " + engine + (useClasses ? "" : " one class");
        NS_TEST_ASSERT_MSG_EQ((r == ChannelDependencyGraph::Result::CYCLIC), cyclic, what);
        const auto& c = cdg.GetCycle();
        NS_TEST_ASSERT_MSG_EQ(c.empty(), !cyclic, what);
        for (size_t i = 0; i < c.size(); ++i)
        {
            const auto& far = g->GetPorts(c[i].node)[c[i].port];
            NS_TEST_ASSERT_MSG_EQ(far.peer, c[(i + 1) % c.size()].node, what << " cycle hop " << i);
            NS_TEST_ASSERT_MSG_EQ(g->IsHost(far.peer), false, what << " switch channels");
        }
    }

    void DoRun() override
    {
        Check(Torus("8", true), "dor", true);
        Check(Torus("8", true), "dor", false);
        Check(Torus("4x4", true), "dor", true);
        Check(Torus("4x4", true), "dor", false);
        Check(Torus("4x4", true), "ecmp", true);
        Check(Torus("4x4", false), "ecmp", true);
        Check(Torus("4x4", false), "dor", true);
        Check(Torus("3x5", true), "updown", false);
        Check(Dragonfly(2, 4, 2, 9), "minimal", true);
        Check(Dragonfly(2, 4, 2, 9), "minimal", false);
        Check(Dragonfly(1, 3, 1, 4), "ecmp", true);
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        Check(ft->Build(), "ecmp", true);
        Ptr<TopologyGraph> ring = Torus("8", true);
        ChannelDependencyGraph small(ring, RoutingEngine::BuildTable("dor", ring), false);
        NS_TEST_ASSERT_MSG_EQ((small.Compute(10) == ChannelDependencyGraph::Result::NOT_CHECKED),
                              true,
                              "budget of 10 steps");
        NS_TEST_ASSERT_MSG_EQ((small.Compute(0) == ChannelDependencyGraph::Result::CYCLIC),
                              true,
                              "no budget");
        NS_TEST_ASSERT_MSG_EQ(small.DescribeCycle(2).find("... -> "), 18, "two channels, then ...");
    }
};

class RoutingTestSuite : public TestSuite
{
  public:
    RoutingTestSuite()
        : TestSuite("ai-fabric-routing", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new TreeRoutingTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TorusRoutingTestCase, AI_FABRIC_QUICK);
        AddTestCase(new DatelineTestCase, AI_FABRIC_QUICK);
        AddTestCase(new DragonflyRoutingTestCase, AI_FABRIC_QUICK);
        AddTestCase(new UpDownAnyGraphTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoutingFactoryTestCase, AI_FABRIC_QUICK);
        AddTestCase(new NarrowRowsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoutingEngineRegistryTestCase, AI_FABRIC_QUICK);
        AddTestCase(new ChannelDependencyGraphTestCase, AI_FABRIC_QUICK);
        AddTestCase(new FailedSwitchTestCase, AI_FABRIC_QUICK);
    }
};

static RoutingTestSuite g_routingTestSuite; //!< registers the suite
