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
#include "ns3/rank-partition.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-remote-channel.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

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
        NS_TEST_ASSERT_MSG_NE(m.find("'metis' is unknown (allowed: group, block)"),
                              std::string::npos,
                              m);
        m = Thrown([&] { RankPartition::Partition(*g, 0, "block"); });
        NS_TEST_ASSERT_MSG_NE(m.find("0 ranks"), std::string::npos, m);
        // One process without MPI is rank 0 of 1.
        NS_TEST_ASSERT_MSG_EQ(RankPartition::GetLocalRank(), 0, "rank 0");
        NS_TEST_ASSERT_MSG_EQ(RankPartition::GetNRanks(), 1, "one rank");
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
        AddTestCase(new RankPartitionHelperTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbFlowControlPacketTestCase, AI_FABRIC_QUICK);
    }
};

static RankPartitionTestSuite g_rankPartitionTestSuite; //!< registers the suite
