/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-builder.h"

#include "memory-estimate.h"

#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

FabricBuilder::~FabricBuilder() = default;

void
FabricBuilder::ConfigureDefaults(const ScenarioConfig& /* c */) const
{
}

FabricBuilder::LinkLayer
FabricBuilder::GetLinkLayer() const
{
    return LinkLayer::ETHERNET;
}

bool
FabricBuilder::CarriesPfc() const
{
    return GetLinkLayer() == LinkLayer::ETHERNET;
}

uint64_t
FabricBuilder::GetBytesPerCable() const
{
    return MemoryEstimate::ROCE_BYTES_PER_CABLE;
}

bool
FabricBuilder::MarksEcn() const
{
    return false;
}

std::string
FabricBuilder::DefaultCcPreset(const CongestionControlRegistry::Entry& cc) const
{
    return cc.defaultPreset;
}

std::pair<Time, bool>
FabricBuilder::GetSwitchTiming() const
{
    return m_switchTiming;
}

nlohmann::json
FabricBuilder::AttributesJson(Ptr<Object> object)
{
    nlohmann::json j = nlohmann::json::object();
    for (TypeId tid = object->GetInstanceTypeId(); tid != Object::GetTypeId();
         tid = tid.GetParent())
    {
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(i);
            if ((info.flags & TypeId::ATTR_GET) && info.checker->HasUnderlyingTypeInformation())
            {
                StringValue v;
                object->GetAttribute(info.name, v);
                j[info.name] = v.Get();
            }
        }
    }
    return j;
}

std::string
FabricBuilder::DefaultOf(const std::string& type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    TypeId::LookupByName(type).LookupAttributeByName(attribute, &info);
    return info.initialValue->SerializeToString(info.checker);
}

void
FabricBuilder::ApplyCongestionControlOverrides(const Context& ctx, RdmaFabricHelper& helper)
{
    for (const auto& [attr, value] : ctx.ccOverrides)
    {
        helper.SetCongestionControlAttribute(attr, StringValue(value));
    }
}

const LoadBalancingRegistry::Entry&
FabricBuilder::LoadBalancing(const std::string& name)
{
    try
    {
        return LoadBalancingRegistry::Get(name);
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--lb: ") + e.what());
    }
}

void
FabricBuilder::ApplyEcnThresholds(const ScenarioConfig& c)
{
    if (c.kmin || c.kmax || c.pmax)
    {
        Config::SetDefault("ns3::EcnMarker::ScaleWithRate", BooleanValue(false));
        if (c.kmin)
        {
            Config::SetDefault("ns3::EcnMarker::Kmin", UintegerValue(*c.kmin));
        }
        if (c.kmax)
        {
            Config::SetDefault("ns3::EcnMarker::Kmax", UintegerValue(*c.kmax));
        }
        if (c.pmax)
        {
            Config::SetDefault("ns3::EcnMarker::Pmax", DoubleValue(*c.pmax));
        }
    }
}

} // namespace ns3
