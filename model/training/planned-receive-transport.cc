/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "planned-receive-transport.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PlannedReceiveTransport);

TypeId
PlannedReceiveTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PlannedReceiveTransport")
                            .SetParent<CollectiveTransport>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PlannedReceiveTransport>();
    return tid;
}

PlannedReceiveTransport::PlannedReceiveTransport() = default;

PlannedReceiveTransport::~PlannedReceiveTransport() = default;

void
PlannedReceiveTransport::DoDispose()
{
    m_inner = nullptr;
    CollectiveTransport::DoDispose();
}

void
PlannedReceiveTransport::SetInner(Ptr<CollectiveTransport> inner)
{
    m_inner = inner;
}

Ptr<CollectiveTransport>
PlannedReceiveTransport::GetInner() const
{
    return m_inner;
}

void
PlannedReceiveTransport::PostReceive(uint32_t srcRank,
                                     uint32_t dstRank,
                                     uint64_t tag,
                                     uint32_t channel)
{
    m_inner->Expect(srcRank, dstRank, tag, channel);
}

uint32_t
PlannedReceiveTransport::GetNRanks() const
{
    return m_inner->GetNRanks();
}

void
PlannedReceiveTransport::Send(uint32_t srcRank,
                              uint32_t dstRank,
                              uint64_t bytes,
                              uint64_t tag,
                              uint32_t channel)
{
    m_inner->Send(srcRank, dstRank, bytes, tag, channel);
}

void
PlannedReceiveTransport::BeginOperation(uint64_t tagBase, uint32_t nTransfers)
{
    m_inner->BeginOperation(tagBase, nTransfers);
}

void
PlannedReceiveTransport::ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel)
{
    m_inner->ExpectConnection(srcRank, dstRank, channel);
}

void
PlannedReceiveTransport::AbandonOperation(uint64_t tagBase, uint32_t nTransfers)
{
    m_inner->AbandonOperation(tagBase, nTransfers);
}

void
PlannedReceiveTransport::Expect(uint32_t, uint32_t, uint64_t, uint32_t)
{
}

bool
PlannedReceiveTransport::IsLocal(uint32_t rank) const
{
    return m_inner->IsLocal(rank);
}

bool
PlannedReceiveTransport::NeedsTransferOrder() const
{
    return m_inner->NeedsTransferOrder();
}

void
PlannedReceiveTransport::Abort()
{
    m_inner->Abort();
}

} // namespace ns3
