/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Distribution over MPI ranks without MPI (doc/distributed.md): RankPartition on a k=4
 * fat-tree against its closed form, the fabric helpers' choice of remote channels, and
 * the InfiniBand flow-control packet IbRemoteChannel sends (IBA vol. 1 sec. 7.9.4).
 */
#include "ai-fabric-test-compat.h"

#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-remote-channel.h"
#include "ns3/ib-vcrc-trailer.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/rail-topology-helper.h"
#include "ns3/rank-partition.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-remote-channel.h"
#include "ns3/simulator.h"
#include "ns3/topology-file-reader.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

Ptr<FabricTopology>
FatTree4()
{
    Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
    h->SetAttribute("K", UintegerValue(4));
    return h->CreateTopology();
}

/// \return a k-ary fat-tree of servers of \p gpus GPUs each
Ptr<TopologyGraph>
FatTreeServers(uint32_t k, uint32_t gpus)
{
    Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
    h->SetAttribute("K", UintegerValue(k));
    h->SetAttribute("GpusPerServer", UintegerValue(gpus));
    return h->CreateTopology()->GetGraph();
}

/// \return \p g written as a topology file (the HPCC-derived simulators' format) and
/// read back: the same nodes and cables, no groups
Ptr<TopologyGraph>
AsFile(const TopologyGraph& g)
{
    std::ostringstream os;
    os << g.GetNNodes() << " " << g.GetNSwitches() << " " << g.GetNLinks() << "\n";
    for (uint32_t sw : g.GetSwitches())
    {
        os << sw << " ";
    }
    os << "\n";
    for (uint32_t l = 0; l < g.GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = g.GetLink(l);
        os << link.a << " " << link.b << " " << link.rate.GetBitRate() << " "
           << link.delay.GetNanoSeconds() << "ns 0\n";
    }
    std::istringstream in(os.str());
    return TopologyFileReader::Parse(in, "test");
}

/// \return the number of cut cables of \p p on \p g whose delay is \p delay
uint32_t
CutWithDelay(const TopologyGraph& g, const std::vector<uint32_t>& p, Time delay)
{
    uint32_t n = 0;
    for (uint32_t l = 0; l < g.GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = g.GetLink(l);
        n += p[link.a] != p[link.b] && link.delay == delay;
    }
    return n;
}

/// \return the message of the std::invalid_argument \p fn throws, or ""
template <typename F>
std::string
Thrown(F fn)
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

} // namespace

/// "group" on a k=4 fat-tree: 4 pods of 2 edge + 2 aggregation switches and 4 hosts,
/// 4 cores; each core joins one aggregation switch per pod.
class RankPartitionFatTreeTestCase : public TestCase
{
  public:
    RankPartitionFatTreeTestCase()
        : TestCase("k=4 fat-tree by pod: 2 ranks of 18 nodes, 8 cut cables, 1 us lookahead")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = FatTree4()->GetGraph();
        const std::vector<uint32_t> p = RankPartition::Partition(*g, 2, "group");
        NS_TEST_ASSERT_MSG_EQ(p.size(), g->GetNNodes(), "one rank per node");
        for (uint32_t node = 0; node < g->GetNNodes(); ++node)
        {
            if (g->GetTier(node) < 2)
            {
                // pods 0-1 on rank 0, pods 2-3 on rank 1
                NS_TEST_ASSERT_MSG_EQ(p[node], g->GetGroup(node) / 2, "node " << node);
            }
        }
        const std::vector<uint32_t>& hosts = g->GetHosts();
        for (uint32_t h = 0; h < hosts.size(); ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(p[hosts[h]], h / 8, "host " << h);
        }
        const RankPartition::Stats s = RankPartition::GetStats(*g, p);
        NS_TEST_ASSERT_MSG_EQ(s.nodes.size(), 2, "two ranks");
        NS_TEST_ASSERT_MSG_EQ(s.nodes[0], 18, "8 hosts + 8 pod switches + 2 of 4 cores");
        NS_TEST_ASSERT_MSG_EQ(s.nodes[1], 18, "the same");
        NS_TEST_ASSERT_MSG_EQ(s.hosts[0], 8, "hosts of pods 0-1");
        // Each core has 4 cables, one per pod: 2 to the other rank's pods.
        NS_TEST_ASSERT_MSG_EQ(s.cutCables, 8, "4 cores x 2 cables to the other half");
        NS_TEST_ASSERT_MSG_EQ(s.remoteCables[0], 8, "every cut cable has an end on each rank");
        NS_TEST_ASSERT_MSG_EQ(s.minCutDelayTicks,
                              MicroSeconds(1).GetTimeStep(),
                              "the cables' 1 us default delay is the lookahead");

        // 4 ranks: one pod each, one core each: cores cut 3 of their 4 cables, and the
        // 16 host and edge-aggregation cables stay within a rank.
        const RankPartition::Stats s4 =
            RankPartition::GetStats(*g, RankPartition::Partition(*g, 4, "group"));
        NS_TEST_ASSERT_MSG_EQ(s4.cutCables, 12, "4 cores x 3");
        NS_TEST_ASSERT_MSG_EQ(s4.nodes[3], 9, "4 hosts + 4 pod switches + 1 core");

        const std::vector<uint32_t> b = RankPartition::Partition(*g, 3, "block");
        NS_TEST_ASSERT_MSG_EQ(b.front(), 0, "block: first node on rank 0");
        NS_TEST_ASSERT_MSG_EQ(b.back(), 2, "block: last node on rank 2");
        NS_TEST_ASSERT_MSG_EQ(RankPartition::GetStats(*g, b).nodes[1], 12, "36 nodes / 3");

        std::string m = Thrown([&] { RankPartition::Partition(*g, 5, "group"); });
        NS_TEST_ASSERT_MSG_NE(m.find("5 ranks for 4 groups"), std::string::npos, m);
        m = Thrown([&] { RankPartition::Partition(*g, 2, "metis"); });
        NS_TEST_ASSERT_MSG_NE(m.find("'metis' is unknown (allowed: group, block, graph)"),
                              std::string::npos,
                              m);
        m = Thrown([&] { RankPartition::Partition(*g, 0, "block"); });
        NS_TEST_ASSERT_MSG_NE(m.find("0 ranks"), std::string::npos, m);
        // One process without MPI is rank 0 of 1.
        NS_TEST_ASSERT_MSG_EQ(RankPartition::GetLocalRank(), 0, "rank 0");
        NS_TEST_ASSERT_MSG_EQ(RankPartition::GetNRanks(), 1, "one rank");
    }
};

/// "group" on GPU servers: a server's GPUs and scale-up crossbar (150 ns cables) on one
/// rank, servers in equal blocks, the lookahead the 1 us fabric cable's.
class RankPartitionServersTestCase : public TestCase
{
  public:
    RankPartitionServersTestCase()
        : TestCase("GPU servers whole: no scale-up cable cut, lookahead 1 us (fat-tree, "
                   "leaf-spine, rail)")
    {
    }

  private:
    /// Servers whole and in equal contiguous blocks; no 150 ns cable cut.
    void CheckServers(const TopologyGraph& g, const std::vector<uint32_t>& p, uint32_t ranks)
    {
        const TopologyGraph::Shape& sh = g.GetShape();
        std::vector<uint32_t> servers(ranks, 0);
        for (uint32_t s = 0; s < sh.servers; ++s)
        {
            const uint32_t rank = p[sh.firstScaleUpSwitch + s];
            NS_TEST_ASSERT_MSG_EQ(rank, s * ranks / sh.servers, "server " << s << " in blocks");
            servers[rank]++;
            for (uint32_t j = 0; j < sh.gpusPerServer; ++j)
            {
                NS_TEST_ASSERT_MSG_EQ(p[g.GetHosts()[s * sh.gpusPerServer + j]],
                                      rank,
                                      "GPU " << j << " of server " << s << " with its crossbar");
            }
        }
        for (uint32_t r = 0; r < ranks; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(servers[r], sh.servers / ranks, "servers on rank " << r);
        }
        NS_TEST_ASSERT_MSG_EQ(CutWithDelay(g, p, NanoSeconds(150)), 0, "no scale-up cable cut");
    }

    void DoRun() override
    {
        // k=8 fat-tree of 8-GPU servers: 128 GPUs, 16 servers (2 per pod), 80 fabric
        // switches + 16 crossbars. Pods go with their servers, the 16 cores are spread;
        // each core has one cable per pod, so (R-1)/R of its 8 cables are cut.
        Ptr<TopologyGraph> g = FatTreeServers(8, 8);
        NS_TEST_ASSERT_MSG_EQ(g->GetShape().servers, 16, "16 servers");
        for (uint32_t ranks : {2U, 4U})
        {
            const std::vector<uint32_t> p = RankPartition::Partition(*g, ranks, "group");
            CheckServers(*g, p, ranks);
            const RankPartition::Stats s = RankPartition::GetStats(*g, p);
            NS_TEST_ASSERT_MSG_EQ(s.cutCables, 16 * 8 * (ranks - 1) / ranks, ranks << " ranks");
            NS_TEST_ASSERT_MSG_EQ(s.minCutDelayTicks,
                                  MicroSeconds(1).GetTimeStep(),
                                  "the fabric cable's 1 us is the lookahead");
            for (uint32_t r = 0; r < ranks; ++r)
            {
                NS_TEST_ASSERT_MSG_EQ(s.nodes[r], (128 + 96) / ranks, "nodes on rank " << r);
                NS_TEST_ASSERT_MSG_EQ(s.hosts[r], 128 / ranks, "GPUs on rank " << r);
            }
            // Same arguments, same partition.
            NS_TEST_ASSERT_MSG_EQ((RankPartition::Partition(*g, ranks, "group") == p),
                                  true,
                                  "deterministic");
            // "block" on the same graph cuts servers (the crossbars are the last nodes,
            // away from their GPUs): the 150 ns scale-up cable becomes the lookahead.
            const std::vector<uint32_t> b = RankPartition::Partition(*g, ranks, "block");
            NS_TEST_ASSERT_MSG_GT(CutWithDelay(*g, b, NanoSeconds(150)), 0, "block cuts servers");
            NS_TEST_ASSERT_MSG_EQ(RankPartition::GetStats(*g, b).minCutDelayTicks,
                                  NanoSeconds(150).GetTimeStep(),
                                  "block's lookahead");
        }
        // k=4 of 8-GPU servers: a server spans two pods (4 hosts each); 2 servers.
        Ptr<TopologyGraph> g4 = FatTreeServers(4, 8);
        const std::vector<uint32_t> p4 = RankPartition::Partition(*g4, 2, "group");
        CheckServers(*g4, p4, 2);
        const RankPartition::Stats s4 = RankPartition::GetStats(*g4, p4);
        NS_TEST_ASSERT_MSG_EQ(s4.cutCables, 8, "4 cores x 2 cables to the other half");
        NS_TEST_ASSERT_MSG_EQ(s4.minCutDelayTicks, MicroSeconds(1).GetTimeStep(), "1 us");
        std::string m = Thrown([&] { RankPartition::Partition(*g4, 4, "group"); });
        NS_TEST_ASSERT_MSG_NE(m.find("4 ranks for 2 servers"), std::string::npos, m);

        // Leaf-spine, 4 leaves of 4 GPUs, 2 spines, 2 servers of 8 GPUs: each server's
        // leaves with it, the spines one per rank: 4 leaf-spine cables cut.
        Ptr<LeafSpineTopologyHelper> ls = CreateObject<LeafSpineTopologyHelper>();
        ls->SetAttribute("GpusPerServer", UintegerValue(8));
        Ptr<TopologyGraph> gl = ls->CreateTopology()->GetGraph();
        const std::vector<uint32_t> pl = RankPartition::Partition(*gl, 2, "group");
        CheckServers(*gl, pl, 2);
        const RankPartition::Stats sl = RankPartition::GetStats(*gl, pl);
        NS_TEST_ASSERT_MSG_EQ(sl.cutCables, 4, "4 leaves x 1 spine on the other rank");
        NS_TEST_ASSERT_MSG_EQ(sl.nodes[0], 12, "8 GPUs, 1 crossbar, 2 leaves, 1 spine");
        NS_TEST_ASSERT_MSG_EQ(sl.minCutDelayTicks, MicroSeconds(1).GetTimeStep(), "1 us");

        // Rail-optimized, 4 servers of 8 GPUs, 8 rail leaves, 2 spines: the leaves join
        // every server, so they are spread (4 per rank) as the spines (1 per rank); cut:
        // each crossbar's 4 NIC cables to the other rank's rails (16) and half the 16
        // leaf-spine cables (8).
        Ptr<RailTopologyHelper> rail = CreateObject<RailTopologyHelper>();
        rail->SetAttribute("GpusPerServer", UintegerValue(8));
        rail->SetAttribute("Spines", UintegerValue(2));
        Ptr<TopologyGraph> gr = rail->CreateTopology()->GetGraph();
        const std::vector<uint32_t> pr = RankPartition::Partition(*gr, 2, "group");
        CheckServers(*gr, pr, 2);
        const RankPartition::Stats sr = RankPartition::GetStats(*gr, pr);
        NS_TEST_ASSERT_MSG_EQ(sr.cutCables, 24, "16 NIC cables + 8 leaf-spine cables");
        NS_TEST_ASSERT_MSG_EQ(sr.nodes[0], 16 + 2 + 4 + 1, "GPUs, crossbars, leaves, spine");
        NS_TEST_ASSERT_MSG_EQ(sr.minCutDelayTicks, MicroSeconds(1).GetTimeStep(), "1 us");
        NS_TEST_ASSERT_MSG_EQ(RankPartition::Describe(*g, "group"),
                              "servers (GPUs and scale-up crossbar) whole in contiguous blocks, "
                              "pods with the rank of most of their GPUs, cores spread by index",
                              "the runner's line");
    }
};

/// "graph" (and "group" on a topology file): METIS on the switches, hosts with theirs.
class RankPartitionGraphTestCase : public TestCase
{
  public:
    RankPartitionGraphTestCase()
        : TestCase("topology file: balanced METIS partition, hosts with their switch, fewer "
                   "cables cut than block, deterministic")
    {
    }

  private:
    void DoRun() override
    {
        // A k=8 fat-tree as a file (no pods): 128 hosts (node ids 0-127), 80 switches,
        // 384 cables; and a k=4 one, 36 nodes, 48 cables.
        for (const uint32_t k : {4U, 8U})
        {
            Ptr<TopologyGraph> g = AsFile(*FatTreeServers(k, 1));
            NS_TEST_ASSERT_MSG_EQ(g->GetShape().type, "file", "read as a file");
            if (!RankPartition::HasGraphPartitioner())
            {
                const std::string m = Thrown([&] { RankPartition::Partition(*g, 2, "graph"); });
                NS_TEST_ASSERT_MSG_NE(m.find("'graph' needs METIS"), std::string::npos, m);
                NS_TEST_ASSERT_MSG_EQ(RankPartition::Partition(*g, 1, "graph").size(),
                                      g->GetNNodes(),
                                      "one rank needs no partitioner");
                continue;
            }
            for (const uint32_t ranks : {2U, 4U})
            {
                const std::vector<uint32_t> p = RankPartition::Partition(*g, ranks, "graph");
                NS_TEST_ASSERT_MSG_EQ((RankPartition::Partition(*g, ranks, "graph") == p),
                                      true,
                                      "the same partition twice (METIS's fixed seed)");
                NS_TEST_ASSERT_MSG_EQ((RankPartition::Partition(*g, ranks, "group") == p),
                                      true,
                                      "a file's 'group' is 'graph'");
                for (uint32_t host : g->GetHosts())
                {
                    NS_TEST_ASSERT_MSG_EQ(p[host],
                                          p[g->GetPorts(host)[0].peer],
                                          "host node " << host << " with its switch");
                }
                const RankPartition::Stats s = RankPartition::GetStats(*g, p);
                const RankPartition::Stats b =
                    RankPartition::GetStats(*g, RankPartition::Partition(*g, ranks, "block"));
                // Balance: METIS's 3% imbalance on the units (a switch and its hosts),
                // which are up to 1 + k/2 nodes: every rank within 10% of the mean.
                const uint32_t mean = g->GetNNodes() / ranks;
                for (uint32_t r = 0; r < ranks; ++r)
                {
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(s.nodes[r] * 10, mean * 9, "rank " << r);
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(s.nodes[r] * 10, mean * 11, "rank " << r);
                }
                NS_TEST_ASSERT_MSG_LT(s.cutCables, b.cutCables, "k=" << k << ", " << ranks);
            }
        }
        // Short cables are cut last: a ring of 8 switches, one host each, whose cables
        // alternate 1 us and 100 ns; 2 ranks cut 2 cables, both 1 us.
        if (RankPartition::HasGraphPartitioner())
        {
            Ptr<TopologyGraph> ring = Create<TopologyGraph>();
            for (uint32_t i = 0; i < 8; ++i)
            {
                ring->AddSwitch();
            }
            for (uint32_t i = 0; i < 8; ++i)
            {
                const uint32_t h = ring->AddHost();
                ring->AddLink(h, i, DataRate("100Gbps"), MicroSeconds(1));
                ring->AddLink(i,
                              (i + 1) % 8,
                              DataRate("100Gbps"),
                              i % 2 ? MicroSeconds(1) : NanoSeconds(100));
            }
            const RankPartition::Stats s =
                RankPartition::GetStats(*ring, RankPartition::Partition(*ring, 2, "graph"));
            NS_TEST_ASSERT_MSG_EQ(s.cutCables, 2, "a ring cut in two places");
            NS_TEST_ASSERT_MSG_EQ(s.minCutDelayTicks,
                                  MicroSeconds(1).GetTimeStep(),
                                  "no 100 ns cable cut");
            NS_TEST_ASSERT_MSG_EQ(s.nodes[0], 8, "4 switches and their 4 hosts");
        }
    }
};

/// SetPartition: nodes get their system ids, cut cables the remote channel.
class RankPartitionHelperTestCase : public TestCase
{
  public:
    RankPartitionHelperTestCase()
        : TestCase("SetPartition: system ids, a remote channel on exactly the cut cables")
    {
    }

  private:
    void DoRun() override
    {
        Time::SetResolution(Time::PS);
        for (const bool ib : {false, true})
        {
            Ptr<FabricTopology> t = FatTree4();
            Ptr<TopologyGraph> g = t->GetGraph();
            const std::vector<uint32_t> p = RankPartition::Partition(*g, 2, "group");
            Ptr<RdmaFabric> fabric;
            if (ib)
            {
                IbFabricHelper helper;
                helper.SetPartition(p);
                fabric = helper.Install(g, t->GetRoutes());
            }
            else
            {
                RoceFabricHelper helper;
                helper.SetPartition(p);
                fabric = helper.Install(g, t->GetRoutes());
            }
            const NodeContainer& nodes = fabric->GetNodes();
            uint32_t remote = 0;
            uint32_t plain = 0;
            for (uint32_t node = 0; node < g->GetNNodes(); ++node)
            {
                Ptr<Node> n = nodes.Get(node);
                NS_TEST_ASSERT_MSG_EQ(n->GetSystemId(), p[node], "system id of node " << node);
                for (uint32_t d = 0; d < n->GetNDevices(); ++d)
                {
                    Ptr<Channel> ch = n->GetDevice(d)->GetChannel();
                    const bool isRemote = ib ? DynamicCast<IbRemoteChannel>(ch) != nullptr
                                             : DynamicCast<RoceRemoteChannel>(ch) != nullptr;
                    const bool cut = ch->GetDevice(0)->GetNode()->GetSystemId() !=
                                     ch->GetDevice(1)->GetNode()->GetSystemId();
                    NS_TEST_ASSERT_MSG_EQ(isRemote, cut, "node " << node << " port " << d);
                    (isRemote ? remote : plain)++;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(remote, 16, (ib ? "IB" : "RoCEv2") << ": 8 cut cables x 2 ends");
            NS_TEST_ASSERT_MSG_EQ(plain, 80, "40 other cables x 2 ends");
            Simulator::Destroy();
        }
    }
};

/// The credit update crossing ranks: 4 bytes and the LPCRC.
class IbFlowControlPacketTestCase : public TestCase
{
  public:
    IbFlowControlPacketTestCase()
        : TestCase("InfiniBand flow-control packet: fields, LPCRC, rejection of a bit error")
    {
    }

  private:
    void DoRun() override
    {
        uint8_t b[6];
        IbRemoteChannel::WriteFlowControlPacket(b, 3, 0xABC, 0x123);
        // Op 0 | FCTBS[11:8], FCTBS[7:0], VL | FCCL[11:8], FCCL[7:0]
        NS_TEST_ASSERT_MSG_EQ(+b[0], 0x0A, "Op 0, FCTBS high nibble");
        NS_TEST_ASSERT_MSG_EQ(+b[1], 0xBC, "FCTBS low byte");
        NS_TEST_ASSERT_MSG_EQ(+b[2], 0x31, "VL 3, FCCL high nibble");
        NS_TEST_ASSERT_MSG_EQ(+b[3], 0x23, "FCCL low byte");
        const uint16_t crc = IbVcrcTrailer::Calculate(b, 4);
        const uint16_t lpcrc = static_cast<uint16_t>(b[4] | (b[5] << 8));
        NS_TEST_ASSERT_MSG_EQ(lpcrc, crc, "LPCRC over the 4 bytes, LSB first");
        uint8_t vl = 0;
        uint16_t fctbs = 0;
        uint16_t fccl = 0;
        NS_TEST_ASSERT_MSG_EQ(IbRemoteChannel::ReadFlowControlPacket(b, vl, fctbs, fccl),
                              true,
                              "decodes");
        NS_TEST_ASSERT_MSG_EQ(+vl, 3, "VL");
        NS_TEST_ASSERT_MSG_EQ(fctbs, 0xABC, "FCTBS");
        NS_TEST_ASSERT_MSG_EQ(fccl, 0x123, "FCCL");
        b[3] ^= 0x04;
        NS_TEST_ASSERT_MSG_EQ(IbRemoteChannel::ReadFlowControlPacket(b, vl, fctbs, fccl),
                              false,
                              "a flipped bit fails the LPCRC");
    }
};

class RankPartitionTestSuite : public TestSuite
{
  public:
    RankPartitionTestSuite()
        : TestSuite("ai-fabric-rank-partition", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new RankPartitionFatTreeTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RankPartitionServersTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RankPartitionGraphTestCase, AI_FABRIC_QUICK);
        AddTestCase(new RankPartitionHelperTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbFlowControlPacketTestCase, AI_FABRIC_QUICK);
    }
};

static RankPartitionTestSuite g_rankPartitionTestSuite; //!< registers the suite
