/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_HELPER_H
#define RDMA_FABRIC_HELPER_H

#include "ns3/abort.h"
#include "ns3/attribute.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-fabric.h"
#include "ns3/topology-graph.h"

#include <string>
#include <vector>

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
     * The TypeId named \p typeId, checked to be \p base or derived from it (an
     * ObjectFactory given an unknown name would make a null object).
     * \param what what the type is for, in the message ("channel type")
     * \throws std::invalid_argument naming \p typeId and what is allowed
     */
    static TypeId LookupSubclass(const std::string& typeId, TypeId base, const std::string& what);

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

    /**
     * A fabric's ports and cables: \p nodes gets one Node per graph node and each one
     * Device per port, in port order (a port's ifIndex is its number; \p configure
     * runs on each new device); one Channel per cable with the cable's delay, and both
     * of its ports at the cable's rate. \p devices: by graph node, port; \p channels
     * (if not null): by graph link.
     */
    template <typename Device, typename Channel, typename Configure>
    void InstallPorts(const TopologyGraph& graph,
                      NodeContainer& nodes,
                      std::vector<std::vector<Ptr<Device>>>& devices,
                      std::vector<Ptr<Channel>>* channels,
                      Configure configure) const;

    /**
     * The host adapter of host \p host (graph node \p node, \p ports ports: the
     * \p model has exactly one), aggregated to \p nodeObject, its completions
     * reported to \p fabric; the caller then attaches it to its port (Setup).
     */
    template <typename Host>
    Ptr<Host> CreateHost(RdmaFabric& fabric,
                         Ptr<Node> nodeObject,
                         uint32_t host,
                         std::size_t ports,
                         const char* model) const;

    /// Compute ICRCs/VCRCs into frames if ns-3's ChecksumEnabled GlobalValue is true.
    static void ApplyChecksumEnabled();

  public:
    /**
     * What is wrong with ns-3's time resolution \p unit for this model: "" for
     * picoseconds (Time::PS), else one message naming the resolution and the call
     * that fixes it.
     * \param unit a resolution (Time::GetResolution())
     * \param who what needs picoseconds, first in the message ("RoceFabricHelper::Install")
     */
    static std::string TimeResolutionProblem(Time::Unit unit, const std::string& who);

  protected:
    /**
     * Stop (NS_FATAL_ERROR, TimeResolutionProblem's message) unless ns-3's time
     * resolution is picoseconds: every Install calls it first. It does not set the
     * resolution itself (see the definition for why).
     * \param who the caller, for the message
     */
    static void RequirePicoseconds(const std::string& who);

    ObjectFactory m_deviceFactory;        //!< one device per port
    ObjectFactory m_hostFactory;          //!< one NIC / HCA per host
    ObjectFactory m_switchFactory;        //!< one switch per switch node
    ObjectFactory m_channelFactory;       //!< one channel per cable
    TypeId m_channelBase;                 //!< the fabric's channel class
    CongestionControlFactory m_ccFactory; //!< every queue pair's controller
};

template <typename Device, typename Channel, typename Configure>
void
RdmaFabricHelper::InstallPorts(const TopologyGraph& graph,
                               NodeContainer& nodes,
                               std::vector<std::vector<Ptr<Device>>>& devices,
                               std::vector<Ptr<Channel>>* channels,
                               Configure configure) const
{
    ApplyChecksumEnabled();
    const uint32_t n = graph.GetNNodes();
    nodes.Create(n);
    devices.resize(n);
    for (uint32_t node = 0; node < n; ++node)
    {
        Ptr<Node> nodeObject = nodes.Get(node);
        for (std::size_t port = 0; port < graph.GetPorts(node).size(); ++port)
        {
            Ptr<Device> dev = m_deviceFactory.Create<Device>();
            configure(*dev);
            nodeObject->AddDevice(dev);
            devices[node].push_back(dev);
        }
    }
    for (uint32_t l = 0; l < graph.GetNLinks(); ++l)
    {
        const TopologyGraph::Link& link = graph.GetLink(l);
        Ptr<Channel> ch = m_channelFactory.Create<Channel>();
        ch->SetAttribute("Delay", TimeValue(link.delay));
        if (channels != nullptr)
        {
            channels->push_back(ch);
        }
        for (auto [node, port] :
             {std::make_pair(link.a, link.portA), std::make_pair(link.b, link.portB)})
        {
            Ptr<Device> dev = devices[node][port];
            dev->SetAttribute("DataRate", DataRateValue(link.rate));
            dev->Attach(ch);
        }
    }
}

template <typename Host>
Ptr<Host>
RdmaFabricHelper::CreateHost(RdmaFabric& fabric,
                             Ptr<Node> nodeObject,
                             uint32_t host,
                             std::size_t ports,
                             const char* model) const
{
    NS_ABORT_MSG_IF(ports != 1,
                    "host " << host << " has " << ports << " ports; the " << model
                            << " model has exactly one");
    Ptr<Host> adapter = m_hostFactory.Create<Host>();
    nodeObject->AggregateObject(adapter);
    // A raw pointer: the fabric owns its adapters, so a counted one would be a cycle.
    adapter->TraceConnectWithoutContext("MessageSent",
                                        MakeCallback(&RdmaFabric::OnMessageSent, &fabric));
    adapter->TraceConnectWithoutContext("MessageDelivered",
                                        MakeCallback(&RdmaFabric::OnDelivered, &fabric));
    return adapter;
}

} // namespace ns3

#endif // RDMA_FABRIC_HELPER_H
