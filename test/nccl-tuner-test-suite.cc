/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NcclTuner on the dgx-h100-ndr cluster preset (--cluster=dgx-h100-ndr --topology=rail):
 * the communicator the runner describes to NCCL's model (CollectiveWorkload::
 * TunerTopology) and the algorithm x protocol it picks per allreduce size, against a
 * table worked out by hand from NCCL 2.30.7's src/graph/tuning.cc.
 *
 * The communicator: servers of 8 Hopper GPUs, a 400 Gb/s NIC each. NCCL's ring search
 * runs at 48 GB/s (sm90SpeedArrayInter's top speed, below the NIC's 50 GB/s), one
 * channel per NIC: 8 channels; ncclTopoDupChannels keeps 8 (48 < 50 GB/s with more
 * than 4 channels on Hopper); the communicator has 16 (ncclTopoPostset doubles). The
 * tree's graph is the ring's. So bus bandwidth = 8 x 48 = 384 GB/s for both.
 *
 * 2 servers (16 ranks, nodes 2, 30 steps):
 *   bandwidths (GB/s, algorithm bandwidth):
 *     ring LL     min(LL bound 39.0 (Intel, 2 nodes), 384 x 0.5) x 16/30        = 20.8
 *     ring LL128  min(384 x 0.92 = 353.28, 8 x 36.7 = 293.6) x 16/30            = 156.587
 *     ring Simple 384 x 16/30                                                    = 204.8
 *     tree: min(384 x 0.92, 8 x 41.4 = 331.2) = 331.2; LL min(331.2/3.8, 39) x .5 = 19.5,
 *     LL128 min(331.2 x 120/128, 293.6) x .5 = 146.8, Simple 331.2 x .5 = 165.6
 *   latencies (us): ring = base + 28 intra steps x max(NVLink hwLat, proxy 1 (LL, LL128)
 *   or 3 (Simple)) + 2 network steps x net hwLat:
 *     LL 6.6 + 28 x 1 + 2 x 2.7 = 40.0; LL128 14 + 28 x 1.9 + 2 x 4 = 75.2;
 *     Simple 8.4 + 28 x 3.4 + 2 x 14 = 131.6 (x 1.4 from 16 KiB: 64 B x 16 ch x 16 ranks)
 *   tree = base + 2 (7 x NVLink hwLat + log2(2) x net hwLat):
 *     LL 6.8 + 2 (4.2 + 5) = 25.2; LL128 14 + 2 (8.75 + 8.5) = 48.5;
 *     Simple 8.4 + 2 (28 + 14) = 92.4
 *   times (us) = latency + bytes / (1000 x bw x tree's size correction):
 *     8 B:     tree LL 25.2004 (ring LL 40.0004)                     -> tree LL
 *     64 KiB:  tree LL 25.2 + 65536/(19.5e3 x .6) = 30.80 (ring LL 43.15) -> tree LL
 *     1 MiB:   tree LL128 48.5 + 1048576/(146.8e3 x .6) = 60.40 (ring LL128 81.90,
 *              tree Simple 105.06)                                     -> tree LL128
 *     16 MiB:  tree LL128 48.5 + 16777216/(146.8e3 x .9) = 175.48 (ring LL128 182.34)
 *                                                                      -> tree LL128
 *     256 MiB: ring Simple 184.24 + 268435456/204.8e3 = 1494.96 (ring LL128 1789.49,
 *              tree Simple 1893.50)                                    -> ring Simple
 *     1 GiB:   ring Simple 5427.12 (tree Simple 6576.35)               -> ring Simple
 *
 * 16 servers (128 ranks, nodes 16, 254 steps, 30 of them on the network):
 *   bandwidths: ring LL min(20.4, 192) x 128/254 = 10.280; ring LL128 293.6 x 128/254
 *     = 147.956; ring Simple 384 x 128/254 = 193.512; tree min(353.28, 8 x 36 = 288)
 *     = 288: LL min(75.8, 20.4) x .5 = 10.2, LL128 min(270, 8 x 29 = 232) x .5 = 116,
 *     Simple 144
 *   latencies: ring LL 6.6 + 224 + 30 x 2.7 = 311.6; LL128 14 + 224 x 1.9 + 120 = 559.6;
 *     Simple 8.4 + 224 x 3.4 + 420 = 1190 (x 1.4 from 128 KiB); tree LL 6.8 + 2 (4.2 +
 *     4 x 5) = 55.2; LL128 14 + 2 (8.75 + 34) = 99.5; Simple 8.4 + 2 (28 + 56) = 176.4
 *   times:
 *     8 B:     tree LL 55.20                                           -> tree LL
 *     64 KiB:  tree LL 55.2 + 65536/(10.2e3 x .6) = 65.91 (tree LL128 100.44) -> tree LL
 *     1 MiB:   tree LL128 99.5 + 1048576/(116e3 x .6) = 114.57         -> tree LL128
 *     16 MiB:  tree LL128 99.5 + 16777216/(116e3 x .9) = 260.20 (tree Simple 342.84)
 *                                                                      -> tree LL128
 *     256 MiB: tree Simple 176.4 + 268435456/(144e3 x .9) = 2247.66 (ring LL128 2373.89,
 *              ring Simple 3053.18)                                    -> tree Simple
 *     1 GiB:   ring Simple 1666 + 1073741824/193.512e3 = 7214.71 (tree Simple 7632.94)
 *                                                                      -> ring Simple
 */
#include "ai-fabric-test-compat.h"

#include "ns3/collective-workload.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/nccl-channel-tuning.h"
#include "ns3/nccl-tuner.h"
#include "ns3/scenario-config.h"
#include "ns3/workload-options.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One row of the hand table.
struct Pick
{
    uint64_t bytes;
    NcclAlgorithm algorithm;
    NcclProtocol protocol;
    double timeUs;
};

class NcclTunerPresetTableTest : public TestCase
{
  public:
    NcclTunerPresetTableTest()
        : TestCase("dgx-h100-ndr, 2 and 16 servers: the tuner's allreduce picks by size")
    {
    }

  private:
    void Check(uint32_t servers, const std::vector<Pick>& table)
    {
        ScenarioConfig c;
        c.Set("cluster", "dgx-h100-ndr");
        c.Set("topology", "rail");
        c.Set("servers", std::to_string(servers));
        c.Set("workload", "allreduce");
        c.Set("algorithm", "auto");
        c.Set("protocol", "auto");
        c.ApplyAttributes();
        const NcclTuner::Topology t =
            CollectiveWorkload::TunerTopology(WorkloadOptions::Collective(c), 8 * servers);
        NS_TEST_ASSERT_MSG_EQ(t.gpusPerServer, 8, "the preset's 8 GPUs per server");
        NS_TEST_ASSERT_MSG_EQ(t.channels, 16, "NCCL's 16 channels for 8 x 400 Gb/s");
        NS_TEST_ASSERT_MSG_EQ(t.nicRate, DataRate("400Gbps"), "the preset's NICs");
        Ptr<NcclTuner> tuner = CreateObject<NcclTuner>();
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(tuner->GetGpuGeneration()),
                              static_cast<int>(NcclGpuGeneration::HOPPER),
                              "the preset's H100");
        const NcclTuningInput in = tuner->MakeInput(t);
        const auto& ring = in.graphs[static_cast<int>(NcclAlgorithm::RING)];
        NS_TEST_ASSERT_MSG_EQ(in.nodes, servers, "nodes = servers");
        NS_TEST_ASSERT_MSG_EQ(ring.channels, 8, "ring graph: 8 channels");
        NS_TEST_ASSERT_MSG_EQ(ring.bwInterGBps, 48.0, "ring graph: 48 GB/s each");
        for (const Pick& p : table)
        {
            const NcclTuner::Result r = tuner->Choose(CollectiveOp::ALLREDUCE, p.bytes, t);
            const std::string what = std::to_string(servers) + " servers, " +
                                     std::to_string(p.bytes) +
                                     " B: " + NcclAlgorithmToString(r.choice.algorithm) + "/" +
                                     NcclProtocolToString(r.choice.protocol);
            NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(r.choice.algorithm),
                                  NcclAlgorithmToString(p.algorithm),
                                  what);
            NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(r.choice.protocol),
                                  NcclProtocolToString(p.protocol),
                                  what);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.choice.timeUs, p.timeUs, 0.01, what);
            // NCCL's own pick among everything it models is the same here: without
            // NVLS graphs or SHARP nothing else is available
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(r.fastest.algorithm),
                                  static_cast<int>(r.choice.algorithm),
                                  what);
        }
        // NCCL_ALGO=ring: the tuner picks only the protocol
        const NcclTuner::Result ringOnly =
            tuner->Choose(CollectiveOp::ALLREDUCE, 8, t, {NcclAlgorithm::RING});
        NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(ringOnly.choice.protocol), "ll", "ring, 8 B");
    }

    void DoRun() override
    {
        const auto tree = NcclAlgorithm::TREE;
        const auto ring = NcclAlgorithm::RING;
        const auto ll = NcclProtocol::LL;
        const auto ll128 = NcclProtocol::LL128;
        const auto simple = NcclProtocol::SIMPLE;
        Check(2,
              {{8, tree, ll, 25.20},
               {65536, tree, ll, 30.80},
               {1 << 20, tree, ll128, 60.40},
               {1 << 24, tree, ll128, 175.48},
               {1 << 28, ring, simple, 1494.96},
               {1ULL << 30, ring, simple, 5427.12}});
        Check(16,
              {{8, tree, ll, 55.20},
               {65536, tree, ll, 65.91},
               {1 << 20, tree, ll128, 114.57},
               {1 << 24, tree, ll128, 260.20},
               {1 << 28, tree, simple, 2247.66},
               {1ULL << 30, ring, simple, 7214.71}});
    }
};

/// Reduce-scatter has only the ring in the simulator; all-to-all has no NCCL model.
class NcclTunerRestrictionTest : public TestCase
{
  public:
    NcclTunerRestrictionTest()
        : TestCase("the tuner keeps to the simulated algorithms and refuses what NCCL's "
                   "model has no pair for")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NcclTuner> tuner = CreateObject<NcclTuner>();
        NcclTuner::Topology t;
        t.ranks = 16;
        t.gpusPerServer = 8;
        t.channels = 16;
        t.nicRate = DataRate("400Gbps");
        const auto rs = NcclTuner::SimulatedAlgorithms(CollectiveOp::REDUCE_SCATTER);
        NS_TEST_ASSERT_MSG_EQ(rs.size(), 1, "reduce-scatter: ring only");
        const auto ar = NcclTuner::SimulatedAlgorithms(CollectiveOp::ALLREDUCE);
        NS_TEST_ASSERT_MSG_EQ(ar.size(), 3, "allreduce: tree, ring and nvls");
        const NcclTuner::Result r = tuner->Choose(CollectiveOp::REDUCE_SCATTER, 8, t);
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(r.choice.algorithm), "ring", "RS ring");
        bool threw = false;
        try
        {
            tuner->Choose(CollectiveOp::ALL_TO_ALL, 8, t);
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "all-to-all: no model");
        threw = false;
        try
        {
            // NVLS is not simulated: nothing is left
            tuner->Choose(CollectiveOp::ALLREDUCE, 8, t, {NcclAlgorithm::NVLS});
        }
        catch (const std::invalid_argument& e)
        {
            threw =
                std::string(e.what()).find("the simulator runs tree, ring") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "NVLS is refused, naming what is simulated");
    }
};

/**
 * NCCL 2.30.7's channels and threads per call (src/enqueue.cc topoGetAlgoInfo), worked
 * out by hand on 8 ranks and 16 channels. Ring LL: 512 threads x 8 x 8 ranks = 32 KiB
 * per channel, so nc = bytes / 32 KiB in 1..16; threads halve while bytes < nc x nt x 64
 * and nt is a multiple of 128, then at least 96. Simple: 512 x 64 = 32 KiB per channel;
 * LL128: 640 x 8 = 5 KiB; tree LL: 512 x 8 = 4 KiB; NVLS keeps the communicator's.
 */
class NcclChannelTuningTest : public TestCase
{
  public:
    NcclChannelTuningTest()
        : TestCase("the channels and threads NCCL gives a call, from its size")
    {
    }

  private:
    void DoRun() override
    {
        const auto ring = NcclAlgorithm::RING;
        const auto ll = NcclProtocol::LL;

        struct Row
        {
            NcclAlgorithm a;
            NcclProtocol p;
            uint64_t bytes;
            uint32_t channels;
            uint32_t threads;
        };

        const Row rows[] = {
            {ring, ll, 8, 1, 96},
            {ring, ll, 4096, 1, 96},    // 4096 < 1 x 64 x 64 is false: nt stays 64, then 96
            {ring, ll, 8192, 1, 128},   // 8192 < 1 x 128 x 64 is false
            {ring, ll, 16384, 1, 256},  //
            {ring, ll, 32768, 1, 512},  //
            {ring, ll, 65535, 1, 512},  // 65535 < 2 x 32768: one channel
            {ring, ll, 65536, 2, 512},  //
            {ring, ll, 131072, 4, 512}, //
            {ring, ll, 1 << 20, 16, 512},
            {ring, NcclProtocol::SIMPLE, 100000, 3, 512},
            {ring, NcclProtocol::SIMPLE, 1 << 20, 16, 512},
            {ring, NcclProtocol::LL128, 20480, 4, 640},
            {NcclAlgorithm::TREE, ll, 20480, 5, 512},
            {NcclAlgorithm::NVLS, NcclProtocol::SIMPLE, 8, 16, 512},
        };
        for (const Row& r : rows)
        {
            const std::string what = NcclAlgorithmToString(r.a) + "/" + NcclProtocolToString(r.p) +
                                     " " + std::to_string(r.bytes) + " B";
            NS_TEST_EXPECT_MSG_EQ(NcclChannelTuning::Channels(r.a, r.p, r.bytes, 8, 16),
                                  r.channels,
                                  what + ": channels");
            if (r.a == ring)
            {
                NS_TEST_EXPECT_MSG_EQ(NcclChannelTuning::Threads(r.a, r.p, r.bytes, 8, 16),
                                      r.threads,
                                      what + ": threads");
            }
        }
        // the threshold of the ring's LL grows with the ranks: 16 ranks, 64 KiB per channel
        NS_TEST_EXPECT_MSG_EQ(NcclChannelTuning::Channels(ring, ll, 65536, 16, 16), 1, "16 ranks");
    }
};

class NcclTunerTestSuite : public TestSuite
{
  public:
    NcclTunerTestSuite()
        : TestSuite("ai-fabric-nccl-tuner", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new NcclTunerPresetTableTest, AI_FABRIC_QUICK);
        AddTestCase(new NcclTunerRestrictionTest, AI_FABRIC_QUICK);
        AddTestCase(new NcclChannelTuningTest, AI_FABRIC_QUICK);
    }
};

static NcclTunerTestSuite g_ncclTunerTestSuite; //!< registers the suite

} // namespace
