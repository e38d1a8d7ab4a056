/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RoCEv2 cable failures (RoceFabric::FailLink): the blackhole until the end switches
// notice, the shrunk ECMP group after, the routes converged without the cable, the RC
// transport's recovery and the cable's return.

#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/lambda-callback.h"
#include "ns3/nstime.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Graph link 16 of the k=4 fat-tree: edge switch 0 (hosts 0, 1) to aggregation 0.
constexpr uint32_t FAILED_LINK = 16;
const Time DOWN = MicroSeconds(20);
const Time DETECT = MicroSeconds(50);
const Time CONVERGE = MicroSeconds(50);
const Time UP = MicroSeconds(300);

/// What one run saw.
struct Outcome
{
    uint32_t posted{0};
    uint32_t finished{0};
    std::vector<Time> edgeDrops;           //!< link_down drops at the edge switch's end
    std::vector<Time> remoteDrops;         //!< link_down drops at the aggregation's end
    uint64_t deadPortBytesWhileDown{0};    //!< edge port into the cable, down .. restored
    uint64_t otherUplinkBytesWhileDown{0}; //!< the surviving uplink, same interval
    uint64_t deadPortBytesAfterRestore{0}; //!< the cable's edge port after its return
    RdmaFabric::Counters counters;
    std::vector<RdmaFabric::LinkFailureRecord> records;
    std::vector<std::pair<uint32_t, bool>> stateChanges;
    std::vector<std::pair<uint32_t, bool>> convergences;
};

Outcome
RunFailure(bool comesBack)
{
    UsePicoseconds();
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> g = ft->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    RoceFabricHelper helper;
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
    fabric->SetAttribute("FailureDetectionTime", TimeValue(DETECT));
    fabric->SetAttribute("RouteConvergenceTime", TimeValue(CONVERGE));
    const TopologyGraph::Link l = g->GetLink(FAILED_LINK);
    const uint32_t edge = l.a; // AddLink(edge, aggregation)
    const uint32_t edgePort = l.portA;
    const uint32_t aggNode = l.b;
    Outcome o;
    // The edge switch's other uplink (its last port: hosts first, then aggregations).
    uint32_t otherPort = 0;
    for (uint32_t p = 0; p < g->GetPorts(edge).size(); ++p)
    {
        if (!g->IsHost(g->GetPorts(edge)[p].peer) && p != edgePort)
        {
            otherPort = p;
        }
    }
    uint32_t edgeIndex = 0;
    while (fabric->GetSwitchNode(edgeIndex) != edge)
    {
        edgeIndex++;
    }
    Ptr<RoceNetDevice> dead = fabric->GetSwitches()[edgeIndex]->GetPort(edgePort);
    Ptr<RoceNetDevice> other = fabric->GetSwitches()[edgeIndex]->GetPort(otherPort);
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&o](const RdmaFabric::MessageRecord&) { o.finished++; }));
    for (const auto& sw : fabric->GetSwitches())
    {
        sw->TraceConnectWithoutContext(
            "Drop",
            MakeLambdaCallback<void, uint32_t, uint32_t, const std::string&>(
                [&o, edge, aggNode](uint32_t node, uint32_t, const std::string& reason) {
                    if (reason == "link_down")
                    {
                        (node == edge ? o.edgeDrops : o.remoteDrops).push_back(Simulator::Now());
                        NS_ASSERT(node == edge || node == aggNode);
                    }
                }));
    }
    fabric->TraceConnectWithoutContext(
        "LinkStateChange",
        MakeLambdaCallback<void, uint32_t, bool>(
            [&o](uint32_t link, bool up) { o.stateChanges.emplace_back(link, up); }));
    fabric->TraceConnectWithoutContext(
        "RoutesConverged",
        MakeLambdaCallback<void, uint32_t, bool>(
            [&o](uint32_t link, bool up) { o.convergences.emplace_back(link, up); }));
    // Hosts 0 and 1 (below edge 0) write to the eight hosts of pods 2 and 3: sixteen
    // connections that ECMP spreads over both uplinks of edge 0.
    auto post = [&o, fabric](uint64_t tag) {
        for (uint32_t src = 0; src < 2; ++src)
        {
            for (uint32_t dst = 8; dst < 16; ++dst)
            {
                fabric->PostWrite(src, dst, 200000, tag++, 0);
                o.posted++;
            }
        }
    };
    post(0);
    fabric->FailLink(FAILED_LINK, DOWN, comesBack ? UP : Time(-1));
    uint64_t deadAtDown = 0;
    uint64_t otherAtDown = 0;
    ScheduleLambda(DOWN, [&]() {
        deadAtDown = dead->GetTxBytes();
        otherAtDown = other->GetTxBytes();
    });
    const Time restored = comesBack ? UP + DETECT + CONVERGE : MilliSeconds(50);
    uint64_t deadAtRestore = 0;
    ScheduleLambda(restored, [&]() {
        o.deadPortBytesWhileDown = dead->GetTxBytes() - deadAtDown;
        o.otherUplinkBytesWhileDown = other->GetTxBytes() - otherAtDown;
        deadAtRestore = dead->GetTxBytes();
        post(1000); // a second round, on the restored routes
    });
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    o.deadPortBytesAfterRestore = dead->GetTxBytes() - deadAtRestore;
    o.counters = fabric->GetCounters();
    o.records = fabric->GetLinkFailures();
    fabric->Dispose();
    Simulator::Destroy();
    return o;
}

/**
 * A cable of edge switch 0 fails under sixteen connections and comes back: frames
 * for it are lost (link_down) only until the end switches notice, the edge then
 * sends everything on its other uplink, the RC transport completes every message
 * without a lossless drop, and the returned cable carries traffic again.
 */
class RoceLinkFailureTestCase : public TestCase
{
  public:
    RoceLinkFailureTestCase()
        : TestCase("RoCEv2 cable failure: blackhole, shrunk ECMP group, recovery, return")
    {
    }

  private:
    void DoRun() override
    {
        const Outcome o = RunFailure(true);
        NS_TEST_ASSERT_MSG_EQ(o.finished, o.posted, "every message completes");
        NS_TEST_ASSERT_MSG_EQ(o.counters.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_GT(o.counters.linkDownDrops, 0, "frames were lost on the cable");
        NS_TEST_ASSERT_MSG_GT(o.counters.retransmittedPackets, 0, "and resent");
        NS_TEST_ASSERT_MSG_EQ(o.counters.linkDownDrops,
                              o.edgeDrops.size() + o.remoteDrops.size(),
                              "every link_down drop is at the cable's ends");
        NS_TEST_ASSERT_MSG_GT(o.edgeDrops.size(), 0, "the edge blackholes before it notices");
        for (Time t : o.edgeDrops)
        {
            // The edge has another uplink: once it knows, it loses nothing more.
            NS_TEST_ASSERT_MSG_EQ((t >= DOWN && t < DOWN + DETECT), true, "edge drop in time");
        }
        for (Time t : o.remoteDrops)
        {
            // The aggregation has no other way down to edge 0 until every switch has
            // the converged routes (the cores keep sending it edge 0's traffic).
            NS_TEST_ASSERT_MSG_EQ((t >= DOWN && t < DOWN + DETECT + CONVERGE),
                                  true,
                                  "aggregation drop before convergence");
        }
        NS_TEST_ASSERT_MSG_LT(o.deadPortBytesWhileDown, 1000, "nothing goes into the cable");
        NS_TEST_ASSERT_MSG_GT(o.otherUplinkBytesWhileDown,
                              1000000,
                              "the surviving uplink carries the traffic");
        NS_TEST_ASSERT_MSG_GT(o.deadPortBytesAfterRestore,
                              100000,
                              "the returned cable is used again");
        NS_TEST_ASSERT_MSG_EQ(o.records.size(), 1, "one failure recorded");
        const RdmaFabric::LinkFailureRecord& r = o.records[0];
        NS_TEST_ASSERT_MSG_EQ(r.link, FAILED_LINK, "its link");
        NS_TEST_ASSERT_MSG_EQ(r.down, DOWN, "down");
        NS_TEST_ASSERT_MSG_EQ(r.up, UP, "up");
        NS_TEST_ASSERT_MSG_EQ(r.detected, DOWN + DETECT, "detected after the BFD time");
        NS_TEST_ASSERT_MSG_EQ(r.converged, DOWN + DETECT + CONVERGE, "converged");
        NS_TEST_ASSERT_MSG_EQ(r.restoreConverged, UP + DETECT + CONVERGE, "restored");
        NS_TEST_ASSERT_MSG_EQ(o.stateChanges.size(), 2, "LinkStateChange down and up");
        NS_TEST_ASSERT_MSG_EQ(o.stateChanges[0].second, false, "down first");
        NS_TEST_ASSERT_MSG_EQ(o.convergences.size(), 2, "RoutesConverged twice");
    }
};

/// A cable that stays down: the same recovery, and the cable is never used again.
class RoceLinkStaysDownTestCase : public TestCase
{
  public:
    RoceLinkStaysDownTestCase()
        : TestCase("RoCEv2 cable failure without return: converged routes avoid it")
    {
    }

  private:
    void DoRun() override
    {
        const Outcome o = RunFailure(false);
        NS_TEST_ASSERT_MSG_EQ(o.finished, o.posted, "every message completes");
        NS_TEST_ASSERT_MSG_EQ(o.counters.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_GT(o.counters.linkDownDrops, 0, "frames were lost");
        NS_TEST_ASSERT_MSG_LT(o.deadPortBytesAfterRestore, 1000, "the cable stays unused");
        NS_TEST_ASSERT_MSG_EQ(o.records.at(0).up, Time(-1), "no return");
        NS_TEST_ASSERT_MSG_EQ(o.records.at(0).restoreConverged, Time(-1), "no restore");
    }
};

/// FailLink's checks: a missing link, a host cable, a second failure, UP <= DOWN.
class RoceFailLinkErrorsTestCase : public TestCase
{
  public:
    RoceFailLinkErrorsTestCase()
        : TestCase("RoCEv2 FailLink refuses what cannot fail")
    {
    }

  private:
    static std::string Error(Ptr<RoceFabric> f, uint32_t link, Time down, Time up)
    {
        try
        {
            f->FailLink(link, down, up);
        }
        catch (const std::invalid_argument& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        UsePicoseconds();
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        Ptr<TopologyGraph> g = ft->Build();
        Ptr<RoceFabric> f = RoceFabricHelper().Install(g, RoutingEngine::BuildTable("ecmp", g));
        NS_TEST_ASSERT_MSG_EQ(Error(f, 48, MicroSeconds(1), Time(-1)),
                              "link 48 does not exist (links 0..47)",
                              "missing link");
        NS_TEST_ASSERT_MSG_EQ(Error(f, 3, MicroSeconds(1), Time(-1)).find("is a host cable"),
                              7,
                              "host cable");
        NS_TEST_ASSERT_MSG_EQ(Error(f, 40, MicroSeconds(5), MicroSeconds(5)).find("comes back"),
                              8,
                              "up not after down");
        NS_TEST_ASSERT_MSG_EQ(Error(f, 40, MicroSeconds(5), Time(-1)), "", "a core cable fails");
        NS_TEST_ASSERT_MSG_EQ(Error(f, 40, MicroSeconds(9), Time(-1)),
                              "link 40 already fails (each link may fail once)",
                              "twice");
        f->Dispose();
        Simulator::Destroy();
    }
};

class RoceLinkFailureTestSuite : public TestSuite
{
  public:
    RoceLinkFailureTestSuite()
        : TestSuite("ai-fabric-rocev2-link-failure", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new RoceLinkFailureTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceLinkStaysDownTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RoceFailLinkErrorsTestCase, AI_FABRIC_QUICK);
    }
};

RoceLinkFailureTestSuite g_roceLinkFailureTestSuite;

} // namespace
