/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Topology builders and the file reader against closed forms (Al-Fares et al. 2008, Kim et al.
 * 2008, torus/mesh counts).
 */
#include "ai-fabric-test-compat.h"

#include "ns3/boolean.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/memory-estimate.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/rail-topology-helper.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/string.h"
#include "ns3/topology-file-reader.h"
#include "ns3/topology-registry.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// \return the exception message of fn, or "" if it did not throw std::invalid_argument
std::string
ThrownMessage(const std::function<void()>& fn)
{
    try
    {
        fn();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

Ptr<TopologyGraph>
FatTree(uint32_t k, uint32_t hostsPerEdge = 0)
{
    Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
    h->SetAttribute("K", UintegerValue(k));
    h->SetAttribute("HostsPerEdge", UintegerValue(hostsPerEdge));
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
Dragonfly(uint32_t p,
          uint32_t a,
          uint32_t hh,
          uint32_t g,
          const std::string& arr = "absolute",
          bool dup = true)
{
    Ptr<DragonflyTopologyHelper> h = CreateObject<DragonflyTopologyHelper>();
    h->SetAttribute("P", UintegerValue(p));
    h->SetAttribute("A", UintegerValue(a));
    h->SetAttribute("H", UintegerValue(hh));
    h->SetAttribute("G", UintegerValue(g));
    h->SetAttribute("Arrangement", StringValue(arr));
    h->SetAttribute("DuplicateGlobalLinks", BooleanValue(dup));
    return h->Build();
}

} // namespace

/// \brief Fat-tree and leaf-spine counts, tiers, pods and port structure.
class FatTreeCountsTestCase : public TestCase
{
  public:
    FatTreeCountsTestCase()
        : TestCase("k-ary fat-tree and leaf-spine: hosts, switches, cables = closed forms")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k : {2u, 4u, 8u, 16u})
        {
            Ptr<TopologyGraph> g = FatTree(k);
            NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), k * k * k / 4, "k^3/4 hosts, k=" << k);
            NS_TEST_ASSERT_MSG_EQ(g->GetNSwitches(), 5 * k * k / 4, "5k^2/4 switches, k=" << k);
            NS_TEST_ASSERT_MSG_EQ(g->GetNLinks(), 3 * k * k * k / 4, "3k^3/4 cables, k=" << k);
            // every switch has radix k; every host one port
            for (uint32_t s : g->GetSwitches())
            {
                NS_TEST_ASSERT_MSG_EQ(g->GetPorts(s).size(), k, "switch radix k");
            }
            uint32_t tiers[3] = {0, 0, 0};
            for (uint32_t s : g->GetSwitches())
            {
                tiers[g->GetTier(s)]++;
            }
            NS_TEST_ASSERT_MSG_EQ(tiers[0], k * k / 2, "k^2/2 edge switches");
            NS_TEST_ASSERT_MSG_EQ(tiers[1], k * k / 2, "k^2/2 aggregation switches");
            NS_TEST_ASSERT_MSG_EQ(tiers[2], k * k / 4, "k^2/4 core switches");
        }
        Ptr<TopologyGraph> g4 = FatTree(4);
        NS_TEST_ASSERT_MSG_EQ(g4->Describe(),
                              std::string("k=4 fat-tree: 16 hosts, 20 switches, 48 links"),
                              "Describe()");
        NS_TEST_ASSERT_MSG_EQ(g4->GetHostIndex(g4->GetHosts()[5]), 5u, "rank inverse");
        NS_TEST_ASSERT_MSG_EQ(g4->GetGroup(g4->GetHosts()[5]), 1u, "host 5 is in pod 1");
        // the farthest host pair crosses pods: 6 cables
        auto d = g4->Distances(g4->GetHosts()[0]);
        NS_TEST_ASSERT_MSG_EQ(d[g4->GetHosts()[15]], 6u, "inter-pod distance 6");
        NS_TEST_ASSERT_MSG_EQ(d[g4->GetHosts()[2]], 4u, "intra-pod distance 4");
        NS_TEST_ASSERT_MSG_EQ(d[g4->GetHosts()[1]], 2u, "same-edge distance 2");

        // oversubscribed edge: k=4 with 4 hosts per edge = 32 hosts, 2:1
        Ptr<TopologyGraph> o = FatTree(4, 4);
        NS_TEST_ASSERT_MSG_EQ(o->GetNHosts(), 32u, "k=4, 4 hosts per edge");
        NS_TEST_ASSERT_MSG_EQ(o->GetNLinks(), 32u + 16u + 16u, "hosts + edge-agg + agg-core");

        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("Leaves", UintegerValue(8));
        ls->SetAttribute("Spines", UintegerValue(4));
        ls->SetAttribute("HostsPerLeaf", UintegerValue(16));
        Ptr<TopologyGraph> l = ls->Build();
        NS_TEST_ASSERT_MSG_EQ(l->GetNHosts(), 128u, "L*H hosts");
        NS_TEST_ASSERT_MSG_EQ(l->GetNSwitches(), 12u, "L+S switches");
        NS_TEST_ASSERT_MSG_EQ(l->GetNLinks(), 128u + 32u, "L*H + L*S cables");
        ls->SetAttribute("LinksPerPair", UintegerValue(2));
        NS_TEST_ASSERT_MSG_EQ(ls->Build()->GetNLinks(), 128u + 64u, "L*H + L*S*P cables");
    }
};

/// \brief Torus, ring and mesh counts and coordinates.
class TorusCountsTestCase : public TestCase
{
  public:
    TorusCountsTestCase()
        : TestCase("torus, ring, mesh: router cables n prod k (k>2), mesh sum (k_d-1) prod")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* dims;
            bool wrap;
            uint32_t routers;
            uint32_t routerCables;
        };

        const Case cases[] = {
            {"4x4", true, 16, 2 * 16}, // n prod k
            {"8x8", true, 64, 2 * 64},
            {"4x4x4", true, 64, 3 * 64},
            {"8", true, 8, 8},       // ring
            {"2x4", true, 8, 4 + 8}, // radix 2: one cable, prod k / 2
            {"3x5", true, 15, 2 * 15},
            {"4x4", false, 16, 2 * 3 * 4}, // sum (k_d - 1) prod_{j != d} k_j
            {"8x8", false, 64, 2 * 7 * 8},
            {"4x4x4", false, 64, 3 * 3 * 16},
        };
        for (const auto& c : cases)
        {
            Ptr<TopologyGraph> g = Torus(c.dims, c.wrap, 2);
            NS_TEST_ASSERT_MSG_EQ(g->GetNSwitches(), c.routers, c.dims << " routers");
            NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), 2 * c.routers, c.dims << " 2 hosts/router");
            NS_TEST_ASSERT_MSG_EQ(g->GetNLinks(),
                                  c.routerCables + 2 * c.routers,
                                  c.dims << (c.wrap ? " torus" : " mesh") << " cables");
        }
        // 4x4 torus: every router has 4 neighbours + 1 host; distances
        Ptr<TopologyGraph> t = Torus("4x4", true);
        NS_TEST_ASSERT_MSG_EQ(t->Describe(),
                              std::string("4x4 torus: 16 hosts, 16 switches, 48 links"),
                              "Describe()");
        uint32_t r0 = t->GetSwitches()[0];
        auto d = t->Distances(r0);
        uint32_t maxd = 0;
        for (uint32_t s : t->GetSwitches())
        {
            NS_TEST_ASSERT_MSG_EQ(t->GetPorts(s).size(), 5u, "radix 2n + 1");
            uint32_t r = t->GetGroup(s);
            uint32_t x = r % 4;
            uint32_t y = r / 4;
            uint32_t expect = std::min(x, 4 - x) + std::min(y, 4 - y);
            NS_TEST_ASSERT_MSG_EQ(d[s], expect, "sum min(|dx|, k-|dx|) to router " << r);
            maxd = std::max(maxd, d[s]);
        }
        NS_TEST_ASSERT_MSG_EQ(maxd, 4u, "4x4 torus diameter");
        Ptr<TopologyGraph> m = Torus("4x4", false);
        d = m->Distances(m->GetSwitches()[0]);
        NS_TEST_ASSERT_MSG_EQ(d[m->GetSwitches()[15]], 6u, "mesh corner to corner sum |dx|");

        Ptr<TorusTopologyHelper> h = CreateObject<TorusTopologyHelper>();
        h->SetDims({4, 2, 3});
        NS_TEST_ASSERT_MSG_EQ(h->Build()->GetNSwitches(), 24u, "SetDims");
    }
};

/// \brief DragonFly counts, radix and the absolute arrangement.
class DragonflyCountsTestCase : public TestCase
{
  public:
    DragonflyCountsTestCase()
        : TestCase("dragonfly: N = a p g, radix p+a-1+h, one global cable per group pair")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t p = 2;
        const uint32_t a = 4;
        const uint32_t h = 2;
        for (const char* arr : {"absolute", "relative"})
        {
            Ptr<TopologyGraph> g = Dragonfly(p, a, h, 0, arr);
            const uint32_t G = a * h + 1;
            NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), a * p * G, "N = a p g = 72");
            NS_TEST_ASSERT_MSG_EQ(g->GetNSwitches(), a * G, "a g routers");
            NS_TEST_ASSERT_MSG_EQ(g->GetNLinks(),
                                  a * p * G + G * a * (a - 1) / 2 + G * (G - 1) / 2,
                                  "host + local + global cables = 72 + 54 + 36");
            std::vector<std::vector<uint32_t>> pair(G, std::vector<uint32_t>(G, 0));
            for (uint32_t s : g->GetSwitches())
            {
                NS_TEST_ASSERT_MSG_EQ(g->GetPorts(s).size(), p + a - 1 + h, "radix p+a-1+h");
            }
            for (uint32_t l = 0; l < g->GetNLinks(); ++l)
            {
                const auto& lk = g->GetLink(l);
                if (!g->IsHost(lk.a) && g->GetGroup(lk.a) != g->GetGroup(lk.b))
                {
                    pair[g->GetGroup(lk.a)][g->GetGroup(lk.b)]++;
                    pair[g->GetGroup(lk.b)][g->GetGroup(lk.a)]++;
                }
            }
            for (uint32_t x = 0; x < G; ++x)
            {
                for (uint32_t y = 0; y < G; ++y)
                {
                    NS_TEST_ASSERT_MSG_EQ(pair[x][y],
                                          (x == y ? 0u : 1u),
                                          arr << ": global cables between groups " << x << ","
                                              << y);
                }
            }
        }
        // absolute: router i of group G, slot j = i h + c reaches group j (< G) or j + 1
        Ptr<TopologyGraph> g = Dragonfly(p, a, h, 0, "absolute");
        for (uint32_t s : g->GetSwitches())
        {
            const uint32_t G = g->GetGroup(s);
            const uint32_t i = g->GetIndex(s);
            std::multiset<uint32_t> got;
            std::multiset<uint32_t> expect;
            for (const auto& port : g->GetPorts(s))
            {
                if (!g->IsHost(port.peer) && g->GetGroup(port.peer) != G)
                {
                    got.insert(g->GetGroup(port.peer));
                }
            }
            for (uint32_t c = 0; c < h; ++c)
            {
                uint32_t j = i * h + c;
                expect.insert(j < G ? j : j + 1);
            }
            NS_TEST_ASSERT_MSG_EQ((got == expect), true, "absolute slots of router " << s);
        }
        // smaller g: 5 groups, 8 slots, 2 cables per pair (duplicated round-robin)
        Ptr<TopologyGraph> s5 = Dragonfly(p, a, h, 5);
        NS_TEST_ASSERT_MSG_EQ(s5->GetNHosts(), 40u, "a p g");
        NS_TEST_ASSERT_MSG_EQ(s5->GetNLinks(), 40u + 5 * 6 + 10 * 2, "2 global cables per pair");
        Ptr<TopologyGraph> s5n = Dragonfly(p, a, h, 5, "absolute", false);
        NS_TEST_ASSERT_MSG_EQ(s5n->GetNLinks(), 40u + 5 * 6 + 10, "no duplication: 1 per pair");
        // g = 4: 8 slots over 3 other groups, last round partial: never more than h per router
        Ptr<TopologyGraph> s4 = Dragonfly(p, a, h, 4, "relative");
        for (uint32_t s : s4->GetSwitches())
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(s4->GetPorts(s).size(), p + a - 1 + h, "radix bound");
        }
    }
};

/// \brief Impossible parameters throw std::invalid_argument naming the value.
class TopologyBadParametersTestCase : public TestCase
{
  public:
    TopologyBadParametersTestCase()
        : TestCase("impossible topology parameters throw naming the parameter and value")
    {
    }

  private:
    void DoRun() override
    {
        std::string m = ThrownMessage([] { FatTree(3); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "k = 3") && Contains(m, "even"), true, m);
        m = ThrownMessage([] { FatTree(0); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "k = 0"), true, m);
        m = ThrownMessage([] { Torus("4x0", true); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "= 0") && Contains(m, ">= 2"), true, m);
        m = ThrownMessage([] { Torus("", true); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "dims"), true, m);
        m = ThrownMessage([] { Torus("4xx4", false); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "4xx4"), true, m);
        m = ThrownMessage([] { Dragonfly(2, 4, 2, 10); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "g = 10") && Contains(m, "a*h+1"), true, m);
        m = ThrownMessage([] { Dragonfly(0, 4, 2, 0); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "p = 0"), true, m);
        m = ThrownMessage([] { Dragonfly(2, 4, 2, 0, "diagonal"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "diagonal"), true, m);
        m = ThrownMessage([] {
            Ptr<TopologyGraph> g = Create<TopologyGraph>();
            g->AddSwitch();
            g->AddLink(0, 0, DataRate("1Gbps"), Seconds(0));
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "self loop"), true, m);
    }
};

/// \brief The HPCC-style topology file reader.
class TopologyFileTestCase : public TestCase
{
  public:
    TopologyFileTestCase()
        : TestCase("topology file: parses, derives tiers, bad input names the line")
    {
    }

  private:
    void DoRun() override
    {
        std::istringstream ok("3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 25Gbps 1us 0\n");
        Ptr<TopologyGraph> g = TopologyFileReader::Parse(ok, "three.txt");
        NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), 2u, "hosts");
        NS_TEST_ASSERT_MSG_EQ(g->GetNSwitches(), 1u, "switches");
        NS_TEST_ASSERT_MSG_EQ(g->GetNLinks(), 2u, "links");
        NS_TEST_ASSERT_MSG_EQ(g->GetLink(0).rate.GetBitRate(), 100000000000ULL, "100Gbps");
        NS_TEST_ASSERT_MSG_EQ(g->GetLink(0).delay, MicroSeconds(1), "0.001ms");
        NS_TEST_ASSERT_MSG_EQ(g->GetLink(1).rate.GetBitRate(), 25000000000ULL, "25Gbps");
        NS_TEST_ASSERT_MSG_EQ(g->IsHost(2), false, "node 2 is the switch");

        // ns3-datacenter's header (nodes switches tors links) with plain bps; a two-tier
        // tree: tiers by host distance
        std::istringstream v("6 3 2 5\n3 4 5\n0 3 100000000000 0.001ms 0\n"
                             "1 4 100000000000 0.001ms 0\n2 4 100000000000 0.001ms 0\n"
                             "3 5 400000000000 0.001ms 0\n4 5 400000000000 0.001ms 0\n");
        g = TopologyFileReader::Parse(v, "tree.txt");
        NS_TEST_ASSERT_MSG_EQ(g->GetNHosts(), 3u, "hosts");
        NS_TEST_ASSERT_MSG_EQ(g->GetTier(3), 0u, "ToR tier");
        NS_TEST_ASSERT_MSG_EQ(g->GetTier(5), 1u, "spine tier");
        NS_TEST_ASSERT_MSG_EQ(g->GetLink(3).rate.GetBitRate(), 400000000000ULL, "plain bps");
        // ... and with the host and uplink capacities after it
        std::istringstream six("6 3 2 5 100000000000 400000000000\n3 4 5\n"
                               "0 3 100Gbps 1us 0\n1 4 100Gbps 1us 0\n2 4 100Gbps 1us 0\n"
                               "3 5 400Gbps 1us 0\n4 5 400Gbps 1us 0\n");
        g = TopologyFileReader::Parse(six, "six.txt");
        NS_TEST_ASSERT_MSG_EQ(g->GetNLinks(), 5u, "6-field header: 5 links");
        NS_TEST_ASSERT_MSG_EQ(ThrownMessage([] {
                                  std::istringstream in("6 3 4 5\n3 4 5\n");
                                  TopologyFileReader::Parse(in, "tors.txt");
                              }),
                              "tors.txt:1: top-of-rack count 4 is more than the 3 switches",
                              "more top-of-rack switches than switches");
        NS_TEST_ASSERT_MSG_EQ(ThrownMessage([] {
                                  std::istringstream in(
                                      "6 3 2 5\n3 4 5\n0 3 100000000000 0.001ms 0\n");
                                  TopologyFileReader::Parse(in, "five.txt");
                              }).find("five.txt:1: header declares 5 links"),
                              0,
                              "the 4-field header's links are its 4th field (5 expected, 1 given)");

        std::string m = ThrownMessage([] {
            std::istringstream in("3 1 3\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
            TopologyFileReader::Parse(in, "short.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "short.txt:4:") && Contains(m, "declares 3"), true, m);
        m = ThrownMessage([] {
            std::istringstream in("3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbpx 0.001ms 0\n");
            TopologyFileReader::Parse(in, "rate.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "rate.txt:4:") && Contains(m, "100Gbpx"), true, m);
        m = ThrownMessage([] {
            std::istringstream in("3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 7 100Gbps 0.001ms 0\n");
            TopologyFileReader::Parse(in, "id.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "id.txt:4:") && Contains(m, "0..2"), true, m);
        m = ThrownMessage([] {
            std::istringstream in("3 1 2\n2\n0 2 100Gbps 0.001ms 0\n2 2 100Gbps 0.001ms 0\n");
            TopologyFileReader::Parse(in, "loop.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "loop.txt:4:") && Contains(m, "self loop"), true, m);
        m = ThrownMessage([] {
            std::istringstream in("3 1 3\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n"
                                  "2 0 100Gbps 0.001ms 0\n");
            TopologyFileReader::Parse(in, "dup.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "dup.txt:5:") && Contains(m, "duplicate link 2 - 0") &&
                                  Contains(m, "line 3"),
                              true,
                              m);
        m = ThrownMessage([] {
            std::istringstream in("3 2 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
            TopologyFileReader::Parse(in, "sw.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "sw.txt:2:"), true, m);
        // A header's counts allocate nothing before they are plausible.
        m = ThrownMessage([] {
            std::istringstream in("40000000 1 39999999\n0\n1 0 100Gbps 1us\n");
            TopologyFileReader::Parse(in, "big.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m,
                                       "big.txt:1: header declares 39999999 links but the 18 "
                                       "bytes after it hold at most 2 link lines"),
                              true,
                              m);
        m = ThrownMessage([] {
            std::istringstream in("5 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n");
            TopologyFileReader::Parse(in, "few.txt");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "few.txt:1: link count 2 is too small for 5 nodes"),
                              true,
                              m);
        m = ThrownMessage([] { TopologyFileReader::Read("/nonexistent/topo.txt"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "/nonexistent/topo.txt"), true, m);
    }
};

/// \brief The topology suite.
/**
 * \brief TopologyRegistry: every family by name, built from the runner's flags with
 * the links given, the same graph as its helper builds; errors name what is allowed.
 */
class TopologyRegistryTestCase : public TestCase
{
  public:
    TopologyRegistryTestCase()
        : TestCase("registry: families by name, sized by flags, cables from Links")
    {
    }

  private:
    void DoRun() override
    {
        const auto names = TopologyRegistry::GetNames();
        const std::vector<std::string>
            expected{"dragonfly", "fattree", "file", "leafspine", "mesh", "rail", "torus"};
        NS_TEST_ASSERT_MSG_EQ(names.size(), expected.size(), "seven families");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(names[i], expected[i], "sorted names");
        }
        const TopologyRegistry::Links links{DataRate("25Gbps"),
                                            NanoSeconds(300),
                                            DataRate("50Gbps"),
                                            NanoSeconds(700)};
        const std::map<std::string, std::string> flags{{"k", "6"},
                                                       {"dims", "4x3"},
                                                       {"hosts-per-switch", "2"},
                                                       {"leaves", "3"},
                                                       {"spines", "2"},
                                                       {"p", "1"},
                                                       {"a", "2"},
                                                       {"h", "1"},
                                                       {"g", "3"},
                                                       {"servers", "2"},
                                                       {"rail-spines", "0"},
                                                       {"gpus-per-server", "1"},
                                                       {"scaleup-rate", "3600Gbps"},
                                                       {"scaleup-latency", "150ns"},
                                                       {"scaleup-efficiency", "1"}};
        auto flag = [&flags](const std::string& name) { return flags.at(name); };
        Ptr<TopologyGraph> fat = TopologyRegistry::Get("fattree").build(links, flag);
        NS_TEST_ASSERT_MSG_EQ(fat->GetHosts().size(), 54, "k=6: k^3/4 hosts");
        NS_TEST_ASSERT_MSG_EQ(fat->GetSwitches().size(), 45, "k=6: 5k^2/4 switches");
        Ptr<TopologyGraph> mesh = TopologyRegistry::Get("mesh").build(links, flag);
        NS_TEST_ASSERT_MSG_EQ(mesh->GetSwitches().size(), 12, "4x3 routers");
        NS_TEST_ASSERT_MSG_EQ(mesh->GetHosts().size(), 24, "2 hosts per router");
        NS_TEST_ASSERT_MSG_EQ(mesh->GetShape().wrap, false, "a mesh has no wrap-around");
        Ptr<TopologyGraph> ls = TopologyRegistry::Get("leafspine").build(links, flag);
        NS_TEST_ASSERT_MSG_EQ(ls->GetHosts().size(), 6, "3 leaves x 2 hosts");
        Ptr<TopologyGraph> df = TopologyRegistry::Get("dragonfly").build(links, flag);
        NS_TEST_ASSERT_MSG_EQ(df->GetHosts().size(), 6, "N = a p g");
        // The cables carry the Links: host cables first in a leaf-spine's cable order.
        const auto& cable = ls->GetLink(0);
        NS_TEST_ASSERT_MSG_EQ(cable.rate, DataRate("25Gbps"), "host cable rate");
        NS_TEST_ASSERT_MSG_EQ(cable.delay, NanoSeconds(300), "host cable delay");
        const auto& fabric = ls->GetLink(ls->GetNLinks() - 1);
        NS_TEST_ASSERT_MSG_EQ(fabric.rate, DataRate("50Gbps"), "leaf-spine cable rate");
        NS_TEST_ASSERT_MSG_EQ(fabric.delay, NanoSeconds(700), "leaf-spine cable delay");

        std::string error;
        try
        {
            TopologyRegistry::Get("hypercube");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "unknown topology 'hypercube'; allowed: dragonfly, fattree, file, "
                              "leafspine, mesh, rail, torus",
                              "names the value and what is allowed");
        error.clear();
        try
        {
            TopologyRegistry::Get("fattree").build(links, [](const std::string&) {
                return std::string("5");
            });
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_NE(error, "", "k=5 is refused by the helper, through the registry");
    }
};

/// Mean GPU-to-GPU hop distance (cables) over all ordered pairs of distinct hosts.
static double
MeanHostDistance(const TopologyGraph& g)
{
    double sum = 0;
    for (uint32_t a : g.GetHosts())
    {
        const auto d = g.Distances(a);
        for (uint32_t b : g.GetHosts())
        {
            sum += a == b ? 0 : d[b];
        }
    }
    const double n = g.GetNHosts();
    return sum / (n * (n - 1));
}

/// \brief GPU servers: rail-only and rail-optimized counts, names, hop distances and
/// rail routing; --gpus-per-server on leaf-spine and fat-tree; what is refused.
class GpuServerTopologyTestCase : public TestCase
{
  public:
    GpuServerTopologyTestCase()
        : TestCase("GPU servers: rail counts, mean hops, rail routing, servers on Clos")
    {
    }

  private:
    static Ptr<TopologyGraph> Rail(uint32_t servers, uint32_t gpus, uint32_t spines)
    {
        Ptr<RailTopologyHelper> h = CreateObject<RailTopologyHelper>();
        h->SetAttribute("Servers", UintegerValue(servers));
        h->SetAttribute("GpusPerServer", UintegerValue(gpus));
        h->SetAttribute("Spines", UintegerValue(spines));
        const TopologyHelper::Size size = h->AddServerCounts(h->GetSize());
        Ptr<TopologyGraph> g = h->Build();
        NS_ABORT_MSG_IF(size.hosts != g->GetNHosts() || size.switches != g->GetNSwitches() ||
                            size.cables != g->GetNLinks(),
                        "rail: GetSize differs from the built graph");
        return g;
    }

    void DoRun() override
    {
        // Rail-only, 4 servers x 8 GPUs: 8 rail leaves + 4 crossbars; 32 NIC cables +
        // 32 scale-up cables.
        Ptr<TopologyGraph> only = Rail(4, 8, 0);
        NS_TEST_ASSERT_MSG_EQ(only->GetNHosts(), 32u, "S*G GPUs");
        NS_TEST_ASSERT_MSG_EQ(only->GetNSwitches(), 12u, "G rail leaves + S crossbars");
        NS_TEST_ASSERT_MSG_EQ(only->GetNLinks(), 64u, "S*G NIC + S*G scale-up cables");
        NS_TEST_ASSERT_MSG_EQ(only->Describe(),
                              std::string("rail-only (8 rails), 4 servers x 8 GPUs: 32 hosts, "
                                          "12 switches, 64 links"),
                              "Describe()");
        // Same server: GPU -> crossbar -> GPU (2 cables); any other: crossbar, a rail
        // leaf, crossbar (4): mean (7*2 + 24*4)/31.
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanHostDistance(*only),
                                  (7.0 * 2 + 24.0 * 4) / 31,
                                  1e-12,
                                  "rail-only mean hop distance");
        const auto& shape = only->GetShape();
        NS_TEST_ASSERT_MSG_EQ(shape.routing, std::string("rail"), "auto routing is rail");
        const uint32_t xbar0 = shape.firstScaleUpSwitch;
        NS_TEST_ASSERT_MSG_EQ(only->GetNodeName(xbar0 + 2), std::string("server2-xbar"), "name");
        NS_TEST_ASSERT_MSG_EQ(only->GetNodeName(only->GetSwitches()[3]),
                              std::string("rail3"),
                              "rail leaf name");
        // GPU 13 = server 1, GPU 5: its scale-up cable to crossbar 1, its NIC (crossbar 1
        // port 5) to rail leaf 5.
        const uint32_t gpu13 = only->GetHosts()[13];
        NS_TEST_ASSERT_MSG_EQ(only->GetPorts(gpu13).size(), 1u, "a GPU has one cable");
        NS_TEST_ASSERT_MSG_EQ(only->GetPorts(gpu13)[0].peer, xbar0 + 1, "to its crossbar");
        NS_TEST_ASSERT_MSG_EQ(only->GetPorts(xbar0 + 1)[5].peer,
                              only->GetSwitches()[5],
                              "NIC of GPU 5 on rail leaf 5");
        NS_TEST_ASSERT_MSG_EQ(only->GetLink(only->GetPorts(gpu13)[0].link).rate,
                              DataRate("3600Gbps"),
                              "scale-up cable at the NVLink 4 default");

        // Rail-optimized: + 4 spines, each cabled to every rail leaf.
        Ptr<TopologyGraph> opt = Rail(4, 8, 4);
        NS_TEST_ASSERT_MSG_EQ(opt->GetNSwitches(), 16u, "G leaves + spines + S crossbars");
        NS_TEST_ASSERT_MSG_EQ(opt->GetNLinks(), 96u, "64 + G*spines cables");
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanHostDistance(*opt),
                                  (7.0 * 2 + 24.0 * 4) / 31,
                                  1e-12,
                                  "rail-optimized: the spines shorten nothing");
        // Rail routing: crossbar 0 sends to GPU 13 (rail 5) out on its rail-5 uplink;
        // rail leaf 5 sends it down to crossbar 1; rail leaf 2 (not the rail) over every
        // spine; crossbar 1 to the GPU.
        Ptr<RouteTable> rt = RoutingEngine::BuildTable("auto", opt);
        const uint32_t oxbar = opt->GetShape().firstScaleUpSwitch;
        auto only1 = [&rt](uint32_t node, uint32_t dst) {
            RouteTable::PortSpan c = rt->GetCandidates(node, dst);
            return c.count == 1 ? c.ptr[0] : 1000 + c.count;
        };
        NS_TEST_ASSERT_MSG_EQ(only1(oxbar, 13), 5u, "PXN: out on the destination's rail");
        NS_TEST_ASSERT_MSG_EQ(only1(oxbar + 1, 13), 8u + 5u, "own crossbar: the GPU's port");
        NS_TEST_ASSERT_MSG_EQ(
            opt->GetPorts(opt->GetSwitches()[5])[only1(opt->GetSwitches()[5], 13)].peer,
            oxbar + 1,
            "rail leaf 5: straight to server 1");
        NS_TEST_ASSERT_MSG_EQ(rt->GetCandidates(opt->GetSwitches()[2], 13).count,
                              4u,
                              "another rail's leaf: ECMP over the 4 spines");
        // ECMP, in contrast, spreads server-to-server traffic over all 8 rails.
        Ptr<RouteTable> ecmp = RoutingEngine::BuildTable("ecmp", opt);
        NS_TEST_ASSERT_MSG_EQ(ecmp->GetCandidates(oxbar, 13).count, 8u, "ecmp: every rail");

        // G = 1 is the plain host: one rail leaf, no crossbar.
        Ptr<TopologyGraph> one = Rail(4, 1, 0);
        NS_TEST_ASSERT_MSG_EQ(one->GetNSwitches(), 1u, "one rail, no crossbar");
        NS_TEST_ASSERT_MSG_EQ(one->GetNLinks(), 4u, "4 host cables");
        NS_TEST_ASSERT_MSG_EQ(one->GetShape().routing, std::string("ecmp"), "plain routing");

        // Leaf-spine 2 leaves x 8 hosts, 2 spines, servers of 4: + 4 crossbars, + 16
        // scale-up cables; hops 2 (same server), 4 (same leaf), 6 (other leaf).
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("Leaves", UintegerValue(2));
        ls->SetAttribute("Spines", UintegerValue(2));
        ls->SetAttribute("HostsPerLeaf", UintegerValue(8));
        ls->SetAttribute("GpusPerServer", UintegerValue(4));
        Ptr<TopologyGraph> lsg = ls->Build();
        NS_TEST_ASSERT_MSG_EQ(lsg->GetNHosts(), 16u, "hosts unchanged");
        NS_TEST_ASSERT_MSG_EQ(lsg->GetNSwitches(), 8u, "2 + 2 + 4 crossbars");
        NS_TEST_ASSERT_MSG_EQ(lsg->GetNLinks(), 16u + 4u + 16u, "+ 16 scale-up cables");
        NS_TEST_ASSERT_MSG_EQ_TOL(MeanHostDistance(*lsg),
                                  (3.0 * 2 + 4.0 * 4 + 8.0 * 6) / 15,
                                  1e-12,
                                  "leaf-spine servers mean hop distance");
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        ft->SetAttribute("GpusPerServer", UintegerValue(2));
        Ptr<TopologyGraph> ftg = ft->Build();
        NS_TEST_ASSERT_MSG_EQ(ftg->GetNSwitches(), 20u + 8u, "k=4 + 8 crossbars");
        NS_TEST_ASSERT_MSG_EQ(ftg->GetNLinks(), 48u + 16u, "k=4 + 16 scale-up cables");
        NS_TEST_ASSERT_MSG_EQ(RoutingEngine::FittingEngines(*ftg).empty(), false, "routable");
        NS_TEST_ASSERT_MSG_EQ(RoutingEngine::BuildTable("auto", ftg)->GetEngineName(),
                              std::string("rail"),
                              "rail routing on fat-tree servers");

        // Refused: servers that do not divide the hosts; a torus of servers.
        ls->SetAttribute("GpusPerServer", UintegerValue(3));
        NS_TEST_ASSERT_MSG_EQ(ThrownMessage([&ls] { ls->Build(); }),
                              std::string("16 hosts are not whole servers of 3 GPUs (gpus per "
                                          "server must divide the host count)"),
                              "G must divide the hosts");
        Ptr<TorusTopologyHelper> torus = CreateObject<TorusTopologyHelper>();
        torus->SetAttribute("GpusPerServer", UintegerValue(2));
        NS_TEST_ASSERT_MSG_EQ(ThrownMessage([&torus] { torus->Build(); }),
                              std::string("gpus per server = 2 is not allowed for a torus "
                                          "(servers of more than one GPU: fattree, leafspine, "
                                          "rail)"),
                              "no servers on a torus");
        Ptr<RailTopologyHelper> zero = CreateObject<RailTopologyHelper>();
        zero->SetAttribute("Servers", UintegerValue(0));
        NS_TEST_ASSERT_MSG_NE(ThrownMessage([&zero] { zero->Build(); }), "", "0 servers");
    }
};

/// \brief TopologyHelper::GetSize: the closed forms equal the built graph, saturate
/// instead of wrapping, and MemoryEstimate refuses what cannot be numbered or held.
class TopologySizeTestCase : public TestCase
{
  public:
    TopologySizeTestCase()
        : TestCase("GetSize: closed forms = built graph; huge shapes refused before building")
    {
    }

  private:
    /// Check helper's GetSize against what its Build makes.
    void Expect(Ptr<TopologyHelper> helper, const std::string& what, bool exactCables = true)
    {
        const TopologyHelper::Size size = helper->GetSize();
        Ptr<TopologyGraph> g = helper->Build();
        NS_TEST_ASSERT_MSG_EQ(size.hosts, g->GetNHosts(), what << ": hosts");
        NS_TEST_ASSERT_MSG_EQ(size.switches, g->GetNSwitches(), what << ": switches");
        if (exactCables)
        {
            NS_TEST_ASSERT_MSG_EQ(size.cables, g->GetNLinks(), what << ": cables");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(size.cables, g->GetNLinks(), what << ": cable bound");
            // the bound counts every global port once: within one cable per group
            NS_TEST_ASSERT_MSG_LT_OR_EQ(size.cables,
                                        g->GetNLinks() + g->GetShape().g,
                                        what << ": cable bound is tight");
        }
    }

    void DoRun() override
    {
        for (uint32_t k : {2u, 4u, 6u, 8u})
        {
            for (uint32_t hpe : {0u, 1u, 5u})
            {
                Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
                h->SetAttribute("K", UintegerValue(k));
                h->SetAttribute("HostsPerEdge", UintegerValue(hpe));
                Expect(h, "fat-tree k=" + std::to_string(k) + " hpe=" + std::to_string(hpe));
            }
        }
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("Leaves", UintegerValue(5));
        ls->SetAttribute("Spines", UintegerValue(3));
        ls->SetAttribute("HostsPerLeaf", UintegerValue(7));
        ls->SetAttribute("LinksPerPair", UintegerValue(2));
        Expect(ls, "leaf-spine 5x3, 7 hosts, 2 links per pair");
        for (const char* dims : {"2", "3", "8", "2x2", "2x3x4", "4x4x4", "5x2"})
        {
            for (bool wrap : {true, false})
            {
                Ptr<TorusTopologyHelper> t =
                    wrap ? CreateObject<TorusTopologyHelper>()
                         : Ptr<TorusTopologyHelper>(CreateObject<MeshTopologyHelper>());
                t->SetAttribute("Dims", StringValue(dims));
                t->SetAttribute("HostsPerRouter", UintegerValue(3));
                Expect(t, std::string(wrap ? "torus " : "mesh ") + dims);
            }
        }

        struct
        {
            uint32_t p, a, h, g;
            bool dup;
        } dragonflies[] = {{2, 4, 2, 0, true},
                           {2, 4, 2, 9, false},
                           {1, 4, 2, 5, true},
                           {1, 4, 2, 4, true},
                           {1, 3, 1, 2, false},
                           {1, 1, 1, 1, true}};

        for (const auto& d : dragonflies)
        {
            Ptr<DragonflyTopologyHelper> h = CreateObject<DragonflyTopologyHelper>();
            h->SetAttribute("P", UintegerValue(d.p));
            h->SetAttribute("A", UintegerValue(d.a));
            h->SetAttribute("H", UintegerValue(d.h));
            h->SetAttribute("G", UintegerValue(d.g));
            h->SetAttribute("DuplicateGlobalLinks", BooleanValue(d.dup));
            std::ostringstream what;
            what << "dragonfly p=" << d.p << " a=" << d.a << " h=" << d.h << " g=" << d.g
                 << (d.dup ? " duplicated" : "");
            // duplicated global cables of a partial last round: an upper bound
            Expect(h, what.str(), !d.dup || d.g == 0);
        }

        // Shapes far too large to build: counted, not built, and no wrap-around.
        Ptr<LeafSpineTopologyHelper> big = CreateObject<LeafSpineTopologyHelper>();
        big->SetAttribute("Leaves", UintegerValue(65535));
        big->SetAttribute("Spines", UintegerValue(65535));
        big->SetAttribute("HostsPerLeaf", UintegerValue(65535));
        const TopologyHelper::Size bigSize = big->GetSize();
        NS_TEST_ASSERT_MSG_EQ(bigSize.hosts, 65535ULL * 65535, "4.29e9 hosts, not wrapped");
        NS_TEST_ASSERT_MSG_EQ(bigSize.cables, 2 * 65535ULL * 65535, "hosts + leaf-spine");
        Ptr<DragonflyTopologyHelper> huge = CreateObject<DragonflyTopologyHelper>();
        huge->SetAttribute("P", UintegerValue(UINT32_MAX));
        huge->SetAttribute("A", UintegerValue(UINT32_MAX));
        huge->SetAttribute("H", UintegerValue(UINT32_MAX));
        NS_TEST_ASSERT_MSG_EQ(huge->GetSize().hosts, UINT64_MAX, "saturates");
        NS_TEST_ASSERT_MSG_EQ(huge->GetSize().cables, UINT64_MAX, "saturates");

        std::string m = ThrownMessage(
            [&bigSize] { MemoryEstimate::Check(bigSize, "rocev2", "--topology=leafspine"); });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "--topology=leafspine: 4294836225 hosts") &&
                                  Contains(m, "more than the 4294967294 nodes"),
                              true,
                              m);
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(1024));
        const TopologyHelper::Size ftSize = ft->GetSize();
        NS_TEST_ASSERT_MSG_EQ(ftSize.hosts, 1ULL << 28, "k^3/4 hosts");
        // 805e6 cables x 29 KiB + 1.34e6 x 2.7e8 x 5 B: far beyond any machine
        const uint64_t ib = MemoryEstimate::FabricBytes(ftSize, "infiniband");
        NS_TEST_ASSERT_MSG_EQ(ib,
                              MemoryEstimate::PROCESS_BYTES + MemoryEstimate::MPI_PROCESS_BYTES +
                                  805306368ULL * 29 * 1024 + 1310720ULL * (1ULL << 28) * 5,
                              "the estimate's three terms");
        m = ThrownMessage([&ftSize] {
            MemoryEstimate::Check(ftSize, "infiniband", "--topology=fattree --k=1024");
        });
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "--topology=fattree --k=1024: 268435456 hosts") &&
                                  Contains(m, "need about " + MemoryEstimate::Format(ib)) &&
                                  Contains(m, "available (MemAvailable"),
                              true,
                              m);
        NS_TEST_ASSERT_MSG_EQ(MemoryEstimate::Format(1536), "1.5 KiB", "binary units");
        NS_TEST_ASSERT_MSG_EQ(MemoryEstimate::Format(1795162112), "1.67 GiB", "3 digits");
        NS_TEST_ASSERT_MSG_GT(MemoryEstimate::AvailableBytes(), 0, "Linux has MemAvailable");
        // the default scenario's k=4 fat-tree fits anywhere
        ft->SetAttribute("K", UintegerValue(4));
        MemoryEstimate::Check(ft->GetSize(), "rocev2", "--k=4");
    }
};

class TopologyTestSuite : public TestSuite
{
  public:
    TopologyTestSuite()
        : TestSuite("ai-fabric-topology", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new FatTreeCountsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TorusCountsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new DragonflyCountsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TopologyBadParametersTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TopologyFileTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TopologyRegistryTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TopologySizeTestCase, AI_FABRIC_QUICK);
        AddTestCase(new GpuServerTopologyTestCase, AI_FABRIC_QUICK);
    }
};

static TopologyTestSuite g_topologyTestSuite; //!< registers the suite
