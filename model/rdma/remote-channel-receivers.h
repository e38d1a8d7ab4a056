/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef REMOTE_CHANNEL_RECEIVERS_H
#define REMOTE_CHANNEL_RECEIVERS_H

// Across MPI ranks only (-DAI_FABRIC_MPI=ON, where ns-3's mpi module defines MpiReceiver);
// empty otherwise, so the module header (ai-fabric-module.h) compiles without MPI.
#ifdef AI_FABRIC_MPI

#include "ns3/callback.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/rank-partition.h"

#include <cstddef>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * Give each end of remote channel \p channel that is on this rank, with its peer on
 * another, an MpiReceiver (once per device) that hands the packets ns-3's
 * DistributedSimulatorImpl delivers to \p receive of \p channel, bound to that end: the
 * RoCEv2 and InfiniBand remote channels' DoInitialize. \p end gives the channel's end i
 * (0 or 1) as its device class.
 */
template <class Channel, class Device>
void
AttachRankReceivers(Channel* channel,
                    Ptr<Device> (Channel::*end)(std::size_t) const,
                    void (Channel::*receive)(Ptr<Device>, Ptr<Packet>))
{
    const uint32_t local = RankPartition::GetLocalRank();
    for (std::size_t i = 0; i < channel->GetNDevices(); ++i)
    {
        Ptr<Device> dev = (channel->*end)(i);
        Ptr<Device> peer = (channel->*end)(1 - i);
        if (dev->GetNode()->GetSystemId() == local && peer->GetNode()->GetSystemId() != local &&
            !dev->template GetObject<MpiReceiver>())
        {
            Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
            rx->SetReceiveCallback(MakeCallback(receive, channel).Bind(dev));
            dev->AggregateObject(rx);
        }
    }
}

} // namespace ns3

#endif // AI_FABRIC_MPI

#endif // REMOTE_CHANNEL_RECEIVERS_H
