/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-channel.h"

#include "roce-net-device.h"

#include "ns3/fabric-simulator.h"
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
                          MakeTimeAccessor(&RoceChannel::SetDelay, &RoceChannel::GetDelay),
                          MakeTimeChecker());
    return tid;
}

RoceChannel::RoceChannel()
    : m_nDevices(0)
{
}

namespace
{
/// A frame's arrival: the receiving port gets the frame its call carried.
void
ArriveAt(void* port, void* frame)
{
    static_cast<RoceNetDevice*>(port)->Receive(*static_cast<RoceParsedFrame*>(frame));
}

/// Arrivals as FabricSimulator calls carrying their frame.
const FabricSimulator::CallOps g_arrival{&ArriveAt,
                                         &FabricSimulator::DestroyPayload<RoceParsedFrame>};
} // namespace

RoceChannel::Direction::Direction(RoceNetDevice* receiver, uint32_t receiverNode, Time delay)
    : m_receiver(receiver),
      m_delayTicks(delay.GetTimeStep()),
      m_receiverNode(receiverNode)
{
}

void
RoceChannel::Direction::TransmitStart(RoceParsedFrame& frame, int64_t txTicks)
{
    // The frame moves onto the cable: no per-hop copy of the packet (unlike
    // PointToPointChannel's p->Copy()), no reference-count update.
    Carry(frame, m_receiver, m_receiverNode, txTicks + m_delayTicks);
}

void
RoceChannel::Direction::Carry(RoceParsedFrame& frame,
                              RoceNetDevice* receiver,
                              uint32_t receiverNode,
                              int64_t arrivalTicks)
{
    FabricSimulator::ScheduleCall(receiverNode, arrivalTicks, &g_arrival, receiver, frame);
}

void
RoceChannel::Direction::SetDelay(Time delay)
{
    m_delayTicks = delay.GetTimeStep();
}

void
RoceChannel::Direction::SetReceiverNode(uint32_t node)
{
    m_receiverNode = node;
}

void
RoceChannel::Direction::Dispose()
{
    m_receiver = nullptr;
}

void
RoceChannel::Attach(Ptr<RoceNetDevice> device)
{
    NS_ASSERT_MSG(m_nDevices < 2, "a RoceChannel connects exactly two devices");
    m_dev[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        for (std::size_t to = 0; to < 2; ++to)
        {
            m_towards[to] =
                Create<Direction>(PeekPointer(m_dev[to]), m_dev[to]->GetNodeId(), m_delay);
        }
    }
}

RoceChannel::Direction*
RoceChannel::GetDirectionFrom(const RoceNetDevice* src) const
{
    NS_ASSERT_MSG(m_nDevices == 2, "RoceChannel: both ends must be attached");
    return PeekPointer(m_towards[src == PeekPointer(m_dev[0]) ? 1 : 0]);
}

void
RoceChannel::NotifyNodeChanged(const RoceNetDevice* dev)
{
    for (std::size_t to = 0; to < 2; ++to)
    {
        if (m_towards[to] && PeekPointer(m_dev[to]) == dev)
        {
            m_towards[to]->SetReceiverNode(dev->GetNodeId());
            m_dev[1 - to]->ForgetCable(); // its sender keeps the node
        }
    }
}

void
RoceChannel::TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime)
{
    GetDirectionFrom(src)->TransmitStart(frame, txTime.GetTimeStep());
}

void
RoceChannel::SetDelay(Time delay)
{
    m_delay = delay;
    for (const Ptr<Direction>& d : m_towards)
    {
        if (d)
        {
            d->SetDelay(delay);
        }
    }
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->ForgetCable(); // each keeps the delay
    }
}

void
RoceChannel::DoDispose()
{
    for (Ptr<Direction>& d : m_towards)
    {
        if (d)
        {
            d->Dispose();
            d = nullptr;
        }
    }
    Channel::DoDispose();
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
