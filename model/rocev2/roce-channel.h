/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_CHANNEL_H
#define ROCE_CHANNEL_H

#include "frame-fifo.h"
#include "roce-frame.h"

#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

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
    static TypeId GetTypeId();
    RoceChannel();

    /// Attach a device; a channel takes exactly two.
    void Attach(Ptr<RoceNetDevice> device);
    /// Deliver \p frame (moved from) to the other end after txTime + delay.
    void TransmitStart(RoceParsedFrame& frame, const RoceNetDevice* src, Time txTime);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    Ptr<RoceNetDevice> GetRoceDevice(std::size_t i) const;
    Time GetDelay() const;

  protected:
    void DoDispose() override;

  private:
    /// Hand the oldest frame in flight towards device `to` to it.
    void Deliver(std::size_t to);

    /**
     * Frames travelling towards one end, oldest first. A cable delivers in send
     * order, so each arrival event only has to take the front frame: one
     * EventImpl per direction is scheduled once per frame (it is reference
     * counted, so it may sit in the event list many times), instead of a new
     * event object holding a packet and a device per frame.
     */
    struct Direction
    {
        FrameFifo<RoceParsedFrame> inFlight; //!< sent, not yet arrived
        Ptr<EventImpl> arrival;              //!< calls Deliver(this direction)
    };

    Direction m_towards[2];      //!< frames towards m_dev[0] and m_dev[1]
    Time m_delay;                //!< propagation delay
    Ptr<RoceNetDevice> m_dev[2]; //!< the two ends
    std::size_t m_nDevices;      //!< devices attached so far
};

} // namespace ns3

#endif // ROCE_CHANNEL_H
