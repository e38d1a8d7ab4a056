/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The Subnet Manager's OpenSM-style engines. ftree (D-mod-K, Zahavi et al. 2010):
 * on a k=8 fat-tree (128 hosts) the LFT paths of every shift permutation (host i to
 * host i + s mod 128) cross each directed cable at most once, while the plain
 * DLID-mod-n spread over ECMP candidates does not; the paths are shortest and the
 * routing deadlock free; it fits layered graphs only. minhop (OpenSM's default): on
 * a k=4 fat-tree every LFT entry is one shortest-path port and the per-port route
 * counts differ by at most one among equal-cost ports. dfsssp (Domke et al. 2011) on a
 * 4x4 torus: every path's layer is its SL, each layer's channel dependency graph
 * (built here from the LFT walks) is acyclic while all paths in one layer are not,
 * too few layers is a clear error, and the busiest cable of an all-to-all carries no
 * more routes than under minhop.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/channel-dependency-graph.h"
#include "ns3/dfsssp-routing.h"
#include "ns3/directed-cycle.h"
#include "ns3/fat-tree-routing.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/string.h"
#include "ns3/subnet-manager.h"
#include "ns3/topology-graph.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

using namespace ns3;

namespace
{

Ptr<TopologyGraph>
FatTree(uint32_t k)
{
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(k));
    return ft->Build();
}

/// The directed cables (node, port) an LFT walk from host rank src to dst leaves by;
/// empty on a hole or a loop.
std::vector<std::pair<uint32_t, uint32_t>>
LftPath(const TopologyGraph& g, const SubnetManager& sm, uint32_t src, uint32_t dst)
{
    std::vector<std::pair<uint32_t, uint32_t>> hops;
    uint32_t node = g.GetHosts()[src];
    const uint32_t target = g.GetHosts()[dst];
    const uint16_t dlid = sm.GetHostLid(dst);
    while (node != target && hops.size() <= g.GetNNodes())
    {
        uint32_t port = 0;
        if (!g.IsHost(node))
        {
            port = sm.GetLft(node)[dlid];
            if (port == SubnetManager::NO_PORT)
            {
                return {};
            }
        }
        hops.emplace_back(node, port);
        node = g.GetPorts(node)[port].peer;
    }
    if (node != target)
    {
        hops.clear();
    }
    return hops;
}

/// Most flows any directed cable carries under the shift permutation i -> i + s mod N.
uint32_t
ShiftContention(const TopologyGraph& g, const SubnetManager& sm, uint32_t s, bool& allShortest)
{
    const uint32_t n = g.GetNHosts();
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> use;
    uint32_t most = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t j = (i + s) % n;
        const auto path = LftPath(g, sm, i, j);
        const std::vector<uint32_t> dist = g.Distances(g.GetHosts()[i]);
        if (path.size() != dist[g.GetHosts()[j]])
        {
            allShortest = false;
        }
        for (const auto& hop : path)
        {
            most = std::max(most, ++use[hop]);
        }
    }
    return most;
}

} // namespace

/**
 * \brief ftree on a k=8 fat-tree: shift permutations are contention free on the LFTs.
 */
class FtreeShiftTestCase : public TestCase
{
  public:
    FtreeShiftTestCase()
        : TestCase("ftree: every shift permutation on a k=8 fat-tree uses each cable once")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = FatTree(8);
        NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), 128u, "k=8: 128 hosts");
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run("ftree");
        NS_TEST_ASSERT_MSG_EQ(sm->GetRoutes()->GetEngineName(), "ftree", "the engine ran");
        // one port per (switch, destination): the LFT is the table
        for (uint32_t sw : g->GetSwitches())
        {
            for (uint32_t d = 0; d < g->GetNHosts(); ++d)
            {
                NS_TEST_ASSERT_MSG_EQ(sm->GetRoutes()->GetCandidates(sw, d).size(),
                                      1u,
                                      "ftree gives one port per destination");
            }
        }
        uint32_t worst = 0;
        bool shortest = true;
        for (uint32_t s = 1; s < g->GetNHosts(); ++s)
        {
            const uint32_t c = ShiftContention(*g, *sm, s, shortest);
            worst = std::max(worst, c);
            if (s == 1 || s == 4 || s == 16 || s == 64)
            {
                NS_TEST_ASSERT_MSG_EQ(c, 1u, "shift " << s << ": each cable carries one flow");
            }
        }
        ReportValidation("ftree-shift-max-flows-per-cable", worst);
        NS_TEST_ASSERT_MSG_EQ(worst, 1u, "all 127 shifts are contention free");
        NS_TEST_ASSERT_MSG_EQ(shortest, true, "every LFT path is a shortest path");

        // Every core switch is the root of exactly one destination per pod (k = 8 pods).
        std::map<uint32_t, std::set<uint32_t>> podsOfCore;
        std::map<uint32_t, uint32_t> destsOfCore;
        for (uint32_t d = 0; d < g->GetNHosts(); ++d)
        {
            const auto path = LftPath(*g, *sm, (d + 64) % 128, d); // from another pod
            for (const auto& hop : path)
            {
                if (!g->IsHost(hop.first) && g->GetTier(hop.first) == 2)
                {
                    podsOfCore[hop.first].insert(g->GetGroup(g->GetHosts()[d]));
                    destsOfCore[hop.first]++;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(destsOfCore.size(), 16u, "all 16 cores are roots");
        for (const auto& [core, n] : destsOfCore)
        {
            NS_TEST_ASSERT_MSG_EQ(n, 8u, "core " << core << ": 8 destinations");
            NS_TEST_ASSERT_MSG_EQ(podsOfCore[core].size(), 8u, "core " << core << ": one per pod");
        }

        // The Subnet Manager's DLID-mod-n spread over all shortest paths is not enough:
        // at the aggregation tier (DLID mod 4) repeats the edge's choice, so only 4 of
        // the 16 cores carry traffic and shifts collide.
        Ptr<SubnetManager> plain = Create<SubnetManager>(g);
        plain->Run("ecmp");
        bool dummy = true;
        NS_TEST_ASSERT_MSG_GT(ShiftContention(*g, *plain, 16, dummy),
                              1u,
                              "ecmp with DLID mod n: shift 16 collides");

        // up*/down* paths: the channel dependency graph is acyclic
        ChannelDependencyGraph cdg(g, sm->GetRoutes(), true);
        NS_TEST_ASSERT_MSG_EQ((cdg.Compute(50'000'000) == ChannelDependencyGraph::Result::ACYCLIC),
                              true,
                              "ftree is deadlock free");
    }
};

/**
 * \brief ftree fits layered graphs (fat-tree, leaf-spine), not a torus, and re-routes
 * around a failed cable.
 */
class FtreeFitsTestCase : public TestCase
{
  public:
    FtreeFitsTestCase()
        : TestCase("ftree: fits fat-tree and leaf-spine, refuses a torus, routes around a failure")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        Ptr<TopologyGraph> leafSpine = ls->Build();
        NS_TEST_ASSERT_MSG_EQ(FatTreeRouting().Fits(*leafSpine), true, "leaf-spine is layered");
        Ptr<RouteTable> t = RoutingEngine::BuildTable("ftree", leafSpine);
        NS_TEST_ASSERT_MSG_EQ(t->GetEngineName(), "ftree", "routes a leaf-spine");

        Ptr<TorusTopologyHelper> th = CreateObject<TorusTopologyHelper>();
        th->SetAttribute("Dims", StringValue("4x4"));
        Ptr<TopologyGraph> torus = th->Build();
        NS_TEST_ASSERT_MSG_EQ(FatTreeRouting().Fits(*torus), false, "a torus is not layered");
        std::string error;
        try
        {
            RoutingEngine::BuildTable("ftree", torus);
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ((error.find("routing 'ftree' does not fit topology 'torus'") == 0),
                              true,
                              "one error naming the engine and the topology: " << error);

        // A failed edge-aggregation cable: the re-run avoids it and stays complete.
        Ptr<TopologyGraph> g = FatTree(4);
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run("ftree");
        const uint32_t edge0 = g->GetHosts().size(); // first switch: pod0-edge0
        uint32_t upPort = 0;
        while (g->IsHost(g->GetPorts(edge0)[upPort].peer))
        {
            ++upPort;
        }
        g->SetLinkUp(g->GetPorts(edge0)[upPort].link, false);
        const uint32_t changed = sm->Reroute();
        NS_TEST_ASSERT_MSG_GT(changed, 0u, "the heavy sweep moved routes");
        for (uint32_t d = 0; d < g->GetNHosts(); ++d)
        {
            if (d < 2)
            {
                continue; // edge0's own hosts
            }
            NS_TEST_ASSERT_MSG_NE(sm->GetLft(edge0)[sm->GetHostLid(d)],
                                  upPort,
                                  "no route into the failed cable");
        }
        for (uint32_t i = 0; i < g->GetNHosts(); ++i)
        {
            for (uint32_t j = 0; j < g->GetNHosts(); ++j)
            {
                NS_TEST_ASSERT_MSG_EQ((i == j || !LftPath(*g, *sm, i, j).empty()),
                                      true,
                                      "host " << i << " reaches host " << j);
            }
        }
    }
};

/**
 * \brief minhop: one shortest-path port per entry, loads balanced to within one.
 */
class MinHopBalanceTestCase : public TestCase
{
  public:
    MinHopBalanceTestCase()
        : TestCase("minhop: per-port route counts on a k=4 fat-tree differ by <= 1 among "
                   "equal-cost ports")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = FatTree(4);
        Ptr<RouteTable> ecmp = RoutingEngine::BuildTable("ecmp", g);
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run("minhop");
        Ptr<const RouteTable> mh = sm->GetRoutes();
        uint32_t groupsChecked = 0;
        for (uint32_t sw : g->GetSwitches())
        {
            std::map<uint32_t, uint32_t> load; // port -> routes
            std::set<std::vector<uint32_t>> equalCost;
            for (uint32_t d = 0; d < g->GetNHosts(); ++d)
            {
                const auto one = mh->GetCandidates(sw, d);
                NS_TEST_ASSERT_MSG_EQ(one.size(), 1u, "one port per destination");
                const auto all = ecmp->GetCandidates(sw, d);
                NS_TEST_ASSERT_MSG_EQ((std::find(all.begin(), all.end(), one[0]) != all.end()),
                                      true,
                                      "the port is on a shortest path");
                NS_TEST_ASSERT_MSG_EQ(sm->GetLft(sw)[sm->GetHostLid(d)], one[0], "LFT = table");
                load[one[0]]++;
                if (all.size() > 1)
                {
                    equalCost.insert(std::vector<uint32_t>(all.begin(), all.end()));
                }
            }
            for (const auto& ports : equalCost)
            {
                uint32_t lo = UINT32_MAX;
                uint32_t hi = 0;
                for (uint32_t p : ports)
                {
                    lo = std::min(lo, load[p]);
                    hi = std::max(hi, load[p]);
                }
                NS_TEST_ASSERT_MSG_EQ((hi - lo <= 1),
                                      true,
                                      "switch " << sw << ": " << lo << " vs " << hi);
                NS_TEST_ASSERT_MSG_GT(lo, 0u, "every equal-cost port carries routes");
                ++groupsChecked;
            }
        }
        // 8 edge and 8 aggregation switches each have one pair of equal-cost up ports
        NS_TEST_ASSERT_MSG_EQ(groupsChecked, 16u, "every edge and aggregation switch checked");
        // on an edge switch: 14 remote hosts over 2 up ports, 7 each
        const uint32_t edge0 = g->GetNHosts();
        std::map<uint32_t, uint32_t> load;
        for (uint32_t d = 0; d < g->GetNHosts(); ++d)
        {
            load[mh->GetCandidates(edge0, d)[0]]++;
        }
        ReportValidation("minhop-edge-up-port-routes", load[2]);
        ReportValidation("minhop-edge-up-port-routes.expected", 14.0 / 2);
        NS_TEST_ASSERT_MSG_EQ(load[2], 7u, "edge up port 2: 7 routes");
        NS_TEST_ASSERT_MSG_EQ(load[3], 7u, "edge up port 3: 7 routes");
    }
};

Ptr<TopologyGraph>
Torus4x4()
{
    Ptr<TorusTopologyHelper> t = CreateObject<TorusTopologyHelper>();
    t->SetAttribute("Dims", StringValue("4x4"));
    return t->Build();
}

/// Routes of the all-to-all (every ordered host pair) on the busiest directed
/// switch-to-switch cable, following the LFTs.
uint32_t
AllToAllMaxCableRoutes(const TopologyGraph& g, const SubnetManager& sm)
{
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> use;
    for (uint32_t s = 0; s < g.GetNHosts(); ++s)
    {
        for (uint32_t d = 0; d < g.GetNHosts(); ++d)
        {
            for (const auto& [node, port] : LftPath(g, sm, s, d))
            {
                if (!g.IsHost(node) && !g.IsHost(g.GetPorts(node)[port].peer))
                {
                    use[{node, port}]++;
                }
            }
        }
    }
    uint32_t most = 0;
    for (const auto& [cable, n] : use)
    {
        most = std::max(most, n);
    }
    return most;
}

/**
 * \brief dfsssp on a 4x4 torus: layers = SLs, each layer's CDG acyclic, minhop's not.
 *
 * The per-layer channel dependency graphs are built here from the LFT walks of
 * every ordered host pair (switch-to-switch cables, consecutive ones depend), with
 * the pair's SL as the Subnet Manager hands it out, independently of the engine's
 * own bookkeeping and of ChannelDependencyGraph (which is checked too).
 */
class DfssspLayersTestCase : public TestCase
{
  public:
    DfssspLayersTestCase()
        : TestCase("dfsssp: 4x4 torus, each virtual layer's CDG acyclic, all in one is not; "
                   "too few layers is an error")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = Torus4x4();
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run("dfsssp");
        Ptr<const RouteTable> t = sm->GetRoutes();
        NS_TEST_ASSERT_MSG_EQ((t->GetClassRule() == RouteTable::ClassRule::PATH_LAYER),
                              true,
                              "per-path class rule");
        const uint8_t layers = t->GetNumClasses();
        ReportValidation("dfsssp-torus4x4-layers", layers);
        // measured: 2 (29 of the 240 host pairs' paths moved to layer 1)
        NS_TEST_ASSERT_MSG_EQ(+layers, 2, "a 4x4 torus: two layers");
        NS_TEST_ASSERT_MSG_EQ(sm->HasPathSls(), true, "the SM hands out SLs");
        NS_TEST_ASSERT_MSG_EQ(+sm->GetRequiredVls(), +layers, "one VL per layer");
        // channel ids: node * 64 + port
        const uint32_t nCh = g->GetNNodes() * 64;
        std::vector<std::vector<std::vector<uint32_t>>> perLayer(
            layers,
            std::vector<std::vector<uint32_t>>(nCh));
        std::vector<std::vector<uint32_t>> allInOne(nCh);
        auto add = [](std::vector<std::vector<uint32_t>>& e, uint32_t a, uint32_t b) {
            if (std::find(e[a].begin(), e[a].end(), b) == e[a].end())
            {
                e[a].push_back(b);
            }
        };
        std::vector<uint32_t> pathsPerLayer(layers, 0);
        for (uint32_t s = 0; s < g->GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < g->GetNHosts(); ++d)
            {
                if (s == d)
                {
                    continue;
                }
                const auto hops = LftPath(*g, *sm, s, d);
                NS_TEST_ASSERT_MSG_EQ(hops.empty(), false, "LFT walk " << s << "->" << d);
                const uint8_t sl = sm->GetPathSl(s, d);
                NS_TEST_ASSERT_MSG_LT(sl, layers, "SL within the layers");
                pathsPerLayer[sl]++;
                std::vector<uint32_t> ch;
                for (const auto& [node, port] : hops)
                {
                    if (!g->IsHost(node) && !g->IsHost(g->GetPorts(node)[port].peer))
                    {
                        ch.push_back(node * 64 + port);
                    }
                }
                for (size_t i = 1; i < ch.size(); ++i)
                {
                    add(perLayer[sl], ch[i - 1], ch[i]);
                    add(allInOne, ch[i - 1], ch[i]);
                }
            }
        }
        for (uint8_t l = 0; l < layers; ++l)
        {
            NS_TEST_ASSERT_MSG_GT(pathsPerLayer[l], 0u, "layer " << +l << " holds paths");
            NS_TEST_ASSERT_MSG_EQ(FindDirectedCycle(perLayer[l]).empty(),
                                  true,
                                  "layer " << +l << ": acyclic channel dependencies");
        }
        ReportValidation("dfsssp-torus4x4-layer0-paths", pathsPerLayer[0]);
        NS_TEST_ASSERT_MSG_EQ(FindDirectedCycle(allInOne).empty(),
                              false,
                              "the same paths in one layer close a cycle");
        // The runner's check agrees: acyclic with the layers, cyclic without them.
        ChannelDependencyGraph withLayers(g, t, true);
        NS_TEST_ASSERT_MSG_EQ((withLayers.Compute(0) == ChannelDependencyGraph::Result::ACYCLIC),
                              true,
                              "ChannelDependencyGraph: acyclic over the layers");
        ChannelDependencyGraph oneClass(g, t, false);
        NS_TEST_ASSERT_MSG_EQ((oneClass.Compute(0) == ChannelDependencyGraph::Result::CYCLIC),
                              true,
                              "ChannelDependencyGraph: cyclic in one class");
        Ptr<RouteTable> minhop = RoutingEngine::BuildTable("minhop", g);
        ChannelDependencyGraph mh(g, minhop, true);
        NS_TEST_ASSERT_MSG_EQ((mh.Compute(0) == ChannelDependencyGraph::Result::CYCLIC),
                              true,
                              "minhop on the torus: cyclic");
        // Too few layers: one error naming the count.
        Ptr<DfssspRouting> one = Create<DfssspRouting>();
        one->SetMaxLayers(1);
        bool threw = false;
        try
        {
            one->Compute(g);
        }
        catch (const std::invalid_argument& e)
        {
            threw =
                std::string(e.what()).find("needs more than 1 virtual layers") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "one layer on a torus: a clear error");
        Ptr<DfssspRouting> enough = Create<DfssspRouting>();
        enough->SetMaxLayers(layers);
        NS_TEST_ASSERT_MSG_EQ(+enough->Compute(g)->GetNumClasses(), +layers, "fits exactly");
        threw = false;
        try
        {
            enough->SetMaxLayers(16);
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "16 layers: more than the 15 data VLs");
        // A fat-tree's shortest paths are up*/down*: one layer, no SLs.
        Ptr<SubnetManager> ft = Create<SubnetManager>(FatTree(4));
        ft->Run("dfsssp");
        NS_TEST_ASSERT_MSG_EQ(+ft->GetRoutes()->GetNumClasses(), 1, "fat-tree: one layer");
        NS_TEST_ASSERT_MSG_EQ(ft->HasPathSls(), false, "fat-tree: no per-path SLs");
    }
};

/**
 * \brief dfsssp's weights balance the all-to-all: its busiest cable carries no more
 * routes than minhop's.
 */
class DfssspBalanceTestCase : public TestCase
{
  public:
    DfssspBalanceTestCase()
        : TestCase("dfsssp: all-to-all on a 4x4 torus, busiest cable no worse than minhop")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = Torus4x4();
        Ptr<SubnetManager> df = Create<SubnetManager>(g);
        df->Run("dfsssp");
        Ptr<SubnetManager> mh = Create<SubnetManager>(g);
        mh->Run("minhop");
        const uint32_t dfMax = AllToAllMaxCableRoutes(*g, *df);
        const uint32_t mhMax = AllToAllMaxCableRoutes(*g, *mh);
        ReportValidation("dfsssp-torus4x4-alltoall-max-cable-routes", dfMax);
        ReportValidation("dfsssp-torus4x4-alltoall-max-cable-routes.expected", mhMax);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(dfMax, mhMax, "dfsssp's busiest cable vs minhop's");
        // The weights may lengthen a path past its minimum: count those.
        Ptr<RouteTable> ecmp = RoutingEngine::BuildTable("ecmp", g);
        uint32_t longer = 0;
        for (uint32_t s = 0; s < g->GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < g->GetNHosts(); ++d)
            {
                for (const auto& [node, port] : LftPath(*g, *df, s, d))
                {
                    const auto c = ecmp->GetCandidates(node, d);
                    if (!g->IsHost(node) && std::find(c.begin(), c.end(), port) == c.end())
                    {
                        longer++;
                        break;
                    }
                }
            }
        }
        ReportValidation("dfsssp-torus4x4-nonminimal-paths", longer);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(longer, 16u * 15 / 10, "few detours");
        // lower bound: 16*15 routes of mean 2 switch-to-switch hops over 64 cables
        NS_TEST_ASSERT_MSG_GT_OR_EQ(dfMax, 16u * 15 * 2 / 64, "at least the mean load");
    }
};

/// \brief The Subnet Manager's OpenSM-style routing engines.
class SubnetManagerRoutingTestSuite : public TestSuite
{
  public:
    SubnetManagerRoutingTestSuite()
        : TestSuite("ai-fabric-subnet-manager-routing", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new FtreeShiftTestCase, AI_FABRIC_QUICK);
        AddTestCase(new FtreeFitsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new MinHopBalanceTestCase, AI_FABRIC_QUICK);
        AddTestCase(new DfssspLayersTestCase, AI_FABRIC_QUICK);
        AddTestCase(new DfssspBalanceTestCase, AI_FABRIC_QUICK);
    }
};

static SubnetManagerRoutingTestSuite g_subnetManagerRoutingTestSuite; //!< registers the suite
