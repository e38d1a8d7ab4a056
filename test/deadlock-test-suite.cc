/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Deadlock detection: WaitForGraph finds the cycle of a wait-for graph and none in
 * a chain; DeadlockDetector stops a lossless RoCEv2 ring of 8 whose class rule is
 * off (one class: its clockwise buffer cycle fills) within 1 ms of simulated time of
 * the stall and names the cycle of paused queues, while the same ring with the
 * dateline classes finishes; an InfiniBand ring routed by ecmp (one VL) reports its
 * cycle of credit-starved outputs, and under dor (two VLs) finishes.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/deadlock-detector.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"
#include "ns3/wait-for-graph.h"

#include <iostream>

using namespace ns3;

namespace
{

Ptr<TopologyGraph>
Ring(uint32_t n)
{
    Ptr<TorusTopologyHelper> h = CreateObject<TorusTopologyHelper>();
    h->SetAttribute("Dims", StringValue(std::to_string(n)));
    h->SetAttribute("HostsPerRouter", UintegerValue(1));
    return h->Build();
}

/// Every host writes \p bytes to every other host.
uint32_t
PostAllToAll(Ptr<RdmaFabric> fabric, uint64_t bytes)
{
    const uint32_t n = fabric->GetNHosts();
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (d != s)
            {
                fabric->PostWrite(s, d, bytes, d, 0);
            }
        }
    }
    return n * (n - 1);
}

/// What a run with the detector saw.
struct Outcome
{
    bool found{false};
    std::vector<WaitForGraph::Vertex> cycle;
    Time detected;
    Time stalledSince;
    Time stoppedAt;
    uint64_t pending{0};
    uint64_t drops{0};
    std::string text;
};

Outcome
RunWithDetector(Ptr<RdmaFabric> fabric, Time stop)
{
    Ptr<DeadlockDetector> d = CreateObject<DeadlockDetector>();
    d->Install(fabric);
    Simulator::Stop(stop);
    Simulator::Run();
    Outcome o;
    o.found = d->Found();
    o.cycle = d->GetCycle();
    o.detected = d->GetDetectionTime();
    o.stalledSince = d->GetStalledSince();
    o.stoppedAt = Simulator::Now();
    o.pending = fabric->GetPendingMessages();
    RdmaFabric::Counters k = fabric->GetCounters();
    o.drops = k.losslessDrops + k.lossyDrops;
    o.text = d->DescribeCycle();
    d->Dispose();
    Simulator::Destroy();
    return o;
}

class WaitForGraphTestCase : public TestCase
{
  public:
    WaitForGraphTestCase()
        : TestCase("WaitForGraph: the cycle of a graph in wait order, none in a chain")
    {
    }

  private:
    void DoRun() override
    {
        WaitForGraph g;
        for (uint32_t i = 0; i < 5; ++i)
        {
            g.AddVertex({i, 1, 3, 0});
        }
        // 0 -> 1 -> 2 -> 3, 4 -> 3: a chain and a branch, no cycle.
        g.AddEdge(0, 1);
        g.AddEdge(1, 2);
        g.AddEdge(2, 3);
        g.AddEdge(4, 3);
        NS_TEST_ASSERT_MSG_EQ(g.FindCycle().empty(), true, "no cycle");
        // 3 -> 1 closes 1 -> 2 -> 3 -> 1; 0 leads into it but is not on it.
        g.AddEdge(3, 1);
        std::vector<uint32_t> c = g.FindCycle();
        NS_TEST_ASSERT_MSG_EQ(c.size(), 3, "three queues");
        NS_TEST_ASSERT_MSG_EQ(c[0], 1, "first on the cycle");
        NS_TEST_ASSERT_MSG_EQ(c[1], 2, "then 2");
        NS_TEST_ASSERT_MSG_EQ(c[2], 3, "then 3, which waits for 1");
        g.Clear();
        NS_TEST_ASSERT_MSG_EQ(g.GetNVertices(), 0, "cleared");
        NS_TEST_ASSERT_MSG_EQ(g.FindCycle().empty(), true, "empty graph");
    }
};

/// A ring of 8 under the detector: the outcome checks both fabrics share.
class RingDeadlockTestCase : public TestCase
{
  protected:
    explicit RingDeadlockTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * \param o what the run saw
     * \param g its graph
     * \param deadlocks true if the configuration must deadlock
     * \param lane the priority or VL every queue of the cycle must be on
     */
    void Check(const Outcome& o, Ptr<const TopologyGraph> g, bool deadlocks, uint8_t lane)
    {
        std::cout << GetName() << ": found " << o.found << " at " << o.detected.GetMicroSeconds()
                  << " us, stalled since " << o.stalledSince.GetMicroSeconds() << " us, cycle "
                  << o.text << ", pending " << o.pending << std::endl;
        NS_TEST_ASSERT_MSG_EQ(o.drops, 0, "lossless: no drop");
        if (!deadlocks)
        {
            NS_TEST_ASSERT_MSG_EQ(o.found, false, "no deadlock");
            NS_TEST_ASSERT_MSG_EQ(o.pending, 0, "every message completes");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(o.found, true, "deadlock found");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(o.cycle.size(), 2, "a cycle of at least 2 queues");
        NS_TEST_ASSERT_MSG_GT(o.pending, 0, "work left");
        NS_TEST_ASSERT_MSG_EQ(o.stoppedAt, o.detected, "the run stopped at the detection");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(o.detected - o.stalledSince,
                                    MilliSeconds(1),
                                    "found within 1 ms of the stall");
        for (size_t i = 0; i < o.cycle.size(); ++i)
        {
            const WaitForGraph::Vertex& v = o.cycle[i];
            const WaitForGraph::Vertex& next = o.cycle[(i + 1) % o.cycle.size()];
            NS_TEST_ASSERT_MSG_EQ(g->IsHost(v.node), false, "switch queues only");
            NS_TEST_ASSERT_MSG_EQ(+v.lane, +lane, "the one class's priority or VL");
            NS_TEST_ASSERT_MSG_EQ(g->GetPorts(v.node)[v.port].peer,
                                  next.node,
                                  "each queue waits for its partner's queue");
        }
    }
};

/// The lossless RoCEv2 ring of 8 of the topology-fabric suite, with the detector.
class RoceRingDeadlockTestCase : public RingDeadlockTestCase
{
  public:
    explicit RoceRingDeadlockTestCase(bool classes)
        : RingDeadlockTestCase(
              classes ? "RoCEv2 ring with dateline classes: no deadlock reported"
                      : "RoCEv2 ring with one class: deadlock stops the run, cycle named"),
          m_classes(classes)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Ring(8);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("dor", g);
        RoceFabricHelper helper;
        helper.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        helper.SetMmuAttribute("LosslessPriorities", UintegerValue(0x18));
        helper.SetMmuAttribute("BufferSize", UintegerValue(500000));
        helper.SetSwitchAttribute("UseClassRule", BooleanValue(m_classes));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        PostAllToAll(fabric, 64000);
        Outcome o = RunWithDetector(fabric, MilliSeconds(20));
        Check(o, g, !m_classes, 3);
    }

    bool m_classes;
};

/// An InfiniBand ring of 8 with small VL buffers: ecmp (one VL) can close a credit
/// cycle; dor gets the dateline's second VL from the Subnet Manager.
class IbRingDeadlockTestCase : public RingDeadlockTestCase
{
  public:
    explicit IbRingDeadlockTestCase(const std::string& engine)
        : RingDeadlockTestCase(
              "InfiniBand ring under " + engine +
              (engine == "dor" ? ": no deadlock reported" : ": credit cycle found and named")),
          m_engine(engine)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Ring(8);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable(m_engine, g);
        IbFabricHelper helper;
        helper.SetDeviceAttribute("VlBufferBytes", UintegerValue(16 * 1024));
        Ptr<IbFabric> fabric = helper.Install(g, routes);
        PostAllToAll(fabric, 256000);
        Outcome o = RunWithDetector(fabric, MilliSeconds(20));
        Check(o, g, m_engine != "dor", 0);
    }

    std::string m_engine;
};

class DeadlockTestSuite : public TestSuite
{
  public:
    DeadlockTestSuite()
        : TestSuite("ai-fabric-deadlock", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new WaitForGraphTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceRingDeadlockTestCase(false), AI_FABRIC_QUICK);
        AddTestCase(new RoceRingDeadlockTestCase(true), AI_FABRIC_QUICK);
        AddTestCase(new IbRingDeadlockTestCase("ecmp"), AI_FABRIC_QUICK);
        AddTestCase(new IbRingDeadlockTestCase("dor"), AI_FABRIC_QUICK);
    }
};

} // namespace

static DeadlockTestSuite g_deadlockTestSuite;
