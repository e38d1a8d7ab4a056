/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric-helper.h"

#include "ns3/icrc-trailer.h"
#include "ns3/node.h"

#include <stdexcept>

namespace ns3
{

RdmaFabricHelper::RdmaFabricHelper(const std::string& device,
                                   const std::string& host,
                                   const std::string& sw,
                                   const std::string& channel)
    : m_channelBase(TypeId::LookupByName(channel))
{
    m_deviceFactory.SetTypeId(device);
    m_hostFactory.SetTypeId(host);
    m_switchFactory.SetTypeId(sw);
    m_channelFactory.SetTypeId(channel);
}

void
RdmaFabricHelper::ApplyChecksumEnabled()
{
    IcrcTrailer::SetComputeEnabled(Node::ChecksumEnabled());
}

TypeId
RdmaFabricHelper::LookupSubclass(const std::string& typeId, TypeId base, const std::string& what)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid))
    {
        throw std::invalid_argument(what + " '" + typeId + "' is not a registered TypeId");
    }
    if (tid != base && !tid.IsChildOf(base))
    {
        throw std::invalid_argument(what + " '" + typeId + "' is not " + base.GetName() +
                                    " or a subclass of it");
    }
    return tid;
}

void
RdmaFabricHelper::SetChannelType(const std::string& typeId)
{
    m_channelFactory.SetTypeId(LookupSubclass(typeId, m_channelBase, "channel type"));
}

void
RdmaFabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
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
