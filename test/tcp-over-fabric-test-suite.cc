/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IP over the RoCEv2 fabric (doc/tcp-over-fabric.md): the bytes of an IPv4 frame the
 * NIC puts on the wire for ns-3's internet stack (Ethernet to the destination host's
 * MAC, EtherType 0x0800, DSCP of IpPriority, a valid IPv4 checksum, padding to 60
 * bytes), what a switch changes (TTL), the host-stack delays on both sides, and the
 * packets the NIC refuses.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/lambda-callback.h"
#include "ns3/packet.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
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

/// One's complement sum of the IPv4 header at \p off: 0xFFFF when its checksum holds.
uint32_t
Ipv4HeaderSum(const std::vector<uint8_t>& b, size_t off)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < 20; i += 2)
    {
        sum += (static_cast<uint32_t>(b[off + i]) << 8) | b[off + i + 1];
    }
    while (sum > 0xFFFF)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return sum;
}

/**
 * \brief A 10-byte UDP datagram from host 0 to host 1 through one switch, in class 5.
 */
class IpFramingTestCase : public TestCase
{
  public:
    IpFramingTestCase()
        : TestCase("an IPv4 packet of the stack on the wire: bytes, TTL, host-stack delays")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        Ptr<TopologyGraph> g = Create<TopologyGraph>();
        const uint32_t sw = g->AddSwitch();
        for (uint32_t i = 0; i < 3; ++i)
        {
            g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
        }
        RoceFabricHelper helper;
        helper.SetNicAttribute("IpPriority", UintegerValue(5));
        Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        NodeContainer hosts;
        NetDeviceContainer devices;
        for (uint32_t h = 0; h < 3; ++h)
        {
            hosts.Add(fabric->GetNic(h)->GetDevice()->GetNode());
            devices.Add(fabric->GetNic(h)->GetDevice());
        }
        InternetStackHelper stack;
        stack.SetIpv6StackInstall(false);
        stack.Install(hosts);
        Ipv4AddressHelper addresses("10.0.0.0", "255.0.0.0", "0.0.0.1");
        Ipv4InterfaceContainer ifs = addresses.Assign(devices);
        NS_TEST_ASSERT_MSG_EQ(ifs.GetAddress(1), Ipv4Address("10.0.0.2"), "host 1's address");

        std::vector<uint8_t> sent;
        std::vector<uint8_t> arrived;
        Time sentAt;
        Time arrivedAt;
        Time readAt;
        uint32_t readBytes = 0;
        fabric->GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeLambdaCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                sent = Bytes(p);
                sentAt = Simulator::Now();
            }));
        fabric->GetNic(1)->GetDevice()->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeLambdaCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> p) {
                arrived = Bytes(p);
                arrivedAt = Simulator::Now();
            }));
        Ptr<Socket> rx = Socket::CreateSocket(hosts.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeLambdaCallback<void, Ptr<Socket>>([&](Ptr<Socket> s) {
            while (Ptr<Packet> p = s->Recv())
            {
                readBytes += p->GetSize();
                readAt = Simulator::Now();
            }
        }));
        Ptr<Socket> tx = Socket::CreateSocket(hosts.Get(0), UdpSocketFactory::GetTypeId());
        tx->Bind();
        const Time sendAt = MicroSeconds(5);
        ScheduleLambda(sendAt, [tx]() {
            tx->SendTo(Create<Packet>(10), 0, InetSocketAddress(Ipv4Address("10.0.0.2"), 9));
            // Not a host of the fabric: refused by the NIC, never on the wire.
            tx->SendTo(Create<Packet>(10), 0, InetSocketAddress(Ipv4Address("10.0.0.200"), 9));
        });
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();

        // 14 Ethernet + 20 IPv4 + 8 UDP + 10 = 52, padded to the 60-byte minimum.
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 60, "frame padded to 60 bytes (64 with the FCS)");
        const std::vector<uint8_t> eth = {0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 0, 0x08, 0x00};
        NS_TEST_ASSERT_MSG_EQ((std::vector<uint8_t>(sent.begin(), sent.begin() + 14) == eth),
                              true,
                              "destination host 1's MAC, source host 0's, EtherType IPv4");
        NS_TEST_ASSERT_MSG_EQ(+sent[14], 0x45, "IPv4, 20-byte header");
        NS_TEST_ASSERT_MSG_EQ(+sent[15], (5 << 3) << 2, "DSCP 40 (8 x IpPriority), not-ECT");
        NS_TEST_ASSERT_MSG_EQ(((sent[16] << 8) | sent[17]), 38, "IPv4 total length 20 + 8 + 10");
        NS_TEST_ASSERT_MSG_EQ(+sent[22], 64, "TTL as sent");
        NS_TEST_ASSERT_MSG_EQ(+sent[23], 17, "protocol UDP");
        NS_TEST_ASSERT_MSG_EQ(Ipv4HeaderSum(sent, 14), 0xFFFF, "IPv4 header checksum holds");
        const std::vector<uint8_t> ips = {10, 0, 0, 1, 10, 0, 0, 2};
        NS_TEST_ASSERT_MSG_EQ((std::vector<uint8_t>(sent.begin() + 26, sent.begin() + 34) == ips),
                              true,
                              "source 10.0.0.1, destination 10.0.0.2");
        NS_TEST_ASSERT_MSG_EQ(((sent[36] << 8) | sent[37]), 9, "UDP destination port");
        NS_TEST_ASSERT_MSG_EQ(((sent[38] << 8) | sent[39]), 18, "UDP length");
        for (size_t i = 52; i < 60; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(+sent[i], 0, "padding is zeros");
        }
        // The switch routes it as an IPv4 router: TTL - 1, checksum still valid.
        NS_TEST_ASSERT_MSG_EQ(arrived.size(), 60, "the same frame arrives");
        NS_TEST_ASSERT_MSG_EQ(+arrived[22], 63, "TTL decremented by the one switch");
        NS_TEST_ASSERT_MSG_EQ(Ipv4HeaderSum(arrived, 14), 0xFFFF, "checksum after the hop");
        arrived[22] = 64;
        arrived[24] = sent[24];
        arrived[25] = sent[25];
        NS_TEST_ASSERT_MSG_EQ((arrived == sent), true, "nothing else changed");
        // The host stack: IpSendDelay before the wire, IpReceiveDelay after it.
        NS_TEST_ASSERT_MSG_EQ(sentAt - sendAt, NanoSeconds(1600), "IpSendDelay default");
        NS_TEST_ASSERT_MSG_EQ(readAt - arrivedAt, NanoSeconds(3150), "IpReceiveDelay default");
        NS_TEST_ASSERT_MSG_EQ(readBytes, 10, "the datagram without the padding");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNic(0)->GetIpSent(), 1, "one frame queued");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNic(0)->GetIpDrops(), 1, "10.0.0.200 refused");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNic(1)->GetIpReceived(), 1, "one frame handed up");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetNic(2)->GetIpReceived(), 0, "host 2 saw nothing");
        Simulator::Destroy();
    }
};

/// \brief The IP-over-fabric test suite.
class TcpOverFabricTestSuite : public TestSuite
{
  public:
    TcpOverFabricTestSuite()
        : TestSuite("ai-fabric-tcp-over-fabric", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new IpFramingTestCase, AI_FABRIC_QUICK);
    }
};

} // namespace

static TcpOverFabricTestSuite g_tcpOverFabricTestSuite; //!< registers the suite
