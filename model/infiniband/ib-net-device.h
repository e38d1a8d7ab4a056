/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_NET_DEVICE_H
#define IB_NET_DEVICE_H

#include "ib-frame.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/rdma-net-device.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

class FctAttribution;

class IbChannel;
class Packet;
class VlArbiter;

/**
 * \ingroup ai-fabric
 * \brief One InfiniBand port (HCA or switch) with per-VL credit-based flow control.
 *
 * Transmit side, per data VL: FCTBS (total blocks sent, 12 bits) and FCCL (the limit
 * the peer advertised). A packet of b blocks may go when (FCCL - (FCTBS + b)) mod 4096
 * <= 2048, i.e. when b <= (FCCL - FCTBS) mod 4096 = available credits.
 *
 * Receive side, per data VL: a buffer of VlBufferBytes (whole 64-byte blocks) and the
 * ABR (adjusted blocks received). VlBufferBytes 0 (the default) sizes it to the link's
 * credit round trip (GetCreditRoundTripBytes), at least AUTO_MIN_VL_BUFFER_BYTES and at
 * most MAX_VL_BUFFER_BLOCKS blocks (SCALE_UP_MAX_VL_BUFFER_BLOCKS on a ScaleUp port). The owner
 * returns blocks with ReleaseBlocks when the packet leaves its buffer; the port then advertises
 * FCCL = ABR + free blocks (mod 4096) in a flow-control packet, on change and every
 * FlowControlPeriod while the link is active. A flow-control packet is 4 bytes (Op, FCTBS, VL,
 * FCCL) plus a 2-byte LPCRC: 6 bytes on the wire, sent ahead of data. On receiving one, the port
 * sets ABR = FCTBS (resynchronisation, as the IBTA prescribes) and FCCL for its sender.
 *
 * The port owns no data queue: when the wire is free it asks its owner, per data VL,
 * for the size of the head packet (HeadCallback); among the VLs whose head fits its
 * credits the VlArbiter picks one, and the port pulls it (DequeueCallback). VL15
 * (management, no flow control) is not modelled.
 *
 * ScaleUp (a GPU's NVLink-class cable to its server's crossbar, set by IbFabricHelper
 * on both ends of such a cable): the same credit protocol with 16-bit counters instead
 * of the IBTA's 12, so the automatic buffer covers the credit round trip of a
 * multi-terabit cable. NVLink's link-level flow control is credit-based but not
 * IBTA's, and NVIDIA publishes neither its counter width nor its buffer sizes: 16 bits
 * is the model's choice (up to 32768 blocks, 2 MiB per VL). A ScaleUp port's buffer is
 * always the automatic one (VlBufferBytes sizes InfiniBand ports: a cluster preset's
 * InfiniBand buffer is not the NVLink port's).
 */
class IbNetDevice : public RdmaNetDevice
{
  public:
    /// Signature of the "Credits" trace: (VL, credits left to send on it) after a send
    typedef void (*CreditsCallback)(uint8_t vl, uint32_t credits);
    /// Signature of the "CreditStall" trace: (VL, blocks its head packet needs, blocks
    /// of credit left)
    typedef void (*CreditStallCallback)(uint8_t vl, uint32_t needed, uint32_t credits);
    /// Bytes of the owner's head packet on a VL (0 = none).
    typedef Callback<uint32_t, Ptr<IbNetDevice>, uint8_t> HeadCallback;
    /// Take the owner's head packet on a VL.
    typedef Callback<Ptr<Packet>, Ptr<IbNetDevice>, uint8_t> DequeueCallback;
    /// A packet's head arrived: (port, packet, decoded view, its transmit time).
    typedef Callback<void, Ptr<IbNetDevice>, Ptr<Packet>, const IbFrameView&, Time> FrameCallback;
    /// A packet of the node's protocol stack (NetDevice::Send): (packet, destination,
    /// protocol number); true if taken. IP over InfiniBand's (IpoibInterface) binds it.
    typedef Callback<bool, Ptr<Packet>, const Address&, uint16_t> SendCallback;

    static constexpr uint32_t FC_PACKET_BYTES = 6;  //!< 4-byte FC packet + 2-byte LPCRC
    static constexpr uint16_t COUNTER_MASK = 0xFFF; //!< 12-bit FCTBS / FCCL / ABR
    static constexpr uint8_t MAX_DATA_VLS = 15;     //!< VL0..VL14
    /// Most blocks a VL's buffer may have: with 12-bit FCTBS/FCCL a limit more than 2048
    /// blocks ahead reads as negative credits (IBTA Vol. 1, 7.9.4)
    static constexpr uint32_t MAX_VL_BUFFER_BLOCKS = 2048;
    /// The counters of a ScaleUp port (16 bits: the model's choice, see the class)
    static constexpr uint16_t SCALE_UP_COUNTER_MASK = 0xFFFF;
    /// Most blocks a ScaleUp port's VL buffer may have: half its counters' range
    static constexpr uint32_t SCALE_UP_MAX_VL_BUFFER_BLOCKS = 32768;
    /// The least VlBufferBytes 0 gives (64 KiB, the former fixed default): a short
    /// cable's buffer still absorbs bursts and the outputs of 100 Gb/s, 1 us cables
    /// stay what they were
    static constexpr uint32_t AUTO_MIN_VL_BUFFER_BYTES = 65536;
    /// Largest packet header the model writes: LRH, BTH, RETH, ImmDt, ICRC, VCRC
    static constexpr uint32_t MAX_HEADER_BYTES = 46;

    static TypeId GetTypeId();
    IbNetDevice();
    ~IbNetDevice() override;

    bool Attach(Ptr<IbChannel> ch);
    void SetHeadCallback(HeadCallback cb);
    void SetDequeueCallback(DequeueCallback cb);
    void SetFrameCallback(FrameCallback cb);
    /// \return the owner's head callback (an engine that stands in front of the owner,
    /// SharpAggregationEngine, keeps it and calls it for the frames that are not its own)
    HeadCallback GetHeadCallback() const;
    /// \return the owner's dequeue callback (see GetHeadCallback)
    DequeueCallback GetDequeueCallback() const;
    /// \return the owner's frame callback (see GetHeadCallback)
    FrameCallback GetFrameCallback() const;
    /**
     * Where Send hands the stack's packets (IpoibInterface::Send); without one, Send
     * refuses them (RDMA traffic enters through the dequeue callback, not Send).
     */
    void SetSendCallback(SendCallback cb);

    /// The owner has a new head packet: transmit if the wire and credits allow.
    void NotifyDataAvailable();
    /// Called by the channel when a data packet's head arrives.
    void Receive(Ptr<Packet> p, Time txTime);
    /// Called by the channel when a flow-control packet has arrived.
    void ReceiveFlowControl(uint8_t vl, uint16_t fctbs, uint16_t fccl);
    /// The owner freed `blocks` of VL's receive buffer.
    void ReleaseBlocks(uint8_t vl, uint32_t blocks);

    /// Initialise the transmit limits from the peer's free buffer (link bring-up).
    void InitializeCredits();

    /**
     * The cable failed (IbChannel::Fail calls it on both ends). From now on the port
     * sends nothing, a data packet whose head had not reached this end is lost
     * (counted by GetLinkDownDrops, not as a credit overflow), flow-control packets
     * are ignored, and the link-change callbacks run so the owner can flush what it
     * queued for this port. Credits are frozen until the cable comes back.
     */
    void NotifyLinkDown();
    /**
     * The cable works again (IbChannel::Restore calls it on both ends, then
     * InitializeCredits): the receive side's ABR restarts at 0, the blocks it still
     * holds stay used, and the link-change callbacks run.
     */
    void NotifyLinkUp();

    uint8_t GetNumDataVls() const;

    /// Report the hops of tagged packets (IbJourneyTag) and this port's credit
    /// starvation to \p attribution (nullptr: off, the default).
    void SetAttribution(FctAttribution* attribution)
    {
        m_attribution = attribution;
    }

    /// \return the attribution SetAttribution gave, or nullptr
    FctAttribution* GetAttribution() const
    {
        return m_attribution;
    }

    /// \return blocks of each data VL's receive buffer (VlBufferBytes, or the automatic size)
    uint32_t GetVlBufferBlocks() const
    {
        return m_vlBufferBlocks;
    }

    /// \return true for a scale-up port (attribute ScaleUp): 16-bit credit counters
    bool IsScaleUp() const
    {
        return m_counterMask == SCALE_UP_COUNTER_MASK;
    }

    /// \return the most blocks the automatic VL buffer may have on this port
    /// (MAX_VL_BUFFER_BLOCKS, or SCALE_UP_MAX_VL_BUFFER_BLOCKS on a ScaleUp port)
    uint32_t GetMaxVlBufferBlocks() const
    {
        return (static_cast<uint32_t>(m_counterMask) + 1) / 2;
    }

    /**
     * Bytes the peer can send on one VL before the credit for its first block can be back,
     * rounded up to whole 64-byte blocks:
     * rate x (2 x cable delay + receiver hold time) + 2 x the largest packet (the one
     * being sent, and one the flow-control packet may wait behind on the way back) + the
     * 6-byte flow-control packet. A VL buffer this large keeps the link busy.
     * \return the bytes (0 before the port is attached to a cable)
     */
    uint64_t GetCreditRoundTripBytes() const;
    /**
     * The time from a packet's head arriving here to its blocks being freed, set by the
     * port's owner once the port's rate is known (a switch: its forwarding latency; an
     * HCA: the packet's tail), for the automatic buffer size.
     * \param hold the time
     */
    void SetReceiverHoldTime(Time hold);
    /// \return the largest packet (bytes) this port receives: its MTU plus MAX_HEADER_BYTES
    uint32_t GetMaxPacketBytes() const;
    /// \return credits (blocks) this port may still send on a VL
    uint32_t GetAvailableCredits(uint8_t vl) const;
    /// \return blocks of a VL's receive buffer in use
    uint32_t GetUsedBlocks(uint8_t vl) const;
    Ptr<VlArbiter> GetArbiter() const;
    DataRate GetDataRate() const;
    /// Set the link rate (attribute DataRate).
    void SetDataRate(DataRate rate);
    /// \return the time \p bytes take on the wire (RoundedTxTime of the rate)
    Time GetTransmitTime(uint32_t bytes) const;
    Ptr<IbChannel> GetIbChannel() const;

    uint64_t GetTxPackets() const;
    uint64_t GetTxBytes() const;
    uint64_t GetTxBytesOnVl(uint8_t vl) const;
    uint64_t GetFlowControlPacketsSent() const;
    /// Packets that arrived without room in their VL's buffer (dropped): must stay 0.
    uint64_t GetCreditOverflows() const;
    /// Times the transmit side found FCTBS beyond FCCL (negative credits): must stay 0.
    uint64_t GetNegativeCreditEvents() const;
    /// Times a head packet had to wait for credits.
    uint64_t GetCreditStalls() const;
    /// Data packets whose head arrived here (the buffer accepted them or not).
    uint64_t GetRxPackets() const;
    /// Data packets lost because the cable failed while they were on it.
    uint64_t GetLinkDownDrops() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    /// RdmaNetDevice::SetMtu, and the VL buffers' credit blocks for the new MTU
    bool SetMtu(const uint16_t mtu) override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;

    // RdmaNetDevice
    uint32_t GetPcapLinkType() const override;
    void HookPcap(Ptr<PcapFileWrapper> file) override;
    AsciiTraceSources GetAsciiTraceSources() const override;

  protected:
    void DoDispose() override;

  private:
    void TryTransmit();
    /// Attribution on: the VLs in \p stalled lack credits for their head packet, the
    /// others do not.
    [[gnu::noinline, gnu::cold]] void NoteCreditStarvation(uint16_t stalled);
    /// Attribution on: \p p (VL \p vl, \p tx on the wire) starts now; a journey that ends
    /// here leaves \p p (its tag is removed).
    [[gnu::noinline, gnu::cold]] void NoteJourney(Ptr<Packet> p, uint8_t vl, Time tx);
    void TransmitComplete();
    /// Schedule TransmitComplete \p tx from now (a FabricSimulator call).
    void ScheduleCompletion(Time tx);
    /// TransmitComplete of \p port, as a FabricSimulator call.
    static void CompleteCall(void* port, void* payload);
    void MarkFlowControl(uint8_t vl);
    /// Set VlBufferBytes (attribute setter): 0 = automatic, else whole blocks
    void SetVlBufferBytes(uint32_t bytes);
    /// \return VlBufferBytes as set (0 = automatic)
    uint32_t GetVlBufferBytesAttribute() const;
    /// Recompute m_vlBufferBlocks from VlBufferBytes or the credit round trip.
    void UpdateVlBufferBlocks();
    /// Set ScaleUp (attribute setter): the counters' width, then the buffer size
    void SetScaleUp(bool scaleUp);
    void PeriodicFlowControl();
    void NoteActivity();
    uint16_t AdvertisedLimit(uint8_t vl) const;

    Ptr<IbChannel> m_channel;
    FctAttribution* m_attribution{nullptr}; //!< SetAttribution (nullptr: off)
    Ptr<VlArbiter> m_arbiter;
    uint32_t m_ifIndex;
    Address m_address; //!< a Mac48Address, or the IPoIB hardware address (IpoibInterface)

    // Attributes
    DataRate m_rate;

    /// GetTransmitTime of one size at m_rate, remembered.
    struct TxTimeSlot
    {
        uint32_t bytes{0}; //!< the size (0: empty; no packet is empty)
        int64_t ticks{0};  //!< its time on the wire, in time steps
    };

    /// RoundedTxTime divides in 64.64 fixed point (hundreds of instructions); a port
    /// sends few sizes (full packets with and without RETH, ACKs, flow-control
    /// packets, a message's last packet), so it remembers the last eight.
    mutable std::array<TxTimeSlot, 8> m_txTimes{};
    mutable uint8_t m_nextTxTime{0}; //!< the slot a new size replaces
    uint8_t m_numDataVls;
    uint32_t m_vlBufferBytes;  //!< attribute VlBufferBytes (0 = automatic)
    uint32_t m_vlBufferBlocks; //!< blocks of each VL's buffer in force
    /// FCTBS / FCCL / ABR width: COUNTER_MASK (IBTA), SCALE_UP_COUNTER_MASK (ScaleUp)
    uint16_t m_counterMask{COUNTER_MASK};
    Time m_holdTime; //!< SetReceiverHoldTime
    Time m_fcPeriod;

    bool m_busy;
    std::array<uint16_t, 16> m_fctbs{}; //!< transmit: total blocks sent (12 bits)
    std::array<uint16_t, 16> m_fccl{};  //!< transmit: limit from the peer (12 bits)
    std::array<uint16_t, 16> m_abr{};   //!< receive: adjusted blocks received (12 bits)
    std::array<uint32_t, 16> m_used{};  //!< receive: blocks in the buffer
    std::array<uint64_t, 16> m_txVlBytes{};
    uint16_t m_fcPending; //!< VLs with a flow-control update to send
    bool m_active;        //!< traffic since the last periodic update
    EventId m_fcTimer;

    uint64_t m_txPackets;
    uint64_t m_txBytes;
    uint64_t m_fcSent;
    uint64_t m_overflows;
    uint64_t m_negative;
    uint64_t m_stalls;
    uint64_t m_rxPackets;
    uint64_t m_linkDownDrops;
    bool m_linkUp; //!< false once the cable failed

    HeadCallback m_head;
    DequeueCallback m_dequeue;
    FrameCallback m_frameCallback;
    SendCallback m_send; //!< SetSendCallback

    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< data packets sent and received
    TracedCallback<Ptr<const Packet>> m_linkDownDropTrace;   //!< a packet lost on a failed cable
    TracedCallback<> m_linkChangeCallbacks;                  //!< NetDevice link-change listeners
    TracedCallback<uint8_t, uint32_t> m_creditTrace;         //!< (VL, credits left) after a send
    TracedCallback<uint8_t, uint32_t, uint32_t> m_creditStallTrace; //!< GetCreditStalls' events
    /// CreditStall of a \p bytes packet on \p vl, out of TryTransmit's loop.
    [[gnu::noinline, gnu::cold]] void TraceCreditStall(uint8_t vl,
                                                       uint32_t bytes,
                                                       uint32_t credits);
};

} // namespace ns3

#endif // IB_NET_DEVICE_H
