/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_CHANNEL_H
#define ROCE_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/roce-frame.h"
#include "ns3/simple-ref-count.h"

namespace ns3
{

class RoceNetDevice;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief A full-duplex cable between two RoCE ports.
 *
 * Modelled on PointToPointChannel: a device only says "start transmitting
 * this packet, it takes txTime", and the channel delivers it to the peer after
 * txTime plus the propagation delay. Pause frames travel the same way. Keeping
 * the device-to-channel contract this narrow is what lets a remote-channel
 * variant carry the same packets between MPI ranks later.
 */
class RoceChannel : public Channel
{
  public:
    /**
     * One direction of the cable: what a frame's transmission reads (the receiving
     * port, its node, the delay). Each arrival is a FabricSimulator call to the
     * receiving port carrying its frame (with FabricSimulatorImpl and its timing
     * wheel, in the event list's node, written while the node is hot: no event
     * object, no reference count).
     */
    class Direction : public SimpleRefCount<Direction>
    {
      public:
        /// Frames sent towards \p receiver (on node \p receiverNode) take \p delay more.
        Direction(RoceNetDevice* receiver, uint32_t receiverNode, Time delay);

        /// Put \p frame (moved from) on the wire; it arrives after \p txTicks (its
        /// serialization, in time steps) plus the delay.
        void TransmitStart(RoceParsedFrame& frame, int64_t txTicks);
        /**
         * TransmitStart for a sender that keeps this direction's receiver, its node
         * and the delay (GetReceiver...): \p frame (moved from) arrives at \p receiver
         * \p arrivalTicks from now.
         */
        static void Carry(RoceParsedFrame& frame,
                          RoceNetDevice* receiver,
                          uint32_t receiverNode,
                          int64_t arrivalTicks);

        /// \return the port frames arrive at
        RoceNetDevice* GetReceiver() const
        {
            return m_receiver;
        }

        /// \return its node id
        uint32_t GetReceiverNode() const
        {
            return m_receiverNode;
        }

        /// \return the propagation delay in time steps
        int64_t GetDelayTicks() const
        {
            return m_delayTicks;
        }

        /// Set the propagation delay (the channel's Delay attribute).
        void SetDelay(Time delay);
        /// Set the receiving port's node id (arrival events run in its context).
        void SetReceiverNode(uint32_t node);
        /// Forget the receiver (the channel is disposed).
        void Dispose();

      private:
        RoceNetDevice* m_receiver; //!< the port frames arrive at (not owned)
        int64_t m_delayTicks;      //!< propagation delay
        uint32_t m_receiverNode;   //!< its node: the arrival event's context
    };

    static TypeId GetTypeId();
    RoceChannel();

    /// Attach a device; a channel takes exactly two.
    void Attach(Ptr<RoceNetDevice> device);
    /**
     * Deliver \p frame (moved from) to the other end after txTime + delay: the one
     * call through which a port hands every frame it sends (data, ACKs, CNPs, pause
     * frames) to its cable, as PointToPointNetDevice does with PointToPointChannel.
     * A subclass (e.g. one carrying frames to another MPI rank) overrides it; a port
     * on a plain RoceChannel runs this implementation without the virtual call.
     */
    virtual void TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime);
    /**
     * \param src one end of this (fully attached) channel
     * \return the direction from \p src to the other end, which a port may keep
     * and transmit into directly (valid until the channel is disposed)
     */
    Direction* GetDirectionFrom(const RoceNetDevice* src) const;
    /// \p dev (attached here) is now on another node: its arrivals run in that context.
    void NotifyNodeChanged(const RoceNetDevice* dev);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    Ptr<RoceNetDevice> GetRoceDevice(std::size_t i) const;
    Time GetDelay() const;
    /// Set the propagation delay (attribute Delay).
    void SetDelay(Time delay);

  protected:
    void DoDispose() override;

  private:
    Ptr<Direction> m_towards[2]; //!< frames towards m_dev[0] and m_dev[1] (once both attached)
    Time m_delay;                //!< propagation delay
    Ptr<RoceNetDevice> m_dev[2]; //!< the two ends
    std::size_t m_nDevices;      //!< devices attached so far
};

} // namespace ns3

#endif // ROCE_CHANNEL_H
