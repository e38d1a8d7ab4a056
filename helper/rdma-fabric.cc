/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric.h"

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

void
RdmaFabric::NotifyMessage(const MessageRecord& r) const
{
    for (const auto& cb : m_messageCallbacks)
    {
        cb(r);
    }
}

void
RdmaFabric::NotifyDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes) const
{
    for (const auto& cb : m_deliveredCallbacks)
    {
        cb(src, dst, tag, bytes);
    }
}

} // namespace ns3
