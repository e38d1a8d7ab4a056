/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_HELPER_H
#define RDMA_FABRIC_HELPER_H

#include "ns3/attribute.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief What both fabric helpers (RoceFabricHelper, IbFabricHelper) configure the
 * same way: the ports' devices, the host adapters (NICs, HCAs), the switches (each
 * made by an ObjectFactory, so Config::SetDefault and these setters both work) and
 * every queue pair's congestion controller.
 */
class RdmaFabricHelper
{
  public:
    /// \param name an Attribute of the port device \param value its value
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an Attribute of the switch \param value its value
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * The congestion controller of every queue pair.
     * \param algorithm a registered name (CongestionControlRegistry)
     * \param preset a preset of it; "" keeps the attribute defaults
     * \throws std::invalid_argument naming a bad value and what is allowed
     */
    void SetCongestionControl(const std::string& algorithm, const std::string& preset = "");
    /// \param name an Attribute of the controller \param value its value (after the preset)
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    /**
     * The class of every cable: the fabric's channel (RoceChannel, IbChannel) or a
     * subclass of it, e.g. one that carries frames between MPI ranks, as
     * PointToPointRemoteChannel does for point-to-point.
     * \param typeId the TypeId name
     * \throws std::invalid_argument for an unknown TypeId or one that is not the
     *         fabric's channel or derived from it
     */
    void SetChannelType(const std::string& typeId);
    /// \param name an Attribute of the channel \param value its value
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

  protected:
    /**
     * \param device TypeId name of the port device
     * \param host TypeId name of the host adapter
     * \param sw TypeId name of the switch
     * \param channel TypeId name of the cable (SetChannelType accepts it or a subclass)
     */
    RdmaFabricHelper(const std::string& device,
                     const std::string& host,
                     const std::string& sw,
                     const std::string& channel);

    ObjectFactory m_deviceFactory;        //!< one device per port
    ObjectFactory m_hostFactory;          //!< one NIC / HCA per host
    ObjectFactory m_switchFactory;        //!< one switch per switch node
    ObjectFactory m_channelFactory;       //!< one channel per cable
    TypeId m_channelBase;                 //!< the fabric's channel class
    CongestionControlFactory m_ccFactory; //!< every queue pair's controller
};

} // namespace ns3

#endif // RDMA_FABRIC_HELPER_H
