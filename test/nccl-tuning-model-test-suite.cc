/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * NCCL's tuning model (NcclTuningModel) against figures worked out by hand from the
 * formulas of NCCL 2.30's src/graph/tuning.cc for two communicators: one 8-GPU
 * Hopper server, and 16 such servers with 16 channels of 24 GB/s (the graph NCCL
 * prints as "nChannels 16, bw 24.0/24.0, type NVL/PIX" on servers with a 400 Gb/s
 * NIC per GPU). Each expected choice is the smallest predicted time; the
 * arithmetic is in the comments.
 */
#include "ai-fabric-test-compat.h"

#include "ns3/nccl-tuning-model.h"

#include <stdexcept>

using namespace ns3;

namespace
{

NcclGraphSummary
Graph(uint32_t channels, double bw)
{
    NcclGraphSummary g;
    g.channels = channels;
    g.bwIntraGBps = bw;
    g.bwInterGBps = bw;
    return g;
}

/// One server, 8 Hopper GPUs on NVSwitch; ring, tree and NVLS graphs of 16 x 20 GB/s.
NcclTuningInput
OneServer()
{
    NcclTuningInput in;
    in.ranks = 8;
    in.nodes = 1;
    in.gpu = NcclGpuGeneration::HOPPER;
    in.nvswitch = true;
    in.commChannels = 32;
    in.graphs[static_cast<int>(NcclAlgorithm::RING)] = Graph(16, 20);
    in.graphs[static_cast<int>(NcclAlgorithm::TREE)] = Graph(16, 20);
    in.graphs[static_cast<int>(NcclAlgorithm::NVLS)] = Graph(16, 20);
    return in;
}

/// 16 servers of 8 Hopper GPUs, a NIC per GPU, no SHARP: 16 x 24 GB/s graphs.
NcclTuningInput
SixteenServers()
{
    NcclTuningInput in;
    in.ranks = 128;
    in.nodes = 16;
    in.gpu = NcclGpuGeneration::HOPPER;
    in.nvswitch = true;
    in.commChannels = 32;
    in.graphs[static_cast<int>(NcclAlgorithm::RING)] = Graph(16, 24);
    in.graphs[static_cast<int>(NcclAlgorithm::TREE)] = Graph(16, 24);
    in.graphs[static_cast<int>(NcclAlgorithm::NVLS)] = Graph(16, 24);
    in.graphs[static_cast<int>(NcclAlgorithm::NVLS_TREE)] = Graph(16, 24);
    return in;
}

/// Latencies and bandwidths of the one-server allreduce table.
class NcclTuningOneServerTableTest : public TestCase
{
  public:
    NcclTuningOneServerTableTest()
        : TestCase("one 8-GPU server: allreduce latencies, bandwidths and choices by size")
    {
    }

  private:
    void DoRun() override
    {
        const NcclTuningModel m(OneServer());
        const auto ar = CollectiveOp::ALLREDUCE;
        const auto ring = NcclAlgorithm::RING;
        const auto tree = NcclAlgorithm::TREE;
        const auto nvls = NcclAlgorithm::NVLS;
        const auto ll = NcclProtocol::LL;
        const auto ll128 = NcclProtocol::LL128;
        const auto simple = NcclProtocol::SIMPLE;
        // Ring: base + 14 steps x NVLink latency: 6.6 + 14 x 0.6, 14 + 14 x 1.9, 8.4 + 14 x 3.4.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, ring, ll), 15.0, 1e-9, "ring LL latency");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, ring, ll128), 40.6, 1e-9, "ring LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, ring, simple), 56.0, 1e-9, "ring Simple");
        // Tree: base + 2 x 7 x NVLink latency: 6.8 + 14 x 0.6, 14 + 14 x 1.25, 8.4 + 14 x 4.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, tree, ll), 15.2, 1e-9, "tree LL latency");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, tree, ll128), 31.5, 1e-9, "tree LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, tree, simple), 64.4, 1e-9, "tree Simple");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, nvls, simple), 25.0, 1e-9, "NVLS latency");
        // Ring: 16 x 20 = 320 GB/s of bus bandwidth x 8/14; LL capped at 141 (Hopper,
        // one node); LL128 x 0.92.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, ring, ll), 141.0 * 8 / 14, 1e-9, "ring LL");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, ring, ll128),
                                  294.4 * 8 / 14,
                                  1e-9,
                                  "ring LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, ring, simple), 320.0 * 8 / 14, 1e-9, "ring");
        // Tree: 320 x 0.92 = 294.4, LL / 3.8, LL128 x 7/9 on one node, then x 0.5.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, tree, ll), 294.4 / 3.8 / 2, 1e-9, "tree LL");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, tree, ll128),
                                  294.4 * 7 / 9 / 2,
                                  1e-9,
                                  "tree LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, tree, simple), 147.2, 1e-9, "tree Simple");
        // NVLS: min(20 x 0.85 x 15/16 x 2, 20) = 20 per channel, x 16 x 8/14.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, nvls, simple), 320.0 * 8 / 14, 1e-9, "NVLS");
        NS_TEST_EXPECT_MSG_EQ(m.GetBandwidth(ar, nvls, ll), 0, "NVLS runs Simple only");
        NS_TEST_EXPECT_MSG_EQ(m.GetBandwidth(ar, NcclAlgorithm::NVLS_TREE, simple),
                              0,
                              "no NVLS tree on one node");
        NS_TEST_EXPECT_MSG_EQ(m.GetBandwidth(ar, NcclAlgorithm::COLLNET_DIRECT, simple),
                              0,
                              "no CollNet without SHARP");

        struct Row
        {
            uint64_t bytes;
            NcclAlgorithm algorithm;
            NcclProtocol protocol;
            double timeUs;
        };

        // 8 B: ring LL 15.0 beats tree LL 15.2.
        // 64 KiB: ring LL 15 + 65536 / 80571 = 15.813; tree LL (x 0.6) 18.02; NVLS 25.36.
        // 1 MiB: ring LL 15 + 13.014 = 28.014; NVLS 25 + 5.734 = 30.73; tree LL128 46.76.
        // 4 MiB: NVLS 25 + 22.94 = 47.94; ring LL128 40.6 + 24.93 = 65.53; ring LL 67.06.
        // 256 MiB: NVLS 25 + 1468.0 = 1493.0; ring Simple 56 + 1468.0 = 1524.0.
        const double ringLl = 141.0 * 8 / 14 * 1000; // bytes per us
        const double nvlsBw = 320.0 * 8 / 14 * 1000;
        const Row table[] = {
            {8, ring, ll, 15.0 + 8 / ringLl},
            {65536, ring, ll, 15.0 + 65536 / ringLl},
            {1048576, ring, ll, 15.0 + 1048576 / ringLl},
            {4194304, nvls, simple, 25.0 + 4194304 / nvlsBw},
            {268435456, nvls, simple, 25.0 + 268435456 / nvlsBw},
        };
        for (const auto& row : table)
        {
            const auto choice = m.Select(ar, row.bytes);
            NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(choice.algorithm),
                                  NcclAlgorithmToString(row.algorithm),
                                  row.bytes << " B: algorithm");
            NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(choice.protocol),
                                  NcclProtocolToString(row.protocol),
                                  row.bytes << " B: protocol");
            NS_TEST_EXPECT_MSG_EQ_TOL(choice.timeUs, row.timeUs, 1e-6, row.bytes << " B: time");
        }
        // NCCL_ALGO=ring,tree: 4 MiB ring LL128 (65.53 < LL 67.06), 256 MiB ring Simple.
        const std::vector<NcclAlgorithm> ringTree{ring, tree};
        auto c = m.Select(ar, 4194304, ringTree);
        NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(c.protocol), "ll128", "4 MiB without NVLS");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.timeUs, 40.6 + 4194304 / (294.4 * 8 / 14 * 1000), 1e-6, "time");
        c = m.Select(ar, 268435456, ringTree);
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(c.algorithm), "ring", "256 MiB without NVLS");
        NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(c.protocol), "simple", "256 MiB without NVLS");
        // NCCL_PROTO=simple at 8 B: NVLS's 25 us beats ring's 56.
        c = m.Select(ar, 8, {}, {simple});
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(c.algorithm), "nvls", "8 B, Simple only");
    }
};

/// The 16-server table, where trees, the network's latencies and NVLS-tree decide.
class NcclTuningSixteenServersTableTest : public TestCase
{
  public:
    NcclTuningSixteenServersTableTest()
        : TestCase("16 servers x 8 GPUs: allreduce latencies, bandwidths and choices by size")
    {
    }

  private:
    void DoRun() override
    {
        const NcclTuningModel m(SixteenServers());
        const auto ar = CollectiveOp::ALLREDUCE;
        const auto ring = NcclAlgorithm::RING;
        const auto tree = NcclAlgorithm::TREE;
        const auto nvlsTree = NcclAlgorithm::NVLS_TREE;
        const auto ll = NcclProtocol::LL;
        const auto ll128 = NcclProtocol::LL128;
        const auto simple = NcclProtocol::SIMPLE;
        // Ring: 254 steps, 30 of them between servers (2 x 15) at the network's
        // latency (2.7 / 4.0 / 14 us), the other 224 at max(NVLink latency, the
        // proxy's 1 us post, x 3 for Simple).
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, ring, ll), 6.6 + 224 + 81, 1e-9, "ring LL");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, ring, ll128),
                                  14 + 224 * 1.9 + 120,
                                  1e-9,
                                  "ring LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, ring, simple),
                                  8.4 + 224 * 3.4 + 420,
                                  1e-9,
                                  "ring Simple");
        // Tree: base + 2 (7 x NVLink + log2(16) x network): 6.8 + 2 (4.2 + 20) etc.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, tree, ll), 55.2, 1e-9, "tree LL");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, tree, ll128), 99.5, 1e-9, "tree LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, tree, simple), 176.4, 1e-9, "tree Simple");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetLatency(ar, nvlsTree, simple),
                                  25 + 8 * 20.9,
                                  1e-9,
                                  "NVLS tree");
        // Bandwidths: LL bound 20.4 (Intel hosts, more than 2 nodes); tree x 0.92
        // (under 16 x 36 per channel), LL128 x 120/128; ring x 128/254; tree x 0.5.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, ring, ll), 20.4 * 128 / 254, 1e-9, "ring LL");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, ring, ll128),
                                  353.28 * 128 / 254,
                                  1e-9,
                                  "ring LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, tree, ll), 10.2, 1e-9, "tree LL");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, tree, ll128), 165.6, 1e-9, "tree LL128");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, tree, simple), 176.64, 1e-9, "tree Simple");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBandwidth(ar, nvlsTree, simple),
                                  384.0 * 128 / 254,
                                  1e-9,
                                  "NVLS tree: min(38.25, 24, 45.5) x 16");
        NS_TEST_EXPECT_MSG_EQ(m.GetBandwidth(ar, NcclAlgorithm::NVLS, simple),
                              0,
                              "NVLS across servers needs SHARP");

        // 8 B: tree LL 55.2 (tree LL128 99.5, NVLS tree 192.2, ring LL 311.6).
        auto c = m.Select(ar, 8);
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(c.algorithm), "tree", "8 B");
        NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(c.protocol), "ll", "8 B");
        // 1 MiB: tree LL128 99.5 + 1048576 / (165.6 x 0.6 x 1000) = 110.05; tree Simple
        // 188.27; NVLS tree 197.6; tree LL 260.8.
        c = m.Select(ar, 1048576);
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(c.algorithm), "tree", "1 MiB");
        NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(c.protocol), "ll128", "1 MiB");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.timeUs, 99.5 + 1048576 / 99360.0, 1e-6, "1 MiB time");
        // 64 MiB: NVLS tree 192.2 + 346.79 = 539.0 against tree LL128 (x 0.9) 549.8.
        c = m.Select(ar, 67108864);
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(c.algorithm), "nvls_tree", "64 MiB");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.timeUs,
                                  192.2 + 67108864 / (384.0 * 128 / 254 * 1000),
                                  1e-6,
                                  "64 MiB time");
        // The ring's plateau: Simple's latency x 1.4 across servers (1190 -> 1666).
        NS_TEST_EXPECT_MSG_EQ_TOL(m.PredictTimeUs(ar, ring, simple, 67108864),
                                  1190.0 * 1.4 + 67108864 / (384.0 * 128 / 254 * 1000),
                                  1e-6,
                                  "ring plateau");
        // 1 GiB without NVLS: tree Simple 176.4 + 6078.7 beats tree LL128 6583.5 and
        // the ring's 7214.7.
        c = m.Select(ar, 1073741824, {ring, tree});
        NS_TEST_EXPECT_MSG_EQ(NcclAlgorithmToString(c.algorithm), "tree", "1 GiB, no NVLS");
        NS_TEST_EXPECT_MSG_EQ(NcclProtocolToString(c.protocol), "simple", "1 GiB, no NVLS");
        // One GPU per NIC-serving pattern: the tree pays 0.85.
        NcclTuningInput single = SixteenServers();
        single.treePatternSingleGpu = true;
        NS_TEST_EXPECT_MSG_EQ_TOL(NcclTuningModel(single).GetBandwidth(ar, tree, simple),
                                  176.64 * 0.85,
                                  1e-9,
                                  "TREE pattern");
        // All-to-all is not in NCCL's tuner: nothing is predicted.
        NS_TEST_EXPECT_MSG_EQ(m.Select(CollectiveOp::ALL_TO_ALL, 1024).timeUs, -1, "all-to-all");
    }
};

/// Names and bad input.
class NcclTuningNamesTest : public TestCase
{
  public:
    NcclTuningNamesTest()
        : TestCase("algorithm and protocol names round-trip; bad names and shapes are refused")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
        {
            const auto algo = static_cast<NcclAlgorithm>(a);
            NS_TEST_EXPECT_MSG_EQ(
                NcclAlgorithmToString(NcclAlgorithmFromString(NcclAlgorithmToString(algo))),
                NcclAlgorithmToString(algo),
                "round trip");
        }
        bool threw = false;
        try
        {
            NcclProtocolFromString("ll64");
        }
        catch (const std::invalid_argument& e)
        {
            threw = std::string(e.what()).find("'ll64'") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "an unknown protocol is named");
        NcclTuningInput bad = OneServer();
        bad.nodes = 9;
        threw = false;
        try
        {
            NcclTuningModel m(bad);
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "more nodes than ranks is refused");
    }
};

/// \brief The NCCL tuning model test suite.
class NcclTuningModelTestSuite : public TestSuite
{
  public:
    NcclTuningModelTestSuite()
        : TestSuite("ai-fabric-nccl-tuning-model", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new NcclTuningOneServerTableTest, AI_FABRIC_QUICK);
        AddTestCase(new NcclTuningSixteenServersTableTest, AI_FABRIC_QUICK);
        AddTestCase(new NcclTuningNamesTest, AI_FABRIC_QUICK);
    }
};

static NcclTuningModelTestSuite g_ncclTuningModelTestSuite; //!< registers the suite

} // namespace
