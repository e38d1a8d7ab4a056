/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-switch.h"

#include "dragonfly-route-tag.h"
#include "ecn-marker.h"
#include "ets-weights.h"
#include "roce-channel.h"
#include "roce-net-device.h"
#include "roce-nic.h"
#include "shared-buffer-mmu.h"

#include "ns3/boolean.h"
#include "ns3/dragonfly-routing.h"
#include "ns3/ecmp-egress-policy.h"
#include "ns3/enum.h"
#include "ns3/fabric-simulator.h"
#include "ns3/forwarding-timing.h"
#include "ns3/int-header.h"
#include "ns3/integer.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/roce-frame.h"
#include "ns3/route-table.h"
#include "ns3/simulator.h"
#include "ns3/topology-graph.h"
#include "ns3/trace-sinks.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uet-trimmer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceSwitch");

NS_OBJECT_ENSURE_REGISTERED(RoceSwitch);

TypeId
RoceSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceSwitch")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceSwitch>()
            .AddAttribute("Mmu",
                          "The shared-buffer memory management unit",
                          PointerValue(),
                          MakePointerAccessor(&RoceSwitch::m_mmu),
                          MakePointerChecker<SharedBufferMmu>())
            .AddAttribute("Trimmer",
                          "Packet trimming at egress (UetTrimmer: --fabric=uet); null, the "
                          "default: none, and the frame path tests nothing more",
                          PointerValue(),
                          MakePointerAccessor(&RoceSwitch::SetTrimmer, &RoceSwitch::GetTrimmer),
                          MakePointerChecker<UetTrimmer>())
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable frames CE at egress dequeue (DCQCN's congestion "
                          "point)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("IntEnabled",
                          "In-band network telemetry: append this hop's record (link rate, "
                          "egress timestamp, transmitted bytes, egress queue length; "
                          "IntHeader) to the INT block of every RoCEv2 data frame that "
                          "carries one, when it leaves (Li et al., HPCC, SIGCOMM 2019, sec. "
                          "3.2). The fabric helpers turn it on when the congestion control "
                          "reads INT. Default false: no per-frame work.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_intEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Dwrr",
                          "Serve priorities 0-6 by deficit weighted round robin with the "
                          "EtsWeights (equal by default) instead of strict priority; "
                          "priority 7 (control) stays strict",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_dwrr),
                          MakeBooleanChecker())
            .AddAttribute("IdlePortShortcut",
                          "Send a frame that meets an idle egress port with empty queues "
                          "without the trip through the queue (the same steps in the same "
                          "order, so the same results: false is for checking that). With "
                          "SwitchLatency or CutThrough it also hands over a frame that is "
                          "ready no earlier than the end of the port's current frame (the "
                          "port would start it then with nothing in between), which frees "
                          "its buffer up to SwitchLatency earlier than a pull at that end",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_idlePortShortcut),
                          MakeBooleanChecker())
            .AddAttribute("DwrrQuantum",
                          "Bytes a DWRR queue may send per round",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&RoceSwitch::m_dwrrQuantum),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("EtsWeights",
                          "ETS bandwidth weights per priority with Dwrr (IEEE 802.1Q clause "
                          "37, 802.1Qaz): each DWRR round gives priority p DwrrQuantum x its "
                          "weight; \"PRIO:WEIGHT,...\", unnamed priorities 1, \"\" (default) "
                          "= equal weights",
                          EtsWeightsValue(EtsWeights()),
                          MakeEtsWeightsAccessor(&RoceSwitch::m_etsWeights),
                          MakeEtsWeightsChecker())
            .AddAttribute("HashSeed",
                          "ECMP hash seed; 0 derives a distinct seed from the node id (so "
                          "switches decorrelate: no hash polarization) and from ns-3's "
                          "RngSeed and RngRun (so runs sample ECMP's flow collisions, as "
                          "jobs do on a real fabric; seed 1, run 1: the node id's alone)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceSwitch::m_hashSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("UseClassRule",
                          "Apply the route table's class rule (torus dateline, dragonfly "
                          "global-hop classes) by moving frames to priority "
                          "ClassBasePriority + class; false keeps every frame on its "
                          "arrival priority (one class: cyclic buffer dependencies possible)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_useClassRule),
                          MakeBooleanChecker())
            .AddAttribute("ClassBasePriority",
                          "Priority of class 0 (the RDMA data priority; class c uses base + "
                          "c, which must stay below the control priority 7). Default 3, "
                          "RoCEv2's common lossless class",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RoceSwitch::m_classBase),
                          MakeUintegerChecker<uint8_t>(0, 6))
            .AddAttribute("RoutingMode",
                          "Per-packet DragonFly path choice: minimal (table only), valiant "
                          "(random intermediate group), ugal (minimal unless its first-hop "
                          "queue exceeds 2x the Valiant one + UgalOffsetBytes), auto (the "
                          "route table's path mode: its engine's, RoutingEngine::GetPathMode)",
                          EnumValue(RoceSwitch::AUTO),
                          MakeEnumAccessor(&RoceSwitch::m_routingMode),
                          MakeEnumChecker(RoceSwitch::MINIMAL,
                                          "minimal",
                                          RoceSwitch::VALIANT,
                                          "valiant",
                                          RoceSwitch::UGAL,
                                          "ugal",
                                          RoceSwitch::AUTO,
                                          "auto"))
            .AddAttribute("SwitchLatency",
                          "Port-to-port forwarding latency (time from the header's arrival, "
                          "cut-through, or the tail's, store-and-forward, to the earliest "
                          "start on the output port). Default 300 ns: the port-to-port "
                          "latency of NVIDIA's Spectrum-2 Ethernet switch ASIC with its "
                          "cut-through between ports (Linley Group, 'Spectrum-2 Debuts "
                          "200GbE', 31 July 2017); NVIDIA publishes no port-to-port figure "
                          "for Spectrum-4 (SN5600), Broadcom none for Tomahawk 5. "
                          "doc/switch-latency.md compares it with InfiniBand's",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&RoceSwitch::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CutThrough",
                          "Start a frame on its output once its header is in and "
                          "SwitchLatency has passed, never ending before its tail is in "
                          "(true: Spectrum's cut-through) or store the whole frame first, "
                          "then SwitchLatency (false)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_cutThrough),
                          MakeBooleanChecker())
            .AddAttribute("UgalOffsetBytes",
                          "UGAL bias towards the minimal path (bytes): minimal when q_min <= "
                          "2 q_nonmin + offset. Default 0: the plain UGAL-L rule of Kim et "
                          "al. 2008 (queue x hop-count comparison, 2 = path length ratio)",
                          IntegerValue(0),
                          MakeIntegerAccessor(&RoceSwitch::m_ugalOffset),
                          MakeIntegerChecker<int64_t>())
            .AddTraceSource("Drop",
                            "A frame was dropped: (node, port, reason)",
                            MakeTraceSourceAccessor(&RoceSwitch::m_dropTrace),
                            "ns3::RoceSwitch::DropTracedCallback")
            .AddTraceSource("Enqueue",
                            "A frame joined an egress queue: (node, egress port, priority, "
                            "frame). A frame meeting an idle port with empty queues passes "
                            "through at once: Enqueue then Dequeue, its queue stays empty",
                            MakeTraceSourceAccessor(&RoceSwitch::m_enqueueTrace),
                            "ns3::RoceSwitch::QueueFrameTracedCallback")
            .AddTraceSource("Dequeue",
                            "A frame left an egress queue for the wire: (node, egress port, "
                            "priority, frame, before ECN marking)",
                            MakeTraceSourceAccessor(&RoceSwitch::m_dequeueTrace),
                            "ns3::RoceSwitch::QueueFrameTracedCallback")
            .AddTraceSource("Mark",
                            "A frame leaving an egress queue got ECN Congestion Experienced "
                            "(RFC 3168): (node, egress port, priority, the marked frame)",
                            MakeTraceSourceAccessor(&RoceSwitch::m_markTrace),
                            "ns3::RoceSwitch::QueueFrameTracedCallback")
            .AddTraceSource("QueueLength",
                            "An egress queue's length changed: (node, egress port, priority, "
                            "bytes now queued, Ethernet frames without FCS), as "
                            "GetQueueBytes returns it",
                            MakeTraceSourceAccessor(&RoceSwitch::m_queueLengthTrace),
                            "ns3::RoceSwitch::QueueLengthTracedCallback");
    return tid;
}

RoceSwitch::RoceSwitch()
    : m_graphNode(0),
      m_hashSeed(0),
      m_idlePortShortcut(true),
      m_dwrr(false),
      m_ecnEnabled(true),
      m_numClasses(1),
      m_classBase(3),
      m_routingMode(AUTO),
      m_forwarded(0),
      m_reclassified(0),
      m_latency(NanoSeconds(300)),
      m_dwrrQuantum(1500),
      m_useClassRule(true),
      m_ugalOffset(0),
      m_group(0),
      m_losslessDrops(0),
      m_lossyDrops(0),
      m_ecnMarks(0),
      m_nonMinimal(0)
{
    m_uniform = CreateObject<UniformRandomVariable>();
    m_enqueueTrace.SetFlag(&m_queueTraced);
    m_dequeueTrace.SetFlag(&m_queueTraced);
    m_markTrace.SetFlag(&m_queueTraced);
    m_queueLengthTrace.SetFlag(&m_queueTraced);
}

RoceSwitch::~RoceSwitch() = default;

void
RoceSwitch::DoDispose()
{
    m_ports.clear();
    for (EgressPort& e : m_egress)
    {
        for (EgressQueue& q : e.queue)
        {
            m_framePool.Clear(q.frames);
        }
    }
    m_egress.clear();
    m_nonEmpty.clear();
    m_dwrrTurn.clear();
    m_ecn.clear();
    m_routes = nullptr;
    m_graph = nullptr;
    m_dragonfly = nullptr;
    m_policy = nullptr;
    m_mmu = nullptr;
    Object::DoDispose();
}

void
RoceSwitch::AddPort(Ptr<RoceNetDevice> device)
{
    device->SetIfIndex(static_cast<uint32_t>(m_ports.size()));
    device->SetOwner(this);
    // The switch takes every frame of its ports (DeliverUp is a NIC's): the receive
    // callback Node::AddDevice gave the port is never called, and its objects would
    // stay (~200 bytes a port, 8 MB at k=32).
    device->SetReceiveCallback(NetDevice::ReceiveCallback());
    m_ports.push_back(device);
    m_egress.emplace_back();
    m_nonEmpty.push_back(0);
    m_dwrrTurn.push_back(DwrrTurn{});
}

void
RoceSwitch::SetRouting(Ptr<const RouteTable> table, uint32_t graphNode)
{
    m_routes = table;
    m_graphNode = graphNode;
    m_graph = table->GetGraph();
    if (m_hashSeed == 0)
    {
        // Distinct per switch, and per ns-3 seed and run: real switches' hash seeds and
        // the QP numbers a NIC's UDP source ports derive from differ from one job to the
        // next, so runs sample ECMP's collisions; seed 1, run 1 gives the node's own.
        const uint64_t draw = (RngSeedManager::GetSeed() - 1) * 0x85EBCA77ULL ^
                              (RngSeedManager::GetRun() - 1) * 0x9E3779B1ULL;
        m_hashSeed = (graphNode + 1) * 2654435761U ^ static_cast<uint32_t>(draw ^ (draw >> 32));
    }
    m_numClasses = m_useClassRule ? table->GetNumClasses() : 1;
    if (m_numClasses > 1 && m_classBase + m_numClasses - 1 > 6)
    {
        throw std::invalid_argument(
            "RoceSwitch: ClassBasePriority " + std::to_string(m_classBase) + " with " +
            std::to_string(m_numClasses) + " classes reaches priority " +
            std::to_string(m_classBase + m_numClasses - 1) +
            "; classes must stay within priorities 0-6 (7 is control): allowed base <= " +
            std::to_string(7 - m_numClasses));
    }
    if (m_routingMode == AUTO)
    {
        // The engine's path mode, read once: the per-packet path reads m_routingMode.
        switch (table->GetPathMode())
        {
        case RouteTable::PathMode::VALIANT:
            m_routingMode = VALIANT;
            break;
        case RouteTable::PathMode::UGAL:
            m_routingMode = UGAL;
            break;
        case RouteTable::PathMode::MINIMAL:
            m_routingMode = MINIMAL;
            break;
        }
    }
    // Valiant and UGAL are the DragonFly engine's non-minimal modes: it says which
    // graphs it can route.
    if (m_routingMode != MINIMAL && !DragonflyRouting(NonMinimalPathMode()).Fits(*m_graph))
    {
        throw std::invalid_argument("RoceSwitch: RoutingMode " + NonMinimalModeName() +
                                    " needs a graph the dragonfly routing engine fits, not '" +
                                    m_graph->GetShape().type + "' (allowed there: minimal)");
    }
    m_group = m_graph->GetGroup(graphNode);
    const auto& ports = m_graph->GetPorts(graphNode);
    m_hostPort.assign(ports.size(), 0);
    for (size_t i = 0; i < ports.size(); ++i)
    {
        m_hostPort[i] = m_graph->IsHost(ports[i].peer) ? 1 : 0;
    }
}

void
RoceSwitch::SetDragonflyRouting(Ptr<const DragonflyRouting> engine)
{
    m_dragonfly = engine;
}

RoceSwitch::RoutingMode
RoceSwitch::GetRoutingMode() const
{
    return m_routingMode;
}

uint8_t
RoceSwitch::GetNumClasses() const
{
    return m_numClasses;
}

RouteTable::PathMode
RoceSwitch::NonMinimalPathMode() const
{
    return m_routingMode == VALIANT ? RouteTable::PathMode::VALIANT : RouteTable::PathMode::UGAL;
}

std::string
RoceSwitch::NonMinimalModeName() const
{
    return DragonflyRouting(NonMinimalPathMode()).GetName();
}

void
RoceSwitch::EnsureDragonflyRouting()
{
    if (m_dragonfly)
    {
        return;
    }
    Ptr<DragonflyRouting> engine = Create<DragonflyRouting>(NonMinimalPathMode());
    engine->Compute(m_graph);
    m_dragonfly = engine;
}

void
RoceSwitch::SetEgressPolicy(Ptr<EgressPortPolicy> policy)
{
    m_policy = policy;
}

void
RoceSwitch::Setup(uint32_t mtuFrameBytes)
{
    // In time steps once the resolution is fixed; a switch forwarding store-and-forward
    // in zero time leaves the frame path as it was.
    m_latencyTicks = m_latency.GetTimeStep();
    m_timedForwarding = m_cutThrough || m_latencyTicks != 0;
    if (!m_mmu)
    {
        m_mmu = CreateObject<SharedBufferMmu>();
    }
    if (!m_policy)
    {
        m_policy = CreateObject<EcmpEgressPolicy>();
    }
    std::vector<DataRate> rates;
    std::vector<Time> delays;
    for (const auto& dev : m_ports)
    {
        rates.push_back(dev->GetDataRate());
        delays.push_back(dev->GetRoceChannel()->GetDelay());
        Ptr<EcnMarker> marker = CreateObject<EcnMarker>();
        marker->SetLinkRate(dev->GetDataRate());
        m_ecn.push_back(marker);
    }
    m_mmu->Configure(static_cast<uint32_t>(m_ports.size()), rates, delays, mtuFrameBytes);
    SetTrimmer(m_trimmer); // (its per-port counters, now that the ports are known)
    if (m_intEnabled)
    {
        for (const auto& dev : m_ports)
        {
            const uint64_t bps = dev->GetDataRate().GetBitRate();
            if (IntHop::RateCode(bps) == IntHop::RATE_CODE_UNKNOWN)
            {
                throw std::invalid_argument(
                    "INT (IntEnabled): link rate " + std::to_string(bps) +
                    " bit/s has no INT rate code (allowed: " + IntHop::AllowedRates() + ")");
            }
        }
        m_intTxBytes.assign(m_ports.size(), 0);
    }
}

void
RoceSwitch::PushInt(uint32_t outPort, RoceParsedFrame& frame)
{
    // The port's transmitted-bytes counter counts every frame the switch sends through
    // it, on the wire (preamble, FCS, inter-frame gap), this one included.
    const uint32_t bytes = frame.view.frameBytes;
    uint64_t& tx = m_intTxBytes[outPort];
    tx += bytes + RoceEthernetHeader::WIRE_OVERHEAD_BYTES;
    if (!RoceFrame::HasInt(frame.view) || !RdmaOpcode::IsData(frame.view.bthOpcode))
    {
        return; // ACKs carry their data packet's records back untouched
    }
    IntHeader h;
    if (!RoceFrame::ReadInt(frame, h))
    {
        return;
    }
    uint64_t qlen = 0;
    for (const EgressQueue& q : m_egress[outPort].queue)
    {
        qlen += q.bytes;
    }
    IntHop hop;
    hop.Set(m_ports[outPort]->GetDataRate().GetBitRate(),
            static_cast<uint64_t>(FabricSimulator::Now().GetNanoSeconds()),
            tx,
            qlen);
    h.PushHop(hop);
    RoceFrame::WriteInt(frame, h);
}

Time
RoceSwitch::GetSwitchLatency() const
{
    return m_latency;
}

bool
RoceSwitch::IsCutThrough() const
{
    return m_cutThrough;
}

uint32_t
RoceSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<RoceNetDevice>
RoceSwitch::GetPort(uint32_t i) const
{
    return m_ports[i];
}

Ptr<SharedBufferMmu>
RoceSwitch::GetMmu() const
{
    return m_mmu;
}

uint32_t
RoceSwitch::GetHashSeed() const
{
    return m_hashSeed;
}

uint64_t
RoceSwitch::GetQueueBytes(uint32_t port, uint8_t queue) const
{
    return m_egress[port].queue[queue].bytes;
}

uint8_t
RoceSwitch::GetNonEmptyQueues(uint32_t port) const
{
    return m_nonEmpty[port];
}

uint64_t
RoceSwitch::GetPortBytes(uint32_t port) const
{
    const EgressPort& e = m_egress[port];
    uint64_t sum = 0;
    for (const EgressQueue& q : e.queue)
    {
        sum += q.bytes;
    }
    return sum;
}

uint32_t
RoceSwitch::GetQueuePackets(uint32_t port, uint8_t queue) const
{
    return m_egress[port].queue[queue].frames.size;
}

bool
RoceSwitch::HoldsFrameFrom(uint32_t port, uint8_t queue, uint32_t inPort, uint8_t inPrio) const
{
    const uint32_t tag = IngressTag(inPort, inPrio);
    return m_framePool.AnyOf(m_egress.at(port).queue.at(queue).frames,
                             [tag](const RoceQueuedFrame& f) { return f.GetTag() == tag; });
}

uint64_t
RoceSwitch::GetLosslessDrops() const
{
    return m_losslessDrops;
}

uint64_t
RoceSwitch::GetLossyDrops() const
{
    return m_lossyDrops;
}

uint64_t
RoceSwitch::GetEcnMarks() const
{
    return m_ecnMarks;
}

Ptr<UetTrimmer>
RoceSwitch::GetTrimmer() const
{
    return m_trimmer;
}

void
RoceSwitch::SetTrimmer(Ptr<UetTrimmer> trimmer)
{
    m_trimmer = trimmer;
    if (m_trimmer)
    {
        m_trimmer->SetPorts(static_cast<uint32_t>(m_ports.size()));
    }
    SetFrameFilter(FILTER_TRIM, m_trimmer != nullptr);
}

uint64_t
RoceSwitch::GetForwarded() const
{
    return m_forwarded;
}

uint64_t
RoceSwitch::GetReclassified() const
{
    return m_reclassified;
}

uint64_t
RoceSwitch::GetNonMinimalRouted() const
{
    return m_nonMinimal;
}

uint64_t
RoceSwitch::DataBytes(uint32_t port) const
{
    const EgressPort& e = m_egress[port];
    uint64_t sum = 0;
    for (int q = 0; q < 7; ++q)
    {
        sum += e.queue[q].bytes;
    }
    return sum;
}

void
RoceSwitch::SetPriority(RoceParsedFrame& frame, uint8_t prio)
{
    // The class is DSCP bits 5..3; the low bits (RoceFrame::INT_DSCP_BIT) stay.
    frame.view.dscp = static_cast<uint8_t>((prio << 3) | (frame.view.dscp & 7));
    if (frame.view.hasVlan)
    {
        frame.view.pcp = prio;
    }
    if (!frame.HasPacket())
    {
        return; // the bytes, when written, follow the view
    }
    // Same header surgery as RoceFrame::SetEcnCe; only at class changes (<= 2 per path).
    const Ptr<Packet> p = frame.GetPacket();
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    if (eth.HasVlan())
    {
        eth.SetVlan(prio, eth.GetDei(), eth.GetVid());
    }
    Ipv4Header ip;
    p->RemoveHeader(ip);
    ip.SetTos(static_cast<uint8_t>((prio << 5) | (ip.GetTos() & 0x1F)));
    ip.EnableChecksum();
    p->AddHeader(ip);
    p->AddHeader(eth);
}

uint32_t
RoceSwitch::RouteNonMinimal(Ptr<Packet> p,
                            uint32_t inPort,
                            uint32_t dst,
                            uint32_t out,
                            const RoceFrameView& view)
{
    EnsureDragonflyRouting();
    if (m_hostPort[inPort])
    {
        // Source router: the only place a path is chosen.
        if (m_hostPort[out])
        {
            return out; // destination on this router
        }
        const uint32_t dstGroup = m_graph->GetGroup(m_graph->GetHosts()[dst]);
        const uint32_t mid = m_dragonfly->ChooseIntermediateGroup(m_group, dstGroup, m_uniform);
        if (mid == dstGroup || mid == m_group)
        {
            return out;
        }
        RouteTable::PortSpan c = m_dragonfly->MinimalCandidatesToGroup(m_graphNode, mid);
        const uint32_t nonMin =
            c.count == 1 ? c.ptr[0] : m_policy->Select(*this, c.ptr, c.count, view);
        if (m_routingMode == UGAL &&
            DragonflyRouting::UgalPreferMinimal(DataBytes(out), DataBytes(nonMin), m_ugalOffset))
        {
            return out;
        }
        p->AddPacketTag(DragonflyRouteTag(mid));
        m_nonMinimal++;
        return nonMin;
    }
    DragonflyRouteTag tag;
    if (!p->PeekPacketTag(tag))
    {
        return out; // minimal packet, or already in phase 1
    }
    const uint32_t mid = tag.GetIntermediateGroup();
    if (mid == m_group)
    {
        p->RemovePacketTag(tag); // reached the intermediate group: phase 1
        return out;
    }
    RouteTable::PortSpan c = m_dragonfly->MinimalCandidatesToGroup(m_graphNode, mid);
    return c.count == 1 ? c.ptr[0] : m_policy->Select(*this, c.ptr, c.count, view);
}

int64_t
RoceSwitch::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    int64_t used = 1;
    if (m_policy)
    {
        used += m_policy->AssignStreams(stream + used);
    }
    return used;
}

void
RoceSwitch::Drop(uint32_t port, const char* reason, bool lossless)
{
    if (lossless)
    {
        m_losslessDrops++;
    }
    else
    {
        m_lossyDrops++;
    }
    m_dropTrace(m_graphNode, port, reason);
}

void
RoceSwitch::ResumePaused(uint32_t inPort, uint8_t inPrio)
{
    if (m_mmu->ShouldResume(inPort, inPrio))
    {
        m_mmu->SetPaused(inPort, inPrio, false);
        m_ports[inPort]->SetPeerPaused(inPrio, false);
    }
    // The shared pool grew, and with it every lossless PG's dynamic threshold: each
    // paused one may now be below XON, in the order they paused.
    const std::vector<uint32_t>& paused = m_mmu->GetPausedPgs();
    for (std::size_t i = 0; i < paused.size();)
    {
        const uint32_t port = paused[i] / SharedBufferMmu::N_PRIO;
        const auto prio = static_cast<uint8_t>(paused[i] % SharedBufferMmu::N_PRIO);
        if (m_mmu->ShouldResume(port, prio))
        {
            m_mmu->SetPaused(port, prio, false); // removes entry i
            m_ports[port]->SetPeerPaused(prio, false);
        }
        else
        {
            ++i;
        }
    }
}

void
RoceSwitch::DropForWatchdog(uint32_t port)
{
    m_watchdogDrops++;
    m_dropTrace(m_graphNode, port, "pfc-watchdog");
}

void
RoceSwitch::SetStormDrop(uint32_t port, uint8_t prio, bool drop)
{
    NS_ASSERT(port < m_ports.size() && prio < 8);
    m_stormDrop.resize(m_ports.size(), 0);
    const auto bit = static_cast<uint8_t>(1U << prio);
    if (!drop)
    {
        m_stormDrop[port] &= static_cast<uint8_t>(~bit);
    }
    else if ((m_stormDrop[port] & bit) == 0)
    {
        m_stormDrop[port] |= bit;
        DiscardQueue(port, prio, false);
    }
    SetFrameFilter(
        FILTER_STORMS,
        std::any_of(m_stormDrop.begin(), m_stormDrop.end(), [](uint8_t m) { return m != 0; }));
}

uint64_t
RoceSwitch::GetWatchdogDrops() const
{
    return m_watchdogDrops;
}

void
RoceSwitch::DiscardQueue(uint32_t port, uint8_t prio, bool linkDown)
{
    EgressQueue& queue = m_egress[port].queue[prio];
    while (queue.frames.size != 0)
    {
        const uint32_t tag = m_framePool.Front(queue.frames).GetTag();
        const uint32_t inPort = TagPort(tag);
        const uint8_t inPrio = TagPrio(tag);
        const uint32_t bytes = m_framePool.Front(queue.frames).GetFrameBytes();
        m_framePool.PopFront(queue.frames);
        queue.bytes -= bytes;
        m_queueLengthTrace(m_graphNode, port, prio, queue.bytes);
        m_mmu->OnDequeue(inPort, inPrio, port, prio, bytes);
        ResumeAfterRelease(inPort, inPrio);
        if (linkDown)
        {
            DropLinkDown(port);
        }
        else
        {
            DropForWatchdog(port);
        }
    }
    m_nonEmpty[port] &= static_cast<uint8_t>(~(1U << prio));
}

void
RoceSwitch::DropLinkDown(uint32_t port)
{
    m_linkDownDrops++;
    m_dropTrace(m_graphNode, port, "link_down");
}

void
RoceSwitch::SetPortDown(uint32_t port, bool down)
{
    NS_ASSERT(port < m_ports.size());
    m_portState.resize(m_ports.size(), 0);
    if (down && (m_portState[port] & PORT_DOWN) == 0)
    {
        // What waits for the dead cable is lost with it.
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            DiscardQueue(port, prio, true);
        }
    }
    m_portState[port] = down ? (m_portState[port] | PORT_DOWN)
                             : (m_portState[port] & static_cast<uint8_t>(~PORT_DOWN));
    SetFrameFilter(
        FILTER_FAILURES,
        std::any_of(m_portState.begin(), m_portState.end(), [](uint8_t s) { return s != 0; }));
}

void
RoceSwitch::SetPortExcluded(uint32_t port, bool excluded)
{
    NS_ASSERT(port < m_ports.size());
    m_portState.resize(m_ports.size(), 0);
    m_portState[port] = excluded ? (m_portState[port] | PORT_EXCLUDED)
                                 : (m_portState[port] & static_cast<uint8_t>(~PORT_EXCLUDED));
    SetFrameFilter(
        FILTER_FAILURES,
        std::any_of(m_portState.begin(), m_portState.end(), [](uint8_t s) { return s != 0; }));
}

uint64_t
RoceSwitch::GetLinkDownDrops() const
{
    return m_linkDownDrops;
}

bool
RoceSwitch::FilterFrame(uint32_t inPort,
                        uint8_t prio,
                        RouteTable::PortSpan c,
                        const RoceFrameView& view,
                        uint32_t& out,
                        uint8_t& outPrio)
{
    if ((m_frameFilters & FILTER_FAILURES) != 0)
    {
        const uint32_t chosen = out;
        if (!RouteAroundFailure(inPort, c.ptr, c.count, view, out))
        {
            return false;
        }
        if (out != chosen)
        {
            outPrio = OutPriority(inPort, out, prio);
        }
    }
    if ((m_frameFilters & FILTER_STORMS) != 0 &&
        (((m_stormDrop[inPort] >> prio) & 1) != 0 || ((m_stormDrop[out] >> outPrio) & 1) != 0))
    {
        DropForWatchdog(inPort);
        return false;
    }
    return true;
}

bool
RoceSwitch::RouteAroundFailure(uint32_t inPort,
                               const uint32_t* c,
                               uint32_t count,
                               const RoceFrameView& view,
                               uint32_t& out)
{
    if ((m_portState[inPort] & PORT_DOWN) != 0)
    {
        DropLinkDown(inPort); // it was on the cable when it failed
        return false;
    }
    if (m_portState[out] == 0)
    {
        return true;
    }
    if ((m_portState[out] & PORT_EXCLUDED) != 0)
    {
        // The switch knows: the group shrinks to its live members.
        m_liveCandidates.clear();
        for (uint32_t i = 0; i < count; ++i)
        {
            if ((m_portState[c[i]] & PORT_EXCLUDED) == 0)
            {
                m_liveCandidates.push_back(c[i]);
            }
        }
        if (m_liveCandidates.empty())
        {
            DropLinkDown(out); // no other way until the routing converges
            return false;
        }
        const auto n = static_cast<uint32_t>(m_liveCandidates.size());
        out = n == 1 ? m_liveCandidates[0]
                     : m_policy->Select(*this, m_liveCandidates.data(), n, view);
    }
    if ((m_portState[out] & PORT_DOWN) != 0)
    {
        DropLinkDown(out); // not noticed yet: the routing still sends into the cable
        return false;
    }
    return true;
}

void
RoceSwitch::ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame)
{
    const RoceFrameView& view = frame.view;
    uint32_t inPort = dev.GetPortIndex();
    if (!view.isIpv4)
    {
        Drop(inPort, "not-ipv4", false);
        return;
    }
    uint8_t prio = view.hasVlan ? view.pcp : static_cast<uint8_t>(view.dscp >> 3);
    uint32_t dst = RoceNic::HostIndexOf(view.dstIp);
    RouteTable::PortSpan c = m_routes->GetCandidates(m_graphNode, dst);
    if (c.count == 0)
    {
        Drop(inPort, "no-route", m_mmu->IsLossless(prio));
        return;
    }
    uint32_t out = c.count == 1 ? c.ptr[0] : m_policy->Select(*this, c.ptr, c.count, view);
    if (m_routingMode != MINIMAL && prio != 7)
    {
        out = RouteNonMinimal(frame.GetPacket(), inPort, dst, out, view);
    }
    uint8_t outPrio = OutPriority(inPort, out, prio);
    if (__builtin_expect(m_frameFilters != 0, false))
    {
        // (Copies: out's address must not escape, or it leaves its register on the
        // common path.)
        uint32_t liveOut = out;
        uint8_t liveOutPrio = outPrio;
        if (!FilterFrame(inPort, prio, c, view, liveOut, liveOutPrio))
        {
            return;
        }
        if ((m_frameFilters & FILTER_TRIM) != 0)
        {
            if (m_trimmer->ShouldTrim(frame, m_egress[liveOut].queue[liveOutPrio].bytes))
            {
                // UET packet trimming: the headers go on, ahead of the data, instead.
                m_trimmer->Trim(frame, liveOut);
                liveOutPrio = m_trimmer->GetPriority();
            }
            // A header (trimmed here or before) beyond its queue's bound is dropped.
            if (UetTrimmer::IsTrimmed(view) &&
                !m_trimmer->AdmitTrimmed(liveOut,
                                         m_egress[liveOut].queue[liveOutPrio].bytes,
                                         frame.view.frameBytes))
            {
                Drop(inPort, "trim-queue-full", false);
                return;
            }
        }
        out = liveOut;
        outPrio = liveOutPrio;
    }
    const uint32_t bytes = view.frameBytes;
    if (!m_mmu->Admit(inPort, prio, out, outPrio, bytes))
    {
        bool lossless = m_mmu->IsLossless(prio);
        Drop(inPort, lossless ? "lossless-buffer-overflow" : "buffer-full", lossless);
        return;
    }
    // IPv4 forwarding (RFC 1812 5.3.1): TTL - 1, one byte of the view (and the bytes
    // if written). Not checked for 0: from 64 it cannot get there on routes of fewer
    // than 64 switches, which the fabric checks when it connects a queue pair
    // (doc/rocev2-wire-format.md).
    RoceFrame::DecrementTtl(frame);
    if (outPrio != prio)
    {
        SetPriority(frame, outPrio);
        m_reclassified++;
    }
    if (m_timedForwarding)
    {
        // When the output may start it (RoceNetDevice::PutOnWire reads it): the frame
        // arrived whole now, its head one input serialization earlier.
        const int64_t txOut = m_ports[out]->GetTransmitTicks(bytes);
        frame.readyTicks =
            FabricSimulator::NowTicks() +
            ForwardingTiming::StartAfterTail(m_cutThrough,
                                             m_latencyTicks,
                                             m_cutThrough ? dev.GetTransmitTicks(bytes) : 0,
                                             txOut);
    }
    uint8_t& nonEmpty = m_nonEmpty[out];
    if (m_idlePortShortcut && nonEmpty == 0 && inPort != out && (!m_dwrr || outPrio == 7) &&
        m_ports[out]->CanTransmitBy(outPrio, frame.readyTicks))
    {
        ForwardAtOnce(inPort, prio, out, outPrio, frame);
        return;
    }
    nonEmpty |= static_cast<uint8_t>(1U << outPrio);
    EgressQueue& q = m_egress[out].queue[outPrio];
    q.bytes += bytes;
    if (__builtin_expect(m_queueTraced, false))
    {
        TraceEnqueue(out, outPrio, frame);
    }
    m_framePool.EmplaceBack(q.frames, std::move(frame), IngressTag(inPort, prio));
    if (m_mmu->ShouldPause(inPort, prio))
    {
        m_mmu->SetPaused(inPort, prio, true);
        m_ports[inPort]->SetPeerPaused(prio, true);
    }
    m_ports[out]->NotifyDataAvailable();
}

void
RoceSwitch::ForwardAtOnce(uint32_t inPort,
                          uint8_t prio,
                          uint32_t out,
                          uint8_t outPrio,
                          RoceParsedFrame& frame)
{
    // The egress port is idle with all its queues empty: the frame would be queued
    // and pulled out again at once (NotifyDataAvailable -> DequeueFrame). The same
    // steps in the same order, without the trip through the frame pool: the pause
    // check of enqueue, then dequeue's buffer release and resume check, then the wire.
    // The pause can only touch the ingress port's device, not the egress one here.
    if (__builtin_expect(m_queueTraced, false))
    {
        // Queued and pulled at once: its queue's length stays 0 (no QueueLength).
        TracePassThrough(out, outPrio, frame);
    }
    const uint32_t bytes = frame.view.frameBytes;
    if (m_mmu->ShouldPause(inPort, prio))
    {
        m_mmu->SetPaused(inPort, prio, true);
        m_ports[inPort]->SetPeerPaused(prio, true);
    }
    m_mmu->OnDequeue(inPort, prio, out, outPrio, bytes);
    ResumeAfterRelease(inPort, prio);
    // (No ECN step: the queue it leaves is empty, and EcnMarker never marks at a
    // depth of 0 <= Kmin, nor draws a random number there.)
    if (m_intEnabled)
    {
        PushInt(out, frame);
    }
    m_forwarded++;
    // The port was idle (its busy flag may only outlast an ended frame), or its frame
    // ends by the time this one is ready, and it stays without queued frames: nothing
    // to pull when this one ends.
    m_ports[out]->TransmitNowAlone(frame);
}

inline int
RoceSwitch::PickQueue(uint32_t outPort, uint8_t pausedMask)
{
    uint8_t ready = m_nonEmpty[outPort] & static_cast<uint8_t>(~pausedMask);
    if (ready == 0)
    {
        return -1;
    }
    if (m_timedForwarding && (ready & (ready - 1)) != 0)
    {
        return PickTimedQueue(outPort, ready);
    }
    return PickAmong(outPort, ready);
}

int
RoceSwitch::PickTimedQueue(uint32_t outPort, uint8_t ready)
{
    return PickAmong(outPort, ReadyQueues(outPort, ready));
}

inline int
RoceSwitch::PickAmong(uint32_t outPort, uint8_t ready)
{
    // Control traffic (priority 7) is always served first; strict priority then
    // takes the highest ready queue.
    if (!m_dwrr || (ready & 0x80))
    {
        return 31 - __builtin_clz(static_cast<uint32_t>(ready));
    }
    // Deficit round robin over 0..6, quanta by the ETS weights (some queue is ready): the
    // queue whose turn it is gets its quantum when its turn starts, sends while its deficit
    // covers its head frame, and the turn passes on when it does not (the deficit
    // carries over) or when the queue is empty (the deficit is dropped) or paused.
    EgressPort& port = m_egress[outPort];
    DwrrTurn& turn = m_dwrrTurn[outPort];
    for (;;)
    {
        const uint8_t q = turn.queue;
        EgressQueue& queue = port.queue[q];
        if (((ready >> q) & 1) != 0)
        {
            if (!turn.granted)
            {
                queue.deficit += static_cast<int64_t>(m_dwrrQuantum) * m_etsWeights.Get(q);
                turn.granted = true;
            }
            const uint32_t head = m_framePool.Front(queue.frames).GetFrameBytes();
            if (queue.deficit >= static_cast<int64_t>(head))
            {
                queue.deficit -= head;
                return q;
            }
        }
        else if (queue.frames.size == 0)
        {
            queue.deficit = 0;
        }
        turn.queue = static_cast<uint8_t>((q + 1) % 7);
        turn.granted = false;
    }
}

uint8_t
RoceSwitch::ReadyQueues(uint32_t outPort, uint8_t candidates)
{
    // The scheduler sees a frame once its switch latency has passed: the queues whose
    // head is ready now; if none is, the one whose head is ready first (the port waits
    // for it; a frame arriving later is ready later still).
    const int64_t now = FabricSimulator::NowTicks();
    const EgressPort& port = m_egress[outPort];
    uint8_t readyNow = 0;
    uint8_t first = 0;
    int64_t firstTicks = INT64_MAX;
    for (int q = 7; q >= 0; --q)
    {
        if (((candidates >> q) & 1) == 0)
        {
            continue;
        }
        const int64_t r = m_framePool.Front(port.queue[q].frames).GetReadyTicks();
        if (r <= now)
        {
            readyNow |= static_cast<uint8_t>(1U << q);
            if (!m_dwrr || q == 7)
            {
                return readyNow; // strict priority: the highest ready queue is the pick
            }
        }
        else if (r < firstTicks)
        {
            firstTicks = r;
            first = static_cast<uint8_t>(1U << q);
        }
    }
    return readyNow != 0 ? readyNow : first;
}

bool
RoceSwitch::HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const
{
    return (m_nonEmpty[dev.GetPortIndex()] & static_cast<uint8_t>(~pausedMask)) != 0;
}

bool
RoceSwitch::DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame)
{
    uint32_t outPort = dev.GetPortIndex();
    int q = PickQueue(outPort, pausedMask);
    if (q < 0)
    {
        return false;
    }
    EgressQueue& queue = m_egress[outPort].queue[q];
    const uint32_t tag = m_framePool.Front(queue.frames).MoveTo(frame);
    const uint32_t inPort = TagPort(tag);
    const uint8_t inPrio = TagPrio(tag);
    m_framePool.PopFront(queue.frames);
    if (queue.frames.size == 0)
    {
        m_nonEmpty[outPort] &= static_cast<uint8_t>(~(1U << q));
    }
    const uint32_t bytes = frame.view.frameBytes;
    queue.bytes -= bytes;
    if (__builtin_expect(m_queueTraced, false))
    {
        TraceDequeue(outPort, static_cast<uint8_t>(q), frame);
    }
    m_mmu->OnDequeue(inPort, inPrio, outPort, static_cast<uint8_t>(q), bytes);
    ResumeAfterRelease(inPort, inPrio);
    if (m_ecnEnabled && frame.view.ecn != 0 && m_ecn[outPort]->ShouldMark(queue.bytes, *m_uniform))
    {
        RoceFrame::SetEcnCe(frame);
        m_ecnMarks++;
        if (m_queueTraced && HasSinks(m_markTrace))
        {
            m_markTrace(m_graphNode, outPort, static_cast<uint8_t>(q), frame.GetPacket());
        }
    }
    if (m_intEnabled)
    {
        PushInt(outPort, frame);
    }
    m_forwarded++;
    return true;
}

void
RoceSwitch::TraceEnqueue(uint32_t out, uint8_t prio, RoceParsedFrame& frame)
{
    if (HasSinks(m_enqueueTrace))
    {
        m_enqueueTrace(m_graphNode, out, prio, frame.GetPacket());
    }
    if (HasSinks(m_queueLengthTrace))
    {
        m_queueLengthTrace(m_graphNode, out, prio, m_egress[out].queue[prio].bytes);
    }
}

void
RoceSwitch::TracePassThrough(uint32_t out, uint8_t prio, RoceParsedFrame& frame)
{
    if (HasSinks(m_enqueueTrace))
    {
        m_enqueueTrace(m_graphNode, out, prio, frame.GetPacket());
    }
    if (HasSinks(m_dequeueTrace))
    {
        m_dequeueTrace(m_graphNode, out, prio, frame.GetPacket());
    }
}

void
RoceSwitch::TraceDequeue(uint32_t out, uint8_t prio, RoceParsedFrame& frame)
{
    if (HasSinks(m_dequeueTrace))
    {
        m_dequeueTrace(m_graphNode, out, prio, frame.GetPacket());
    }
    if (HasSinks(m_queueLengthTrace))
    {
        m_queueLengthTrace(m_graphNode, out, prio, m_egress[out].queue[prio].bytes);
    }
}

} // namespace ns3
