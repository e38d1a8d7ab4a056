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
struct RoceFrameView;

/**
 * \ingroup ai-fabric
 * \brief What a RoceNetDevice's owner (a switch or a NIC) does for its ports.
 *
 * The device pulls frames from its owner when the wire is free and hands it the
 * frames that arrive. These are the two calls of every packet hop, so they are
 * plain virtual calls with the packet by reference: an ns-3 Callback goes through
 * two std::function layers and copies each Ptr argument at each layer.
 */
class RocePortOwner
{
  public:
    virtual ~RocePortOwner() = default;
    /// \return the next frame port dev may send (priorities in pausedMask are
    /// paused by the peer), or nullptr
    virtual Ptr<Packet> DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask) = 0;
    /// A frame arrived on port dev; view holds its decoded headers.
    virtual void ReceiveFrame(RoceNetDevice& dev,
                              const Ptr<Packet>& p,
                              const RoceFrameView& view) = 0;
};

} // namespace ns3

#endif // ROCE_PORT_OWNER_H
