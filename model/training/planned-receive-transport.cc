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
                            .SetParent<ForwardingCollectiveTransport>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PlannedReceiveTransport>();
    return tid;
}

PlannedReceiveTransport::PlannedReceiveTransport() = default;

PlannedReceiveTransport::~PlannedReceiveTransport() = default;

void
PlannedReceiveTransport::SetInner(Ptr<CollectiveTransport> inner)
{
    SetForwardTo(inner);
}

Ptr<CollectiveTransport>
PlannedReceiveTransport::GetInner() const
{
    return GetForwardTo();
}

void
PlannedReceiveTransport::PostReceive(uint32_t srcRank,
                                     uint32_t dstRank,
                                     uint64_t tag,
                                     uint32_t channel)
{
    ForwardingCollectiveTransport::Expect(srcRank, dstRank, tag, channel);
}

void
PlannedReceiveTransport::Expect(uint32_t, uint32_t, uint64_t, uint32_t)
{
}

} // namespace ns3
