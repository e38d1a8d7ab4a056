/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-channel.h"

#include "roce-net-device.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceChannel");

NS_OBJECT_ENSURE_REGISTERED(RoceChannel);

TypeId
RoceChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceChannel")
            .SetParent<Channel>()
            .SetGroupName("AiFabric")
            .AddConstructor<RoceChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable (about 5 ns per metre of fibre)",
                          TimeValue(NanoSeconds(1000)),
                          MakeTimeAccessor(&RoceChannel::m_delay),
                          MakeTimeChecker());
    return tid;
}

RoceChannel::RoceChannel()
    : m_nDevices(0)
{
}

void
RoceChannel::Attach(Ptr<RoceNetDevice> device)
{
    NS_ASSERT_MSG(m_nDevices < 2, "a RoceChannel connects exactly two devices");
    m_dev[m_nDevices++] = device;
}

void
RoceChannel::TransmitStart(Ptr<const Packet> p, Ptr<RoceNetDevice> src, Time txTime)
{
    Ptr<RoceNetDevice> dst = (src == m_dev[0]) ? m_dev[1] : m_dev[0];
    // The packet is never written to after transmission starts, so the receiver can
    // share it: no per-hop copy (unlike PointToPointChannel's p->Copy()).
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &RoceNetDevice::Receive,
                                   dst,
                                   ConstCast<Packet>(p));
}

std::size_t
RoceChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
RoceChannel::GetDevice(std::size_t i) const
{
    return m_dev[i];
}

Ptr<RoceNetDevice>
RoceChannel::GetRoceDevice(std::size_t i) const
{
    return m_dev[i];
}

Time
RoceChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
