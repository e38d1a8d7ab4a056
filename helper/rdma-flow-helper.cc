/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-helper.h"

#include "ns3/node.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-flow-application.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

RdmaFlowHelper::RdmaFlowHelper(Ptr<Node> remote)
    : m_remote(remote)
{
    m_factory.SetTypeId(RdmaFlowApplication::GetTypeId());
    Ptr<RdmaEndpoint> endpoint = RdmaEndpoint::Find(remote, "RdmaFlowHelper (remote)");
    m_factory.Set("RemoteHost", UintegerValue(endpoint->GetHostIndex()));
}

void
RdmaFlowHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    if (name == "RemoteHost")
    {
        throw std::invalid_argument("RdmaFlowHelper: RemoteHost comes from the remote Node "
                                    "given to the constructor; make another helper instead");
    }
    TypeId::AttributeInformation info;
    if (!RdmaFlowApplication::GetTypeId().LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("RdmaFlowHelper: ns3::RdmaFlowApplication has no Attribute '" +
                                    name +
                                    "' (allowed: MessageSize, MaxMessages, Interval, StartTime, "
                                    "StopTime)");
    }
    if (!info.checker->Check(value))
    {
        throw std::invalid_argument("RdmaFlowHelper: " + name + "=" +
                                    value.SerializeToString(info.checker) + " is out of range (" +
                                    info.help + ")");
    }
    m_factory.Set(name, value);
}

ApplicationContainer
RdmaFlowHelper::Install(NodeContainer nodes) const
{
    Ptr<RdmaEndpoint> remote = RdmaEndpoint::Find(m_remote, "RdmaFlowHelper (remote)");
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RdmaEndpoint> local = RdmaEndpoint::Find(*it, "RdmaFlowHelper::Install");
        if (local->GetFabric() != remote->GetFabric())
        {
            throw std::invalid_argument(
                "RdmaFlowHelper::Install: node " + std::to_string((*it)->GetId()) +
                " is on another fabric than the remote node " + std::to_string(m_remote->GetId()));
        }
        if (*it == m_remote)
        {
            throw std::invalid_argument("RdmaFlowHelper::Install: node " +
                                        std::to_string((*it)->GetId()) +
                                        " is the remote itself (allowed: any other host)");
        }
        Ptr<Application> app = m_factory.Create<RdmaFlowApplication>();
        (*it)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

ApplicationContainer
RdmaFlowHelper::Install(Ptr<Node> node) const
{
    return Install(NodeContainer(node));
}

} // namespace ns3
