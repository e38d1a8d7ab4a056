/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_DISTRIBUTED_SIMULATOR_IMPL_H
#define FABRIC_DISTRIBUTED_SIMULATOR_IMPL_H

// Built only with -DAI_FABRIC_MPI=ON (ns-3's mpi module and MPI itself).
#ifdef AI_FABRIC_MPI

#include "fabric-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class MpiReceiver;

/**
 * \ingroup ai-fabric
 * \brief FabricSimulatorImpl across MPI ranks: conservative granted-time windows with
 * the frames between ranks batched per window and peer.
 *
 * Select it with GlobalValue SimulatorImplementationType =
 * ns3::FabricDistributedSimulatorImpl after MpiInterface::Enable (which binds ns-3's
 * ns3::DistributedSimulatorImpl) and before the first Simulator call. With MPI not
 * enabled or one rank it is FabricSimulatorImpl, per event the same loop.
 *
 * With more than one rank, Run repeats, on every rank together:
 * 1. one MPI_Allreduce of (the earliest event time of the rank, whether Stop was
 *    called): all ranks end when a rank stopped or none has an event left; else the
 *    window ends at the global earliest time plus the lookahead (idle stretches cost
 *    nothing);
 * 2. every event before the window's end (ticks), in FabricSimulatorImpl's order;
 * 3. the window's frames to other ranks (SendPacket: the remote channels' frames),
 *    one message per peer rank that has frames: an MPI_Alltoall of byte counts, then
 *    MPI_Irecv / MPI_Isend of each peer's batch;
 * 4. each frame received scheduled as ns-3's GrantedTimeWindowMpiInterface does (at
 *    its arrival time, in the destination node's context, calling the MpiReceiver of
 *    the node's device of that ifIndex), with its sender's scheduling instant and
 *    node as its EventOrigin: equal-time ties are then broken as in one process.
 *
 * The lookahead is the smallest Delay attribute of a channel between a node of this
 * rank and one of another (the minimum over all ranks): a frame sent in a window
 * arrives after it. Every rank must run the same program (each schedules the same
 * Simulator::Stop).
 */
class FabricDistributedSimulatorImpl : public FabricSimulatorImpl
{
  public:
    static TypeId GetTypeId();

    FabricDistributedSimulatorImpl();
    ~FabricDistributedSimulatorImpl() override;

    void Run() override;
    uint32_t GetSystemId() const override;

    /**
     * Send \p p to arrive at \p rxTime at device \p ifIndex of node \p node on another
     * rank (MpiInterface::SendPacket's arguments): into this window's batch when this
     * engine runs across ranks, else through MpiInterface::SendPacket (ns-3's
     * DistributedSimulatorImpl).
     */
    static void SendPacket(Ptr<Packet> p, const Time& rxTime, uint32_t node, uint32_t ifIndex);

    /**
     * What a model sends in a batch instead of a Packet when both ranks can rebuild the
     * frame from fewer bytes (a RoCEv2 frame's decoded headers, RoceFrameView, whose
     * wire bytes are a function of them; an InfiniBand packet's headers, IbFrameHeaders;
     * a credit update's fields): called on the receiving rank when the window's
     * batch is read, with \p data (\p bytes) as sent; it schedules the arrival through
     * FabricSimulator, \p rxTicks - FabricSimulator::NowTicks() ahead (the clock reads
     * the sender's instant then, and the context is the sender's node, so the event
     * gets the sender's EventOrigin). \p cache: two pointers the receiver may keep
     * for this (node, ifIndex) until the simulator is destroyed (nullptr at first).
     */
    using RawReceiver = void (*)(uint32_t node,
                                 uint32_t ifIndex,
                                 uint64_t rxTicks,
                                 const uint8_t* data,
                                 uint32_t bytes,
                                 void** cache);

    /// The record kinds of the remote channels (one number per kind of record, so that
    /// no two models register the same).
    enum RawKind : uint8_t
    {
        ROCE_FRAME_VIEW = 1,   //!< RoceRemoteChannel: a RoCEv2 frame's RoceFrameView
        IB_PACKET_HEADERS = 2, //!< IbRemoteChannel: a data packet's IbFrameHeaders
        IB_FLOW_CONTROL = 3,   //!< IbRemoteChannel: a credit update's fields
    };

    /// Handle records of \p kind (1..255) with \p rx (every rank the same).
    static void SetRawReceiver(uint8_t kind, RawReceiver rx);

    /**
     * The RawReceiver of records of type \p Record for a \p Device on a \p Channel (a
     * remote channel, which befriends this class): the record, a copy of \p data whose
     * \p bytes must be sizeof(Record), goes to the channel's
     * ArriveFromRank(node, ticks from now to \p rxTicks, device, record). The port (device
     * \p ifIndex of node \p node) is found for its first record and kept in \p cache ([0]
     * the device, [1] the channel). A record of another size, or for a port that does not
     * exist or is not a \p Device on a \p Channel, is a fatal error naming the types.
     */
    template <class Device, class Channel, class Record>
    static void ReceiveRecord(uint32_t node,
                              uint32_t ifIndex,
                              uint64_t rxTicks,
                              const uint8_t* data,
                              uint32_t bytes,
                              void** cache)
    {
        static_assert(std::is_trivially_copyable<Record>::value, "a record is plain bytes");
        NS_ABORT_MSG_UNLESS(bytes == sizeof(Record),
                            Channel::GetTypeId().GetName()
                                << ": a record of " << bytes << " bytes from another rank (its "
                                << "kind has " << sizeof(Record) << ")");
        if (cache[0] == nullptr)
        {
            NS_ABORT_MSG_UNLESS(node < NodeList::GetNNodes() &&
                                    ifIndex < NodeList::GetNode(node)->GetNDevices(),
                                Channel::GetTypeId().GetName()
                                    << ": a frame from another rank for node " << node << " device "
                                    << ifIndex << ", which does not exist");
            Ptr<Device> dev = DynamicCast<Device>(NodeList::GetNode(node)->GetDevice(ifIndex));
            Ptr<Channel> ch = dev ? DynamicCast<Channel>(dev->GetChannel()) : Ptr<Channel>();
            NS_ABORT_MSG_UNLESS(ch,
                                Channel::GetTypeId().GetName()
                                    << ": a frame from another rank for node " << node << " device "
                                    << ifIndex << ", which is not a "
                                    << Device::GetTypeId().GetName() << " on a "
                                    << Channel::GetTypeId().GetName());
            cache[0] = PeekPointer(dev);
            cache[1] = PeekPointer(ch);
        }
        Record record;
        std::memcpy(&record, data, sizeof(Record));
        static_cast<Channel*>(cache[1])->ArriveFromRank(node,
                                                        static_cast<int64_t>(rxTicks) -
                                                            NowTicksFast(),
                                                        static_cast<Device*>(cache[0]),
                                                        record);
    }

    /**
     * Send \p bytes of \p data of \p kind (SetRawReceiver) to device \p ifIndex of node
     * \p node on another rank, arriving at \p rxTime.
     * \return false, doing nothing, unless this engine runs across ranks (then use
     * SendPacket)
     */
    static bool SendRaw(uint8_t kind,
                        const void* data,
                        uint32_t bytes,
                        const Time& rxTime,
                        uint32_t node,
                        uint32_t ifIndex);

    /// SendRaw of \p record (of kind \p kind, a RawReceiver's Record) to device \p dst on
    /// another rank, arriving at \p rxTime. \return as SendRaw
    template <class Record>
    static bool SendRecord(uint8_t kind, const Record& record, const Time& rxTime, NetDevice& dst)
    {
        static_assert(std::is_trivially_copyable<Record>::value, "a record is plain bytes");
        return SendRaw(kind,
                       &record,
                       sizeof(Record),
                       rxTime,
                       dst.GetNode()->GetId(),
                       dst.GetIfIndex());
    }

    /// What a run across ranks did (this rank's view; zero with one rank).
    struct Stats
    {
        int64_t lookaheadTicks{0};  //!< the window length (ticks; -1: no cable between ranks)
        uint64_t windows{0};        //!< windows run
        uint64_t framesSent{0};     //!< frames this rank sent to others
        uint64_t framesReceived{0}; //!< frames it received
        uint64_t bytesSent{0};      //!< bytes of its batches (frames and their 32-byte heads)
        uint64_t messagesSent{0};   //!< batches sent (at most one per peer and window)
        double mpiSeconds{0};       //!< wall time in MPI calls (waiting for the others)
        double runSeconds{0};       //!< wall time of Run
    };

    /// \return the figures of the last Run
    const Stats& GetStats() const;

  protected:
    void DoDispose() override;

  private:
    /// Queue the frame for its destination's rank.
    void Batch(Ptr<Packet> p, uint64_t rxTs, uint32_t node, uint32_t ifIndex);
    /// Room for a record of \p bytes (kind \p kind) in the batch of \p node's rank;
    /// \return where its bytes go
    uint8_t* NewRecord(uint8_t kind,
                       uint32_t bytes,
                       uint64_t rxTs,
                       uint32_t node,
                       uint32_t ifIndex);
    /// Send the window's batches, receive the peers', schedule their frames.
    void Exchange();
    /// Schedule the frames of one received batch.
    void Deliver(const uint8_t* data, std::size_t bytes);
    /// \return the smallest delay (ticks) of a channel between ranks, over all ranks, or -1
    int64_t Lookahead() const;

    /// The MPI communicator (its type from mpi.h, which this header does not need).
    struct Comm;

    static FabricDistributedSimulatorImpl* s_distributed; //!< the instance running across ranks

    std::unique_ptr<Comm> m_comm;                    //!< a duplicate of MpiInterface's
    uint32_t m_rank{0};                              //!< this rank
    uint32_t m_ranks{1};                             //!< the number of ranks
    std::vector<uint32_t> m_nodeRank;                //!< system id by node id
    std::vector<std::vector<uint8_t>> m_out;         //!< this window's batch per peer rank
    std::vector<std::vector<uint8_t>> m_in;          //!< the batch received per peer rank
    std::unordered_map<uint64_t, MpiReceiver*> m_rx; //!< (node << 32 | ifIndex) -> receiver
    std::unordered_map<uint64_t, std::pair<void*, void*>> m_rawCache; //!< RawReceiver's cache
    Stats m_stats;                                                    //!< figures of the run
};

} // namespace ns3

#endif // AI_FABRIC_MPI

#endif // FABRIC_DISTRIBUTED_SIMULATOR_IMPL_H
