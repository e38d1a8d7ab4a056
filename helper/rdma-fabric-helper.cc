/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric-helper.h"

namespace ns3
{

RdmaFabricHelper::RdmaFabricHelper(const std::string& device,
                                   const std::string& host,
                                   const std::string& sw)
{
    m_deviceFactory.SetTypeId(device);
    m_hostFactory.SetTypeId(host);
    m_switchFactory.SetTypeId(sw);
}

void
RdmaFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RdmaFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RdmaFabricHelper::SetCongestionControl(const std::string& algorithm, const std::string& preset)
{
    m_ccFactory.SetAlgorithm(algorithm);
    m_ccFactory.SetPreset(preset);
}

void
RdmaFabricHelper::SetCongestionControlAttribute(const std::string& name,
                                                const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

} // namespace ns3
