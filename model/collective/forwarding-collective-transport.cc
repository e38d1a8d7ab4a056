/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "forwarding-collective-transport.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ForwardingCollectiveTransport);

TypeId
ForwardingCollectiveTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ForwardingCollectiveTransport")
                            .SetParent<CollectiveTransport>()
                            .SetGroupName("AiFabric");
    return tid;
}

ForwardingCollectiveTransport::ForwardingCollectiveTransport() = default;

ForwardingCollectiveTransport::~ForwardingCollectiveTransport() = default;

void
ForwardingCollectiveTransport::DoDispose()
{
    m_next = nullptr;
    CollectiveTransport::DoDispose();
}

void
ForwardingCollectiveTransport::SetForwardTo(Ptr<CollectiveTransport> next)
{
    m_next = next;
}

CollectiveTransport*
ForwardingCollectiveTransport::GetForwardTo() const
{
    return PeekPointer(m_next);
}

uint32_t
ForwardingCollectiveTransport::GetNRanks() const
{
    return m_next->GetNRanks();
}

void
ForwardingCollectiveTransport::Send(uint32_t srcRank,
                                    uint32_t dstRank,
                                    uint64_t bytes,
                                    uint64_t tag,
                                    uint32_t channel)
{
    m_next->Send(srcRank, dstRank, bytes, tag, channel);
}

void
ForwardingCollectiveTransport::BeginOperation(uint64_t tagBase, uint32_t nTransfers)
{
    m_next->BeginOperation(tagBase, nTransfers);
}

void
ForwardingCollectiveTransport::ExpectConnection(uint32_t srcRank,
                                                uint32_t dstRank,
                                                uint32_t channel)
{
    m_next->ExpectConnection(srcRank, dstRank, channel);
}

void
ForwardingCollectiveTransport::AbandonOperation(uint64_t tagBase, uint32_t nTransfers)
{
    m_next->AbandonOperation(tagBase, nTransfers);
}

void
ForwardingCollectiveTransport::Expect(uint32_t srcRank,
                                      uint32_t dstRank,
                                      uint64_t tag,
                                      uint32_t channel)
{
    m_next->Expect(srcRank, dstRank, tag, channel);
}

bool
ForwardingCollectiveTransport::IsLocal(uint32_t rank) const
{
    return m_next->IsLocal(rank);
}

bool
ForwardingCollectiveTransport::NeedsTransferOrder() const
{
    return m_next->NeedsTransferOrder();
}

void
ForwardingCollectiveTransport::Abort()
{
    m_next->Abort();
}

} // namespace ns3
