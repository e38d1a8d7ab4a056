/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-switch.h"

#include "ecmp-egress-policy.h"
#include "ecn-marker.h"
#include "roce-channel.h"
#include "roce-frame.h"
#include "roce-net-device.h"
#include "roce-nic.h"
#include "shared-buffer-mmu.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/route-table.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

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
            .AddAttribute("EcnEnabled",
                          "Mark ECN-capable frames CE at egress dequeue (DCQCN's congestion "
                          "point)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Dwrr",
                          "Serve priorities 0-6 by deficit weighted round robin with equal "
                          "weights instead of strict priority; priority 7 (control) stays "
                          "strict",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_dwrr),
                          MakeBooleanChecker())
            .AddAttribute("DwrrQuantum",
                          "Bytes a DWRR queue may send per round",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&RoceSwitch::m_dwrrQuantum),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("HashSeed",
                          "ECMP hash seed; 0 derives a distinct seed from the node id so "
                          "switches decorrelate (avoids hash polarization)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceSwitch::m_hashSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Drop",
                            "A frame was dropped: (node, port, reason)",
                            MakeTraceSourceAccessor(&RoceSwitch::m_dropTrace),
                            "ns3::RoceSwitch::DropTracedCallback");
    return tid;
}

RoceSwitch::RoceSwitch()
    : m_graphNode(0),
      m_ecnEnabled(true),
      m_dwrr(false),
      m_hashSeed(0),
      m_dwrrQuantum(1500),
      m_losslessDrops(0),
      m_lossyDrops(0),
      m_ecnMarks(0),
      m_forwarded(0)
{
    m_uniform = CreateObject<UniformRandomVariable>();
}

RoceSwitch::~RoceSwitch() = default;

void
RoceSwitch::DoDispose()
{
    m_ports.clear();
    m_egress.clear();
    m_ecn.clear();
    m_routes = nullptr;
    m_policy = nullptr;
    m_mmu = nullptr;
    Object::DoDispose();
}

void
RoceSwitch::AddPort(Ptr<RoceNetDevice> device)
{
    device->SetIfIndex(static_cast<uint32_t>(m_ports.size()));
    device->SetDequeueCallback(MakeCallback(&RoceSwitch::Dequeue, this));
    device->SetFrameCallback(MakeCallback(&RoceSwitch::ReceiveFrame, this));
    m_ports.push_back(device);
    m_egress.emplace_back();
}

void
RoceSwitch::SetRouting(Ptr<const RouteTable> table, uint32_t graphNode)
{
    m_routes = table;
    m_graphNode = graphNode;
    if (m_hashSeed == 0)
    {
        m_hashSeed = (graphNode + 1) * 2654435761U;
    }
}

void
RoceSwitch::SetEgressPolicy(Ptr<EgressPortPolicy> policy)
{
    m_policy = policy;
}

void
RoceSwitch::Setup(uint32_t mtuFrameBytes)
{
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
    return m_egress[port].bytes[queue];
}

uint32_t
RoceSwitch::GetQueuePackets(uint32_t port, uint8_t queue) const
{
    return static_cast<uint32_t>(m_egress[port].queues[queue].size());
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

uint64_t
RoceSwitch::GetForwarded() const
{
    return m_forwarded;
}

int64_t
RoceSwitch::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
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
RoceSwitch::ReceiveFrame(Ptr<RoceNetDevice> dev, Ptr<Packet> p, const RoceFrameView& view)
{
    uint32_t inPort = dev->GetIfIndex();
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
    uint32_t bytes = p->GetSize();
    if (!m_mmu->CheckAdmission(inPort, prio, out, prio, bytes))
    {
        bool lossless = m_mmu->IsLossless(prio);
        Drop(inPort, lossless ? "lossless-buffer-overflow" : "buffer-full", lossless);
        return;
    }
    m_mmu->OnEnqueue(inPort, prio, out, prio, bytes);
    EgressPort& e = m_egress[out];
    e.queues[prio].push_back(QueuedFrame{p, bytes, static_cast<uint16_t>(inPort), view.ecn != 0});
    e.bytes[prio] += bytes;
    if (m_mmu->ShouldPause(inPort, prio))
    {
        m_mmu->SetPaused(inPort, prio, true);
        m_ports[inPort]->SetPeerPaused(prio, true);
    }
    m_ports[out]->NotifyDataAvailable();
}

int
RoceSwitch::PickQueue(EgressPort& port, uint8_t pausedMask)
{
    // Control traffic (priority 7) is always served first.
    if (!port.queues[7].empty() && !(pausedMask & 0x80))
    {
        return 7;
    }
    if (!m_dwrr)
    {
        for (int q = 6; q >= 0; --q)
        {
            if (!port.queues[q].empty() && !(pausedMask & (1U << q)))
            {
                return q;
            }
        }
        return -1;
    }
    // Deficit weighted round robin over 0..6 with equal quanta.
    bool any = false;
    for (int q = 0; q < 7; ++q)
    {
        if (!port.queues[q].empty() && !(pausedMask & (1U << q)))
        {
            any = true;
            break;
        }
    }
    if (!any)
    {
        return -1;
    }
    for (;;)
    {
        uint8_t q = port.dwrrNext;
        if (!port.queues[q].empty() && !(pausedMask & (1U << q)))
        {
            if (port.deficit[q] >= static_cast<int64_t>(port.queues[q].front().bytes))
            {
                port.deficit[q] -= port.queues[q].front().bytes;
                return q;
            }
            port.deficit[q] += m_dwrrQuantum;
            if (port.deficit[q] >= static_cast<int64_t>(port.queues[q].front().bytes))
            {
                continue;
            }
        }
        else if (port.queues[q].empty())
        {
            port.deficit[q] = 0;
        }
        port.dwrrNext = static_cast<uint8_t>((q + 1) % 7);
    }
}

Ptr<Packet>
RoceSwitch::Dequeue(Ptr<RoceNetDevice> dev, uint8_t pausedMask)
{
    uint32_t outPort = dev->GetIfIndex();
    EgressPort& e = m_egress[outPort];
    int q = PickQueue(e, pausedMask);
    if (q < 0)
    {
        return nullptr;
    }
    QueuedFrame f = e.queues[q].front();
    e.queues[q].pop_front();
    e.bytes[q] -= f.bytes;
    m_mmu->OnDequeue(f.inPort, static_cast<uint8_t>(q), outPort, static_cast<uint8_t>(q), f.bytes);
    if (m_mmu->ShouldResume(f.inPort, static_cast<uint8_t>(q)))
    {
        m_mmu->SetPaused(f.inPort, static_cast<uint8_t>(q), false);
        m_ports[f.inPort]->SetPeerPaused(static_cast<uint8_t>(q), false);
    }
    if (m_ecnEnabled && f.ect &&
        m_ecn[outPort]->ShouldMark(e.bytes[q], m_uniform->GetValue()))
    {
        RoceFrame::SetEcnCe(f.packet);
        m_ecnMarks++;
    }
    m_forwarded++;
    return f.packet;
}

} // namespace ns3
