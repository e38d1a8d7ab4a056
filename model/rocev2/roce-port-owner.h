/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_PORT_OWNER_H
#define ROCE_PORT_OWNER_H

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;
class RoceNetDevice;
class RoceParsedFrame;

/**
 * \ingroup ai-fabric
 * \brief What a RoceNetDevice's owner (a switch or a NIC) does for its ports.
 *
 * The device pulls frames from its owner when the wire is free and hands it the
 * frames that arrive. These are the two calls of every packet hop, so they are
 * plain virtual calls with the frame by reference: an ns-3 Callback goes through
 * two std::function layers and copies each argument at each layer. Frames travel
 * with their decoded headers (RoceParsedFrame) and are moved, never copied: a hop
 * touches neither the packet's reference count nor its bytes.
 */
class RocePortOwner
{
  public:
    virtual ~RocePortOwner() = default;
    /// Move the next frame port dev may send (priorities in pausedMask are paused
    /// by the peer) into \p frame. \return false if there is none
    virtual bool DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame) = 0;
    /// \return whether DequeueFrame would give dev a frame now; true when unsure
    /// (a false true costs an event, a false false would stall the port)
    virtual bool HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const = 0;
    /// \p frame arrived on port dev; the owner may move it away.
    virtual void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) = 0;

    /**
     * A packet of the host's own network stack (ns-3's IPv4 over this port,
     * NetDevice::Send): frame and send it. \p protocol is its EtherType.
     * \return false if the owner takes none (a switch port, or a protocol it does
     * not carry); the stack counts the packet as dropped then.
     */
    virtual bool SendPacket(RoceNetDevice& /* dev */,
                            Ptr<Packet> /* packet */,
                            uint16_t /* protocol */)
    {
        return false;
    }
};

} // namespace ns3

#endif // ROCE_PORT_OWNER_H
