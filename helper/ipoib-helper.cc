/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ipoib-helper.h"

#include "ns3/ib-fabric.h"
#include "ns3/log.h"
#include "ns3/net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IpoibHelper");

IpoibHelper::IpoibHelper()
{
    m_factory.SetTypeId("ns3::IpoibInterface");
}

void
IpoibHelper::SetInterfaceAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

NetDeviceContainer
IpoibHelper::Install(Ptr<IbFabric> fabric) const
{
    fabric->EnableIpoib(m_factory);
    NetDeviceContainer ports;
    for (uint32_t h = 0; h < fabric->GetNHosts(); ++h)
    {
        ports.Add(fabric->GetIpDevice(h));
    }
    return ports;
}

void
IpoibHelper::PopulateNeighbours(Ptr<IbFabric> fabric)
{
    fabric->ResolveIpNeighbours();
}

} // namespace ns3
