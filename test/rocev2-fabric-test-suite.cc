/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * End-to-end behaviour of the RoCEv2 fabric: the frames a NIC sends carry its queue
 * pair's and each packet's header fields, an unloaded message completes in its
 * ideal time, a PFC-protected incast is lossless at line rate, the same incast
 * without PFC drops and recovers by retransmission, and PFC's victim flow.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/lambda-callback.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-channel.h"
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
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// Busy time and span of one port's transmitter, from its PhyTxBegin trace.
struct LinkMeter
{
    Ptr<RoceNetDevice> dev;
    Time first = Time::Max();
    Time lastEnd;
    Time busy;
    uint64_t frames{0};

    void OnTx(Ptr<const Packet> p)
    {
        Time tx = dev->GetTransmitTime(p->GetSize());
        Time now = Simulator::Now();
        first = std::min(first, now);
        lastEnd = now + tx;
        busy += tx;
        frames++;
    }

    double Utilization() const
    {
        return busy.GetSeconds() / (lastEnd - first).GetSeconds();
    }
};

Ptr<TopologyGraph>
LeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
    h->SetAttribute("Leaves", UintegerValue(leaves));
    h->SetAttribute("Spines", UintegerValue(spines));
    h->SetAttribute("HostsPerLeaf", UintegerValue(hostsPerLeaf));
    return h->Build();
}

/// The port of `node` whose cable leads to `peer`.
uint32_t
PortTowards(Ptr<TopologyGraph> g, uint32_t node, uint32_t peer)
{
    const auto& ports = g->GetPorts(node);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (ports[i].peer == peer)
        {
            return i;
        }
    }
    return 0;
}

} // namespace

/// Every frame a port puts on the wire, decoded from its bytes.
struct FrameLog
{
    std::vector<RoceFrameView> frames;

    void OnTx(Ptr<const Packet> p)
    {
        RoceFrameView v;
        RoceFrame::Peek(*p, v);
        frames.push_back(v);
    }
};

/**
 * The bytes of the frames a NIC sends (written from the view the frame carries,
 * itself from the queue pair's template and the packet's segment) decode to the
 * queue pair's addresses and classes and each packet's PSN, opcode, RETH, ImmDt
 * and AETH: a 10,000-byte WRITE of 1,000-byte packets and the ACKs it draws.
 */
class NicFrameFieldsTestCase : public TestCase
{
  public:
    NicFrameFieldsTestCase()
        : TestCase("NIC frames carry the queue pair's and each packet's header fields")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = LeafSpine(2, 1, 1);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        FrameLog sent;
        FrameLog acks;
        fabric->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&FrameLog::OnTx, &sent));
        fabric->GetNic(1)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&FrameLog::OnTx, &acks));
        fabric->PostWrite(0, 1, 10000, 7, 0);
        Simulator::Run();
        const uint32_t src = RoceNic::HostAddress(0).Get();
        const uint32_t dst = RoceNic::HostAddress(1).Get();
        uint8_t srcMac[6];
        uint8_t dstMac[6];
        RoceNic::HostMac(0).CopyTo(srcMac);
        RoceNic::HostMac(1).CopyTo(dstMac);
        const uint32_t peerQpn = fabric->GetNic(1)->GetQueuePairs().at(0)->GetLocalQpn();
        NS_TEST_ASSERT_MSG_EQ(sent.frames.size(), 10, "ten data packets");
        for (uint32_t i = 0; i < sent.frames.size(); ++i)
        {
            const RoceFrameView& v = sent.frames[i];
            const bool first = i == 0;
            const bool last = i == 9;
            NS_TEST_ASSERT_MSG_EQ(v.isRoce, true, "frame " << i << " decodes");
            NS_TEST_ASSERT_MSG_EQ(v.srcIp, src, "source IP");
            NS_TEST_ASSERT_MSG_EQ(v.dstIp, dst, "destination IP");
            NS_TEST_ASSERT_MSG_EQ(std::equal(srcMac, srcMac + 6, v.srcMac), true, "source MAC");
            NS_TEST_ASSERT_MSG_EQ(std::equal(dstMac, dstMac + 6, v.dstMac), true, "dest. MAC");
            NS_TEST_ASSERT_MSG_EQ(+v.dscp, 3 << 3, "DSCP of the RDMA class");
            NS_TEST_ASSERT_MSG_EQ(+v.ecn, 2, "ECT(0)");
            NS_TEST_ASSERT_MSG_EQ(+v.ttl, 64, "TTL");
            NS_TEST_ASSERT_MSG_EQ(v.pKey, 0xFFFF, "default P_Key");
            NS_TEST_ASSERT_MSG_EQ(v.destQp, peerQpn, "the peer's QPN");
            NS_TEST_ASSERT_MSG_EQ(v.psn, sent.frames[0].psn + i, "consecutive PSNs");
            NS_TEST_ASSERT_MSG_EQ(+v.bthOpcode,
                                  +(first  ? RdmaOpcode::WRITE_FIRST
                                    : last ? RdmaOpcode::WRITE_LAST_IMM
                                           : RdmaOpcode::WRITE_MIDDLE),
                                  "opcode of packet " << i);
            NS_TEST_ASSERT_MSG_EQ(v.ackReq, last, "AckReq on the last packet only");
            NS_TEST_ASSERT_MSG_EQ(v.hasReth, first, "RETH on the first packet only");
            NS_TEST_ASSERT_MSG_EQ(v.hasImm, last, "ImmDt on the last packet only");
            NS_TEST_ASSERT_MSG_EQ(v.frameBytes,
                                  1058u + (first ? 16 : 0) + (last ? 4 : 0),
                                  "1000 B payload + 58 B framing (+ RETH, ImmDt)");
        }
        NS_TEST_ASSERT_MSG_EQ(sent.frames[0].rethDmaLen, 10000, "RETH DMA length = message");
        NS_TEST_ASSERT_MSG_EQ(sent.frames[0].rethVa, 0, "RETH VA = offset 0");
        NS_TEST_ASSERT_MSG_EQ(sent.frames[0].rethRKey, peerQpn, "RETH R_Key");
        NS_TEST_ASSERT_MSG_EQ(sent.frames[9].imm, sent.frames[9].psn, "ImmDt = PSN");
        // Default coalescing (AckInterval 10, and at once at the message's end): one
        // ACK covers all ten packets; it travels in the data's class (AckPriority -1).
        NS_TEST_ASSERT_MSG_EQ(acks.frames.size(), 1, "one coalesced ACK for ten packets");
        for (uint32_t i = 0; i < acks.frames.size(); ++i)
        {
            const RoceFrameView& a = acks.frames[i];
            NS_TEST_ASSERT_MSG_EQ(+a.bthOpcode, +RdmaOpcode::ACKNOWLEDGE, "ACK " << i);
            NS_TEST_ASSERT_MSG_EQ(a.srcIp, dst, "ACK source");
            NS_TEST_ASSERT_MSG_EQ(+a.dscp, 3 << 3, "the data's class");
            NS_TEST_ASSERT_MSG_EQ(+a.ecn, 0, "not ECN-capable");
            NS_TEST_ASSERT_MSG_EQ(a.hasAeth, true, "AETH");
            NS_TEST_ASSERT_MSG_EQ(+a.aethSyndrome, 0x1F, "ACK, credits not tracked");
            NS_TEST_ASSERT_MSG_EQ(a.psn, sent.frames[9].psn, "acknowledges up to packet 9");
            NS_TEST_ASSERT_MSG_EQ(a.aethMsn, 1u, "MSN counts completed messages");
            NS_TEST_ASSERT_MSG_EQ(a.frameBytes, 62, "ACK frame bytes");
        }
        Simulator::Destroy();
    }
};

/**
 * Switches decrement the IPv4 TTL and the receiver echoes the hop count in its ACKs
 * (bits 15..10 of the IPv4 Identification). On a k = 4 fat-tree, from host 0: host 1
 * is under the same edge switch (1 switch), host 2 in the same pod under the other
 * edge (edge, aggregation, edge: 3), host 4 in another pod (edge, aggregation, core,
 * aggregation, edge: 5). Each data frame arrives with TTL 64 - switches and a valid
 * IPv4 header checksum (the sender's trace writes the bytes at once, so every switch
 * rewrites them too), and every ACK echoes that count, which equals the route's
 * (RoceFabric::GetPathHops, the fallback Swift otherwise uses).
 */
class TtlHopEchoTestCase : public TestCase
{
  public:
    TtlHopEchoTestCase()
        : TestCase("Switches decrement the TTL; ACKs echo the data's hop count (k=4 fat-tree)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FatTreeTopologyHelper> h = CreateObject<FatTreeTopologyHelper>();
        h->SetAttribute("K", UintegerValue(4));
        Ptr<TopologyGraph> g = h->Build();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint32_t peers[] = {1, 2, 4};
        const uint32_t switches[] = {1, 3, 5};
        std::map<uint32_t, std::vector<uint32_t>> dataTtl; // receiver -> TTLs
        std::map<uint32_t, uint32_t> badChecksums;         // receiver -> count
        std::map<uint32_t, std::vector<uint32_t>> ackHops; // ACK source -> echoed hops
        fabric->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeLambdaCallback<void, Ptr<const Packet>>([](Ptr<const Packet>) {}));
        fabric->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeLambdaCallback<void, Ptr<const Packet>>([&ackHops](Ptr<const Packet> p) {
                RoceFrameView v;
                if (RoceFrame::Peek(*p, v) && v.bthOpcode == RdmaOpcode::ACKNOWLEDGE)
                {
                    ackHops[RoceNic::HostIndexOf(v.srcIp)].push_back(
                        RoceNic::DecodeEchoHops(v.ipId));
                }
            }));
        for (uint32_t d : peers)
        {
            fabric->GetNic(d)->GetDevice()->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeLambdaCallback<void, Ptr<const Packet>>(
                    [d, &dataTtl, &badChecksums](Ptr<const Packet> p) {
                        RoceFrameView v;
                        if (!RoceFrame::Peek(*p, v) || !RdmaOpcode::IsData(v.bthOpcode))
                        {
                            return;
                        }
                        dataTtl[d].push_back(v.ttl);
                        Ptr<Packet> c = p->Copy();
                        RoceEthernetHeader eth;
                        c->RemoveHeader(eth);
                        Ipv4Header ip;
                        ip.EnableChecksum();
                        c->PeekHeader(ip);
                        badChecksums[d] += ip.IsChecksumOk() ? 0 : 1;
                    }));
            fabric->PostWrite(0, d, 100000, 0, 0);
        }
        Simulator::Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            const uint32_t d = peers[i];
            NS_TEST_ASSERT_MSG_EQ(fabric->GetPathHops(0, d), switches[i], "route to " << d);
            NS_TEST_ASSERT_MSG_EQ(dataTtl[d].size(), 100u, "100 data packets to " << d);
            for (uint32_t ttl : dataTtl[d])
            {
                NS_TEST_ASSERT_MSG_EQ(ttl, 64u - switches[i], "TTL at host " << d);
            }
            NS_TEST_ASSERT_MSG_EQ(badChecksums[d], 0u, "IPv4 checksums at host " << d);
            NS_TEST_ASSERT_MSG_GT(ackHops[d].size(), 0u, "ACKs from " << d);
            for (uint32_t hops : ackHops[d])
            {
                NS_TEST_ASSERT_MSG_EQ(hops, switches[i], "hops echoed by " << d);
            }
        }
        Simulator::Destroy();
    }
};

/**
 * The responder's ACK coalescing with the default AckInterval (10) and
 * AckCoalescingTime (8 us), go-back-N: arrivals scheduled on a bare queue pair,
 * ACKs that ReceiveData returns and those its timer sends recorded with their times.
 * - 3 packets at 0, 1, 2 us: no ACK with them; the timer's ACK of PSN 2 at 8 us,
 *   within 8 us of the oldest un-acknowledged packet though only 3 < 10 arrived.
 * - 10 packets from 20 us, 0.1 us apart: one ACK by count, with the 10th (PSN 12).
 * - PSN 13 at 25 us: the timer armed by PSN 3 fires at 28 us and waits on to 33 us
 *   (lazy re-arm), when it acknowledges PSN 13.
 * - PSN 14 at 39.5 us, its message's last packet (15) at 40 us: ACKed at once.
 * - A new message: PSN 16 at 50 us, 18 at 51 us (17 missing): NAK of 17 at once,
 *   which acknowledges 16 (no timer ACK at 58 us); 17 and 18 (last) at 52, 53 us:
 *   ACK at once with the last.
 * - PSN 19 with AckReq set at 60 us: ACKed at once.
 */
class AckCoalescingTestCase : public TestCase
{
  public:
    AckCoalescingTestCase()
        : TestCase("ACK coalescing: every 10 packets, within 8 us, at once at a message end, "
                   "a NAK and an AckReq")
    {
    }

  private:
    struct Sent
    {
        double us;
        char kind; // 'A' returned ACK, 'T' timer ACK, 'N' NAK
        uint32_t psn;
    };

    static void OnTimerAck(void* log, RdmaQueuePair& /* qp */, uint32_t psn, uint32_t /* msn */)
    {
        static_cast<std::vector<Sent>*>(log)->push_back(
            {Simulator::Now().GetSeconds() * 1e6, 'T', psn});
    }

    void DoRun() override
    {
        UsePicoseconds();
        Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
        std::vector<Sent> log;
        qp->SetAckFunction(&AckCoalescingTestCase::OnTimerAck, &log);
        qp->PostReceive(1);
        qp->PostReceive(2);
        qp->PostReceive(3);
        using R = RdmaQueuePair::Response;
        auto at = [&](double us, uint32_t psn, uint8_t op, bool ackReq = false) {
            ScheduleLambda(NanoSeconds(static_cast<int64_t>(us * 1000)), [&, psn, op, ackReq] {
                const RdmaQueuePair::Reply r =
                    qp->ReceiveData(psn, op, 1000, ackReq, false, Simulator::Now());
                if (r.response != R::NONE)
                {
                    log.push_back({Simulator::Now().GetSeconds() * 1e6,
                                   r.response == R::ACK ? 'A' : 'N',
                                   r.ackPsn});
                }
            });
        };
        at(0, 0, RdmaOpcode::WRITE_FIRST);
        at(1, 1, RdmaOpcode::WRITE_MIDDLE);
        at(2, 2, RdmaOpcode::WRITE_MIDDLE);
        for (uint32_t i = 0; i < 10; ++i)
        {
            at(20 + 0.1 * i, 3 + i, RdmaOpcode::WRITE_MIDDLE);
        }
        at(25, 13, RdmaOpcode::WRITE_MIDDLE);
        at(39.5, 14, RdmaOpcode::WRITE_MIDDLE);
        at(40, 15, RdmaOpcode::WRITE_LAST_IMM, true);
        at(50, 16, RdmaOpcode::WRITE_FIRST);
        at(51, 18, RdmaOpcode::WRITE_LAST_IMM, true);
        at(52, 17, RdmaOpcode::WRITE_MIDDLE);
        at(53, 18, RdmaOpcode::WRITE_LAST_IMM, true);
        at(60, 19, RdmaOpcode::WRITE_FIRST, true);
        Simulator::Run();
        const std::vector<Sent> expected = {{8, 'T', 2},
                                            {20.9, 'A', 12},
                                            {33, 'T', 13},
                                            {40, 'A', 15},
                                            {51, 'N', 17},
                                            {53, 'A', 18},
                                            {60, 'A', 19}};
        NS_TEST_ASSERT_MSG_EQ(log.size(), expected.size(), "seven ACKs/NAKs in all");
        for (std::size_t i = 0; i < std::min(log.size(), expected.size()); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(log[i].us, expected[i].us, 1e-6, "time of reply " << i);
            NS_TEST_ASSERT_MSG_EQ(log[i].kind, expected[i].kind, "kind of reply " << i);
            NS_TEST_ASSERT_MSG_EQ(log[i].psn, expected[i].psn, "PSN of reply " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(qp->GetAcksSent(), 6, "six ACKs (two by the timer)");
        NS_TEST_ASSERT_MSG_EQ(qp->GetNaksSent(), 1, "one NAK");
        NS_TEST_ASSERT_MSG_EQ(qp->GetDeliveredBytes(), 20000, "PSNs 0..19 placed");
        qp->Dispose();
        Simulator::Destroy();
    }
};

/**
 * One message on an idle fabric completes in the ideal time the fabric computes
 * (pipelined store-and-forward plus the ACK), so slowdown is 1.
 */
class UnloadedMessageTestCase : public TestCase
{
  public:
    UnloadedMessageTestCase()
        : TestCase("an unloaded 1 MB WRITE completes in its ideal time")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = LeafSpine(2, 2, 2);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        std::vector<RdmaFabric::MessageRecord> done;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&done](const RdmaFabric::MessageRecord& r) { done.push_back(r); }));
        fabric->PostWrite(0, 3, 1000000, 7, 0);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done.size(), 1, "the message completes");
        double fct = (done[0].end - done[0].start).GetSeconds();
        double ideal = done[0].ideal.GetSeconds();
        // 1000 packets of 1082 wire bytes at 100 Gb/s = 86.56 us on the bottleneck.
        NS_TEST_ASSERT_MSG_GT(ideal, 86.56e-6, "ideal covers the serialization");
        NS_TEST_ASSERT_MSG_EQ_TOL(fct / ideal, 1.0, 0.001, "slowdown of an unloaded message");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetCounters().retransmittedPackets, 0, "no retransmission");
        Simulator::Destroy();
    }
};

/**
 * One 1 MB WRITE between two hosts on one switch (100 Gb/s, 1 us cables, 1000-byte
 * packets) against its closed form, cut-through and store-and-forward, with and
 * without the switch's forwarding latency. Wire bytes per packet: 1000 B payload +
 * 58 B of headers and ICRC + 24 B of FCS, preamble and gap (first + 16 B RETH, last
 * + 4 B ImmDt); an ACK 62 + 24 B. With total = all packets' bytes, d = 1 us, L the
 * latency and R the rate:
 * - store-and-forward: (first + total) / R + L + 2d (the first packet is stored, then
 *   the port streams), then the ACK: 2 ack / R + L + 2d;
 * - cut-through: total / R + L + 2d (the message streams through the switch), then
 *   the ACK: ack / R + L + 2d.
 * The latency adds exactly 2 L (data and ACK cross the switch once each), and the
 * default latency is the documented Spectrum figure, non-zero.
 */
class SwitchLatencyClosedFormTestCase : public TestCase
{
  public:
    SwitchLatencyClosedFormTestCase()
        : TestCase("one WRITE through one switch: closed form plus the switch latency")
    {
    }

  private:
    static Time RunOnce(bool cutThrough, Time latency)
    {
        RoceFabricHelper helper;
        helper.SetSwitchAttribute("SwitchLatency", TimeValue(latency));
        helper.SetSwitchAttribute("CutThrough", BooleanValue(cutThrough));
        return OneSwitchWriteTime(helper, 1000000);
    }

    void DoRun() override
    {
        const auto [def, defCt] = SwitchForwardingDefaults<RoceSwitch>();
        NS_TEST_ASSERT_MSG_EQ(def, NanoSeconds(300), "default: Spectrum's 300 ns");
        NS_TEST_ASSERT_MSG_EQ(defCt, true, "default: cut-through");
        const double rate = 100e9;
        const double total = 1000000 + 1000 * 82.0 + 16 + 4;
        const double first = 1000 + 82 + 16;
        const double ack = 62 + 24;
        const double d = 1e-6;
        for (bool cutThrough : {true, false})
        {
            for (Time latency : {Time(0), NanoSeconds(300), def})
            {
                const double l = latency.GetSeconds();
                const double closed =
                    OneSwitchWriteClosedForm(total, first, ack, rate, d, l, cutThrough);
                const Time fct = RunOnce(cutThrough, latency);
                std::cout << (cutThrough ? "cut-through" : "store-and-forward") << ", latency "
                          << latency.As(Time::NS) << ": FCT " << fct.As(Time::NS)
                          << ", closed form " << closed * 1e9 << " ns" << std::endl;
                if (cutThrough == defCt && latency == def)
                {
                    ReportValidation("write-1MB-rocev2-ns", fct.GetSeconds() * 1e9);
                    ReportValidation("write-1MB-rocev2-ns.expected", closed * 1e9);
                }
                NS_TEST_ASSERT_MSG_EQ_TOL(fct.GetSeconds(),
                                          closed,
                                          2e-9,
                                          "closed form (cut-through " << cutThrough << ", latency "
                                                                      << latency << ")");
                if (!latency.IsZero())
                {
                    NS_TEST_ASSERT_MSG_EQ_TOL((fct - RunOnce(cutThrough, Time(0))).GetSeconds(),
                                              2 * l,
                                              1e-12,
                                              "the latency adds once per crossing, each way");
                }
            }
        }
    }
};

/**
 * 16-to-1 incast of 1 MB WRITEs, no congestion control. With PFC: lossless, pause
 * frames upstream, every message completes and the receiver's link stays >= 95%
 * busy. Without PFC and with a small buffer: drops, recovered by go-back-N.
 */
class IncastTestCase : public TestCase
{
  public:
    IncastTestCase(bool pfc)
        : TestCase(pfc ? "16-to-1 incast with PFC: lossless at line rate"
                       : "16-to-1 incast without PFC: drops recovered by retransmission"),
          m_pfc(pfc)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        // 5 leaves x 4 hosts, 2 spines: host 0 receives, hosts 4..19 send.
        Ptr<TopologyGraph> g = LeafSpine(5, 2, 4);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetDeviceAttribute("PfcEnabled", BooleanValue(m_pfc));
        helper.SetMmuAttribute("LosslessPriorities", UintegerValue(m_pfc ? 0x08 : 0x00));
        if (m_pfc)
        {
            // A 4 MB buffer (a 100G ToR's share, e.g. 16 MB over 4 port groups) keeps the
            // dynamic threshold low enough that pauses travel hop by hop to the senders.
            helper.SetMmuAttribute("BufferSize", UintegerValue(4000000));
        }
        else
        {
            helper.SetMmuAttribute("BufferSize", UintegerValue(300000));
            Config::SetDefault("ns3::RdmaQueuePair::RetransmitTimeout",
                               TimeValue(MicroSeconds(500)));
        }
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        uint32_t done = 0;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&done](const RdmaFabric::MessageRecord&) { done++; }));

        // Meter the receiver's link: the leaf port towards host 0.
        uint32_t hostNode = g->GetHosts()[0];
        uint32_t leaf = g->GetPorts(hostNode)[0].peer;
        LinkMeter meter;
        meter.dev = DynamicCast<RoceNetDevice>(
            fabric->GetNodes().Get(leaf)->GetDevice(PortTowards(g, leaf, hostNode)));
        meter.dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&LinkMeter::OnTx, &meter));
        for (uint32_t s = 4; s < 20; ++s)
        {
            fabric->PostWrite(s, 0, 1000000, s, 1);
        }
        Simulator::Stop(Seconds(0.5));
        Simulator::Run();
        RdmaFabric::Counters k = fabric->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(done, 16, "every message completes");
        if (m_pfc)
        {
            NS_TEST_ASSERT_MSG_EQ(k.losslessDrops + k.lossyDrops, 0, "no drop under PFC");
            NS_TEST_ASSERT_MSG_GT(k.pfcPausesSent, 0, "pause frames were sent");
            NS_TEST_ASSERT_MSG_GT(k.pfcResumesSent, 0, "and resume frames");
            // Pauses reach the senders' leaves: spine ports towards leaves paused them.
            uint64_t senderPauses = 0;
            for (uint32_t s = 4; s < 20; ++s)
            {
                senderPauses += fabric->GetNic(s)->GetDevice()->GetPfcPausesReceived();
            }
            NS_TEST_ASSERT_MSG_GT(senderPauses, 0, "pause propagated back to the senders");
            // Every PFC frame sent arrives at the cable's other end, classified the same
            // way there: pauses (quanta > 0) and resumes (quanta 0) counted apart.
            uint64_t pausesIn = 0;
            uint64_t resumesIn = 0;
            for (const auto& dev : fabric->GetAllDevices())
            {
                pausesIn += dev->GetPfcPausesReceived();
                resumesIn += dev->GetPfcResumesReceived();
            }
            std::cout << "PFC incast: " << k.pfcPausesSent << " pauses, " << k.pfcResumesSent
                      << " resumes sent; " << pausesIn << ", " << resumesIn << " received"
                      << std::endl;
            NS_TEST_ASSERT_MSG_EQ(pausesIn, k.pfcPausesSent, "every pause arrives as a pause");
            NS_TEST_ASSERT_MSG_EQ(resumesIn, k.pfcResumesSent, "every resume as a resume");
            NS_TEST_ASSERT_MSG_EQ(k.retransmittedPackets, 0, "nothing retransmitted");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(meter.Utilization(), 0.95, "bottleneck utilization");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(k.lossyDrops, 0, "a small lossy buffer drops");
            NS_TEST_ASSERT_MSG_EQ(k.losslessDrops, 0, "nothing is lossless without PFC");
            NS_TEST_ASSERT_MSG_GT(k.retransmittedPackets, 0, "losses are retransmitted");
            NS_TEST_ASSERT_MSG_EQ(k.pfcPausesSent + k.pfcResumesSent,
                                  0,
                                  "no PFC frame without PFC");
        }
        Simulator::Destroy();
        Config::Reset();
    }

    bool m_pfc;
};

/**
 * Egress scheduling between data priorities: two 1 MB WRITEs, priority 1 and 3, start
 * together and share one 100 Gb/s uplink. Strict priority sends priority 3 first: it
 * ends at about half the time of priority 1 (which then has the link alone). DWRR with
 * equal quanta alternates them byte for byte: both end together, at the time the two
 * messages take back to back.
 */
class EgressSchedulingTestCase : public TestCase
{
  public:
    EgressSchedulingTestCase(bool dwrr)
        : TestCase(dwrr ? "DWRR: two priorities share an uplink equally"
                        : "strict priority: the higher priority goes first"),
          m_dwrr(dwrr)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        // 2 leaves x 2 hosts, 1 spine: hosts 0 and 1 send to host 2 over leaf 0's uplink.
        Ptr<TopologyGraph> g = LeafSpine(2, 1, 2);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetSwitchAttribute("Dwrr", BooleanValue(m_dwrr));
        helper.SetMmuAttribute("BufferSize", UintegerValue(32000000)); // no drop, no pause
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        std::map<uint32_t, double> end; // by sender
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&end](const RdmaFabric::MessageRecord& r) { end[r.src] = r.end.GetSeconds(); }));
        fabric->SetPriority(1);
        fabric->PostWrite(0, 2, 1000000, 1, 0);
        fabric->SetPriority(3);
        fabric->PostWrite(1, 2, 1000000, 2, 0);
        Simulator::Run();
        RdmaFabric::Counters k = fabric->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(end.size(), 2, "both messages complete");
        NS_TEST_ASSERT_MSG_EQ(k.losslessDrops + k.lossyDrops, 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(k.retransmittedPackets, 0, "nothing retransmitted");
        // 2 x 1000 packets of 1082 wire bytes at 100 Gb/s: 173.1 us on the uplink, then
        // about 8 us of cables (four 1 us hops there, four back for the last ACK) and
        // 1.8 us of switches (three there, three back, 300 ns each: SwitchLatency).
        const double last = std::max(end[0], end[1]);
        NS_TEST_ASSERT_MSG_GT(last, 173.1e-6, "the last message ends after both's bytes");
        NS_TEST_ASSERT_MSG_LT(last, 183.8e-6, "the uplink stays busy until then");
        if (m_dwrr)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(end[1] / end[0], 1.0, 0.01, "DWRR: both end together");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(end[1] / end[0],
                                      0.52,
                                      0.02,
                                      "strict: priority 3 first, in about half the time");
        }
        Simulator::Destroy();
    }

    bool m_dwrr;
};

/**
 * A frame that meets an idle egress port with empty queues skips the queue
 * (RoceSwitch::IdlePortShortcut): the same steps in the same order, so the same
 * run. An incast under PFC and DCQCN plus crossing traffic exercises pauses,
 * resumes, ECN marks and ports going idle and busy; every counter, the event count
 * and every message's completion time must match the run without the shortcut.
 */
class IdlePortShortcutTestCase : public TestCase
{
  public:
    IdlePortShortcutTestCase()
        : TestCase("idle-port shortcut: identical run with and without it")
    {
    }

  private:
    struct Run
    {
        RdmaFabric::Counters counters;
        uint64_t events{0};
        std::map<uint64_t, int64_t> ends; //!< completion time (ps) by message id
    };

    /// \param victim the victim-flow topology (two switches, one cable) instead of
    /// an incast on a leaf-spine with traffic to the receiver's neighbours
    static Run RunOnce(bool shortcut, bool victim)
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g;
        if (victim)
        {
            // VictimFlowTestCase's fabric: frames for the congested port and for the
            // victim's idle one share the cable's ingress queue at switch B.
            g = Create<TopologyGraph>();
            const uint32_t a = g->AddSwitch();
            const uint32_t b = g->AddSwitch();
            g->AddLink(a, b, DataRate("100Gbps"), MicroSeconds(1));
            for (uint32_t i = 0; i < 7; ++i)
            {
                g->AddLink(g->AddHost(), i < 3 ? a : b, DataRate("100Gbps"), MicroSeconds(1));
            }
        }
        else
        {
            g = LeafSpine(5, 2, 4);
        }
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetSwitchAttribute("IdlePortShortcut", BooleanValue(shortcut));
        // Untimed forwarding: with SwitchLatency or CutThrough the shortcut also hands
        // a frame to a port whose frame ends by the time it is ready, where the port
        // would pull it at that end: the buffer frees earlier and results differ.
        helper.SetSwitchAttribute("SwitchLatency", TimeValue(Time(0)));
        helper.SetSwitchAttribute("CutThrough", BooleanValue(false));
        helper.SetMmuAttribute("BufferSize", UintegerValue(2000000));
        if (!victim)
        {
            helper.SetCongestionControl("dcqcn");
        }
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Run r;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&r](const RdmaFabric::MessageRecord& m) { r.ends[m.id] = m.end.GetTimeStep(); }));
        if (victim)
        {
            for (uint32_t s : {0U, 1U, 3U, 4U})
            {
                fabric->PostWrite(s, 5, 2000000, 0, 1);
            }
            fabric->PostWrite(2, 6, 1000000, 0, 0);
        }
        else
        {
            for (uint32_t s = 4; s < 20; ++s)
            {
                fabric->PostWrite(s, 0, 300000, s, 1); // incast towards host 0
            }
            for (uint32_t s = 4; s < 20; s += 2)
            {
                // To host 0's idle neighbours: the same ingress queues (spine to leaf)
                // hold frames for the congested port and frames that take the shortcut.
                fabric->PostWrite(s, 1 + (s / 2) % 3, 200000, 100 + s, 1);
            }
        }
        Simulator::Stop(Seconds(0.1));
        Simulator::Run();
        r.counters = fabric->GetCounters();
        r.events = Simulator::GetEventCount();
        Simulator::Destroy();
        Config::Reset();
        return r;
    }

    void DoRun() override
    {
        for (bool victim : {false, true})
        {
            const Run on = RunOnce(true, victim);
            const Run off = RunOnce(false, victim);
            const std::string name = victim ? "victim flow: " : "incast: ";
            NS_TEST_ASSERT_MSG_GT(on.counters.pfcPausesSent, 0, name << "the run pauses");
            NS_TEST_ASSERT_MSG_EQ(on.ends.size(), (victim ? 5 : 24), name << "all complete");
            NS_TEST_ASSERT_MSG_EQ(on.events, off.events, name << "events");
            NS_TEST_ASSERT_MSG_EQ(on.counters.packetHops, off.counters.packetHops, name << "hops");
            NS_TEST_ASSERT_MSG_EQ(on.counters.pfcPausesSent,
                                  off.counters.pfcPausesSent,
                                  name << "pauses");
            NS_TEST_ASSERT_MSG_EQ(on.counters.pfcResumesSent,
                                  off.counters.pfcResumesSent,
                                  name << "resumes");
            NS_TEST_ASSERT_MSG_EQ(on.counters.ecnMarks, off.counters.ecnMarks, name << "marks");
            NS_TEST_ASSERT_MSG_EQ(on.counters.cnpsSent, off.counters.cnpsSent, name << "CNPs");
            NS_TEST_ASSERT_MSG_EQ(on.counters.losslessDrops + on.counters.lossyDrops,
                                  off.counters.losslessDrops + off.counters.lossyDrops,
                                  name << "drops");
            NS_TEST_ASSERT_MSG_EQ(on.ends.size(), off.ends.size(), name << "messages");
            for (const auto& [id, end] : on.ends)
            {
                const auto other = off.ends.find(id);
                NS_TEST_ASSERT_MSG_EQ((other != off.ends.end() && other->second == end),
                                      true,
                                      name << "completion time of message " << id);
            }
            std::cout << "idle-port shortcut, " << name << on.events << " events, "
                      << on.counters.packetHops << " hops, " << on.counters.pfcPausesSent
                      << " pauses, " << on.counters.ecnMarks << " marks in both runs" << std::endl;
        }
    }
};

/**
 * XON under dynamic thresholds: a lossless PG's XON threshold is alpha x the free
 * shared buffer, so buffer released by any PG raises every paused PG's threshold.
 * One switch, four hosts, an 8 MiB buffer, alpha 1 and a 1.5 MB XON offset: host 0
 * writes 20 MB to host 2, whose NIC stalls (it drains only from 400 to 440 us), so PG
 * (port 0, priority 3) pauses host 0 at 224 us and stays paused, its headroom empty
 * after the drain but its shared bytes above XON; host 1 writes 2.5 MB to host 3,
 * whose NIC stalls until 600 us, so that much sits in the pool and then leaves. None
 * of PG 0's frames leave after 440 us, yet the release must resume host 0 (at 649 us),
 * as a switch that evaluates every PG against the free buffer does.
 */
class XonRecheckTestCase : public TestCase
{
  public:
    XonRecheckTestCase()
        : TestCase("PFC: buffer released by one PG resumes another paused PG below XON")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        const uint32_t s = g->AddSwitch();
        for (uint32_t i = 0; i < 4; ++i)
        {
            g->AddLink(g->AddHost(), s, DataRate("100Gbps"), MicroSeconds(1));
        }
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetMmuAttribute("BufferSize", UintegerValue(8 * 1024 * 1024));
        helper.SetMmuAttribute("LosslessAlpha", DoubleValue(1.0));
        helper.SetMmuAttribute("XonOffsetBytes", UintegerValue(1500000));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        const uint8_t prio3 = 1U << 3;
        Ptr<RoceNic> nic2 = fabric->GetNic(2);
        Simulator::Schedule(Time(0), &RoceNic::SetReceiveStalled, nic2, prio3);
        Simulator::Schedule(MicroSeconds(400), &RoceNic::SetReceiveStalled, nic2, uint8_t{0});
        Simulator::Schedule(MicroSeconds(440), &RoceNic::SetReceiveStalled, nic2, prio3);
        Simulator::Schedule(Time(0), &RoceNic::SetReceiveStalled, fabric->GetNic(3), prio3);
        Simulator::Schedule(MicroSeconds(600),
                            &RoceNic::SetReceiveStalled,
                            fabric->GetNic(3),
                            uint8_t{0});
        fabric->PostWrite(0, 2, 20000000, 0, 0);
        fabric->PostWrite(1, 3, 2500000, 1, 0);
        std::vector<Time> pauses;
        std::vector<Time> resumes;
        fabric->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "Pfc",
            MakeLambdaCallback<void, Ptr<const RoceNetDevice>, uint8_t, uint16_t, bool>(
                [&](Ptr<const RoceNetDevice>, uint8_t prio, uint16_t quanta, bool sent) {
                    if (!sent && prio == 3)
                    {
                        (quanta == 0 ? resumes : pauses).push_back(Simulator::Now());
                    }
                }));
        Simulator::Stop(MicroSeconds(1000));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(pauses.empty(), false, "host 0 was paused");
        NS_TEST_ASSERT_MSG_EQ(resumes.empty(), false, "and resumed");
        if (!pauses.empty() && !resumes.empty())
        {
            std::cout << "XON re-check: host 0 paused at " << pauses.front().As(Time::US)
                      << ", resumed at " << resumes.front().As(Time::US) << std::endl;
            NS_TEST_ASSERT_MSG_LT(pauses.front(), MicroSeconds(400), "paused before the drain");
            NS_TEST_ASSERT_MSG_GT(resumes.front(), MicroSeconds(400), "resumed by the drain");
        }
    }
};

/**
 * PFC's victim flow (Zhu et al. 2015, section 2): two leaves joined by one cable.
 * Hosts on leaf B and two hosts on leaf A send to receiver R on leaf B; a victim V
 * on leaf A sends to VR on leaf B, whose port is idle. Max-min fair, V would get
 * 100 - 2 x 25 = 50 Gb/s on the shared cable; PFC pauses the whole cable whenever
 * R's port backs up, so V gets far less.
 */
class VictimFlowTestCase : public TestCase
{
  public:
    VictimFlowTestCase()
        : TestCase("PFC victim flow: a flow that avoids the congested port loses throughput")
    {
    }

  private:
    double VictimGbps(bool incast)
    {
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        uint32_t a = g->AddSwitch();
        uint32_t b = g->AddSwitch();
        DataRate r("100Gbps");
        Time d = MicroSeconds(1);
        g->AddLink(a, b, r, d);
        std::vector<uint32_t> host;
        for (uint32_t i = 0; i < 7; ++i)
        {
            uint32_t h = g->AddHost();
            g->AddLink(h, i < 3 ? a : b, r, d);
            host.push_back(h);
        }
        // ranks: 0,1 senders on A; 2 victim V on A; 3,4 senders on B; 5 R; 6 VR.
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Time victimFct;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&victimFct](const RdmaFabric::MessageRecord& m) {
                if (m.src == 2)
                {
                    victimFct = m.end - m.start;
                }
            }));
        const uint64_t victimBytes = 5000000;
        if (incast)
        {
            for (uint32_t s : {0U, 1U, 3U, 4U})
            {
                fabric->PostWrite(s, 5, 20000000, 0, 1);
            }
        }
        fabric->PostWrite(2, 6, victimBytes, 0, 0);
        Simulator::Stop(Seconds(0.1));
        Simulator::Run();
        double gbps = victimBytes * 8.0 / victimFct.GetSeconds() / 1e9;
        Simulator::Destroy();
        return gbps;
    }

    void DoRun() override
    {
        UsePicoseconds();
        double alone = VictimGbps(false);
        double victim = VictimGbps(true);
        std::cout << "victim alone " << alone << " Gb/s, with PFC incast " << victim << " Gb/s"
                  << std::endl;
        // Alone the victim runs at the payload rate, 100 x 1000/1082 = 92.4 Gb/s, less
        // the start-up and the final ACK's round trip (about 1.5% of a 5 MB message).
        NS_TEST_ASSERT_MSG_EQ_TOL(alone, 92.4, 2.0, "victim alone runs at line rate");
        // Its max-min fair share with the incast is 50 Gb/s of wire (46 of payload);
        // under PFC it gets much less.
        NS_TEST_ASSERT_MSG_LT(victim, 0.8 * 46.2, "PFC makes V a victim");
    }
};

/**
 * \brief The NIC's round robin: host 0 sends to hosts 1 and 2 at once, both
 * connections at the same rate (the test library's fixed-fraction congestion
 * control): at 0.45 of the line rate each (paced: the wire idles and wake-ups
 * restart the scan) and at the full line rate (both always ready: the round robin
 * alone decides; a scan that restarted at the first queue pair would send one
 * connection's frames back to back). Their data frames must alternate and share the
 * wire equally.
 */
class PacedRoundRobinTestCase : public TestCase
{
  public:
    /// \param fraction each connection's rate over the line rate
    explicit PacedRoundRobinTestCase(double fraction)
        : TestCase(fraction < 1 ? "round robin: two paced queue pairs of equal rate alternate"
                                : "round robin: two queue pairs at line rate alternate"),
          m_fraction(fraction)
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = LeafSpine(1, 1, 3);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetCongestionControl("fixed-fraction");
        helper.SetCongestionControlAttribute("Fraction", DoubleValue(m_fraction));
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        FrameLog sent;
        fabric->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&FrameLog::OnTx, &sent));
        fabric->PostWrite(0, 1, 200000, 1, 0);
        fabric->PostWrite(0, 2, 200000, 2, 0);
        Simulator::Run();
        std::vector<uint32_t> order; // destination address of each data frame
        for (const RoceFrameView& v : sent.frames)
        {
            if (v.isRoce && v.bthOpcode != RdmaOpcode::ACKNOWLEDGE)
            {
                order.push_back(v.dstIp);
            }
        }
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(order.size(), 400, "200 data frames to each peer");
        uint32_t repeats = 0;
        uint32_t first = 0;
        for (std::size_t i = 0; i < order.size(); ++i)
        {
            first += order[i] == order[0] ? 1 : 0;
            repeats += i > 0 && order[i] == order[i - 1] ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(first, 200, "each connection sent its 200");
        NS_TEST_ASSERT_MSG_EQ(repeats, 0, "they alternate frame by frame");
    }

    double m_fraction; //!< each connection's rate over the line rate
};

/**
 * \brief A RoceChannel that counts what it carries: what a remote (MPI) channel would
 * see at the same seam.
 */
class FrameCountingRoceChannel : public RoceChannel
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FrameCountingRoceChannel")
                                .SetParent<RoceChannel>()
                                .SetGroupName("AiFabric")
                                .AddConstructor<FrameCountingRoceChannel>();
        return tid;
    }

    void TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime) override
    {
        ++s_frames;
        s_bytes += frame.view.frameBytes;
        s_pause += frame.view.isPfc ? 1 : 0;
        RoceChannel::TransmitStart(frame, src, txTime);
    }

    static uint64_t s_frames; //!< frames carried by every such channel
    static uint64_t s_bytes;  //!< their bytes
    static uint64_t s_pause;  //!< PFC frames among them
};

uint64_t FrameCountingRoceChannel::s_frames = 0;
uint64_t FrameCountingRoceChannel::s_bytes = 0;
uint64_t FrameCountingRoceChannel::s_pause = 0;
NS_OBJECT_ENSURE_REGISTERED(FrameCountingRoceChannel);

/**
 * \brief The device/channel seam: with a channel subclass (RoceFabricHelper::
 * SetChannelType) every frame the devices send, data, ACKs and PFC pauses, passes
 * through its TransmitStart, and the run is the same as on plain channels.
 */
class ChannelSeamTestCase : public TestCase
{
  public:
    ChannelSeamTestCase()
        : TestCase("a channel subclass sees every frame the devices send; same results")
    {
    }

  private:
    struct Run
    {
        std::vector<int64_t> ends; //!< message end times (ps), in completion order
        uint64_t txFrames{0};      //!< frames the devices put on the wire
        uint64_t txBytes{0};       //!< their bytes
        uint64_t pauses{0};        //!< PFC frames sent: pauses and resumes
    };

    Run RunIncast(const std::string& channel)
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = LeafSpine(3, 1, 4);
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        RoceFabricHelper helper;
        helper.SetMmuAttribute("BufferSize", UintegerValue(1000000));
        helper.SetChannelType(channel);
        Ptr<RoceFabric> fabric = helper.Install(g, routes);
        Run r;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&r](const RdmaFabric::MessageRecord& m) {
                r.ends.push_back(m.end.GetPicoSeconds());
            }));
        for (uint32_t s = 4; s < 12; ++s)
        {
            fabric->PostWrite(s, 0, 500000, s, 1);
        }
        Simulator::Run();
        for (const auto& dev : fabric->GetAllDevices())
        {
            r.txFrames += dev->GetTxFrames();
            r.txBytes += dev->GetTxBytes();
        }
        r.pauses = fabric->GetCounters().pfcPausesSent + fabric->GetCounters().pfcResumesSent;
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const Run plain = RunIncast("ns3::RoceChannel");
        FrameCountingRoceChannel::s_frames = 0;
        FrameCountingRoceChannel::s_bytes = 0;
        FrameCountingRoceChannel::s_pause = 0;
        const Run counted = RunIncast("ns3::FrameCountingRoceChannel");
        NS_TEST_ASSERT_MSG_EQ(counted.ends.size(), 8, "every message completes");
        NS_TEST_ASSERT_MSG_GT(counted.pauses, 0, "the incast pauses");
        NS_TEST_ASSERT_MSG_EQ(FrameCountingRoceChannel::s_frames,
                              counted.txFrames,
                              "every frame sent passed the channel");
        NS_TEST_ASSERT_MSG_EQ(FrameCountingRoceChannel::s_bytes, counted.txBytes, "and its bytes");
        NS_TEST_ASSERT_MSG_EQ(FrameCountingRoceChannel::s_pause,
                              counted.pauses,
                              "pause frames too");
        NS_TEST_ASSERT_MSG_EQ(counted.txFrames, plain.txFrames, "same frames as plain channels");
        NS_TEST_ASSERT_MSG_EQ((counted.ends == plain.ends), true, "same completion times");

        std::string error;
        try
        {
            RoceFabricHelper().SetChannelType("ns3::IbChannel");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "channel type 'ns3::IbChannel' is not ns3::RoceChannel or a "
                              "subclass of it",
                              "a channel of the other fabric is refused");
        error.clear();
        try
        {
            RoceFabricHelper().SetEgressPolicy("ns3::SprayEgressPolicy");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "egress policy 'ns3::SprayEgressPolicy' is not a registered TypeId",
                              "an unknown policy is refused, not a null dereference at Install");
        error.clear();
        try
        {
            RoceFabricHelper().SetEgressPolicy("ns3::RoceChannel");
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(error,
                              "egress policy 'ns3::RoceChannel' is not ns3::EgressPortPolicy or "
                              "a subclass of it",
                              "a TypeId of another kind is refused");
    }
};

class Rocev2FabricTestSuite : public TestSuite
{
  public:
    Rocev2FabricTestSuite()
        : TestSuite("ai-fabric-rocev2-fabric", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new NicFrameFieldsTestCase, AI_FABRIC_QUICK);
        AddTestCase(new AckCoalescingTestCase, AI_FABRIC_QUICK);
        AddTestCase(new ChannelSeamTestCase, AI_FABRIC_QUICK);
        AddTestCase(new PacedRoundRobinTestCase(0.45), AI_FABRIC_QUICK);
        AddTestCase(new PacedRoundRobinTestCase(1.0), AI_FABRIC_QUICK);
        AddTestCase(new UnloadedMessageTestCase, AI_FABRIC_QUICK);
        AddTestCase(new SwitchLatencyClosedFormTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IncastTestCase(true), AI_FABRIC_QUICK);
        AddTestCase(new IncastTestCase(false), AI_FABRIC_QUICK);
        AddTestCase(new VictimFlowTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IdlePortShortcutTestCase, AI_FABRIC_QUICK);
        AddTestCase(new EgressSchedulingTestCase(false), AI_FABRIC_QUICK);
        AddTestCase(new EgressSchedulingTestCase(true), AI_FABRIC_QUICK);
        AddTestCase(new XonRecheckTestCase, AI_FABRIC_QUICK);
        AddTestCase(new TtlHopEchoTestCase, AI_FABRIC_QUICK);
    }
};

static Rocev2FabricTestSuite g_rocev2FabricTestSuite;
