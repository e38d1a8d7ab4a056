/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IPOIB_HELPER_H
#define IPOIB_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

class IbFabric;

/**
 * \ingroup ai-fabric
 * \brief IP over InfiniBand (RFC 4391, datagram mode) on an IbFabric's hosts, so that
 * ns-3's internet stack (InternetStackHelper, Ipv4AddressHelper, TCP, BulkSend,
 * FlowMonitor) runs over the credit-based fabric.
 *
 *   IpoibHelper ipoib;
 *   NetDeviceContainer ports = ipoib.Install(fabric);  // before the stack
 *   InternetStackHelper().Install(hosts);
 *   Ipv4AddressHelper("10.0.0.0", "255.0.0.0").Assign(ports);
 *   ipoib.PopulateNeighbours(fabric);                  // after the addresses
 *
 * PopulateNeighbours stands for IPoIB's ARP over the broadcast group and the path
 * record queries to the Subnet Administrator: a static table of every host's address,
 * LID and IPoIB QPN in every interface (IbFabric::ResolveIpNeighbours).
 */
class IpoibHelper
{
  public:
    IpoibHelper();

    /// Set an attribute of the IpoibInterface each host gets (ns3::IpoibInterface).
    void SetInterfaceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Give every host of \p fabric an IPoIB interface (IbFabric::EnableIpoib).
     * \return the hosts' HCA ports, host i at index i: the devices to assign
     *         addresses to
     */
    NetDeviceContainer Install(Ptr<IbFabric> fabric) const;

    /// Fill the neighbour tables once the hosts have their IPv4 addresses.
    /// \throws std::invalid_argument if a host has none on its HCA port
    static void PopulateNeighbours(Ptr<IbFabric> fabric);

  private:
    ObjectFactory m_factory; //!< ns3::IpoibInterface
};

} // namespace ns3

#endif // IPOIB_HELPER_H
