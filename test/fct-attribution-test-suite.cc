/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FctAttribution (--attribution=1): each message's FCT split into causes, adding up to
 * the FCT exactly, and each cause where a hand-built case puts it: an idle path is
 * serialization, propagation and forwarding only; a paused port is pause; a paced
 * sender is congestion control; a lost packet is retransmission; credit starvation
 * on InfiniBand is pause.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/attribution-recorder.h"
#include "ns3/boolean.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/double.h"
#include "ns3/fct-attribution.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/lambda-callback.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <functional>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using A = FctAttribution;

/// \p hosts hosts on one switch, 100 Gb/s, 1 us cables.
Ptr<TopologyGraph>
OneSwitch(uint32_t hosts)
{
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (uint32_t i = 0; i < hosts; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    return g;
}

/// Run \p post on a RoCEv2 fabric of \p hosts hosts on one switch with attribution on,
/// \p setup before: the results.
std::vector<A::Result>
RunRoce(uint32_t hosts,
        const std::function<void(RoceFabricHelper&)>& configure,
        const std::function<void(Ptr<RoceFabric>)>& post)
{
    UsePicoseconds();
    Ptr<TopologyGraph> g = OneSwitch(hosts);
    RoceFabricHelper helper;
    configure(helper);
    Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
    Ptr<AttributionRecorder> recorder = CreateObject<AttributionRecorder>();
    recorder->Install(fabric);
    post(fabric);
    Simulator::Run();
    std::vector<A::Result> results = recorder->GetResults();
    recorder->Dispose();
    Simulator::Destroy();
    return results;
}

int64_t
Us(double us)
{
    return MicroSeconds(1).GetTimeStep() * us;
}

/// A test case that checks results.
class AttributionTestCase : public TestCase
{
  public:
    using TestCase::TestCase;

    /// Every result's components add up to its FCT, none is unattributed or negative.
  protected:
    void CheckSums(const std::vector<A::Result>& results, std::size_t expected)
    {
        NS_TEST_EXPECT_MSG_EQ(results.size(), expected, "one result per message");
        for (const A::Result& r : results)
        {
            int64_t sum = 0;
            for (uint8_t c = 0; c < A::N_COMPONENTS; ++c)
            {
                sum += r.ticks[c];
                NS_TEST_EXPECT_MSG_GT_OR_EQ(r.ticks[c],
                                            0,
                                            "message " << r.messageId << " "
                                                       << A::ComponentName(c));
            }
            NS_TEST_EXPECT_MSG_EQ(r.unattributedTicks, 0, "message " << r.messageId);
            NS_TEST_EXPECT_MSG_EQ(sum,
                                  r.endTicks - r.startTicks,
                                  "message " << r.messageId << " sum");
        }
    }
};

/// An idle path: only serialization, propagation and forwarding, each as the path has it.
class IdleWriteTestCase : public AttributionTestCase
{
  public:
    IdleWriteTestCase(uint64_t bytes, bool cutThrough)
        : AttributionTestCase("idle " +
                              std::string(cutThrough ? "cut-through" : "store-and-forward") +
                              " switch: a WRITE of " + std::to_string(bytes) +
                              " B is serialization, propagation and forwarding"),
          m_bytes(bytes),
          m_cutThrough(cutThrough)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = m_bytes;
        const bool cutThrough = m_cutThrough;
        auto results = RunRoce(
            2,
            [cutThrough](RoceFabricHelper& h) {
                h.SetSwitchAttribute("CutThrough", BooleanValue(cutThrough));
            },
            [bytes](Ptr<RoceFabric> f) { f->PostWrite(0, 1, bytes, 1, 0); });
        CheckSums(results, 1);
        const A::Result& r = results.at(0);
        const Time latency = SwitchForwardingDefaults<RoceSwitch>().first;
        NS_TEST_EXPECT_MSG_EQ(r.ticks[A::PROPAGATION], Us(4), "two cables each way");
        if (cutThrough)
        {
            // Cut-through: the latency beyond the input's serialization (which overlaps).
            NS_TEST_EXPECT_MSG_GT(r.ticks[A::FORWARDING], 0, "some latency");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r.ticks[A::FORWARDING],
                                        2 * latency.GetTimeStep(),
                                        "at most the latency, packet and ACK");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(r.ticks[A::FORWARDING],
                                  2 * latency.GetTimeStep(),
                                  "the switch's latency, for the packet and its ACK");
            if (m_bytes == 1000)
            {
                ReportValidation("attribution-idle-forwarding-ns",
                                 TimeStep(r.ticks[A::FORWARDING]).GetNanoSeconds());
                ReportValidation("attribution-idle-forwarding-ns.expected",
                                 2 * latency.GetNanoSeconds());
                ReportValidation("attribution-idle-propagation-ns",
                                 TimeStep(r.ticks[A::PROPAGATION]).GetNanoSeconds());
            }
        }
        for (uint8_t c : {A::PAUSE, A::CC, A::QP_CACHE, A::RNR, A::RETRANSMISSION})
        {
            NS_TEST_EXPECT_MSG_EQ(r.ticks[c], 0, A::ComponentName(c) << " on an idle path");
        }
        // Store-and-forward: the first packet's RETH (16 bytes) holds each packet behind
        // it at the switch for 16 bytes' time (minus the last one's 4-byte ImmDt): the
        // only queueing there is. One packet: none.
        const int64_t reth = DataRate("100Gbps").CalculateBytesTxTime(16).GetTimeStep();
        const int64_t allowed = m_bytes > 1000 && !cutThrough ? reth : 0;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.ticks[A::QUEUEING],
                                    allowed,
                                    "no queueing beyond the RETH's bytes");
        NS_TEST_EXPECT_MSG_GT(r.ticks[A::SERIALIZATION], 0, "serialization");
    }

    uint64_t m_bytes;
    bool m_cutThrough;
};

/// The switch port toward host 1 is paused for 20 us from the start: the message's
/// last packet waits there, and that wait is pause at that port.
class PausedPortTestCase : public AttributionTestCase
{
  public:
    PausedPortTestCase()
        : AttributionTestCase("a WRITE behind a paused port: its wait there is pause")
    {
    }

  private:
    void DoRun() override
    {
        auto results = RunRoce(
            2,
            [](RoceFabricHelper&) {},
            [](Ptr<RoceFabric> f) {
                Ptr<RoceNetDevice> dev = f->GetNic(1)->GetDevice();
                dev->SetPeerPaused(3, true); // host 1 asks its switch port to stop
                ScheduleLambda(MicroSeconds(20), [dev] { dev->SetPeerPaused(3, false); });
                f->PostWrite(0, 1, 1000, 1, 0);
            });
        CheckSums(results, 1);
        const A::Result& r = results.at(0);
        // Paused from ~1 ns (the pause frame's flight) until ~20 us: the packet arrived
        // at the switch after ~1.1 us and waited until the resume arrived.
        ReportValidation("attribution-paused-port-pause-ns",
                         TimeStep(r.ticks[A::PAUSE]).GetNanoSeconds());
        NS_TEST_EXPECT_MSG_GT(r.ticks[A::PAUSE], Us(17), "most of 20 us paused");
        NS_TEST_EXPECT_MSG_LT(r.ticks[A::PAUSE], Us(20), "not more than the pause");
        NS_TEST_EXPECT_MSG_EQ(r.ticks[A::CC] + r.ticks[A::RETRANSMISSION], 0, "nothing else");
        bool named = false;
        for (const A::HopWait& h : r.hops)
        {
            // The switch is node 0 (OneSwitch adds it first); its port 1 leads to host 1.
            named = named || (h.node == 0 && h.port == 1 && h.queue == 3 && h.pauseTicks > 0);
        }
        NS_TEST_EXPECT_MSG_EQ(named, true, "the pause is at the switch's port to host 1");
    }
};

/// A sender paced at a quarter of its line rate: three quarters of its sending time is
/// congestion control.
class PacedSenderTestCase : public AttributionTestCase
{
  public:
    PacedSenderTestCase()
        : AttributionTestCase(
              "a sender paced at a quarter of its line rate: its holds are congestion control")
    {
    }

  private:
    void DoRun() override
    {
        auto results = RunRoce(
            2,
            [](RoceFabricHelper&) {},
            [](Ptr<RoceFabric> f) {
                CongestionControlFactory cc("fixed-fraction");
                cc.Set("Fraction", DoubleValue(0.25));
                f->SetCongestionControlFactory(cc);
                f->PostWrite(0, 1, 100000, 1, 0);
            });
        CheckSums(results, 1);
        const A::Result& r = results.at(0);
        // 100 kB at 100 Gb/s ~ 8.6 us on the wire; paced at 25 Gb/s ~ 34 us: ~26 us held.
        NS_TEST_EXPECT_MSG_GT(r.ticks[A::CC], 2.5 * r.ticks[A::SERIALIZATION], "3x the wire");
        NS_TEST_EXPECT_MSG_GT(r.ticks[A::CC], Us(24), "~26 us held");
        NS_TEST_EXPECT_MSG_EQ(r.ticks[A::QUEUEING] + r.ticks[A::PAUSE], 0, "no queue");
    }
};

/// A 3-to-1 incast under DCQCN with ECN marking at the switch: the receiver's queue
/// marks, CNPs cut the senders' rates, and their held time is congestion control; the
/// same incast without congestion control has none of it and waits in the queue instead.
class ThrottledDcqcnTestCase : public AttributionTestCase
{
  public:
    ThrottledDcqcnTestCase()
        : AttributionTestCase("a DCQCN flow cut by CNPs: its held time is congestion control")
    {
    }

  private:
    void DoRun() override
    {
        auto incast = [](const std::string& cc) {
            return RunRoce(
                4,
                [](RoceFabricHelper& h) {
                    h.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
                    h.SetNicAttribute("EcnCapable", BooleanValue(true));
                },
                [cc](Ptr<RoceFabric> f) {
                    f->SetCongestionControlFactory(CongestionControlFactory(cc));
                    for (uint32_t s = 1; s <= 3; ++s)
                    {
                        f->PostWrite(s, 0, 2000000, s, 0);
                    }
                });
        };
        auto sum = [](const std::vector<A::Result>& results, uint8_t c) {
            int64_t t = 0;
            for (const A::Result& r : results)
            {
                t += r.ticks[c];
            }
            return t;
        };
        const auto dcqcn = incast("dcqcn");
        CheckSums(dcqcn, 3);
        const auto none = incast("none");
        CheckSums(none, 3);
        int64_t fct = 0;
        for (const A::Result& r : dcqcn)
        {
            fct += r.endTicks - r.startTicks;
            NS_TEST_EXPECT_MSG_GT(r.ticks[A::CC], 0, "message " << r.messageId << " was cut");
        }
        const double share = static_cast<double>(sum(dcqcn, A::CC)) / static_cast<double>(fct);
        ReportValidation("attribution-dcqcn-incast-cc-share", share);
        NS_TEST_EXPECT_MSG_GT(share, 0.2, "a fifth of the FCT or more held by DCQCN");
        NS_TEST_EXPECT_MSG_EQ(sum(none, A::CC), 0, "no congestion control, no CC time");
        NS_TEST_EXPECT_MSG_GT(sum(none, A::QUEUEING) + sum(none, A::PAUSE),
                              sum(dcqcn, A::QUEUEING) + sum(dcqcn, A::PAUSE),
                              "without it they wait in the fabric instead");
    }
};

/// Host 1 drops what arrives in [3 us, 3.2 us): the lost packets are resent, and the
/// message's extra time is retransmission.
class LostPacketTestCase : public AttributionTestCase
{
  public:
    LostPacketTestCase()
        : AttributionTestCase("lost packets: the extra time is retransmission")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t idle = 0;
        {
            auto base = RunRoce(
                2,
                [](RoceFabricHelper&) {},
                [](Ptr<RoceFabric> f) { f->PostWrite(0, 1, 100000, 1, 0); });
            idle = base.at(0).endTicks - base.at(0).startTicks;
        }
        auto results = RunRoce(
            2,
            [](RoceFabricHelper&) {},
            [](Ptr<RoceFabric> f) {
                f->StallReceive(1, NanoSeconds(3000), NanoSeconds(3200));
                f->PostWrite(0, 1, 100000, 1, 0);
            });
        CheckSums(results, 1);
        const A::Result& r = results.at(0);
        const int64_t fct = r.endTicks - r.startTicks;
        NS_TEST_EXPECT_MSG_GT(fct, static_cast<int64_t>(idle), "the loss costs time");
        NS_TEST_EXPECT_MSG_GT(r.ticks[A::RETRANSMISSION], 0, "retransmission");
        // The extra time is the resent packets' and the wait for their NAK.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.ticks[A::RETRANSMISSION],
                                    (fct - static_cast<int64_t>(idle)) / 2,
                                    "most of the extra time");
    }
};

/// Incast on InfiniBand: 3 senders to one, credit flow control: every message's parts
/// add up, and the senders wait for credits.
class IbIncastTestCase : public AttributionTestCase
{
  public:
    IbIncastTestCase()
        : AttributionTestCase("InfiniBand incast: parts add up, credit starvation is pause")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = OneSwitch(4);
        IbFabricHelper helper;
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Ptr<AttributionRecorder> recorder = CreateObject<AttributionRecorder>();
        recorder->Install(fabric);
        for (uint32_t s = 1; s <= 3; ++s)
        {
            fabric->PostWrite(s, 0, 200000, s, 0);
        }
        Simulator::Run();
        const std::vector<A::Result> results = recorder->GetResults();
        CheckSums(results, 3);
        int64_t pause = 0;
        for (const A::Result& r : results)
        {
            pause += r.ticks[A::PAUSE];
        }
        NS_TEST_EXPECT_MSG_GT(pause, Us(10), "senders starved of credits");
        const bool freed = recorder->GetAttribution()->GetLiveJourneys() <= 8;
        NS_TEST_EXPECT_MSG_EQ(freed, true, "journeys are freed");
        // Go-back-N: only the messages' last packets (and their ACKs) are followed past
        // their first hop, so the table holds a few journeys, not the ~150 packets in
        // flight (following every packet needed one each).
        ReportValidation("attribution-ib-incast-journey-table",
                         recorder->GetAttribution()->GetJourneyTableSize());
        NS_TEST_EXPECT_MSG_LT_OR_EQ(recorder->GetAttribution()->GetJourneyTableSize(),
                                    16,
                                    "only packets that can complete a message are followed");
        recorder->Dispose();
        Simulator::Destroy();
    }
};

/// RoCEv2 incast with PFC (3 senders, small buffer): every message's parts add up and
/// pause shows at the senders' ports.
class RoceIncastTestCase : public AttributionTestCase
{
  public:
    RoceIncastTestCase()
        : AttributionTestCase("RoCEv2 incast with PFC: parts add up")
    {
    }

  private:
    void DoRun() override
    {
        auto results = RunRoce(
            4,
            [](RoceFabricHelper& h) { h.SetMmuAttribute("BufferSize", UintegerValue(600000)); },
            [](Ptr<RoceFabric> f) {
                for (uint32_t s = 1; s <= 3; ++s)
                {
                    f->PostWrite(s, 0, 1000000, s, 0);
                }
            });
        CheckSums(results, 3);
        int64_t waited = 0;
        for (const A::Result& r : results)
        {
            waited += r.ticks[A::PAUSE] + r.ticks[A::QUEUEING];
        }
        NS_TEST_EXPECT_MSG_GT(waited, Us(100), "an incast waits");
    }
};

/// A lossy incast (PFC off, a small buffer): the switch drops hundreds of packets. Their
/// journeys are forgotten once their messages complete, so the journey table stays at
/// the packets in flight, not the packets dropped; every message still adds up.
class DroppedJourneysTestCase : public AttributionTestCase
{
  public:
    DroppedJourneysTestCase()
        : AttributionTestCase("dropped packets' journeys are freed (lossy incast)")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = OneSwitch(9);
        RoceFabricHelper helper;
        helper.SetDeviceAttribute("PfcEnabled", BooleanValue(false));
        helper.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
        helper.SetMmuAttribute("BufferSize", UintegerValue(300000));
        Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Ptr<AttributionRecorder> recorder = CreateObject<AttributionRecorder>();
        recorder->Install(fabric);
        for (uint32_t s = 1; s <= 8; ++s)
        {
            fabric->PostWrite(s, 0, 200000, s, 0);
        }
        Simulator::Run();
        CheckSums(recorder->GetResults(), 8);
        uint64_t drops = 0;
        for (Ptr<RoceSwitch> sw : fabric->GetSwitches())
        {
            drops += sw->GetLossyDrops();
        }
        Ptr<FctAttribution> a = recorder->GetAttribution();
        ReportValidation("attribution-lossy-drops", drops);
        ReportValidation("attribution-lossy-journey-table", a->GetJourneyTableSize());
        NS_TEST_EXPECT_MSG_GT(drops, 500, "a lossy incast drops");
        // 8 senders, each with at most a window of packets and ACKs alive at once.
        NS_TEST_EXPECT_MSG_LT(a->GetJourneyTableSize(),
                              drops / 2,
                              "the table holds what flies, not what was dropped");
        a->ForgetStale();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(a->GetLiveJourneys(),
                                    2 * 9,
                                    "after the run: one data packet and one ACK per host");
        recorder->Dispose();
        Simulator::Destroy();
    }
};

class FctAttributionTestSuite : public TestSuite
{
  public:
    FctAttributionTestSuite()
        : TestSuite("ai-fabric-fct-attribution", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new IdleWriteTestCase(1000, false), TestCase::QUICK);
        AddTestCase(new IdleWriteTestCase(100000, false), TestCase::QUICK);
        AddTestCase(new IdleWriteTestCase(1000, true), TestCase::QUICK);
        AddTestCase(new PausedPortTestCase, TestCase::QUICK);
        AddTestCase(new PacedSenderTestCase, TestCase::QUICK);
        AddTestCase(new ThrottledDcqcnTestCase, TestCase::QUICK);
        AddTestCase(new LostPacketTestCase, TestCase::QUICK);
        AddTestCase(new IbIncastTestCase, TestCase::QUICK);
        AddTestCase(new RoceIncastTestCase, TestCase::QUICK);
        AddTestCase(new DroppedJourneysTestCase, TestCase::QUICK);
    }
};

static FctAttributionTestSuite g_fctAttributionTestSuite;

} // namespace
