/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Topologies at fabric level (RoCEv2): measured hop counts equal the routed path
 * lengths (and the graph's average distance for the minimal engines), the torus
 * dateline classes keep a lossless ring deadlock free where one class stalls, and
 * DragonFly Valiant / UGAL beat minimal routing on the adversarial group-shift
 * pattern, whose minimal throughput is one global cable shared by a*p hosts.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/enum.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/lambda-callback.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"

#include <functional>
#include <iostream>
#include <set>
#include <tuple>

using namespace ns3;

namespace
{

Ptr<TopologyGraph>
Torus(const std::string& dims, bool wrap)
{
    Ptr<TorusTopologyHelper> h = wrap
                                     ? CreateObject<TorusTopologyHelper>()
                                     : Ptr<TorusTopologyHelper>(CreateObject<MeshTopologyHelper>());
    h->SetAttribute("Dims", StringValue(dims));
    h->SetAttribute("HostsPerRouter", UintegerValue(1));
    return h->Build();
}

Ptr<TopologyGraph>
FatTree(uint32_t k)
{
    Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
    h->SetAttribute("K", UintegerValue(k));
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

/// Counts frames the hosts put on their links.
struct HostTxCounter
{
    uint64_t frames{0};

    void OnTx(Ptr<const Packet>)
    {
        frames++;
    }
};

/// Messages finished and the last completion time.
struct Completions
{
    uint64_t done{0};
    uint64_t bytes{0};
    Time last;

    void OnMessage(const RdmaFabric::MessageRecord& r)
    {
        done++;
        bytes += r.bytes;
        last = std::max(last, r.end);
    }
};

uint64_t
TotalForwarded(Ptr<RoceFabric> fabric)
{
    uint64_t n = 0;
    for (const auto& sw : fabric->GetSwitches())
    {
        n += sw->GetForwarded();
    }
    return n;
}

} // namespace

/**
 * All-to-all of one-packet messages: every frame (data and ACK) of a pair travels
 * the pair's routed path, so switch forwards / host frames + 1 is the mean cable
 * count over pairs. It must equal the mean routed length, and for fat-tree
 * (ECMP), torus and mesh (DOR) the graph's average host distance. DragonFly
 * minimal routing is local-global-local, which may be longer than a two-global
 * shortest path: it is compared with the routed length and the gap is reported.
 */
class HopCountTestCase : public TestCase
{
  public:
    HopCountTestCase(std::string name,
                     std::function<Ptr<TopologyGraph>()> build,
                     bool graphShortest)
        : TestCase("mean measured hop count on " + name + " equals the routed path length"),
          m_build(build),
          m_graphShortest(graphShortest)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        m_graph = m_build();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("auto", m_graph);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(m_graph, routes);
        Completions c;
        fabric->AddMessageCallback(MakeCallback(&Completions::OnMessage, &c));
        HostTxCounter tx;
        const uint32_t n = fabric->GetNHosts();
        double routed = 0;
        double shortest = 0;
        std::vector<uint32_t> dist;
        for (uint32_t s = 0; s < n; ++s)
        {
            fabric->GetNic(s)->GetDevice()->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeCallback(&HostTxCounter::OnTx, &tx));
            m_graph->Distances(m_graph->GetHosts()[s], dist);
            for (uint32_t d = 0; d < n; ++d)
            {
                if (d != s)
                {
                    fabric->PostWrite(s, d, 1000, d, 0);
                    routed += fabric->GetPathHops(s, d) + 1;
                    shortest += dist[m_graph->GetHosts()[d]];
                }
            }
        }
        Simulator::Run();
        const double pairs = static_cast<double>(n) * (n - 1);
        routed /= pairs;
        shortest /= pairs;
        const double measured =
            1.0 + static_cast<double>(TotalForwarded(fabric)) / static_cast<double>(tx.frames);
        std::cout << GetName() << ": measured " << measured << " cables/frame, routed " << routed
                  << ", graph average distance " << shortest << std::endl;
        NS_TEST_ASSERT_MSG_EQ(c.done, static_cast<uint64_t>(pairs), "every message completes");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetCounters().losslessDrops, 0, "lossless");
        NS_TEST_ASSERT_MSG_EQ_TOL(measured, routed, 1e-9, "measured = routed mean length");
        if (m_graphShortest)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(measured, shortest, 1e-9, "minimal = graph distance");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(measured, shortest, "never shorter than the graph");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(measured, shortest + 1.0, "at most one hop longer");
        }
        Simulator::Destroy();
    }

    std::function<Ptr<TopologyGraph>()> m_build;
    Ptr<TopologyGraph> m_graph;
    bool m_graphShortest;
};

/**
 * Lossless ring of 8 (1 host per router, DOR, no congestion control, small shared
 * buffers so PFC pauses hop by hop), all-to-all of 64 KB per pair. With the dateline
 * classes (priorities 3 and 4, both lossless) every message completes; with the
 * class rule off, the clockwise buffer cycle fills and the run stalls: messages
 * remain unfinished at the stop time with no drop (a PFC deadlock).
 */
class TorusDeadlockTestCase : public TestCase
{
  public:
    TorusDeadlockTestCase(bool classes)
        : TestCase(classes ? "lossless ring of 8 with dateline classes: all-to-all completes"
                           : "lossless ring of 8 with one class: all-to-all deadlocks"),
          m_classes(classes)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Torus("8", true);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("dor", g);
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(routes->GetNumClasses()), 2, "dateline");
        RoceFabricHelper helper;
        helper.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        helper.SetMmuAttribute("LosslessPriorities", UintegerValue(0x18)); // 3 and 4
        helper.SetMmuAttribute("BufferSize", UintegerValue(kBufferBytes));
        helper.SetSwitchAttribute("UseClassRule", BooleanValue(m_classes));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Completions c;
        fabric->AddMessageCallback(MakeCallback(&Completions::OnMessage, &c));
        const uint32_t n = fabric->GetNHosts();
        for (uint32_t s = 0; s < n; ++s)
        {
            for (uint32_t d = 0; d < n; ++d)
            {
                if (d != s)
                {
                    fabric->PostWrite(s, d, 64000, d, 0);
                }
            }
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        RdmaFabric::Counters k = fabric->GetCounters();
        uint64_t reclassified = 0;
        for (const auto& sw : fabric->GetSwitches())
        {
            reclassified += sw->GetReclassified();
        }
        std::cout << GetName() << ": " << c.done << "/" << n * (n - 1) << " done, last at "
                  << c.last.GetMicroSeconds() << " us, pauses " << k.pfcPausesSent
                  << ", reclassified " << reclassified << std::endl;
        NS_TEST_ASSERT_MSG_EQ(k.losslessDrops + k.lossyDrops, 0, "lossless: no drop");
        NS_TEST_ASSERT_MSG_GT(k.pfcPausesSent, 0, "PFC was exercised");
        if (m_classes)
        {
            NS_TEST_ASSERT_MSG_EQ(c.done, n * (n - 1), "every message completes");
            NS_TEST_ASSERT_MSG_GT(reclassified, 0, "wrap cables moved frames to class 1");
        }
        else
        {
            NS_TEST_ASSERT_MSG_LT(c.done, n * (n - 1), "the ring deadlocks");
            NS_TEST_ASSERT_MSG_EQ(reclassified, 0, "one class");
        }
        Simulator::Destroy();
    }

    static constexpr uint64_t kBufferBytes = 500000;
    bool m_classes;
};

/**
 * Adversarial DragonFly pattern: host i of group G sends to host i of group G+1
 * (p=2, a=4, h=2, g=9: 72 hosts, one global cable per group pair). Minimal routing
 * squeezes the a*p = 8 hosts of a group through one global cable: per-host
 * throughput ~ 1/8 of the host link. Valiant spreads over all global cables
 * (two global hops per packet); UGAL picks per packet.
 */
class DragonflyAdversarialTestCase : public TestCase
{
  public:
    DragonflyAdversarialTestCase()
        : TestCase("dragonfly group-shift pattern: valiant and ugal beat minimal")
    {
    }

  private:
    double RunMode(const std::string& mode)
    {
        Ptr<TopologyGraph> g = Dragonfly(2, 4, 2, 9);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable(mode, g);
        RoceFabricHelper helper;
        helper.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        helper.SetMmuAttribute("LosslessPriorities",
                               UintegerValue(((1U << routes->GetNumClasses()) - 1) << 3));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Completions c;
        fabric->AddMessageCallback(MakeCallback(&Completions::OnMessage, &c));
        const uint32_t n = fabric->GetNHosts();
        const uint32_t perGroup = 2 * 4;
        for (uint32_t s = 0; s < n; ++s)
        {
            fabric->PostWrite(s, (s + perGroup) % n, kBytes, s, 0);
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        uint64_t nonMin = 0;
        for (const auto& sw : fabric->GetSwitches())
        {
            nonMin += sw->GetNonMinimalRouted();
        }
        RdmaFabric::Counters k = fabric->GetCounters();
        // Per-host throughput as a fraction of the 100 Gb/s host link.
        double perHost = static_cast<double>(kBytes) * 8 / c.last.GetSeconds() / 100e9;
        std::cout << GetName() << " [" << mode << "]: " << c.done << "/" << n << " done in "
                  << c.last.GetMicroSeconds() << " us, per-host " << perHost
                  << " of line rate, non-minimal packets " << nonMin << ", drops "
                  << k.losslessDrops << ", retransmitted " << k.retransmittedPackets << std::endl;
        NS_TEST_EXPECT_MSG_EQ(c.done, n, mode << ": every message completes");
        NS_TEST_EXPECT_MSG_EQ(k.losslessDrops + k.lossyDrops, 0, mode << ": lossless");
        if (mode == "minimal")
        {
            NS_TEST_EXPECT_MSG_EQ(nonMin, 0, "minimal stays minimal");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(nonMin, 0, mode << " used non-minimal paths");
        }
        Simulator::Destroy();
        return perHost;
    }

    void DoRun() override
    {
        UsePicoseconds();
        // Valiant reorders packets across paths: selective repeat places them.
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("SelectiveRepeat"));
        double minimal = RunMode("minimal");
        double valiant = RunMode("valiant");
        double ugal = RunMode("ugal");
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("GoBackN"));
        // One global cable for 8 hosts: 1/8 of the host link in payload, less the
        // framing (1000 of 1082 wire bytes per packet): 0.1155; measured 0.108 (start-up).
        // Start-up and the last packets' tail weigh on these 60-150 us runs; the steady
        // state against the bounds is DragonflySteadyStateTestCase's.
        NS_TEST_ASSERT_MSG_EQ_TOL(minimal, 0.125 * 1000 / 1082, 0.015, "minimal ~ link / (a p)");
        // Measured 0.28 (valiant) and 0.26 (ugal): more than twice minimal.
        NS_TEST_ASSERT_MSG_GT(valiant, 2.0 * minimal, "valiant much better");
        NS_TEST_ASSERT_MSG_GT(ugal, 2.0 * minimal, "ugal much better");
    }

    static constexpr uint64_t kBytes = 200000;
};

/**
 * The same adversarial DragonFly pattern in steady state: every host sends a message
 * longer than the run (kBytes), and the payload the hosts receive is counted over a
 * window after the start-up (kFrom to kTo), so neither the first round trips nor the
 * last packets' tail weigh on the figure. Bounds, per host and in payload (x 1000 of
 * 1082 wire bytes per packet), with one global cable per group pair (a h = g - 1):
 * minimal 1/(a p) = 1/8 (the one cable to the next group); Valiant, whose intermediate
 * group is neither the source's nor the destination's, leaves the g - 1 direct
 * next-group cables idle and loads each of the others with two hops of 8 L / (g - 2):
 * (g - 2) / (2 a p) = 7/16; UGAL may add the direct cable's 1/8 to that: 9/16.
 */
class DragonflySteadyStateTestCase : public TestCase
{
  public:
    DragonflySteadyStateTestCase()
        : TestCase("dragonfly group-shift pattern in steady state: minimal, valiant and ugal "
                   "against their bounds")
    {
    }

  private:
    /// Payload bytes the hosts receive between kFrom and kTo, each packet once (a
    /// spurious resend, after reordering on non-minimal paths, is not goodput).
    struct WindowCounter
    {
        uint64_t bytes{0};
        std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen; //!< (host, QP, PSN) arrived

        void OnRx(Ptr<const Packet> p)
        {
            RoceFrameView v;
            if (!RoceFrame::Peek(p, v) || !v.isRoce || !RdmaOpcode::IsData(v.bthOpcode) ||
                !seen.emplace(v.dstIp, v.destQp, v.psn).second)
            {
                return; // PFC frames, ACKs and duplicates
            }
            const Time now = Simulator::Now();
            if (now >= kFrom && now < kTo)
            {
                bytes += kPayload; // kBytes is a multiple of the MTU: every packet is full
            }
        }
    };

    double RunMode(const std::string& mode)
    {
        Ptr<TopologyGraph> g = Dragonfly(2, 4, 2, 9);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable(mode, g);
        RoceFabricHelper helper;
        helper.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        helper.SetMmuAttribute("LosslessPriorities",
                               UintegerValue(((1U << routes->GetNumClasses()) - 1) << 3));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint32_t n = fabric->GetNHosts();
        WindowCounter rx;
        for (uint32_t h = 0; h < n; ++h)
        {
            fabric->GetNic(h)->GetDevice()->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&WindowCounter::OnRx, &rx));
        }
        const uint32_t perGroup = 2 * 4;
        for (uint32_t s = 0; s < n; ++s)
        {
            fabric->PostWrite(s, (s + perGroup) % n, kBytes, s, 0);
        }

        // The global cables' frame bytes in the window, the cables to the next group (the
        // pattern's minimal ones) apart: where the throughput goes.
        struct Cable
        {
            Ptr<RoceNetDevice> dev;
            bool direct;
            uint64_t atFrom;
        };

        std::vector<Cable> cables;
        for (uint32_t i = 0; i < fabric->GetSwitches().size(); ++i)
        {
            const uint32_t node = fabric->GetSwitchNode(i);
            const auto& ports = g->GetPorts(node);
            for (uint32_t p = 0; p < ports.size(); ++p)
            {
                const uint32_t peer = ports[p].peer;
                if (!g->IsHost(peer) && g->GetGroup(peer) != g->GetGroup(node))
                {
                    cables.push_back({fabric->GetSwitches()[i]->GetPort(p),
                                      g->GetGroup(peer) == (g->GetGroup(node) + 1) % 9,
                                      0});
                }
            }
        }
        ScheduleLambda(kFrom, [&cables]() {
            for (auto& c : cables)
            {
                c.atFrom = c.dev->GetTxBytes();
            }
        });
        Simulator::Stop(kTo);
        Simulator::Run();
        double direct = 0;
        double others = 0;
        uint32_t nDirect = 0;
        for (const auto& c : cables)
        {
            // GetTxBytes counts frames without preamble, FCS and gap; a full data frame is
            // 1058 of its 1082 wire bytes, so a busy cable shows 0.978.
            const double u =
                (c.dev->GetTxBytes() - c.atFrom) * 8.0 / (kTo - kFrom).GetSeconds() / 100e9;
            (c.direct ? direct : others) += u;
            nDirect += c.direct;
        }
        RdmaFabric::Counters k = fabric->GetCounters();
        const double perHost =
            static_cast<double>(rx.bytes) * 8 / (kTo - kFrom).GetSeconds() / n / 100e9;
        std::cout << GetName() << " [" << mode << "]: per-host " << perHost << " of line rate from "
                  << kFrom.GetMicroSeconds() << " to " << kTo.GetMicroSeconds()
                  << " us; global cables (frame bytes of 100 Gb/s): to the next group "
                  << direct / nDirect << ", the others " << others / (cables.size() - nDirect)
                  << "; PFC pauses " << k.pfcPausesSent << ", resent packets "
                  << k.retransmittedPackets << " (" << k.spuriousRetransmissions
                  << " arrived twice), drops " << k.losslessDrops + k.lossyDrops << std::endl;
        NS_TEST_EXPECT_MSG_EQ(k.losslessDrops + k.lossyDrops, 0, mode << ": lossless");
        Simulator::Destroy();
        return perHost;
    }

    void DoRun() override
    {
        UsePicoseconds();
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("SelectiveRepeat"));
        const double minimal = RunMode("minimal");
        const double valiant = RunMode("valiant");
        const double ugal = RunMode("ugal");
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("GoBackN"));
        const double framing = 1000.0 / 1082;
        ReportValidation("dragonfly-minimal-share", minimal);
        ReportValidation("dragonfly-minimal-share.expected", framing / 8);
        ReportValidation("dragonfly-valiant-share", valiant);
        ReportValidation("dragonfly-valiant-share.expected", framing * 7 / 16);
        ReportValidation("dragonfly-ugal-share", ugal);
        ReportValidation("dragonfly-ugal-share.expected", framing * 9 / 16);
        NS_TEST_EXPECT_MSG_EQ_TOL(minimal, framing / 8, 0.01 * framing / 8, "minimal: 1/(a p)");
        NS_TEST_EXPECT_MSG_EQ_TOL(valiant, framing * 7 / 16, 0.1, "valiant: (g-2)/(2 a p)");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(valiant, framing * 7 / 16 * 1.01, "valiant within its bound");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(ugal, framing * 9 / 16 * 1.01, "ugal within its bound");
        NS_TEST_EXPECT_MSG_GT(ugal, 2.0 * minimal, "ugal much better than minimal");
    }

    static constexpr uint32_t kPayload = 1000;   //!< the default MTU's payload
    static constexpr uint64_t kBytes = 10000000; //!< per host: more than the run sends
    static const Time kFrom;                     //!< window start (after start-up)
    static const Time kTo;                       //!< window end = end of the run
};

const Time DragonflySteadyStateTestCase::kFrom = MicroSeconds(100);
const Time DragonflySteadyStateTestCase::kTo = MicroSeconds(400);

/**
 * \brief Valiant and UGAL are the DragonFly engine's modes: a switch told to use one
 * on a graph that engine does not fit (a fat-tree) refuses at set-up, naming the mode
 * and what is allowed, and on a DragonFly it accepts.
 */
class NonMinimalModeNeedsDragonflyTestCase : public TestCase
{
  public:
    NonMinimalModeNeedsDragonflyTestCase()
        : TestCase("RoceSwitch RoutingMode valiant or ugal: refused on a fat-tree, taken on a "
                   "dragonfly")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        for (const std::string mode : {"valiant", "ugal"})
        {
            Config::SetDefault("ns3::RoceSwitch::RoutingMode", StringValue(mode));
            std::string error;
            try
            {
                Ptr<TopologyGraph> g = FatTree(4);
                RoceFabricHelper().Install(g, RoutingEngine::BuildTable("ecmp", g));
            }
            catch (const std::invalid_argument& e)
            {
                error = e.what();
            }
            Simulator::Destroy();
            NS_TEST_EXPECT_MSG_NE(error.find("RoutingMode " + mode),
                                  std::string::npos,
                                  "fat-tree refused, naming the mode: '" << error << "'");
            NS_TEST_EXPECT_MSG_NE(error.find("allowed there: minimal"),
                                  std::string::npos,
                                  "and what is allowed: '" << error << "'");
            Ptr<TopologyGraph> d = Dragonfly(1, 4, 2, 9);
            Ptr<RoceFabric> fabric =
                RoceFabricHelper().Install(d, RoutingEngine::BuildTable("minimal", d));
            NS_TEST_EXPECT_MSG_EQ(fabric->GetSwitches().front()->GetRoutingMode(),
                                  (mode == "valiant" ? RoceSwitch::VALIANT : RoceSwitch::UGAL),
                                  "dragonfly takes " << mode);
            Simulator::Destroy();
        }
        Config::SetDefault("ns3::RoceSwitch::RoutingMode", StringValue("auto"));
        // auto: the route table's path mode (its engine's), read once per switch
        const std::vector<std::pair<std::string, RoceSwitch::RoutingMode>> engines{
            {"minimal", RoceSwitch::MINIMAL},
            {"valiant", RoceSwitch::VALIANT},
            {"ugal", RoceSwitch::UGAL}};
        for (const auto& [engine, expected] : engines)
        {
            Ptr<TopologyGraph> d = Dragonfly(1, 4, 2, 9);
            Ptr<RoceFabric> fabric =
                RoceFabricHelper().Install(d, RoutingEngine::BuildTable(engine, d));
            NS_TEST_EXPECT_MSG_EQ(fabric->GetSwitches().front()->GetRoutingMode(),
                                  expected,
                                  "auto under " << engine);
            Simulator::Destroy();
        }
    }
};

/// The suite.
class TopologyFabricTestSuite : public TestSuite
{
  public:
    TopologyFabricTestSuite()
        : TestSuite("ai-fabric-topology-fabric", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new HopCountTestCase(
                        "k=4 fat-tree",
                        [] { return FatTree(4); },
                        true),
                    AI_FABRIC_QUICK);
        AddTestCase(new HopCountTestCase(
                        "4x4 torus",
                        [] { return Torus("4x4", true); },
                        true),
                    AI_FABRIC_QUICK);
        AddTestCase(new HopCountTestCase(
                        "4x4 mesh",
                        [] { return Torus("4x4", false); },
                        true),
                    AI_FABRIC_QUICK);
        AddTestCase(new HopCountTestCase(
                        "p=1 a=4 h=2 g=9 dragonfly",
                        [] { return Dragonfly(1, 4, 2, 9); },
                        false),
                    AI_FABRIC_QUICK);
        AddTestCase(new TorusDeadlockTestCase(true), AI_FABRIC_QUICK);
        AddTestCase(new TorusDeadlockTestCase(false), AI_FABRIC_QUICK);
        AddTestCase(new DragonflyAdversarialTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new DragonflySteadyStateTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new NonMinimalModeNeedsDragonflyTestCase(), AI_FABRIC_QUICK);
    }
};

static TopologyFabricTestSuite g_topologyFabricTestSuite;
