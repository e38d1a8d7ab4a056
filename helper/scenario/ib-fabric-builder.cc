/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-fabric-builder.h"

#include "fabric-builder-registry.h"
#include "memory-estimate.h"

#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-switch.h"
#include "ns3/ibta-congestion-control.h"
#include "ns3/route-table.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

static FabricBuilderRegistration<IbFabricBuilder> g_registration(
    "infiniband",
    "InfiniBand: credit-based links, 64-byte credits");

namespace
{
/// FECN threshold of the switches under --cc=ibta when not set: four 4 KiB packets.
constexpr uint32_t IBTA_FECN_THRESHOLD = 16384;

/// Whether --cc is the IBTA law (its TypeId, not its name).
bool
RunsIbta(const ScenarioConfig& c)
{
    return CongestionControlRegistry::Has(c.cc) && CongestionControlRegistry::Get(c.cc).typeName ==
                                                       IbtaCongestionControl::GetTypeId().GetName();
}

/// Refuse what an InfiniBand fabric cannot run: an MTU that is no IB path MTU, a --cc
/// that reads ECN echoed in ACKs, ACKs on a fixed SL under layered routing.
void
CheckInfiniBandConfig(const ScenarioConfig& c, const FabricBuilder::Context& ctx)
{
    if (c.mtu != 256 && c.mtu != 512 && c.mtu != 1024 && c.mtu != 2048 && c.mtu != 4096)
    {
        throw ConfigError("--mtu=" + std::to_string(c.mtu) +
                          " is not an InfiniBand path MTU; with --fabric=infiniband allowed "
                          "256, 512, 1024, 2048, 4096");
    }
    if (CongestionControlRegistry::Has(c.cc) && CongestionControlRegistry::Get(c.cc).ecnEchoInAck)
    {
        // The IB HCA returns BECN in CNPs, not ECN CE echoed in every ACK.
        throw ConfigError("--cc=" + c.cc +
                          " reads ECN CE echoed in ACKs, which only the RoCEv2 NIC sends; "
                          "allowed with --fabric=rocev2 (on InfiniBand: --cc=ibta or dcqcn)");
    }
    if (c.ackPriority >= 0 && ctx.routes->GetClassRule() == RouteTable::ClassRule::PATH_LAYER &&
        ctx.routes->GetNumClasses() > 1)
    {
        // ACKs on one fixed SL would leave their path's layer and could close a cycle.
        throw ConfigError("--ack-priority=" + std::to_string(c.ackPriority) +
                          ": --routing=" + c.routing +
                          " sends every packet, ACKs too, on the SL of its path's "
                          "virtual layer; allowed with it: '' (the data's SL)");
    }
}

/// The SM's QoS policy (--qos-vlarb-low) and the pcaps' records (--ib-pcap-format) on
/// the installed fabric \p ib.
void
ApplyFabricSettings(const ScenarioConfig& c, Ptr<IbFabric> ib)
{
    if (!c.qosVlarbLow.empty())
    {
        // The SM's QoS policy (--qos-vlarb-low), programmed into every port
        IbQosPolicy policy;
        policy.low = IbQosPolicy::ParseTable(c.qosVlarbLow);
        try
        {
            ib->ApplyQosPolicy(policy);
        }
        catch (const std::invalid_argument& e)
        {
            throw ConfigError("--qos-vlarb-low=" + c.qosVlarbLow + ": " + e.what());
        }
    }
    if (c.ibPcapFormat != ScenarioConfig().ibPcapFormat)
    {
        // The records of the pcaps EnablePcap writes (--pcap=1; the flag needs it), in
        // the order of the knob's values (erf, raw).
        const IbPcapWriter::Format formats[] = {IbPcapWriter::ERF, IbPcapWriter::RAW};
        ib->SetAttribute("PcapFormat", EnumValue(formats[c.ChoiceIndex("ib-pcap-format")]));
    }
}

} // namespace

FabricBuilder::LinkLayer
IbFabricBuilder::GetLinkLayer() const
{
    return LinkLayer::INFINIBAND;
}

uint64_t
IbFabricBuilder::GetBytesPerCable() const
{
    return MemoryEstimate::IB_BYTES_PER_CABLE;
}

void
IbFabricBuilder::ConfigureDefaults(const ScenarioConfig& c) const
{
    if (RunsIbta(c))
    {
        // The IBTA law needs its switch half and a BECN per FECN (Annex A10); without
        // marking it would never act. --ns3:: overrides of either still win.
        Config::SetDefault("ns3::IbSwitch::FecnThreshold", UintegerValue(IBTA_FECN_THRESHOLD));
        Config::SetDefault("ns3::RdmaQueuePair::CnpInterval", TimeValue(Time(0)));
    }
}

void
IbFabricBuilder::SetLoadBalancing(const ScenarioConfig& c, IbFabricHelper& helper)
{
    switch (LoadBalancing(c.lb).infiniband)
    {
    case LoadBalancingRegistry::IB_STATIC:
        break;
    case LoadBalancingRegistry::IB_ADAPTIVE:
        helper.SetSwitchAttribute("AdaptiveRouting", BooleanValue(true));
        break;
    case LoadBalancingRegistry::IB_NONE: {
        std::string allowed;
        for (const std::string& name : LoadBalancingRegistry::GetNames())
        {
            if (LoadBalancingRegistry::Get(name).infiniband != LoadBalancingRegistry::IB_NONE)
            {
                allowed += (allowed.empty() ? "" : ", ") + name;
            }
        }
        throw ConfigError("--lb=" + c.lb + ": with --fabric=infiniband allowed " + allowed);
    }
    }
}

Ptr<RdmaFabric>
IbFabricBuilder::Build(const ScenarioConfig& c, const Context& ctx)
{
    CheckInfiniBandConfig(c, ctx);
    IbFabricHelper helper;
    helper.SetHcaAttribute("Mtu", UintegerValue(c.mtu));
    SetLoadBalancing(c, helper);
    ApplySwitchTiming<IbSwitch>(c, helper);
    if (!ctx.partition.empty())
    {
        helper.SetPartition(ctx.partition);
    }
    Ptr<IbFabric> ib;
    try
    {
        helper.SetCongestionControl(c.cc, c.ccPreset);
        ApplyCongestionControlOverrides(ctx, helper); // --ns3:: defaults win over the preset
        ib = helper.Install(ctx.graph, ctx.routes);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--fabric=infiniband: ") + e.what());
    }
    ApplyFabricSettings(c, ib);
    return ib;
}

void
IbFabricBuilder::AddCongestionMarking(nlohmann::json& cc) const
{
    // The switches' FECN marking and the destination's BECN pacing, as run.
    cc["fecn_marking"] = {{"FecnThreshold", DefaultOf("ns3::IbSwitch", "FecnThreshold")},
                          {"FecnMarkingRate", DefaultOf("ns3::IbSwitch", "FecnMarkingRate")},
                          {"FecnPacketSize", DefaultOf("ns3::IbSwitch", "FecnPacketSize")},
                          {"CnpInterval", DefaultOf("ns3::RdmaQueuePair", "CnpInterval")}};
}

} // namespace ns3
