/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * CollNet / SHARP: NCCL's CollNet allreduce over InfiniBand switches that reduce
 * (SharpAggregationEngine, trees from the AggregationManager). Each server sends S into
 * the network instead of a ring's 2 (N-1)/N S (NVIDIA/nccl issue 457; issue 1242: an
 * in-network reduction halves an allreduce's time), so busbw gains ~2 (N-1)/N over the
 * ring; a second job that finds no tree left falls back to the ring; fewer events.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/aggregation-manager.h"
#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/collective-protocol.h"
#include "ns3/collnet-allreduce.h"
#include "ns3/communicator.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/pointer.h"
#include "ns3/rail-topology-helper.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/routing-engine.h"
#include "ns3/sharp-aggregation-engine.h"
#include "ns3/sharp-hca-port.h"
#include "ns3/sharp-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What one allreduce measured.
struct CollNetRun
{
    std::string ran; //!< the algorithm that ran (GetName)
    bool finished{false};
    bool verified{false};
    std::string why;
    double busbwGBps{0};
    double algbwGBps{0};
    uint64_t events{0};
    std::vector<uint64_t> serverUp;   //!< per server: bytes sent into the network
    std::vector<uint64_t> serverDown; //!< per server: bytes received from it
    uint64_t aggregated{0};           //!< AGGREGATE frames the switches absorbed
    uint64_t openEntries{0};          //!< entries left open
    uint64_t peakBuffer{0};           //!< most aggregation buffer bytes any switch held
    uint64_t peakOutstanding{0};      //!< most payload bytes a host had outstanding
    uint64_t creditOverflows{0};      //!< must stay 0
};

const uint64_t kBytes = 32000000;

/// \p alg on 16 one-NIC hosts (4 leaves of 4, 2 spines, 100 Gb/s, MTU 4096), InfiniBand.
CollNetRun
RunLeafSpine(const std::string& alg)
{
    UsePicoseconds();
    Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
    h->SetAttribute("Leaves", UintegerValue(4));
    h->SetAttribute("Spines", UintegerValue(2));
    h->SetAttribute("HostsPerLeaf", UintegerValue(4));
    h->SetLinks(DataRate("100Gbps"), MicroSeconds(1), DataRate("200Gbps"), MicroSeconds(1));
    Ptr<TopologyGraph> g = h->Build();
    IbFabricHelper helper;
    helper.SetHcaAttribute("Mtu", UintegerValue(4096));
    Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("auto", g));
    Ptr<AggregationManager> am = fabric->GetObject<AggregationManager>();
    NS_ABORT_UNLESS(am);
    Ptr<RdmaCollectiveTransport> transport = CreateObject<RdmaCollectiveTransport>();
    // Receives matched in advance, as the scenario runner does: each connection then
    // posts in transfer order.
    transport->SetAttribute("MatchInAdvance", BooleanValue(true));
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < 16; ++i)
    {
        hosts.push_back(i);
    }
    transport->Attach(fabric, hosts);
    Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
    app->SetAttribute("TagSpace", UintegerValue(transport->GetTagSpace()));
    app->SetTransport(transport);
    Ptr<CollectiveAlgorithm> a = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, alg);
    a->SetAttribute("TrackContributions", BooleanValue(true));
    a->SetAttributeFailSafe("AggregationManager", PointerValue(am));
    a->SetAttributeFailSafe("Fabric", StringValue("infiniband"));
    app->AddJob(Communicator::AllHosts(16), a, kBytes);
    const uint64_t eventsBefore = Simulator::GetEventCount();
    app->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    CollNetRun r;
    r.ran = a->GetName();
    r.events = Simulator::GetEventCount() - eventsBefore;
    r.finished = app->IsFinished();
    r.verified = a->VerifyContributions(&r.why);
    const auto records = app->GetRecords();
    r.busbwGBps = records.empty() ? 0.0 : records.back().busbwGBps;
    r.algbwGBps = records.empty() ? 0.0 : records.back().algbwGBps;
    for (uint32_t host = 0; host < 16; ++host)
    {
        const TopologyGraph::Port& up = g->GetPorts(g->GetHosts()[host])[0];
        r.serverUp.push_back(fabric->GetHca(host)->GetDevice()->GetTxBytes());
        r.serverDown.push_back(fabric->GetDevice(up.peer, up.peerPort)->GetTxBytes());
        if (Ptr<SharpHcaPort> p = am->GetHostPort(host))
        {
            r.peakOutstanding = std::max(r.peakOutstanding, p->GetPeakOutstanding());
        }
    }
    for (uint32_t s : g->GetSwitches())
    {
        if (Ptr<SharpAggregationEngine> e = am->GetEngine(s))
        {
            r.aggregated += e->GetAggregated();
            r.openEntries += e->GetOpenEntries();
            r.peakBuffer = std::max(r.peakBuffer, e->GetPeakBufferBytes());
        }
    }
    for (const auto& dev : fabric->GetAllDevices())
    {
        r.creditOverflows += dev->GetCreditOverflows();
    }
    app->Dispose();
    a->Dispose();
    transport->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

/**
 * 32 MB allreduce on 16 one-NIC hosts, collnet against ring: both verify; every host
 * sends S (+ 42 bytes per 4096-byte frame) into the network and receives S under
 * collnet, the ring's 2 (N-1)/N S; busbw gains 2 (N-1)/N = 1.875 within 10%; algbw is
 * ~95% of the link (ISC 2020's SHARP streaming aggregation figure); the switches' entries
 * all closed within their buffer; fewer events.
 */
class CollNetLeafSpineTestCase : public TestCase
{
  public:
    CollNetLeafSpineTestCase()
        : TestCase("collnet on 16 hosts: S per host into the network, ~1.875x the ring's busbw, "
                   "fewer events")
    {
    }

  private:
    void DoRun() override
    {
        const CollNetRun ring = RunLeafSpine("ring");
        const CollNetRun sharp = RunLeafSpine("collnet");
        NS_TEST_ASSERT_MSG_EQ(sharp.ran, "collnet", "a tree was given");
        NS_TEST_ASSERT_MSG_EQ(ring.finished, true, "ring completes");
        NS_TEST_ASSERT_MSG_EQ(sharp.finished, true, "collnet completes");
        NS_TEST_ASSERT_MSG_EQ(ring.verified, true, ring.why);
        NS_TEST_ASSERT_MSG_EQ(sharp.verified, true, sharp.why);
        NS_TEST_ASSERT_MSG_EQ(sharp.creditOverflows, 0, "lossless");
        const double n = 16;
        const double frame = (4096.0 + SharpHeader::FRAME_OVERHEAD) / 4096.0;
        for (uint32_t host = 0; host < 16; ++host)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(sharp.serverUp[host] / (kBytes * frame),
                                      1.0,
                                      0.005,
                                      "collnet: S up per host (+ frame headers)");
            NS_TEST_ASSERT_MSG_EQ_TOL(sharp.serverDown[host] / (kBytes * frame),
                                      1.0,
                                      0.005,
                                      "collnet: S down per host");
            NS_TEST_ASSERT_MSG_GT(ring.serverUp[host] / double(kBytes),
                                  2 * (n - 1) / n,
                                  "ring: 2 (N-1)/N S up per host");
        }
        const double gain = sharp.busbwGBps / ring.busbwGBps;
        std::cout << "busbw: ring " << ring.busbwGBps << " GB/s, collnet " << sharp.busbwGBps
                  << " GB/s (x" << gain << "); algbw collnet " << sharp.algbwGBps
                  << " GB/s; events: ring " << ring.events << ", collnet " << sharp.events
                  << "; peak buffer " << sharp.peakBuffer << " B, peak outstanding "
                  << sharp.peakOutstanding << " B" << std::endl;
        ReportValidation("collnet-16-busbw-gain", gain);
        ReportValidation("collnet-16-busbw-gain.expected", 2 * (n - 1) / n);
        const double share = sharp.algbwGBps / 12.5; // 100 Gb/s = 12.5 GB/s
        ReportValidation("collnet-16-link-share", share);
        NS_TEST_ASSERT_MSG_EQ_TOL(gain / (2 * (n - 1) / n), 1.0, 0.1, "~2 (N-1)/N the ring's");
        NS_TEST_ASSERT_MSG_EQ_TOL(share / 0.95, 1.0, 0.06, "~95% of the link (ISC 2020)");
        NS_TEST_ASSERT_MSG_LT(sharp.events, ring.events, "collnet: fewer events than the ring");
        ReportValidation("collnet-16-events-ratio", double(sharp.events) / ring.events);
        NS_TEST_ASSERT_MSG_EQ(sharp.openEntries, 0, "every aggregation entry closed");
        NS_TEST_ASSERT_MSG_GT(sharp.aggregated, 0, "the switches aggregated");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sharp.peakBuffer,
                                    CreateObject<SharpAggregationEngine>()->GetBufferBytes(),
                                    "within the aggregation buffer");
    }
};

/**
 * Two jobs on the same 16 hosts (even and odd hosts), each asking for a tree: with
 * Quantum's one tree per switch the second finds no leaf with a tree left and runs the
 * ring (and says why); with two trees per switch both run collnet. Both verify.
 */
class CollNetFallbackTestCase : public TestCase
{
  public:
    CollNetFallbackTestCase()
        : TestCase("two collnet jobs, one tree per switch: the second falls back to the ring")
    {
    }

  private:
    /// The two jobs' algorithms' names and the second's fallback reason.
    std::vector<std::string> Run(uint32_t maxTrees, bool* verified, uint32_t* refusals)
    {
        UsePicoseconds();
        Config::SetDefault("ns3::SharpAggregationEngine::MaxTrees", UintegerValue(maxTrees));
        Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
        h->SetAttribute("Leaves", UintegerValue(4));
        h->SetAttribute("Spines", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(4));
        Ptr<TopologyGraph> g = h->Build();
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(4096));
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("auto", g));
        Ptr<AggregationManager> am = fabric->GetObject<AggregationManager>();
        std::vector<uint32_t> all;
        for (uint32_t i = 0; i < 16; ++i)
        {
            all.push_back(i);
        }
        std::vector<Ptr<CollectiveApplication>> apps;
        std::vector<Ptr<CollectiveAlgorithm>> algs;
        std::vector<Ptr<RdmaCollectiveTransport>> transports;
        for (uint32_t job = 0; job < 2; ++job)
        {
            Ptr<RdmaCollectiveTransport> t = CreateObject<RdmaCollectiveTransport>();
            t->SetAttribute("TagSpace", UintegerValue(0xC0 + job));
            t->Attach(fabric, all);
            Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
            app->SetAttribute("TagSpace", UintegerValue(0xC0 + job));
            app->SetTransport(t);
            Ptr<CollectiveAlgorithm> a =
                CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "collnet");
            a->SetAttribute("TrackContributions", BooleanValue(true));
            a->SetAttribute("AggregationManager", PointerValue(am));
            std::vector<uint32_t> hosts;
            for (uint32_t i = job; i < 16; i += 2)
            {
                hosts.push_back(i);
            }
            app->AddJob(Communicator(hosts), a, 4000000);
            apps.push_back(app);
            algs.push_back(a);
            transports.push_back(t);
        }
        for (auto& app : apps)
        {
            app->Start();
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        *verified = true;
        for (uint32_t job = 0; job < 2; ++job)
        {
            std::string why;
            *verified =
                *verified && apps[job]->IsFinished() && algs[job]->VerifyContributions(&why);
        }
        *refusals = am->GetRefusals();
        std::vector<std::string> names{algs[0]->GetName(),
                                       algs[1]->GetName(),
                                       algs[1]->GetFallbackReason()};
        for (uint32_t job = 0; job < 2; ++job)
        {
            apps[job]->Dispose();
            algs[job]->Dispose();
            transports[job]->Dispose();
        }
        fabric->Dispose();
        Simulator::Destroy();
        Config::Reset();
        return names;
    }

    void DoRun() override
    {
        bool verified = false;
        uint32_t refusals = 0;
        std::vector<std::string> one = Run(1, &verified, &refusals);
        std::cout << "one tree per switch: " << one[0] << ", " << one[1] << " (" << one[2] << ")"
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(verified, true, "both jobs complete and verify");
        NS_TEST_ASSERT_MSG_EQ(one[0], "collnet", "the first job has its tree");
        NS_TEST_ASSERT_MSG_EQ(one[1], "ring", "the second falls back to the ring");
        NS_TEST_ASSERT_MSG_EQ(one[2].empty(), false, "and says why");
        NS_TEST_ASSERT_MSG_EQ(refusals, 1, "the manager refused one tree");
        std::vector<std::string> two = Run(2, &verified, &refusals);
        NS_TEST_ASSERT_MSG_EQ(verified, true, "both jobs complete and verify");
        NS_TEST_ASSERT_MSG_EQ(two[0], "collnet", "first");
        NS_TEST_ASSERT_MSG_EQ(two[1], "collnet", "with two trees per switch the second too");
        NS_TEST_ASSERT_MSG_EQ(refusals, 0, "nothing refused");
    }
};

/**
 * GPU servers (4 servers x 4 GPUs, rail-only, InfiniBand): reduce-scatter inside each
 * server, one SHARP tree per rail, all-gather inside; each server's NICs together send S
 * and receive S; verified; fewer events than the ring.
 */
class CollNetGpuServersTestCase : public TestCase
{
  public:
    CollNetGpuServersTestCase()
        : TestCase("collnet on 4 servers of 4 GPUs: a tree per rail, S per server into the "
                   "network")
    {
    }

  private:
    CollNetRun Run(const std::string& alg)
    {
        UsePicoseconds();
        const uint32_t servers = 4;
        const uint32_t gpus = 4;
        Ptr<RailTopologyHelper> h = CreateObject<RailTopologyHelper>();
        h->SetAttribute("Servers", UintegerValue(servers));
        h->SetAttribute("GpusPerServer", UintegerValue(gpus));
        h->SetAttribute("ScaleUpRate", DataRateValue(DataRate("1600Gbps")));
        h->SetLinks(DataRate("100Gbps"), NanoSeconds(500), DataRate("100Gbps"), NanoSeconds(500));
        Ptr<TopologyGraph> g = h->Build();
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(4096));
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("auto", g));
        Ptr<AggregationManager> am = fabric->GetObject<AggregationManager>();
        const uint32_t n = servers * gpus;
        std::vector<uint32_t> hosts;
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts.push_back(i);
        }
        Ptr<RdmaCollectiveTransport> transport = CreateObject<RdmaCollectiveTransport>();
        transport->SetAttribute("MatchInAdvance", BooleanValue(true));
        transport->Attach(fabric, hosts);
        Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
        app->SetAttribute("TagSpace", UintegerValue(transport->GetTagSpace()));
        app->SetTransport(transport);
        Ptr<CollectiveAlgorithm> a = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, alg);
        a->SetAttribute("TrackContributions", BooleanValue(true));
        a->SetAttribute("Channels", UintegerValue(8));
        a->SetAttributeFailSafe("GpusPerServer", UintegerValue(gpus));
        a->SetAttributeFailSafe("AggregationManager", PointerValue(am));
        app->AddJob(Communicator::AllHosts(n), a, kBytes);
        const uint64_t eventsBefore = Simulator::GetEventCount();
        app->Start();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        CollNetRun r;
        r.ran = a->GetName();
        r.events = Simulator::GetEventCount() - eventsBefore;
        r.finished = app->IsFinished();
        r.verified = a->VerifyContributions(&r.why);
        const auto records = app->GetRecords();
        r.busbwGBps = records.empty() ? 0.0 : records.back().busbwGBps;
        for (uint32_t s = 0; s < servers; ++s)
        {
            // Crossbar s's uplinks 0..G-1 are its GPUs' NIC cables.
            const uint32_t xbar = g->GetShape().firstScaleUpSwitch + s;
            uint64_t up = 0;
            uint64_t down = 0;
            for (uint32_t j = 0; j < gpus; ++j)
            {
                up += fabric->GetDevice(xbar, j)->GetTxBytes();
                const TopologyGraph::Port& nic = g->GetPorts(xbar)[j];
                down += fabric->GetDevice(nic.peer, nic.peerPort)->GetTxBytes();
            }
            r.serverUp.push_back(up);
            r.serverDown.push_back(down);
        }
        for (uint32_t s : g->GetSwitches())
        {
            if (Ptr<SharpAggregationEngine> e = am->GetEngine(s))
            {
                r.openEntries += e->GetOpenEntries();
            }
        }
        app->Dispose();
        a->Dispose();
        transport->Dispose();
        fabric->Dispose();
        Simulator::Destroy();
        Config::Reset();
        return r;
    }

    void DoRun() override
    {
        const CollNetRun ring = Run("ring");
        const CollNetRun sharp = Run("collnet");
        NS_TEST_ASSERT_MSG_EQ(sharp.ran, "collnet", "trees were given");
        NS_TEST_ASSERT_MSG_EQ(sharp.finished, true, "collnet completes");
        NS_TEST_ASSERT_MSG_EQ(sharp.verified, true, sharp.why);
        NS_TEST_ASSERT_MSG_EQ(ring.verified, true, ring.why);
        const double frame = (4096.0 + SharpHeader::FRAME_OVERHEAD) / 4096.0;
        for (uint32_t s = 0; s < 4; ++s)
        {
            std::cout << "server " << s << ": collnet up " << sharp.serverUp[s] / double(kBytes)
                      << " S, down " << sharp.serverDown[s] / double(kBytes) << " S; ring up "
                      << ring.serverUp[s] / double(kBytes) << " S" << std::endl;
            NS_TEST_ASSERT_MSG_EQ_TOL(sharp.serverUp[s] / (kBytes * frame),
                                      1.0,
                                      0.01,
                                      "S per server into the network");
            NS_TEST_ASSERT_MSG_EQ_TOL(sharp.serverDown[s] / (kBytes * frame),
                                      1.0,
                                      0.01,
                                      "S per server from it");
        }
        std::cout << "busbw: ring " << ring.busbwGBps << " GB/s, collnet " << sharp.busbwGBps
                  << " GB/s; events: ring " << ring.events << ", collnet " << sharp.events
                  << std::endl;
        NS_TEST_ASSERT_MSG_GT(sharp.busbwGBps, ring.busbwGBps, "collnet beats the ring");
        NS_TEST_ASSERT_MSG_LT(sharp.events, ring.events, "fewer events");
        NS_TEST_ASSERT_MSG_EQ(sharp.openEntries, 0, "every entry closed");
    }
};

/// collnet refuses a fabric without an Aggregation Manager and ranks that are not whole
/// servers; the SHARP header round-trips its fields.
class CollNetRefusesTestCase : public TestCase
{
  public:
    CollNetRefusesTestCase()
        : TestCase("collnet refuses RoCEv2 and partial servers; the SHARP header round-trips")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string fabric : {"rocev2", ""})
        {
            Ptr<CollectiveAlgorithm> a =
                CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "collnet");
            a->SetAttribute("Fabric", StringValue(fabric));
            bool refused = false;
            try
            {
                a->Setup(Communicator::AllHosts(8), 1 << 20);
            }
            catch (const std::invalid_argument& e)
            {
                refused = true;
                std::cout << e.what() << std::endl;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "refused without a manager: " << fabric);
        }
        Ptr<AggregationManager> am = CreateObject<AggregationManager>();
        Ptr<CollectiveAlgorithm> a =
            CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "collnet");
        a->SetAttribute("AggregationManager", PointerValue(am));
        a->SetAttribute("GpusPerServer", UintegerValue(8));
        bool refused = false;
        try
        {
            a->Setup(Communicator::AllHosts(12), 1 << 20);
        }
        catch (const std::invalid_argument& e)
        {
            refused = true;
            std::cout << e.what() << std::endl;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "12 ranks in servers of 8");
        a->SetAttribute("GpusPerServer", UintegerValue(1));
        a->SetProtocol(CollectiveProtocol::Create("ll"));
        refused = false;
        try
        {
            a->Setup(Communicator::AllHosts(8), 1 << 20);
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("protocol 'll'") != std::string::npos;
            std::cout << e.what() << std::endl;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "CollNet runs Simple only");
        SharpHeader h;
        h.kind = SharpHeader::RESULT;
        h.tree = 0x1234;
        h.epoch = 0xBEEF;
        h.operation = 0xDEADBEEF;
        h.frame = 7;
        h.frames = 9;
        h.payload = 4096;
        Ptr<Packet> p = Create<Packet>(0);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), SharpHeader::SIZE, "16 bytes");
        SharpHeader back;
        p->RemoveHeader(back);
        NS_TEST_ASSERT_MSG_EQ(+back.kind, +h.kind, "kind");
        NS_TEST_ASSERT_MSG_EQ(back.tree, h.tree, "tree");
        NS_TEST_ASSERT_MSG_EQ(back.epoch, h.epoch, "epoch");
        NS_TEST_ASSERT_MSG_EQ(back.operation, h.operation, "operation");
        NS_TEST_ASSERT_MSG_EQ(back.frame, h.frame, "frame");
        NS_TEST_ASSERT_MSG_EQ(back.frames, h.frames, "frames");
        NS_TEST_ASSERT_MSG_EQ(back.payload, h.payload, "payload");
    }
};

/// The suite.
class CollNetTestSuite : public TestSuite
{
  public:
    CollNetTestSuite()
        : TestSuite("ai-fabric-collnet", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new CollNetRefusesTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new CollNetLeafSpineTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new CollNetFallbackTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new CollNetGpuServersTestCase(), AI_FABRIC_QUICK);
    }
};

static CollNetTestSuite g_collnetTestSuite;
