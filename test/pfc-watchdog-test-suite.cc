/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PFC storms and the watchdog (PfcWatchdog, as SONiC's pfcwd). Two leaves joined by
 * one 100 Gb/s cable: hosts 0 and 1 on leaf A write to host 3 on leaf B, and victim
 * host 2 on leaf A writes to host 4 on leaf B, whose port never backs up. At 20 us
 * host 3's receive pipeline stalls (RoceNic::SetReceiveStalled): it pauses its leaf
 * port without end. Without a watchdog the pause spreads: leaf B's buffer for the
 * cable fills with frames for host 3, leaf B pauses the cable, and the victim,
 * which never sends to host 3, stops too. With the watchdog the storm is found
 * DetectionTime after it began, and the victim finishes within twice its time
 * without the storm; on a fabric without a storm the watchdog changes nothing.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/lambda-callback.h"
#include "ns3/nstime.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <optional>

using namespace ns3;

namespace
{

constexpr uint32_t STORM_HOST = 3;
constexpr uint32_t VICTIM = 2;
constexpr uint32_t VICTIM_DST = 4;
constexpr uint64_t VICTIM_BYTES = 5000000;
constexpr uint64_t CULPRIT_BYTES = 20000000;

/// How a run is set up.
struct Setup
{
    bool storm{false};              //!< host 3 stalls at 20 us
    Time stormEnd{0};               //!< when it recovers; 0 = never
    std::string watchdog;           //!< "" (none), "Drop" or "Forward"
    Time detect{MicroSeconds(200)}; //!< polled every 20 us (a tenth)
    bool localCulprit{false};       //!< host 4 writes to host 3 too (congests leaf B)
};

/// What a run saw.
struct Outcome
{
    std::optional<Time> victimFct; //!< unset: the victim did not finish
    uint32_t delivered{0};         //!< messages delivered (of 3)
    std::vector<PfcWatchdog::Event> events;
    RdmaFabric::Counters counters;
    uint64_t victimPausesReceived{0}; //!< pause frames the victim's NIC port got
    uint32_t stormLeafNode{0};        //!< graph node of leaf B
};

Outcome
RunFabric(const Setup& s)
{
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t leafA = g->AddSwitch();
    const uint32_t leafB = g->AddSwitch();
    const DataRate rate("100Gbps");
    const Time delay = MicroSeconds(1);
    g->AddLink(leafA, leafB, rate, delay);
    for (uint32_t i = 0; i < 5; ++i)
    {
        const uint32_t h = g->AddHost();
        g->AddLink(h, i < 3 ? leafA : leafB, rate, delay);
    }
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    RoceFabricHelper helper;
    // 4 MiB: leaf B pauses the cable about 60 us into the storm, before detection.
    helper.SetMmuAttribute("BufferSize", UintegerValue(4 * 1024 * 1024));
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
    Outcome o;
    o.stormLeafNode = leafB;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&o](const RdmaFabric::MessageRecord& m) {
            o.delivered++;
            if (m.src == VICTIM)
            {
                o.victimFct = m.end - m.start;
            }
        }));
    fabric->PostWrite(0, STORM_HOST, CULPRIT_BYTES, 0, 0);
    fabric->PostWrite(1, STORM_HOST, CULPRIT_BYTES, 1, 0);
    fabric->PostWrite(VICTIM, VICTIM_DST, VICTIM_BYTES, 2, 0);
    if (s.localCulprit)
    {
        fabric->PostWrite(VICTIM_DST, STORM_HOST, CULPRIT_BYTES, 3, 0);
    }
    if (s.storm)
    {
        // Every lossless priority, as a stalled NIC pauses them all.
        uint8_t lossless = 0;
        for (uint8_t p = 0; p < 8; ++p)
        {
            if (fabric->GetSwitches()[0]->GetMmu()->IsLossless(p))
            {
                lossless |= static_cast<uint8_t>(1U << p);
            }
        }
        Ptr<RoceNic> nic = fabric->GetNic(STORM_HOST);
        Simulator::Schedule(MicroSeconds(20), &RoceNic::SetReceiveStalled, nic, lossless);
        if (s.stormEnd > Time(0))
        {
            Simulator::Schedule(s.stormEnd, &RoceNic::SetReceiveStalled, nic, uint8_t{0});
        }
    }
    Ptr<PfcWatchdog> wd;
    if (!s.watchdog.empty())
    {
        wd = CreateObject<PfcWatchdog>();
        wd->SetAttribute("DetectionTime", TimeValue(s.detect));
        wd->SetAttribute("Action", StringValue(s.watchdog));
        wd->Install(fabric);
    }
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    if (wd)
    {
        o.events = wd->GetEvents();
        wd->Dispose();
    }
    o.counters = fabric->GetCounters();
    o.victimPausesReceived = fabric->GetNic(VICTIM)->GetDevice()->GetPfcPausesReceived();
    Simulator::Destroy();
    return o;
}

class PfcWatchdogTestCase : public TestCase
{
  public:
    PfcWatchdogTestCase()
        : TestCase("PFC storm: the watchdog frees the victim within 2x its time; off, "
                   "the pause spreads and the victim stops")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        const Outcome calm = RunFabric(Setup{});
        NS_TEST_ASSERT_MSG_EQ(calm.victimFct.has_value(), true, "the victim finishes");
        const Time t0 = *calm.victimFct;
        std::cout << "victim without storm " << t0.As(Time::US) << std::endl;

        // Off: today's behaviour. The pause spreads to the victim's own NIC through
        // the cable's pause, and the victim never finishes.
        Setup s;
        s.storm = true;
        const Outcome off = RunFabric(s);
        NS_TEST_ASSERT_MSG_EQ(off.victimFct.has_value(), false, "off: the victim is stuck");
        NS_TEST_ASSERT_MSG_GT(off.victimPausesReceived, 0, "off: the pause reached host 2");
        NS_TEST_ASSERT_MSG_EQ(off.counters.pfcWatchdogDrops, 0, "no watchdog, no its drops");
        NS_TEST_ASSERT_MSG_EQ(off.counters.losslessDrops, 0, "lossless");

        for (const char* action : {"Drop", "Forward"})
        {
            s.watchdog = action;
            const Outcome on = RunFabric(s);
            NS_TEST_ASSERT_MSG_EQ(on.victimFct.has_value(), true, action << ": victim finishes");
            if (!on.victimFct)
            {
                continue;
            }
            std::cout << action << ": victim paused " << on.victimPausesReceived << " "
                      << on.victimFct->As(Time::US) << ", " << on.counters.pfcWatchdogDrops
                      << " watchdog drops, " << on.counters.stalledReceiveDrops
                      << " stalled-receive drops" << std::endl;
            NS_TEST_ASSERT_MSG_LT_OR_EQ(*on.victimFct, 2 * t0, action << ": within 2x");
            NS_TEST_ASSERT_MSG_GT(*on.victimFct, t0, action << ": the storm did hold it up");
            // One storm, on leaf B's port to host 3 (port 1: the cable is port 0),
            // found DetectionTime after the pause arrived (21 us) within one poll (20 us).
            NS_TEST_ASSERT_MSG_EQ(on.events.size(), 1, action << ": one storm, never restored");
            NS_TEST_ASSERT_MSG_EQ(on.events.at(0).storm, true, "a detection");
            NS_TEST_ASSERT_MSG_EQ(on.events[0].node, on.stormLeafNode, "leaf B");
            NS_TEST_ASSERT_MSG_EQ(on.events[0].port, 1, "the port to host 3");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(on.events[0].time, MicroSeconds(221), "after detect");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(on.events[0].time, MicroSeconds(241), "one poll late");
            NS_TEST_ASSERT_MSG_EQ(on.counters.losslessDrops, 0, "no lossless drop");
            if (std::string(action) == "Drop")
            {
                NS_TEST_ASSERT_MSG_GT(on.counters.pfcWatchdogDrops, 0, "drop discards");
            }
            else
            {
                // Forward: the frames reach the stalled NIC, which discards them.
                NS_TEST_ASSERT_MSG_EQ(on.counters.pfcWatchdogDrops, 0, "forward drops none");
                NS_TEST_ASSERT_MSG_GT(on.counters.stalledReceiveDrops, 0, "NIC discards");
            }
        }
    }
};

class PfcWatchdogRestoreTestCase : public TestCase
{
  public:
    PfcWatchdogRestoreTestCase()
        : TestCase("PFC storm that ends: the queue is restored RestorationTime after the "
                   "last pause ran out and every message completes")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Setup s;
        s.storm = true;
        s.stormEnd = MilliSeconds(1);
        s.watchdog = "Drop";
        const Outcome o = RunFabric(s);
        NS_TEST_ASSERT_MSG_EQ(o.delivered, 3, "the culprits' messages too, retransmitted");
        NS_TEST_ASSERT_MSG_GT(o.counters.retransmittedPackets, 0, "dropped frames were resent");
        NS_TEST_ASSERT_MSG_EQ(o.events.size(), 2, "a storm, then its restoration");
        if (o.events.size() == 2)
        {
            // The stalled NIC refreshes its pause (335 us at 65535 quanta) before it
            // runs out, so the storm lasts until the resume reaches the switch at
            // 1.001 ms; restored twice DetectionTime (SONiC's default) later, within
            // one poll (20 us).
            NS_TEST_ASSERT_MSG_EQ(o.events[1].storm, false, "restored");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(o.events[1].time, MicroSeconds(1401), "2 x detect");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(o.events[1].time, MicroSeconds(1421), "one poll");
        }
        NS_TEST_ASSERT_MSG_EQ(o.counters.losslessDrops, 0, "no lossless drop");
    }
};

class PfcWatchdogQuietTestCase : public TestCase
{
  public:
    PfcWatchdogQuietTestCase()
        : TestCase("PFC watchdog on a fabric without a storm: no detection, same run")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Setup s;
        s.localCulprit = true; // leaf B's port to host 3 backs up: congestion pauses
        const Outcome without = RunFabric(s);
        s.watchdog = "Drop";
        s.detect = MicroSeconds(20); // they come and go faster than this
        const Outcome with = RunFabric(s);
        NS_TEST_ASSERT_MSG_EQ(with.events.size(), 0, "no storm detected");
        NS_TEST_ASSERT_MSG_EQ(with.victimFct.has_value(), true, "victim finishes");
        NS_TEST_ASSERT_MSG_EQ(with.victimFct.value_or(Time(0)),
                              without.victimFct.value_or(Time(-1)),
                              "same victim FCT");
        NS_TEST_ASSERT_MSG_EQ(with.delivered, 4, "all delivered");
        NS_TEST_ASSERT_MSG_GT(with.counters.pfcPausesSent, 0, "the incast does pause");
    }
};

class PfcWatchdogTestSuite : public TestSuite
{
  public:
    PfcWatchdogTestSuite()
        : TestSuite("ai-fabric-pfc-watchdog", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new PfcWatchdogTestCase, AI_FABRIC_QUICK);
        AddTestCase(new PfcWatchdogRestoreTestCase, AI_FABRIC_QUICK);
        AddTestCase(new PfcWatchdogQuietTestCase, AI_FABRIC_QUICK);
    }
};

PfcWatchdogTestSuite g_pfcWatchdogTestSuite;

} // namespace
