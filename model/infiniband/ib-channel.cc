/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-channel.h"

#include "ib-net-device.h"

#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbChannel");

NS_OBJECT_ENSURE_REGISTERED(IbChannel);

TypeId
IbChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbChannel")
                            .SetParent<Channel>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IbChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the cable (about 5 ns per metre)",
                                          TimeValue(NanoSeconds(1000)),
                                          MakeTimeAccessor(&IbChannel::m_delay),
                                          MakeTimeChecker());
    return tid;
}

IbChannel::IbChannel()
    : m_nDevices(0),
      m_up(true)
{
}

void
IbChannel::Fail()
{
    if (!m_up)
    {
        return;
    }
    m_up = false;
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->NotifyLinkDown();
    }
}

void
IbChannel::Restore()
{
    if (m_up)
    {
        return;
    }
    m_up = true;
    // Both ends restart their counters first, then each takes its limit from the other.
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->ResetLinkCounters();
    }
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->NotifyLinkUp();
    }
}

bool
IbChannel::IsUp() const
{
    return m_up;
}

void
IbChannel::Attach(Ptr<IbNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "an IbChannel connects exactly two ports");
    m_dev[m_nDevices++] = device;
}

namespace
{
/// A data packet's head reaching the far port, with its serialization time.
struct IbArrival
{
    Ptr<Packet> packet; //!< the packet (shared, never written after it was sent)
    Time txTime;        //!< its serialization time at the sender
};

/// A flow-control packet having reached the far port.
struct IbFlowControlArrival
{
    uint8_t vl;     //!< its VL
    uint16_t fctbs; //!< the sender's FCTBS
    uint16_t fccl;  //!< the sender's FCCL
};

/// Arrivals as FabricSimulator calls to the receiving port, carrying the packet.
const FabricSimulator::CallOps g_arrival{
    [](void* port, void* payload) {
        auto* a = static_cast<IbArrival*>(payload);
        static_cast<IbNetDevice*>(port)->Receive(std::move(a->packet), a->txTime);
    },
    &FabricSimulator::DestroyPayload<IbArrival>};

/// Flow-control arrivals as FabricSimulator calls.
const FabricSimulator::CallOps g_flowControlArrival{
    [](void* port, void* payload) {
        const auto* a = static_cast<const IbFlowControlArrival*>(payload);
        static_cast<IbNetDevice*>(port)->ReceiveFlowControl(a->vl, a->fctbs, a->fccl);
    },
    &FabricSimulator::DestroyPayload<IbFlowControlArrival>};

} // namespace

void
IbChannel::ScheduleArrival(uint32_t context,
                           int64_t delayTicks,
                           IbNetDevice* dst,
                           Ptr<Packet> p,
                           Time txTime)
{
    IbArrival arrival{std::move(p), txTime};
    FabricSimulator::ScheduleCall(context, delayTicks, &g_arrival, dst, arrival);
}

void
IbChannel::ScheduleFlowControlArrival(uint32_t context,
                                      int64_t delayTicks,
                                      IbNetDevice* dst,
                                      uint8_t vl,
                                      uint16_t fctbs,
                                      uint16_t fccl)
{
    IbFlowControlArrival arrival{vl, fctbs, fccl};
    FabricSimulator::ScheduleCall(context, delayTicks, &g_flowControlArrival, dst, arrival);
}

void
IbChannel::TransmitStart(Ptr<const Packet> p, Ptr<IbNetDevice> src, Time txTime)
{
    Ptr<IbNetDevice> dst = (src == m_dev[0]) ? m_dev[1] : m_dev[0];
    // Shared, never written after transmission starts: no per-hop copy.
    IbArrival arrival{ConstCast<Packet>(p), txTime};
    FabricSimulator::ScheduleCall(dst->GetNode()->GetId(),
                                  m_delay.GetTimeStep(),
                                  &g_arrival,
                                  PeekPointer(dst),
                                  arrival);
}

void
IbChannel::TransmitFlowControl(Ptr<IbNetDevice> src,
                               uint8_t vl,
                               uint16_t fctbs,
                               uint16_t fccl,
                               Time txTime)
{
    Ptr<IbNetDevice> dst = (src == m_dev[0]) ? m_dev[1] : m_dev[0];
    IbFlowControlArrival arrival{vl, fctbs, fccl};
    FabricSimulator::ScheduleCall(dst->GetNode()->GetId(),
                                  (txTime + m_delay).GetTimeStep(),
                                  &g_flowControlArrival,
                                  PeekPointer(dst),
                                  arrival);
}

std::size_t
IbChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
IbChannel::GetDevice(std::size_t i) const
{
    return m_dev[i];
}

Ptr<IbNetDevice>
IbChannel::GetIbDevice(std::size_t i) const
{
    return m_dev[i];
}

Ptr<IbNetDevice>
IbChannel::GetPeer(Ptr<const IbNetDevice> dev) const
{
    return dev == m_dev[0] ? m_dev[1] : m_dev[0];
}

Time
IbChannel::GetDelay() const
{
    return m_delay;
}

} // namespace ns3
