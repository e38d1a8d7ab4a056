/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_HELPER_H
#define RDMA_FLOW_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Installs RdmaFlowApplications that send to one remote host, as ns-3's
 * OnOffHelper installs applications that send to one address.
 *
 *   RdmaFlowHelper flow(topology->GetHost(15));
 *   flow.SetAttribute("MessageSize", UintegerValue(1 << 20));
 *   ApplicationContainer apps = flow.Install(topology->GetHost(0));
 *   apps.Start(MicroSeconds(10));
 */
class RdmaFlowHelper
{
  public:
    /**
     * \param remote the receiving host's Node
     * \throws std::invalid_argument when \p remote has no RDMA device
     */
    explicit RdmaFlowHelper(Ptr<Node> remote);

    /**
     * \param name an RdmaFlowApplication Attribute \param value its value
     * \throws std::invalid_argument for RemoteHost (the constructor's remote sets it), an
     *         Attribute the application does not have or a value out of its range
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * One RdmaFlowApplication on each Node.
     * \throws std::invalid_argument naming a node without an RDMA device, on another
     *         fabric than the remote, or that is the remote itself
     */
    ApplicationContainer Install(NodeContainer nodes) const;
    /// \copydoc Install(NodeContainer) const
    ApplicationContainer Install(Ptr<Node> node) const;

  private:
    ObjectFactory m_factory; //!< RdmaFlowApplication with the Attributes set
    Ptr<Node> m_remote;      //!< the receiver
};

} // namespace ns3

#endif // RDMA_FLOW_HELPER_H
