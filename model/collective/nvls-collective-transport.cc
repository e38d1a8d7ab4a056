/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-collective-transport.h"

#include "rdma-collective-transport.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nvls-gpu-port.h"
#include "ns3/nvls-header.h"
#include "ns3/nvls-switch-engine.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"
#include "ns3/topology-graph.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlsCollectiveTransport");

NS_OBJECT_ENSURE_REGISTERED(NvlsCollectiveTransport);

const char* const NvlsCollectiveTransport::NVLINK_SHARP_NEEDS =
    "its scale-up crossbars cannot reduce in the switch: NVLink SHARP is modelled in RoCEv2 "
    "crossbars (NvlsSwitchEngine) whose cables carry PFC, the pauses that bound the "
    "engine's buffer; allowed: rocev2 with PFC on";

TypeId
NvlsCollectiveTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NvlsCollectiveTransport")
                            .SetParent<CollectiveTransport>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<NvlsCollectiveTransport>();
    return tid;
}

NvlsCollectiveTransport::NvlsCollectiveTransport() = default;

NvlsCollectiveTransport::~NvlsCollectiveTransport() = default;

void
NvlsCollectiveTransport::DoDispose()
{
    m_ports.clear();
    m_slices.clear();
    CollectiveTransport::DoDispose();
}

void
NvlsCollectiveTransport::Attach(Ptr<RdmaCollectiveTransport> rdma,
                                const std::vector<uint32_t>& ranks)
{
    Ptr<RoceFabric> fabric = DynamicCast<RoceFabric>(rdma->GetFabric());
    if (!fabric || !fabric->HasNvlinkSharp())
    {
        throw std::invalid_argument(std::string("nvls: fabric ") +
                                    rdma->GetFabric()->GetInstanceTypeId().GetName() +
                                    " is not allowed (" + NVLINK_SHARP_NEEDS + ")");
    }
    Ptr<TopologyGraph> g = fabric->GetGraph();
    m_nRanks = rdma->GetNRanks();
    m_memberOf.assign(m_nRanks, -1);
    m_memberOfHost.assign(g->GetNHosts(), -1);
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> xbarPorts;
    uint32_t xbar = TopologyGraph::UNREACHABLE;
    for (uint32_t r : ranks)
    {
        const uint32_t host = rdma->GetHost(r);
        const TopologyGraph::Port& up = g->GetPorts(g->GetHosts()[host])[0];
        if (!g->IsScaleUpSwitch(up.peer) || (xbar != TopologyGraph::UNREACHABLE && up.peer != xbar))
        {
            throw std::invalid_argument("nvls: the ranks must be the GPUs of one server (one "
                                        "scale-up crossbar); host " +
                                        std::to_string(host) + " is not on the first's");
        }
        xbar = up.peer;
        m_memberOf[r] = static_cast<int32_t>(hosts.size());
        m_memberOfHost[host] = static_cast<int32_t>(hosts.size());
        m_rankOf.push_back(r);
        m_hostOf.push_back(host);
        hosts.push_back(host);
        xbarPorts.push_back(up.peerPort);
    }
    Ptr<Node> xbarNode = fabric->GetNodes().Get(xbar);
    Ptr<NvlsSwitchEngine> engine = xbarNode->GetObject<NvlsSwitchEngine>();
    if (!engine)
    {
        // Installed on first use: a crossbar without NVLS keeps its switch as its ports'
        // owner and pays nothing.
        engine = CreateObject<NvlsSwitchEngine>();
        Ptr<RoceSwitch> sw = xbarNode->GetObject<RoceSwitch>();
        std::vector<uint32_t> gpuPorts;
        for (uint32_t p = 0; p < g->GetPorts(xbar).size(); ++p)
        {
            if (g->IsHost(g->GetPorts(xbar)[p].peer))
            {
                gpuPorts.push_back(p);
            }
        }
        engine->Attach(sw, gpuPorts);
        xbarNode->AggregateObject(engine);
    }
    m_group = engine->AddGroup(hosts, xbarPorts);
    for (uint32_t host : hosts)
    {
        Ptr<Node> node = fabric->GetNodes().Get(g->GetHosts()[host]);
        Ptr<NvlsGpuPort> port = node->GetObject<NvlsGpuPort>();
        if (!port)
        {
            port = CreateObject<NvlsGpuPort>();
            port->Attach(fabric->GetNic(host));
            node->AggregateObject(port);
        }
        port->SetSliceCallback(MakeCallback(&NvlsCollectiveTransport::OnSlice, this));
        m_ports.push_back(port);
    }
}

void
NvlsCollectiveTransport::SetPlan(std::vector<Message> messages,
                                 std::vector<uint64_t> sliceBytes,
                                 std::vector<uint32_t> owner)
{
    m_messages = std::move(messages);
    m_sliceBytes = std::move(sliceBytes);
    m_owner = std::move(owner);
}

uint32_t
NvlsCollectiveTransport::GetNRanks() const
{
    return m_nRanks;
}

void
NvlsCollectiveTransport::BeginOperation(uint64_t /* tagBase */, uint32_t /* nTransfers */)
{
    m_slices.assign(m_sliceBytes.size(), Slice());
    for (Slice& s : m_slices)
    {
        s.copyIn.assign(m_ports.size(), 0);
    }
}

void
NvlsCollectiveTransport::SendSliceFrom(uint32_t member,
                                       uint8_t kind,
                                       uint32_t slice,
                                       uint32_t owner)
{
    m_ports[member]->SendSlice(kind,
                               m_group,
                               slice,
                               static_cast<uint16_t>(m_hostOf[owner]),
                               static_cast<uint8_t>(m_ports.size()),
                               m_sliceBytes[slice]);
}

void
NvlsCollectiveTransport::Send(uint32_t srcRank,
                              uint32_t dstRank,
                              uint64_t bytes,
                              uint64_t tag,
                              uint32_t /* channel */)
{
    const uint32_t index = static_cast<uint32_t>(tag & 0xffffffffULL);
    NS_ABORT_MSG_IF(
        index >= m_messages.size() || m_memberOf.at(srcRank) < 0 || m_memberOf.at(dstRank) < 0,
        "nvls: message " << index << " " << srcRank << " -> " << dstRank << " is not in the plan");
    const Message& m = m_messages[index];
    const uint32_t src = static_cast<uint32_t>(m_memberOf[srcRank]);
    const uint32_t dst = static_cast<uint32_t>(m_memberOf[dstRank]);
    Slice& s = m_slices[m.slice];
    if (m.role == CONTRIBUTE)
    {
        Slice& own = m_slices[m.ownSlice];
        if (!own.ownSent)
        {
            // The sender's own slice of this chunk: its copy is read by the switch too.
            own.ownSent = true;
            SendSliceFrom(src, NvlsHeader::CONTRIBUTION, m.ownSlice, src);
        }
        s.contributions.push_back(Posted{srcRank, dstRank, tag, bytes});
        SendSliceFrom(src, NvlsHeader::CONTRIBUTION, m.slice, dst);
        return;
    }
    s.multicasts.push_back(Posted{srcRank, dstRank, tag, bytes});
    if (!s.multicastSent)
    {
        s.multicastSent = true;
        SendSliceFrom(src, NvlsHeader::MULTICAST, m.slice, src);
    }
    // Posted after its copy arrived (MaxInFlight held it back): done at once.
    if (s.copyIn[dst])
    {
        Simulator::ScheduleNow(&NvlsCollectiveTransport::NotifyDelivered,
                               this,
                               srcRank,
                               dstRank,
                               tag,
                               bytes);
    }
    if (s.ownCopyBack)
    {
        Simulator::ScheduleNow(&NvlsCollectiveTransport::NotifySent,
                               this,
                               srcRank,
                               dstRank,
                               tag,
                               bytes);
    }
}

void
NvlsCollectiveTransport::OnSlice(uint32_t host, uint8_t kind, uint16_t group, uint32_t slice)
{
    if (group != m_group || slice >= m_slices.size() || host >= m_memberOfHost.size() ||
        m_memberOfHost[host] < 0)
    {
        return; // another communicator's
    }
    const uint32_t member = static_cast<uint32_t>(m_memberOfHost[host]);
    Slice& s = m_slices[slice];
    // (By index, copying each: a completion may post, and a post may add to these.)
    if (kind == NvlsHeader::RESULT)
    {
        // The sum is at its owner: every contribution is delivered, and consumed.
        s.resultIn = true;
        for (size_t i = 0; i < s.contributions.size(); ++i)
        {
            const Posted p = s.contributions[i];
            NotifyDelivered(p.src, p.dst, p.tag, p.bytes);
            NotifySent(p.src, p.dst, p.tag, p.bytes);
        }
        return;
    }
    if (m_rankOf[member] == m_owner[slice])
    {
        // The owner's own copy is back: its stores are done.
        s.ownCopyBack = true;
        for (size_t i = 0; i < s.multicasts.size(); ++i)
        {
            const Posted p = s.multicasts[i];
            NotifySent(p.src, p.dst, p.tag, p.bytes);
        }
        return;
    }
    s.copyIn[member] = 1;
    for (size_t i = 0; i < s.multicasts.size(); ++i)
    {
        const Posted p = s.multicasts[i];
        if (p.dst == m_rankOf[member])
        {
            NotifyDelivered(p.src, p.dst, p.tag, p.bytes);
        }
    }
}

} // namespace ns3
