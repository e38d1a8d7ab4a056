/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-remote-channel.h"

#include "ib-net-device.h"
#include "ib-vcrc-trailer.h"

#include "ns3/fabric-simulator.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rank-partition.h"

#ifdef AI_FABRIC_MPI
#include "ns3/fabric-distributed-simulator-impl.h"
#include "ns3/mpi-receiver.h"
#include "ns3/remote-channel-receivers.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(IbRemoteChannel);

TypeId
IbRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbRemoteChannel")
                            .SetParent<IbChannel>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<IbRemoteChannel>();
    return tid;
}

IbRemoteChannel::IbRemoteChannel() = default;

/// A data packet sent to another rank as its headers (IbFrame::ReadHeaders).
struct IbRemoteChannel::DataRecord
{
    int64_t txTicks;        //!< its serialization time at the sender (time steps)
    IbFrameHeaders headers; //!< its headers and length
    uint32_t reserved{0};   //!< zero (no padding of unknown value in a batch)
};

/// A credit update sent to another rank as its fields.
struct IbRemoteChannel::FcRecord
{
    uint16_t fctbs;      //!< the sender's FCTBS
    uint16_t fccl;       //!< the sender's FCCL for the VL
    uint8_t vl;          //!< the VL
    uint8_t reserved[3]; //!< zero
};

namespace
{
#ifdef AI_FABRIC_MPI
/// \p p with the envelope \p kind, \p ticks in front.
Ptr<Packet>
Envelope(uint8_t kind, int64_t ticks, Ptr<const Packet> body)
{
    uint8_t head[IbRemoteChannel::ENVELOPE_BYTES];
    head[0] = kind;
    const auto t = static_cast<uint64_t>(ticks);
    for (int i = 0; i < 8; ++i)
    {
        head[1 + i] = static_cast<uint8_t>(t >> (56 - 8 * i));
    }
    Ptr<Packet> p = Create<Packet>(head, sizeof(head));
    if (body)
    {
        p->AddAtEnd(body);
    }
    return p;
}

#else
[[noreturn]] void
NoMpi(uint32_t node, uint32_t rank)
{
    NS_FATAL_ERROR("IbRemoteChannel: node " << node << " is on rank " << rank
                                            << ", but ai-fabric was built without MPI "
                                               "(./ai-fabric mpi-setup; cmake -DAI_FABRIC_MPI=ON)");
}
#endif
} // namespace

void
IbRemoteChannel::WriteFlowControlPacket(uint8_t* out, uint8_t vl, uint16_t fctbs, uint16_t fccl)
{
    out[0] = static_cast<uint8_t>((fctbs >> 8) & 0x0F); // Op 0 (normal) in the high nibble
    out[1] = static_cast<uint8_t>(fctbs & 0xFF);
    out[2] = static_cast<uint8_t>(((vl & 0x0F) << 4) | ((fccl >> 8) & 0x0F));
    out[3] = static_cast<uint8_t>(fccl & 0xFF);
    const uint16_t crc = IbVcrcTrailer::Calculate(out, 4);
    out[4] = static_cast<uint8_t>(crc & 0xFF);
    out[5] = static_cast<uint8_t>(crc >> 8);
}

bool
IbRemoteChannel::ReadFlowControlPacket(const uint8_t* in,
                                       uint8_t& vl,
                                       uint16_t& fctbs,
                                       uint16_t& fccl)
{
    const uint16_t crc = IbVcrcTrailer::Calculate(in, 4);
    if ((in[0] >> 4) != 0 || in[4] != static_cast<uint8_t>(crc & 0xFF) ||
        in[5] != static_cast<uint8_t>(crc >> 8))
    {
        return false;
    }
    fctbs = static_cast<uint16_t>(((in[0] & 0x0F) << 8) | in[1]);
    vl = static_cast<uint8_t>(in[2] >> 4);
    fccl = static_cast<uint16_t>(((in[2] & 0x0F) << 8) | in[3]);
    return true;
}

void
IbRemoteChannel::TransmitStart(Ptr<const Packet> p, Ptr<IbNetDevice> src, Time txTime)
{
    Ptr<IbNetDevice> dst = GetPeer(src);
    const uint32_t rank = dst->GetNode()->GetSystemId();
    if (rank == RankPartition::GetLocalRank())
    {
        IbChannel::TransmitStart(p, src, txTime);
        return;
    }
#ifdef AI_FABRIC_MPI
    const Time rxTime = FabricSimulator::Now() + GetDelay();
    // A packet its headers give (no tag) crosses as them under our engine: the far
    // rank writes the same bytes again.
    static_assert(sizeof(DataRecord) == 64, "a data packet crosses in 64 bytes");
    DataRecord record{txTime.GetTimeStep(), {}, 0};
    if (IbFrame::ReadHeaders(p, record.headers) &&
        FabricDistributedSimulatorImpl::SendRecord(
            FabricDistributedSimulatorImpl::IB_PACKET_HEADERS,
            record,
            rxTime,
            *dst))
    {
        ++m_sent;
        return;
    }
    FabricDistributedSimulatorImpl::SendPacket(Envelope(DATA, txTime.GetTimeStep(), p),
                                               rxTime,
                                               dst->GetNode()->GetId(),
                                               dst->GetIfIndex());
    ++m_sent;
#else
    NoMpi(dst->GetNode()->GetId(), rank);
#endif
}

void
IbRemoteChannel::TransmitFlowControl(Ptr<IbNetDevice> src,
                                     uint8_t vl,
                                     uint16_t fctbs,
                                     uint16_t fccl,
                                     Time txTime)
{
    Ptr<IbNetDevice> dst = GetPeer(src);
    const uint32_t rank = dst->GetNode()->GetSystemId();
    if (rank == RankPartition::GetLocalRank())
    {
        IbChannel::TransmitFlowControl(src, vl, fctbs, fccl, txTime);
        return;
    }
#ifdef AI_FABRIC_MPI
    const Time rxTime = FabricSimulator::Now() + txTime + GetDelay();
    // Its fields under our engine (the far rank schedules the arrival the plain channel
    // schedules); the flow-control packet's bytes under ns-3's.
    const FcRecord record{fctbs, fccl, vl, {0, 0, 0}};
    if (FabricDistributedSimulatorImpl::SendRecord(FabricDistributedSimulatorImpl::IB_FLOW_CONTROL,
                                                   record,
                                                   rxTime,
                                                   *dst))
    {
        ++m_sent;
        return;
    }
    uint8_t fc[6];
    WriteFlowControlPacket(fc, vl, fctbs, fccl);
    FabricDistributedSimulatorImpl::SendPacket(
        Envelope(FLOW_CONTROL, txTime.GetTimeStep(), Create<Packet>(fc, 6)),
        rxTime,
        dst->GetNode()->GetId(),
        dst->GetIfIndex());
    ++m_sent;
#else
    NoMpi(dst->GetNode()->GetId(), rank);
#endif
}

void
IbRemoteChannel::ReceiveFromRank(Ptr<IbNetDevice> dev, Ptr<Packet> p)
{
    uint8_t head[ENVELOPE_BYTES];
    NS_ABORT_MSG_IF(p->GetSize() < ENVELOPE_BYTES ||
                        p->CopyData(head, ENVELOPE_BYTES) != ENVELOPE_BYTES,
                    "IbRemoteChannel: a message of " << p->GetSize()
                                                     << " bytes from another rank is truncated");
    uint64_t ticks = 0;
    for (int i = 0; i < 8; ++i)
    {
        ticks = (ticks << 8) | head[1 + i];
    }
    p->RemoveAtStart(ENVELOPE_BYTES);
    ++m_received;
    if (head[0] == DATA)
    {
        dev->Receive(p, TimeStep(static_cast<int64_t>(ticks)));
        return;
    }
    uint8_t fc[6];
    uint8_t vl = 0;
    uint16_t fctbs = 0;
    uint16_t fccl = 0;
    NS_ABORT_MSG_UNLESS(head[0] == FLOW_CONTROL && p->GetSize() == 6 && p->CopyData(fc, 6) == 6 &&
                            ReadFlowControlPacket(fc, vl, fctbs, fccl),
                        "IbRemoteChannel: a message from another rank is neither a data packet "
                        "nor a valid flow-control packet (kind "
                            << +head[0] << ", " << p->GetSize() << " bytes)");
    dev->ReceiveFlowControl(vl, fctbs, fccl);
}

void
IbRemoteChannel::ArriveFromRank(uint32_t node, int64_t delay, IbNetDevice* dev, const DataRecord& r)
{
    ++m_received;
    ScheduleArrival(node, delay, dev, IbFrame::Materialize(r.headers), TimeStep(r.txTicks));
}

void
IbRemoteChannel::ArriveFromRank(uint32_t node, int64_t delay, IbNetDevice* dev, const FcRecord& r)
{
    ++m_received;
    ScheduleFlowControlArrival(node, delay, dev, r.vl, r.fctbs, r.fccl);
}

void
IbRemoteChannel::DoInitialize()
{
#ifdef AI_FABRIC_MPI
    using Engine = FabricDistributedSimulatorImpl;
    Engine::SetRawReceiver(Engine::IB_PACKET_HEADERS,
                           &Engine::ReceiveRecord<IbNetDevice, IbRemoteChannel, DataRecord>);
    Engine::SetRawReceiver(Engine::IB_FLOW_CONTROL,
                           &Engine::ReceiveRecord<IbNetDevice, IbRemoteChannel, FcRecord>);
    AttachRankReceivers<IbRemoteChannel, IbNetDevice>(this,
                                                      &IbRemoteChannel::GetIbDevice,
                                                      &IbRemoteChannel::ReceiveFromRank);
#endif
    IbChannel::DoInitialize();
}

uint64_t
IbRemoteChannel::GetMessagesSent() const
{
    return m_sent;
}

uint64_t
IbRemoteChannel::GetMessagesReceived() const
{
    return m_received;
}

} // namespace ns3
