/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collnet-collective-transport.h"

#include "rdma-collective-transport.h"

#include "ns3/log.h"
#include "ns3/rdma-fabric.h"
#include "ns3/sharp-hca-port.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollNetCollectiveTransport");

NS_OBJECT_ENSURE_REGISTERED(CollNetCollectiveTransport);

TypeId
CollNetCollectiveTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CollNetCollectiveTransport")
                            .SetParent<CollectiveTransport>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CollNetCollectiveTransport>();
    return tid;
}

CollNetCollectiveTransport::CollNetCollectiveTransport() = default;

CollNetCollectiveTransport::~CollNetCollectiveTransport() = default;

void
CollNetCollectiveTransport::DoDispose()
{
    m_rdma = nullptr;
    m_ports.clear();
    m_state.clear();
    CollectiveTransport::DoDispose();
}

void
CollNetCollectiveTransport::Attach(Ptr<RdmaCollectiveTransport> rdma,
                                   const std::vector<uint16_t>& treeIds,
                                   const std::vector<std::vector<uint32_t>>& members,
                                   const std::vector<Ptr<SharpHcaPort>>& ports)
{
    m_rdma = rdma;
    m_treeIds = treeIds;
    m_members = members;
    m_ports = ports;
    const uint32_t n = rdma->GetNRanks();
    m_treeOf.assign(n, -1);
    m_memberIndex.assign(n, 0);
    m_rankOfHost.assign(rdma->GetFabric()->GetNHosts(), -1);
    for (uint32_t t = 0; t < members.size(); ++t)
    {
        for (uint32_t i = 0; i < members[t].size(); ++i)
        {
            const uint32_t r = members[t][i];
            m_treeOf.at(r) = static_cast<int32_t>(t);
            m_memberIndex[r] = i;
            m_rankOfHost.at(rdma->GetHost(r)) = static_cast<int32_t>(r);
        }
    }
}

void
CollNetCollectiveTransport::SetPlan(std::vector<Message> messages, std::vector<Slice> slices)
{
    m_messages = std::move(messages);
    m_slices = std::move(slices);
    m_order.assign(m_treeIds.size(), std::vector<uint32_t>());
    m_position.assign(m_slices.size(), 0);
    for (uint32_t s = 0; s < m_slices.size(); ++s)
    {
        std::vector<uint32_t>& order = m_order.at(m_slices[s].tree);
        m_position[s] = static_cast<uint32_t>(order.size());
        order.push_back(s);
    }
}

uint32_t
CollNetCollectiveTransport::GetNRanks() const
{
    return m_rdma->GetNRanks();
}

void
CollNetCollectiveTransport::Abort()
{
    m_rdma->Abort();
}

bool
CollNetCollectiveTransport::NeedsTransferOrder() const
{
    return m_rdma->NeedsTransferOrder();
}

void
CollNetCollectiveTransport::BeginOperation(uint64_t tagBase, uint32_t nTransfers)
{
    m_epoch++;
    m_state.assign(m_slices.size(), State());
    for (uint32_t s = 0; s < m_slices.size(); ++s)
    {
        m_state[s].in.assign(m_members[m_slices[s].tree].size(), 0);
    }
    m_ready.assign(m_treeOf.size(), std::vector<uint8_t>());
    m_next.assign(m_treeOf.size(), 0);
    for (uint32_t r = 0; r < m_treeOf.size(); ++r)
    {
        if (m_treeOf[r] >= 0)
        {
            m_ready[r].assign(m_order[m_treeOf[r]].size(), 0);
        }
    }
    m_rdma->BeginOperation(tagBase, nTransfers);
    if (m_rdma->NeedsTransferOrder())
    {
        // It took a message id per transfer; the switches' transfers use none.
        uint64_t sharp = 0;
        for (const Message& m : m_messages)
        {
            sharp += m.role != NORMAL ? 1 : 0;
        }
        m_rdma->ForgoMessageIds(sharp);
    }
}

void
CollNetCollectiveTransport::ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel)
{
    // Only the messages inside a server use connections; a tree's members need none.
    if (m_treeOf.at(srcRank) >= 0 && m_treeOf[srcRank] == m_treeOf.at(dstRank))
    {
        return;
    }
    m_rdma->ExpectConnection(srcRank, dstRank, channel);
}

void
CollNetCollectiveTransport::Expect(uint32_t srcRank,
                                   uint32_t dstRank,
                                   uint64_t tag,
                                   uint32_t channel)
{
    const uint32_t index = static_cast<uint32_t>(tag & 0xffffffffULL);
    if (index < m_messages.size() && m_messages[index].role != NORMAL)
    {
        return;
    }
    m_rdma->Expect(srcRank, dstRank, tag, channel);
}

void
CollNetCollectiveTransport::Ready(uint32_t rank, uint32_t slice)
{
    const uint32_t tree = static_cast<uint32_t>(m_treeOf.at(rank));
    m_ready[rank][m_position[slice]] = 1;
    const std::vector<uint32_t>& order = m_order[tree];
    uint32_t& next = m_next[rank];
    while (next < order.size() && m_ready[rank][next])
    {
        const uint32_t s = order[next++];
        m_ports[rank]->SendOperation(m_treeIds[tree], m_epoch, s, m_slices[s].bytes);
    }
}

void
CollNetCollectiveTransport::Send(uint32_t srcRank,
                                 uint32_t dstRank,
                                 uint64_t bytes,
                                 uint64_t tag,
                                 uint32_t channel)
{
    const uint32_t index = static_cast<uint32_t>(tag & 0xffffffffULL);
    NS_ABORT_MSG_IF(index >= m_messages.size(),
                    "collnet: message " << index << " is not in the plan");
    const Message& m = m_messages[index];
    if (m.role == NORMAL)
    {
        m_rdma->Send(srcRank, dstRank, bytes, tag, channel);
        return;
    }
    State& s = m_state[m.slice];
    if (m.role == CONTRIBUTE)
    {
        if (!m_ready[srcRank][m_position[m.ownSlice]])
        {
            // Its own slice of this chunk: the same data is ready.
            Ready(srcRank, m.ownSlice);
        }
        s.contributions.push_back(Posted{srcRank, dstRank, tag, bytes});
        Ready(srcRank, m.slice);
        return;
    }
    // RESULT: the switches send the sum down; nothing of the owner's goes on the wire.
    s.results.push_back(Posted{srcRank, dstRank, tag, bytes});
    Simulator::ScheduleNow(&CollNetCollectiveTransport::NotifySent,
                           this,
                           srcRank,
                           dstRank,
                           tag,
                           bytes);
    if (s.in[m_memberIndex[dstRank]])
    {
        Simulator::ScheduleNow(&CollNetCollectiveTransport::NotifyDelivered,
                               this,
                               srcRank,
                               dstRank,
                               tag,
                               bytes);
    }
}

void
CollNetCollectiveTransport::OnResult(uint32_t host,
                                     uint16_t treeId,
                                     uint16_t epoch,
                                     uint32_t operation)
{
    if (epoch != m_epoch || operation >= m_state.size() || host >= m_rankOfHost.size() ||
        m_rankOfHost[host] < 0)
    {
        return;
    }
    const uint32_t rank = static_cast<uint32_t>(m_rankOfHost[host]);
    if (m_treeIds[m_treeOf[rank]] != treeId)
    {
        return;
    }
    State& s = m_state[operation];
    s.in[m_memberIndex[rank]] = 1;
    // (By index, copying each: a completion may post, and a post may add to these.)
    for (size_t i = 0; i < s.contributions.size(); ++i)
    {
        const Posted p = s.contributions[i];
        if (p.dst == rank)
        {
            NotifyDelivered(p.src, p.dst, p.tag, p.bytes);
            NotifySent(p.src, p.dst, p.tag, p.bytes);
        }
    }
    for (size_t i = 0; i < s.results.size(); ++i)
    {
        const Posted p = s.results[i];
        if (p.dst == rank)
        {
            NotifyDelivered(p.src, p.dst, p.tag, p.bytes);
        }
    }
}

} // namespace ns3
