/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-switch-engine.h"

#include "roce-net-device.h"
#include "roce-nic.h"
#include "roce-switch.h"

#include "ns3/double.h"
#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/nvls-header.h"
#include "ns3/packet.h"
#include "ns3/roce-ethernet-header.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlsSwitchEngine");

NS_OBJECT_ENSURE_REGISTERED(NvlsSwitchEngine);

TypeId
NvlsSwitchEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NvlsSwitchEngine")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<NvlsSwitchEngine>()
            .AddAttribute(
                "Efficiency",
                "Share of a port's rate NVLS frames may use on their way out of the switch "
                "(dimensionless, (0, 1]). Default 0.85: NCCL's nvlsEfficiency for Hopper "
                "(src/graph/tuning.cc of NVIDIA/nccl 2.30; 0.74 for Blackwell), the share of "
                "NVLink bandwidth NCCL's tuning model gives NVLS. With it 8 H100s reach ~490 "
                "GB/s of NVLS allreduce busbw, against ~480 measured (NVIDIA/nccl issue 1455, "
                "NVIDIA/nccl-tests issue 212)",
                DoubleValue(0.85),
                MakeDoubleAccessor(&NvlsSwitchEngine::m_efficiency),
                MakeDoubleChecker<double>(1e-3, 1.0))
            .AddAttribute("ProcessingDelay",
                          "Time from a slice frame's last contribution (or a multicast "
                          "frame's arrival) to its result (or copies) being ready to leave. "
                          "0 (default) = the crossbar's own forwarding latency (RoceSwitch "
                          "SwitchLatency): NVIDIA publishes no NVLink SHARP latency",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NvlsSwitchEngine::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PauseBytes",
                          "Bytes of queued NVLS frames charged to one ingress port above which "
                          "that port's NVLS priority is paused (PFC), resumed below half. "
                          "Default 1 MiB, the model's choice (NVIDIA publishes no NVSwitch "
                          "buffer): above an NVLink 4 cable's pause round trip (2 x 150 ns "
                          "at 450 GB/s, 135 KB) several times over",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&NvlsSwitchEngine::m_pauseBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("SliceReduced",
                            "The last result frame of a slice left for its owner: (group, "
                            "slice)",
                            MakeTraceSourceAccessor(&NvlsSwitchEngine::m_sliceReducedTrace),
                            "ns3::NvlsSwitchEngine::SliceReducedCallback");
    return tid;
}

NvlsSwitchEngine::NvlsSwitchEngine()
    : m_efficiency(0.85),
      m_pauseBytes(1 << 20)
{
}

NvlsSwitchEngine::~NvlsSwitchEngine() = default;

void
NvlsSwitchEngine::DoDispose()
{
    m_switch = nullptr;
    m_inner = nullptr;
    m_ports.clear();
    m_entries.clear();
    Object::DoDispose();
}

void
NvlsSwitchEngine::Attach(Ptr<RoceSwitch> sw, const std::vector<uint32_t>& gpuPorts)
{
    m_switch = sw;
    m_inner = PeekPointer(sw);
    if (m_delay.IsZero())
    {
        m_delay = sw->GetSwitchLatency();
    }
    m_ports = std::vector<Port>(sw->GetNPorts()); // (Port holds move-only frames)
    for (uint32_t port : gpuPorts)
    {
        m_ports.at(port).dev = sw->GetPort(port);
        m_ports[port].dev->SetOwner(this);
    }
}

uint16_t
NvlsSwitchEngine::AddGroup(const std::vector<uint32_t>& hosts, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(hosts.size() != ports.size() || hosts.size() < 2 || hosts.size() > 255,
                    "NVLS group of " << hosts.size() << " members (allowed 2..255)");
    Group g;
    for (size_t i = 0; i < hosts.size(); ++i)
    {
        NS_ABORT_MSG_IF(ports[i] >= m_ports.size() || !m_ports[ports[i]].dev,
                        "NVLS group member on port " << ports[i] << ", not a GPU port");
        g.ports.push_back(ports[i]);
        g.port[hosts[i]] = ports[i];
    }
    m_groups.push_back(std::move(g));
    return static_cast<uint16_t>(m_groups.size() - 1);
}

uint64_t
NvlsSwitchEngine::GetContributions() const
{
    return m_contributions;
}

uint64_t
NvlsSwitchEngine::GetResults() const
{
    return m_results;
}

uint64_t
NvlsSwitchEngine::GetMulticastCopies() const
{
    return m_copies;
}

uint64_t
NvlsSwitchEngine::GetOpenEntries() const
{
    return m_entries.size();
}

uint64_t
NvlsSwitchEngine::GetPeakEntries() const
{
    return m_peakEntries;
}

void
NvlsSwitchEngine::ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame)
{
    if (frame.view.etherType != NvlsHeader::ETHERTYPE)
    {
        m_inner->ReceiveFrame(dev, frame);
        return;
    }
    const uint32_t inPort = dev.GetPortIndex();
    const uint8_t prio = frame.view.pcp;
    Ptr<Packet> original = frame.GetPacket();
    Ptr<Packet> p = original->Copy();
    RoceEthernetHeader eth;
    p->RemoveHeader(eth);
    NvlsHeader h;
    p->RemoveHeader(h);
    NS_ABORT_MSG_IF(h.group >= m_groups.size(), "NVLS frame of unknown group " << h.group);
    if (h.kind == NvlsHeader::MULTICAST)
    {
        // One frame in, one copy out of every member's port.
        m_copies += m_groups[h.group].ports.size();
        Emit(h.group, ALL_MEMBERS, original, inPort, prio);
        return;
    }
    NS_ABORT_MSG_IF(h.kind != NvlsHeader::CONTRIBUTION,
                    "NVLS frame of kind " << +h.kind << " sent to the switch");
    m_contributions++;
    const uint64_t key = (static_cast<uint64_t>(h.group) << 32) | h.slice;
    Entry& e = m_entries[key];
    if (e.count.empty())
    {
        e.count.assign(h.frames, 0);
        m_peakEntries = std::max<uint64_t>(m_peakEntries, m_entries.size());
    }
    NS_ABORT_MSG_IF(h.frame >= e.count.size() || e.count[h.frame] >= h.members,
                    "NVLS contribution " << h.frame << " of slice " << h.slice << " out of place");
    if (++e.count[h.frame] < h.members)
    {
        return; // summed into the accumulator: nothing leaves yet
    }
    // The frame's sum is complete: one RESULT frame to the owner.
    auto owner = m_groups[h.group].port.find(h.owner);
    NS_ABORT_MSG_IF(owner == m_groups[h.group].port.end(),
                    "NVLS owner host " << h.owner << " not in group " << h.group);
    NvlsHeader r = h;
    r.kind = NvlsHeader::RESULT;
    Ptr<Packet> out = Create<Packet>(h.payload);
    out->AddHeader(r);
    RoceEthernetHeader oeth;
    oeth.SetSource(eth.GetDestination());
    oeth.SetDestination(RoceNic::HostMac(h.owner));
    oeth.SetEtherType(NvlsHeader::ETHERTYPE);
    oeth.SetVlan(prio, false, 0);
    out->AddHeader(oeth);
    if (out->GetSize() < RoceNic::MIN_FRAME_BYTES)
    {
        out->AddAtEnd(Create<Packet>(RoceNic::MIN_FRAME_BYTES - out->GetSize()));
    }
    m_results++;
    Emit(h.group, owner->second, out, inPort, prio);
    if (++e.done == e.count.size())
    {
        m_entries.erase(key);
        m_sliceReducedTrace(h.group, h.slice);
    }
}

void
NvlsSwitchEngine::Emit(uint16_t group,
                       uint32_t port,
                       Ptr<Packet> packet,
                       uint32_t charge,
                       uint8_t prio)
{
    // Queued now, ready ProcessingDelay later (the port starts it no earlier: RoceNetDevice
    // reads readyTicks, as for the switch's own frames).
    const int64_t ready = FabricSimulator::NowTicks() + m_delay.GetTimeStep();
    RoceFrameView view;
    RoceFrame::Peek(*packet, view);
    auto push = [this, charge, prio, ready](uint32_t out, RoceParsedFrame frame) {
        Charge(charge, prio, frame.view.frameBytes);
        frame.readyTicks = ready;
        m_ports[out].queue.push_back(Out{std::move(frame), charge, prio});
        m_ports[out].dev->NotifyDataAvailable();
    };
    if (port != ALL_MEMBERS)
    {
        push(port, RoceParsedFrame(packet, view));
        return;
    }
    for (uint32_t member : m_groups[group].ports)
    {
        // One packet per copy (ns-3's copy-on-write: the bytes are shared until written).
        push(member, RoceParsedFrame(packet->Copy(), view));
    }
}

void
NvlsSwitchEngine::Charge(uint32_t port, uint8_t prio, int64_t bytes)
{
    Port& p = m_ports[port];
    uint64_t& held = p.charged[prio & 7];
    held = static_cast<uint64_t>(static_cast<int64_t>(held) + bytes);
    const uint8_t bit = static_cast<uint8_t>(1U << (prio & 7));
    if ((p.pausing & bit) == 0 && held >= m_pauseBytes)
    {
        p.pausing |= bit;
        p.dev->SetPeerPaused(prio, true);
    }
    else if ((p.pausing & bit) != 0 && held <= m_pauseBytes / 2)
    {
        p.pausing &= static_cast<uint8_t>(~bit);
        p.dev->SetPeerPaused(prio, false);
    }
}

bool
NvlsSwitchEngine::Ready(const Port& p, uint8_t pausedMask) const
{
    return !p.queue.empty() && ((pausedMask >> p.queue.front().frame.view.pcp) & 1) == 0;
}

void
NvlsSwitchEngine::Take(Port& p, RoceParsedFrame& frame)
{
    Out& o = p.queue.front();
    frame = std::move(o.frame);
    const uint32_t charge = o.charge;
    const uint8_t prio = o.prio;
    p.queue.pop_front();
    const uint32_t bytes = frame.view.frameBytes;
    // At most Efficiency x the line rate: not before the pace allows (the port starts it
    // at readyTicks), the next one this one's time at that rate later.
    const int64_t start = std::max({frame.readyTicks, p.nextTicks, FabricSimulator::NowTicks()});
    frame.readyTicks = start;
    p.nextTicks =
        start + std::llround(static_cast<double>(p.dev->GetTransmitTicks(bytes)) / m_efficiency);
    Charge(charge, prio, -static_cast<int64_t>(bytes));
}

bool
NvlsSwitchEngine::DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame)
{
    Port& p = m_ports[dev.GetPortIndex()];
    const bool mine = Ready(p, pausedMask);
    if (mine && p.myTurn)
    {
        p.myTurn = false;
        Take(p, frame);
        return true;
    }
    if (m_inner->DequeueFrame(dev, pausedMask, frame))
    {
        p.myTurn = mine;
        return true;
    }
    if (mine)
    {
        Take(p, frame);
        return true;
    }
    return false;
}

bool
NvlsSwitchEngine::HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const
{
    return Ready(m_ports[dev.GetPortIndex()], pausedMask) || m_inner->HasFrame(dev, pausedMask);
}

} // namespace ns3
