/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/roce-switch.h"
#include "ns3/uet-nic.h"
#include "ns3/uet-trimmer.h"
#include "ns3/uinteger.h"

namespace ns3
{

UetFabricHelper::UetFabricHelper()
{
    m_hostFactory.SetTypeId(UetNic::GetTypeId());
    m_trimmerFactory.SetTypeId(UetTrimmer::GetTypeId());
    // UET needs no lossless class: loss is recovered end to end (and trims warn early).
    SetDeviceAttribute("PfcEnabled", BooleanValue(false));
    SetMmuAttribute("LosslessPriorities", UintegerValue(0));
    // UET has no CNP: a receiver echoes ECN CE in its ACKs (the PDS ACK's M flag).
    SetNicAttribute("EcnEchoInAck", BooleanValue(true));
}

void
UetFabricHelper::SetTrimming(bool on)
{
    m_trimming = on;
}

void
UetFabricHelper::SetTrimmerAttribute(const std::string& name, const AttributeValue& value)
{
    m_trimmerFactory.Set(name, value);
}

Ptr<RoceFabric>
UetFabricHelper::Install(Ptr<TopologyGraph> graph, Ptr<const RouteTable> routes) const
{
    Ptr<RoceFabric> fabric = RoceFabricHelper::Install(graph, routes);
    if (m_trimming)
    {
        for (const Ptr<RoceSwitch>& sw : fabric->GetSwitches())
        {
            sw->SetTrimmer(m_trimmerFactory.Create<UetTrimmer>());
        }
    }
    return fabric;
}

} // namespace ns3
