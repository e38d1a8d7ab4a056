/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-control-factory.h"

#include "congestion-control-registry.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionControlFactory");

namespace
{

std::string
Join(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

} // namespace

CongestionControlFactory::CongestionControlFactory()
    : m_algorithm("none")
{
}

CongestionControlFactory::CongestionControlFactory(const std::string& algorithm,
                                                   const std::string& preset)
{
    SetAlgorithm(algorithm);
    SetPreset(preset);
}

CongestionControlFactory::CongestionControlFactory(const CongestionControlFactory& other)
    : m_algorithm(other.m_algorithm),
      m_preset(other.m_preset),
      m_overrides(other.m_overrides)
{
}

CongestionControlFactory&
CongestionControlFactory::operator=(const CongestionControlFactory& other)
{
    m_algorithm = other.m_algorithm;
    m_preset = other.m_preset;
    m_overrides = other.m_overrides;
    m_prototype = nullptr;
    return *this;
}

std::vector<std::string>
CongestionControlFactory::GetAlgorithms()
{
    return CongestionControlRegistry::GetNames();
}

std::string
CongestionControlFactory::GetTypeName(const std::string& algorithm)
{
    return CongestionControlRegistry::Get(algorithm).typeName;
}

std::vector<std::string>
CongestionControlFactory::GetPresets(const std::string& algorithm)
{
    return CongestionControlRegistry::Get(algorithm).presets;
}

std::string
CongestionControlFactory::GetDefaultPreset(const std::string& algorithm)
{
    return CongestionControlRegistry::Get(algorithm).defaultPreset;
}

void
CongestionControlFactory::SetAlgorithm(const std::string& algorithm)
{
    GetTypeName(algorithm);
    m_algorithm = algorithm;
    m_preset.clear();
    m_prototype = nullptr;
}

void
CongestionControlFactory::SetPreset(const std::string& preset)
{
    if (!preset.empty())
    {
        const auto names = GetPresets(m_algorithm);
        if (std::find(names.begin(), names.end(), preset) == names.end())
        {
            throw std::invalid_argument("unknown preset '" + preset + "' for congestion control '" +
                                        m_algorithm + "'; allowed: " + Join(names));
        }
    }
    m_preset = preset;
    m_prototype = nullptr;
}

void
CongestionControlFactory::Set(const std::string& name, const AttributeValue& value)
{
    m_overrides.emplace_back(name, value.Copy());
    m_prototype = nullptr;
}

const std::string&
CongestionControlFactory::GetAlgorithm() const
{
    return m_algorithm;
}

const std::string&
CongestionControlFactory::GetPreset() const
{
    return m_preset;
}

Ptr<RdmaCongestionControl>
CongestionControlFactory::Create() const
{
    if (!m_prototype)
    {
        // The values Create(algorithm, preset) and then Set() would apply, in that
        // order, given at construction instead (the last value of an attribute wins).
        ObjectFactory factory(GetTypeName(m_algorithm));
        if (!m_preset.empty())
        {
            for (const auto& [name, value] :
                 CongestionControlRegistry::Get(m_algorithm).presetValues(m_preset))
            {
                factory.Set(name, StringValue(value));
            }
        }
        for (const auto& [name, value] : m_overrides)
        {
            factory.Set(name, *value);
        }
        m_prototype = factory.Create<RdmaCongestionControl>();
    }
    return m_prototype->Fork();
}

Ptr<RdmaCongestionControl>
CongestionControlFactory::Create(const std::string& algorithm, const std::string& preset)
{
    ObjectFactory factory(GetTypeName(algorithm));
    Ptr<RdmaCongestionControl> cc = factory.Create<RdmaCongestionControl>();
    if (!preset.empty())
    {
        ApplyPreset(cc, preset);
    }
    return cc;
}

void
CongestionControlFactory::ApplyPreset(Ptr<RdmaCongestionControl> cc, const std::string& preset)
{
    NS_ASSERT(cc);
    const std::string algorithm = cc->GetName();
    const auto names = GetPresets(algorithm);
    if (std::find(names.begin(), names.end(), preset) == names.end())
    {
        throw std::invalid_argument("unknown preset '" + preset + "' for congestion control '" +
                                    algorithm + "'; allowed: " + Join(names));
    }
    for (const auto& [name, value] : CongestionControlRegistry::Get(algorithm).presetValues(preset))
    {
        cc->SetAttribute(name, StringValue(value));
    }
}

} // namespace ns3
