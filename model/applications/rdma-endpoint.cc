/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-endpoint.h"

#include "ns3/node.h"
#include "ns3/rdma-fabric.h"

#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaEndpoint);

TypeId
RdmaEndpoint::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEndpoint")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RdmaEndpoint>();
    return tid;
}

RdmaEndpoint::RdmaEndpoint() = default;

RdmaEndpoint::~RdmaEndpoint() = default;

void
RdmaEndpoint::DoDispose()
{
    // The fabric holds the Nodes and a Node this endpoint: disposing the Nodes
    // (Simulator::Destroy) breaks that cycle here.
    m_fabric = nullptr;
    Object::DoDispose();
}

void
RdmaEndpoint::Setup(Ptr<RdmaFabric> fabric, uint32_t host, std::shared_ptr<uint32_t> collectives)
{
    m_fabric = fabric;
    m_host = host;
    m_collectives = collectives;
}

uint8_t
RdmaEndpoint::AllocateCollectiveTagSpace()
{
    if (!m_collectives || *m_collectives >= MAX_COLLECTIVES)
    {
        throw std::invalid_argument("too many collectives on one fabric (allowed: up to " +
                                    std::to_string(MAX_COLLECTIVES) + ", one tag space each)");
    }
    return static_cast<uint8_t>(FIRST_COLLECTIVE_TAG_SPACE + (*m_collectives)++);
}

Ptr<RdmaFabric>
RdmaEndpoint::GetFabric() const
{
    return m_fabric;
}

uint32_t
RdmaEndpoint::GetHostIndex() const
{
    return m_host;
}

Ptr<RdmaEndpoint>
RdmaEndpoint::Find(Ptr<Node> node, const std::string& who)
{
    if (!node)
    {
        throw std::invalid_argument(who + ": the node is null");
    }
    Ptr<RdmaEndpoint> endpoint = node->GetObject<RdmaEndpoint>();
    if (!endpoint || !endpoint->m_fabric)
    {
        throw std::invalid_argument(
            who + ": node " + std::to_string(node->GetId()) +
            " has no RDMA device (allowed: a host Node of a FabricTopology on which "
            "RoceFabricHelper::Install or IbFabricHelper::Install installed a fabric)");
    }
    return endpoint;
}

} // namespace ns3
