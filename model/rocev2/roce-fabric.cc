/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-fabric.h"

#include "ns3/ai-fabric-deprecated.h"
#include "ns3/boolean.h"
#include "ns3/fct-attribution.h"
#include "ns3/log.h"
#include "ns3/none-congestion-control.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/rounded-time.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"
#include "ns3/wait-for-graph.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceFabric");

NS_OBJECT_ENSURE_REGISTERED(RoceFabric);

TypeId
RoceFabric::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceFabric")
            .SetParent<RdmaFabric>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceFabric>()
            .AddAttribute("FailureDetectionTime",
                          "Time from a cable failure (FailLink) until the two switches at "
                          "its ends stop choosing its ports: a BFD session's detection time, "
                          "Detect Mult x the agreed receive interval (RFC 5880, 6.8.4). "
                          "Default 3 x 10 ms, the hardware-offloaded BFD timers common on "
                          "datacenter switches running BGP (RFC 7938's routing design); until "
                          "then the switches keep sending into the cable (a blackhole)",
                          TimeValue(MilliSeconds(30)),
                          MakeTimeAccessor(&RoceFabric::m_detectionTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RouteConvergenceTime",
                          "Time from the detection at the cable's ends until every switch "
                          "routes without it: the BGP withdrawal crossing the fabric (RFC "
                          "7938: eBGP, MRAI 0) and the FIB/ECMP group update. 10 ms is a "
                          "chosen figure for a few-hop Clos, not a measured one",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RoceFabric::m_convergenceTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SymmetricEntropy",
                          "A connection's UDP source port (ECMP entropy) hashes its lower "
                          "host first, so it is the same whichever host opened the "
                          "connection, as Linux's RoCEv2 flow label is the same from both "
                          "QP numbers (rdma_calc_flow_label, include/rdma/ib_verbs.h). false "
                          "= the host that posted first is hashed first (the module's rule "
                          "until now: a connection opened by its higher host can take another "
                          "path). Default false: keeps the outputs of existing runs; true "
                          "changes the paths of connections opened by their higher host "
                          "(doc/collectives.md, QPs per connection).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceFabric::m_symmetricEntropy),
                          MakeBooleanChecker())
            .AddTraceSource("LinkStateChange",
                            "A cable failed or came back: (graph link id, up)",
                            MakeTraceSourceAccessor(&RoceFabric::m_linkStateTrace),
                            "ns3::RoceFabric::LinkStateChangeCallback")
            .AddTraceSource("RoutesConverged",
                            "Every switch routes with a cable's new state: (graph link id, "
                            "up)",
                            MakeTraceSourceAccessor(&RoceFabric::m_routesConvergedTrace),
                            "ns3::RoceFabric::RoutesConvergedCallback");
    return tid;
}

RoceFabric::RoceFabric()
    : m_priority(3),
      m_detectionTime(MilliSeconds(30)),
      m_convergenceTime(MilliSeconds(10))
{
}

RoceSwitch*
RoceFabric::SwitchAt(uint32_t node) const
{
    return node < m_switchOfNode.size() ? const_cast<RoceSwitch*>(m_switchOfNode[node]) : nullptr;
}

void
RoceFabric::FailLink(uint32_t link, Time down, Time up)
{
    const uint32_t i = RecordLinkFailure(link, down, up, m_routes->GetEngineName());
    // Each change of state: the cable itself, its ends' detection, every switch's routes.
    const Time now = Simulator::Now();
    auto change = [this, i, now](Time at, bool toUp) {
        Simulator::Schedule(at - now, &RoceFabric::SetCableState, this, i, toUp);
        Simulator::Schedule(at + m_detectionTime - now,
                            &RoceFabric::DetectCableState,
                            this,
                            i,
                            toUp);
        Simulator::Schedule(at + m_detectionTime + m_convergenceTime - now,
                            &RoceFabric::ConvergeRoutes,
                            this,
                            i,
                            toUp);
    };
    change(down, false);
    if (up >= Time(0))
    {
        change(up, true);
    }
}

Ptr<RdmaNic>
RoceFabric::GetHostNic(uint32_t host) const
{
    return m_nics.at(host);
}

void
RoceFabric::CutHostCables(uint32_t host)
{
    const uint32_t node = m_graph->GetHosts().at(host);
    NS_LOG_INFO("host node " << node << " fails at " << Simulator::Now().As(Time::US));
    for (const TopologyGraph::Port& p : m_graph->GetPorts(node))
    {
        if (RoceSwitch* sw = SwitchAt(p.peer))
        {
            sw->SetPortDown(p.peerPort, true);
        }
        m_devices[p.peer][p.peerPort]->SetLinkDown(true);
        m_linkStateTrace(p.link, false);
    }
    for (const Ptr<RoceNetDevice>& device : m_devices[node])
    {
        if (device)
        {
            device->SetLinkDown(true);
        }
    }
}

void
RoceFabric::StallReceive(uint32_t host, Time start, Time end)
{
    if (host >= GetNHosts())
    {
        throw std::invalid_argument("host " + std::to_string(host) +
                                    " does not exist (allowed 0.." +
                                    std::to_string(GetNHosts() - 1) + ")");
    }
    if (end >= Time(0) && end <= start)
    {
        throw std::invalid_argument("host " + std::to_string(host) +
                                    ": the stall must end after it starts");
    }
    if (!IsLocalHost(host))
    {
        return; // (across MPI ranks: the host's rank stalls it)
    }
    // The routing classes' priorities, which the fabric's helper made lossless.
    const auto classPriorities =
        static_cast<uint8_t>(((1U << m_routes->GetNumClasses()) - 1) << m_priority);
    const Time now = Simulator::Now();
    Ptr<RoceNic> nic = m_nics[host];
    Simulator::Schedule(start - now, &RoceNic::SetReceiveStalled, nic, classPriorities);
    if (end >= Time(0))
    {
        Simulator::Schedule(end - now, &RoceNic::SetReceiveStalled, nic, uint8_t{0});
    }
}

namespace
{
/// A port's Pfc trace, as RdmaFabric::PfcSentCallback: the frames it sent. One callback
/// per node, shared by its ports (each connection then costs no allocation of its own):
/// the port is the device's index on the node past the node's first port's.
void
NotifyPfcSent(RdmaFabric::PfcSentCallback cb,
              uint32_t node,
              uint32_t firstIfIndex,
              Ptr<const RoceNetDevice> device,
              uint8_t priority,
              uint16_t quanta,
              bool sent)
{
    if (sent)
    {
        cb(node, device->GetPortIndex() - firstIfIndex, priority, quanta > 0);
    }
}
} // namespace

void
RoceFabric::ConnectPfcSent(uint32_t node, PfcSentCallback cb)
{
    const auto& ports = m_devices.at(node);
    if (ports.empty())
    {
        return;
    }
    // (the fabric's helper adds a node's ports one after another, in port order)
    const auto sink = MakeBoundCallback(&NotifyPfcSent, cb, node, ports[0]->GetPortIndex());
    for (const auto& device : ports)
    {
        device->TraceConnectWithoutContext("Pfc", sink);
    }
}

void
RoceFabric::EnableAttribution(Ptr<FctAttribution> attribution)
{
    ForEachPort(m_devices,
                [&attribution](RoceNetDevice& d) { d.SetAttribution(PeekPointer(attribution)); });
    RdmaFabric::EnableAttribution(attribution);
}

void
RoceFabric::ConnectDrops(DropCallback cb)
{
    for (const auto& sw : m_switches)
    {
        sw->TraceConnectWithoutContext("Drop", cb);
    }
}

bool
RoceFabric::VisitSwitchQueues(const std::function<bool(uint32_t)>& nodes,
                              const QueueVisitor& visit) const
{
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const RoceSwitch& sw = *m_switches[s];
        if (!nodes(m_switchNodes[s]))
        {
            continue;
        }
        for (uint32_t port = 0; port < sw.GetNPorts(); ++port)
        {
            // Only queues holding frames (most of a fabric's are empty at any time).
            const uint8_t busy = sw.GetNonEmptyQueues(port);
            for (uint8_t q = 0; q < 8; ++q)
            {
                if (((busy >> q) & 1) == 0)
                {
                    continue;
                }
                const uint64_t bytes = sw.GetQueueBytes(port, q);
                if (bytes > 0)
                {
                    visit(m_switchNodes[s], port, q, bytes);
                }
            }
        }
    }
    return true;
}

bool
RoceFabric::IsCableUpNow(const LinkFailureRecord& r)
{
    return r.up >= Time(0) && Simulator::Now() >= r.up;
}

void
RoceFabric::SetCableState(uint32_t i, bool up)
{
    const LinkFailureRecord& r = m_linkFailures[i];
    NS_LOG_INFO("link " << r.link << (up ? " comes back" : " fails") << " at "
                        << Simulator::Now().As(Time::US));
    // Both ends at once: the switches drop what waits for the cable, the ports stop
    // honouring pauses that can no longer be lifted.
    SwitchAt(r.nodeA)->SetPortDown(r.portA, !up);
    SwitchAt(r.nodeB)->SetPortDown(r.portB, !up);
    m_devices[r.nodeA][r.portA]->SetLinkDown(!up);
    m_devices[r.nodeB][r.portB]->SetLinkDown(!up);
    m_linkStateTrace(r.link, up);
}

void
RoceFabric::DetectCableState(uint32_t i, bool up)
{
    LinkFailureRecord& r = m_linkFailures[i];
    // A BFD session that came back (or went down) again before its detection time
    // reports nothing: the later event decides.
    if (IsCableUpNow(r) != up)
    {
        return;
    }
    SwitchAt(r.nodeA)->SetPortExcluded(r.portA, !up);
    SwitchAt(r.nodeB)->SetPortExcluded(r.portB, !up);
    if (!up)
    {
        r.detected = Simulator::Now();
    }
}

void
RoceFabric::ConvergeRoutes(uint32_t i, bool up)
{
    LinkFailureRecord& r = m_linkFailures[i];
    if (IsCableUpNow(r) != up)
    {
        return;
    }
    m_graph->SetLinkUp(r.link, up);
    Ptr<const RouteTable> routes = RoutingEngine::BuildTable(m_routes->GetEngineName(), m_graph);
    m_routes = routes;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        m_switches[s]->SetRouting(routes, m_switchNodes[s]);
    }
    if (up)
    {
        r.restoreConverged = Simulator::Now();
    }
    else
    {
        r.converged = Simulator::Now();
    }
    NS_LOG_INFO("routes converged for link " << r.link << (up ? " up" : " down") << " at "
                                             << Simulator::Now().As(Time::US));
    m_routesConvergedTrace(r.link, up);
}

RoceFabric::~RoceFabric() = default;

void
RoceFabric::DoDispose()
{
    m_nics.clear();
    m_switches.clear();
    m_switchOfNode.clear();
    m_devices.clear();
    m_routes = nullptr;
    RdmaFabric::DoDispose();
}

Ptr<const RouteTable>
RoceFabric::GetRoutes() const
{
    return m_routes;
}

Ptr<RoceNic>
RoceFabric::GetNic(uint32_t host) const
{
    return m_nics.at(host);
}

void
RoceFabric::EnableIp(uint8_t trafficClass)
{
    for (const Ptr<RoceNic>& nic : m_nics)
    {
        nic->SetAttribute("IpPriority", UintegerValue(trafficClass));
    }
}

Ptr<NetDevice>
RoceFabric::GetIpDevice(uint32_t host) const
{
    return m_nics.at(host)->GetDevice();
}

RdmaFabric::IpCounters
RoceFabric::GetIpCounters() const
{
    IpCounters c;
    for (const Ptr<RoceNic>& nic : m_nics)
    {
        c.sent += nic->GetIpSent();
        c.received += nic->GetIpReceived();
        c.drops += nic->GetIpDrops();
    }
    return c;
}

const std::vector<Ptr<RoceSwitch>>&
RoceFabric::GetSwitches() const
{
    return m_switches;
}

std::vector<Ptr<RoceNetDevice>>
RoceFabric::GetAllDevices() const
{
    std::vector<Ptr<RoceNetDevice>> all;
    for (const auto& node : m_devices)
    {
        all.insert(all.end(), node.begin(), node.end());
    }
    return all;
}

void
RoceFabric::SetPriority(uint8_t priority)
{
    m_priority = priority;
}

void
RoceFabric::SetPairClass(uint32_t src, uint32_t dst, uint8_t trafficClass)
{
    if (trafficClass > 6)
    {
        throw std::invalid_argument("priority " + std::to_string(trafficClass) +
                                    " invalid (allowed 0..6; 7 carries CNPs)");
    }
    SetPairClassOf(src, dst, trafficClass);
    SetPairClassOf(dst, src, trafficClass);
}

uint32_t
RoceFabric::GetRoutedPort(uint32_t node, uint32_t dst) const
{
    // The first candidate: all candidates of the minimal engines have the same length.
    RouteTable::PortSpan c = m_routes->GetCandidates(node, dst);
    NS_ABORT_MSG_IF(c.count == 0, "no route from node " << node << " to host " << dst);
    return c.ptr[0];
}

uint32_t
RoceFabric::GetPathHops(uint32_t src, uint32_t dst) const
{
    const uint32_t hops = RdmaFabric::GetPathHops(src, dst);
    // Switches decrement the TTL without checking it (RoceSwitch): a route must leave
    // it above 0, and the ACK's 6-bit hop echo must hold it (doc/rocev2-wire-format.md).
    NS_ABORT_MSG_IF(hops >= RoceFrame::INITIAL_TTL,
                    "the route from host " << src << " to host " << dst << " crosses " << hops
                                           << " switches: the IPv4 TTL (64) allows at most 63");
    return hops;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RoceFabric::Connect(uint32_t src, uint32_t dst, uint32_t connection)
{
    // An RC connection is a pair of QPs, one per host; both directions use it.
    Ptr<RoceNic> a = m_nics[src];
    Ptr<RoceNic> b = m_nics[dst];
    // Entropy (UDP source port) from the connection, in the dynamic port range; each
    // connection index of a host pair gets its own (index 0 keeps the pair's hash). With
    // SymmetricEntropy of the pair's lower and higher host, not of which one posted
    // first: the connection's path is the same whichever side opened it, as Linux derives
    // a RoCEv2 QP's flow label (and UDP source port) from the product of both QP numbers
    // (rdma_calc_flow_label, rdma_flow_label_to_udp_sport, include/rdma/ib_verbs.h).
    // (SymmetricEntropy false: the first poster first, as before)
    const uint32_t first = m_symmetricEntropy ? std::min(src, dst) : src;
    const uint32_t second = m_symmetricEntropy ? std::max(src, dst) : dst;
    uint32_t h = (first * 0x9E3779B1U) ^ (second * 0x85EBCA77U) ^ (connection * 0xC2B2AE3DU);
    h ^= h >> 15;
    uint16_t entropy = static_cast<uint16_t>(0xC000 | (h & 0x3FFF));
    const uint8_t priority = GetPairClassOr(src, dst, m_priority); // (a job's, SetPairClass)
    Ptr<RdmaQueuePair> qa = a->CreateQueuePair(dst, priority, entropy);
    Ptr<RdmaQueuePair> qb = b->CreateQueuePair(src, priority, entropy);
    a->ConnectQueuePair(qa, qb->GetLocalQpn());
    b->ConnectQueuePair(qb, qa->GetLocalQpn());
    return {qa, qb};
}

RdmaFabric::HostPort
RoceFabric::GetHostPort(uint32_t host) const
{
    const RoceNic* nic = PeekPointer(m_nics[host]);
    HostPort port;
    port.lineRate = nic->GetDevice()->GetDataRate();
    port.mtuBytes = nic->GetMtu();
    port.wireBytes = nic->GetFullPacketWireBytes();
    port.ackWireBytes = nic->GetAckWireBytes();
    // The switches' forwarding (RoceSwitch SwitchLatency, CutThrough).
    port.switchLatency = m_switches.empty() ? Time(0) : m_switches[0]->GetSwitchLatency();
    port.cutThrough = !m_switches.empty() && m_switches[0]->IsCutThrough();
    const RoceNic::IdealFraming framing = nic->GetIdealFraming(); // (UET: its own)
    port.packetBytes = framing.base;
    port.firstBytes = framing.first;
    port.lastBytes = framing.last;
    return port;
}

RoceFabric::PortTx
RoceFabric::GetPortTx(uint32_t node, uint32_t port) const
{
    const auto& dev = GetSimulatedPort(m_devices, node, port, "GetPortTx");
    return PortTx{dev.GetTxBytes(), dev.GetTxFrames()};
}

RoceFabric::Counters
RoceFabric::GetCounters() const
{
    Counters c;
    for (const auto& sw : m_switches)
    {
        c.losslessDrops += sw->GetLosslessDrops();
        c.lossyDrops += sw->GetLossyDrops();
        c.ecnMarks += sw->GetEcnMarks();
        c.pfcWatchdogDrops += sw->GetWatchdogDrops();
        c.linkDownDrops += sw->GetLinkDownDrops();
    }
    for (const auto& nic : m_nics)
    {
        AddHostCounters(c, *nic);
        c.stalledReceiveDrops += nic->GetStalledDrops();
    }
    ForEachPort(m_devices, [&c](const RoceNetDevice& dev) {
        c.pfcPausesSent += dev.GetPfcPausesSent();
        c.pfcResumesSent += dev.GetPfcResumesSent();
        c.packetHops += dev.GetTxFrames();
        c.txBytes += dev.GetTxBytes();
    });
    SetConnectionCounters(c);
    AI_FABRIC_WARNING_PUSH_DEPRECATED
    c.pauseFramesSent = c.pfcPausesSent + c.pfcResumesSent; // (its meaning until bef3edc)
    AI_FABRIC_WARNING_POP
    return c;
}

std::vector<RdmaFabric::BufferShortfall>
RoceFabric::GetBufferShortfalls() const
{
    std::vector<BufferShortfall> out;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const Ptr<SharedBufferMmu> mmu = m_switches[s]->GetMmu();
        uint8_t lossless = SharedBufferMmu::N_PRIO;
        for (uint8_t prio = 0;
             prio < SharedBufferMmu::N_PRIO && lossless == SharedBufferMmu::N_PRIO;
             ++prio)
        {
            lossless = mmu->IsLossless(prio) ? prio : lossless;
        }
        if (lossless == SharedBufferMmu::N_PRIO)
        {
            continue; // no PFC: nothing is held back, nothing to cover
        }
        for (uint32_t port = 0; port < m_switches[s]->GetNPorts(); ++port)
        {
            const uint64_t headroom = mmu->GetHeadroomSize(port, lossless);
            const uint64_t needed = mmu->GetHeadroomNeeded(port);
            if (headroom < needed)
            {
                out.push_back({m_switchNodes[s],
                               port,
                               headroom,
                               needed,
                               "PFC headroom",
                               "bytes arriving after XOFF"});
            }
        }
    }
    return out;
}

void
RoceFabric::CollectStalledQueues(int64_t stallTicks, WaitForGraph& graph)
{
    // Vertices: switch egress queues with frames, paused by a switch partner without
    // a break for stallTicks (a pause refreshed in time keeps its start). Hosts never
    // wait for anything: only switch-to-switch cables can close a cycle.
    const int64_t now = FabricSimulator::NowTicks();
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const RoceSwitch& sw = *m_switches[s];
        const uint32_t node = m_switchNodes[s];
        const auto& ports = m_graph->GetPorts(node);
        for (uint32_t port = 0; port < sw.GetNPorts(); ++port)
        {
            const RoceNetDevice& dev = *m_devices[node][port];
            const uint8_t waiting = dev.GetPausedMask() & sw.GetNonEmptyQueues(port);
            if (waiting == 0 || m_graph->IsHost(ports[port].peer))
            {
                continue;
            }
            for (uint8_t prio = 0; prio < 8; ++prio)
            {
                const int64_t since = dev.GetPauseStart(prio).GetTimeStep();
                if (((waiting >> prio) & 1) != 0 && now - since >= stallTicks)
                {
                    graph.AddVertex({node, port, prio, since});
                }
            }
        }
    }
    // Edges: u = (S, p, prio) is paused because its partner T's ingress (p', prio) is
    // over XOFF; it waits for every stalled queue of T holding frames of that ingress.
    graph.AddPartnerEdges(
        *m_graph,
        [this](uint32_t t, uint32_t port, uint8_t prio, uint32_t in, uint8_t inPrio) {
            return m_switchOfNode[t]->HoldsFrameFrom(port, prio, in, inPrio);
        });
}

void
RoceFabric::EnablePcapPort(const std::string& prefix, uint32_t node, uint32_t port)
{
    AddPcapPort(prefix, node, port, m_devices[node][port], PCAP_LINK_TYPE);
}

bool
RoceFabric::HasLosslessLinks() const
{
    for (const auto& node : m_devices)
    {
        for (const Ptr<RoceNetDevice>& dev : node)
        {
            BooleanValue pfc;
            dev->GetAttribute("PfcEnabled", pfc);
            if (pfc.Get())
            {
                return true;
            }
        }
    }
    return false;
}

bool
RoceFabric::HasNvlinkSharp() const
{
    auto carriesPfc = [](const Ptr<RoceNetDevice>& dev) {
        BooleanValue pfc;
        dev->GetAttribute("PfcEnabled", pfc);
        return pfc.Get();
    };
    for (uint32_t node : m_graph->GetSwitches())
    {
        if (!m_graph->IsScaleUpSwitch(node))
        {
            continue;
        }
        const auto& ports = m_graph->GetPorts(node);
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            if (!carriesPfc(m_devices[node][i]) ||
                !carriesPfc(m_devices[ports[i].peer][ports[i].peerPort]))
            {
                return false;
            }
        }
    }
    return true;
}

uint32_t
RoceFabric::GetSwitchClasses() const
{
    return m_switches.empty() ? m_routes->GetNumClasses() : m_switches.front()->GetNumClasses();
}

} // namespace ns3
