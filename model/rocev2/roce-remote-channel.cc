/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-remote-channel.h"

#include "roce-net-device.h"

#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rank-partition.h"
#include "ns3/roce-frame.h"

#ifdef AI_FABRIC_MPI
#include "ns3/fabric-distributed-simulator-impl.h"
#include "ns3/mpi-receiver.h"
#include "ns3/remote-channel-receivers.h"
#endif

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(RoceRemoteChannel);

TypeId
RoceRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceRemoteChannel")
                            .SetParent<RoceChannel>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RoceRemoteChannel>();
    return tid;
}

RoceRemoteChannel::RoceRemoteChannel() = default;

namespace
{
/// A frame's arrival from another rank: the port gets the frame its call carried (what
/// RoceChannel's arrival does; its own copy, so that the one-process path's call stays
/// inlined where it is).
void
ArriveFromRank(void* port, void* frame)
{
    static_cast<RoceNetDevice*>(port)->Receive(*static_cast<RoceParsedFrame*>(frame));
}

const FabricSimulator::CallOps g_arrivalFromRank{&ArriveFromRank,
                                                 &FabricSimulator::DestroyPayload<RoceParsedFrame>};
} // namespace

void
RoceRemoteChannel::TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime)
{
    Ptr<RoceNetDevice> dst = GetRoceDevice(src == PeekPointer(GetRoceDevice(0)) ? 1 : 0);
    const uint32_t dstRank = dst->GetNode()->GetSystemId();
    if (dstRank == RankPartition::GetLocalRank())
    {
        RoceChannel::TransmitStart(frame, src, txTime);
        return;
    }
#ifdef AI_FABRIC_MPI
    const Time rxTime = FabricSimulator::Now() + txTime + GetDelay();
    // A frame known only by its view (nothing asked for its bytes, no packet tag, no
    // INT records carried) crosses as the view under our engine: the far rank writes
    // the same bytes from it if something asks, as this rank would have.
    if (!frame.HasPacket() && frame.GetIntBlock() == nullptr &&
        FabricDistributedSimulatorImpl::SendRecord(FabricDistributedSimulatorImpl::ROCE_FRAME_VIEW,
                                                   frame.view,
                                                   rxTime,
                                                   *dst))
    {
        RoceParsedFrame sent(std::move(frame)); // moved from, as the plain channel leaves it
        ++m_framesSent;
        return;
    }
    // The bytes (written now if the frame had only its view); the copy is the one
    // MpiInterface serializes, the frame's own reference is released below.
    Ptr<Packet> bytes = frame.GetPacket()->Copy();
    NS_LOG_LOGIC("frame of " << bytes->GetSize() << " bytes to node " << dst->GetNode()->GetId()
                             << " on rank " << dstRank << " at " << rxTime);
    FabricDistributedSimulatorImpl::SendPacket(bytes,
                                               rxTime,
                                               dst->GetNode()->GetId(),
                                               dst->GetIfIndex());
    RoceParsedFrame sent(std::move(frame)); // moved from, as the plain channel leaves it
    ++m_framesSent;
#else
    NS_FATAL_ERROR("RoceRemoteChannel: node "
                   << dst->GetNode()->GetId() << " is on rank " << dstRank
                   << ", but ai-fabric was built without MPI "
                      "(./ai-fabric mpi-setup; cmake -DAI_FABRIC_MPI=ON)");
#endif
}

void
RoceRemoteChannel::ReceiveFromRank(Ptr<RoceNetDevice> dev, Ptr<Packet> p)
{
    RoceFrameView view;
    NS_ABORT_MSG_UNLESS(RoceFrame::Peek(*p, view),
                        "RoceRemoteChannel: a frame of " << p->GetSize()
                                                         << " bytes from another rank does not "
                                                            "decode (neither IPv4 nor PFC)");
    RoceParsedFrame frame(p, view);
    ++m_framesReceived;
    dev->Receive(frame);
}

void
RoceRemoteChannel::ArriveFromRank(uint32_t node,
                                  int64_t delay,
                                  RoceNetDevice* dev,
                                  const RoceFrameView& v)
{
    RoceParsedFrame frame(v);
    ++m_framesReceived;
    FabricSimulator::ScheduleCall(node, delay, &g_arrivalFromRank, dev, frame);
}

void
RoceRemoteChannel::DoInitialize()
{
#ifdef AI_FABRIC_MPI
    using Engine = FabricDistributedSimulatorImpl;
    Engine::SetRawReceiver(Engine::ROCE_FRAME_VIEW,
                           &Engine::ReceiveRecord<RoceNetDevice, RoceRemoteChannel, RoceFrameView>);
    AttachRankReceivers<RoceRemoteChannel, RoceNetDevice>(this,
                                                          &RoceRemoteChannel::GetRoceDevice,
                                                          &RoceRemoteChannel::ReceiveFromRank);
#endif
    RoceChannel::DoInitialize();
}

uint64_t
RoceRemoteChannel::GetFramesSent() const
{
    return m_framesSent;
}

uint64_t
RoceRemoteChannel::GetFramesReceived() const
{
    return m_framesReceived;
}

} // namespace ns3
