/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_CHANNEL_H
#define IB_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class IbNetDevice;
class Packet;

/**
 * \ingroup ai-fabric
 * \brief A full-duplex InfiniBand cable between two ports.
 *
 * Like RoceChannel: the device says "start transmitting this packet, it takes
 * txTime". A data packet is handed to the peer when its head arrives (after the
 * propagation delay), with txTime, so a cut-through switch can forward it before its
 * tail is in; a flow-control packet (a few values, no Packet object) is handed over
 * when it has fully arrived (txTime + delay).
 */
class IbChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    IbChannel();

    void Attach(Ptr<IbNetDevice> device);
    /// Deliver \p p to the other end after txTime + delay: the one call through which
    /// a port hands every packet it sends to its cable (a subclass may override it,
    /// e.g. to carry packets to another MPI rank).
    virtual void TransmitStart(Ptr<const Packet> p, Ptr<IbNetDevice> src, Time txTime);
    /// Carry one flow-control packet (VL, FCTBS, FCCL) to the other end (overridable
    /// as TransmitStart).
    virtual void TransmitFlowControl(Ptr<IbNetDevice> src,
                                     uint8_t vl,
                                     uint16_t fctbs,
                                     uint16_t fccl,
                                     Time txTime);

    /**
     * The cable fails now, both directions: both ports go down (IbNetDevice::
     * NotifyLinkDown). A packet whose head has not reached the far end is lost; one
     * whose head is in is delivered whole (packets are handed over at head arrival;
     * truncating a cut-through packet already forwarded downstream is not modelled).
     */
    void Fail();
    /**
     * The cable works again (a failed one comes back): both ports retrain the link
     * (IbNetDevice::NotifyLinkUp: flow-control counters restart from zero, each end's
     * limit the blocks free in the other's buffer) and resume sending.
     */
    void Restore();
    bool IsUp() const; //!< \return false once the cable failed

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;
    Ptr<IbNetDevice> GetIbDevice(std::size_t i) const;          //!< \return end i
    Ptr<IbNetDevice> GetPeer(Ptr<const IbNetDevice> dev) const; //!< \return the other end
    Time GetDelay() const;                                      //!< \return propagation delay

  protected:
    /// Schedule data packet \p p's head arriving at \p dst, \p delayTicks from now, in
    /// context \p context, with its serialization time \p txTime (what TransmitStart
    /// schedules; a remote channel's arrival from another rank too).
    static void ScheduleArrival(uint32_t context,
                                int64_t delayTicks,
                                IbNetDevice* dst,
                                Ptr<Packet> p,
                                Time txTime);
    /// Schedule a flow-control packet's arrival at \p dst, as ScheduleArrival.
    static void ScheduleFlowControlArrival(uint32_t context,
                                           int64_t delayTicks,
                                           IbNetDevice* dst,
                                           uint8_t vl,
                                           uint16_t fctbs,
                                           uint16_t fccl);

  private:
    Time m_delay;
    Ptr<IbNetDevice> m_dev[2];
    std::size_t m_nDevices;
    bool m_up;
};

} // namespace ns3

#endif // IB_CHANNEL_H
