/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IP over InfiniBand, datagram mode (RFC 4391; doc/infiniband.md): the bytes of an
 * IPoIB packet (LRH, BTH with the UD SEND-only opcode 0x64, DETH with the Q_Key and
 * source QP, the 4-byte encapsulation header with EtherType 0x0800, the IP packet, pad,
 * ICRC, VCRC), the device MTU, and a UDP datagram from ns-3's stack across a switch:
 * its DLID, DestQP and VL on the wire, the host-stack delays, the neighbour table's
 * refusals, and nothing lost to credits.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-frame.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/icrc-trailer.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipoib-frame.h"
#include "ns3/ipoib-helper.h"
#include "ns3/ipoib-interface.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/lambda-callback.h"
#include "ns3/packet.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/subnet-manager.h"
#include "ns3/test.h"
#include "ns3/topology-graph.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

uint32_t
Be(const std::vector<uint8_t>& b, size_t off, size_t n)
{
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i)
    {
        v = (v << 8) | b[off + i];
    }
    return v;
}

/**
 * \brief IpoibFrame::Encapsulate of a 37-byte IPv4 packet, byte by byte, with the
 * CRCs computed; Decapsulate gives the IP packet back.
 */
class IpoibFramingTestCase : public TestCase
{
  public:
    IpoibFramingTestCase()
        : TestCase("IPoIB datagram bytes: LRH, BTH 0x64, DETH, encapsulation, pad, ICRC, VCRC")
    {
    }

  private:
    void DoRun() override
    {
        IcrcTrailer::SetComputeEnabled(true);
        Ptr<Packet> ip = Create<Packet>(17); // 20 + 17 = 37: the UD payload needs a pad
        Ipv4Header h;
        h.SetSource(Ipv4Address("10.0.0.1"));
        h.SetDestination(Ipv4Address("10.0.0.2"));
        h.SetProtocol(17);
        h.SetPayloadSize(17);
        h.SetTtl(64);
        h.EnableChecksum();
        ip->AddHeader(h);
        const std::vector<uint8_t> ipBytes = Bytes(ip);
        IpoibFrameFields f;
        f.vl = 1;
        f.sl = 3;
        f.dlid = 0x0102;
        f.slid = 0x0304;
        f.destQp = 0x800000;
        f.psn = 0xABCDEF;
        f.qKey = IpoibInterface::DEFAULT_QKEY;
        f.srcQp = 0x800001;
        IpoibFrame::Encapsulate(ip, f);
        const std::vector<uint8_t> b = Bytes(ip);
        // 8 LRH + 12 BTH + 8 DETH + 4 encapsulation + 37 IP + 3 pad + 4 ICRC + 2 VCRC
        NS_TEST_ASSERT_MSG_EQ(b.size(), 78, "whole packet, LRH to VCRC");
        NS_TEST_ASSERT_MSG_EQ(b.size(), IpoibFrame::PacketBytes(37), "PacketBytes agrees");
        // LRH
        NS_TEST_ASSERT_MSG_EQ(+b[0], 0x10, "VL 1, LVer 0");
        NS_TEST_ASSERT_MSG_EQ(+b[1], 0x32, "SL 3, LNH 2 (IBA local: BTH next, no GRH)");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 2, 2), 0x0102, "DLID");
        NS_TEST_ASSERT_MSG_EQ((Be(b, 4, 2) & 0x7FF), (78 - 2) / 4, "PktLen: LRH to ICRC, words");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 6, 2), 0x0304, "SLID");
        // BTH
        NS_TEST_ASSERT_MSG_EQ(+b[8], 0x64, "opcode: UD SEND only");
        NS_TEST_ASSERT_MSG_EQ(((b[9] >> 4) & 3), 3, "PadCnt 3");
        NS_TEST_ASSERT_MSG_EQ((b[9] & 0xF), 0, "TVer 0");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 10, 2), 0xFFFF, "P_Key: default partition, full member");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 13, 3), 0x800000, "DestQP: the IPoIB QP");
        NS_TEST_ASSERT_MSG_EQ((b[16] >> 7), 0, "AckReq 0 (unreliable)");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 17, 3), 0xABCDEF, "PSN");
        // DETH
        NS_TEST_ASSERT_MSG_EQ(Be(b, 20, 4), 0x00000B1B, "Q_Key of the IPoIB group");
        NS_TEST_ASSERT_MSG_EQ(+b[24], 0, "DETH reserved byte");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 25, 3), 0x800001, "SrcQP");
        // IPoIB encapsulation header (RFC 4391 section 6)
        NS_TEST_ASSERT_MSG_EQ(Be(b, 28, 2), 0x0800, "Type: IPv4");
        NS_TEST_ASSERT_MSG_EQ(Be(b, 30, 2), 0, "Reserved: zero");
        // The IP packet, then the pad
        NS_TEST_ASSERT_MSG_EQ((std::vector<uint8_t>(b.begin() + 32, b.begin() + 69) == ipBytes),
                              true,
                              "the IP packet unchanged after the encapsulation header");
        NS_TEST_ASSERT_MSG_EQ(+b[32], 0x45, "IPv4, 20-byte header at offset 32");
        for (size_t i = 69; i < 72; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(+b[i], 0, "pad bytes are zeros");
        }
        // CRCs: present, and the values the bytes give
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(ip), true, "ICRC and VCRC hold");
        NS_TEST_ASSERT_MSG_NE(Be(b, 72, 4), 0, "an ICRC is there");
        NS_TEST_ASSERT_MSG_NE(Be(b, 76, 2), 0, "a VCRC is there");
        std::vector<uint8_t> corrupt = b;
        corrupt[40] ^= 1;
        Ptr<Packet> bad = Create<Packet>(corrupt.data(), corrupt.size());
        NS_TEST_ASSERT_MSG_EQ(IbFrame::VerifyCrcs(bad), false, "a flipped IP bit breaks the ICRC");
        // What a switch sees (IbFrame::Peek): routable as any IB packet.
        IbFrameView v;
        NS_TEST_ASSERT_MSG_EQ(IbFrame::Peek(ip, v), true, "peeks as an IB packet");
        NS_TEST_ASSERT_MSG_EQ(v.dlid, 0x0102, "the switch's DLID");
        NS_TEST_ASSERT_MSG_EQ(+v.vl, 1, "the switch's VL");
        NS_TEST_ASSERT_MSG_EQ(IbFrame::Blocks(v.packetBytes), 2, "78 bytes take 2 credits");
        // Back to the IP packet
        IpoibFrameFields back;
        NS_TEST_ASSERT_MSG_EQ(IpoibFrame::Decapsulate(ip, back), true, "decapsulates");
        NS_TEST_ASSERT_MSG_EQ((Bytes(ip) == ipBytes), true, "the same IP packet, no pad");
        NS_TEST_ASSERT_MSG_EQ(back.qKey, 0x0B1B, "Q_Key read back");
        NS_TEST_ASSERT_MSG_EQ(back.srcQp, 0x800001, "SrcQP read back");
        NS_TEST_ASSERT_MSG_EQ(back.type, 0x0800, "EtherType read back");
        // An RC packet is not an IPoIB one
        Ptr<Packet> rc = Create<Packet>(b.data(), b.size());
        std::vector<uint8_t> rcBytes = b;
        rcBytes[8] = 0x04; // RC SEND only
        rc = Create<Packet>(rcBytes.data(), rcBytes.size());
        NS_TEST_ASSERT_MSG_EQ(IpoibFrame::Decapsulate(rc, back), false, "opcode 0x04 refused");
        NS_TEST_ASSERT_MSG_EQ(rc->GetSize(), 78, "and left whole");
        IcrcTrailer::SetComputeEnabled(false);
    }
};

/// Three hosts on one switch, IPoIB on every host, the stack installed, addresses
/// 10.0.0.1.. assigned and resolved.
struct IpoibFabric
{
    Ptr<IbFabric> fabric;
    NodeContainer hosts;
    NetDeviceContainer ports;

    IpoibFabric(uint32_t ibMtu, uint8_t sl)
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        const uint32_t sw = g->AddSwitch();
        for (uint32_t i = 0; i < 3; ++i)
        {
            g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(ibMtu));
        fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        IpoibHelper ipoib;
        ipoib.SetInterfaceAttribute("ServiceLevel", UintegerValue(sl));
        ports = ipoib.Install(fabric);
        for (uint32_t h = 0; h < 3; ++h)
        {
            hosts.Add(ports.Get(h)->GetNode());
        }
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(hosts);
        Ipv4AddressHelper addresses("10.0.0.0", "255.0.0.0", "0.0.0.1");
        addresses.Assign(ports);
        IpoibHelper::PopulateNeighbours(fabric);
    }
};

/**
 * \brief A 10-byte UDP datagram host 0 -> host 1 through the switch on SL 1, and one to
 * an address no host has.
 */
class IpoibDatagramTestCase : public TestCase
{
  public:
    IpoibDatagramTestCase()
        : TestCase("a UDP datagram of ns-3's stack over IPoIB: wire fields, delays, refusals")
    {
    }

  private:
    void DoRun() override
    {
        IpoibFabric net(4096, 1);
        Ptr<IbFabric> fabric = net.fabric;
        NS_TEST_ASSERT_MSG_EQ(net.ports.Get(0)->GetMtu(), 4092, "IPoIB MTU: 4096 - 4");
        NS_TEST_ASSERT_MSG_EQ(net.ports.Get(0)->GetAddress().GetLength(),
                              20,
                              "IPoIB hardware address: 20 bytes");
        Ptr<IpoibInterface> ipoib0 = fabric->GetHca(0)->GetIpoib();
        NS_TEST_ASSERT_MSG_EQ(ipoib0->GetNNeighbours(), 3, "every host's address resolved");
        NS_TEST_ASSERT_MSG_EQ(+ipoib0->GetVl(), 1, "SL 1 -> VL 1 (2 data VLs)");

        std::vector<uint8_t> sent;
        std::vector<uint8_t> arrived;
        Time sentAt;
        Time arrivedAt;
        Time readAt;
        uint32_t readBytes = 0;
        fabric->GetHca(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeLambdaCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                sent = Bytes(p);
                sentAt = Simulator::Now();
            }));
        fabric->GetHca(1)->GetDevice()->TraceConnectWithoutContext(
            "PromiscSniffer",
            MakeLambdaCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                arrived = Bytes(p);
                arrivedAt = Simulator::Now();
            }));
        Ptr<Socket> rx = Socket::CreateSocket(net.hosts.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeLambdaCallback<void, Ptr<Socket>>([&](Ptr<Socket> s) {
            while (Ptr<Packet> p = s->Recv())
            {
                readBytes += p->GetSize();
                readAt = Simulator::Now();
            }
        }));
        Ptr<Socket> tx = Socket::CreateSocket(net.hosts.Get(0), UdpSocketFactory::GetTypeId());
        tx->Bind();
        const Time sendAt = MicroSeconds(5);
        ScheduleLambda(sendAt, [tx]() {
            tx->SendTo(Create<Packet>(10), 0, InetSocketAddress(Ipv4Address("10.0.0.2"), 9));
            // No host has it: no neighbour entry, refused, never on the wire.
            tx->SendTo(Create<Packet>(10), 0, InetSocketAddress(Ipv4Address("10.0.0.200"), 9));
        });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();

        // 32 headers + 38 IP (20 + 8 + 10) + 2 pad + 6 CRCs
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 78, "IPoIB packet of a 38-byte IP packet");
        NS_TEST_ASSERT_MSG_EQ((sent[0] >> 4), 1, "leaves on VL 1");
        NS_TEST_ASSERT_MSG_EQ((sent[1] >> 4), 1, "SL 1");
        const SubnetManager& sm = *fabric->GetSubnetManager();
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 2, 2), sm.GetHostLid(1), "DLID: host 1's LID");
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 6, 2), sm.GetHostLid(0), "SLID: host 0's LID");
        NS_TEST_ASSERT_MSG_EQ(+sent[8], 0x64, "UD SEND only");
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 13, 3), 0x800000, "DestQP: host 1's IPoIB QP");
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 20, 4), 0x0B1B, "Q_Key");
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 28, 2), 0x0800, "IPv4");
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 48, 4), 0x0A000002, "IPv4 destination 10.0.0.2");
        NS_TEST_ASSERT_MSG_EQ(Be(sent, 44, 4), 0x0A000001, "IPv4 source 10.0.0.1");
        NS_TEST_ASSERT_MSG_EQ((arrived == sent), true, "arrives unchanged (same VL out)");
        NS_TEST_ASSERT_MSG_EQ(sentAt - sendAt, NanoSeconds(1600), "IpSendDelay default");
        // The head arrives; the tail 78 bytes at 100 Gb/s later, then IpReceiveDelay.
        const Time tail = net.fabric->GetHca(1)->GetDevice()->GetTransmitTime(78);
        NS_TEST_ASSERT_MSG_EQ(readAt - arrivedAt, tail + NanoSeconds(3150), "IpReceiveDelay");
        NS_TEST_ASSERT_MSG_EQ(readBytes, 10, "the datagram");
        NS_TEST_ASSERT_MSG_EQ(ipoib0->GetIpSent(), 1, "one packet framed");
        NS_TEST_ASSERT_MSG_EQ(ipoib0->GetIpDrops(), 1, "10.0.0.200 refused");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetHca(1)->GetIpoib()->GetIpReceived(), 1, "handed up");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetHca(2)->GetIpoib()->GetIpReceived(), 0, "host 2: none");
        const RdmaFabric::Counters c = fabric->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(c.losslessDrops, 0, "no credit overflow");
        NS_TEST_ASSERT_MSG_EQ(c.packetHops, 2, "host 0 -> switch -> host 1");
        Simulator::Destroy();
    }
};

/**
 * \brief IPoIB packets and RDMA WRITEs share VL 0 of host 0's port: the IP packets
 * take turns with data, both arrive, credits lose nothing; and 2044 with a 2048 MTU.
 */
class IpoibSharesTheVlTestCase : public TestCase
{
  public:
    IpoibSharesTheVlTestCase()
        : TestCase("IPoIB and RDMA on one VL: both delivered, no credit loss; MTU 2044")
    {
    }

  private:
    void DoRun() override
    {
        IpoibFabric net(2048, 0);
        Ptr<IbFabric> fabric = net.fabric;
        NS_TEST_ASSERT_MSG_EQ(net.ports.Get(0)->GetMtu(), 2044, "IPoIB MTU: 2048 - 4");
        uint32_t readBytes = 0;
        Ptr<Socket> rx = Socket::CreateSocket(net.hosts.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeLambdaCallback<void, Ptr<Socket>>([&](Ptr<Socket> s) {
            while (Ptr<Packet> p = s->Recv())
            {
                readBytes += p->GetSize();
            }
        }));
        Ptr<Socket> tx = Socket::CreateSocket(net.hosts.Get(0), UdpSocketFactory::GetTypeId());
        tx->Bind();
        uint32_t ipOnWire = 0;
        uint32_t rcOnWire = 0;
        fabric->GetHca(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeLambdaCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                uint8_t b[9];
                p->CopyData(b, 9);
                (b[8] == IpoibFrame::OPCODE_UD_SEND_ONLY ? ipOnWire : rcOnWire)++;
            }));
        uint64_t written = 0;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&](const RdmaFabric::MessageRecord& r) { written += r.bytes; }));
        ScheduleLambda(MicroSeconds(1), [&]() {
            fabric->PostWrite(0, 1, 200000, 0, 0);
            for (int i = 0; i < 50; ++i)
            {
                // 2016 + 28 = 2044: a full IPoIB datagram each, not fragmented
                tx->SendTo(Create<Packet>(2016), 0, InetSocketAddress(Ipv4Address("10.0.0.2"), 9));
            }
        });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(readBytes, 50 * 2016, "every datagram delivered");
        NS_TEST_ASSERT_MSG_EQ(ipOnWire, 50, "50 IPoIB packets, no IP fragments");
        NS_TEST_ASSERT_MSG_EQ(written, 200000, "the WRITE completed");
        NS_TEST_ASSERT_MSG_EQ(rcOnWire, 98, "its 98 data packets (2048 B) went too");
        const RdmaFabric::Counters c = fabric->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(c.losslessDrops, 0, "credits lost nothing");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetIpCounters().drops, 0, "no IP drop");
        Simulator::Destroy();
    }
};

/// \brief The IP-over-InfiniBand test suite.
class IpoibTestSuite : public TestSuite
{
  public:
    IpoibTestSuite()
        : TestSuite("ai-fabric-ipoib", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new IpoibFramingTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IpoibDatagramTestCase, AI_FABRIC_QUICK);
        AddTestCase(new IpoibSharesTheVlTestCase, AI_FABRIC_QUICK);
    }
};

} // namespace

static IpoibTestSuite g_ipoibTestSuite; //!< registers the suite
