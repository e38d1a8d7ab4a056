/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * InfiniBand congestion control, IBTA Vol. 1 Annex A10 (ns3::IbtaCongestionControl,
 * --cc=ibta): the CCT index rises by CCTI_Increase per BECN up to the table's last
 * index and falls by one per CCTI_Timer (1.024 us units) to CCTI_Min; the injection
 * delay is the table entry's (T >> shift) x multiplier; bad tables are refused; an IB
 * incast with FECN marking queues less and stalls on credits less than without CC.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/ibta-congestion-control.h"
#include "ns3/lambda-callback.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

/// CCTI per BECN, capped at the last index; one step down per CCTI_Timer to CCTI_Min.
class IbtaCctiTest : public TestCase
{
  public:
    IbtaCctiTest()
        : TestCase("IBTA CC: CCTI rises by CCTI_Increase per BECN, capped; falls one per "
                   "CCTI_Timer to CCTI_Min")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<IbtaCongestionControl> cc = CreateObject<IbtaCongestionControl>();
        cc->SetAttribute("Cct", StringValue("0:0,0:1,0:2,0:3,0:4,0:5,0:6,0:7,0:8,0:9"));
        cc->SetAttribute("CctiIncrease", UintegerValue(3));
        cc->SetAttribute("CctiMin", UintegerValue(2));
        cc->SetAttribute("CctiTimer", UintegerValue(10)); // 10.24 us
        cc->Start(UnitTestCcContext());
        NS_TEST_ASSERT_MSG_EQ(cc->GetCcti(), 2, "starts at CCTI_Min");
        cc->OnCnp();
        NS_TEST_ASSERT_MSG_EQ(cc->GetCcti(), 5, "+3 per BECN");
        cc->OnCnp();
        cc->OnCnp();
        NS_TEST_ASSERT_MSG_EQ(cc->GetCcti(), 9, "capped at the last index (CCTI_Limit 9)");
        NS_TEST_ASSERT_MSG_EQ(cc->GetBecns(), 3, "three BECNs");
        std::vector<uint16_t> at;
        for (int k = 1; k <= 9; ++k)
        {
            ScheduleLambda(NanoSeconds(10240 * k) + NanoSeconds(1),
                           [&at, cc]() { at.push_back(cc->GetCcti()); });
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        // One step per 10.24 us from the first BECN: 8, 7, ..., 2, then it stays.
        const std::vector<uint16_t> expected{8, 7, 6, 5, 4, 3, 2, 2, 2};
        NS_TEST_ASSERT_MSG_EQ(at.size(), expected.size(), "samples");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(at[i], expected[i], "CCTI after " << i + 1 << " timer periods");
        }
        cc->Stop();
        Simulator::Destroy();
    }
};

/// The injection delay and the rate are the table entry's.
class IbtaInjectionDelayTest : public TestCase
{
  public:
    IbtaInjectionDelayTest()
        : TestCase("IBTA CC: injection delay = (T >> shift) x multiplier of the CCTI's entry")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<IbtaCongestionControl> cc = CreateObject<IbtaCongestionControl>();
        cc->SetAttribute("Cct", StringValue("0:0,1:3,2:5,3:16383"));
        cc->SetAttribute("CctiTimer", UintegerValue(0)); // no decrease
        cc->Start(UnitTestCcContext());                  // 100 Gb/s, 1082 wire bytes: T = 86,560 ps
        NS_TEST_ASSERT_MSG_EQ(cc->GetInjectionDelay(), Time(0), "entry 0: no delay");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "line rate");
        cc->OnCnp();
        // 1:3 -> (86,560 >> 1) x 3 = 129,840 ps; rate 100 x 86,560 / 216,400 = 40 Gb/s
        NS_TEST_ASSERT_MSG_EQ(cc->GetInjectionDelay(), PicoSeconds(129840), "entry 1");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 40000000000ULL, "entry 1 rate");
        cc->OnCnp();
        // 2:5 -> 21,640 x 5 = 108,200 ps; rate 100 x 86,560 / 194,760 = 44.4444 Gb/s
        NS_TEST_ASSERT_MSG_EQ(cc->GetInjectionDelay(), PicoSeconds(108200), "entry 2");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 44444444444ULL, "entry 2 rate");
        cc->OnCnp();
        // 3:16383 -> 10,820 x 16,383 = 177,264,060 ps; rate 100 G x 86,560 / 177,350,620
        // = 48,807,271.9 b/s
        NS_TEST_ASSERT_MSG_EQ(cc->GetInjectionDelay(), PicoSeconds(177264060), "entry 3");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 48807272ULL, "entry 3 rate");
        cc->Stop();
        Simulator::Destroy();
    }
};

/// Tables the checker refuses, with the values named.
class IbtaBadTableTest : public TestCase
{
  public:
    IbtaBadTableTest()
        : TestCase("IBTA CC: a CCT outside shift 0-3, multiplier 0-16383 or 1-16384 entries "
                   "is refused")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<IbtaCongestionControl::CctEntry> table;
        std::string error;
        for (const std::string bad : {"4:1", "0:16384", "", "0:1,", "a:b", "1", "0:1,,0:2"})
        {
            NS_TEST_ASSERT_MSG_EQ(IbtaCongestionControl::ParseCct(bad, table, error),
                                  false,
                                  "refused: '" << bad << "'");
        }
        IbtaCongestionControl::ParseCct("4:1", table, error);
        NS_TEST_ASSERT_MSG_NE(error.find("'4:1'"), std::string::npos, "names the entry");
        NS_TEST_ASSERT_MSG_EQ(IbtaCongestionControl::ParseCct("3:16383,0:0", table, error),
                              true,
                              "the extremes are allowed");
        NS_TEST_ASSERT_MSG_EQ(table.size(), 2, "two entries");
        NS_TEST_ASSERT_MSG_EQ(
            IbtaCongestionControl::ParseCct(IbtaCongestionControl::DefaultCct(), table, error),
            true,
            "default table");
        NS_TEST_ASSERT_MSG_EQ(table.size(), 128, "128 entries");
        NS_TEST_ASSERT_MSG_EQ(table[127].multiplier, 127, "entry i = 0:i");
        Ptr<IbtaCongestionControl> cc = CreateObject<IbtaCongestionControl>();
        NS_TEST_ASSERT_MSG_EQ(cc->SetAttributeFailSafe("Cct", StringValue("4:1")),
                              false,
                              "the attribute's checker refuses it");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Get("ibta").typeName,
                              "ns3::IbtaCongestionControl",
                              "registered as ibta");
    }
};

namespace
{

/// 8 x 1 MB into one 100 Gb/s InfiniBand port (MTU 4096), the switch marking FECN at
/// 16 KiB; the queue for host 0 sampled every microsecond while the incast runs.
struct IbIncast
{
    std::string cc;
    double meanQueue{0};
    uint64_t maxQueue{0};
    uint64_t stalls{0};
    uint64_t becns{0};
    uint64_t pending{1};
    Time end;

    void Run()
    {
        UsePicoseconds();
        // IBTA Annex A10: the destination returns a BECN for every FECN it receives, not
        // one per 50 us as a RoCEv2 notification point.
        Config::SetDefault("ns3::RdmaQueuePair::CnpInterval", TimeValue(Time(0)));
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        std::vector<uint32_t> hosts;
        for (uint32_t i = 0; i <= 8; ++i)
        {
            hosts.push_back(g->AddHost());
        }
        uint32_t s = g->AddSwitch(1);
        for (uint32_t h : hosts)
        {
            g->AddLink(h, s, DataRate("100Gbps"), MicroSeconds(1));
        }
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(4096));
        helper.SetSwitchAttribute("FecnThreshold", UintegerValue(16 * 1024));
        helper.SetCongestionControl(cc, "");
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Ptr<IbSwitch> sw = fabric->GetSwitches()[0];
        fabric->AddMessageCallback(MakeCallback(&IbIncast::OnMessage, this));
        for (uint32_t i = 1; i <= 8; ++i)
        {
            fabric->PostWrite(i, 0, 1000000, i, 0);
        }
        std::vector<uint64_t> samples;
        std::function<void()> sample = [&]() {
            if (fabric->GetPendingMessages() > 0)
            {
                samples.push_back(sw->GetQueuedBytes(0, 0));
                ScheduleLambda(MicroSeconds(1), sample);
            }
        };
        ScheduleLambda(MicroSeconds(1), sample);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        double sum = 0;
        for (uint64_t q : samples)
        {
            sum += q;
            maxQueue = std::max(maxQueue, q);
        }
        meanQueue = samples.empty() ? 0 : sum / samples.size();
        for (uint32_t n = 0; n < g->GetNNodes(); ++n)
        {
            for (uint32_t p = 0; p < g->GetPorts(n).size(); ++p)
            {
                stalls += fabric->GetDevice(n, p)->GetCreditStalls();
            }
        }
        for (uint32_t i = 1; i <= 8; ++i)
        {
            becns += fabric->GetHca(i)->GetCnpsReceived();
        }
        pending = fabric->GetPendingMessages();
        std::cout << "IB 8-to-1 incast, cc " << cc << ": mean queue " << meanQueue << " B, max "
                  << maxQueue << " B, credit stalls " << stalls << ", BECNs " << becns
                  << ", done at " << end.GetMicroSeconds() << " us" << std::endl;
        fabric->Dispose();
        Simulator::Destroy();
        Config::Reset();
    }

    void OnMessage(const RdmaFabric::MessageRecord& r)
    {
        end = std::max(end, r.end);
    }
};

} // namespace

/// An IB incast with IBTA CC queues less and stalls less on credits than without.
class IbtaIncastTest : public TestCase
{
  public:
    IbtaIncastTest()
        : TestCase("IBTA CC: an 8-to-1 IB incast queues and stalls on credits less than "
                   "without congestion control")
    {
    }

  private:
    void DoRun() override
    {
        IbIncast none;
        none.cc = "none";
        none.Run();
        IbIncast ibta;
        ibta.cc = "ibta";
        ibta.Run();
        NS_TEST_ASSERT_MSG_EQ(none.pending + ibta.pending, 0, "both incasts complete");
        NS_TEST_ASSERT_MSG_GT(ibta.becns, 0, "ibta: BECNs reach the sources");
        NS_TEST_ASSERT_MSG_LT(ibta.meanQueue * 2, none.meanQueue, "mean queue under half");
        NS_TEST_ASSERT_MSG_LT(ibta.stalls * 10, none.stalls, "under a tenth the credit stalls");
        NS_TEST_ASSERT_MSG_LT(ibta.end, none.end * 2, "done within twice the time without CC");
    }
};

namespace
{

/**
 * A congestion tree and its victim (the IBTA Annex A10 scenario): switch s1 has 3
 * hot-spot senders and the victim's source, switch s2 the other 12 hot-spot senders,
 * the hot spot h and the victim's destination w; hosts at 100 Gb/s, the s1-s2 cable at
 * 400 Gb/s, so it carries what s1's hosts offer. 15 x 1 MB into h; 4 MB from the victim
 * to w, which nothing else loads. Without CC the queue for h fills s2's input buffer
 * from s1, and s1's port to s2 waits for credits with the victim's packets behind it.
 */
struct IbVictim
{
    std::string cc;
    uint64_t victimPortStalls{0};
    uint64_t fecnMarked{0};
    Time victimEnd;
    Time hotEnd;
    uint64_t pending{1};

    void Run()
    {
        UsePicoseconds();
        Config::SetDefault("ns3::RdmaQueuePair::CnpInterval", TimeValue(Time(0)));
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        uint32_t s1 = g->AddSwitch(1);
        uint32_t s2 = g->AddSwitch(1);
        const DataRate host("100Gbps");
        std::vector<uint32_t> s1Hot;
        std::vector<uint32_t> s2Hot;
        for (uint32_t i = 0; i < 3; ++i)
        {
            s1Hot.push_back(g->AddHost());
            g->AddLink(s1Hot.back(), s1, host, MicroSeconds(1));
        }
        uint32_t v = g->AddHost();
        g->AddLink(v, s1, host, MicroSeconds(1));
        for (uint32_t i = 0; i < 12; ++i)
        {
            s2Hot.push_back(g->AddHost());
            g->AddLink(s2Hot.back(), s2, host, MicroSeconds(1));
        }
        uint32_t h = g->AddHost();
        g->AddLink(h, s2, host, MicroSeconds(1));
        uint32_t w = g->AddHost();
        g->AddLink(w, s2, host, MicroSeconds(1));
        g->AddLink(s1, s2, DataRate("400Gbps"), MicroSeconds(1));
        uint32_t victimPort = 0;
        for (uint32_t p = 0; p < g->GetPorts(s1).size(); ++p)
        {
            if (g->GetPorts(s1)[p].peer == s2)
            {
                victimPort = p;
            }
        }
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(4096));
        helper.SetSwitchAttribute("FecnThreshold", UintegerValue(16 * 1024));
        helper.SetCongestionControl(cc, "");
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        fabric->AddMessageCallback(MakeCallback(&IbVictim::OnMessage, this));
        // PostWrite takes host indices (the order AddHost made them), not node ids.
        std::vector<uint32_t> hostOf(g->GetNNodes(), 0);
        for (uint32_t i = 0; i < g->GetNHosts(); ++i)
        {
            hostOf[g->GetHosts()[i]] = i;
        }
        hotIndex = hostOf[h];
        victimIndex = hostOf[v];
        for (uint32_t s : s1Hot)
        {
            fabric->PostWrite(hostOf[s], hostOf[h], 1000000, s, 0);
        }
        for (uint32_t s : s2Hot)
        {
            fabric->PostWrite(hostOf[s], hostOf[h], 1000000, s, 0);
        }
        fabric->PostWrite(hostOf[v], hostOf[w], 4000000, v, 0);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        victimPortStalls = fabric->GetDevice(s1, victimPort)->GetCreditStalls();
        for (Ptr<IbSwitch> sw : fabric->GetSwitches())
        {
            fecnMarked += sw->GetFecnMarked();
        }
        pending = fabric->GetPendingMessages();
        std::cout << "IB 15-to-1 with a victim, cc " << cc << ": victim port credit stalls "
                  << victimPortStalls << ", FECN marks " << fecnMarked << ", victim done at "
                  << victimEnd.GetMicroSeconds() << " us, hot spot done at "
                  << hotEnd.GetMicroSeconds() << " us" << std::endl;
        fabric->Dispose();
        Simulator::Destroy();
        Config::Reset();
    }

    void OnMessage(const RdmaFabric::MessageRecord& r)
    {
        if (r.src == victimIndex)
        {
            victimEnd = r.end;
        }
        else if (r.dst == hotIndex)
        {
            hotEnd = std::max(hotEnd, r.end);
        }
    }

    uint32_t hotIndex{0};
    uint32_t victimIndex{0};
};

} // namespace

/// With IBTA CC the congestion tree stops reaching back into the victim's port.
class IbtaVictimTest : public TestCase
{
  public:
    IbtaVictimTest()
        : TestCase("IBTA CC: a 15-to-1 IB incast stalls the victim's port on credits less, "
                   "and the victim flow finishes sooner, than without congestion control")
    {
    }

  private:
    void DoRun() override
    {
        IbVictim none;
        none.cc = "none";
        none.Run();
        IbVictim ibta;
        ibta.cc = "ibta";
        ibta.Run();
        NS_TEST_ASSERT_MSG_EQ(none.pending + ibta.pending, 0, "both runs complete");
        NS_TEST_ASSERT_MSG_GT(none.victimPortStalls, 0, "without CC the victim port stalls");
        NS_TEST_ASSERT_MSG_GT(ibta.fecnMarked, 0, "the hot spot's port marks FECN");
        NS_TEST_ASSERT_MSG_LT(ibta.victimPortStalls * 2,
                              none.victimPortStalls,
                              "under half the victim port's credit stalls");
        NS_TEST_ASSERT_MSG_LT(ibta.victimEnd, none.victimEnd, "the victim finishes sooner");
    }
};

class IbtaCongestionControlTestSuite : public TestSuite
{
  public:
    IbtaCongestionControlTestSuite()
        : TestSuite("ai-fabric-ibta-cc", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new IbtaCctiTest, AI_FABRIC_QUICK);
        AddTestCase(new IbtaInjectionDelayTest, AI_FABRIC_QUICK);
        AddTestCase(new IbtaBadTableTest, AI_FABRIC_QUICK);
        AddTestCase(new IbtaIncastTest, AI_FABRIC_QUICK);
        AddTestCase(new IbtaVictimTest, AI_FABRIC_QUICK);
    }
};

static IbtaCongestionControlTestSuite g_ibtaCongestionControlTestSuite;
