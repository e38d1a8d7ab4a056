/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-helper.h"

#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/collective-rank-application.h"
#include "ns3/communicator.h"
#include "ns3/node.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <memory>
#include <set>
#include <stdexcept>

namespace ns3
{

CollectiveHelper::CollectiveHelper(const std::string& algorithm,
                                   uint64_t bytes,
                                   uint32_t iterations)
{
    m_factory.SetTypeId(CollectiveRankApplication::GetTypeId());
    m_factory.Set("Algorithm", StringValue(algorithm));
    m_factory.Set("Bytes", UintegerValue(bytes));
    SetAttribute("Iterations", UintegerValue(iterations));
}

void
CollectiveHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (!CollectiveRankApplication::GetTypeId().LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("CollectiveHelper: ns3::CollectiveRankApplication has no "
                                    "Attribute '" +
                                    name +
                                    "' (allowed: Operation, Algorithm, Bytes, Iterations, "
                                    "ComputeGap, StartTime, StopTime)");
    }
    if (!info.checker->Check(value))
    {
        throw std::invalid_argument("CollectiveHelper: " + name + "=" +
                                    value.SerializeToString(info.checker) + " is out of range (" +
                                    info.help + ")");
    }
    m_factory.Set(name, value);
}

void
CollectiveHelper::SetAlgorithmAttribute(const std::string& name, const AttributeValue& value)
{
    m_algorithmAttributes.emplace_back(name, value.Copy());
}

ApplicationContainer
CollectiveHelper::Install(NodeContainer nodes) const
{
    const std::string who = "CollectiveHelper::Install";
    // The collective's parameters, as every rank will hold them.
    Ptr<CollectiveRankApplication> proto = m_factory.Create<CollectiveRankApplication>();
    CollectiveOp op;
    try
    {
        op = CollectiveOpFromString(proto->m_operation);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(who + ": Operation: " + e.what());
    }
    if (proto->m_bytes == 0)
    {
        throw std::invalid_argument(who + ": Bytes is 0; allowed: 1 byte per rank or more");
    }
    if (nodes.GetN() < 2)
    {
        throw std::invalid_argument(who + ": " + std::to_string(nodes.GetN()) +
                                    " ranks; allowed: 2 or more Nodes");
    }
    std::vector<uint32_t> hosts;
    std::set<uint32_t> seen;
    Ptr<RdmaEndpoint> first;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<RdmaEndpoint> endpoint = RdmaEndpoint::Find(*it, who);
        if (!first)
        {
            first = endpoint;
        }
        else if (endpoint->GetFabric() != first->GetFabric())
        {
            throw std::invalid_argument(who + ": node " + std::to_string((*it)->GetId()) +
                                        " is on another fabric than the first rank's");
        }
        if (!seen.insert((*it)->GetId()).second)
        {
            throw std::invalid_argument(who + ": node " + std::to_string((*it)->GetId()) +
                                        " is given twice (allowed: each Node once)");
        }
        hosts.push_back(endpoint->GetHostIndex());
    }
    Ptr<CollectiveAlgorithm> algorithm;
    try
    {
        algorithm = CollectiveAlgorithm::Create(op, proto->m_algorithm);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(who + ": Algorithm=" + proto->m_algorithm + " for " +
                                    proto->m_operation + ": " + e.what());
    }
    for (const auto& [name, value] : m_algorithmAttributes)
    {
        TypeId::AttributeInformation info;
        if (!algorithm->GetInstanceTypeId().LookupAttributeByName(name, &info) ||
            !info.checker->Check(*value))
        {
            throw std::invalid_argument(
                who + ": algorithm " + algorithm->GetInstanceTypeId().GetName() +
                " has no Attribute '" + name + "' that takes the value given");
        }
        algorithm->SetAttribute(name, *value);
    }

    auto group = std::make_shared<CollectiveRankApplication::Group>();
    group->transport = CreateObject<RdmaCollectiveTransport>();
    // The transport and the application must agree on the tag space: one no other
    // collective on this fabric has.
    const uint8_t tagSpace = first->AllocateCollectiveTagSpace();
    group->transport->SetAttribute("TagSpace", UintegerValue(tagSpace));
    group->transport->Attach(first->GetFabric(), hosts);
    group->app = CreateObject<CollectiveApplication>();
    group->app->SetAttribute("TagSpace", UintegerValue(tagSpace));
    group->app->SetAttribute("Iterations", UintegerValue(proto->m_iterations));
    group->app->SetAttribute("ComputeGap", TimeValue(proto->m_computeGap));
    group->app->SetTransport(group->transport);
    try
    {
        // Communicator ranks are transport ranks, which the transport maps to hosts.
        group->app->AddJob(Communicator::AllHosts(nodes.GetN()), algorithm, proto->m_bytes);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(who + ": Algorithm=" + proto->m_algorithm + " on " +
                                    std::to_string(nodes.GetN()) + " ranks: " + e.what());
    }
    group->ranks.assign(nodes.GetN(), nullptr);
    ApplicationContainer apps;
    uint32_t rank = 0;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it, ++rank)
    {
        Ptr<CollectiveRankApplication> app = m_factory.Create<CollectiveRankApplication>();
        app->Join(group, rank);
        (*it)->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

} // namespace ns3
