/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-go-back-n.h"

#include "ns3/rdma-requester.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaGoBackN);

TypeId
RdmaGoBackN::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaGoBackN")
                            .SetParent<RdmaRecoveryOps>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RdmaGoBackN>();
    return tid;
}

std::string
RdmaGoBackN::GetName() const
{
    return "GoBackN";
}

RdmaReply
RdmaGoBackN::OnBeyondExpected(RdmaResponder& responder,
                              uint64_t psn,
                              uint32_t /* payloadBytes */,
                              bool /* last */)
{
    // Discard it (remembering it was seen, for the spurious-retransmission count)
    // and NAK once per expected PSN.
    responder.MarkSeen(psn);
    if (responder.IsNakOutstanding())
    {
        return RdmaReply{};
    }
    return responder.NakExpected();
}

void
RdmaGoBackN::OnNak(RdmaRequester& requester, uint64_t expectedPsn)
{
    requester.GoBackTo(expectedPsn);
}

} // namespace ns3
