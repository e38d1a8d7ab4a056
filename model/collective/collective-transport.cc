/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-transport.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CollectiveTransport);

TypeId
CollectiveTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveTransport").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

void
CollectiveTransport::SetCallbacks(MessageCallback onDelivered, MessageCallback onSent)
{
    m_onDelivered = onDelivered;
    m_onSent = onSent;
}

void
CollectiveTransport::DoDispose()
{
    m_onDelivered = MessageCallback();
    m_onSent = MessageCallback();
    Object::DoDispose();
}

void
CollectiveTransport::BeginOperation(uint64_t /* tagBase */, uint32_t /* nTransfers */)
{
}

void
CollectiveTransport::ExpectConnection(uint32_t /* srcRank */,
                                      uint32_t /* dstRank */,
                                      uint32_t /* channel */)
{
}

void
CollectiveTransport::AbandonOperation(uint64_t /* tagBase */, uint32_t /* nTransfers */)
{
}

void
CollectiveTransport::Expect(uint32_t /* srcRank */,
                            uint32_t /* dstRank */,
                            uint64_t /* tag */,
                            uint32_t /* channel */)
{
}

bool
CollectiveTransport::IsLocal(uint32_t /* rank */) const
{
    return true;
}

void
CollectiveTransport::Abort()
{
}

bool
CollectiveTransport::NeedsTransferOrder() const
{
    return false;
}

void
CollectiveTransport::NotifyDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    if (!m_onDelivered.IsNull())
    {
        m_onDelivered(src, dst, tag, bytes);
    }
}

void
CollectiveTransport::NotifySent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes)
{
    if (!m_onSent.IsNull())
    {
        m_onSent(src, dst, tag, bytes);
    }
}

} // namespace ns3
