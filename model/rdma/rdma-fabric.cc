/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric.h"

#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <algorithm>

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

} // namespace ns3
