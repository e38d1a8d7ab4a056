/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The InfiniBand fabric: lossless credit-based incast at line rate, credit-limited
 * throughput = 64 x credits / credit round trip, VL arbitration weights, Subnet
 * Manager LFTs that are complete and minimal (fat-tree, torus, mesh, dragonfly), and a
 * torus all-to-all on dateline VLs.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/communicator.h"
#include "ns3/config.h"
#include "ns3/dragonfly-topology-helper.h"
#include "ns3/erf-header.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/flow-id-tag.h"
#include "ns3/global-value.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-frame.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-lrh-header.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-pcap-writer.h"
#include "ns3/ib-switch.h"
#include "ns3/ib-vcrc-trailer.h"
#include "ns3/icrc-trailer.h"
#include "ns3/integer.h"
#include "ns3/lambda-callback.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/mesh-topology-helper.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/subnet-manager.h"
#include "ns3/topology-graph.h"
#include "ns3/torus-topology-helper.h"
#include "ns3/uinteger.h"
#include "ns3/vl-arbiter.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

using namespace ns3;

namespace
{

/// Busy time, span and bytes of one port's transmitter (data packets).
struct IbLinkMeter
{
    Ptr<IbNetDevice> dev;
    Time first = Time::Max();
    Time lastEnd;
    Time busy;
    uint64_t bytes{0};
    uint64_t packets{0};

    void OnTx(Ptr<const Packet> p)
    {
        Time tx = dev->GetTransmitTime(p->GetSize());
        Time now = Simulator::Now();
        first = std::min(first, now);
        lastEnd = now + tx;
        busy += tx;
        bytes += p->GetSize();
        packets++;
    }
};

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

uint64_t
FlowControlViolations(Ptr<IbFabric> f)
{
    uint64_t n = 0;
    for (const auto& d : f->GetAllDevices())
    {
        n += d->GetCreditOverflows() + d->GetNegativeCreditEvents();
    }
    return n;
}

/// Two hosts on one switch: host 0 -> switch -> host 1.
Ptr<TopologyGraph>
TwoHostsOneSwitch(Time delay)
{
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    uint32_t h0 = g->AddHost();
    uint32_t h1 = g->AddHost();
    uint32_t s = g->AddSwitch(1);
    g->AddLink(h0, s, DataRate("100Gbps"), delay);
    g->AddLink(h1, s, DataRate("100Gbps"), delay);
    return g;
}

} // namespace

/// Wire format: header sizes and a 4 KB WRITE middle taking 65 credits.
class IbFramingTestCase : public TestCase
{
  public:
    IbFramingTestCase()
        : TestCase("IB framing: LRH, BTH, ICRC, VCRC sizes, PktLen, 65 credits per 4 KB")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(IbFrame::HeaderBytes(RdmaOpcode::WRITE_MIDDLE, false),
                              26,
                              "LRH 8 + BTH 12 + ICRC 4 + VCRC 2");
        NS_TEST_ASSERT_MSG_EQ(IbFrame::HeaderBytes(RdmaOpcode::WRITE_ONLY_IMM, false),
                              46,
                              "+ RETH 16 + ImmDt 4");
        NS_TEST_ASSERT_MSG_EQ(IbFrame::Blocks(4096 + 26), 65, "4 KB packet = 65 credits");
        Ptr<Packet> p = Create<Packet>(4096);
        IbFrameFields f;
        f.vl = 1;
        f.sl = 5;
        f.dlid = 0x1234;
        f.slid = 7;
        f.opcode = RdmaOpcode::WRITE_MIDDLE;
        f.destQp = 0xABCDE;
        f.psn = 0x123456;
        f.ackReq = true;
        f.payloadBytes = 4096;
        IbFrame::Encapsulate(p, f);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 4122, "whole packet");
        IbFrameView v;
        NS_TEST_ASSERT_MSG_EQ(IbFrame::Peek(p, v), true, "peek");
        NS_TEST_ASSERT_MSG_EQ(+v.vl, 1, "VL");
        NS_TEST_ASSERT_MSG_EQ(+v.sl, 5, "SL");
        NS_TEST_ASSERT_MSG_EQ(v.dlid, 0x1234, "DLID");
        NS_TEST_ASSERT_MSG_EQ(v.slid, 7, "SLID");
        NS_TEST_ASSERT_MSG_EQ(v.destQp, 0xABCDE, "DestQP");
        NS_TEST_ASSERT_MSG_EQ(v.psn, 0x123456, "PSN");
        NS_TEST_ASSERT_MSG_EQ(v.ackReq, true, "AckReq");
        NS_TEST_ASSERT_MSG_EQ(v.payloadBytes, 4096, "payload");
        IbFrame::SetVl(p, 3);
        IbLrhHeader lrh;
        p->PeekHeader(lrh);
        NS_TEST_ASSERT_MSG_EQ(+lrh.GetVl(), 3, "VL rewritten");
        NS_TEST_ASSERT_MSG_EQ(lrh.GetPacketLengthWords(), (4122 - 2) / 4, "PktLen to ICRC");
        // An odd payload is padded to 4 bytes; the view still reports the payload.
        Ptr<Packet> q = Create<Packet>(1001);
        f.payloadBytes = 1001;
        IbFrame::Encapsulate(q, f);
        NS_TEST_ASSERT_MSG_EQ(q->GetSize(), 1001 + 3 + 26, "padded");
        IbFrame::Peek(q, v);
        NS_TEST_ASSERT_MSG_EQ(v.payloadBytes, 1001, "pad removed");
    }
};

/// Restores ns-3's ChecksumEnabled and the CRC switch even when an assertion returns.
struct ChecksumGuard
{
    ~ChecksumGuard()
    {
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
        IcrcTrailer::SetComputeEnabled(false);
    }
};

/// \return the packet's bytes.
std::vector<uint8_t>
PacketBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/// \return bytes [size - from, size - to) of b in hex.
std::string
Hex(const std::vector<uint8_t>& b, std::size_t from, std::size_t to)
{
    std::string out;
    for (std::size_t i = b.size() - from; i < b.size() - to; ++i)
    {
        static const char digits[] = "0123456789abcdef";
        out += digits[b[i] >> 4];
        out += digits[b[i] & 15];
    }
    return out;
}

/**
 * ICRC and VCRC (IBTA Vol. 1 7.8.1, 7.8.2) when ChecksumEnabled: the VCRC is sent so
 * that the CRC over the whole packet, VCRC included, leaves the same residue for every
 * packet (true only with the right polynomial's reflected form and byte order); the
 * ICRC ignores the variant fields (VL, FECN) and covers the invariant ones; a switch's
 * VL rewrite or FECN mark keeps both valid; with checksums off both are zeros. End to
 * end: every frame a switch forwards on an installed fabric carries valid CRCs.
 */
class IbCrcTestCase : public TestCase
{
  public:
    IbCrcTestCase()
        : TestCase(
              "IB ICRC and VCRC computed when ChecksumEnabled, valid after VL and FECN rewrites")
    {
    }

  private:
    static Ptr<Packet> Frame(uint32_t payload, uint16_t dlid, uint8_t vl)
    {
        IbFrameFields f;
        f.vl = vl;
        f.sl = 2;
        f.dlid = dlid;
        f.slid = 7;
        f.opcode = RdmaOpcode::WRITE_FIRST;
        f.hasReth = true;
        f.rethDmaLen = 8192;
        f.destQp = 0x1234;
        f.psn = 99;
        f.payloadBytes = payload;
        Ptr<Packet> p = Create<Packet>(payload);
        IbFrame::Encapsulate(p, f);
        return p;
    }

    static uint16_t Residue(Ptr<const Packet> p)
    {
        std::vector<uint8_t> b = PacketBytes(p);
        return IbVcrcTrailer::Calculate(b.data(), b.size());
    }

    void DoRun() override
    {
        ChecksumGuard guard;
        Ptr<Packet> off = Frame(250, 5, 0);
        std::vector<uint8_t> z = PacketBytes(off);
        NS_TEST_ASSERT_MSG_EQ(Hex(z, 6, 0),
                              std::string(12, '0'),
                              "checksums off: ICRC and VCRC are zeros");
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(off), false, "zeros do not verify");

        IcrcTrailer::SetComputeEnabled(true);
        Ptr<Packet> a = Frame(250, 5, 0); // pad 2: the ICRC covers it
        Ptr<Packet> b = Frame(4096, 9, 1);
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(a), true, "a verifies");
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(b), true, "b verifies");
        NS_TEST_ASSERT_MSG_EQ(Residue(a), Residue(b), "one VCRC residue for every packet");
        std::vector<uint8_t> before = PacketBytes(a);
        IbFrame::SetVl(a, 3);
        std::vector<uint8_t> afterVl = PacketBytes(a);
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(a), true, "valid after the VL rewrite");
        NS_TEST_ASSERT_MSG_EQ(Hex(before, 6, 2), Hex(afterVl, 6, 2), "the ICRC ignores the VL");
        NS_TEST_ASSERT_MSG_NE(Hex(before, 2, 0), Hex(afterVl, 2, 0), "the VCRC covers the VL");
        IbFrame::SetFecn(a);
        std::vector<uint8_t> afterFecn = PacketBytes(a);
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(a), true, "valid after the FECN mark");
        NS_TEST_ASSERT_MSG_EQ(Hex(afterVl, 6, 2), Hex(afterFecn, 6, 2), "the ICRC ignores FECN");
        // The invariant fields are covered: another DLID, another ICRC.
        std::vector<uint8_t> other = PacketBytes(Frame(250, 6, 0));
        NS_TEST_ASSERT_MSG_NE(Hex(before, 6, 2), Hex(other, 6, 2), "the ICRC covers the DLID");
        // A flipped payload bit no longer verifies.
        before[40] ^= 1;
        Ptr<Packet> corrupt = Create<Packet>(before.data(), before.size());
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(corrupt), false, "a bit error is caught");
        IcrcTrailer::SetComputeEnabled(false);

        // Installed fabric: the helper reads ChecksumEnabled; frames leaving the switch
        // (VL already chosen by the switch) carry valid CRCs.
        UsePicoseconds();
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        Ptr<TopologyGraph> g = TwoHostsOneSwitch(MicroSeconds(1));
        Ptr<IbFabric> fabric = IbFabricHelper().Install(g, RoutingEngine::BuildTable("ecmp", g));
        uint32_t sw = 2;
        Ptr<IbNetDevice> dev = fabric->GetDevice(sw, PortTowards(g, sw, g->GetHosts()[1]));
        uint32_t frames = 0;
        uint32_t valid = 0;
        dev->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeLambdaCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                if (p->GetSize() >= IbFrame::HeaderBytes(RdmaOpcode::WRITE_MIDDLE, false))
                {
                    frames++;
                    valid += IbFrame::VerifyCrcs(p) ? 1 : 0;
                }
            }));
        uint32_t done = 0;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&done](const RdmaFabric::MessageRecord&) { done++; }));
        fabric->PostWrite(0, 1, 64 * 1024, 1, 0);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(done, 1, "the WRITE completes");
        NS_TEST_ASSERT_MSG_EQ(frames, 16, "64 KiB in 4 KiB packets through the switch");
        NS_TEST_ASSERT_MSG_EQ(valid, frames, "every forwarded frame has valid CRCs");
        Simulator::Destroy();
    }
};

/**
 * What IbRemoteChannel sends to another rank instead of a packet (IbFrameHeaders,
 * IbFrame::ReadHeaders) gives the packet's bytes again (IbFrame::Materialize): every
 * opcode the HCA sends, every LRH/BTH/RETH/ImmDt/AETH field drawn at random, payloads
 * with every pad count, CRCs off and on, as the HCA built the packet and after a switch's
 * VL rewrite and FECN mark. A lost or changed field, pad byte or CRC changes the bytes
 * (and the view the far port decodes). A packet with a packet or byte tag, which its
 * headers do not give, is refused (it crosses as a serialized Packet).
 */
class IbFrameHeadersTestCase : public TestCase
{
  public:
    IbFrameHeadersTestCase()
        : TestCase("IB packets rebuilt from IbFrameHeaders (the crossing between ranks) "
                   "have every byte and field of the packet sent")
    {
    }

  private:
    static bool SameView(const IbFrameView& a, const IbFrameView& b)
    {
        return a.packetBytes == b.packetBytes && a.vl == b.vl && a.sl == b.sl && a.lnh == b.lnh &&
               a.dlid == b.dlid && a.slid == b.slid && a.opcode == b.opcode && a.fecn == b.fecn &&
               a.becn == b.becn && a.ackReq == b.ackReq && a.destQp == b.destQp && a.psn == b.psn &&
               a.hasAeth == b.hasAeth && a.aethSyndrome == b.aethSyndrome &&
               a.aethMsn == b.aethMsn && a.payloadBytes == b.payloadBytes &&
               a.rethDmaLen == b.rethDmaLen;
    }

    void DoRun() override
    {
        ChecksumGuard guard;
        const uint8_t opcodes[] = {RdmaOpcode::SEND_FIRST,
                                   RdmaOpcode::SEND_MIDDLE,
                                   RdmaOpcode::SEND_LAST,
                                   RdmaOpcode::SEND_LAST_IMM,
                                   RdmaOpcode::SEND_ONLY,
                                   RdmaOpcode::SEND_ONLY_IMM,
                                   RdmaOpcode::WRITE_FIRST,
                                   RdmaOpcode::WRITE_MIDDLE,
                                   RdmaOpcode::WRITE_LAST,
                                   RdmaOpcode::WRITE_LAST_IMM,
                                   RdmaOpcode::WRITE_ONLY,
                                   RdmaOpcode::WRITE_ONLY_IMM,
                                   RdmaOpcode::READ_REQUEST,
                                   RdmaOpcode::READ_RESPONSE_FIRST,
                                   RdmaOpcode::READ_RESPONSE_MIDDLE,
                                   RdmaOpcode::READ_RESPONSE_LAST,
                                   RdmaOpcode::READ_RESPONSE_ONLY,
                                   RdmaOpcode::ACKNOWLEDGE,
                                   RdmaOpcode::CNP};
        uint32_t seed = 4242;
        auto next = [&seed]() {
            seed = seed * 1103515245U + 12345U; // any spread of values will do
            return seed >> 8;
        };
        uint32_t cases = 0;
        uint32_t bad = 0;
        uint32_t crcsValid = 0;
        for (bool crcs : {false, true})
        {
            IcrcTrailer::SetComputeEnabled(crcs);
            for (uint8_t op : opcodes)
            {
                for (uint32_t rep = 0; rep < 8; ++rep)
                {
                    IbFrameFields f;
                    f.opcode = op;
                    f.vl = next() % 15;
                    f.sl = next() % 16;
                    f.dlid = next() & 0xFFFF;
                    f.slid = next() & 0xFFFF;
                    DrawTransportFields(f, next);
                    f.hasReth = RdmaOpcode::HasReth(op);
                    f.hasImm = RdmaOpcode::HasImm(op);
                    f.hasAeth =
                        op == RdmaOpcode::ACKNOWLEDGE || RdmaOpcode::ReadResponseHasAeth(op);
                    const bool noPayload = op == RdmaOpcode::READ_REQUEST ||
                                           op == RdmaOpcode::ACKNOWLEDGE || op == RdmaOpcode::CNP;
                    // rep 0..3: a 4 KiB MTU's full packet, then 1..3 bytes short (every pad)
                    f.payloadBytes = noPayload ? 0 : rep < 4 ? 4096 - rep : 1 + next() % 4096;
                    Ptr<Packet> p = Create<Packet>(f.payloadBytes);
                    IbFrame::Encapsulate(p, f);
                    if (rep % 4 == 1)
                    {
                        IbFrame::SetVl(p, static_cast<uint8_t>((f.vl + 1) % 15)); // a switch's
                    }
                    if (rep % 4 == 2 && !f.fecn)
                    {
                        IbFrame::SetFecn(p);
                    }
                    ++cases;
                    IbFrameHeaders h;
                    bool ok = IbFrame::ReadHeaders(p, h) && h.packetBytes == p->GetSize() &&
                              h.leadingBytes == std::min<uint32_t>(40, p->GetSize() - 6);
                    Ptr<Packet> q = IbFrame::Materialize(h);
                    ok = ok && q != p && PacketBytes(q) == PacketBytes(p);
                    IbFrameView sent;
                    IbFrameView rebuilt;
                    ok = ok && IbFrame::Peek(p, sent) && IbFrame::Peek(q, rebuilt) &&
                         SameView(sent, rebuilt);
                    if (crcs)
                    {
                        crcsValid += IbFrame::VerifyCrcs(q) ? 1 : 0;
                    }
                    if (!ok)
                    {
                        ++bad;
                        std::cout << "  mismatch: opcode 0x" << std::hex << +op << std::dec
                                  << " crcs " << crcs << " rep " << rep << std::endl;
                    }
                }
            }
        }
        IcrcTrailer::SetComputeEnabled(false);
        NS_TEST_ASSERT_MSG_EQ(cases, 304u, "19 opcodes x 8 draws x CRCs off and on");
        NS_TEST_ASSERT_MSG_EQ(bad, 0u, "every byte and field of every packet rebuilt");
        NS_TEST_ASSERT_MSG_EQ(crcsValid, 152u, "the rebuilt packets' CRCs verify");

        // What the headers do not give: tags (they cross with the serialized Packet).
        IbFrameFields f;
        f.opcode = RdmaOpcode::WRITE_MIDDLE;
        f.payloadBytes = 256;
        IbFrameHeaders h;
        Ptr<Packet> tagged = Create<Packet>(256);
        IbFrame::Encapsulate(tagged, f);
        NS_TEST_ASSERT_MSG_EQ(IbFrame::ReadHeaders(tagged, h), true, "untagged: headers");
        tagged->AddPacketTag(FlowIdTag(7));
        NS_TEST_ASSERT_MSG_EQ(IbFrame::ReadHeaders(tagged, h), false, "a packet tag: refused");
        Ptr<Packet> byteTagged = Create<Packet>(256);
        IbFrame::Encapsulate(byteTagged, f);
        byteTagged->AddByteTag(FlowIdTag(7));
        NS_TEST_ASSERT_MSG_EQ(IbFrame::ReadHeaders(byteTagged, h), false, "a byte tag: refused");
        NS_TEST_ASSERT_MSG_EQ(IbFrame::ReadHeaders(Create<Packet>(25), h),
                              false,
                              "shorter than LRH, BTH, ICRC and VCRC: refused");
    }
};

/**
 * 16-to-1 incast of 256 KB WRITEs on a leaf-spine: credits keep it lossless, every
 * message completes without retransmission, and the receiver's link is >= 95% busy
 * with goodput at line rate x 4096 / 4122 (header overhead).
 */
class IbIncastTestCase : public TestCase
{
  public:
    IbIncastTestCase()
        : TestCase("16-to-1 incast on IB: lossless, credits never negative, line rate")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
        h->SetAttribute("Leaves", UintegerValue(3));
        h->SetAttribute("Spines", UintegerValue(2));
        h->SetAttribute("HostsPerLeaf", UintegerValue(6));
        Ptr<TopologyGraph> g = h->Build();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        IbFabricHelper helper;
        Ptr<IbFabric> fabric = helper.Install(g, routes);
        uint32_t rxNode = g->GetHosts()[0];
        uint32_t leaf = g->GetPorts(rxNode)[0].peer;
        IbLinkMeter m;
        m.dev = fabric->GetDevice(leaf, PortTowards(g, leaf, rxNode));
        m.dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&IbLinkMeter::OnTx, &m));
        uint32_t done = 0;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&done](const RdmaFabric::MessageRecord&) { done++; }));
        const uint64_t bytes = 256 * 1024;
        for (uint32_t s = 1; s <= 16; ++s)
        {
            fabric->PostWrite(s, 0, bytes, s, 0);
        }
        Simulator::Run();
        RdmaFabric::Counters c = fabric->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(done, 16, "all messages complete");
        NS_TEST_ASSERT_MSG_EQ(c.losslessDrops, 0, "no credit overflow anywhere");
        NS_TEST_ASSERT_MSG_EQ(FlowControlViolations(fabric), 0, "credits never negative");
        NS_TEST_ASSERT_MSG_EQ(c.retransmittedPackets, 0, "no retransmission");
        NS_TEST_ASSERT_MSG_GT(c.creditUpdates, 0, "flow-control packets flowed");
        double span = (m.lastEnd - m.first).GetSeconds();
        double util = m.busy.GetSeconds() / span;
        double goodput = 16.0 * bytes * 8 / span;
        std::cout << "IB incast: bottleneck busy " << util << ", goodput " << goodput / 1e9
                  << " Gb/s, FC packets " << c.creditUpdates << std::endl;
        NS_TEST_ASSERT_MSG_GT(util, 0.95, "bottleneck busy >= 95%");
        NS_TEST_ASSERT_MSG_GT(goodput, 0.95 * 100e9 * 4096 / 4122, "goodput net of headers");
        Simulator::Destroy();
    }
};

/**
 * ACKs on InfiniBand: a 1 MiB WRITE (256 packets of 4096 B) from host 0 to host 1
 * through one switch draws 26 coalesced ACKs (one per 10 packets, and the message's
 * end), in the data's SL and VL by default (the responder QP's own); with AckPriority
 * 1 they travel in SL 1, hence VL 1 of the 2 data VLs, while the data stays on VL 0.
 */
class IbAckLaneTestCase : public TestCase
{
  public:
    IbAckLaneTestCase()
        : TestCase("IB ACKs: coalesced, in the SL and VL of the QP or of AckPriority")
    {
    }

  private:
    struct Lanes
    {
        uint32_t acks{0};
        uint32_t data{0};
        std::set<std::pair<uint8_t, uint8_t>> ackLanes;  // (SL, VL)
        std::set<std::pair<uint8_t, uint8_t>> dataLanes; // (SL, VL)

        void OnTx(Ptr<const Packet> p)
        {
            IbFrameView v;
            if (!IbFrame::Peek(p, v))
            {
                return; // a flow-control packet
            }
            if (v.opcode == RdmaOpcode::ACKNOWLEDGE)
            {
                acks++;
                ackLanes.insert({v.sl, v.vl});
            }
            else if (RdmaOpcode::IsData(v.opcode))
            {
                data++;
                dataLanes.insert({v.sl, v.vl});
            }
        }
    };

    Lanes Run(int32_t ackPriority)
    {
        UsePicoseconds();
        Config::SetDefault("ns3::RdmaNic::AckPriority", IntegerValue(ackPriority));
        Ptr<TopologyGraph> g = TwoHostsOneSwitch(MicroSeconds(1));
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        IbFabricHelper helper;
        Ptr<IbFabric> fabric = helper.Install(g, routes);
        Lanes lanes;
        fabric->GetDevice(0, 0)->TraceConnectWithoutContext("PhyTxBegin",
                                                            MakeCallback(&Lanes::OnTx, &lanes));
        fabric->GetDevice(1, 0)->TraceConnectWithoutContext("PhyTxBegin",
                                                            MakeCallback(&Lanes::OnTx, &lanes));
        fabric->PostWrite(0, 1, 1 << 20, 1, 0);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(fabric->GetPendingMessages(), 0, "the WRITE completes");
        Simulator::Destroy();
        Config::Reset();
        return lanes;
    }

    void DoRun() override
    {
        Lanes def = Run(-1);
        NS_TEST_ASSERT_MSG_EQ(def.data, 256, "256 data packets");
        NS_TEST_ASSERT_MSG_EQ(def.acks, 26, "one ACK per 10 packets and the last");
        NS_TEST_ASSERT_MSG_EQ(def.dataLanes.size(), 1, "data on one lane");
        NS_TEST_ASSERT_MSG_EQ((def.ackLanes == def.dataLanes), true, "ACKs in the data's SL/VL");
        Lanes sl1 = Run(1);
        NS_TEST_ASSERT_MSG_EQ(sl1.acks, 26, "as many ACKs");
        NS_TEST_ASSERT_MSG_EQ((sl1.dataLanes == def.dataLanes), true, "data lane unchanged");
        const std::set<std::pair<uint8_t, uint8_t>> one{{1, 1}};
        NS_TEST_ASSERT_MSG_EQ((sl1.ackLanes == one), true, "ACKs in SL 1, VL 1");
        NS_TEST_ASSERT_MSG_EQ((def.dataLanes.count({1, 1}) == 0), true, "data not in SL 1");
    }
};

/**
 * One 1 MiB WRITE between two HCAs on one switch (100 Gb/s, 1 us cables, 1024-byte
 * packets) against its closed form, cut-through and store-and-forward, with and without
 * the switch latency: as RoceSwitch's test (rocev2-fabric), with IB's packet bytes
 * (LRH, BTH, ICRC, VCRC; RETH on the first, ImmDt on the last; an ACK of 30 bytes):
 * store-and-forward (first + total) / R + L + 2d + 2 ack / R + L + 2d, cut-through
 * total / R + L + 2d + ack / R + L + 2d, plus the 6-byte credit update the sender's
 * port sends ahead of data for each ACK it takes in. The latency adds 2 L (within the
 * 0.5 ns a credit update can shift it), and the default is the documented Quantum-2
 * figure, non-zero.
 */
class IbSwitchLatencyClosedFormTestCase : public TestCase
{
  public:
    IbSwitchLatencyClosedFormTestCase()
        : TestCase("IB: one WRITE through one switch: closed form plus the switch latency")
    {
    }

  private:
    static Time RunOnce(bool cutThrough, Time latency)
    {
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(1024));
        helper.SetSwitchAttribute("SwitchLatency", TimeValue(latency));
        helper.SetSwitchAttribute("CutThrough", BooleanValue(cutThrough));
        return OneSwitchWriteTime(helper, 1048576);
    }

    void DoRun() override
    {
        const auto [def, defCt] = SwitchForwardingDefaults<IbSwitch>();
        NS_TEST_ASSERT_MSG_EQ(def, NanoSeconds(150), "default: Quantum-2's 150 ns");
        NS_TEST_ASSERT_MSG_EQ(defCt, true, "default: cut-through");
        const double rate = 100e9;
        const double base = IbFrame::HeaderBytes(RdmaOpcode::WRITE_MIDDLE, false);
        const double total = 1048576 + 1024 * base + IbFrame::RETH_BYTES + IbFrame::IMM_BYTES;
        const double first = 1024 + base + IbFrame::RETH_BYTES;
        const double ack = IbFrame::HeaderBytes(RdmaOpcode::ACKNOWLEDGE, true);
        const double d = 1e-6;
        for (bool cutThrough : {true, false})
        {
            for (Time latency : {Time(0), NanoSeconds(300), def})
            {
                const double l = latency.GetSeconds();
                const double closed =
                    OneSwitchWriteClosedForm(total, first, ack, rate, d, l, cutThrough);
                const Time fct = RunOnce(cutThrough, latency);
                std::cout << "IB " << (cutThrough ? "cut-through" : "store-and-forward")
                          << ", latency " << latency.As(Time::NS) << ": FCT " << fct.As(Time::NS)
                          << ", closed form " << closed * 1e9 << " ns" << std::endl;
                if (cutThrough == defCt && latency == def)
                {
                    ReportValidation("write-1MiB-ib-ns", fct.GetSeconds() * 1e9);
                    ReportValidation("write-1MiB-ib-ns.expected", closed * 1e9);
                }
                // The sender's port also sends a 6-byte flow-control packet ahead of
                // data for each ACK it takes in (its blocks freed: IbNetDevice), 1024 in
                // all: 491.5 ns on the data's link, and its neighbours' refreshes.
                NS_TEST_ASSERT_MSG_GT_OR_EQ(fct.GetSeconds(), closed, "at least the closed form");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(fct.GetSeconds(),
                                            closed + 1.05 * 1024 * 6 * 8 / rate,
                                            "the closed form and the credit updates");
                if (!latency.IsZero())
                {
                    // Outside the macro: it evaluates its argument more than once.
                    const Time noLatency = RunOnce(cutThrough, Time(0));
                    NS_TEST_ASSERT_MSG_EQ_TOL((fct - noLatency).GetSeconds(),
                                              2 * l,
                                              3e-9,
                                              "the latency adds once per crossing, each way");
                }
            }
        }
    }
};

/**
 * A per-VL buffer much smaller than the bandwidth-delay product: the sender can have
 * at most `credits` blocks unacknowledged per credit round trip, so the throughput
 * (in 64-byte blocks) is 64 x credits / RTT, RTT = 2 x 1 us + the switch latency
 * + one 6-byte flow-control packet; halving the buffer halves it.
 */
class IbCreditLimitTestCase : public TestCase
{
  public:
    IbCreditLimitTestCase()
        : TestCase("credit-limited link: throughput = 64 x credits per credit round trip")
    {
    }

  private:
    double Measure(uint32_t blocks)
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = TwoHostsOneSwitch(MicroSeconds(1));
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        IbFabricHelper helper;
        helper.SetDeviceAttribute("VlBufferBytes", UintegerValue(blocks * 64));
        helper.SetHcaAttribute("Mtu", UintegerValue(1024)); // 1050-byte packets, 17 blocks
        Ptr<IbFabric> fabric = helper.Install(g, routes);
        IbLinkMeter m;
        m.dev = fabric->GetDevice(g->GetHosts()[0], 0);
        std::vector<std::pair<Time, uint64_t>> samples;
        m.dev->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&IbLinkMeter::OnTx, &m));
        fabric->PostWrite(0, 1, 1000 * 1024, 1, 0);
        // Sample the bytes sent at 50 us and 150 us (steady state, message still going).
        uint64_t b1 = 0;
        uint64_t b2 = 0;
        ScheduleLambda(MicroSeconds(50), [&]() { b1 = m.bytes; });
        ScheduleLambda(MicroSeconds(150), [&]() { b2 = m.bytes; });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(fabric->GetPendingMessages(), 0, "message completes");
        NS_TEST_EXPECT_MSG_EQ(FlowControlViolations(fabric), 0, "no credit violation");
        Simulator::Destroy();
        // Throughput in credit blocks per second (each 1050-byte packet is 17 blocks).
        double packets = (b2 - b1) / 1050.0;
        return packets * 17 * 64 / 100e-6;
    }

    void DoRun() override
    {
        const uint32_t credits = 17 * 8;
        TimeValue latency;
        CreateObject<IbSwitch>()->GetAttribute("SwitchLatency", latency);
        double rtt = 2e-6 + latency.Get().GetSeconds() + 6 * 8 / 100e9;
        double expect = 64.0 * credits / rtt;
        double full = Measure(credits);
        double half = Measure(credits / 2);
        std::cout << "IB credit limit: " << full * 8 / 1e9 << " Gb/s of blocks (expect "
                  << expect * 8 / 1e9 << "), half buffer " << half * 8 / 1e9 << std::endl;
        ReportValidation("ib-credit-loop-gbps", full * 8 / 1e9);
        ReportValidation("ib-credit-loop-gbps.expected", expect * 8 / 1e9);
        NS_TEST_ASSERT_MSG_EQ_TOL(full / expect, 1.0, 0.05, "64 x credits / RTT");
        NS_TEST_ASSERT_MSG_EQ_TOL(half / (expect / 2), 1.0, 0.05, "half the buffer");
        NS_TEST_ASSERT_MSG_EQ_TOL(full / half, 2.0, 0.1, "halving the buffer halves it");
    }
};

/**
 * Two saturated VLs through one output port with low-table weights 64 and 192
 * (64-byte units): with 4 KB packets (65 blocks) that is one packet of VL0 per three
 * of VL1, so the link is shared 1:3.
 */
class IbVlArbitrationTestCase : public TestCase
{
  public:
    IbVlArbitrationTestCase()
        : TestCase("VL arbitration: weights 64 and 192 share the link 1:3")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        uint32_t h0 = g->AddHost();
        uint32_t h1 = g->AddHost();
        uint32_t h2 = g->AddHost();
        uint32_t s = g->AddSwitch(1);
        for (uint32_t h : {h0, h1, h2})
        {
            g->AddLink(h, s, DataRate("100Gbps"), MicroSeconds(1));
        }
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        IbFabricHelper helper;
        Ptr<IbFabric> fabric = helper.Install(g, routes);
        fabric->SetPairServiceLevel(0, 2, 0);
        fabric->SetPairServiceLevel(1, 2, 1);
        Ptr<IbNetDevice> out = fabric->GetDevice(s, PortTowards(g, s, h2));
        out->GetArbiter()->SetLowTable({{0, 64}, {1, 192}});
        fabric->PostWrite(0, 2, 4 * 1024 * 1024, 1, 0);
        fabric->PostWrite(1, 2, 4 * 1024 * 1024, 2, 0);
        uint64_t v0a = 0;
        uint64_t v1a = 0;
        uint64_t v0b = 0;
        uint64_t v1b = 0;
        ScheduleLambda(MicroSeconds(20), [&]() {
            v0a = out->GetTxBytesOnVl(0);
            v1a = out->GetTxBytesOnVl(1);
        });
        ScheduleLambda(MicroSeconds(220), [&]() {
            v0b = out->GetTxBytesOnVl(0);
            v1b = out->GetTxBytesOnVl(1);
        });
        Simulator::Run();
        double ratio = double(v1b - v1a) / double(v0b - v0a);
        double util = (v0b - v0a + v1b - v1a) * 8.0 / 200e-6 / 100e9;
        std::cout << "IB VL arbitration: VL1/VL0 = " << ratio << ", link use " << util << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 3.0, 0.06, "1:3 within 2%");
        NS_TEST_ASSERT_MSG_GT(util, 0.95, "the link stays saturated");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetPendingMessages(), 0, "both complete");
        NS_TEST_ASSERT_MSG_EQ(FlowControlViolations(fabric), 0, "no credit violation");
        Simulator::Destroy();
    }
};

/**
 * LimitOfHighPriority (IBTA vol. 1, 7.6.9): with a high-priority VL and a low-priority
 * VL both eligible, HighLimit 0 lets one high packet go, then one low packet may go,
 * and so on; 1 (4096 bytes) lets two 2 KB high packets go before a low one; 255 never
 * gives the low table a turn while the high one has an eligible VL.
 */
class IbVlArbiterHighLimitTestCase : public TestCase
{
  public:
    IbVlArbiterHighLimitTestCase()
        : TestCase("VL arbitration: HighLimit 0 alternates one high and one low packet")
    {
    }

  private:
    /// The VLs of \p n picks of \p bytes-byte packets with VL0 (low) and VL1 (high) eligible.
    static std::string Picks(uint8_t highLimit, uint32_t bytes, uint32_t n)
    {
        Ptr<VlArbiter> a = CreateObject<VlArbiter>();
        a->SetAttribute("HighLimit", UintegerValue(highLimit));
        a->SetHighTable({{1, 255}});
        a->SetLowTable({{0, 255}});
        std::string seq;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint8_t vl = a->Pick(0x3);
            a->Charge(bytes);
            seq += std::to_string(vl);
        }
        return seq;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Picks(0, 4160, 6), "101010", "0: one high packet, then a low");
        NS_TEST_ASSERT_MSG_EQ(Picks(1, 2080, 6), "110110", "1: 4096 bytes of high first");
        NS_TEST_ASSERT_MSG_EQ(Picks(255, 4160, 6), "111111", "255: unbounded");
        // The limit only gives the low table a turn: alone, the high VL keeps going.
        Ptr<VlArbiter> a = CreateObject<VlArbiter>();
        a->SetAttribute("HighLimit", UintegerValue(0));
        a->SetHighTable({{1, 255}});
        a->SetLowTable({{0, 255}});
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(+a->Pick(0x2), 1, "only VL1 eligible");
            a->Charge(4160);
        }
    }
};

/**
 * The Subnet Manager's LFTs are complete and minimal: following them from every host
 * to every host reaches the destination in exactly the graph distance, on a k=4
 * fat-tree and a 4x4 torus; a torus all-to-all over DOR with dateline VLs completes
 * without credit violations.
 */
class IbSubnetManagerTestCase : public TestCase
{
  public:
    IbSubnetManagerTestCase()
        : TestCase("Subnet Manager LFTs complete and minimal; torus all-to-all completes")
    {
    }

  private:
    void CheckMinimal(Ptr<TopologyGraph> g, const std::string& engine)
    {
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run(engine);
        const auto& hosts = g->GetHosts();
        std::vector<uint32_t> dist;
        uint32_t checked = 0;
        for (uint32_t a = 0; a < hosts.size(); ++a)
        {
            g->Distances(hosts[a], dist);
            for (uint32_t b = 0; b < hosts.size(); ++b)
            {
                if (a == b)
                {
                    continue;
                }
                uint32_t node = g->GetPorts(hosts[a])[0].peer;
                uint32_t links = 1;
                uint16_t dlid = sm->GetHostLid(b);
                while (node != hosts[b] && links <= g->GetNNodes())
                {
                    uint16_t port = sm->GetLft(node)[dlid];
                    NS_TEST_ASSERT_MSG_NE(port, 0xFFFF, "LFT entry exists");
                    node = g->GetPorts(node)[port].peer;
                    links++;
                }
                NS_TEST_ASSERT_MSG_EQ(node, hosts[b], "LFTs lead to the destination");
                NS_TEST_ASSERT_MSG_EQ(links, dist[hosts[b]], "path length = graph distance");
                checked++;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(checked, hosts.size() * (hosts.size() - 1), "all pairs");
        bool dumped = sm->DumpLfts().find("Unicast lids") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(dumped, true, "dump");
    }

    void DoRun() override
    {
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        CheckMinimal(ft->Build(), "ecmp");

        Ptr<TorusTopologyHelper> th = CreateObject<TorusTopologyHelper>();
        th->SetAttribute("Dims", StringValue("4x4"));
        th->SetAttribute("HostsPerRouter", UintegerValue(1));
        Ptr<TopologyGraph> torus = th->Build();
        CheckMinimal(torus, "dor");

        UsePicoseconds();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("dor", torus);
        NS_TEST_ASSERT_MSG_EQ(+routes->GetNumClasses(), 2, "dateline: two classes");
        IbFabricHelper helper;
        helper.SetDeviceAttribute("NumDataVls", UintegerValue(1)); // raised to 2 by the SM
        Ptr<IbFabric> fabric = helper.Install(torus, routes);
        NS_TEST_ASSERT_MSG_EQ(+fabric->GetDevice(torus->GetSwitches()[0], 0)->GetNumDataVls(),
                              2,
                              "two data VLs");
        uint32_t n = fabric->GetNHosts();
        for (uint32_t a = 0; a < n; ++a)
        {
            for (uint32_t b = 0; b < n; ++b)
            {
                if (a != b)
                {
                    fabric->PostWrite(a, b, 32 * 1024, a * n + b, 0);
                }
            }
        }
        Simulator::Run();
        uint64_t vl1 = 0;
        for (const auto& d : fabric->GetAllDevices())
        {
            vl1 += d->GetTxBytesOnVl(1);
        }
        NS_TEST_ASSERT_MSG_EQ(fabric->GetPendingMessages(), 0, "all-to-all completes");
        NS_TEST_ASSERT_MSG_EQ(FlowControlViolations(fabric), 0, "no credit violation");
        NS_TEST_ASSERT_MSG_GT(vl1, 0, "packets crossed the dateline on VL1");
        Simulator::Destroy();
    }
};

/**
 * The same ring allreduce on a k=4 fat-tree on both fabrics through
 * RdmaCollectiveTransport: both complete with every contribution accounted for; IB
 * (4 KB MTU, 26 header bytes, cut-through) is faster than RoCEv2 (1000-byte MTU, 82
 * bytes of framing, store-and-forward), and its bandwidth term is within 10% of
 * 2 (N-1) S / (N B) with B = 100 Gb/s x 4096/4122.
 */
class IbRingAllreduceTestCase : public TestCase
{
  public:
    IbRingAllreduceTestCase()
        : TestCase("ring allreduce on a k=4 fat-tree runs on IB and RoCEv2")
    {
    }

  private:
    double Run(bool ib, uint64_t bytes, bool& ok)
    {
        UsePicoseconds();
        Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
        ft->SetAttribute("K", UintegerValue(4));
        Ptr<TopologyGraph> g = ft->Build();
        Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
        Ptr<RdmaFabric> fabric;
        if (ib)
        {
            fabric = IbFabricHelper().Install(g, routes);
        }
        else
        {
            fabric = RoceFabricHelper().Install(g, routes);
        }
        uint32_t n = g->GetNHosts();
        Ptr<RdmaCollectiveTransport> transport = CreateObject<RdmaCollectiveTransport>();
        transport->Attach(fabric);
        Ptr<CollectiveApplication> app = CreateObject<CollectiveApplication>();
        app->SetAttribute("TagSpace", UintegerValue(transport->GetTagSpace()));
        app->SetTransport(transport);
        Ptr<CollectiveAlgorithm> a = CollectiveAlgorithm::Create(CollectiveOp::ALLREDUCE, "ring");
        a->SetAttribute("TrackContributions", BooleanValue(true));
        app->AddJob(Communicator::AllHosts(n), a, bytes);
        app->Start();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        std::string why;
        ok = app->IsFinished() && a->VerifyContributions(&why) &&
             fabric->GetPendingMessages() == 0 && fabric->GetCounters().losslessDrops == 0;
        double d = app->GetRecords().empty() ? 0 : app->GetRecords().back().durationNs * 1e-9;
        app->Dispose();
        transport->Dispose();
        fabric->Dispose();
        Simulator::Destroy();
        return d;
    }

    void DoRun() override
    {
        const uint64_t S = 1024 * 1024;
        bool okIb = false;
        bool okRoce = false;
        bool okTiny = false;
        double ib = Run(true, S, okIb);
        double roce = Run(false, S, okRoce);
        double alpha = Run(true, 16, okTiny) / 30; // 2(N-1) latency-only steps
        double bw = 2.0 * 15 * (S / 16.0) * 8 / (100e9 * 4096 / 4122);
        std::cout << "ring allreduce 1 MiB x 16 ranks: IB " << ib * 1e6 << " us, RoCEv2 "
                  << roce * 1e6 << " us, IB alpha " << alpha * 1e6 << " us, bandwidth term "
                  << bw * 1e6 << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(okIb, true, "IB allreduce completes and verifies");
        NS_TEST_ASSERT_MSG_EQ(okRoce, true, "RoCEv2 allreduce completes and verifies");
        NS_TEST_ASSERT_MSG_LT(ib, roce, "IB is faster (less framing, cut-through)");
        NS_TEST_ASSERT_MSG_EQ_TOL((ib - 30 * alpha) / bw, 1.0, 0.1, "ring alpha-beta on IB");
    }
};

/**
 * Subnet Manager tables on a 4x4 mesh (DOR) and a p=2 a=4 h=2 g=9 dragonfly (minimal).
 *
 * Mesh: every LFT walk reaches its host in sum |dx| router hops, dimension 0 first,
 * on one VL, and the channel dependency graph of the walks (directed switch cables,
 * an edge when a walk leaves one for the next) is acyclic; the same check on a 4x4
 * torus with its two dateline VLs folded into one finds a cycle (so the check can
 * fail). Dragonfly: every walk is loop-free and has the length the minimal engine
 * defines, min over the global cables x -> y between the groups of [x != r] + 1 +
 * [y != t] router hops (1 inside a group), so <= 3 and exactly one global cable
 * between groups. That is not always the graph's shortest path (a route through a
 * third group can be 2 hops): the count of such pairs is asserted > 0 to say so.
 */
class IbSubnetManagerMeshDragonflyTestCase : public TestCase
{
  public:
    IbSubnetManagerMeshDragonflyTestCase()
        : TestCase("Subnet Manager LFTs on a mesh (DOR, acyclic CDG, one VL) and a dragonfly "
                   "(minimal, <= 3 router hops)")
    {
    }

  private:
    /// Switch-to-switch hops of every (src router, dst host) LFT walk; and the channel
    /// dependencies (cable direction id pairs, VL folded in when useVl) it implies.
    static bool Walk(Ptr<TopologyGraph> g,
                     Ptr<SubnetManager> sm,
                     uint32_t s,
                     uint32_t dstRank,
                     std::vector<uint32_t>& hopsOut)
    {
        hopsOut.clear();
        uint32_t node = s;
        const uint32_t target = g->GetHosts()[dstRank];
        const uint16_t dlid = sm->GetHostLid(dstRank);
        while (node != target && hopsOut.size() <= g->GetNNodes())
        {
            uint16_t port = sm->GetLft(node)[dlid];
            if (port == SubnetManager::NO_PORT)
            {
                return false;
            }
            const TopologyGraph::Port& p = g->GetPorts(node)[port];
            if (!g->IsHost(p.peer))
            {
                hopsOut.push_back(node * 64 + port); // channel: (node, out port)
            }
            node = p.peer;
        }
        return node == target;
    }

    /// \return true if the dependency graph (edges between channel ids) has no cycle
    static bool Acyclic(const std::map<uint32_t, std::set<uint32_t>>& deps)
    {
        std::map<uint32_t, uint32_t> indeg;
        for (const auto& [from, tos] : deps)
        {
            indeg.emplace(from, 0);
            for (uint32_t to : tos)
            {
                indeg[to]++;
            }
        }
        std::vector<uint32_t> ready;
        for (const auto& [c, d] : indeg)
        {
            if (d == 0)
            {
                ready.push_back(c);
            }
        }
        std::size_t done = 0;
        while (!ready.empty())
        {
            uint32_t c = ready.back();
            ready.pop_back();
            done++;
            auto it = deps.find(c);
            if (it == deps.end())
            {
                continue;
            }
            for (uint32_t to : it->second)
            {
                if (--indeg[to] == 0)
                {
                    ready.push_back(to);
                }
            }
        }
        return done == indeg.size();
    }

    /// DOR walks on a torus or mesh: (minimal walks, dimension-ordered walks, deps).
    void CheckDor(Ptr<TopologyGraph> g,
                  bool foldVls,
                  uint32_t& minimal,
                  uint32_t& ordered,
                  std::map<uint32_t, std::set<uint32_t>>& deps)
    {
        Ptr<SubnetManager> sm = Create<SubnetManager>(g);
        sm->Run("dor");
        Ptr<const RouteTable> rt = sm->GetRoutes();
        const auto& dims = g->GetShape().dims;
        const bool wrap = g->GetShape().wrap;
        auto coord = [&dims](uint32_t r, uint32_t d) {
            for (uint32_t j = 0; j < d; ++j)
            {
                r /= dims[j];
            }
            return r % dims[d];
        };
        minimal = 0;
        ordered = 0;
        std::vector<uint32_t> hops;
        for (uint32_t s : g->GetSwitches())
        {
            for (uint32_t d = 0; d < g->GetNHosts(); ++d)
            {
                if (!Walk(g, sm, s, d, hops))
                {
                    continue;
                }
                const uint32_t r = g->GetGroup(s);
                const uint32_t t = g->GetGroup(g->GetPorts(g->GetHosts()[d])[0].peer);
                uint32_t want = 0;
                for (uint32_t k = 0; k < dims.size(); ++k)
                {
                    uint32_t dx = coord(r, k) > coord(t, k) ? coord(r, k) - coord(t, k)
                                                            : coord(t, k) - coord(r, k);
                    want += wrap ? std::min(dx, dims[k] - dx) : dx;
                }
                minimal += hops.size() == want ? 1 : 0;
                // dimension order and the dependencies, with the class the rule gives
                bool inOrder = true;
                uint32_t lastDim = 0;
                uint8_t cls = 0;
                uint32_t prevChannel = 0xFFFFFFFFu;
                uint32_t inPort = RouteTable::NO_PORT;
                for (uint32_t h : hops)
                {
                    const uint32_t node = h / 64;
                    const uint32_t port = h % 64;
                    const uint32_t peer = g->GetPorts(node)[port].peer;
                    uint32_t dim = 0;
                    while (dim < dims.size() &&
                           coord(g->GetGroup(node), dim) == coord(g->GetGroup(peer), dim))
                    {
                        dim++;
                    }
                    inOrder = inOrder && dim >= lastDim;
                    lastDim = dim;
                    cls = rt->NextClass(node, inPort, port, cls);
                    const uint32_t channel = h * 2 + (foldVls ? 0 : cls);
                    if (prevChannel != 0xFFFFFFFFu)
                    {
                        deps[prevChannel].insert(channel);
                    }
                    deps[channel];
                    prevChannel = channel;
                    inPort = g->GetPorts(node)[port].peerPort;
                }
                ordered += inOrder ? 1 : 0;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(+sm->GetRequiredVls(), (wrap ? 2 : 1), "VLs DOR needs");
    }

    void DoRun() override
    {
        Ptr<MeshTopologyHelper> mh = CreateObject<MeshTopologyHelper>();
        mh->SetAttribute("Dims", StringValue("4x4"));
        mh->SetAttribute("HostsPerRouter", UintegerValue(1));
        Ptr<TopologyGraph> mesh = mh->Build();
        const uint32_t walks = mesh->GetNSwitches() * mesh->GetNHosts();
        uint32_t minimal = 0;
        uint32_t ordered = 0;
        std::map<uint32_t, std::set<uint32_t>> deps;
        CheckDor(mesh, false, minimal, ordered, deps);
        NS_TEST_ASSERT_MSG_EQ(minimal, walks, "mesh: every walk complete and minimal");
        NS_TEST_ASSERT_MSG_EQ(ordered, walks, "mesh: dimension 0 first");
        NS_TEST_ASSERT_MSG_EQ(deps.size(), 48, "mesh: 2 x 24 directed router cables used");
        NS_TEST_ASSERT_MSG_EQ(Acyclic(deps), true, "mesh: channel dependency graph acyclic");

        Ptr<TorusTopologyHelper> th = CreateObject<TorusTopologyHelper>();
        th->SetAttribute("Dims", StringValue("4x4"));
        th->SetAttribute("HostsPerRouter", UintegerValue(1));
        Ptr<TopologyGraph> torus = th->Build();
        std::map<uint32_t, std::set<uint32_t>> torusVls;
        std::map<uint32_t, std::set<uint32_t>> torusFolded;
        CheckDor(torus, false, minimal, ordered, torusVls);
        NS_TEST_ASSERT_MSG_EQ(Acyclic(torusVls), true, "torus: acyclic with dateline VLs");
        CheckDor(torus, true, minimal, ordered, torusFolded);
        NS_TEST_ASSERT_MSG_EQ(Acyclic(torusFolded),
                              false,
                              "torus on one VL: a cycle (check works)");

        Ptr<DragonflyTopologyHelper> dh = CreateObject<DragonflyTopologyHelper>();
        Ptr<TopologyGraph> df = dh->Build(); // p=2 a=4 h=2 g=9: 72 hosts, 36 routers
        Ptr<SubnetManager> sm = Create<SubnetManager>(df);
        sm->Run("auto");
        NS_TEST_ASSERT_MSG_EQ(sm->GetRoutes()->GetEngineName(), "minimal", "dragonfly auto engine");
        NS_TEST_ASSERT_MSG_EQ(+sm->GetRequiredVls(),
                              2,
                              "minimal: VL0 before, VL1 after the global");
        // the engine's length r -> t, from the global cables between the groups
        const auto& sw = df->GetSwitches();
        std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> globals;
        for (uint32_t l = 0; l < df->GetNLinks(); ++l)
        {
            const TopologyGraph::Link& link = df->GetLink(l);
            if (df->IsHost(link.a) || df->IsHost(link.b) ||
                df->GetGroup(link.a) == df->GetGroup(link.b))
            {
                continue;
            }
            globals[{df->GetGroup(link.a), df->GetGroup(link.b)}].emplace_back(link.a, link.b);
            globals[{df->GetGroup(link.b), df->GetGroup(link.a)}].emplace_back(link.b, link.a);
        }
        uint32_t asDefined = 0;
        uint32_t oneGlobal = 0;
        uint32_t longestHops = 0;
        uint32_t longerThanShortest = 0;
        uint32_t dfWalks = 0;
        std::vector<uint32_t> hops;
        std::vector<uint32_t> dist;
        for (uint32_t d = 0; d < df->GetNHosts(); ++d)
        {
            const uint32_t t = df->GetPorts(df->GetHosts()[d])[0].peer;
            df->Distances(t, dist);
            for (uint32_t r : sw)
            {
                dfWalks++;
                if (!Walk(df, sm, r, d, hops))
                {
                    continue;
                }
                uint32_t want = r == t ? 0 : 1;
                if (df->GetGroup(r) != df->GetGroup(t))
                {
                    want = 3;
                    for (const auto& [x, y] : globals[{df->GetGroup(r), df->GetGroup(t)}])
                    {
                        want = std::min<uint32_t>(want, (x != r) + 1 + (y != t));
                    }
                }
                asDefined += hops.size() == want ? 1 : 0;
                uint32_t crossed = 0;
                for (uint32_t h : hops)
                {
                    const uint32_t peer = df->GetPorts(h / 64)[h % 64].peer;
                    crossed += df->GetGroup(h / 64) != df->GetGroup(peer) ? 1 : 0;
                }
                oneGlobal += crossed == (df->GetGroup(r) != df->GetGroup(t) ? 1 : 0) ? 1 : 0;
                longestHops = std::max<uint32_t>(longestHops, hops.size());
                longerThanShortest += hops.size() > dist[r] ? 1 : 0;
            }
        }
        std::cout << "dragonfly minimal: " << dfWalks << " walks, longest " << longestHops
                  << " router hops, " << longerThanShortest << " longer than graph-shortest"
                  << std::endl;
        NS_TEST_ASSERT_MSG_EQ(asDefined, dfWalks, "dragonfly: complete, loop-free, engine length");
        NS_TEST_ASSERT_MSG_EQ(oneGlobal, dfWalks, "dragonfly: one global cable between groups");
        NS_TEST_ASSERT_MSG_EQ(longestHops, 3, "dragonfly: local-global-local at most");
        NS_TEST_ASSERT_MSG_GT(longerThanShortest, 0, "minimal is not always graph-shortest");
    }
};

/**
 * The ERF record header of the default InfiniBand pcaps: its 16 bytes as Wireshark's
 * wiretap reads them (timestamp little-endian, rlen, lctr, wlen big-endian), timestamps
 * rounded to the nearest 2^-32 s (a whole picosecond second rounds up into the next
 * second) and read back by Wireshark's rounding to the very nanosecond, and one record
 * IbPcapWriter writes under a snapshot length: rlen and the pcap record's lengths.
 */
class IbErfHeaderTestCase : public TestCase
{
  public:
    IbErfHeaderTestCase()
        : TestCase("ERF InfiniBand pcap records: header bytes, 2^-32 s timestamps, snaplen")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        ErfHeader h;
        h.SetTimestamp(Seconds(1) + MilliSeconds(250)); // 1 s + 2^30 / 2^32 s
        h.SetRecordLength(16 + 1066);
        h.SetWireLength(1066);
        Packet p;
        p.AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p.GetSize(), 16u, "16 bytes");
        uint8_t b[16];
        p.CopyData(b, 16);
        const uint8_t want[16] = {0, 0, 0, 0x40, 1, 0, 0, 0, 21, 4, 0x04, 0x3A, 0, 0, 0x04, 0x2A};
        for (uint32_t i = 0; i < 16; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(+b[i], +want[i], "byte " << i);
        }
        ErfHeader back;
        p.RemoveHeader(back);
        NS_TEST_EXPECT_MSG_EQ(back.GetFixedPointTimestamp(), 0x140000000ULL, "timestamp");
        NS_TEST_EXPECT_MSG_EQ(+back.GetType(), +ErfHeader::TYPE_INFINIBAND, "type 21");
        NS_TEST_EXPECT_MSG_EQ(+back.GetFlags(), +ErfHeader::FLAG_VARYING_LENGTH, "vlen");
        NS_TEST_EXPECT_MSG_EQ(back.GetRecordLength(), 1082, "rlen");
        NS_TEST_EXPECT_MSG_EQ(back.GetLossCounter(), 0, "lctr");
        NS_TEST_EXPECT_MSG_EQ(back.GetWireLength(), 1066, "wlen");

        // Every nanosecond comes back as itself; a picosecond time is within half a
        // 2^-32 s unit (116.4 ps) of its ERF timestamp.
        for (uint64_t ns = 0; ns < 3000000000ULL; ns += 999983)
        {
            for (uint64_t extra : {0ULL, 1ULL, 499ULL, 500ULL, 999ULL})
            {
                const uint64_t ps = ns * 1000 + extra;
                const uint64_t ts = ErfHeader::ToFixedPoint(PicoSeconds(ps));
                const double err = double(ts >> 32) * 1e12 +
                                   double(ts & 0xFFFFFFFFULL) * 1e12 / 4294967296.0 - double(ps);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(err), 116.5, "ps " << ps);
                if (extra == 0)
                {
                    NS_TEST_ASSERT_MSG_EQ(ErfHeader::ToNanoSeconds(ts), ns, "ns " << ns);
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ErfHeader::ToFixedPoint(PicoSeconds(999999999999ULL)),
                              1ULL << 32,
                              "the last picosecond of a second rounds to the next");
        NS_TEST_EXPECT_MSG_EQ(ErfHeader::ToFixedPoint(NanoSeconds(1)), 4ULL, "1 ns: 4.29 units");

        // One record under a 16 + 40 byte snapshot length: rlen 56 (what the record
        // holds), wlen 100, the pcap record's included length 56 and original 116.
        const std::string name = CreateTempDirFilename("erf.pcap");
        Ptr<PcapFileWrapper> file =
            CreateObjectWithAttributes<PcapFileWrapper>("NanosecMode", BooleanValue(true));
        file->Open(name, std::ios::out);
        file->Init(ErfHeader::LINKTYPE_ERF, 16 + 40);
        Ptr<Packet> packet = Create<Packet>(100);
        IbPcapWriter::WriteErfRecord(file, packet);
        IbPcapWriter::WriteErfRecord(file, Create<Packet>(30)); // whole: rlen 46
        file->Close();
        std::ifstream in(name, std::ios::binary);
        std::vector<uint8_t> d((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        NS_TEST_ASSERT_MSG_EQ(d.size(), 24u + 16 + 56 + 16 + 46, "two records");
        auto le32 = [&d](size_t o) {
            return uint32_t(d[o]) | uint32_t(d[o + 1]) << 8 | uint32_t(d[o + 2]) << 16 |
                   uint32_t(d[o + 3]) << 24;
        };
        auto be16 = [&d](size_t o) { return uint32_t(d[o]) << 8 | d[o + 1]; };
        NS_TEST_EXPECT_MSG_EQ(le32(20), 197u, "LINKTYPE_ERF");
        NS_TEST_EXPECT_MSG_EQ(le32(24 + 8), 56u, "included: the snapshot length");
        NS_TEST_EXPECT_MSG_EQ(le32(24 + 12), 116u, "original: ERF header + packet");
        NS_TEST_EXPECT_MSG_EQ(be16(40 + 10), 56u, "rlen: the record's bytes");
        NS_TEST_EXPECT_MSG_EQ(be16(40 + 14), 100u, "wlen: the packet's bytes");
        const size_t second = 24 + 16 + 56;
        NS_TEST_EXPECT_MSG_EQ(le32(second + 8), 46u, "a short packet whole");
        NS_TEST_EXPECT_MSG_EQ(be16(second + 16 + 10), 46u, "its rlen");
        NS_TEST_EXPECT_MSG_EQ(be16(second + 16 + 14), 30u, "its wlen");
        Simulator::Destroy();
    }
};

class InfinibandTestSuite : public TestSuite
{
  public:
    InfinibandTestSuite()
        : TestSuite("ai-fabric-infiniband", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new IbFramingTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbCrcTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbFrameHeadersTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbErfHeaderTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbIncastTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbAckLaneTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbSwitchLatencyClosedFormTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbCreditLimitTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbVlArbitrationTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbVlArbiterHighLimitTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbSubnetManagerTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbRingAllreduceTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IbSubnetManagerMeshDragonflyTestCase, AI_FABRIC_QUICK);
    }
};

static InfinibandTestSuite g_infinibandTestSuite;
