/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric-helper.h"

#include "ns3/fatal-error.h"
#include "ns3/icrc-trailer.h"
#include "ns3/node.h"

#include <stdexcept>

namespace ns3
{

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
RdmaFabricHelper::SetCongestionControlAttribute(const std::string& name,
                                                const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

} // namespace ns3
