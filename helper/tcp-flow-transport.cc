/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tcp-flow-transport.h"

#include "lambda-callback.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpFlowTransport");
NS_OBJECT_ENSURE_REGISTERED(TcpFlowTransport);

namespace
{
/// (IPv4 address, port) as one key.
uint64_t
EndpointKey(Ipv4Address ip, uint16_t port)
{
    return (static_cast<uint64_t>(ip.Get()) << 16) | port;
}
} // namespace

TypeId
TcpFlowTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpFlowTransport")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<TcpFlowTransport>()
            .AddAttribute("Port",
                          "TCP port every host listens on for flows",
                          UintegerValue(5001),
                          MakeUintegerAccessor(&TcpFlowTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SegmentSize",
                          "TCP maximum segment size in bytes (ns3::TcpSocket::SegmentSize); "
                          "the scenario runner sets the RDMA payload per packet (--mtu), so "
                          "both transports cut a flow into packets of the same payload",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&TcpFlowTransport::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(64, 9000))
            .AddAttribute("SendBufferBytes",
                          "TCP send buffer in bytes (ns3::TcpSocket::SndBufSize); 4 MiB: the "
                          "maximum of Linux's net.ipv4.tcp_wmem default (4096 16384 4194304, "
                          "the Linux kernel's ip-sysctl documentation), which autotuning reaches",
                          UintegerValue(4194304),
                          MakeUintegerAccessor(&TcpFlowTransport::m_sendBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceiveBufferBytes",
                          "TCP receive buffer in bytes (ns3::TcpSocket::RcvBufSize); 6 MiB: "
                          "the maximum of Linux's net.ipv4.tcp_rmem default (4096 131072 "
                          "6291456, the Linux kernel's ip-sysctl documentation)",
                          UintegerValue(6291456),
                          MakeUintegerAccessor(&TcpFlowTransport::m_receiveBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinRto",
                          "Minimum retransmission timeout (ns3::TcpSocketBase::MinRto); "
                          "200 ms: Linux's TCP_RTO_MIN",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&TcpFlowTransport::m_minRto),
                          MakeTimeChecker(Time(0)));
    return tid;
}

TcpFlowTransport::TcpFlowTransport()
    : m_port(5001),
      m_segmentSize(1000),
      m_sendBuffer(4194304),
      m_receiveBuffer(6291456),
      m_minRto(MilliSeconds(200))
{
}

TcpFlowTransport::~TcpFlowTransport() = default;

void
TcpFlowTransport::DoDispose()
{
    for (auto& f : m_flows)
    {
        f.sender = nullptr;
    }
    m_listeners.clear();
    m_fabric = nullptr;
    m_messageCallback = MakeNullCallback<void, const RdmaFabric::MessageRecord&>();
    Object::DoDispose();
}

const std::vector<std::pair<std::string, std::string>>&
TcpFlowTransport::Variants()
{
    static const std::vector<std::pair<std::string, std::string>> variants = {
        {"bic", "ns3::TcpBic"},
        {"cubic", "ns3::TcpCubic"},
        {"dctcp", "ns3::TcpDctcp"},
        {"highspeed", "ns3::TcpHighSpeed"},
        {"htcp", "ns3::TcpHtcp"},
        {"newreno", "ns3::TcpNewReno"},
        {"vegas", "ns3::TcpVegas"},
    };
    return variants;
}

void
TcpFlowTransport::Install(Ptr<RdmaFabric> fabric, TypeId socketType, bool useEcn)
{
    NS_ABORT_MSG_IF(m_fabric, "TcpFlowTransport::Install: installed already");
    m_fabric = fabric;
    m_useEcn = useEcn;
    NodeContainer hosts;
    NetDeviceContainer devices;
    const uint32_t n = fabric->GetNHosts();
    for (uint32_t h = 0; h < n; ++h)
    {
        Ptr<NetDevice> dev = fabric->GetIpDevice(h);
        NS_ABORT_MSG_IF(!dev,
                        "TcpFlowTransport::Install: host " << h << " has no IP device "
                                                           << "(RdmaFabric::EnableIp)");
        hosts.Add(dev->GetNode());
        devices.Add(dev);
    }
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false); // IPv4 only: the fabrics carry IPv4
    stack.Install(hosts);
    // Host i gets 10.0.0.1 + i: RoCEv2's address plan (RoceNic::HostAddress), which
    // its switches route; InfiniBand resolves whatever the hosts have.
    Ipv4AddressHelper addresses("10.0.0.0", "255.0.0.0", "0.0.0.1");
    m_interfaces = addresses.Assign(devices);
    fabric->ResolveIpNeighbours();
    for (uint32_t h = 0; h < n; ++h)
    {
        const Ipv4Address plan(Ipv4Address("10.0.0.1").Get() + h);
        NS_ABORT_MSG_IF(m_interfaces.GetAddress(h) != plan,
                        "host " << h << " got " << m_interfaces.GetAddress(h) << ", not " << plan);
        hosts.Get(h)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType",
                                                               TypeIdValue(socketType));
        Ptr<Socket> listener = Socket::CreateSocket(hosts.Get(h), TcpSocketFactory::GetTypeId());
        listener->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
        listener->SetAttribute("SndBufSize", UintegerValue(m_sendBuffer));
        listener->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
        listener->SetAttribute("MinRto", TimeValue(m_minRto));
        if (m_useEcn)
        {
            listener->SetAttribute("UseEcn", EnumValue(TcpSocketState::On));
        }
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&TcpFlowTransport::Accepted, this));
        m_listeners.push_back(listener);
    }
}

const Ipv4InterfaceContainer&
TcpFlowTransport::GetInterfaces() const
{
    return m_interfaces;
}

uint64_t
TcpFlowTransport::PostFlow(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag, uint8_t kind)
{
    NS_ABORT_MSG_IF(!m_fabric, "TcpFlowTransport::PostFlow before Install");
    NS_ABORT_MSG_IF(src >= m_listeners.size() || dst >= m_listeners.size() || src == dst ||
                        bytes == 0,
                    "TcpFlowTransport::PostFlow: bad flow " << src << " -> " << dst << ", " << bytes
                                                            << " bytes");
    const uint64_t id = m_flows.size();
    Flow f;
    f.record.id = id;
    f.record.src = src;
    f.record.dst = dst;
    f.record.bytes = bytes;
    f.record.tag = tag;
    f.record.kind = kind;
    f.record.start = Simulator::Now();
    m_flows.push_back(f);
    m_pending++;
    // Opened from an event: a flow posted before the simulation runs connects once the
    // nodes (their traffic control layers) are initialized.
    Simulator::ScheduleNow(&TcpFlowTransport::Open, this, id);
    return id;
}

void
TcpFlowTransport::Open(uint64_t id)
{
    Flow& f = m_flows[id];
    Ptr<Node> node = m_listeners[f.record.src]->GetNode();
    Ptr<Socket> s = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    s->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    s->SetAttribute("SndBufSize", UintegerValue(m_sendBuffer));
    s->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
    s->SetAttribute("MinRto", TimeValue(m_minRto));
    if (m_useEcn)
    {
        s->SetAttribute("UseEcn", EnumValue(TcpSocketState::On));
    }
    s->Bind();
    Address local;
    s->GetSockName(local);
    m_flowOfSender[EndpointKey(m_interfaces.GetAddress(f.record.src),
                               InetSocketAddress::ConvertFrom(local).GetPort())] = id;
    f.sender = s;
    s->SetConnectCallback(
        MakeLambdaCallback<void, Ptr<Socket>>([this, id](Ptr<Socket>) { SendMore(id); }),
        MakeNullCallback<void, Ptr<Socket>>());
    s->SetSendCallback(MakeLambdaCallback<void, Ptr<Socket>, uint32_t>(
        [this, id](Ptr<Socket>, uint32_t) { SendMore(id); }));
    s->Connect(InetSocketAddress(m_interfaces.GetAddress(f.record.dst), m_port));
}

void
TcpFlowTransport::SendMore(uint64_t flow)
{
    // As BulkSendApplication: write while the send buffer takes whole pieces.
    Flow& f = m_flows[flow];
    while (f.sender && f.sent < f.record.bytes)
    {
        const uint32_t room = f.sender->GetTxAvailable();
        if (room == 0)
        {
            return; // the send callback comes back when the buffer drains
        }
        const auto piece = static_cast<uint32_t>(std::min<uint64_t>(room, f.record.bytes - f.sent));
        const int taken = f.sender->Send(Create<Packet>(piece));
        if (taken <= 0)
        {
            return;
        }
        f.sent += static_cast<uint64_t>(taken);
    }
    if (f.sender && f.sent == f.record.bytes)
    {
        f.sender->Close(); // FIN after the data
        f.sender = nullptr;
    }
}

void
TcpFlowTransport::Accepted(Ptr<Socket> socket, const Address& from)
{
    const InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
    auto it = m_flowOfSender.find(EndpointKey(peer.GetIpv4(), peer.GetPort()));
    NS_ABORT_MSG_IF(it == m_flowOfSender.end(),
                    "TcpFlowTransport: a connection from " << peer.GetIpv4() << ":"
                                                           << peer.GetPort() << " of no flow");
    m_flowOfReceiver[PeekPointer(socket)] = it->second;
    m_flowOfSender.erase(it);
    socket->SetRecvCallback(MakeCallback(&TcpFlowTransport::Readable, this));
}

void
TcpFlowTransport::Readable(Ptr<Socket> socket)
{
    auto it = m_flowOfReceiver.find(PeekPointer(socket));
    if (it == m_flowOfReceiver.end())
    {
        return;
    }
    Flow& f = m_flows[it->second];
    while (Ptr<Packet> p = socket->Recv())
    {
        if (p->GetSize() == 0)
        {
            break;
        }
        f.received += p->GetSize();
    }
    if (!f.done && f.received >= f.record.bytes)
    {
        f.done = true;
        m_pending--;
        m_flowOfReceiver.erase(it);
        socket->Close();
        f.record.end = Simulator::Now();
        f.record.ideal = m_fabric->GetIdealFct(f.record.src, f.record.dst, f.record.bytes);
        if (!m_messageCallback.IsNull())
        {
            m_messageCallback(f.record);
        }
    }
}

void
TcpFlowTransport::SetMessageCallback(Callback<void, const RdmaFabric::MessageRecord&> cb)
{
    m_messageCallback = cb;
}

uint64_t
TcpFlowTransport::GetPendingFlows() const
{
    return m_pending;
}

uint64_t
TcpFlowTransport::GetFlowCount() const
{
    return m_flows.size();
}

} // namespace ns3
