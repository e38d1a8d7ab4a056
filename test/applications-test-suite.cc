/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The ns-3-shaped API: topology helpers make NodeContainers (counts per family against
 * the closed forms), RoceFabricHelper / IbFabricHelper install on them and return every
 * port device, RdmaFlowApplication honours StartTime and StopTime and its messages take
 * the one-switch closed form, back to back; CollectiveHelper's collective gives the
 * record CollectiveWorkload gives for the same configuration, starts when its last rank
 * starts and stops at StopTime; bad input gives one clear error; the pcap and ascii
 * mixins write ns-3's files.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/collective-helper.h"
#include "ns3/collective-rank-application.h"
#include "ns3/collective-workload.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-hca.h"
#include "ns3/lambda-callback.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-flow-application.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-nic.h"
#include "ns3/routing-engine.h"
#include "ns3/scenario-config.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/system-path.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Two hosts on one leaf switch (one spine, unused), 100 Gb/s, 1 us cables.
Ptr<FabricTopology>
OneSwitch()
{
    Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
    h->SetAttribute("Leaves", UintegerValue(1));
    h->SetAttribute("Spines", UintegerValue(1));
    h->SetAttribute("HostsPerLeaf", UintegerValue(2));
    return h->CreateTopology();
}

Ptr<FabricTopology>
FatTree4()
{
    Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
    h->SetAttribute("K", UintegerValue(4));
    return h->CreateTopology();
}

/// The message of \p fn's std::invalid_argument, or "" if it throws none.
std::string
ErrorOf(const std::function<void()>& fn)
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
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

/**
 * Every family's CreateTopology makes GetSize()'s hosts and switches as Nodes; the fabric
 * gives each host one device and the switches the other end of every cable; host i's
 * Node carries host i's adapter.
 */
class TopologyNodesTestCase : public TestCase
{
  public:
    TopologyNodesTestCase()
        : TestCase("topology helpers make NodeContainers; fabric helpers install on them")
    {
    }

  private:
    void Check(Ptr<TopologyHelper> helper,
               uint32_t hosts,
               uint32_t switches,
               uint32_t cables,
               bool infiniband)
    {
        UsePicoseconds();
        const TopologyHelper::Size size = helper->GetSize();
        NS_TEST_ASSERT_MSG_EQ(size.hosts, hosts, "closed form hosts");
        NS_TEST_ASSERT_MSG_EQ(size.switches, switches, "closed form switches");
        Ptr<FabricTopology> t = helper->CreateTopology();
        NS_TEST_ASSERT_MSG_EQ(t->GetHosts().GetN(), hosts, "host Nodes");
        NS_TEST_ASSERT_MSG_EQ(t->GetSwitches().GetN(), switches, "switch Nodes");
        NS_TEST_ASSERT_MSG_EQ(t->GetNodes().GetN(), hosts + switches, "all Nodes");
        NS_TEST_ASSERT_MSG_EQ(t->GetHostDevices().GetN(), 0u, "no devices before a fabric");
        NetDeviceContainer devices;
        if (infiniband)
        {
            devices = IbFabricHelper().Install(t);
        }
        else
        {
            devices = RoceFabricHelper().Install(t);
        }
        NS_TEST_ASSERT_MSG_EQ(devices.GetN(), 2 * cables, "a device at each end of each cable");
        NS_TEST_ASSERT_MSG_EQ(t->GetHostDevices().GetN(), hosts, "one device per host");
        NS_TEST_ASSERT_MSG_EQ(t->GetSwitchDevices().GetN(), 2 * cables - hosts, "switch ports");
        NS_TEST_ASSERT_MSG_EQ(t->GetFabric()->GetNHosts(), hosts, "fabric hosts");
        for (uint32_t h = 0; h < hosts; ++h)
        {
            Ptr<RdmaNic> nic = t->GetHost(h)->GetObject<RdmaNic>();
            NS_TEST_ASSERT_MSG_NE(nic, nullptr, "host " << h << " has an adapter");
            NS_TEST_ASSERT_MSG_EQ(nic->GetHostIndex(), h, "host index of Node " << h);
            NS_TEST_ASSERT_MSG_EQ(RdmaEndpoint::Find(t->GetHost(h), "test")->GetHostIndex(),
                                  h,
                                  "endpoint of host " << h);
        }
        std::cout << helper->GetInstanceTypeId().GetName() << (infiniband ? " IB" : " RoCEv2")
                  << ": " << hosts << " hosts, " << switches << " switches, " << devices.GetN()
                  << " devices" << std::endl;
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        // Al-Fares: k^3/4 hosts, 5k^2/4 switches, 3k^3/4 cables.
        Check(ft, 16, 20, 48, false);
        Check(ft, 16, 20, 48, true);
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("Leaves", UintegerValue(4));
        ls->SetAttribute("Spines", UintegerValue(2));
        ls->SetAttribute("HostsPerLeaf", UintegerValue(4));
        Check(ls, 16, 6, 16 + 8, false);
        Ptr<TorusTopologyHelper> torus = CreateObject<TorusTopologyHelper>();
        torus->SetAttribute("Dims", StringValue("4x4"));
        torus->SetAttribute("HostsPerRouter", UintegerValue(1));
        Check(torus, 16, 16, 16 + 32, false); // 2 cables per router in a 2-D torus
        Ptr<MeshTopologyHelper> mesh = CreateObject<MeshTopologyHelper>();
        mesh->SetAttribute("Dims", StringValue("3x3"));
        mesh->SetAttribute("HostsPerRouter", UintegerValue(1));
        Check(mesh, 9, 9, 9 + 12, false); // 2 * 3 * (3 - 1) mesh cables
        Ptr<DragonflyTopologyHelper> df = CreateObject<DragonflyTopologyHelper>();
        df->SetAttribute("P", UintegerValue(1));
        df->SetAttribute("A", UintegerValue(2));
        df->SetAttribute("H", UintegerValue(1));
        df->SetAttribute("G", UintegerValue(3));
        // 3 groups of 2 routers with 1 host: 6 hosts; 3 local cables; 3 global ones.
        Check(df, 6, 6, 6 + 3 + 3, false);

        // One fabric per topology; an out-of-range host names the range.
        Ptr<FabricTopology> t = FatTree4();
        RoceFabricHelper roce;
        roce.Install(t);
        const std::string twice = ErrorOf([&]() { roce.Install(t); });
        NS_TEST_ASSERT_MSG_EQ(Contains(twice, "has a fabric already"), true, twice);
        std::string range;
        try
        {
            t->GetHost(16);
        }
        catch (const std::out_of_range& e)
        {
            range = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(Contains(range, "host 16 does not exist (the topology has 16"),
                              true,
                              range);
        Simulator::Destroy();
    }
};

/**
 * A flow application with StartTime 10 us posts nothing before 10 us; back to back, each
 * message is posted when the previous one completes and takes the one-switch closed
 * form; with an Interval it posts every Interval until StopTime.
 */
class FlowApplicationTestCase : public TestCase
{
  public:
    FlowApplicationTestCase()
        : TestCase("RdmaFlowApplication: start and stop times, completion times, trace")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<FabricTopology> t = OneSwitch();
        RoceFabricHelper roce;
        // Store-and-forward with the 300 ns default latency: the closed form below.
        roce.SetSwitchAttribute("CutThrough", BooleanValue(false));
        roce.SetSwitchAttribute("SwitchLatency", TimeValue(NanoSeconds(300)));
        roce.Install(t);
        RdmaFlowHelper flow(t->GetHost(1));
        flow.SetAttribute("MessageSize", UintegerValue(1000000));
        flow.SetAttribute("MaxMessages", UintegerValue(3));
        ApplicationContainer apps = flow.Install(t->GetHost(0));
        apps.Start(MicroSeconds(10));
        Ptr<RdmaFlowApplication> app = DynamicCast<RdmaFlowApplication>(apps.Get(0));
        uint32_t postedBefore = 99;
        uint32_t postedAt = 99;
        ScheduleLambda(MicroSeconds(10) - PicoSeconds(1),
                       [&]() { postedBefore = app->GetMessagesPosted(); });
        ScheduleLambda(MicroSeconds(10) + PicoSeconds(1),
                       [&]() { postedAt = app->GetMessagesPosted(); });
        uint32_t traced = 0;
        app->TraceConnectWithoutContext(
            "MessageCompleted",
            MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
                [&traced](const RdmaFabric::MessageRecord&) { traced++; }));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(postedBefore, 0u, "nothing posted before StartTime");
        NS_TEST_ASSERT_MSG_EQ(postedAt,
                              1u,
                              "the first message posted at StartTime (checked 1 ps after)");
        const auto& records = app->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 3u, "three messages");
        NS_TEST_ASSERT_MSG_EQ(traced, 3u, "MessageCompleted fired for each");
        NS_TEST_ASSERT_MSG_EQ(records[0].start, MicroSeconds(10), "posted at StartTime");
        // One switch, store-and-forward, 300 ns: (first + total) / R + L + 2d for the data,
        // 2 ack / R + L + 2d for the ACK (the frame sizes as rocev2-fabric's test).
        const double total = 1000000 + 1000 * 82.0 + 16 + 4;
        const double first = 1000 + 82 + 16;
        const double ack = 62 + 24;
        const double closed =
            OneSwitchWriteClosedForm(total, first, ack, 100e9, 1e-6, 300e-9, false);
        for (uint32_t i = 0; i < records.size(); ++i)
        {
            const double fct = (records[i].end - records[i].start).GetSeconds();
            std::cout << "message " << i << ": posted " << records[i].start.As(Time::US) << ", FCT "
                      << fct * 1e9 << " ns, closed form " << closed * 1e9 << " ns" << std::endl;
            NS_TEST_ASSERT_MSG_EQ_TOL(fct, closed, 2e-9, "message " << i << " closed form");
            NS_TEST_ASSERT_MSG_EQ(records[i].bytes, 1000000u, "bytes");
            NS_TEST_ASSERT_MSG_EQ(records[i].src, 0u, "source host");
            NS_TEST_ASSERT_MSG_EQ(records[i].dst, 1u, "destination host");
            if (i > 0)
            {
                NS_TEST_ASSERT_MSG_EQ(records[i].start,
                                      records[i - 1].end,
                                      "back to back: posted at the previous completion");
            }
        }
        Simulator::Destroy();

        // Open loop: every 20 us from 10 us, stopped at 55 us: posts at 10, 30 and 50 us.
        t = OneSwitch();
        roce.Install(t);
        RdmaFlowHelper paced(t->GetHost(1));
        paced.SetAttribute("MessageSize", UintegerValue(100000));
        paced.SetAttribute("MaxMessages", UintegerValue(10));
        paced.SetAttribute("Interval", TimeValue(MicroSeconds(20)));
        apps = paced.Install(t->GetHost(0));
        apps.Start(MicroSeconds(10));
        apps.Stop(MicroSeconds(55));
        app = DynamicCast<RdmaFlowApplication>(apps.Get(0));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(app->GetMessagesPosted(), 3u, "posts at 10, 30, 50 us only");
        NS_TEST_ASSERT_MSG_EQ(app->GetRecords().size(), 3u, "all three completed");
        for (uint32_t i = 0; i < app->GetRecords().size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(app->GetRecords()[i].start,
                                  MicroSeconds(10 + 20 * i),
                                  "post " << i << " on the Interval grid");
        }
        Simulator::Destroy();
    }
};

/**
 * CollectiveHelper's allreduce on the 16 hosts of a k=4 fat-tree gives, record for
 * record, what the runner's CollectiveWorkload gives for the same configuration; with
 * start times it starts when the last rank starts; StopTime stops further iterations.
 */
class CollectiveApplicationTestCase : public TestCase
{
  public:
    CollectiveApplicationTestCase()
        : TestCase("CollectiveHelper: records equal CollectiveWorkload's, start and stop")
    {
    }

  private:
    static std::vector<CollectiveRecord> RunWorkload(const std::string& algorithm,
                                                     uint64_t bytes,
                                                     uint32_t iterations)
    {
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        Ptr<TopologyGraph> g = ft->Build();
        Ptr<RoceFabric> fabric =
            RoceFabricHelper().Install(g,
                                       RoutingEngine::BuildTable(RoutingEngine::AutoName(*g), g));
        CollectiveWorkload::Options c;
        c.operation = "allreduce";
        c.algorithm = algorithm;
        c.bytes = bytes;
        c.ranks = 0;
        c.iterations = iterations;
        Ptr<CollectiveWorkload> w = CreateObject<CollectiveWorkload>();
        w->Setup(c, fabric);
        w->Start();
        Simulator::Run();
        std::vector<CollectiveRecord> records = w->GetApplication()->GetRecords();
        w->Dispose();
        fabric->Dispose();
        Simulator::Destroy();
        return records;
    }

    void DoRun() override
    {
        UsePicoseconds();
        for (const std::string algorithm : {"ring", "tree"})
        {
            const std::vector<CollectiveRecord> expected = RunWorkload(algorithm, 1000000, 2);
            Ptr<FabricTopology> t = FatTree4();
            RoceFabricHelper().Install(t);
            CollectiveHelper helper(algorithm, 1000000, 2);
            ApplicationContainer ranks = helper.Install(t->GetHosts());
            uint32_t traced = 0;
            for (uint32_t i = 0; i < ranks.GetN(); ++i)
            {
                ranks.Get(i)->TraceConnectWithoutContext(
                    "CollectiveCompleted",
                    MakeLambdaCallback<void, const CollectiveRecord&>(
                        [&traced](const CollectiveRecord&) { traced++; }));
            }
            Simulator::Run();
            Ptr<CollectiveRankApplication> rank0 =
                DynamicCast<CollectiveRankApplication>(ranks.Get(0));
            const std::vector<CollectiveRecord> got = rank0->GetRecords();
            NS_TEST_ASSERT_MSG_EQ(rank0->IsFinished(), true, "finished");
            NS_TEST_ASSERT_MSG_EQ(got.size(), expected.size(), "iterations");
            NS_TEST_ASSERT_MSG_EQ(traced, 16u * 2u, "every rank traced both operations");
            for (uint32_t i = 0; i < got.size(); ++i)
            {
                std::cout << algorithm << " iteration " << i << ": application "
                          << got[i].durationNs << " ns, workload " << expected[i].durationNs
                          << " ns, busbw " << got[i].busbwGBps << " GB/s" << std::endl;
                NS_TEST_ASSERT_MSG_EQ(got[i].startNs, expected[i].startNs, "start " << i);
                NS_TEST_ASSERT_MSG_EQ(got[i].endNs, expected[i].endNs, "end " << i);
                NS_TEST_ASSERT_MSG_EQ(got[i].algorithm, expected[i].algorithm, "algorithm");
                NS_TEST_ASSERT_MSG_EQ(got[i].ranks, 16u, "ranks");
                NS_TEST_ASSERT_MSG_EQ(got[i].busbwGBps, expected[i].busbwGBps, "busbw " << i);
            }
            Simulator::Destroy();
        }

        // Ranks starting at different times: the operation starts with the last one,
        // and lasts as long as from time 0 (the fabric is idle before).
        const std::vector<CollectiveRecord> fromZero = RunWorkload("ring", 1000000, 1);
        Ptr<FabricTopology> t = FatTree4();
        RoceFabricHelper().Install(t);
        ApplicationContainer ranks = CollectiveHelper("ring", 1000000, 1).Install(t->GetHosts());
        for (uint32_t i = 0; i < ranks.GetN(); ++i)
        {
            ranks.Get(i)->SetStartTime(MicroSeconds(1 + i)); // the last rank at 16 us
        }
        Simulator::Run();
        const auto& late = DynamicCast<CollectiveRankApplication>(ranks.Get(3))->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(late.size(), 1u, "one operation");
        NS_TEST_ASSERT_MSG_EQ(late[0].startNs, 16000, "starts when the last rank starts");
        NS_TEST_ASSERT_MSG_EQ(late[0].durationNs, fromZero[0].durationNs, "same duration");
        Simulator::Destroy();

        // StopTime: 5 iterations asked, stopped during the second one.
        t = FatTree4();
        RoceFabricHelper().Install(t);
        ranks = CollectiveHelper("ring", 1000000, 5).Install(t->GetHosts());
        const Time stop = NanoSeconds(fromZero[0].durationNs + fromZero[0].durationNs / 2);
        ranks.Get(5)->SetStopTime(stop);
        Simulator::Run();
        Ptr<CollectiveRankApplication> r0 = DynamicCast<CollectiveRankApplication>(ranks.Get(0));
        NS_TEST_ASSERT_MSG_EQ(r0->GetRecords().size(), 2u, "the running iteration finishes");
        NS_TEST_ASSERT_MSG_EQ(r0->IsFinished(), false, "stopped before its 5 iterations");
        Simulator::Destroy();

        // Two collectives on one fabric: their own tag spaces, both finish.
        t = FatTree4();
        RoceFabricHelper().Install(t);
        NodeContainer a;
        NodeContainer b;
        for (uint32_t i = 0; i < 16; ++i)
        {
            (i < 8 ? a : b).Add(t->GetHost(i));
        }
        ApplicationContainer ca = CollectiveHelper("ring", 200000, 2).Install(a);
        ApplicationContainer cb = CollectiveHelper("hd", 200000, 2).Install(b);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(DynamicCast<CollectiveRankApplication>(ca.Get(0))->IsFinished(),
                              true,
                              "first collective");
        NS_TEST_ASSERT_MSG_EQ(DynamicCast<CollectiveRankApplication>(cb.Get(0))->IsFinished(),
                              true,
                              "second collective");
        Simulator::Destroy();
    }
};

/**
 * SetCongestionControl(type, name, value): every queue pair gets a controller of that
 * type with that Attribute value (and the others at their defaults).
 */
class CongestionControlAttributesTestCase : public TestCase
{
  public:
    CongestionControlAttributesTestCase()
        : TestCase("SetCongestionControl(type, name, value) reaches every queue pair")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<FabricTopology> t = OneSwitch();
        RoceFabricHelper roce;
        roce.SetCongestionControl("ns3::DcqcnCongestionControl",
                                  "RateAI",
                                  DataRateValue(DataRate("7Mbps")),
                                  "MinRate",
                                  DataRateValue(DataRate("3Mbps")));
        roce.Install(t);
        RdmaFlowHelper(t->GetHost(1)).Install(t->GetHost(0));
        Simulator::Run();
        for (uint32_t h = 0; h < 2; ++h)
        {
            const auto qps = t->GetHost(h)->GetObject<RdmaNic>()->GetQueuePairs();
            NS_TEST_ASSERT_MSG_EQ(qps.size(), 1u, "one queue pair at host " << h);
            Ptr<RdmaCongestionControl> cc = qps[0]->GetCongestionControl();
            NS_TEST_ASSERT_MSG_EQ(cc->GetInstanceTypeId().GetName(),
                                  "ns3::DcqcnCongestionControl",
                                  "the type asked for");
            DataRateValue ai;
            DataRateValue min;
            cc->GetAttribute("RateAI", ai);
            cc->GetAttribute("MinRate", min);
            NS_TEST_ASSERT_MSG_EQ(ai.Get(), DataRate("7Mbps"), "RateAI as set");
            NS_TEST_ASSERT_MSG_EQ(min.Get(), DataRate("3Mbps"), "MinRate as set");
        }
        Simulator::Destroy();
    }
};

/// Bad input: one std::invalid_argument naming the value and what is allowed.
class BadInputTestCase : public TestCase
{
  public:
    BadInputTestCase()
        : TestCase("helpers and applications: bad input gives one clear error")
    {
    }

  private:
    void Expect(const std::function<void()>& fn, const std::string& part)
    {
        const std::string message = ErrorOf(fn);
        std::cout << "error: " << message << std::endl;
        NS_TEST_ASSERT_MSG_EQ(Contains(message, part), true, "'" << message << "' names " << part);
    }

    void DoRun() override
    {
        UsePicoseconds();
        Ptr<FabricTopology> t = FatTree4();
        RoceFabricHelper roce;
        Expect([&]() { roce.SetCongestionControl("ns3::NoSuchControl", "X", UintegerValue(1)); },
               "congestion control 'ns3::NoSuchControl' is not a registered one; allowed: "
               "ns3::DcqcnCongestionControl (dcqcn)");
        Expect(
            [&]() {
                roce.SetCongestionControl("ns3::DcqcnCongestionControl", "Bogus", UintegerValue(1));
            },
            "has no Attribute 'Bogus'");
        roce.Install(t);
        Ptr<Node> bare = CreateObject<Node>();
        Expect([&]() { CollectiveHelper("bogus", 1000, 1).Install(t->GetHosts()); },
               "Algorithm=bogus");
        Expect([&]() { CollectiveHelper("ring", 0, 1).Install(t->GetHosts()); },
               "Bytes is 0; allowed: 1 byte per rank or more");
        Expect(
            [&]() {
                NodeContainer ranks(t->GetHost(0), bare);
                CollectiveHelper("ring", 1000, 1).Install(ranks);
            },
            "node " + std::to_string(bare->GetId()) + " has no RDMA device");
        Expect([&]() { CollectiveHelper("ring", 1000, 1).Install(NodeContainer(t->GetHost(0))); },
               "1 ranks; allowed: 2 or more Nodes");
        Expect(
            [&]() { CollectiveHelper("ring", 1000, 1).SetAttribute("Colour", UintegerValue(1)); },
            "has no Attribute 'Colour'");
        Expect(
            [&]() { RdmaFlowHelper(t->GetHost(1)).SetAttribute("MessageSize", UintegerValue(0)); },
            "MessageSize=0 is out of range (Bytes of each RDMA WRITE message (1 .. 2^50)");
        Expect([&]() { CollectiveHelper("ring", 1000, 0); }, "Iterations=0 is out of range");
        Expect([&]() { RdmaFlowHelper flow(bare); },
               "node " + std::to_string(bare->GetId()) + " has no RDMA device");
        Expect([&]() { RdmaFlowHelper(t->GetHost(1)).Install(bare); }, "has no RDMA device");
        Expect([&]() { RdmaFlowHelper(t->GetHost(1)).Install(t->GetHost(1)); },
               "is the remote itself");
        Expect([&]() { RdmaFlowHelper(t->GetHost(1)).Install(t->GetSwitch(0)); },
               "has no RDMA device");
        Simulator::Destroy();
    }
};

/// The pcap and ascii mixins: ns-3's file names, nanosecond pcap, frames and events.
class TracingMixinTestCase : public TestCase
{
  public:
    TracingMixinTestCase()
        : TestCase("fabric helpers: EnablePcap and EnableAscii write ns-3's files")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        const std::string dir = CreateTempDirFilename("ai-fabric-apps");
        SystemPath::MakeDirectories(dir);
        for (bool infiniband : {false, true})
        {
            Ptr<FabricTopology> t = OneSwitch();
            RoceFabricHelper roce;
            IbFabricHelper ib;
            const std::string prefix = dir + (infiniband ? "/ib" : "/roce");
            if (infiniband)
            {
                ib.Install(t);
                ib.EnablePcap(prefix, t->GetHostDevices().Get(0));
                ib.EnableAscii(prefix, t->GetHostDevices().Get(0));
            }
            else
            {
                roce.Install(t);
                roce.EnablePcap(prefix, t->GetHostDevices().Get(0));
                roce.EnableAscii(prefix, t->GetHostDevices().Get(0));
                // One shared stream for both host ports: lines carry their Config path.
                AsciiTraceHelper asciiHelper;
                roce.EnableAscii(asciiHelper.CreateFileStream(prefix + "-shared.tr"),
                                 t->GetHostDevices());
            }
            RdmaFlowHelper flow(t->GetHost(1));
            flow.SetAttribute("MessageSize", UintegerValue(10000));
            flow.Install(t->GetHost(0));
            const uint32_t mtu = t->GetHost(0)->GetObject<RdmaNic>()->GetMtu();
            const uint32_t node = t->GetHost(0)->GetId();
            Simulator::Run();
            Simulator::Destroy();
            t->Dispose(); // the last references to the devices, whose sinks hold the files
            t = nullptr;
            // ns-3's names: PREFIX-NODEID-DEVICEINDEX.
            const std::string base = prefix + "-" + std::to_string(node) + "-0";
            std::ifstream pcap(base + ".pcap", std::ios::binary);
            NS_TEST_ASSERT_MSG_EQ(pcap.good(), true, base << ".pcap written");
            uint32_t header[6] = {};
            pcap.read(reinterpret_cast<char*>(header), sizeof(header));
            NS_TEST_ASSERT_MSG_EQ(header[0], 0xa1b23c4du, "nanosecond pcap magic");
            // InfiniBand: IbFabric's default PcapFormat, ERF (197): the first record is a
            // 16-byte ERF InfiniBand header (type 21, varying length, rlen 16 + wlen)
            // before the packet from its LRH.
            NS_TEST_ASSERT_MSG_EQ(header[5], (infiniband ? 197u : 1u), "link type");
            if (infiniband)
            {
                uint32_t record[4] = {}; // ts s, ts ns, incl_len, orig_len
                uint8_t erf[16] = {};
                pcap.read(reinterpret_cast<char*>(record), sizeof(record));
                pcap.read(reinterpret_cast<char*>(erf), sizeof(erf));
                const uint32_t rlen = (uint32_t(erf[10]) << 8) | erf[11];
                const uint32_t wlen = (uint32_t(erf[14]) << 8) | erf[15];
                NS_TEST_ASSERT_MSG_EQ(+erf[8], 21, "ERF type InfiniBand");
                NS_TEST_ASSERT_MSG_EQ(+erf[9], 4, "ERF flags: varying length");
                NS_TEST_ASSERT_MSG_EQ(rlen, record[2], "rlen = the record's bytes");
                NS_TEST_ASSERT_MSG_EQ(wlen + 16, record[3], "wlen = the packet's bytes");
                NS_TEST_ASSERT_MSG_GT(wlen, mtu, "a full data packet: LRH to VCRC");
            }
            pcap.seekg(0, std::ios::end);
            // Every payload byte passes host 0's port, with its headers.
            NS_TEST_ASSERT_MSG_GT(static_cast<uint64_t>(pcap.tellg()), 24u + 10000u, "frames");
            std::ifstream ascii(base + ".tr");
            uint32_t dequeues = 0;
            uint32_t receives = 0;
            std::string line;
            while (std::getline(ascii, line))
            {
                dequeues += line.rfind("- ", 0) == 0;
                receives += line.rfind("r ", 0) == 0;
            }
            std::cout << (infiniband ? "IB" : "RoCEv2") << " ascii: " << dequeues << " sent, "
                      << receives << " received" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(dequeues,
                                  (10000 + mtu - 1) / mtu,
                                  "host 0 sent 10000 bytes in packets of MTU " << mtu);
            if (!infiniband)
            {
                NS_TEST_ASSERT_MSG_GT(receives, 0u, "ACKs received on RoCEv2");
                // The shared stream: host 0's sends with its path, host 1's receives.
                std::ifstream shared(prefix + "-shared.tr");
                const std::string host0 = "/NodeList/" + std::to_string(node) + "/DeviceList/0/";
                uint32_t host0Sends = 0;
                uint32_t lines = 0;
                while (std::getline(shared, line))
                {
                    lines++;
                    host0Sends += line.rfind("- ", 0) == 0 && Contains(line, host0);
                }
                NS_TEST_ASSERT_MSG_EQ(host0Sends, dequeues, "host 0's sends in the shared stream");
                // Host 1 receives the 10 data packets and sends the ACK(s) host 0 received.
                NS_TEST_ASSERT_MSG_EQ(lines, 2 * (dequeues + receives), "both ports' events");
            }
        }
    }
};

/// The applications on InfiniBand: the same helpers, a flow and a collective finish.
class InfinibandApplicationsTestCase : public TestCase
{
  public:
    InfinibandApplicationsTestCase()
        : TestCase("applications on InfiniBand: flow near its unloaded time, collective done")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<FabricTopology> t = FatTree4();
        IbFabricHelper ib;
        ib.SetHcaAttribute("Mtu", UintegerValue(4096));
        ib.Install(t);
        RdmaFlowHelper flow(t->GetHost(15));
        flow.SetAttribute("MessageSize", UintegerValue(1 << 20));
        ApplicationContainer f = flow.Install(t->GetHost(0));
        f.Start(MicroSeconds(3));
        NodeContainer ranks;
        for (uint32_t i = 4; i < 12; ++i)
        {
            ranks.Add(t->GetHost(i));
        }
        ApplicationContainer c = CollectiveHelper("ring", 1 << 20, 1).Install(ranks);
        Simulator::Run();
        const auto& records = DynamicCast<RdmaFlowApplication>(f.Get(0))->GetRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, "one message");
        const double fct = (records[0].end - records[0].start).GetSeconds();
        std::cout << "IB flow: FCT " << fct * 1e6 << " us, unloaded "
                  << records[0].ideal.GetSeconds() * 1e6 << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(records[0].start, MicroSeconds(3), "posted at StartTime");
        // 2^20 bytes at 100 Gb/s take 83.9 us; the unloaded time adds framing and path.
        NS_TEST_ASSERT_MSG_GT(fct, (1 << 20) * 8 / 100e9, "no faster than the payload");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct, records[0].ideal.GetSeconds(), 0.05 * fct, "near unloaded");
        NS_TEST_ASSERT_MSG_EQ(DynamicCast<CollectiveRankApplication>(c.Get(0))->IsFinished(),
                              true,
                              "collective finished");
        Simulator::Destroy();
    }
};

class ApplicationsTestSuite : public TestSuite
{
  public:
    ApplicationsTestSuite()
        : TestSuite("ai-fabric-applications", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new TopologyNodesTestCase);
        AddTestCase(new FlowApplicationTestCase);
        AddTestCase(new CollectiveApplicationTestCase);
        AddTestCase(new CongestionControlAttributesTestCase);
        AddTestCase(new BadInputTestCase);
        AddTestCase(new TracingMixinTestCase);
        AddTestCase(new InfinibandApplicationsTestCase);
    }
};

static ApplicationsTestSuite g_applicationsTestSuite;
