/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/fatal-error.h"
#include "ns3/icrc-trailer.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/rdma-net-device.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFabricHelper");

RdmaFabricHelper::RdmaFabricHelper(const std::string& device,
                                   const std::string& host,
                                   const std::string& sw,
                                   const std::string& channel)
    : m_channelBase(TypeId::LookupByName(channel))
{
    m_deviceFactory.SetTypeId(device);
    m_hostFactory.SetTypeId(host);
    m_switchFactory.SetTypeId(sw);
    m_channelFactory.SetTypeId(channel);
    // ns3::RoceChannel -> ns3::RoceRemoteChannel, ns3::IbChannel -> ns3::IbRemoteChannel
    std::string remote = channel;
    remote.insert(remote.rfind("Channel"), "Remote");
    m_remoteChannelFactory.SetTypeId(remote);
}

void
RdmaFabricHelper::SetPartition(std::vector<uint32_t> systemIds)
{
    m_partition = std::move(systemIds);
}

const std::vector<uint32_t>&
RdmaFabricHelper::GetPartition() const
{
    return m_partition;
}

std::string
RdmaFabricHelper::TimeResolutionProblem(Time::Unit unit, const std::string& who)
{
    if (unit == Time::PS)
    {
        return "";
    }
    static const char* const names[] = {"Y", "D", "H", "MIN", "S", "MS", "US", "NS", "PS", "FS"};
    const std::string name = unit >= 0 && unit < static_cast<int>(sizeof(names) / sizeof(names[0]))
                                 ? std::string("Time::") + names[unit]
                                 : "unit " + std::to_string(static_cast<int>(unit));
    return who + ": ns-3's time resolution is " + name +
           ", the ai-fabric model needs picoseconds (Time::PS: at 400 Gb/s a byte takes "
           "20 ps; other resolutions round serialization times or shrink the time range). "
           "Call Time::SetResolution(Time::PS) first thing in main(), before any Simulator "
           "call";
}

void
RdmaFabricHelper::RequirePicoseconds(const std::string& who)
{
    // Why stop instead of calling Time::SetResolution(Time::PS) here: ns-3 allows one
    // resolution change, and only while it still tracks every Time object (until the
    // simulator implementation is created, e.g. by the first Simulator::Now or
    // Schedule: Simulator::GetImpl then clears the registry). A helper cannot know
    // whether that moment has passed; past it, SetResolution finds no registry (an
    // NS_ASSERT, compiled out of optimized ns-3 builds, so a crash or silent
    // misbehaviour there). Even before it, the program may hold figures it derived
    // from Times at the old resolution (GetTimeStep() integers, doubles, events
    // already computed) that a conversion would not touch: the run would silently mean
    // something else. The caller knows when it is safe; one clear stop tells it what
    // to call.
    const std::string problem = TimeResolutionProblem(Time::GetResolution(), who);
    if (!problem.empty())
    {
        NS_FATAL_ERROR(problem);
    }
}

void
RdmaFabricHelper::ApplyChecksumEnabled()
{
    IcrcTrailer::SetComputeEnabled(Node::ChecksumEnabled());
}

TypeId
RdmaFabricHelper::LookupSubclass(const std::string& typeId, TypeId base, const std::string& what)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid))
    {
        throw std::invalid_argument(what + " '" + typeId + "' is not a registered TypeId");
    }
    if (tid != base && !tid.IsChildOf(base))
    {
        throw std::invalid_argument(what + " '" + typeId + "' is not " + base.GetName() +
                                    " or a subclass of it");
    }
    return tid;
}

void
RdmaFabricHelper::SetChannelType(const std::string& typeId)
{
    m_channelFactory.SetTypeId(LookupSubclass(typeId, m_channelBase, "channel type"));
}

void
RdmaFabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
    m_remoteChannelFactory.Set(name, value);
}

void
RdmaFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RdmaFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RdmaFabricHelper::SetCongestionControl(const std::string& algorithm, const std::string& preset)
{
    m_ccFactory.SetAlgorithm(algorithm);
    m_ccFactory.SetPreset(preset);
}

void
RdmaFabricHelper::SetCongestionControl(const std::string& type,
                                       const std::string& n1,
                                       const AttributeValue& v1,
                                       const std::string& n2,
                                       const AttributeValue& v2,
                                       const std::string& n3,
                                       const AttributeValue& v3,
                                       const std::string& n4,
                                       const AttributeValue& v4)
{
    std::string algorithm;
    std::string allowed;
    for (const std::string& name : CongestionControlRegistry::GetNames())
    {
        const std::string& typeName = CongestionControlRegistry::Get(name).typeName;
        if (type == name || type == typeName)
        {
            algorithm = name;
        }
        allowed += (allowed.empty() ? "" : ", ") + typeName + " (" + name + ")";
    }
    if (algorithm.empty())
    {
        throw std::invalid_argument("congestion control '" + type +
                                    "' is not a registered one; allowed: " + allowed);
    }
    const TypeId tid = TypeId::LookupByName(CongestionControlRegistry::Get(algorithm).typeName);
    CongestionControlFactory factory(algorithm);
    for (const auto& [name, value] : {std::make_pair(&n1, &v1),
                                      std::make_pair(&n2, &v2),
                                      std::make_pair(&n3, &v3),
                                      std::make_pair(&n4, &v4)})
    {
        if (name->empty())
        {
            break;
        }
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(*name, &info))
        {
            throw std::invalid_argument("congestion control " + tid.GetName() +
                                        " has no Attribute '" + *name + "'");
        }
        factory.Set(*name, *value);
    }
    m_ccFactory = factory;
}

void
RdmaFabricHelper::SetCongestionControlAttribute(const std::string& name,
                                                const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

void
RdmaFabricHelper::CheckTopology(Ptr<FabricTopology> topology, const std::string& who)
{
    if (!topology || !topology->GetGraph())
    {
        throw std::invalid_argument(
            who + ": the topology has no nodes (make it with TopologyHelper::CreateTopology)");
    }
    if (topology->GetFabric())
    {
        throw std::invalid_argument(who + ": the topology has a fabric already (one per topology)");
    }
    const NodeContainer& nodes = topology->GetNodes();
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        if ((*it)->GetNDevices() != 0)
        {
            throw std::invalid_argument(who + ": node " + std::to_string((*it)->GetId()) +
                                        " has devices already; the fabric gives every node "
                                        "of the topology its ports");
        }
    }
}

NetDeviceContainer
RdmaFabricHelper::AllDevices(const FabricTopology& topology)
{
    NetDeviceContainer c;
    const NodeContainer& nodes = topology.GetNodes();
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            c.Add((*it)->GetDevice(d));
        }
    }
    return c;
}

void
RdmaFabricHelper::EnablePcapInternal(std::string prefix,
                                     Ptr<NetDevice> nd,
                                     bool /* promiscuous: a port sees only its cable */,
                                     bool explicitFilename)
{
    Ptr<RdmaNetDevice> port = DynamicCast<RdmaNetDevice>(nd);
    if (!port)
    {
        NS_LOG_INFO("device " << nd->GetInstanceTypeId().GetName()
                              << " is not a RoceNetDevice or IbNetDevice: no pcap");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, nd);
    // Nanosecond timestamps, as RdmaFabric::AddPcapPort writes (a frame at 400 Gb/s
    // lasts tens of ns), set on this file only.
    Ptr<PcapFileWrapper> file =
        CreateObjectWithAttributes<PcapFileWrapper>("NanosecMode", BooleanValue(true));
    file->Open(filename, std::ios::out);
    NS_ABORT_MSG_IF(file->Fail(), "cannot write pcap file " << filename);
    // Whole frames: 65535 holds any frame, with an ERF header before it too.
    file->Init(port->GetPcapLinkType(), RdmaFabric::MAX_PCAP_SNAP_LENGTH);
    NS_ABORT_MSG_IF(file->Fail(), "cannot write pcap file " << filename);
    port->HookPcap(file);
}

void
RdmaFabricHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                      std::string prefix,
                                      Ptr<NetDevice> nd,
                                      bool explicitFilename)
{
    Ptr<RdmaNetDevice> port = DynamicCast<RdmaNetDevice>(nd);
    if (!port)
    {
        NS_LOG_INFO("device " << nd->GetInstanceTypeId().GetName()
                              << " is not a RoceNetDevice or IbNetDevice: no ascii trace");
        return;
    }
    const RdmaNetDevice::AsciiTraceSources sources = port->GetAsciiTraceSources();
    if (!stream)
    {
        // One file per device: sinks without context, as ns-3's helpers hook them.
        AsciiTraceHelper asciiTraceHelper;
        const std::string filename =
            explicitFilename ? prefix : asciiTraceHelper.GetFilenameFromDevice(prefix, nd);
        Ptr<OutputStreamWrapper> file = asciiTraceHelper.CreateFileStream(filename);
        asciiTraceHelper.HookDefaultDequeueSinkWithoutContext<NetDevice>(nd,
                                                                         sources.transmit,
                                                                         file);
        if (!sources.receive.empty())
        {
            asciiTraceHelper.HookDefaultReceiveSinkWithoutContext<NetDevice>(nd,
                                                                             sources.receive,
                                                                             file);
        }
        if (!sources.drop.empty())
        {
            asciiTraceHelper.HookDefaultDropSinkWithoutContext<NetDevice>(nd, sources.drop, file);
        }
        return;
    }
    // One shared stream: the context (the Config path) tells the devices apart.
    const std::string path = "/NodeList/" + std::to_string(nd->GetNode()->GetId()) +
                             "/DeviceList/" + std::to_string(nd->GetIfIndex()) + "/$" +
                             nd->GetInstanceTypeId().GetName() + "/";
    Config::Connect(path + sources.transmit,
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDequeueSinkWithContext, stream));
    if (!sources.receive.empty())
    {
        Config::Connect(
            path + sources.receive,
            MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
    }
    if (!sources.drop.empty())
    {
        Config::Connect(path + sources.drop,
                        MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
    }
}

} // namespace ns3
