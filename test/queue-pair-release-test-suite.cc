/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Memory bounded by the work in flight: an RC connection idle for the fabric's
 * QpIdleTimeout is released at both ends (RdmaNic::ReleaseQueuePair), its counters
 * stay in the totals, a late frame for its QPN is dropped and counted, the QPN is
 * given out again only after the NIC's QpnReuseDelay, and a connection made on a
 * reused QPN delivers to the right host. Both fabrics.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-hca.h"
#include "ns3/lambda-callback.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-recovery-ops.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-port-owner.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/// A leaf-spine of \p leaves x \p hostsPerLeaf hosts and one spine.
Ptr<TopologyGraph>
SmallLeafSpine(uint32_t leaves, uint32_t hostsPerLeaf)
{
    Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
    h->SetAttribute("Leaves", UintegerValue(leaves));
    h->SetAttribute("Spines", UintegerValue(1));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    return h->Build();
}

/// What the fabric's completion callbacks saw.
struct Completions
{
    std::vector<RdmaFabric::MessageRecord> sent; //!< sender completions
    /// receiver completions: (src, dst, tag, bytes)
    std::vector<std::vector<uint64_t>> delivered;

    void Listen(Ptr<RdmaFabric> fabric)
    {
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [this](const RdmaFabric::MessageRecord& r) { sent.push_back(r); }));
        fabric->AddDeliveredCallback(
            MakeLambdaCallback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
                [this](uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes) {
                    delivered.push_back({src, dst, tag, bytes});
                }));
    }
};

/// A frame as host \p src's NIC would send it to QPN \p destQp of host \p dst.
RoceParsedFrame
FrameTo(uint32_t src, uint32_t dst, uint32_t destQp, uint8_t opcode)
{
    RoceFrameFields f;
    f.srcMac = RoceNic::HostMac(src);
    f.dstMac = RoceNic::HostMac(dst);
    f.srcIp = RoceNic::HostAddress(src);
    f.dstIp = RoceNic::HostAddress(dst);
    f.opcode = opcode;
    f.destQp = destQp;
    f.psn = 0;
    if (opcode == RdmaOpcode::ACKNOWLEDGE)
    {
        f.hasAeth = true;
    }
    else
    {
        f.payloadBytes = 1000;
        f.ackReq = true;
        f.hasReth = true;
        f.rethDmaLen = 1000;
        f.hasImm = true;
    }
    RoceFrameView v;
    RoceFrame::Describe(f, v);
    return RoceParsedFrame(v);
}

/**
 * RoCEv2: host 0 writes to host 1; 1 ms later host 2 writes to host 3, which
 * releases the idle 0-1 connection (QpIdleTimeout 100 us): both its queue pairs go,
 * host 0's and 1's live counts are 0, the fabric counts one release. A late data
 * frame and a late ACK for host 1's released QPN are dropped and counted; they place
 * nothing. A new connection 1-0 within QpnReuseDelay gets a new QPN; one after it
 * gets the released QPN back and delivers its message to the right host with the
 * right tag. Counters of released queue pairs (retransmissions etc.) are kept.
 */
class RoceReleaseTestCase : public TestCase
{
  public:
    RoceReleaseTestCase()
        : TestCase("RoCEv2: an idle connection is released at both ends, a late frame for "
                   "it is dropped, its QPN is reused after QpnReuseDelay with correct "
                   "delivery")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = SmallLeafSpine(2, 2);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        fabric->SetAttribute("QpIdleTimeout", TimeValue(MicroSeconds(100)));
        for (uint32_t h = 0; h < 4; ++h)
        {
            fabric->GetNic(h)->SetAttribute("QpnReuseDelay", TimeValue(MilliSeconds(2)));
        }
        Completions done;
        done.Listen(fabric);
        Ptr<RoceNic> nic1 = fabric->GetNic(1);
        uint32_t releasedQpn = 0;
        fabric->PostWrite(0, 1, 10000, 11, 0);
        ScheduleLambda(MicroSeconds(50),
                       [&] { releasedQpn = nic1->GetQueuePairs().at(0)->GetLocalQpn(); });
        ScheduleLambda(MicroSeconds(60), [&] {
            NS_TEST_EXPECT_MSG_EQ(releasedQpn, 16, "host 1's first QPN: QpnBase (16)");
        });
        ScheduleLambda(MilliSeconds(1), [&] {
            NS_TEST_EXPECT_MSG_EQ(fabric->GetLiveConnections(), 1, "0-1 idle, not released");
            fabric->PostWrite(2, 3, 10000, 22, 0); // posting releases what idled 100 us
            NS_TEST_EXPECT_MSG_EQ(fabric->GetReleasedConnections(), 1, "0-1 released");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetLiveConnections(), 1, "only 2-3 alive");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetNic(0)->GetLiveQueuePairs(), 0, "host 0: none");
            NS_TEST_EXPECT_MSG_EQ(nic1->GetLiveQueuePairs(), 0, "host 1: none");
            NS_TEST_EXPECT_MSG_EQ((nic1->GetQueuePair(releasedQpn) == nullptr),
                                  true,
                                  "QPN released");
            // Late frames for the released QPN: dropped and counted, no reply, no crash.
            RocePortOwner& owner = *nic1;
            RoceParsedFrame data = FrameTo(0, 1, releasedQpn, RdmaOpcode::WRITE_ONLY_IMM);
            owner.ReceiveFrame(*nic1->GetDevice(), data);
            RoceParsedFrame ack = FrameTo(0, 1, releasedQpn, RdmaOpcode::ACKNOWLEDGE);
            owner.ReceiveFrame(*nic1->GetDevice(), ack);
            NS_TEST_EXPECT_MSG_EQ(nic1->GetStaleFrames(), 2, "both late frames counted");
        });
        ScheduleLambda(MilliSeconds(2), [&] {
            // Within QpnReuseDelay of the release: a new QPN, not the released one.
            fabric->PostWrite(1, 0, 3000, 33, 0);
            NS_TEST_EXPECT_MSG_EQ(nic1->GetQueuePairs().at(0)->GetLocalQpn(),
                                  nic1->GetQpnBase() + nic1->GetQpnSlots() - 1,
                                  "a new QPN while the released one is held back");
            NS_TEST_EXPECT_MSG_NE(nic1->GetQueuePairs().at(0)->GetLocalQpn(),
                                  releasedQpn,
                                  "the released QPN is not reused at once");
        });
        ScheduleLambda(MilliSeconds(4), [&] {
            // 1-0 idle since ~2 ms: released here, and host 1's first released QPN is
            // past QpnReuseDelay: host 1's new connection to host 2 takes it.
            fabric->PostWrite(1, 2, 5000, 44, 0);
            NS_TEST_EXPECT_MSG_EQ(fabric->GetReleasedConnections(), 3, "0-1, 2-3, 1-0");
            NS_TEST_EXPECT_MSG_EQ(nic1->GetQueuePairs().size(), 1, "host 1: only 1-2");
            NS_TEST_EXPECT_MSG_EQ(nic1->GetQueuePairs().at(0)->GetLocalQpn(),
                                  releasedQpn,
                                  "the oldest released QPN, past QpnReuseDelay, reused");
            NS_TEST_EXPECT_MSG_EQ(nic1->GetQpnSlots(), 2, "no third slot");
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.sent.size(), 4, "every message completed");
        NS_TEST_ASSERT_MSG_EQ(done.delivered.size(), 4, "every message delivered");
        const std::vector<std::vector<uint64_t>> expected{{0, 1, 11, 10000},
                                                          {2, 3, 22, 10000},
                                                          {1, 0, 33, 3000},
                                                          {1, 2, 44, 5000}};
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((done.delivered[i] == expected[i]),
                                  true,
                                  "delivery " << i << ": right hosts, tag and size");
            NS_TEST_EXPECT_MSG_EQ(done.sent[i].src, expected[i][0], "sender of " << i);
            NS_TEST_EXPECT_MSG_EQ(done.sent[i].dst, expected[i][1], "receiver of " << i);
            NS_TEST_EXPECT_MSG_EQ(done.sent[i].tag, expected[i][2], "tag of " << i);
        }
        const RdmaFabric::Counters c = fabric->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.queuePairs, 4, "connections made: 0-1, 2-3, 1-0, 1-2");
        NS_TEST_EXPECT_MSG_EQ(c.queuePairsPeak, 1, "each post released the idle one first");
        NS_TEST_EXPECT_MSG_EQ(c.queuePairsReleased, 3, "three released");
        NS_TEST_EXPECT_MSG_EQ(c.staleFrames, 2, "the two late frames");
        NS_TEST_EXPECT_MSG_EQ(c.retransmittedPackets, 0, "nothing resent");
        NS_TEST_EXPECT_MSG_EQ(c.spuriousRetransmissions, 0, "the late data was not placed");
        Simulator::Destroy();
    }
};

/**
 * Many sequential messages between changing host pairs (RoCEv2 and InfiniBand): with
 * releases, the connections alive at once stay at the few in use (peak <= 3, at the end
 * 1), the QPN slots of each host stay bounded (QPNs are reused), and every message
 * completes; with QpIdleTimeout 0 nothing is released and every pair's connection
 * stays (the behaviour before releases).
 */
class SequentialFlowsTestCase : public TestCase
{
  public:
    SequentialFlowsTestCase(bool infiniband, bool release)
        : TestCase(std::string(infiniband ? "InfiniBand" : "RoCEv2") +
                   ": 120 sequential messages over changing pairs, " +
                   (release ? "connections released and QPNs reused"
                            : "QpIdleTimeout 0 keeps every connection")),
          m_infiniband(infiniband),
          m_release(release)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = SmallLeafSpine(4, 4);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        Ptr<RdmaFabric> fabric;
        std::vector<Ptr<RdmaNic>> nics;
        const uint32_t hosts = 16;
        if (m_infiniband)
        {
            Ptr<IbFabric> ib = IbFabricHelper().Install(g, routes);
            for (uint32_t h = 0; h < hosts; ++h)
            {
                nics.push_back(ib->GetHca(h));
            }
            fabric = ib;
        }
        else
        {
            Ptr<RoceFabric> roce = RoceFabricHelper().Install(g, routes);
            for (uint32_t h = 0; h < hosts; ++h)
            {
                nics.push_back(roce->GetNic(h));
            }
            fabric = roce;
        }
        fabric->SetAttribute("QpIdleTimeout", TimeValue(MicroSeconds(m_release ? 20 : 0)));
        for (const auto& nic : nics)
        {
            nic->SetAttribute("QpnReuseDelay", TimeValue(MicroSeconds(100)));
        }
        Completions done;
        done.Listen(fabric);
        // Message i: host i % 16 to host (i * 7 + 3) % 16 (another one), every 50 us.
        const uint32_t n = 120;
        uint64_t pairs = 0;
        std::vector<bool> seen(hosts * hosts, false);
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t src = i % hosts;
            uint32_t dst = (i * 7 + 3) % hosts;
            dst = dst == src ? (dst + 1) % hosts : dst;
            const uint32_t key = std::min(src, dst) * hosts + std::max(src, dst);
            pairs += seen[key] ? 0 : 1;
            seen[key] = true;
            ScheduleLambda(MicroSeconds(50) * i,
                           [fabric, src, dst, i] { fabric->PostWrite(src, dst, 4000, i, 0); });
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.sent.size(), n, "every message completed");
        NS_TEST_ASSERT_MSG_EQ(done.delivered.size(), n, "every message delivered");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(done.delivered[i][2], i, "in order, each its own tag");
            NS_TEST_EXPECT_MSG_EQ(done.delivered[i][0], i % hosts, "from its sender");
        }
        const RdmaFabric::Counters c = fabric->GetCounters();
        uint32_t slots = 0;
        for (const auto& nic : nics)
        {
            slots = std::max(slots, nic->GetQpnSlots());
        }
        if (m_release)
        {
            NS_TEST_EXPECT_MSG_EQ(c.queuePairs, n, "one connection per message");
            NS_TEST_EXPECT_MSG_EQ(c.queuePairsPeak,
                                  1,
                                  "one at a time: each post released the last");
            NS_TEST_EXPECT_MSG_EQ(c.queuePairsReleased, n - 1, "all but the last released");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetLiveConnections(), 1, "the last one");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(slots, 6, "QPNs reused: slots stay few");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(c.queuePairs, pairs, "one connection per pair");
            NS_TEST_EXPECT_MSG_EQ(c.queuePairsPeak, pairs, "all alive at the end");
            NS_TEST_EXPECT_MSG_EQ(c.queuePairsReleased, 0, "none released");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetLiveConnections(), pairs, "every pair's");
        }
        NS_TEST_EXPECT_MSG_EQ(c.staleFrames, 0, "no frame outlived its connection");
        Simulator::Destroy();
    }

    bool m_infiniband; //!< InfiniBand, else RoCEv2
    bool m_release;    //!< QpIdleTimeout 20 us, else 0 (never)
};

/**
 * QPNs as an HCA gives them out (both fabrics): host 0 connects to hosts 1, 2 and 3 in
 * that order and gets QPNs QpnBase, QpnBase + 1, QpnBase + 2 (16, 17, 18 by default;
 * 2, 3, 4 with QpnBase 2), never 0 or 1 (the SMI and GSI QPs); each peer's first QPN is
 * its QpnBase, each queue pair knows its peer's QPN, every message arrives. QpnBase
 * below 2 or above 2^24 - 1 is refused; QPN 1 and QPNs below QpnBase have no queue pair.
 */
class QpnAllocationTestCase : public TestCase
{
  public:
    QpnAllocationTestCase(bool infiniband)
        : TestCase(std::string(infiniband ? "InfiniBand" : "RoCEv2") +
                   ": QPNs from QpnBase (16) in allocation order, never 0 or 1"),
          m_infiniband(infiniband)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        for (uint32_t base : {RdmaNic::DEFAULT_QPN_BASE, 2U})
        {
            Ptr<TopologyGraph> g = SmallLeafSpine(2, 2);
            Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
            Ptr<RdmaFabric> fabric;
            std::vector<Ptr<RdmaNic>> nics;
            if (m_infiniband)
            {
                Ptr<IbFabric> ib = IbFabricHelper().Install(g, routes);
                for (uint32_t h = 0; h < 4; ++h)
                {
                    nics.push_back(ib->GetHca(h));
                }
                fabric = ib;
            }
            else
            {
                Ptr<RoceFabric> roce = RoceFabricHelper().Install(g, routes);
                for (uint32_t h = 0; h < 4; ++h)
                {
                    nics.push_back(roce->GetNic(h));
                }
                fabric = roce;
            }
            NS_TEST_EXPECT_MSG_EQ(nics[0]->GetQpnBase(), 16u, "the default QpnBase");
            for (const auto& nic : nics)
            {
                NS_TEST_EXPECT_MSG_EQ(nic->SetAttributeFailSafe("QpnBase", UintegerValue(1)),
                                      false,
                                      "QPN 1 is the GSI's: refused");
                NS_TEST_EXPECT_MSG_EQ(nic->SetAttributeFailSafe("QpnBase", UintegerValue(1U << 24)),
                                      false,
                                      "QPNs are 24 bits: refused");
                nic->SetAttribute("QpnBase", UintegerValue(base));
            }
            Completions done;
            done.Listen(fabric);
            for (uint32_t dst : {1U, 2U, 3U})
            {
                fabric->PostWrite(0, dst, 3000, dst, 0);
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(done.delivered.size(), 3, "every message delivered");
            const std::vector<Ptr<RdmaQueuePair>> qps = nics[0]->GetQueuePairs();
            NS_TEST_ASSERT_MSG_EQ(qps.size(), 3, "host 0: one queue pair per peer");
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(qps[i]->GetLocalQpn(), base + i, "allocation order");
                NS_TEST_EXPECT_MSG_EQ(qps[i]->GetPeerHost(), i + 1, "its peer");
                Ptr<RdmaNic> peer = nics[i + 1];
                NS_TEST_ASSERT_MSG_EQ(peer->GetQueuePairs().size(), 1, "the peer's one");
                const Ptr<RdmaQueuePair> p = peer->GetQueuePairs().at(0);
                NS_TEST_EXPECT_MSG_EQ(p->GetLocalQpn(), base, "the peer's first QPN");
                NS_TEST_EXPECT_MSG_EQ(qps[i]->GetPeerQpn(), p->GetLocalQpn(), "connected");
                NS_TEST_EXPECT_MSG_EQ(p->GetPeerQpn(), qps[i]->GetLocalQpn(), "both ways");
            }
            NS_TEST_EXPECT_MSG_EQ((nics[0]->GetQueuePair(1) == nullptr), true, "no QP 1");
            NS_TEST_EXPECT_MSG_EQ((nics[0]->GetQueuePair(base - 1) == nullptr),
                                  true,
                                  "none below QpnBase");
            NS_TEST_EXPECT_MSG_EQ((nics[0]->GetQueuePair(base + 3) == nullptr),
                                  true,
                                  "none beyond the three");
            Simulator::Destroy();
        }
    }

    bool m_infiniband; //!< InfiniBand, else RoCEv2
};

/**
 * RdmaQueuePair::CreateFromDefaults, what every NIC makes its queue pairs with, gives
 * the queue pair CreateObject gives: every attribute equal, before and after
 * Config::SetDefault changes two defaults (the prototype it copies is made anew), and
 * the copy has its own recovery scheme and receive queue, not the prototype's.
 */
class QueuePairDefaultsTestCase : public TestCase
{
  public:
    QueuePairDefaultsTestCase()
        : TestCase("CreateFromDefaults equals CreateObject, also after Config::SetDefault")
    {
    }

  private:
    /// Every attribute of \p a equals \p b's (as strings), named in \p when.
    void ExpectSameAttributes(const RdmaQueuePair& a, const RdmaQueuePair& b, const char* when)
    {
        const TypeId tid = RdmaQueuePair::GetTypeId();
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!info.accessor->HasGetter()) // (Recovery: GetRecovery below)
            {
                continue;
            }
            const std::string name = info.name;
            StringValue va;
            StringValue vb;
            a.GetAttribute(name, va);
            b.GetAttribute(name, vb);
            NS_TEST_EXPECT_MSG_EQ(va.Get(), vb.Get(), when << ": attribute " << name);
        }
        NS_TEST_EXPECT_MSG_EQ(a.GetRecovery(), b.GetRecovery(), when << ": attribute Recovery");
    }

    void DoRun() override
    {
        ExpectSameAttributes(*RdmaQueuePair::CreateFromDefaults(),
                             *CreateObject<RdmaQueuePair>(),
                             "the defaults");
        Config::SetDefault("ns3::RdmaQueuePair::RetransmitTimeout", TimeValue(MicroSeconds(123)));
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("SelectiveRepeat"));
        Ptr<RdmaQueuePair> changed = RdmaQueuePair::CreateFromDefaults();
        ExpectSameAttributes(*changed, *CreateObject<RdmaQueuePair>(), "after SetDefault");
        TimeValue rto;
        changed->GetAttribute("RetransmitTimeout", rto);
        NS_TEST_EXPECT_MSG_EQ(rto.Get(), MicroSeconds(123), "the changed default is taken");
        NS_TEST_EXPECT_MSG_EQ(changed->GetRecoveryOps()->GetInstanceTypeId().GetName(),
                              "ns3::RdmaSelectiveRepeat",
                              "its recovery scheme is the changed default's");
        Ptr<RdmaQueuePair> other = RdmaQueuePair::CreateFromDefaults();
        NS_TEST_EXPECT_MSG_EQ((other->GetRecoveryOps() != changed->GetRecoveryOps()),
                              true,
                              "each queue pair has its own recovery scheme");
        Config::Reset();
        ExpectSameAttributes(*RdmaQueuePair::CreateFromDefaults(),
                             *CreateObject<RdmaQueuePair>(),
                             "after Config::Reset");
    }
};

/// The queue-pair release suite.
class QueuePairReleaseTestSuite : public TestSuite
{
  public:
    QueuePairReleaseTestSuite()
        : TestSuite("ai-fabric-queue-pair-release", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new RoceReleaseTestCase, AI_FABRIC_QUICK);
        AddTestCase(new QueuePairDefaultsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new QpnAllocationTestCase(false), AI_FABRIC_QUICK);
        AddTestCase(new QpnAllocationTestCase(true), AI_FABRIC_QUICK);
        AddTestCase(new SequentialFlowsTestCase(false, true), AI_FABRIC_QUICK);
        AddTestCase(new SequentialFlowsTestCase(true, true), AI_FABRIC_QUICK);
        AddTestCase(new SequentialFlowsTestCase(false, false), AI_FABRIC_QUICK);
        AddTestCase(new SequentialFlowsTestCase(true, false), AI_FABRIC_QUICK);
    }
};

/// Registers the suite.
static QueuePairReleaseTestSuite g_queuePairReleaseTestSuite;

} // namespace
