/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GPU servers at packet level: a 4-server x 8-GPU rail-optimized RoCEv2 fabric (scale-up
 * crossbars, one NIC per GPU on its rail). The hierarchical ring allreduce keeps its
 * intra-server bytes on the scale-up cables and its inter-server bytes on the rails
 * (per-cable byte counters), and beats the flat 32-GPU ring by the margin the
 * alpha-beta model of both predicts.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/communicator.h"
#include "ns3/config.h"
#include "ns3/rail-topology-helper.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-ethernet-header.h"
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
#include "ns3/uinteger.h"

#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kServers = 4;
const uint32_t kGpus = 8;
const uint32_t kSpines = 4;
const DataRate kNicRate("400Gbps");
const DataRate kScaleUpRate("3600Gbps");
const Time kCableDelay = NanoSeconds(500);
const Time kScaleUpDelay = NanoSeconds(150);
const uint32_t kMtu = 4096;

/// Which cables a byte crossed.
enum CableKind
{
    SCALE_UP, //!< GPU - crossbar
    RAIL,     //!< crossbar - rail leaf (a GPU's NIC cable)
    SPINE,    //!< rail leaf - spine
};

struct ServerRun
{
    bool finished{false};
    bool verified{false};
    std::string why;
    double seconds{0};
    uint64_t bytes[3]{0, 0, 0};      //!< frame bytes sent on each kind of cable, both ways
    uint64_t railOfServer0[kGpus]{}; //!< bytes up server 0's NIC cable of each rail
    Time switchLatency;
};

Ptr<TopologyGraph>
RailOptimized()
{
    Ptr<RailTopologyHelper> h = CreateObject<RailTopologyHelper>();
    h->SetAttribute("Servers", UintegerValue(kServers));
    h->SetAttribute("GpusPerServer", UintegerValue(kGpus));
    h->SetAttribute("Spines", UintegerValue(kSpines));
    h->SetAttribute("ScaleUpRate", DataRateValue(kScaleUpRate));
    h->SetAttribute("ScaleUpDelay", TimeValue(kScaleUpDelay));
    h->SetLinks(kNicRate, kCableDelay, kNicRate, kCableDelay);
    return h->Build();
}

/// An allreduce of `bytes` per GPU over all 32 GPUs with `alg`, PFC only (no
/// congestion control: the comparison is of bandwidths and latencies).
ServerRun
RunAllreduce(const std::string& alg, uint64_t bytes)
{
    UsePicoseconds();
    Ptr<TopologyGraph> g = RailOptimized();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("auto", g);
    RoceFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(kMtu));
    helper.SetCongestionControl("none");
    Ptr<RoceFabric> fabric = helper.Install(g, routes);
    Ptr<RdmaCollectiveTransport> transport = CreateObject<RdmaCollectiveTransport>();
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < g->GetNHosts(); ++i)
    {
        hosts.push_back(i);
    }
    transport->Attach(fabric, hosts);
    Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
    app->SetAttribute("TagSpace", UintegerValue(transport->GetTagSpace()));
    app->SetTransport(transport);
    Ptr<CollectiveAlgorithm> a = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, alg);
    a->SetAttribute("TrackContributions", BooleanValue(true));
    // One message per step, one channel: the schedules the closed forms describe.
    a->SetAttribute("ChunkBytes", UintegerValue(0));
    a->SetAttribute("Channels", UintegerValue(1));
    a->SetAttributeFailSafe("GpusPerServer", UintegerValue(kGpus));
    app->AddJob(Communicator::AllHosts(g->GetNHosts()), a, bytes);
    app->Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    ServerRun r;
    r.finished = app->IsFinished();
    r.verified = a->VerifyContributions(&r.why);
    const auto records = app->GetRecords();
    r.seconds = records.empty() ? 0.0 : records.back().durationNs * 1e-9;
    r.switchLatency = fabric->GetSwitches()[0]->GetSwitchLatency();
    // Per cable: the devices at both ends (one device per port, node then port order).
    const auto devices = fabric->GetAllDevices();
    std::vector<uint32_t> firstDevice(g->GetNNodes() + 1, 0);
    for (uint32_t n = 0; n < g->GetNNodes(); ++n)
    {
        firstDevice[n + 1] = firstDevice[n] + g->GetPorts(n).size();
    }
    for (uint32_t id = 0; id < g->GetNLinks(); ++id)
    {
        const TopologyGraph::Link& l = g->GetLink(id);
        const uint64_t up = devices[firstDevice[l.a] + l.portA]->GetTxBytes();
        const uint64_t down = devices[firstDevice[l.b] + l.portB]->GetTxBytes();
        CableKind kind = g->IsHost(l.a) || g->IsHost(l.b)                     ? SCALE_UP
                         : g->IsScaleUpSwitch(l.a) || g->IsScaleUpSwitch(l.b) ? RAIL
                                                                              : SPINE;
        r.bytes[kind] += up + down;
        if (kind == RAIL && l.a == g->GetShape().firstScaleUpSwitch)
        {
            r.railOfServer0[l.portA] = up;
        }
    }
    app->Dispose();
    transport->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    Config::Reset();
    return r;
}

/// Frame bytes (GetTxBytes: without preamble, FCS, gap) per payload byte of a write.
double
FrameFactor()
{
    RoceFrameFields f;
    f.opcode = RdmaOpcode::WRITE_MIDDLE;
    return (kMtu + RoceFrame::HeaderBytes(f)) / double(kMtu);
}

/// Payload goodput of a cable of that rate: MTU payload per MTU + headers + wire overhead.
double
Goodput(DataRate rate)
{
    RoceFrameFields f;
    f.opcode = RdmaOpcode::WRITE_MIDDLE;
    return rate.GetBitRate() * double(kMtu) /
           (kMtu + RoceFrame::HeaderBytes(f) + RoceEthernetHeader::WIRE_OVERHEAD_BYTES);
}

/**
 * The hierarchical ring's byte split: rails carry exactly the inter-server ring (per GPU
 * 2 (S-1)/S x N/G, over two NIC cables: up at the source, down at the destination),
 * spines nothing (same-rail traffic stays on its rail leaf), scale-up cables the
 * intra-server reduce-scatter and all-gather (2 (G-1)/G N per GPU, two cables) plus the
 * inter-server bytes' first and last hop. The flat ring's cross-rail hops (GPU 7 of a
 * server to GPU 0 of the next) leave on the destination's rail (PXN), not through a spine.
 */
class HierRingBytesTestCase : public TestCase
{
  public:
    HierRingBytesTestCase()
        : TestCase("hierring on 4 x 8 GPUs rail-optimized: intra-server bytes on scale-up, "
                   "inter-server on rails, no spine (per-cable counters)")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t n = 4ULL << 20;
        const double s = kServers;
        const double g = kGpus;
        ServerRun h = RunAllreduce("hierring", n);
        NS_TEST_ASSERT_MSG_EQ(h.finished, true, "hierring completes");
        NS_TEST_ASSERT_MSG_EQ(h.verified, true, h.why);
        const double railPayload = s * g * 2 * (s - 1) / s * n / g * 2;
        const double upPayload = s * g * 2 * (g - 1) / g * n * 2 + railPayload;
        const double railRatio = h.bytes[RAIL] / (railPayload * FrameFactor());
        const double upRatio = h.bytes[SCALE_UP] / (upPayload * FrameFactor());
        std::cout << "hierring: rail bytes " << h.bytes[RAIL] << " (" << railRatio
                  << " x the inter-server frames), scale-up " << h.bytes[SCALE_UP] << " ("
                  << upRatio << "), spine " << h.bytes[SPINE] << std::endl;
        NS_TEST_ASSERT_MSG_EQ(h.bytes[SPINE], 0u, "same-rail traffic never reaches a spine");
        // ACKs ride the reverse direction of the same cables: a few % above the data.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(railRatio, 1.0, "rails carry the inter-server bytes");
        NS_TEST_ASSERT_MSG_LT(railRatio, 1.03, "and nothing of the intra-server phases");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(upRatio, 1.0, "scale-up cables carry the intra-server bytes");
        NS_TEST_ASSERT_MSG_LT(upRatio, 1.03, "and only those plus the NIC hops");
        for (uint32_t r = 0; r < kGpus; ++r)
        {
            NS_TEST_ASSERT_MSG_GT(h.railOfServer0[r], 0u, "every rail of server 0 is used");
        }

        // The flat ring: the only inter-server hops are GPU 7 -> GPU 0 of the next
        // server, which PXN sends up server 0's rail-0 NIC; rails 1..7 stay idle.
        const uint64_t flatBytes = 1ULL << 20;
        ServerRun f = RunAllreduce("ring", flatBytes);
        NS_TEST_ASSERT_MSG_EQ(f.finished, true, "ring completes");
        NS_TEST_ASSERT_MSG_EQ(f.verified, true, f.why);
        NS_TEST_ASSERT_MSG_EQ(f.bytes[SPINE], 0u, "cross-rail traffic changes rail in the server");
        const double hop = 2.0 * 31 / 32 * flatBytes * FrameFactor();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(f.railOfServer0[0] / hop, 1.0, "7 -> 8 on rail 0");
        NS_TEST_ASSERT_MSG_LT(f.railOfServer0[0] / hop, 1.03, "7 -> 8 on rail 0 only");
        for (uint32_t r = 1; r < kGpus; ++r)
        {
            NS_TEST_ASSERT_MSG_LT(f.railOfServer0[r], hop * 0.03, "rail " << r << ": ACKs only");
        }
    }
};

/**
 * busbw of the hierarchical ring against the flat 32-GPU ring on the same NICs: the
 * measured ratio equals the alpha-beta one within 15%.
 *   hier: 2 (G-1) (a_up + N/G / B_up) + 2 (S-1) (a_net + N/(G S) / B_nic)
 *   flat: 2 (P-1) N/P / B_nic + a_net
 * with B the payload goodput of a cable (MTU / frame on the wire), a_up = GPU ->
 * crossbar -> GPU (2 scale-up delays + one switch), a_net = GPU -> crossbar -> rail leaf
 * -> crossbar -> GPU (2 scale-up + 2 NIC cable delays + 3 switches), each plus one
 * packet's serialization at the step's bottleneck (cut-through). The hierarchical
 * phases are rings of equal hops, each step waiting for the last: alpha per step. The
 * flat ring crosses a NIC on S of its P hops; a chunk reaches the next NIC hop after
 * G - 1 scale-up hops and one NIC hop, sooner than that NIC hop needs to send its G
 * chunks of the meantime (asserted), so the NIC cables never wait and the ring takes
 * their busy time, 2 (P-1) N/P / B_nic, plus the last chunk's latency. busbw = 2
 * (P-1)/P N / T for both (same P), so the busbw ratio is T_flat / T_hier.
 */
class HierRingBusbwTestCase : public TestCase
{
  public:
    HierRingBusbwTestCase()
        : TestCase("hierring beats the flat 32-GPU ring by the alpha-beta margin (15%)")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t n = 16ULL << 20;
        ServerRun h = RunAllreduce("hierring", n);
        ServerRun f = RunAllreduce("ring", n);
        NS_TEST_ASSERT_MSG_EQ(h.finished && f.finished, true, "both complete");
        const double s = kServers;
        const double g = kGpus;
        const double p = s * g;
        const double bUp = Goodput(kScaleUpRate);
        const double bNic = Goodput(kNicRate);
        const double sw = h.switchLatency.GetSeconds();
        const double frameBits = (kMtu + 100) * 8.0;
        const double aUp = 2 * kScaleUpDelay.GetSeconds() + sw + frameBits / bUp;
        const double aNet = 2 * kScaleUpDelay.GetSeconds() + 2 * kCableDelay.GetSeconds() + 3 * sw +
                            frameBits / bNic;
        const double bits = n * 8.0;
        const double flat = 2 * (p - 1) * bits / p / bNic + aNet;
        // The flat model's premise: the scale-up hops between two NIC hops are faster
        // than G chunks through a NIC.
        NS_TEST_ASSERT_MSG_LT((g - 1) * (aUp + bits / p / bUp) + aNet,
                              g * bits / p / bNic,
                              "the NIC hops of the flat ring never wait");
        const double hier =
            2 * (g - 1) * (aUp + bits / g / bUp) + 2 * (s - 1) * (aNet + bits / (g * s) / bNic);
        const double predicted = flat / hier;
        const double measured = f.seconds / h.seconds;
        const double busbw = 2 * (p - 1) / p * n * 8 / h.seconds;
        std::cout << "flat ring " << f.seconds * 1e6 << " us (model " << flat * 1e6
                  << "), hierring " << h.seconds * 1e6 << " us (model " << hier * 1e6 << "), busbw "
                  << busbw * 1e-9 << " Gb/s; ratio " << measured << " predicted " << predicted
                  << std::endl;
        NS_TEST_ASSERT_MSG_GT(measured, 1.0, "hierring is faster");
        NS_TEST_ASSERT_MSG_EQ_TOL(measured / predicted, 1.0, 0.15, "by the alpha-beta margin");
        NS_TEST_ASSERT_MSG_EQ_TOL(h.seconds / hier, 1.0, 0.15, "hierring time = its model");
        NS_TEST_ASSERT_MSG_EQ_TOL(f.seconds / flat, 1.0, 0.15, "flat ring time = its model");
    }
};

class GpuServersTestSuite : public TestSuite
{
  public:
    GpuServersTestSuite()
        : TestSuite("ai-fabric-gpu-servers", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new HierRingBytesTestCase, AI_FABRIC_QUICK);
        AddTestCase(new HierRingBusbwTestCase, AI_FABRIC_QUICK);
    }
};

static GpuServersTestSuite g_gpuServersTestSuite;

} // namespace
