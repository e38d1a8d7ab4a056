/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_HELPER_H
#define RDMA_FABRIC_HELPER_H

#include "ns3/abort.h"
#include "ns3/attribute.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-topology.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-fabric.h"
#include "ns3/topology-graph.h"
#include "ns3/trace-helper.h"

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
class RdmaFabricHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    ~RdmaFabricHelper() override = default;

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
    /**
     * The congestion controller of every queue pair, as ns-3 helpers take a type and
     * its Attributes: \p type is a TypeId name ("ns3::DcqcnCongestionControl") or a
     * registered name ("dcqcn"); its Attribute defaults apply (no preset), then the
     * pairs given (an empty name ends the list).
     * \throws std::invalid_argument for an unknown type (naming the allowed ones) or
     *         an Attribute the type does not have
     */
    void SetCongestionControl(const std::string& type,
                              const std::string& n1,
                              const AttributeValue& v1,
                              const std::string& n2 = "",
                              const AttributeValue& v2 = EmptyAttributeValue(),
                              const std::string& n3 = "",
                              const AttributeValue& v3 = EmptyAttributeValue(),
                              const std::string& n4 = "",
                              const AttributeValue& v4 = EmptyAttributeValue());
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
    /**
     * Simulate node i of the graphs installed next on MPI rank \p systemIds[i]: each
     * Node is created with that system id, and each cable whose ends' ids differ is the
     * fabric's remote channel (RoceRemoteChannel, IbRemoteChannel: SetChannelAttribute
     * applies to it too), which carries frames between ranks with its delay as the
     * lookahead. Empty (the default): every node on system 0, the plain channel.
     * A partition comes from RankPartition::Partition. With nodes given by a
     * FabricTopology, their own system ids decide the cables.
     */
    void SetPartition(std::vector<uint32_t> systemIds);
    /// \return the partition SetPartition set (empty: none)
    const std::vector<uint32_t>& GetPartition() const;

  protected:
    /**
     * Pcap of one port device (PcapHelperForDevice): the fabric's link type (RoCEv2:
     * Ethernet, 1; InfiniBand: the default of ns3::IbFabric::PcapFormat, ERF 197 with an
     * ERF header before each packet, or raw 247), nanosecond timestamps, whole frames (up to
     * RdmaFabric::MAX_PCAP_SNAP_LENGTH), every frame the device's PromiscSniffer
     * gives, in PREFIX-NODEID-DEVICEID.pcap (ns-3's naming: Node id and device index)
     * unless \p explicitFilename. \p promiscuous changes nothing (a port sees only its
     * own cable). A device of another class is skipped (logged), as ns-3's helpers do.
     */
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    /**
     * ASCII trace of one port device (AsciiTraceHelperForDevice), in ns-3's format
     * (AsciiTraceHelper's default sinks): "-" when a frame starts on the wire
     * (PhyTxBegin), "r" when a RoCEv2 frame has fully arrived (PhyRxEnd), "d" when an
     * InfiniBand packet was lost on a failed cable (LinkDownDrop).
     */
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    /**
     * Check that a fabric can be installed on \p topology: it has its Nodes, no fabric
     * and no device on them yet.
     * \param who the caller, for the message
     * \throws std::invalid_argument naming what is wrong
     */
    static void CheckTopology(Ptr<FabricTopology> topology, const std::string& who);
    /// \return every device of \p topology's Nodes, graph id order then port order
    static NetDeviceContainer AllDevices(const FabricTopology& topology);

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
     * A fabric's ports and cables: \p nodes gets one Node per graph node (\p given's,
     * in graph id order, if not null: a FabricTopology's; else new ones) and each one
     * Device per port, in port order (a port's ifIndex is its number; \p configure
     * runs on each new device); one Channel per cable with the cable's delay, and both
     * of its ports at the cable's rate. \p devices: by graph node, port; \p channels
     * (if not null): by graph link.
     */
    template <typename Device, typename Channel, typename Configure>
    void InstallPorts(const TopologyGraph& graph,
                      const NodeContainer* given,
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
    ObjectFactory m_remoteChannelFactory; //!< one channel per cable between ranks
    std::vector<uint32_t> m_partition;    //!< system id per node (SetPartition)
    TypeId m_channelBase;                 //!< the fabric's channel class
    CongestionControlFactory m_ccFactory; //!< every queue pair's controller
};

template <typename Device, typename Channel, typename Configure>
void
RdmaFabricHelper::InstallPorts(const TopologyGraph& graph,
                               const NodeContainer* given,
                               NodeContainer& nodes,
                               std::vector<std::vector<Ptr<Device>>>& devices,
                               std::vector<Ptr<Channel>>* channels,
                               Configure configure) const
{
    ApplyChecksumEnabled();
    const uint32_t n = graph.GetNNodes();
    if (given != nullptr)
    {
        nodes = *given;
    }
    else if (m_partition.empty())
    {
        nodes.Create(n);
    }
    else
    {
        NS_ABORT_MSG_IF(m_partition.size() != n,
                        "RdmaFabricHelper: a partition of " << m_partition.size()
                                                            << " nodes for a graph of " << n);
        for (uint32_t node = 0; node < n; ++node)
        {
            nodes.Add(CreateObject<Node>(m_partition[node]));
        }
    }
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
        // A cable between ranks: the remote channel (a subclass of Channel).
        const bool cut = nodes.Get(link.a)->GetSystemId() != nodes.Get(link.b)->GetSystemId();
        Ptr<Channel> ch = (cut ? m_remoteChannelFactory : m_channelFactory).Create<Channel>();
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
        if (cut)
        {
            ch->Initialize(); // both ends attached: its ends on this rank listen to MPI
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
