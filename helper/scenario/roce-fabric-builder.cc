/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-fabric-builder.h"

#include "fabric-builder-registry.h"

#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/ecn-marker.h"
#include "ns3/ets-weights.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/route-table.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

static FabricBuilderRegistration<RoceFabricBuilder> g_registration("rocev2",
                                                                   "RoCEv2: Ethernet, PFC and ECN");

bool
RoceFabricBuilder::MarksEcn() const
{
    return true;
}

std::string
RoceFabricBuilder::DefaultCcPreset(const CongestionControlRegistry::Entry& cc) const
{
    return !cc.scenarioPreset.empty() ? cc.scenarioPreset : cc.defaultPreset;
}

Ptr<RdmaFabric>
RoceFabricBuilder::Build(const ScenarioConfig& c, const Context& ctx)
{
    RoceFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    helper.SetDeviceAttribute("PfcEnabled", BooleanValue(c.pfc));
    helper.SetSwitchAttribute("EcnEnabled", BooleanValue(c.ecn.value_or(true)));
    helper.SetNicAttribute("EcnCapable", BooleanValue(c.ecn.value_or(true)));
    if (ctx.routes->GetClassRule() == RouteTable::ClassRule::PATH_LAYER &&
        ctx.routes->GetNumClasses() > 1)
    {
        // The layer is a per-destination SL the IB HCA stamps; a RoCEv2 queue pair sends
        // on one priority, so the layers would collapse into one class.
        throw ConfigError("--routing=" + c.routing + " needs " +
                          std::to_string(ctx.routes->GetNumClasses()) +
                          " virtual layers on this topology, a service level per (source, "
                          "destination) that only the InfiniBand HCA stamps: allowed with "
                          "--fabric=infiniband (on RoCEv2: updown, or dor on a torus)");
    }
    // Routing classes (torus dateline, dragonfly global hops) travel on consecutive
    // priorities from --priority up; all of them are lossless when PFC is on.
    uint32_t classes = ctx.routes->GetNumClasses();
    if (c.priority + classes - 1 > 6)
    {
        throw ConfigError("--priority=" + std::to_string(c.priority) + ": --routing=" + c.routing +
                          " on this topology needs " + std::to_string(classes) +
                          " priorities, so at most " + std::to_string(7 - classes) +
                          " (priority 7 carries CNPs)");
    }
    helper.SetSwitchAttribute("ClassBasePriority", UintegerValue(c.priority));
    helper.SetMmuAttribute("BufferSize", UintegerValue(c.buffer));
    helper.SetMmuAttribute("AllowLossyHeadroom", BooleanValue(c.allowLossyHeadroom));
    // The routing classes' priorities: lossless with PFC, and what a stalled NIC pauses.
    const auto classPriorities = static_cast<uint8_t>(((1U << classes) - 1) << c.priority);
    // The traffic classes of --ets-weights (jobs' classes) are lossless too (PFC per class).
    const uint8_t etsClasses = EtsWeights::Parse(c.etsWeights).GetNamedMask();
    helper.SetMmuAttribute("LosslessPriorities",
                           UintegerValue(c.pfc ? (classPriorities | etsClasses) : 0U));
    helper.SetEgressPolicy(LoadBalancing(c.lb).roceEgressPolicy);
    ConfigureEcnMarking(c);
    return InstallEthernet(helper, c, ctx, "rocev2");
}

void
RoceFabricBuilder::ConfigureEcnMarking(const ScenarioConfig& c)
{
    // The preset's congestion point (DCQCN: the switches' ECN marking of the same source
    // as its reaction point); the runner resolved '' to the preset used.
    try
    {
        for (const auto& [name, value] :
             CongestionControlRegistry::Get(c.cc).switchValues(c.ccPreset))
        {
            Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--cc=") + c.cc + " --cc-preset=" + c.ccPreset + ": " +
                          e.what());
    }
    ApplyEcnThresholds(c);
}

void
RoceFabricBuilder::AddCongestionMarking(nlohmann::json& cc) const
{
    cc["ecn_marker"] = AttributesJson(CreateObject<EcnMarker>());
}

} // namespace ns3
