/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lossy-roce-fabric-builder.h"

#include "ns3/ecn-marker.h"
#include "ns3/fabric-builder-registry.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/uinteger.h"

namespace ns3
{

static FabricBuilderRegistration<LossyRoceFabricBuilder> g_registration(
    "test-rocev2-lossy",
    "test library: RoCEv2 with PFC off, a full buffer drops");

Ptr<RdmaFabric>
LossyRoceFabricBuilder::Build(const ScenarioConfig& c, const Context& ctx)
{
    RoceFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    helper.SetDeviceAttribute("PfcEnabled", BooleanValue(false));
    helper.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
    helper.SetMmuAttribute("BufferSize", UintegerValue(c.buffer));
    helper.SetCongestionControl(c.cc, c.ccPreset);
    ApplyCongestionControlOverrides(ctx, helper);
    ApplySwitchTiming<RoceSwitch>(c, helper);
    if (!ctx.partition.empty())
    {
        helper.SetPartition(ctx.partition);
    }
    Ptr<RoceFabric> fabric = helper.Install(ctx.graph, ctx.routes);
    fabric->SetPriority(static_cast<uint8_t>(c.priority));
    return fabric;
}

void
LossyRoceFabricBuilder::AddCongestionMarking(nlohmann::json& cc) const
{
    cc["ecn_marker"] = AttributesJson(CreateObject<EcnMarker>());
}

} // namespace ns3
