/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-recovery-ops.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaRecoveryOps);

TypeId
RdmaRecoveryOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRecoveryOps").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

RdmaRecoveryOps::~RdmaRecoveryOps() = default;

RdmaReply
RdmaRecoveryOps::OnAdvancedWithHeld(RdmaResponder& /* responder */)
{
    return RdmaReply{};
}

} // namespace ns3
