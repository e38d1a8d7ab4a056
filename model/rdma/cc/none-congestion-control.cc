/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "none-congestion-control.h"

#include "congestion-control-registry.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NoneCongestionControl);
static CongestionControlRegistration<NoneCongestionControl> g_registration(
    "none",
    "no congestion control: line rate, no window");

TypeId
NoneCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NoneCongestionControl")
                            .SetParent<RdmaCongestionControl>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<NoneCongestionControl>();
    return tid;
}

std::string
NoneCongestionControl::GetName() const
{
    return "none";
}

Ptr<RdmaCongestionControl>
NoneCongestionControl::Fork() const
{
    return CopyObject<NoneCongestionControl>(this);
}

} // namespace ns3
