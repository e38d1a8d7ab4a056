/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "rdma-queue-pair.h"

#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddTraceSource("MessageSent",
                            "A message's last byte was acknowledged (sender completion)",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageSentTrace),
                            "ns3::RdmaNic::MessageSentTracedCallback")
            .AddTraceSource("MessageDelivered",
                            "A message's last byte was placed (receiver completion)",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageDeliveredTrace),
                            "ns3::RdmaNic::MessageDeliveredTracedCallback");
    return tid;
}

const std::vector<Ptr<RdmaQueuePair>>&
RdmaNic::GetQueuePairs() const
{
    return m_qps;
}

uint64_t
RdmaNic::GetRetransmittedPackets() const
{
    uint64_t n = 0;
    for (const auto& qp : m_qps)
    {
        n += qp->GetRetransmittedPackets();
    }
    return n;
}

uint64_t
RdmaNic::GetTimeouts() const
{
    uint64_t n = 0;
    for (const auto& qp : m_qps)
    {
        n += qp->GetTimeouts();
    }
    return n;
}

uint64_t
RdmaNic::GetOutOfOrderPackets() const
{
    uint64_t n = 0;
    for (const auto& qp : m_qps)
    {
        n += qp->GetOutOfOrderPackets();
    }
    return n;
}

uint64_t
RdmaNic::GetSpuriousRetransmissions() const
{
    uint64_t n = 0;
    for (const auto& qp : m_qps)
    {
        n += qp->GetSpuriousRetransmissions();
    }
    return n;
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

void
RdmaNic::DisposeQueuePairs()
{
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
}

void
RdmaNic::MessageSent(Ptr<RdmaQueuePair> qp, const RdmaMessage& m)
{
    m_messageSentTrace(qp, m);
}

void
RdmaNic::MessageDelivered(Ptr<RdmaQueuePair> qp, uint64_t tag, uint64_t bytes)
{
    m_messageDeliveredTrace(qp, tag, bytes);
}

} // namespace ns3
