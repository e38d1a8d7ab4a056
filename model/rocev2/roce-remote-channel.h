/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_REMOTE_CHANNEL_H
#define ROCE_REMOTE_CHANNEL_H

#include "roce-channel.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A RoCEv2 cable whose two ends may be simulated by different MPI ranks, as
 * ns-3's PointToPointRemoteChannel is for point-to-point links.
 *
 * A frame towards a port whose node has another system id (Node::GetSystemId) leaves
 * this rank as its bytes (RoceParsedFrame::GetPacket: Ethernet, IPv4, UDP, BTH... as
 * on the wire; ns-3's Packet serialization, so packet tags such as the DragonFly
 * route tag come along) through FabricDistributedSimulatorImpl::SendPacket (batched
 * per window and peer rank under that engine, MpiInterface::SendPacket under ns-3's
 * DistributedSimulatorImpl), to arrive at the far port
 * after the serialization time plus the Delay; the far rank decodes the headers
 * again (RoceFrame::Peek) and hands the frame to RoceNetDevice::Receive in the far
 * node's context. Data frames, ACKs, CNPs and PFC pause frames all take this path
 * (RoceNetDevice sends every frame through TransmitStart). Its Delay is what the
 * distributed engine's lookahead is made of: a rank may run Delay ahead of the
 * others before it must hear from them.
 *
 * Between ports on the same rank it is a RoceChannel. The fabric helpers choose it
 * for every cable whose ends' nodes have different system ids
 * (RdmaFabricHelper::SetPartition). Built without MPI (AI_FABRIC_MPI), a frame
 * towards another rank is a fatal error naming the missing build option.
 */
class RoceRemoteChannel : public RoceChannel
{
  public:
    static TypeId GetTypeId();
    RoceRemoteChannel();

    void TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime) override;

    /// \return frames sent to another rank through this cable
    uint64_t GetFramesSent() const;
    /// \return frames received from another rank through this cable
    uint64_t GetFramesReceived() const;

  protected:
    /// Both ends attached: each end on this rank gets an MpiReceiver for the frames
    /// its peer's rank sends it (RdmaFabricHelper initializes every cable it wires).
    void DoInitialize() override;

  private:
    /// The frame \p p from another rank arrives at \p dev (an end of this cable).
    void ReceiveFromRank(Ptr<RoceNetDevice> dev, Ptr<Packet> p);

    /**
     * A frame from another rank sent as its decoded headers \p v (RoceFrameView;
     * FabricDistributedSimulatorImpl::ReceiveRecord): it arrives at \p dev \p delay
     * ticks from now in context \p node as a frame of this rank's cable does (the same
     * call of RoceNetDevice::Receive with the frame as payload), its bytes written when
     * first asked for.
     */
    void ArriveFromRank(uint32_t node, int64_t delay, RoceNetDevice* dev, const RoceFrameView& v);

    friend class FabricDistributedSimulatorImpl; // calls ArriveFromRank

    uint64_t m_framesSent{0};     //!< frames sent to another rank
    uint64_t m_framesReceived{0}; //!< frames received from another rank
};

} // namespace ns3

#endif // ROCE_REMOTE_CHANNEL_H
