/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * InfiniBand congestion control: a switch marks FECN on packets leaving a congested
 * output (port, VL) queue, the destination HCA returns CNPs with BECN, and DCQCN at
 * the sources cuts their rates, which keeps the incast queue short.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-frame.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/packet.h"
#include "ns3/rdma-opcode.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// An 8-to-1 incast through one IB switch, sampled every microsecond.
struct IncastRun
{
    uint32_t fecnThreshold{0};
    std::string preset{"hpcc"}; //!< DCQCN preset (the HPCC simulator's configuration file)
    static constexpr uint32_t SENDERS = 8;
    static constexpr uint64_t BYTES = 1000000;

    uint64_t marked{0};
    uint64_t cnps{0};
    uint64_t cnpsReceived{0}; //!< CNPs the senders' HCAs received
    uint64_t fecnArrivals{0}; //!< data packets that reached host 0 with FECN set
    uint64_t losslessDrops{1};
    uint64_t pending{1};
    std::vector<std::pair<Time, uint64_t>> samples; //!< (time, bytes queued for host 0)
    uint64_t queueMax{0};
    Time end;
    Ptr<IbSwitch> sw;
    uint32_t port{0};

    void Sample()
    {
        uint64_t q = sw->GetQueuedBytes(port, 0);
        queueMax = std::max(queueMax, q);
        samples.emplace_back(Simulator::Now(), q);
        Simulator::Schedule(MicroSeconds(1), &IncastRun::Sample, this);
    }

    void OnArrival(Ptr<const Packet> p)
    {
        IbFrameView v;
        if (IbFrame::Peek(p, v) && v.fecn)
        {
            fecnArrivals++;
        }
    }

    void OnMessage(const RdmaFabric::MessageRecord& r)
    {
        end = std::max(end, r.end);
    }

    /// Mean of the samples taken while the incast ran.
    double MeanQueue() const
    {
        double sum = 0;
        uint64_t n = 0;
        for (const auto& [t, q] : samples)
        {
            if (t <= end)
            {
                sum += q;
                n++;
            }
        }
        return n ? sum / n : 0;
    }

    void Run()
    {
        if (Time::GetResolution() != Time::PS)
        {
            Time::SetResolution(Time::PS);
        }
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        std::vector<uint32_t> hosts;
        for (uint32_t i = 0; i <= SENDERS; ++i)
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
        helper.SetSwitchAttribute("FecnThreshold", UintegerValue(fecnThreshold));
        helper.SetCongestionControl("dcqcn", preset);
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        sw = fabric->GetSwitches()[0];
        port = 0; // host 0's cable is the switch's first port
        fabric->GetDevice(s, port)->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&IncastRun::OnArrival, this)); // data towards host 0
        fabric->AddMessageCallback(MakeCallback(&IncastRun::OnMessage, this));
        for (uint32_t i = 1; i <= SENDERS; ++i)
        {
            fabric->PostWrite(i, 0, BYTES, i, 0);
        }
        Simulator::Schedule(MicroSeconds(1), &IncastRun::Sample, this);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        marked = sw->GetFecnMarked();
        RdmaFabric::Counters k = fabric->GetCounters();
        cnps = k.cnpsSent;
        for (uint32_t i = 1; i <= SENDERS; ++i)
        {
            cnpsReceived += fabric->GetHca(i)->GetCnpsReceived();
        }
        losslessDrops = k.losslessDrops;
        pending = fabric->GetPendingMessages();
        fabric->Dispose();
        Simulator::Destroy();
    }
};

} // namespace

/**
 * 8 x 1 MB into one 100 Gb/s port, DCQCN (HPCC-derived preset) at the HCAs. Without
 * FECN marking nothing tells the sources: no CNP, and the output queue fills with
 * everything the 8 input buffers hold (credits stop the senders, 8 x 64 KiB at most).
 * With FecnThreshold = 16 KiB the switch marks, host 0 returns CNPs (at most one per
 * QP per 50 us), DCQCN cuts the rates and the mean queue falls below half. Without
 * marking the incast ends within 2% of 8 MB at the link's payload rate; with it later
 * (DCQCN under-uses the port after its cuts), but by less than 50%.
 */
class IbFecnBecnTestCase : public TestCase
{
  public:
    IbFecnBecnTestCase()
        : TestCase("FECN marking at a congested IB switch port, BECN (CNP) drives DCQCN")
    {
    }

  private:
    void DoRun() override
    {
        IncastRun off;
        off.Run();
        IncastRun on;
        on.fecnThreshold = 16 * 1024;
        on.Run();
        // 8 MB of payload at 100 Gb/s x 4096/4122 (LRH, BTH, ICRC, VCRC per 4 KB)
        const double bottleneck = 8.0 * IncastRun::BYTES * 8 / (100e9 * 4096 / 4122);
        std::cout << "IB incast without FECN: mean queue " << off.MeanQueue() << " B, max "
                  << off.queueMax << ", end " << off.end.As(Time::US) << "; with FECN: marked "
                  << on.marked << ", arrived marked " << on.fecnArrivals << ", CNPs " << on.cnps
                  << ", mean queue " << on.MeanQueue() << " B, max " << on.queueMax << ", end "
                  << on.end.As(Time::US) << "; bottleneck " << bottleneck * 1e6 << " us"
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(off.pending, 0, "incast completes without CC marking");
        NS_TEST_ASSERT_MSG_EQ(on.pending, 0, "incast completes with FECN");
        NS_TEST_ASSERT_MSG_EQ(off.losslessDrops + on.losslessDrops, 0, "lossless");
        NS_TEST_ASSERT_MSG_EQ(off.marked, 0, "no marking when off");
        NS_TEST_ASSERT_MSG_EQ(off.cnps, 0, "no CNP when off");
        NS_TEST_ASSERT_MSG_GT(on.marked, 0, "the switch marked FECN");
        NS_TEST_ASSERT_MSG_EQ(on.fecnArrivals, on.marked, "every mark reached host 0");
        NS_TEST_ASSERT_MSG_GT(on.cnps, 0, "host 0 answered with CNPs");
        NS_TEST_ASSERT_MSG_EQ(on.cnpsReceived, on.cnps, "every CNP reached its sender (lossless)");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(on.cnps, on.marked, "at most one CNP per marked packet");
        const double cnpSlots = IncastRun::SENDERS * (on.end.GetSeconds() / 50e-6 + 1);
        NS_TEST_ASSERT_MSG_LT_OR_EQ(on.cnps, cnpSlots, "at most one CNP per QP per 50 us");
        NS_TEST_ASSERT_MSG_GT(off.queueMax, 7 * 64 * 1024, "no CC: input buffers fill");
        NS_TEST_ASSERT_MSG_LT(on.MeanQueue(), off.MeanQueue() / 2, "DCQCN halves the queue");
        NS_TEST_ASSERT_MSG_EQ_TOL(off.end.GetSeconds() / bottleneck,
                                  1.0,
                                  0.02,
                                  "no CC: the credits keep the port busy");
        // DCQCN's cuts take the 8 flows below their fair share and the preset's
        // 300 us increase timer brings them back slowly: the incast ends later.
        NS_TEST_ASSERT_MSG_GT(on.end, off.end, "the rate cuts cost completion time");
        NS_TEST_ASSERT_MSG_LT(on.end.GetSeconds(), bottleneck * 1.5, "but less than 50%");
    }
};

class InfinibandCongestionControlTestSuite : public TestSuite
{
  public:
    InfinibandCongestionControlTestSuite()
        : TestSuite("ai-fabric-infiniband-cc", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new IbFecnBecnTestCase, AI_FABRIC_QUICK);
    }
};

static InfinibandCongestionControlTestSuite g_infinibandCongestionControlTestSuite;
