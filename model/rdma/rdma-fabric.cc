/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric.h"

#include "ns3/abort.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rounded-time.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaFabric);

TypeId
RdmaFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaFabric").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

RdmaFabric::RdmaFabric() = default;

RdmaFabric::~RdmaFabric() = default;

void
RdmaFabric::DoDispose()
{
    m_qps.clear();
    m_messageCallbacks.clear();
    m_deliveredCallbacks.clear();
    Object::DoDispose();
}

void
RdmaFabric::AddMessageCallback(MessageCallback cb)
{
    m_messageCallbacks.push_back(cb);
}

void
RdmaFabric::AddDeliveredCallback(DeliveredCallback cb)
{
    m_deliveredCallbacks.push_back(cb);
}

uint64_t
RdmaFabric::TakeMessageId()
{
    return m_nextMessageId++;
}

double
RdmaFabric::PipelinedMakespan(const std::vector<double>& rates,
                              uint64_t first,
                              uint64_t total,
                              uint64_t last)
{
    double best = 0;
    for (std::size_t b = 0; b < rates.size(); ++b)
    {
        double t = 0;
        for (std::size_t l = 0; l < rates.size(); ++l)
        {
            const uint64_t wire = l < b ? first : (l == b ? total : last);
            t += wire * 8.0 / rates[l];
        }
        best = std::max(best, t);
    }
    return best;
}

void
RdmaFabric::CollectStalledQueues(int64_t /* stallTicks */, WaitForGraph& /* graph */)
{
}

std::string
RdmaFabric::GetLaneName() const
{
    return "priority";
}

uint64_t
RdmaFabric::GetPendingMessages() const
{
    return m_nextMessageId - m_completed;
}

void
RdmaFabric::OnMessageSent(Ptr<const RdmaQueuePair> qp, const RdmaMessage& m)
{
    m_completed++;
    MessageRecord r;
    r.id = m.id;
    r.src = qp->GetLocalHost();
    r.dst = qp->GetPeerHost();
    r.bytes = m.bytes;
    r.tag = m.tag;
    r.kind = m.kind;
    r.start = m.postTime;
    r.end = Simulator::Now();
    r.ideal = GetIdealFct(r.src, r.dst, r.bytes);
    for (const auto& cb : m_messageCallbacks)
    {
        cb(r);
    }
}

void
RdmaFabric::OnDelivered(Ptr<const RdmaQueuePair> qp, uint64_t tag, uint64_t bytes)
{
    for (const auto& cb : m_deliveredCallbacks)
    {
        cb(qp->GetPeerHost(), qp->GetLocalHost(), tag, bytes);
    }
}

void
RdmaFabric::SetCongestionControlFactory(const CongestionControlFactory& factory)
{
    m_ccFactory = factory;
}

uint64_t
RdmaFabric::PostWrite(uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag, uint8_t kind)
{
    const uint32_t hosts = GetNHosts();
    NS_ABORT_MSG_IF(src >= hosts || dst >= hosts || src == dst,
                    "PostWrite: hosts " << src << " -> " << dst << " invalid (hosts 0.."
                                        << hosts - 1 << ", distinct)");
    NS_ABORT_MSG_IF(bytes == 0 || bytes > MAX_MESSAGE_BYTES,
                    "PostWrite: " << bytes << " bytes (allowed 1.." << MAX_MESSAGE_BYTES << ")");
    Ptr<RdmaQueuePair> qp = GetQueuePair(src, dst);
    Ptr<RdmaQueuePair> peer = m_qps[(static_cast<uint64_t>(dst) << 32) | src];
    peer->PostReceive(tag);
    uint64_t id = TakeMessageId();
    qp->PostWrite(id, bytes, tag, kind);
    return id;
}

Ptr<RdmaQueuePair>
RdmaFabric::GetQueuePair(uint32_t src, uint32_t dst)
{
    const uint64_t key = (static_cast<uint64_t>(src) << 32) | dst;
    auto it = m_qps.find(key);
    if (it != m_qps.end())
    {
        return it->second;
    }
    auto [qa, qb] = Connect(src, dst);
    for (auto [qp, from, to] : {std::make_tuple(qa, src, dst), std::make_tuple(qb, dst, src)})
    {
        const RdmaCcContext ctx = MakeCcContext(from, to);
        qp->SetCongestionControl(m_ccFactory.Create(), ctx);
    }
    m_qps[key] = qa;
    m_qps[(static_cast<uint64_t>(dst) << 32) | src] = qb;
    return qa;
}

RdmaCcContext
RdmaFabric::MakeCcContext(uint32_t from, uint32_t to) const
{
    const HostPort port = GetHostPort(from);
    RdmaCcContext ctx;
    ctx.lineRate = port.lineRate;
    ctx.mtuBytes = port.mtuBytes;
    ctx.wireBytes = port.wireBytes;
    ctx.hops = GetPathHops(from, to);
    std::vector<uint32_t> links;
    PathLinks(from, to, links);
    Ptr<const TopologyGraph> graph = GetGraph();
    Time rtt;
    for (uint32_t l : links)
    {
        const TopologyGraph::Link& link = graph->GetLink(l);
        rtt += RoundedTxTime(link.rate, ctx.wireBytes + port.ackWireBytes) + link.delay * 2;
    }
    rtt += port.switchLatency * (2 * ctx.hops);
    ctx.baseRtt = rtt;
    return ctx;
}

void
RdmaFabric::AddHostCounters(Counters& c, const RdmaNic& host)
{
    c.retransmittedPackets += host.GetRetransmittedPackets();
    c.timeouts += host.GetTimeouts();
    c.cnpsSent += host.GetCnpsSent();
    c.queuePairs += host.GetQueuePairs().size();
    c.outOfOrderPackets += host.GetOutOfOrderPackets();
    c.spuriousRetransmissions += host.GetSpuriousRetransmissions();
}

std::vector<RdmaFabric::LinkFailureRecord>
RdmaFabric::GetLinkFailures() const
{
    return {};
}

} // namespace ns3
