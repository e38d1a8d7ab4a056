/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-selective-repeat.h"

#include "ns3/rdma-requester.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaSelectiveRepeat);

TypeId
RdmaSelectiveRepeat::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaSelectiveRepeat")
                            .SetParent<RdmaRecoveryOps>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RdmaSelectiveRepeat>();
    return tid;
}

std::string
RdmaSelectiveRepeat::GetName() const
{
    return "SelectiveRepeat";
}

RdmaReply
RdmaSelectiveRepeat::OnBeyondExpected(RdmaResponder& responder,
                                      uint64_t psn,
                                      uint32_t payloadBytes,
                                      bool last)
{
    if (!responder.Hold(psn, payloadBytes, last))
    {
        return RdmaReply{}; // already held
    }
    if (!responder.IsNakOutstanding() &&
        responder.GetHeldPackets() >= responder.GetReorderThreshold())
    {
        return responder.NakExpected();
    }
    return RdmaReply{};
}

RdmaReply
RdmaSelectiveRepeat::OnAdvancedWithHeld(RdmaResponder& responder)
{
    // Another hole with enough later arrivals: NAK it now (acknowledges all below).
    if (responder.GetHeldPackets() >= responder.GetReorderThreshold())
    {
        return responder.NakExpected();
    }
    return RdmaReply{};
}

void
RdmaSelectiveRepeat::OnNak(RdmaRequester& requester, uint64_t expectedPsn)
{
    requester.ResendOnly(expectedPsn);
}

} // namespace ns3
