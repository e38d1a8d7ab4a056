/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_REMOTE_CHANNEL_H
#define IB_REMOTE_CHANNEL_H

#include "ib-channel.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An InfiniBand cable whose two ends may be simulated by different MPI ranks,
 * as ns-3's PointToPointRemoteChannel is for point-to-point links.
 *
 * Towards a port whose node has another system id (Node::GetSystemId), under
 * FabricDistributedSimulatorImpl across ranks (batched per window and peer rank), a
 * data packet crosses as its headers (IbFrameHeaders, IbFrame::ReadHeaders: its first
 * 40 bytes, its length and CRCs, with its serialization time) and the far rank writes
 * the same bytes again (IbFrame::Materialize), and a credit update crosses as its
 * fields: both arrive as on a cable of one rank (IbChannel::ScheduleArrival,
 * ScheduleFlowControlArrival). A data packet with a packet or byte tag, which its
 * headers do not give, and everything under ns-3's DistributedSimulatorImpl
 * (MpiInterface::SendPacket), leave through FabricDistributedSimulatorImpl::SendPacket
 * as bytes with a 9-byte envelope (kind, and the data packet's serialization time,
 * which the receiving port needs: packets are handed over at head arrival,
 * IbNetDevice::Receive): a data packet's bytes (LRH, BTH, ..., ICRC, VCRC, with its
 * packet tags, through ns-3's Packet serialization), a credit update as the 6-byte
 * flow-control packet of IBA vol. 1 sec. 7.9.4 (Op, FCTBS, VL, FCCL, then LPCRC,
 * computed as the VCRC's CRC-16). A data packet's head arrives after the Delay, a
 * flow-control packet after its serialization plus the Delay: the Delay is the
 * lookahead this cable gives the distributed engine.
 *
 * Between ports on the same rank it is an IbChannel. The fabric helpers choose it
 * for every cable whose ends' nodes have different system ids
 * (RdmaFabricHelper::SetPartition). Built without MPI (AI_FABRIC_MPI), a packet
 * towards another rank is a fatal error naming the missing build option. A remote
 * cable cannot fail (Fail() is for cables within one rank).
 */
class IbRemoteChannel : public IbChannel
{
  public:
    static TypeId GetTypeId();
    IbRemoteChannel();

    /// Envelope kinds (first byte of a message to another rank).
    enum Kind : uint8_t
    {
        DATA = 1,         //!< a data packet: then its serialization time (8 bytes), its bytes
        FLOW_CONTROL = 2, //!< a flow-control packet: then its 6 bytes
    };

    static constexpr uint32_t ENVELOPE_BYTES = 9; //!< kind + serialization time (ps)

    void TransmitStart(Ptr<const Packet> p, Ptr<IbNetDevice> src, Time txTime) override;
    void TransmitFlowControl(Ptr<IbNetDevice> src,
                             uint8_t vl,
                             uint16_t fctbs,
                             uint16_t fccl,
                             Time txTime) override;

    /**
     * The flow-control packet of IBA vol. 1 sec. 7.9.4 (normal, Op 0): FCTBS and FCCL
     * 12 bits each, VL 4 bits, then the LPCRC over the first 4 bytes (LSB first).
     * \param out 6 bytes
     */
    static void WriteFlowControlPacket(uint8_t* out, uint8_t vl, uint16_t fctbs, uint16_t fccl);
    /// \return false if \p in (6 bytes) is not a normal flow-control packet or its LPCRC
    /// does not match; else its fields
    static bool ReadFlowControlPacket(const uint8_t* in,
                                      uint8_t& vl,
                                      uint16_t& fctbs,
                                      uint16_t& fccl);

    uint64_t GetMessagesSent() const;     //!< \return packets sent to another rank
    uint64_t GetMessagesReceived() const; //!< \return packets received from another rank

  protected:
    /// Both ends attached: each end on this rank gets an MpiReceiver for what its
    /// peer's rank sends it (RdmaFabricHelper initializes every cable it wires).
    void DoInitialize() override;

  private:
    /// What another rank sent arrives at \p dev (an end of this cable).
    void ReceiveFromRank(Ptr<IbNetDevice> dev, Ptr<Packet> p);

    struct DataRecord; //!< a data packet as it crosses ranks (its IbFrameHeaders)
    struct FcRecord;   //!< a credit update as it crosses ranks (its fields)

    /**
     * A data packet from another rank sent as its headers (\p r;
     * FabricDistributedSimulatorImpl::ReceiveRecord): its head arrives at \p dev \p delay
     * ticks from now in context \p node as on a cable of this rank
     * (IbChannel::ScheduleArrival), its bytes written again (IbFrame::Materialize).
     */
    void ArriveFromRank(uint32_t node, int64_t delay, IbNetDevice* dev, const DataRecord& r);
    /// A credit update from another rank sent as its fields: it arrives as on a cable of
    /// this rank (IbChannel::ScheduleFlowControlArrival).
    void ArriveFromRank(uint32_t node, int64_t delay, IbNetDevice* dev, const FcRecord& r);

    friend class FabricDistributedSimulatorImpl; // calls ArriveFromRank

    uint64_t m_sent{0};     //!< packets sent to another rank
    uint64_t m_received{0}; //!< packets received from another rank
};

} // namespace ns3

#endif // IB_REMOTE_CHANNEL_H
