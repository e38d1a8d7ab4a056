/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-fabric.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/fabric-simulator.h"
#include "ns3/fct-attribution.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-frame.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/ipoib-interface.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rounded-time.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"
#include "ns3/vl-arbiter.h"
#include "ns3/wait-for-graph.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbFabric");

NS_OBJECT_ENSURE_REGISTERED(IbFabric);

TypeId
IbFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbFabric")
            .SetParent<RdmaFabric>()
            .SetGroupName("AiFabric")
            .AddConstructor<IbFabric>()
            .AddAttribute("SubnetManagerReactionTime",
                          "Time from a cable failure to new LFTs in every switch: the "
                          "switch's trap 128 (port state change), the SM's heavy sweep, the "
                          "route computation and the LFT upload by SMPs. OpenSM starts that "
                          "sweep on the trap instead of waiting for its periodic sweep "
                          "(sweep_interval, 10 s by default); the sweep itself takes "
                          "milliseconds on small subnets and up to seconds on large ones. "
                          "10 ms is a chosen small-subnet figure, not a measured one",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&IbFabric::m_smReactionTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RerouteOnLinkFailure",
                          "Let the Subnet Manager re-route after a cable failure (false: the "
                          "LFTs keep pointing into the failed cable, to see what the re-route "
                          "buys)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IbFabric::m_reroute),
                          MakeBooleanChecker())
            .AddAttribute("PcapFormat",
                          "Records of the pcaps EnablePcap writes. Erf: link type "
                          "LINKTYPE_ERF (197), each record a 16-byte ERF header of type "
                          "InfiniBand (21) and the packet from its LRH, the form NVIDIA's "
                          "ibdump writes, which Wireshark and tshark (4.0 included) open as "
                          "they are. Raw: link type LINKTYPE_INFINIBAND (247), the packet "
                          "alone (tcpdump.org's link-type list; Wireshark 4.0 does not open "
                          "it). Read when EnablePcap opens the files",
                          EnumValue(IbPcapWriter::ERF),
                          MakeEnumAccessor(&IbFabric::m_pcapFormat),
                          MakeEnumChecker(IbPcapWriter::ERF, "Erf", IbPcapWriter::RAW, "Raw"))
            .AddTraceSource("LinkFailed",
                            "A cable failed: (graph link id)",
                            MakeTraceSourceAccessor(&IbFabric::m_linkFailedTrace),
                            "ns3::IbFabric::LinkFailedCallback")
            .AddTraceSource("Rerouted",
                            "The Subnet Manager reprogrammed the switches: (re-route number "
                            "from 1, LFT entries whose port changed)",
                            MakeTraceSourceAccessor(&IbFabric::m_reroutedTrace),
                            "ns3::IbFabric::ReroutedCallback");
    return tid;
}

IbFabric::IbFabric()
    : m_sl(0),
      m_cutThrough(true),
      m_smReactionTime(MilliSeconds(10)),
      m_reroute(true),
      m_pcapFormat(IbPcapWriter::ERF),
      m_reroutes(0),
      m_rerouteChanged(0)
{
}

IbFabric::~IbFabric() = default;

void
IbFabric::DoDispose()
{
    m_hcas.clear();
    m_switches.clear();
    m_devices.clear();
    m_channels.clear();
    m_sm = nullptr;
    RdmaFabric::DoDispose();
}

Ptr<const RouteTable>
IbFabric::GetRoutes() const
{
    return m_sm->GetRoutes();
}

Ptr<IbHca>
IbFabric::GetHca(uint32_t host) const
{
    return m_hcas.at(host);
}

const std::vector<Ptr<IbSwitch>>&
IbFabric::GetSwitches() const
{
    return m_switches;
}

Ptr<IbNetDevice>
IbFabric::GetDevice(uint32_t node, uint32_t port) const
{
    return m_devices.at(node).at(port);
}

std::vector<Ptr<IbNetDevice>>
IbFabric::GetAllDevices() const
{
    std::vector<Ptr<IbNetDevice>> all;
    for (const auto& node : m_devices)
    {
        all.insert(all.end(), node.begin(), node.end());
    }
    return all;
}

Ptr<const SubnetManager>
IbFabric::GetSubnetManager() const
{
    return m_sm;
}

Ptr<IbChannel>
IbFabric::GetChannel(uint32_t link) const
{
    return m_channels.at(link);
}

void
IbFabric::EnableIpoib(const ObjectFactory& factory)
{
    if (m_sm && m_sm->HasPathSls())
    {
        // One SL for every IP packet would leave the paths' virtual layers, whose SLs
        // keep the routing free of credit deadlocks.
        throw std::invalid_argument("IP over InfiniBand sends every packet on one service "
                                    "level, but routing '" +
                                    m_sm->GetRoutes()->GetEngineName() +
                                    "' assigns the SL of every path (its virtual layer); "
                                    "allowed: a routing without per-path SLs");
    }
    for (const Ptr<IbHca>& hca : m_hcas)
    {
        hca->EnableIpoib(factory.Create<IpoibInterface>());
    }
}

void
IbFabric::EnableIp(uint8_t trafficClass)
{
    ObjectFactory factory("ns3::IpoibInterface");
    factory.Set("ServiceLevel", UintegerValue(trafficClass));
    EnableIpoib(factory);
}

Ptr<NetDevice>
IbFabric::GetIpDevice(uint32_t host) const
{
    const Ptr<IbHca>& hca = m_hcas.at(host);
    return hca->GetIpoib() ? hca->GetDevice() : nullptr;
}

void
IbFabric::ResolveIpNeighbours()
{
    struct Entry
    {
        Ipv4Address ip;
        uint16_t lid;
        uint32_t qpn;
    };

    std::vector<Entry> entries;
    for (uint32_t h = 0; h < m_hcas.size(); ++h)
    {
        Ptr<IpoibInterface> ipoib = m_hcas[h]->GetIpoib();
        if (!ipoib)
        {
            continue;
        }
        Ptr<NetDevice> dev = m_hcas[h]->GetDevice();
        Ptr<Ipv4> ipv4 = dev->GetNode()->GetObject<Ipv4>();
        const int32_t iface = ipv4 ? ipv4->GetInterfaceForDevice(dev) : -1;
        if (iface < 0 || ipv4->GetNAddresses(iface) == 0)
        {
            throw std::invalid_argument("IbFabric::ResolveIpNeighbours: host " + std::to_string(h) +
                                        " has no IPv4 address on its HCA port");
        }
        for (uint32_t a = 0; a < ipv4->GetNAddresses(iface); ++a)
        {
            entries.push_back(
                {ipv4->GetAddress(iface, a).GetLocal(), m_sm->GetHostLid(h), ipoib->GetQpn()});
        }
    }
    for (const Ptr<IbHca>& hca : m_hcas)
    {
        if (Ptr<IpoibInterface> ipoib = hca->GetIpoib())
        {
            for (const Entry& e : entries)
            {
                ipoib->AddNeighbour(e.ip, e.lid, e.qpn);
            }
        }
    }
}

RdmaFabric::IpCounters
IbFabric::GetIpCounters() const
{
    IpCounters c;
    for (const Ptr<IbHca>& hca : m_hcas)
    {
        if (Ptr<IpoibInterface> ipoib = hca->GetIpoib())
        {
            c.sent += ipoib->GetIpSent();
            c.received += ipoib->GetIpReceived();
            c.drops += ipoib->GetIpDrops();
        }
    }
    return c;
}

void
IbFabric::FailLink(uint32_t link, Time at)
{
    RecordLinkFailure(link, at, Time(-1), m_sm->GetRoutes()->GetEngineName());
    Simulator::Schedule(at - Simulator::Now(), &IbFabric::DoFailLink, this, link);
}

void
IbFabric::FailLink(uint32_t link, Time down, Time up)
{
    if (up < Time(0))
    {
        FailLink(link, down);
        return;
    }
    RecordLinkFailure(link, down, up, m_sm->GetRoutes()->GetEngineName());
    Simulator::Schedule(down - Simulator::Now(), &IbFabric::DoFailLink, this, link);
    Simulator::Schedule(up - Simulator::Now(), &IbFabric::DoRestoreLink, this, link);
}

Ptr<RdmaNic>
IbFabric::GetHostNic(uint32_t host) const
{
    return m_hcas.at(host);
}

void
IbFabric::CutHostCables(uint32_t host)
{
    const uint32_t node = m_graph->GetHosts().at(host);
    NS_LOG_INFO("host node " << node << " fails at " << Simulator::Now().As(Time::US));
    for (const TopologyGraph::Port& p : m_graph->GetPorts(node))
    {
        m_channels[p.link]->Fail();
        m_linkFailedTrace(p.link);
    }
}

void
IbFabric::StallReceive(uint32_t host, Time /* start */, Time /* end */)
{
    throw std::invalid_argument("host " + std::to_string(host) +
                                ": a PFC storm does not apply to InfiniBand (its links have "
                                "no pause frames, credit-based flow control instead); "
                                "allowed on RoCEv2");
}

namespace
{
/// A port's LinkDownDrop trace, as RdmaFabric::DropCallback.
void
NotifyLinkDownDrop(const IbFabric::LinkDownSink* sink, Ptr<const Packet>)
{
    sink->cb(sink->node, sink->port, "link_down");
}
} // namespace

void
IbFabric::EnableAttribution(Ptr<FctAttribution> attribution)
{
    ForEachPort(m_devices,
                [&attribution](IbNetDevice& d) { d.SetAttribution(PeekPointer(attribution)); });
    RdmaFabric::EnableAttribution(attribution);
}

void
IbFabric::ConnectDrops(DropCallback cb)
{
    for (const auto& sw : m_switches)
    {
        sw->TraceConnectWithoutContext("Drop", cb);
    }
    // Packets lost on a failed cable are counted at the port they were heading to.
    for (uint32_t node = 0; node < m_devices.size(); ++node)
    {
        for (uint32_t port = 0; port < m_devices[node].size(); ++port)
        {
            m_linkDownSinks.push_back(LinkDownSink{cb, node, port});
            // (bound as the const pointer NotifyLinkDownDrop takes: ns-3 checks the
            // callback's type against the bound argument's, UBSan the downcast)
            const LinkDownSink* sink = &m_linkDownSinks.back();
            m_devices[node][port]->TraceConnectWithoutContext(
                "LinkDownDrop",
                MakeBoundCallback(&NotifyLinkDownDrop, sink));
        }
    }
}

void
IbFabric::DoFailLink(uint32_t link)
{
    NS_LOG_INFO("link " << link << " fails at " << Simulator::Now().As(Time::US));
    m_channels[link]->Fail();
    m_linkFailedTrace(link);
    if (m_reroute)
    {
        Simulator::Schedule(m_smReactionTime, &IbFabric::SweepAfterFailure, this);
    }
}

void
IbFabric::DoRestoreLink(uint32_t link)
{
    // The ports train and wait in the INIT state, where they pass no data: the port
    // state change traps to the SM, whose sweep sets them ACTIVE (IBTA Vol. 1, 7.2 and
    // 14.2.5), SubnetManagerReactionTime later, as after a failure.
    NS_LOG_INFO("link " << link << " trains at " << Simulator::Now().As(Time::US));
    Simulator::Schedule(m_smReactionTime, &IbFabric::ActivateLink, this, link);
}

void
IbFabric::ActivateLink(uint32_t link)
{
    NS_LOG_INFO("link " << link << " active at " << Simulator::Now().As(Time::US));
    m_channels[link]->Restore();
    if (m_reroute)
    {
        SweepAfterFailure();
    }
    for (LinkFailureRecord& r : m_linkFailures)
    {
        if (r.link == link)
        {
            r.restoreConverged = Simulator::Now();
        }
    }
}

void
IbFabric::SweepAfterFailure()
{
    // The sweep discovers which cables are down and which came back.
    for (uint32_t l = 0; l < m_channels.size(); ++l)
    {
        m_graph->SetLinkUp(l, m_channels[l]->IsUp());
    }
    uint32_t changed = m_sm->Reroute();
    NS_ABORT_MSG_IF(m_sm->GetRequiredVls() > m_devices[m_switchNodes.front()][0]->GetNumDataVls(),
                    "re-routed tables need " << +m_sm->GetRequiredVls() << " VLs");
    for (uint32_t i = 0; i < m_switches.size(); ++i)
    {
        m_switches[i]->SetLft(m_sm->GetLft(m_switchNodes[i]));
        m_switches[i]->SetRouting(m_sm->GetRoutes(), m_switchNodes[i]);
    }
    for (LinkFailureRecord& r : m_linkFailures)
    {
        if (r.converged < Time(0) && !m_channels[r.link]->IsUp())
        {
            r.detected = Simulator::Now();
            r.converged = Simulator::Now();
        }
    }
    m_reroutes++;
    m_rerouteChanged += changed;
    NS_LOG_INFO("re-route " << m_reroutes << " at " << Simulator::Now().As(Time::US) << ": "
                            << changed << " LFT entries changed");
    m_reroutedTrace(m_reroutes, changed);
}

uint64_t
IbFabric::GetRerouteChangedEntries() const
{
    return m_rerouteChanged;
}

uint32_t
IbFabric::GetReroutes() const
{
    return m_reroutes;
}

void
IbFabric::CheckServiceLevel(uint8_t sl) const
{
    if (m_sm && m_sm->HasPathSls())
    {
        throw std::invalid_argument("service level " + std::to_string(sl) + ": routing '" +
                                    m_sm->GetRoutes()->GetEngineName() +
                                    "' assigns the SL of every path (its virtual layer)");
    }
    if (sl > 15)
    {
        throw std::invalid_argument("service level " + std::to_string(sl) + " invalid (0..15)");
    }
}

void
IbFabric::SetServiceLevel(uint8_t sl)
{
    CheckServiceLevel(sl);
    m_sl = sl;
}

void
IbFabric::SetPairServiceLevel(uint32_t src, uint32_t dst, uint8_t sl)
{
    CheckServiceLevel(sl);
    SetPairClassOf(src, dst, sl);
}

void
IbFabric::SetPairClass(uint32_t src, uint32_t dst, uint8_t trafficClass)
{
    SetPairServiceLevel(src, dst, trafficClass);
    SetPairServiceLevel(dst, src, trafficClass);
}

void
IbFabric::AssignPartitions(const std::vector<uint16_t>& pKeys)
{
    m_sm->SetPartitions(pKeys);
    for (uint32_t h = 0; h < m_hcas.size(); ++h)
    {
        m_hcas[h]->SetPKeyTable(m_sm->GetPKeyTable(h));
    }
}

uint64_t
IbFabric::GetPKeyViolations() const
{
    uint64_t n = 0;
    for (const auto& hca : m_hcas)
    {
        n += hca->GetPKeyViolations();
    }
    return n;
}

void
IbFabric::ApplyQosPolicy(const IbQosPolicy& policy)
{
    ForEachPort(m_devices, [&policy](const IbNetDevice& dev) {
        if (policy.GetRequiredVls() > dev.GetNumDataVls())
        {
            throw std::invalid_argument(
                "the QoS policy names VL " + std::to_string(policy.GetRequiredVls() - 1) +
                " but the ports have " + std::to_string(dev.GetNumDataVls()) +
                " data VLs (ns3::IbNetDevice::NumDataVls)");
        }
    });
    m_sm->SetQosPolicy(policy);
    ForEachPort(m_devices, [&policy](const IbNetDevice& dev) {
        Ptr<VlArbiter> arb = dev.GetArbiter();
        arb->SetAttribute("HighLimit", UintegerValue(policy.highLimit));
        arb->SetHighTable(policy.high);
        arb->SetLowTable(policy.low);
    });
}

uint32_t
IbFabric::GetRoutedPort(uint32_t node, uint32_t dst) const
{
    // The LFTs, as the packets follow them without adaptive routing.
    const uint32_t port = m_sm->GetLft(node)[m_sm->GetHostLid(dst)];
    NS_ABORT_MSG_IF(port == SubnetManager::NO_PORT,
                    "no LFT entry at node " << node << " for host " << dst);
    return port;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
IbFabric::Connect(uint32_t src, uint32_t dst, uint32_t /* connection */)
{
    // Every connection of a host pair routes alike: the switches forward by DLID
    // (one LID per port, LMC 0), whatever the QP.
    uint8_t sl = GetPairClassOr(src, dst, m_sl); // (SetPairServiceLevel's)
    uint8_t back = sl;
    if (m_sm->HasPathSls())
    {
        // Each side's address vector holds the SL of the path record towards its peer:
        // the requester's data and the responder's ACKs each travel in their own layer.
        sl = m_sm->GetPathSl(src, dst);
        back = m_sm->GetPathSl(dst, src);
    }
    Ptr<IbHca> a = m_hcas[src];
    Ptr<IbHca> b = m_hcas[dst];
    Ptr<RdmaQueuePair> qa = a->CreateQueuePair(dst, m_sm->GetHostLid(dst), sl);
    Ptr<RdmaQueuePair> qb = b->CreateQueuePair(src, m_sm->GetHostLid(src), back);
    if (!m_sm->GetPKeyTable(src).empty())
    {
        // Each side's QP carries its own port's partition (the SM's P_Key table).
        a->SetQueuePairPKey(*qa, m_sm->GetPKey(src));
        b->SetQueuePairPKey(*qb, m_sm->GetPKey(dst));
    }
    a->ConnectQueuePair(qa, qb->GetLocalQpn());
    b->ConnectQueuePair(qb, qa->GetLocalQpn());
    return {qa, qb};
}

RdmaFabric::HostPort
IbFabric::GetHostPort(uint32_t host) const
{
    Ptr<IbHca> hca = m_hcas[host];
    HostPort port;
    port.lineRate = hca->GetDevice()->GetDataRate();
    port.mtuBytes = hca->GetMtu();
    port.wireBytes = hca->GetFullPacketBytes();
    port.ackWireBytes = hca->GetAckBytes();
    port.switchLatency = m_switchLatency;
    port.cutThrough = m_cutThrough;
    // LRH, BTH, ICRC and VCRC on every packet, RETH on the first, ImmDt on the last;
    // the payload padded to 4 bytes (IBA 9.2: the BTH's PadCnt).
    port.packetBytes = IbFrame::HeaderBytes(RdmaOpcode::WRITE_MIDDLE, false);
    port.firstBytes = IbFrame::RETH_BYTES;
    port.lastBytes = IbFrame::IMM_BYTES;
    port.padToBytes = 4;
    return port;
}

void
IbFabric::CollectStalledQueues(int64_t stallTicks, WaitForGraph& graph)
{
    const int64_t now = FabricSimulator::NowTicks();
    if (m_watchBase.empty())
    {
        m_switchOfNode.assign(m_devices.size(), -1);
        for (uint32_t s = 0; s < m_switches.size(); ++s)
        {
            m_switchOfNode[m_switchNodes[s]] = static_cast<int32_t>(s);
            m_watchBase.push_back(static_cast<uint32_t>(m_stallWatch.size()));
            m_stallWatch.resize(m_stallWatch.size() + m_switches[s]->GetNPorts() * 16);
        }
    }
    // Vertices: outputs with a packet and too few credits for it that sent nothing on
    // the VL since an earlier call at least stallTicks ago. Host cables are skipped:
    // an HCA always drains, so no cycle passes through it.
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const IbSwitch& sw = *m_switches[s];
        const uint32_t node = m_switchNodes[s];
        const auto& ports = m_graph->GetPorts(node);
        for (uint32_t port = 0; port < sw.GetNPorts(); ++port)
        {
            const IbNetDevice& dev = *m_devices[node][port];
            for (uint8_t vl = 0; vl < dev.GetNumDataVls(); ++vl)
            {
                StallWatch& w = m_stallWatch[m_watchBase[s] + port * 16 + vl];
                const uint64_t sent = dev.GetTxBytesOnVl(vl);
                if (!sw.IsCreditBlocked(port, vl) || m_graph->IsHost(ports[port].peer))
                {
                    w.sinceTicks = -1;
                    continue;
                }
                if (w.sinceTicks < 0 || sent != w.txBytes)
                {
                    w.sinceTicks = now;
                    w.txBytes = sent;
                }
                if (now - w.sinceTicks >= stallTicks)
                {
                    graph.AddVertex({node, port, vl, w.sinceTicks});
                }
            }
        }
    }
    // Edges: u = (S, p, VL) waits for the partner T's input buffer (p', VL), which
    // drains only as the stalled outputs of T holding its packets send.
    graph.AddPartnerEdges(
        *m_graph,
        [this](uint32_t t, uint32_t port, uint8_t vl, uint32_t in, uint8_t inVl) {
            return m_switches[m_switchOfNode[t]]->HoldsPacketFrom(port, vl, in, inVl);
        });
}

std::vector<RdmaFabric::BufferShortfall>
IbFabric::GetBufferShortfalls() const
{
    std::vector<BufferShortfall> out;
    for (uint32_t node = 0; node < m_devices.size(); ++node)
    {
        for (uint32_t port = 0; port < m_devices[node].size(); ++port)
        {
            const IbNetDevice& dev = *m_devices[node][port];
            const uint64_t buffer =
                static_cast<uint64_t>(dev.GetVlBufferBlocks()) * IbFrame::BLOCK_BYTES;
            const uint64_t needed = dev.GetCreditRoundTripBytes();
            if (buffer < needed)
            {
                out.push_back({node,
                               port,
                               buffer,
                               needed,
                               !dev.IsScaleUp() && buffer == IbNetDevice::MAX_VL_BUFFER_BLOCKS *
                                                                 IbFrame::BLOCK_BYTES
                                   ? "VL buffer (at the 12-bit credit counters' cap)"
                                   : "VL buffer",
                               "credit round trip"});
            }
        }
    }
    return out;
}

std::string
IbFabric::GetLaneName() const
{
    return "vl";
}

IbFabric::PortTx
IbFabric::GetPortTx(uint32_t node, uint32_t port) const
{
    const auto& dev = GetSimulatedPort(m_devices, node, port, "GetPortTx");
    return PortTx{dev.GetTxBytes(), dev.GetTxPackets()};
}

IbFabric::Counters
IbFabric::GetCounters() const
{
    Counters c;
    for (const auto& sw : m_switches)
    {
        c.lossyDrops += sw->GetUnroutable();
        c.linkDownDrops += sw->GetLinkDownDrops();
    }
    for (const auto& hca : m_hcas)
    {
        AddHostCounters(c, *hca);
    }
    ForEachPort(m_devices, [&c](const IbNetDevice& dev) {
        c.losslessDrops += dev.GetCreditOverflows();
        c.linkDownDrops += dev.GetLinkDownDrops();
        c.creditUpdates += dev.GetFlowControlPacketsSent();
        c.packetHops += dev.GetTxPackets();
        c.txBytes += dev.GetTxBytes();
    });
    SetConnectionCounters(c);
    return c;
}

uint32_t
IbFabric::GetPcapLinkType() const
{
    return IbPcapWriter::GetLinkType(m_pcapFormat);
}

void
IbFabric::EnablePcapPort(const std::string& prefix, uint32_t node, uint32_t port)
{
    IbPcapWriter::Attach(m_devices[node][port],
                         OpenPcapFile(prefix,
                                      node,
                                      port,
                                      IbPcapWriter::GetLinkType(m_pcapFormat),
                                      IbPcapWriter::GetRecordHeaderBytes(m_pcapFormat)),
                         m_pcapFormat);
}

} // namespace ns3
