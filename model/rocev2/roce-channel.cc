/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-channel.h"

#include "roce-net-device.h"

#include "ns3/fabric-simulator-impl.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceChannel");

NS_OBJECT_ENSURE_REGISTERED(RoceChannel);

namespace
{
/// The arrival event of one direction of a RoceChannel (see RoceChannel::Direction).
class RoceChannelArrival : public EventImpl
{
  public:
    RoceChannelArrival(RoceChannel* channel,
                       void (RoceChannel::*deliver)(std::size_t),
                       std::size_t to)
        : m_channel(channel),
          m_deliver(deliver),
          m_to(to)
    {
    }

  private:
    void Notify() override
    {
        (m_channel->*m_deliver)(m_to);
    }

    RoceChannel* m_channel; //!< not owned: the channel owns this event
    void (RoceChannel::*m_deliver)(std::size_t);
    std::size_t m_to;
};
} // namespace

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
RoceChannel::TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime)
{
    const std::size_t to = (src == PeekPointer(m_dev[0])) ? 1 : 0;
    Direction& d = m_towards[to];
    if (!d.arrival)
    {
        d.arrival = Create<RoceChannelArrival>(this, &RoceChannel::Deliver, to);
    }
    // The frame moves onto the cable: no per-hop copy of the packet (unlike
    // PointToPointChannel's p->Copy()), no reference-count update.
    d.inFlight.push_back(std::move(frame));
    d.arrival->Ref(); // the simulator releases one reference per scheduled run
    FabricSimulatorImpl::ScheduleWithContextFast(m_dev[to]->GetNodeId(),
                                                 txTime + m_delay,
                                                 PeekPointer(d.arrival));
}

void
RoceChannel::Deliver(std::size_t to)
{
    Direction& d = m_towards[to];
    // Out of the ring before the receiver runs: what it sends may grow a ring.
    RoceParsedFrame frame = std::move(d.inFlight.front());
    d.inFlight.pop_front();
    m_dev[to]->Receive(frame);
}

void
RoceChannel::DoDispose()
{
    for (Direction& d : m_towards)
    {
        d.inFlight.clear();
        d.arrival = nullptr;
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
