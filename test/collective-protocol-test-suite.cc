/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NCCL's protocols (CollectiveProtocol: NcclLlProtocol, NcclLl128Protocol,
 * NcclSimpleProtocol): their wire bytes, steps and step latencies against NCCL
 * 2.30.7's constants, and what the executor does with them (CollectiveAlgorithm::
 * SetProtocol) over the alpha-beta transport, whose times are closed forms.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/alpha-beta-collective-transport.h"
#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/collective-protocol.h"
#include "ns3/communicator.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// Wire bytes, step bytes and latencies of the three protocols.
class ProtocolWireTest : public TestCase
{
  public:
    ProtocolWireTest()
        : TestCase("LL, LL128, Simple: wire bytes per payload, step (chunk) size, step latency")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CollectiveProtocol> ll = CollectiveProtocol::Create("ll");
        Ptr<CollectiveProtocol> ll128 = CollectiveProtocol::Create("ll128");
        Ptr<CollectiveProtocol> simple = CollectiveProtocol::Create("simple");
        NS_TEST_ASSERT_MSG_EQ(ll->GetName(), "ll", "name");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetName(), "ll128", "name");
        NS_TEST_ASSERT_MSG_EQ(simple->GetName(), "simple", "name");

        // LL: 16-byte lines of 8 data bytes (union ncclLLFifoLine): 2x, in 16-byte units
        NS_TEST_ASSERT_MSG_EQ(ll->GetWireFactor(), 2.0, "LL wire factor");
        NS_TEST_ASSERT_MSG_EQ(ll->GetWireBytes(0), 0, "LL: nothing for nothing");
        NS_TEST_ASSERT_MSG_EQ(ll->GetWireBytes(1), 16, "LL: one byte takes a line");
        NS_TEST_ASSERT_MSG_EQ(ll->GetWireBytes(8), 16, "LL: 8 bytes fill a line");
        NS_TEST_ASSERT_MSG_EQ(ll->GetWireBytes(9), 32, "LL: 9 bytes take two lines");
        NS_TEST_ASSERT_MSG_EQ(ll->GetWireBytes(32768), 65536, "LL: a step of data, 64 KiB");
        // LL128: 2048-byte warp units of 1920 data bytes (16 lines x 120): 16/15
        NS_TEST_ASSERT_MSG_EQ_TOL(ll128->GetWireFactor(), 128.0 / 120.0, 1e-12, "LL128 factor");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetWireBytes(8), 2048, "LL128: a warp's unit at least");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetWireBytes(1920), 2048, "LL128: one unit full");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetWireBytes(1921), 4096, "LL128: two units");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetWireBytes(576000), 614400, "LL128: a step of data");
        // Simple: the data itself
        NS_TEST_ASSERT_MSG_EQ(simple->GetWireFactor(), 1.0, "Simple wire factor");
        for (uint64_t b : {0ULL, 1ULL, 8ULL, 1000ULL, 524288ULL, 1ULL << 30})
        {
            NS_TEST_ASSERT_MSG_EQ(simple->GetWireBytes(b), b, "Simple carries the payload");
        }

        // Steps: the buffer (NCCL 2.30.7 src/init.cc defaults) over NCCL_STEPS 8, as
        // payload (src/enqueue.cc calcCollChunking: LL / 2, LL128 / 16 x 15).
        const uint32_t llBuffer =
            8 * 512 * 8 * 16; // LINES_PER_THREAD x MAX_NTHREADS x STEPS x line
        const uint32_t ll128Buffer = 120 * 640 * 8 * 8; // ELEMS_PER_THREAD x NTHREADS x STEPS x 8
        const uint32_t simpleBuffer = 1 << 22;          // DEFAULT_BUFFSIZE
        NS_TEST_ASSERT_MSG_EQ(ll->GetStepBytes(), llBuffer / 8 / 2, "LL step = 32 KiB of data");
        NS_TEST_ASSERT_MSG_EQ(ll->GetStepBytes(), 32768u, "LL step");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetStepBytes(), ll128Buffer / 8 / 16 * 15, "LL128 step");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetStepBytes(), 576000u, "LL128 step");
        NS_TEST_ASSERT_MSG_EQ(simple->GetStepBytes(), simpleBuffer / 8, "Simple step");
        NS_TEST_ASSERT_MSG_EQ(simple->GetStepBytes(),
                              CollectiveAlgorithm::DEFAULT_CHUNK_BYTES,
                              "Simple's step is the executor's default chunk");

        // Step latencies: NCCL 2.30.7 ring hwLat (tuning.cc) over LL's
        NS_TEST_ASSERT_MSG_EQ(ll->GetStepLatency(true), Time(0), "LL network");
        NS_TEST_ASSERT_MSG_EQ(ll->GetStepLatency(false), Time(0), "LL scale-up");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetStepLatency(true), NanoSeconds(1300), "LL128 network");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetStepLatency(false), NanoSeconds(1300), "LL128 NVLink");
        NS_TEST_ASSERT_MSG_EQ(simple->GetStepLatency(true), NanoSeconds(11300), "Simple network");
        NS_TEST_ASSERT_MSG_EQ(simple->GetStepLatency(false), NanoSeconds(2800), "Simple NVLink");
        // Base latencies per call: NCCL 2.30.7 baseLat (tuning.cc), ring and tree; every
        // other algorithm takes the ring's
        NS_TEST_ASSERT_MSG_EQ(ll->GetBaseLatency(NcclAlgorithm::RING), NanoSeconds(6600), "LL");
        NS_TEST_ASSERT_MSG_EQ(ll->GetBaseLatency(NcclAlgorithm::TREE), NanoSeconds(6800), "LL");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetBaseLatency(NcclAlgorithm::RING),
                              NanoSeconds(14000),
                              "LL128 ring");
        NS_TEST_ASSERT_MSG_EQ(ll128->GetBaseLatency(NcclAlgorithm::TREE),
                              NanoSeconds(14000),
                              "LL128 tree");
        NS_TEST_ASSERT_MSG_EQ(simple->GetBaseLatency(NcclAlgorithm::RING),
                              NanoSeconds(8400),
                              "Simple ring");
        NS_TEST_ASSERT_MSG_EQ(simple->GetBaseLatency(NcclAlgorithm::NVLS),
                              NanoSeconds(8400),
                              "other algorithms: the ring's");

        bool threw = false;
        try
        {
            CollectiveProtocol::Create("ll64");
        }
        catch (const std::invalid_argument& e)
        {
            threw = true;
            NS_TEST_ASSERT_MSG_EQ(std::string(e.what()),
                                  "collective protocol 'll64' is not known; allowed: ll, ll128, "
                                  "simple",
                                  "message names the value and the allowed ones");
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "an unknown protocol throws");
    }
};

/// One ring allreduce over the alpha-beta transport with a protocol (or none).
struct RingRun
{
    int64_t durationNs{-1};
    uint64_t wireBytes{0};
    uint32_t transfers{0};
    bool verified{false};
};

RingRun
RunRing(const std::string& protocol,
        uint32_t n,
        uint64_t bytes,
        bool latency,
        uint32_t hostsPerServer = 1)
{
    auto t = CreateObject<AlphaBetaCollectiveTransport>();
    t->SetAttribute("NRanks", UintegerValue(n));
    t->SetAttribute("Bandwidth", DataRateValue(DataRate("100Gbps")));
    t->SetAttribute("Alpha", TimeValue(MicroSeconds(2)));
    Ptr<CollectiveAlgorithm> alg = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "ring");
    alg->SetAttribute("Channels", UintegerValue(1));
    alg->SetAttribute("TrackContributions", BooleanValue(true));
    if (!protocol.empty())
    {
        Ptr<CollectiveProtocol> p = CollectiveProtocol::Create(protocol);
        if (!latency)
        {
            p->SetAttribute("NetworkStepLatency", TimeValue(Time(0)));
            p->SetAttribute("ScaleUpStepLatency", TimeValue(Time(0)));
            p->SetAttribute("RingBaseLatency", TimeValue(Time(0)));
            p->SetAttribute("TreeBaseLatency", TimeValue(Time(0)));
        }
        alg->SetProtocol(p, hostsPerServer);
    }
    auto app = CreateObject<CollectiveApplication>();
    app->SetTransport(t);
    app->AddJob(Communicator::AllHosts(n), alg, bytes);
    app->Start();
    Simulator::Run();
    RingRun r;
    if (!app->GetRecords().empty())
    {
        r.durationNs = app->GetRecords().back().durationNs;
    }
    r.wireBytes = t->GetBytesSent();
    r.transfers = alg->GetNTransfers();
    std::string why;
    r.verified = alg->VerifyContributions(&why);
    Simulator::Destroy();
    app->Dispose();
    return r;
}

/// The executor sends the protocol's wire bytes, chunks by its step and adds its latency.
class ProtocolExecutorTest : public TestCase
{
  public:
    ProtocolExecutorTest()
        : TestCase("executor: wire bytes on the transport, chunks of the protocol's step, "
                   "step latency per hop kind")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        // 1 MiB per rank, 4 ranks, one channel: 4 segments of 256 KiB, 2 x 3 steps each.
        const uint64_t s = 1 << 20;
        const uint64_t payload = 2 * (n - 1) * s; // every rank sends 2(n-1) segments of s/n
        const RingRun none = RunRing("", n, s, false);
        const RingRun simple = RunRing("simple", n, s, false);
        const RingRun ll = RunRing("ll", n, s, false);
        const RingRun ll128 = RunRing("ll128", n, s, false);
        for (const RingRun* r : {&none, &simple, &ll, &ll128})
        {
            NS_TEST_ASSERT_MSG_EQ(r->verified, true, "every rank ends with every input");
        }
        NS_TEST_ASSERT_MSG_EQ(none.wireBytes, payload, "no protocol: payload on the wire");
        NS_TEST_ASSERT_MSG_EQ(simple.wireBytes, payload, "Simple: payload on the wire");
        NS_TEST_ASSERT_MSG_EQ(simple.durationNs, none.durationNs, "Simple alone changes nothing");
        NS_TEST_ASSERT_MSG_EQ(simple.transfers, none.transfers, "same chunks (512 KiB)");
        // LL: 256 KiB segments in 32 KiB chunks (8 per segment), each 64 KiB on the wire
        NS_TEST_ASSERT_MSG_EQ(ll.transfers, 2 * (n - 1) * n * 8, "LL: 8 chunks per segment");
        NS_TEST_ASSERT_MSG_EQ(simple.transfers, 2 * (n - 1) * n, "Simple: one per segment");
        NS_TEST_ASSERT_MSG_EQ(ll.wireBytes, 2 * payload, "LL: twice the payload on the wire");
        // LL128: a 256 KiB segment is one chunk (< 576000 B): 137 units of 1920 B
        // (262144 / 1920 = 136.5), 137 x 2048 = 280576 wire bytes each
        NS_TEST_ASSERT_MSG_EQ(ll128.transfers, 2 * (n - 1) * n, "LL128: one chunk per segment");
        NS_TEST_ASSERT_MSG_EQ(ll128.wireBytes, 2 * (n - 1) * n * 280576ULL, "LL128 wire bytes");
        // bandwidth-bound at 100 Gb/s: LL's doubled bytes take longer
        NS_TEST_ASSERT_MSG_GT(ll.durationNs, 1.5 * simple.durationNs, "LL slower at 1 MiB");

        // Step latency: 2 ranks, 8 bytes, one chunk: 2 steps in sequence, each adds the
        // protocol's latency once (network: separate servers; scale-up: one server), after
        // the call's base latency (the ring's).
        const RingRun bare = RunRing("simple", 2, 8, false);
        const RingRun net = RunRing("simple", 2, 8, true, 1);
        const RingRun nvl = RunRing("simple", 2, 8, true, 2);
        const RingRun llNet = RunRing("ll", 2, 8, true, 1);
        NS_TEST_ASSERT_MSG_EQ(net.durationNs - bare.durationNs,
                              8400 + 2 * 11300,
                              "8.4 us + 2 x 11.3 us");
        NS_TEST_ASSERT_MSG_EQ(nvl.durationNs - bare.durationNs,
                              8400 + 2 * 2800,
                              "8.4 us + 2 x 2.8 us");
        NS_TEST_ASSERT_MSG_EQ(llNet.durationNs - RunRing("ll", 2, 8, false).durationNs,
                              6600,
                              "LL adds its base latency only");
        NS_TEST_ASSERT_MSG_LT(llNet.durationNs, net.durationNs, "LL beats Simple on 8 bytes");
    }
};

class CollectiveProtocolTestSuite : public TestSuite
{
  public:
    CollectiveProtocolTestSuite()
        : TestSuite("ai-fabric-collective-protocol", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new ProtocolWireTest, AI_FABRIC_QUICK);
        AddTestCase(new ProtocolExecutorTest, AI_FABRIC_QUICK);
    }
};

static CollectiveProtocolTestSuite g_collectiveProtocolTestSuite;

} // namespace
