/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-port-policy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EgressPortPolicy);

TypeId
EgressPortPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EgressPortPolicy").SetParent<Object>().SetGroupName("AiFabric");
    return tid;
}

int64_t
EgressPortPolicy::AssignStreams(int64_t /* stream */)
{
    return 0;
}

} // namespace ns3
