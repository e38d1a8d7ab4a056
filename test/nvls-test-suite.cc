/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NVLS (NCCL's NVLink SHARP allreduce) in one 8-GPU server: the crossbar sums and
 * multicasts (NvlsSwitchEngine), each GPU's scale-up cable carries S (N + 1) / N bytes
 * each way instead of a ring's 2 (N - 1) / N S, and busbw lands near the ~480 GB/s
 * measured on 8 H100s (against ~370 GB/s for the ring, NVIDIA/nccl issue 1455, NVIDIA/
 * nccl-tests issue 212), with fewer simulator events than the ring.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/communicator.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/node.h"
#include "ns3/nvls-allreduce.h"
#include "ns3/nvls-header.h"
#include "ns3/nvls-switch-engine.h"
#include "ns3/pointer.h"
#include "ns3/rail-topology-helper.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uet-fabric-helper.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kGpus = 8;
const uint64_t kBytes = 64000000; // 64 MB, nccl-tests' figures are for large messages

/// What one allreduce on the 8-GPU server measured.
struct NvlsRun
{
    bool finished{false};
    bool verified{false};
    std::string why;
    double busbwGBps{0};
    uint64_t events{0};
    uint64_t gpuUp[kGpus]{};   //!< frame bytes each GPU sent on its scale-up cable
    uint64_t gpuDown[kGpus]{}; //!< frame bytes the crossbar sent to each GPU
    uint64_t contributions{0}; //!< NVLS contribution frames the crossbar absorbed
    uint64_t results{0};       //!< NVLS result frames it sent
    uint64_t copies{0};        //!< NVLS multicast copies it sent
    uint64_t openEntries{0};   //!< aggregation entries left open
};

/// One server of 8 GPUs as the dgx-h100-roce preset describes it (NVLink 4: 3600 Gb/s,
/// payload share 0.824, 150 ns; MTU 4096; crossbar latency 300 ns), NCCL's 16 channels.
NvlsRun
RunServer(const std::string& alg)
{
    UsePicoseconds();
    Ptr<RailTopologyHelper> h = CreateObject<RailTopologyHelper>();
    h->SetAttribute("Servers", UintegerValue(1));
    h->SetAttribute("GpusPerServer", UintegerValue(kGpus));
    h->SetAttribute("ScaleUpRate", DataRateValue(DataRate("3600Gbps")));
    h->SetAttribute("ScaleUpEfficiency", DoubleValue(0.824));
    h->SetAttribute("ScaleUpDelay", TimeValue(NanoSeconds(150)));
    h->SetLinks(DataRate("400Gbps"), NanoSeconds(500), DataRate("400Gbps"), NanoSeconds(500));
    Ptr<TopologyGraph> g = h->Build();
    RoceFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(4096));
    helper.SetCongestionControl("none");
    Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("auto", g));
    Ptr<RdmaCollectiveTransport> transport = CreateObject<RdmaCollectiveTransport>();
    transport->Attach(fabric, std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
    app->SetAttribute("TagSpace", UintegerValue(transport->GetTagSpace()));
    app->SetTransport(transport);
    Ptr<CollectiveAlgorithm> a = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, alg);
    a->SetAttribute("TrackContributions", BooleanValue(true));
    a->SetAttribute("Channels", UintegerValue(16));
    a->SetAttributeFailSafe("GpusPerServer", UintegerValue(kGpus));
    a->SetAttributeFailSafe("Fabric", StringValue("rocev2"));
    app->AddJob(Communicator::AllHosts(kGpus), a, kBytes);
    const uint64_t eventsBefore = Simulator::GetEventCount();
    app->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    NvlsRun r;
    r.events = Simulator::GetEventCount() - eventsBefore;
    r.finished = app->IsFinished();
    r.verified = a->VerifyContributions(&r.why);
    const auto records = app->GetRecords();
    r.busbwGBps = records.empty() ? 0.0 : records.back().busbwGBps;
    const uint32_t xbar = g->GetShape().firstScaleUpSwitch;
    Ptr<RoceSwitch> sw = fabric->GetNodes().Get(xbar)->GetObject<RoceSwitch>();
    for (uint32_t gpu = 0; gpu < kGpus; ++gpu)
    {
        const TopologyGraph::Port& up = g->GetPorts(g->GetHosts()[gpu])[0];
        NS_ABORT_UNLESS(up.peer == xbar);
        r.gpuUp[gpu] = fabric->GetNic(gpu)->GetDevice()->GetTxBytes();
        r.gpuDown[gpu] = sw->GetPort(up.peerPort)->GetTxBytes();
    }
    if (Ptr<NvlsSwitchEngine> e = fabric->GetNodes().Get(xbar)->GetObject<NvlsSwitchEngine>())
    {
        r.contributions = e->GetContributions();
        r.results = e->GetResults();
        r.copies = e->GetMulticastCopies();
        r.openEntries = e->GetOpenEntries();
    }
    app->Dispose();
    transport->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    Config::Reset();
    return r;
}

} // namespace

/**
 * 64 MB allreduce on one 8-GPU server, nvls against ring: both verify their
 * contributions; nvls busbw within 10% of 480 GB/s and ring within 10% of 370 GB/s; every
 * GPU's scale-up cable carries (N + 1) / N x S (+ frame headers) each way under nvls, a
 * ring's 2 (N - 1) / N x S; the crossbar absorbed N contributions per result frame and
 * sent N copies per multicast frame, every aggregation entry closed; nvls costs fewer
 * events than the ring.
 */
class NvlsServerTestCase : public TestCase
{
  public:
    NvlsServerTestCase()
        : TestCase("nvls on 8 GPUs: in-switch reduction and multicast, about 480 GBps against "
                   "the ring's 370, S (N+1) over N per cable, fewer events")
    {
    }

  private:
    void DoRun() override
    {
        const NvlsRun ring = RunServer("ring");
        const NvlsRun nvls = RunServer("nvls");
        NS_TEST_ASSERT_MSG_EQ(ring.finished, true, "ring completes");
        NS_TEST_ASSERT_MSG_EQ(nvls.finished, true, "nvls completes");
        NS_TEST_ASSERT_MSG_EQ(ring.verified, true, ring.why);
        NS_TEST_ASSERT_MSG_EQ(nvls.verified, true, nvls.why);
        std::cout << "busbw: ring " << ring.busbwGBps << " GB/s, nvls " << nvls.busbwGBps
                  << " GB/s; events: ring " << ring.events << ", nvls " << nvls.events << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(ring.busbwGBps / 370.0, 1.0, 0.1, "ring ~370 GB/s");
        NS_TEST_ASSERT_MSG_EQ_TOL(nvls.busbwGBps / 480.0, 1.0, 0.1, "nvls ~480 GB/s");
        NS_TEST_ASSERT_MSG_LT(nvls.events, ring.events, "nvls: fewer events than the ring");
        // Frame bytes per payload byte of an NVLS frame: 18 bytes of Ethernet and 802.1Q,
        // the 16-byte NvlsHeader, per 4096 of payload.
        const double nvlsFrame = (4096.0 + 18 + NvlsHeader::SIZE) / 4096.0;
        const double n = kGpus;
        for (uint32_t gpu = 0; gpu < kGpus; ++gpu)
        {
            const double up = nvls.gpuUp[gpu] / (kBytes * (n + 1) / n * nvlsFrame);
            const double down = nvls.gpuDown[gpu] / (kBytes * (n + 1) / n * nvlsFrame);
            std::cout << "GPU " << gpu << ": nvls up " << nvls.gpuUp[gpu] / double(kBytes)
                      << " S, down " << nvls.gpuDown[gpu] / double(kBytes) << " S; ring up "
                      << ring.gpuUp[gpu] / double(kBytes) << " S" << std::endl;
            NS_TEST_ASSERT_MSG_EQ_TOL(up, 1.0, 0.01, "nvls: S (N+1)/N up each GPU's cable");
            NS_TEST_ASSERT_MSG_EQ_TOL(down, 1.0, 0.01, "nvls: S (N+1)/N down");
            NS_TEST_ASSERT_MSG_GT(ring.gpuUp[gpu] / double(kBytes),
                                  2 * (n - 1) / n,
                                  "ring: 2 (N-1)/N S up (+ headers)");
        }
        // Frames of 4096 bytes: per slice frame one result from N contributions, N copies
        // per multicast frame.
        NS_TEST_ASSERT_MSG_EQ(nvls.contributions, kGpus * nvls.results, "N contributions each");
        NS_TEST_ASSERT_MSG_EQ(nvls.copies, kGpus * nvls.results, "N copies per result");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(nvls.results * 4096, kBytes, "results cover the data");
        NS_TEST_ASSERT_MSG_EQ(nvls.openEntries, 0, "every aggregation entry closed");
    }
};

/// The nvls schedule refuses what it does not model: ranks of two servers, one-GPU hosts,
/// an InfiniBand fabric, slices beyond NvlsHeader's 16-bit frame numbers.
class NvlsRefusesTestCase : public TestCase
{
  public:
    NvlsRefusesTestCase()
        : TestCase("nvls refuses ranks across servers and one-GPU hosts")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& [ranks, gpus] :
             std::vector<std::tuple<uint32_t, uint32_t>>{{16, 8}, {8, 1}})
        {
            Ptr<CollectiveAlgorithm> a =
                CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "nvls");
            a->SetAttribute("GpusPerServer", UintegerValue(gpus));
            bool refused = false;
            try
            {
                a->Setup(Communicator::AllHosts(ranks), 1 << 20);
            }
            catch (const std::invalid_argument& e)
            {
                refused = true;
                std::cout << e.what() << std::endl;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "refused");
        }
        Ptr<CollectiveAlgorithm> a = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "nvls");
        a->SetAttribute("GpusPerServer", UintegerValue(8));
        a->SetAttribute("ChunkBytes", UintegerValue(0));
        a->SetAttribute("Channels", UintegerValue(1));
        bool refused = false;
        try
        {
            a->Setup(Communicator::AllHosts(8), 8 * (NvlsAllreduce::MAX_SLICE_BYTES + 1));
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("--chunk") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "a slice beyond 65535 frames of 256 bytes");
        a->Setup(Communicator::AllHosts(8), 8 * NvlsAllreduce::MAX_SLICE_BYTES);
    }
};

/// NVLS runs where the fabric states NVLink SHARP (RdmaFabric::HasNvlinkSharp): RoCEv2
/// crossbars with PFC. Refused at Setup, before any packet: InfiniBand (its crossbar is an
/// IB switch, no NvlsSwitchEngine), Ultra Ethernet and RoCEv2 without PFC (no pauses
/// bound the engine's buffer: without them a 64 MB allreduce held 8.07 MB per port where
/// the pauses kept 1.95 MB, more than a crossbar port has).
class NvlsNeedsNvlinkSharpTestCase : public TestCase
{
  public:
    NvlsNeedsNvlinkSharpTestCase()
        : TestCase("nvls runs on fabrics with NVLink SHARP only: RoCEv2 with PFC; not "
                   "InfiniBand, Ultra Ethernet or RoCEv2 without PFC")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RailTopologyHelper> h = CreateObject<RailTopologyHelper>();
        h->SetAttribute("Servers", UintegerValue(1));
        h->SetAttribute("GpusPerServer", UintegerValue(kGpus));
        Ptr<TopologyGraph> g = h->Build();
        Ptr<const RouteTable> routes = RoutingEngine::BuildTable("auto", g);
        RoceFabricHelper roce;
        RoceFabricHelper roceNoPfc;
        roceNoPfc.SetDeviceAttribute("PfcEnabled", BooleanValue(false));
        const std::vector<std::tuple<std::string, Ptr<RdmaFabric>, bool>> cases{
            {"rocev2", roce.Install(g, routes), true},
            {"rocev2 without PFC", roceNoPfc.Install(g, routes), false},
            {"uet", UetFabricHelper().Install(g, routes), false},
            {"infiniband", IbFabricHelper().Install(g, routes), false}};
        for (const auto& [name, fabric, sharp] : cases)
        {
            NS_TEST_ASSERT_MSG_EQ(fabric->HasNvlinkSharp(), sharp, name);
            Ptr<CollectiveAlgorithm> a =
                CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "nvls");
            a->SetAttribute("GpusPerServer", UintegerValue(kGpus));
            a->SetAttribute("RdmaFabric", PointerValue(fabric));
            a->SetAttribute("Fabric", StringValue(name));
            std::string refusal;
            try
            {
                a->Setup(Communicator::AllHosts(kGpus), 1 << 20);
            }
            catch (const std::invalid_argument& e)
            {
                refusal = e.what();
            }
            NS_TEST_ASSERT_MSG_EQ(refusal.empty(), sharp, name << ": " << refusal);
            NS_TEST_ASSERT_MSG_EQ(sharp || refusal.find("fabric '" + name + "' is not allowed") !=
                                               std::string::npos,
                                  true,
                                  "the refusal names the fabric: " << refusal);
        }
        Simulator::Destroy();
    }
};

/// The suite.
class NvlsTestSuite : public TestSuite
{
  public:
    NvlsTestSuite()
        : TestSuite("ai-fabric-nvls", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new NvlsServerTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new NvlsRefusesTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new NvlsNeedsNvlinkSharpTestCase(), AI_FABRIC_QUICK);
    }
};

static NvlsTestSuite g_nvlsTestSuite;
