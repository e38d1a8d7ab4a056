/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * InfiniBand link failure: a core cable of a k=4 fat-tree fails under a long
 * message; what was on the cable and what the switches still sent into it is lost
 * as link-down drops (never as lossless drops), the Subnet Manager re-routes after
 * its reaction time, the new LFTs avoid the cable and are complete and minimal on
 * the degraded graph, and the RC transport recovers (NAK go-back-N, or the
 * retransmission timeout when the sender had finished). Without the re-route the
 * message never completes. The routing engines skip failed links. The runner's
 * --link-failure knob.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/packet.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/subnet-manager.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

using namespace ns3;

namespace
{

Ptr<TopologyGraph>
FatTree4()
{
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    return ft->Build();
}

/// The links an LFT walk from host rank src to host rank dst crosses (host links included).
std::vector<uint32_t>
LftPath(Ptr<const TopologyGraph> g, Ptr<const SubnetManager> sm, uint32_t src, uint32_t dst)
{
    std::vector<uint32_t> links;
    uint32_t node = g->GetHosts()[src];
    const uint32_t target = g->GetHosts()[dst];
    const uint16_t dlid = sm->GetHostLid(dst);
    while (node != target && links.size() <= g->GetNNodes())
    {
        uint32_t port = 0;
        if (!g->IsHost(node))
        {
            port = sm->GetLft(node)[dlid];
            if (port == SubnetManager::NO_PORT)
            {
                break;
            }
        }
        const TopologyGraph::Port& p = g->GetPorts(node)[port];
        links.push_back(p.link);
        node = p.peer;
    }
    if (node != target)
    {
        links.clear(); // a hole or a loop: no path
    }
    return links;
}

/**
 * Walk every switch's LFT to every host: count the (switch, host) walks that reach
 * the host in exactly the graph distance (over up links) without crossing a down
 * link, and (in adaptiveOnDown) the adaptive candidates that sit on a down link.
 */
uint32_t
CountMinimalLftWalks(Ptr<const TopologyGraph> g,
                     Ptr<const SubnetManager> sm,
                     uint32_t& adaptiveOnDown)
{
    uint32_t good = 0;
    adaptiveOnDown = 0;
    const auto& hosts = g->GetHosts();
    std::vector<uint32_t> dist;
    for (uint32_t d = 0; d < hosts.size(); ++d)
    {
        g->Distances(hosts[d], dist);
        const uint16_t dlid = sm->GetHostLid(d);
        for (uint32_t s : g->GetSwitches())
        {
            for (uint32_t port : sm->GetRoutes()->GetCandidates(s, d))
            {
                adaptiveOnDown += g->IsPortUp(s, port) ? 0 : 1;
            }
            uint32_t node = s;
            uint32_t links = 0;
            bool crossedDown = false;
            while (node != hosts[d] && links <= g->GetNNodes())
            {
                uint16_t port = sm->GetLft(node)[dlid];
                if (port == SubnetManager::NO_PORT)
                {
                    break;
                }
                crossedDown = crossedDown || !g->IsPortUp(node, port);
                node = g->GetPorts(node)[port].peer;
                links++;
            }
            if (node == hosts[d] && !crossedDown && links == dist[s])
            {
                good++;
            }
        }
    }
    return good;
}

/**
 * A bound on the base round trip of the 6-link inter-pod path of the k=4 fat-tree:
 * 2 x 6 x 1 us of cable, 2 x 5 x 200 ns of switch latency, one 4 KB packet and one
 * ACK serialisation at 100 Gb/s (cut-through): 14.4 us, rounded up to 20 us.
 */
Time
PathRttBound()
{
    return MicroSeconds(20);
}

/// \return the message of FailLink's std::invalid_argument, or "" if it accepted the link
std::string
FailLinkError(Ptr<IbFabric> fabric, uint32_t link, Time at)
{
    try
    {
        fabric->FailLink(link, at);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// One long message across a failing core cable, and everything measured about it.
struct LinkFailureRun
{
    // inputs
    uint64_t bytes{4 * 1024 * 1024};
    Time failAt{MicroSeconds(100)};
    Time reaction{MicroSeconds(50)};
    bool reroute{true};
    bool adaptive{false}; //!< switches' AdaptiveRouting, with selective repeat at the QPs
    Time upAt{-1};        //!< when the cable trains again (-1: never)
    Time stopAt{Seconds(1)};

    // results
    bool completed{false};
    Time start;
    Time end;
    Time ideal;
    uint32_t failedLink{0};
    bool oldPathCrossedLink{false};
    bool newPathCrossesLink{true};
    uint32_t oldPathLinks{0};
    uint32_t newPathLinks{0};
    uint32_t minimalWalks{0};
    uint32_t expectedWalks{0};
    uint32_t adaptiveOnDown{1};
    uint64_t cableSentWhileFailing{0}; //!< heads still on the cable at the failure
    uint64_t cableDrops{0};
    uint64_t switchDrops{0};
    uint64_t linkDownDrops{0};
    uint64_t losslessDrops{1};
    uint64_t flowControlViolations{1};
    uint64_t srcTx{0};
    uint64_t srcRx{0};
    uint64_t dstTx{0};
    uint64_t dstRx{0};
    uint64_t retransmitted{0};
    uint64_t timeouts{0};
    uint64_t outOfOrder{0};
    uint64_t spurious{0};       //!< the receiving queue pair's spurious packets
    uint64_t fabricSpurious{0}; //!< the fabric's counter of them
    uint64_t dataPackets{0};
    uint32_t reroutes{0};
    uint64_t changedEntries{0};
    bool lftsAsBefore{false};     //!< every switch's LFT equals the one before the failure
    uint64_t cableSentAfterUp{0}; //!< packets onto the cable once it is active again
    Time restoreConverged{-1};
    Time rto;
    Time linkDelay;

    std::vector<Time> cableSends;

    void OnCableTx(Ptr<const Packet> /* p */)
    {
        cableSends.push_back(Simulator::Now());
    }

    void OnMessage(const RdmaFabric::MessageRecord& r)
    {
        completed = true;
        start = r.start;
        end = r.end;
        ideal = r.ideal;
    }

    void Run()
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = FatTree4();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        IbFabricHelper helper;
        if (adaptive)
        {
            // Adaptive routing reorders packets: go-back-N would resend on every hole.
            helper.SetSwitchAttribute("AdaptiveRouting", BooleanValue(true));
            Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("SelectiveRepeat"));
        }
        Ptr<IbFabric> fabric = helper.Install(g, routes);
        fabric->SetAttribute("SubnetManagerReactionTime", TimeValue(reaction));
        fabric->SetAttribute("RerouteOnLinkFailure", BooleanValue(reroute));
        const uint32_t src = 0;
        const uint32_t dst = g->GetNHosts() - 1; // another pod: the path crosses a core switch
        // The first core cable on the LFT path (aggregation -> core).
        std::vector<uint32_t> path = LftPath(g, fabric->GetSubnetManager(), src, dst);
        oldPathLinks = path.size();
        for (uint32_t l : path)
        {
            const TopologyGraph::Link& link = g->GetLink(l);
            if (g->GetTier(link.a) == 2 || g->GetTier(link.b) == 2)
            {
                failedLink = l;
                oldPathCrossedLink = true;
                break;
            }
        }
        Ptr<IbChannel> ch = fabric->GetChannel(failedLink);
        linkDelay = ch->GetDelay();
        for (std::size_t i = 0; i < 2; ++i)
        {
            ch->GetIbDevice(i)->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeCallback(&LinkFailureRun::OnCableTx, this));
        }
        fabric->AddMessageCallback(MakeCallback(&LinkFailureRun::OnMessage, this));
        std::vector<std::vector<uint16_t>> lfts;
        for (uint32_t s : g->GetSwitches())
        {
            lfts.push_back(fabric->GetSubnetManager()->GetLft(s));
        }
        fabric->FailLink(failedLink, failAt, upAt);
        fabric->PostWrite(src, dst, bytes, 1, 0);
        Simulator::Stop(stopAt);
        Simulator::Run();

        for (Time t : cableSends)
        {
            // Lost iff its head had not reached the far end when the cable failed.
            cableSentWhileFailing += (t <= failAt && t + linkDelay >= failAt) ? 1 : 0;
            cableSentAfterUp += (upAt >= Time(0) && t >= upAt) ? 1 : 0;
        }
        lftsAsBefore = true;
        for (uint32_t i = 0; i < g->GetSwitches().size(); ++i)
        {
            lftsAsBefore =
                lftsAsBefore && fabric->GetSubnetManager()->GetLft(g->GetSwitches()[i]) == lfts[i];
        }
        for (const RdmaFabric::LinkFailureRecord& f : fabric->GetLinkFailures())
        {
            restoreConverged = f.restoreConverged;
        }
        for (std::size_t i = 0; i < 2; ++i)
        {
            cableDrops += ch->GetIbDevice(i)->GetLinkDownDrops();
        }
        for (const auto& sw : fabric->GetSwitches())
        {
            switchDrops += sw->GetLinkDownDrops();
        }
        RdmaFabric::Counters k = fabric->GetCounters();
        linkDownDrops = k.linkDownDrops;
        losslessDrops = k.losslessDrops;
        retransmitted = k.retransmittedPackets;
        timeouts = k.timeouts;
        outOfOrder = k.outOfOrderPackets;
        fabricSpurious = k.spuriousRetransmissions;
        flowControlViolations = 0;
        for (const auto& d : fabric->GetAllDevices())
        {
            flowControlViolations += d->GetCreditOverflows() + d->GetNegativeCreditEvents();
        }
        Ptr<IbNetDevice> srcDev = fabric->GetHca(src)->GetDevice();
        Ptr<IbNetDevice> dstDev = fabric->GetHca(dst)->GetDevice();
        srcTx = srcDev->GetTxPackets();
        srcRx = srcDev->GetRxPackets();
        dstTx = dstDev->GetTxPackets();
        dstRx = dstDev->GetRxPackets();
        const uint32_t mtu = fabric->GetHca(src)->GetMtu();
        dataPackets = (bytes + mtu - 1) / mtu;
        for (const auto& qp : fabric->GetHca(src)->GetQueuePairs())
        {
            TimeValue v;
            qp->GetAttribute("RetransmitTimeout", v);
            rto = v.Get();
        }
        for (const auto& qp : fabric->GetHca(dst)->GetQueuePairs())
        {
            spurious = qp->GetSpuriousRetransmissions();
        }
        reroutes = fabric->GetReroutes();
        changedEntries = fabric->GetRerouteChangedEntries();
        std::vector<uint32_t> now = LftPath(g, fabric->GetSubnetManager(), src, dst);
        newPathLinks = now.size();
        newPathCrossesLink = std::find(now.begin(), now.end(), failedLink) != now.end();
        expectedWalks = g->GetNSwitches() * g->GetNHosts();
        minimalWalks = CountMinimalLftWalks(g, fabric->GetSubnetManager(), adaptiveOnDown);
        fabric->Dispose();
        Simulator::Destroy();
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("GoBackN"));
    }
};

} // namespace

/**
 * A core cable fails at 100 us under a 4 MiB message (about 340 us at 100 Gb/s);
 * the SM reacts 50 us later. The sender keeps sending, so the first packet that
 * arrives over the new path is out of order, the receiver NAKs and go-back-N
 * resends from the first lost PSN: the message ends one reaction time plus at most
 * two round trips later than unloaded, with no timeout.
 */
class IbLinkFailureRerouteTestCase : public TestCase
{
  public:
    IbLinkFailureRerouteTestCase()
        : TestCase("core cable fails mid-transfer: SM re-routes, go-back-N recovers")
    {
    }

  private:
    void DoRun() override
    {
        LinkFailureRun r;
        r.Run();
        const Time fct = r.end - r.start;
        const Time rtt = PathRttBound();
        std::cout << "link failure: FCT " << fct.As(Time::US) << ", ideal " << r.ideal.As(Time::US)
                  << ", reaction " << r.reaction.As(Time::US) << "; link-down drops "
                  << r.linkDownDrops << " (cable " << r.cableDrops << ", switches " << r.switchDrops
                  << "), retransmitted " << r.retransmitted << ", out of order " << r.outOfOrder
                  << ", timeouts " << r.timeouts << ", LFT entries changed " << r.changedEntries
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(r.oldPathCrossedLink, true, "the LFT path crossed a core cable");
        NS_TEST_ASSERT_MSG_EQ(r.completed, true, "the message completes");
        NS_TEST_ASSERT_MSG_EQ(r.reroutes, 1, "one re-route");
        NS_TEST_ASSERT_MSG_GT(r.changedEntries, 0, "the re-route changed LFT entries");
        NS_TEST_ASSERT_MSG_EQ(r.newPathCrossesLink, false, "the new path avoids the cable");
        NS_TEST_ASSERT_MSG_EQ(r.newPathLinks, r.oldPathLinks, "still 6 links (another core)");
        NS_TEST_ASSERT_MSG_EQ(r.minimalWalks,
                              r.expectedWalks,
                              "every (switch, host) LFT walk is complete, avoids the cable and "
                              "is minimal on the degraded graph");
        NS_TEST_ASSERT_MSG_EQ(r.adaptiveOnDown, 0, "no adaptive candidate on the cable");
        NS_TEST_ASSERT_MSG_EQ(r.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_EQ(r.flowControlViolations, 0, "no credit violation");
        NS_TEST_ASSERT_MSG_GT(r.cableDrops, 0, "packets were on the cable");
        NS_TEST_ASSERT_MSG_EQ(r.cableDrops,
                              r.cableSentWhileFailing,
                              "cable drops = packets whose head was still on the cable");
        NS_TEST_ASSERT_MSG_GT(r.switchDrops, 0, "the switches discarded packets for the cable");
        NS_TEST_ASSERT_MSG_EQ(r.linkDownDrops, r.cableDrops + r.switchDrops, "fabric counter");
        // Every packet the two HCAs sent reached the other HCA or is a link-down drop.
        NS_TEST_ASSERT_MSG_EQ(r.srcTx + r.dstTx,
                              r.srcRx + r.dstRx + r.linkDownDrops,
                              "packet conservation");
        // Each data packet went once, plus the resends; every first copy or resend that
        // did not place data was lost or discarded out of order by the go-back-N receiver.
        NS_TEST_ASSERT_MSG_EQ(r.srcTx,
                              r.dataPackets + r.retransmitted,
                              "sends = packets + resends");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.retransmitted,
                                    r.srcTx - r.dstRx,
                                    "every lost data packet was resent");
        NS_TEST_ASSERT_MSG_EQ(r.dstRx,
                              r.dataPackets + r.outOfOrder,
                              "the receiver placed each packet once and discarded the rest as "
                              "out of order");
        NS_TEST_ASSERT_MSG_EQ(r.timeouts, 0, "recovered by NAK, not by the timeout");
        // Resends of packets that had reached the receiver before (go-back-N discarded
        // them as out of order).
        NS_TEST_ASSERT_MSG_GT(r.spurious, 0, "the receiver saw packets twice");
        NS_TEST_ASSERT_MSG_EQ(r.fabricSpurious, r.spurious, "the fabric counter has them all");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(fct, r.ideal + r.reaction, "costs at least the reaction");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(fct,
                                    r.ideal + r.reaction + rtt * 2,
                                    "ideal + reaction + 2 RTT");
    }
};

/**
 * The SM reacts (1 ms) only after a 256 KiB message's sender has sent everything:
 * nothing reaches the receiver after the loss, so no NAK; the local ACK timeout
 * (4.19 ms, restarted by the last ACK, which left the receiver before the failure
 * and so arrives within one round trip of it) fires once, after the re-route, and
 * go-back-N resends the rest. The message ends between failure + RTO and failure +
 * RTT + RTO + ideal FCT.
 */
class IbLinkFailureTimeoutTestCase : public TestCase
{
  public:
    IbLinkFailureTimeoutTestCase()
        : TestCase("core cable fails, SM re-routes after the sender finished: the RTO recovers")
    {
    }

  private:
    void DoRun() override
    {
        LinkFailureRun r;
        r.bytes = 256 * 1024;
        r.failAt = MicroSeconds(10);
        r.reaction = MilliSeconds(1);
        r.Run();
        std::cout << "link failure (timeout): end " << r.end.As(Time::US) << ", RTO "
                  << r.rto.As(Time::US) << ", link-down drops " << r.linkDownDrops
                  << ", retransmitted " << r.retransmitted << ", timeouts " << r.timeouts
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(r.completed, true, "the message completes");
        NS_TEST_ASSERT_MSG_EQ(r.timeouts, 1, "one timeout");
        NS_TEST_ASSERT_MSG_EQ(r.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_GT(r.linkDownDrops, 0, "link-down drops");
        NS_TEST_ASSERT_MSG_EQ(r.srcTx + r.dstTx,
                              r.srcRx + r.dstRx + r.linkDownDrops,
                              "packet conservation");
        NS_TEST_ASSERT_MSG_EQ(r.retransmitted,
                              r.srcTx - r.dstRx,
                              "exactly the lost data packets were resent");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.end, r.failAt + r.rto, "not before the timeout");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.end,
                                    r.failAt + PathRttBound() + r.rto + r.ideal,
                                    "failure + RTT + RTO + ideal FCT");
        NS_TEST_ASSERT_MSG_EQ(r.minimalWalks, r.expectedWalks, "LFTs minimal on degraded graph");
    }
};

/**
 * The same failure with AdaptiveRouting in the switches (and selective repeat at the
 * QPs, as the runner picks for reordering load balancing): the aggregation switch
 * next to the failed cable moves to its other core port at once, so the only losses
 * are what was on the cable and in its queue, far fewer than when the LFTs keep
 * sending into the cable until the SM reacts; selective repeat resends exactly those
 * and the message ends within two round trips of its ideal: the reaction time is not
 * paid.
 */
class IbLinkFailureAdaptiveTestCase : public TestCase
{
  public:
    IbLinkFailureAdaptiveTestCase()
        : TestCase("core cable fails under adaptive routing: the switch avoids it before the SM")
    {
    }

  private:
    void DoRun() override
    {
        LinkFailureRun lft;
        lft.Run();
        LinkFailureRun ar;
        ar.adaptive = true;
        ar.Run();
        const Time fct = ar.end - ar.start;
        std::cout << "link failure with adaptive routing: FCT " << fct.As(Time::US) << ", ideal "
                  << ar.ideal.As(Time::US) << ", link-down drops " << ar.linkDownDrops << " (cable "
                  << ar.cableDrops << ", switches " << ar.switchDrops << "; LFT only "
                  << lft.linkDownDrops << "), retransmitted " << ar.retransmitted << ", timeouts "
                  << ar.timeouts << std::endl;
        NS_TEST_ASSERT_MSG_EQ(ar.completed, true, "the message completes");
        NS_TEST_ASSERT_MSG_EQ(ar.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_EQ(ar.cableDrops, ar.cableSentWhileFailing, "cable drops");
        NS_TEST_ASSERT_MSG_LT(ar.linkDownDrops * 4, lft.linkDownDrops, "far fewer drops");
        NS_TEST_ASSERT_MSG_EQ(ar.srcTx + ar.dstTx,
                              ar.srcRx + ar.dstRx + ar.linkDownDrops,
                              "packet conservation");
        NS_TEST_ASSERT_MSG_EQ(ar.retransmitted,
                              ar.srcTx - ar.dstRx,
                              "selective repeat resent exactly the lost data packets");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(fct,
                                    ar.ideal + PathRttBound() * 2,
                                    "ideal + 2 RTT: the reaction time is not paid");
        NS_TEST_ASSERT_MSG_EQ(ar.minimalWalks, ar.expectedWalks, "LFTs minimal after the SM");
    }
};

/**
 * The same failure with RerouteOnLinkFailure=false: the LFTs keep pointing at the
 * failed cable, every go-back-N resend after a timeout dies there, and the message
 * is still pending after 10 RTOs.
 */
class IbLinkFailureNoRerouteTestCase : public TestCase
{
  public:
    IbLinkFailureNoRerouteTestCase()
        : TestCase("core cable fails and the SM does not re-route: the message never completes")
    {
    }

  private:
    void DoRun() override
    {
        LinkFailureRun r;
        r.reroute = false;
        r.stopAt = MicroSeconds(100) + NanoSeconds(4194304) * 10;
        r.Run();
        std::cout << "link failure without re-route: timeouts " << r.timeouts
                  << ", link-down drops " << r.linkDownDrops << std::endl;
        NS_TEST_ASSERT_MSG_EQ(r.completed, false, "the message does not complete");
        NS_TEST_ASSERT_MSG_EQ(r.reroutes, 0, "no re-route");
        NS_TEST_ASSERT_MSG_EQ(r.newPathCrossesLink, true, "the LFT path still crosses the cable");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.timeouts, 9, "one timeout per RTO, each resend lost");
        NS_TEST_ASSERT_MSG_EQ(r.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_EQ(r.srcTx + r.dstTx,
                              r.srcRx + r.dstRx + r.linkDownDrops,
                              "packet conservation");
    }
};

/**
 * The core cable fails at 100 us and trains again at 200 us under the 4 MiB message:
 * its ports wait for the SM, whose sweep one reaction time later (250 us) activates
 * them with fresh credits and routes over the cable again, so every LFT is what it was
 * before the failure and the rest of the message crosses the cable, with no credit
 * violation.
 */
class IbLinkDownUpTestCase : public TestCase
{
  public:
    IbLinkDownUpTestCase()
        : TestCase("core cable fails and comes back: the SM activates it and routes over it again")
    {
    }

  private:
    void DoRun() override
    {
        LinkFailureRun r;
        r.upAt = MicroSeconds(200);
        r.Run();
        std::cout << "link down-up: reroutes " << r.reroutes << ", restored at "
                  << r.restoreConverged.As(Time::US) << ", packets over the cable after "
                  << r.cableSentAfterUp << ", message " << (r.end - r.start).As(Time::US)
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(r.completed, true, "the message completes");
        NS_TEST_ASSERT_MSG_EQ(r.reroutes, 2, "one re-route down, one up");
        NS_TEST_ASSERT_MSG_EQ(r.restoreConverged,
                              r.upAt + r.reaction,
                              "active one SM reaction after it trained");
        NS_TEST_ASSERT_MSG_EQ(r.lftsAsBefore, true, "every LFT as before the failure");
        NS_TEST_ASSERT_MSG_EQ(r.newPathCrossesLink, true, "the path crosses the cable again");
        NS_TEST_ASSERT_MSG_GT(r.cableSentAfterUp, 0, "the message uses the cable again");
        NS_TEST_ASSERT_MSG_EQ(r.flowControlViolations, 0, "no credit violation");
        NS_TEST_ASSERT_MSG_EQ(r.losslessDrops, 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_EQ(r.srcTx + r.dstTx,
                              r.srcRx + r.dstRx + r.linkDownDrops,
                              "packet conservation");
    }
};

/**
 * The routing engines skip down links: on a k=4 fat-tree with a core cable down,
 * ecmp tables are complete and minimal on the degraded graph with no candidate on
 * the cable, and updown (ranked by tier) reports the core switch it cannot route.
 * DOR on a 4x4 mesh cannot route around a missing cable, and IbFabric::FailLink
 * refuses it (and host cables, unknown ids, repeats) with a message naming the link.
 */
class IbRoutingAroundFailedLinkTestCase : public TestCase
{
  public:
    IbRoutingAroundFailedLinkTestCase()
        : TestCase("routing engines skip failed links; FailLink rejects what cannot be routed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TopologyGraph> g = FatTree4();
        uint32_t core = 0;
        for (uint32_t l = 0; l < g->GetNLinks(); ++l)
        {
            if (g->GetTier(g->GetLink(l).b) == 2)
            {
                core = l;
                break;
            }
        }
        g->SetLinkUp(core, false);
        NS_TEST_ASSERT_MSG_EQ(g->GetNLinksDown(), 1, "one link down");
        NS_TEST_ASSERT_MSG_EQ(g->IsLinkUp(core), false, "down");
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run("ecmp");
        uint32_t onDown = 1;
        uint32_t good = CountMinimalLftWalks(g, sm, onDown);
        NS_TEST_ASSERT_MSG_EQ(good,
                              g->GetNSwitches() * g->GetNHosts(),
                              "ecmp: complete and minimal around the cable");
        NS_TEST_ASSERT_MSG_EQ(onDown, 0, "ecmp: no candidate on the cable");
        // updown ranks switches by tier: the core switch that lost its only cable
        // into pod 0 could reach it only down-then-up, which the engine forbids.
        std::string updown;
        try
        {
            RoutingEngine::BuildTable("updown", g);
        }
        catch (const std::logic_error& e)
        {
            updown = e.what();
        }
        NS_TEST_ASSERT_MSG_NE(updown.find("'updown' found no route from switch " +
                                          std::to_string(g->GetLink(core).b)),
                              std::string::npos,
                              updown);

        UsePicoseconds();
        Ptr<MeshTopologyHelper> mh = CreateObject<MeshTopologyHelper>();
        mh->SetAttribute("Dims", StringValue("4x4"));
        mh->SetAttribute("HostsPerRouter", UintegerValue(1));
        Ptr<TopologyGraph> mesh = mh->Build();
        Ptr<IbFabric> fabric =
            IbFabricHelper().Install(mesh, RoutingEngine::BuildTable("dor", mesh));
        uint32_t fabricLink = 0;
        uint32_t hostLink = 0;
        for (uint32_t l = 0; l < mesh->GetNLinks(); ++l)
        {
            const TopologyGraph::Link& link = mesh->GetLink(l);
            (mesh->IsHost(link.a) || mesh->IsHost(link.b) ? hostLink : fabricLink) = l;
        }
        std::string dor = FailLinkError(fabric, fabricLink, MicroSeconds(1));
        NS_TEST_ASSERT_MSG_NE(dor.find("cannot route the rest"), std::string::npos, dor);
        NS_TEST_ASSERT_MSG_NE(dor.find("'dor'"), std::string::npos, dor);
        std::string host = FailLinkError(fabric, hostLink, MicroSeconds(1));
        NS_TEST_ASSERT_MSG_NE(host.find("host cable"), std::string::npos, host);
        std::string unknown = FailLinkError(fabric, mesh->GetNLinks(), MicroSeconds(1));
        NS_TEST_ASSERT_MSG_NE(unknown.find("does not exist"), std::string::npos, unknown);
        fabric->Dispose();
        Simulator::Destroy();

        Ptr<TopologyGraph> g2 = FatTree4();
        Ptr<IbFabric> ft = IbFabricHelper().Install(g2, RoutingEngine::BuildTable("ecmp", g2));
        ft->FailLink(core, MicroSeconds(1));
        std::string again = FailLinkError(ft, core, MicroSeconds(2));
        NS_TEST_ASSERT_MSG_NE(again.find("already fails"), std::string::npos, again);
        ft->Dispose();
        Simulator::Destroy();
    }
};

/**
 * A core cable fails at 100 us under a 40 MiB WRITE and comes back at 800 us
 * (LINK@DOWN-UP); the SM reacts 50 us after each change. After the failure's sweep the
 * LFT path avoids the cable; after the restore's sweep every switch's LFT is the original
 * one again (re-routed back), the ports retrained without a credit overflow, and the
 * WRITE completes.
 */
class IbLinkDownUpSweepTimesTestCase : public TestCase
{
  public:
    IbLinkDownUpSweepTimesTestCase()
        : TestCase("an InfiniBand cable that comes back: retrained, re-routed back by the SM")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = FatTree4();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        Ptr<IbFabric> fabric = IbFabricHelper().Install(g, routes);
        fabric->SetAttribute("SubnetManagerReactionTime", TimeValue(MicroSeconds(50)));
        const uint32_t src = 0;
        const uint32_t dst = g->GetNHosts() - 1;
        std::vector<std::vector<uint16_t>> original;
        for (uint32_t node : g->GetSwitches())
        {
            original.push_back(fabric->GetSubnetManager()->GetLft(node));
        }
        uint32_t link = 0;
        for (uint32_t l : LftPath(g, fabric->GetSubnetManager(), src, dst))
        {
            const TopologyGraph::Link& k = g->GetLink(l);
            if (g->GetTier(k.a) == 2 || g->GetTier(k.b) == 2)
            {
                link = l;
                break;
            }
        }
        bool completed = false;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&completed](const RdmaFabric::MessageRecord&) { completed = true; }));
        fabric->FailLink(link, MicroSeconds(100), MicroSeconds(800));
        fabric->PostWrite(src, dst, 40 * 1024 * 1024, 1, 0);
        bool avoided = false;
        ScheduleLambda(MicroSeconds(500), [&]() {
            const auto path = LftPath(g, fabric->GetSubnetManager(), src, dst);
            avoided = std::find(path.begin(), path.end(), link) == path.end();
        });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        uint32_t same = 0;
        for (uint32_t i = 0; i < g->GetSwitches().size(); ++i)
        {
            same += fabric->GetSubnetManager()->GetLft(g->GetSwitches()[i]) == original[i];
        }
        uint64_t violations = 0;
        for (const auto& d : fabric->GetAllDevices())
        {
            violations += d->GetCreditOverflows() + d->GetNegativeCreditEvents();
        }
        const RdmaFabric::LinkFailureRecord r = fabric->GetLinkFailures().at(0);
        NS_TEST_EXPECT_MSG_EQ(avoided, true, "while down: the LFTs avoid the cable");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetReroutes(), 2, "one sweep per change");
        NS_TEST_EXPECT_MSG_EQ(same, g->GetSwitches().size(), "back up: every LFT as before");
        NS_TEST_EXPECT_MSG_EQ(r.converged, MicroSeconds(150), "routed around at down + 50 us");
        NS_TEST_EXPECT_MSG_EQ(r.restoreConverged, MicroSeconds(850), "back at up + 50 us");
        NS_TEST_EXPECT_MSG_EQ(violations, 0, "retrained: no credit overflow");
        NS_TEST_EXPECT_MSG_EQ(completed, true, "the WRITE completes");
        fabric->Dispose();
        Simulator::Destroy();
    }
};

/**
 * The CLI knob --link-failure=LINK@TIME[,...]: it parses and echoes, a malformed
 * value names itself and the form allowed, the runner fails the cable on
 * InfiniBand (summary.json drops.link_down = the rows of drops.csv, lossless 0,
 * every message finished) and refuses it on RoCEv2 with one clear message.
 */
class IbLinkFailureScenarioTestCase : public TestCase
{
  public:
    IbLinkFailureScenarioTestCase()
        : TestCase("--link-failure in the scenario runner: IB re-routes, RoCEv2 recovers")
    {
    }

  private:
    static std::string ErrorOf(ScenarioConfig& c, const std::string& value)
    {
        try
        {
            c.Set("link-failure", value);
        }
        catch (const ConfigError& e)
        {
            return e.what();
        }
        return "";
    }

    void DoRun() override
    {
        ScenarioConfig c;
        NS_TEST_ASSERT_MSG_EQ(c.Get("link-failure"), "", "default: no failure");
        c.Set("link-failure", "32@100us,36@1ms");
        NS_TEST_ASSERT_MSG_EQ(c.linkFailures.size(), 2, "two failures");
        NS_TEST_ASSERT_MSG_EQ(c.linkFailures[1].link, 36, "second link");
        NS_TEST_ASSERT_MSG_EQ(c.linkFailures[1].at, MilliSeconds(1), "second time");
        NS_TEST_ASSERT_MSG_EQ(c.Get("link-failure"), "32@100us,36@1ms", "echo");
        std::string bad = ErrorOf(c, "32-100us");
        NS_TEST_ASSERT_MSG_NE(bad.find("'32-100us' is not LINK@DOWN[-UP]"), std::string::npos, bad);
        bad = ErrorOf(c, "x@1us");
        NS_TEST_ASSERT_MSG_NE(bad.find("'x@1us'"), std::string::npos, bad);

        c = ScenarioConfig();
        c.Set("fabric", "infiniband");
        c.Set("topology", "fattree");
        c.Set("mtu", "4096");
        c.Set("workload", "permutation");
        c.Set("bytes", "4MB");
        c.Set("qlen-interval", "0");
        c.Set("link-failure", "32@100us"); // the first aggregation-core cable
        c.Set("out", "out/test-infiniband-link-failure");
        Config::SetDefault("ns3::IbFabric::SubnetManagerReactionTime", TimeValue(MicroSeconds(50)));
        nlohmann::json s = ScenarioRunner(c).Run();
        Config::SetDefault("ns3::IbFabric::SubnetManagerReactionTime", TimeValue(MilliSeconds(10)));
        uint64_t rows = 0;
        std::ifstream csv("out/test-infiniband-link-failure/drops.csv");
        for (std::string line; std::getline(csv, line);)
        {
            rows += line.find(",link_down") != std::string::npos ? 1 : 0;
        }
        std::cout << "runner --link-failure=32@100us: " << s["drops"].dump() << ", retransmissions "
                  << s["retransmissions"] << std::endl;
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "every message finished");
        NS_TEST_ASSERT_MSG_EQ(s["messages"]["unfinished"].get<uint64_t>(), 0, "none pending");
        NS_TEST_ASSERT_MSG_EQ(s["drops"]["lossless"].get<uint64_t>(), 0, "no lossless drop");
        NS_TEST_ASSERT_MSG_GT(s["drops"]["link_down"].get<uint64_t>(), 0, "link-down drops");
        NS_TEST_ASSERT_MSG_EQ(rows, s["drops"]["link_down"].get<uint64_t>(), "drops.csv rows");
        NS_TEST_ASSERT_MSG_GT(s["retransmissions"].get<uint64_t>(), 0, "resent");

        // The same failure on RoCEv2: the end switches notice, the routes converge.
        c.Set("fabric", "rocev2");
        c.Set("out", "out/test-rocev2-link-failure");
        s = ScenarioRunner(c).Run();
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "RoCEv2: every message finished");
        NS_TEST_ASSERT_MSG_EQ(s["drops"]["lossless"].get<uint64_t>(),
                              0,
                              "RoCEv2: no lossless drop");
        NS_TEST_ASSERT_MSG_GT(s["drops"]["link_down"].get<uint64_t>(),
                              0,
                              "RoCEv2: link-down drops");
        NS_TEST_ASSERT_MSG_EQ(s["failures"][0]["detected_ns"].get<int64_t>(),
                              100000 + 30000000,
                              "RoCEv2: detected after FailureDetectionTime");
    }
};

class InfinibandLinkFailureTestSuite : public TestSuite
{
  public:
    InfinibandLinkFailureTestSuite()
        : TestSuite("ai-fabric-infiniband-link-failure", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new IbLinkFailureRerouteTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbLinkFailureTimeoutTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbLinkFailureAdaptiveTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbLinkFailureNoRerouteTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbLinkDownUpTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbRoutingAroundFailedLinkTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbLinkFailureScenarioTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbLinkDownUpSweepTimesTestCase, AI_FABRIC_QUICK);
    }
};

static InfinibandLinkFailureTestSuite g_infinibandLinkFailureTestSuite;
