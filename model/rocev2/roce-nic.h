/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_NIC_H
#define ROCE_NIC_H

#include "roce-port-owner.h"

#include "ns3/data-rate.h"
#include "ns3/flagged-traced-callback.h"
#include "ns3/frame-fifo.h"
#include "ns3/int-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-frame.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>
#include <vector>

namespace ns3
{

class NetDeviceQueue;
class RoceNetDevice;

/**
 * \ingroup ai-fabric
 * \brief A RoCEv2 RDMA NIC: the shared RC transport (RdmaQueuePair) with RoCEv2 framing.
 *
 * Data packets are built only when the port pulls them (so a NIC never holds a
 * queue of built frames), scheduled round-robin among the queue pairs that
 * window and pacing allow, and skipped while their priority is paused by PFC.
 * ACK, NAK and CNP frames go first, on the control priority. Received data is
 * handed to its queue pair, which decides placement, ACK/NAK and CNP.
 */
class RoceNic : public RdmaNic, public RocePortOwner
{
  public:
    /**
     * An ACK's IPv4 Identification echoes the data packet it answers: bits 15..10 its
     * hop count (INITIAL_TTL - its TTL on arrival, 0..63; 0: no echo), bits 9..0 its
     * endpoint delay in ECHO_DELAY_UNIT_NS (saturating). See doc/rocev2-wire-format.md.
     */
    static constexpr int64_t ECHO_DELAY_UNIT_NS = 256;
    static constexpr uint16_t ECHO_DELAY_MASK = 0x3FF; //!< the delay's 10 bits
    static constexpr unsigned ECHO_HOPS_SHIFT = 10;    //!< the hop count's 6 bits
    /// \param delay an endpoint delay \return its echo (saturates at 0x3FF = 261.9 us)
    static uint16_t EncodeEchoDelay(Time delay);

    /// \param ttl a data packet's TTL on arrival \return its hop count's echo bits
    static uint16_t EncodeEchoHops(uint8_t ttl)
    {
        return static_cast<uint16_t>(((RoceFrame::INITIAL_TTL - ttl) & 0x3F) << ECHO_HOPS_SHIFT);
    }

    /// \param ipId an ACK's IPv4 Identification \return the endpoint delay it echoes
    static Time DecodeEchoDelay(uint16_t ipId);
    /// \return DecodeEchoDelay(ipId) in time steps (0 for 0, without a Time)
    static int64_t DecodeEchoDelaySteps(uint16_t ipId);

    /// \param ipId an ACK's IPv4 Identification \return the hop count it echoes (0: none)
    static uint32_t DecodeEchoHops(uint16_t ipId)
    {
        return ipId >> ECHO_HOPS_SHIFT;
    }

    /// Enqueue and Dequeue traces: (priority, frame).
    typedef void (*QueueFrameTracedCallback)(uint8_t, Ptr<const Packet>);
    /// QueueLength trace: (priority, bytes of ACK, NAK and CNP frames waiting on it).
    typedef void (*QueueLengthTracedCallback)(uint8_t, uint64_t);

    static TypeId GetTypeId();
    RoceNic();
    ~RoceNic() override;

    /// Attach the NIC to its port and give it its addresses.
    void Setup(Ptr<RoceNetDevice> device, uint32_t hostIndex, Ipv4Address ip, Mac48Address mac);
    /// Create a local queue pair connected to (peerHost, peerQpn); returns it.
    Ptr<RdmaQueuePair> CreateQueuePair(uint32_t peerHost, uint8_t priority, uint16_t entropy);
    /// Complete the connection once the peer's QP number is known.
    void ConnectQueuePair(Ptr<RdmaQueuePair> qp, uint32_t peerQpn);

    Ipv4Address GetIpv4() const;
    Ptr<RoceNetDevice> GetDevice() const;
    /// Wire bytes of a full data packet (headers, FCS, preamble, IFG included).
    virtual uint32_t GetFullPacketWireBytes() const;
    /// Wire bytes of an ACK frame.
    virtual uint32_t GetAckWireBytes() const;

    /// Framing sizes GetIdealFct assumes: per-packet header and wire overhead bytes of a
    /// data packet, and the extra bytes of a message's first (RETH) and last (ImmDt).
    struct IdealFraming
    {
        uint32_t base;  //!< headers, FCS, preamble and inter-frame gap of every packet
        uint32_t first; //!< more on a message's first packet
        uint32_t last;  //!< more on its last
    };

    /// \return the framing of a data packet for the unloaded FCT (RoCEv2: BTH framing,
    /// RETH 16 on the first, ImmDt 4 on the last)
    virtual IdealFraming GetIdealFraming() const;

    /**
     * Stall (a non-zero \p priorities) or restart (0) the receive pipeline, the fault
     * behind a PFC storm (Guo et al., "RDMA over Commodity Ethernet at Scale",
     * SIGCOMM 2016, section 4.3: a NIC that stops draining pauses its switch port
     * without end). While stalled, the port pauses each priority of the bit mask
     * \p priorities continuously (refreshed before it expires) and the NIC discards
     * what still arrives on them (GetStalledDrops).
     * \param priorities bit p: priority p
     */
    void SetReceiveStalled(uint8_t priorities);
    /// \return frames discarded because the receive pipeline was stalled
    uint64_t GetStalledDrops() const;
    /**
     * \return bytes (Ethernet frames without FCS) of the ACK, NAK and CNP frames waiting
     * for the wire on priority \p prio: the NIC's egress queue. Data frames wait in
     * their queue pairs, unbuilt, until the port pulls them.
     */
    uint64_t GetControlQueueBytes(uint8_t prio) const;

    /// The number of hosts of the fabric: IP packets to other addresses are dropped.
    void SetHostCount(uint32_t hosts);
    /// \return IP packets of the host stack framed and queued for the wire
    uint64_t GetIpSent() const;
    /// \return IP frames received and handed to the host stack
    uint64_t GetIpReceived() const;
    /// \return IP packets dropped (IpDrop: queue full, unknown destination, not IPv4)
    uint64_t GetIpDrops() const;

    /// Ethernet's minimum frame without its FCS (IEEE 802.3: 64 bytes with it).
    static constexpr uint32_t MIN_FRAME_BYTES = 60;

    /// Host-index to address conventions shared by every RoCEv2 part.
    static Ipv4Address HostAddress(uint32_t hostIndex);
    static uint32_t HostIndexOf(Ipv4Address ip);
    static uint32_t HostIndexOf(uint32_t ip);
    static Mac48Address HostMac(uint32_t hostIndex);

  protected:
    void DoDispose() override;
    void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) override;
    /**
     * Queue an ACK-opcode frame of \p qp with AETH syndrome \p syndrome, PSN \p psn
     * and MSN \p msn: what QueueControl sends for an ACK or NAK, with a syndrome of the
     * caller's (UetNic's trim NACK).
     */
    void QueueAethFrame(const RdmaQueuePair& qp, uint32_t psn, uint32_t msn, uint8_t syndrome);

    /**
     * With m_rewriteFrames (a subclass's framing, UetNic): each data frame \p frame the
     * transport built for segment \p s of \p qp, before it leaves; each ACK/NAK/CNP
     * (RewriteControl). Without it (RoCEv2), one untaken branch per frame.
     */
    virtual void RewriteData(const RdmaQueuePair& qp, const RdmaSegment& s, RoceParsedFrame& frame);
    /// See RewriteData.
    virtual void RewriteControl(RoceParsedFrame& frame);
    bool m_rewriteFrames{false}; //!< RewriteData and RewriteControl apply

  private:
    bool DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame) override;
    bool HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const override;
    /// Send control frame \p frame (made from a template): at once if the port is idle,
    /// else queued on its class.
    void SendControl(RoceParsedFrame& frame);
    /**
     * An IPv4 packet of the host stack (NetDevice::Send): after IpSendDelay it is
     * framed (Ethernet to the destination host's MAC, DSCP and PCP of IpPriority) and
     * queued for the wire, where it takes turns with RDMA data.
     */
    bool SendPacket(RoceNetDevice& dev, Ptr<Packet> packet, uint16_t protocol) override;
    /// Frame \p packet to host \p dstHost and queue it (SendPacket, IpSendDelay later).
    void QueueIp(Ptr<Packet> packet, uint32_t dstHost);
    /// Move the first queued IP frame into \p frame. \return true
    [[gnu::noinline]] bool DequeueIp(RoceParsedFrame& frame);
    /// A frame that is not RoCEv2 arrived: an IP packet for the host stack, handed up
    /// without its Ethernet header IpReceiveDelay later.
    [[gnu::noinline]] void ReceiveIp(RoceParsedFrame& frame);
    void NotifyPort() override;
    /// The fields of data packet \p s of \p qp (what its frame's bytes carry).
    RoceFrameFields DataFrameFields(const RdmaQueuePair& qp, const RdmaSegment& s) const;
    /// The fields of an ACK/NAK or CNP of \p qp.
    RoceFrameFields ControlFrameFields(const RdmaQueuePair& qp,
                                       uint8_t opcode,
                                       uint32_t psn,
                                       uint32_t msn,
                                       bool nak) const;
    /// (Re)make \p qp's frame templates (after it is created and when it is connected).
    void MakeFrameTemplates(const RdmaQueuePair& qp);
    /// Make \p frame data packet \p s: the view Describe(DataFrameFields(qp, s)) gives, made
    /// from \p qp's data template plus the packet's entropy, opcode, PSN, sizes, RETH, ImmDt.
    void BuildData(const RdmaQueuePair& qp, const RdmaSegment& s, RoceParsedFrame& frame) const;
    /// Queue an ACK/NAK or CNP of \p qp (ControlFrameFields' frame, from the templates).
    void QueueControl(const RdmaQueuePair& qp,
                      uint8_t opcode,
                      uint32_t psn,
                      uint32_t msn,
                      bool nak) override;

    Ptr<RoceNetDevice> m_device;
    Ipv4Address m_ip;
    Mac48Address m_mac;

    /// Hand a data frame to the host through the receive-side host model (HostDelay,
    /// HostDrainRate): queued behind earlier frames, delivered when the host has it.
    void ReceiveThroughHost(const RoceFrameView& view, Time now);

    /// What the host model keeps of a data frame until the host has it.
    struct HostArrival
    {
        uint32_t destQp;  //!< BTH DestQP
        uint32_t psn;     //!< BTH PSN
        uint32_t payload; //!< payload bytes
        uint8_t opcode;   //!< BTH opcode
        uint8_t syndrome; //!< AETH syndrome (unused for data)
        bool ackReq;      //!< BTH AckReq
        bool congested;   //!< ECN CE
        uint8_t ttl;      //!< IPv4 TTL on arrival (the hop count's echo)
        Time arrival;     //!< when it reached the NIC
    };

    /// The host has \p a: the transport places it and answers, echoing its delay.
    void DeliverFromHost(HostArrival a);
    /// ReceiveFrame with IntEnabled: the data frame's INT block kept for its ACK's
    /// echo, an ACK's block handed to the queue pair's congestion control.
    [[gnu::noinline]] void ReceiveIntFrame(RoceParsedFrame& frame);
    /// A frame arrived (attribution on): tell the attribution.
    [[gnu::noinline, gnu::cold]] void NoteArrival(const RoceFrameView& view);

    // Attributes
    uint8_t m_controlPriority;
    bool m_useVlan;
    bool m_ecnCapable;
    bool m_intEnabled{false}; //!< attribute IntEnabled
    Time m_hostDelay;         //!< per-packet host (PCIe/DMA) delay at the receiver
    DataRate m_hostDrainRate; //!< rate the host takes payload bytes; 0 = infinite

    bool m_hostModel{false}; //!< HostDelay or HostDrainRate set: data goes through it
    Time m_hostBusyUntil;    //!< when the host side has taken every queued frame
    uint16_t m_echoIpId{0};  //!< endpoint-delay echo of the data frame being delivered
    uint8_t m_echoTtl{RoceFrame::INITIAL_TTL}; //!< its TTL (INITIAL_TTL: no hop echo)

    /// The HostDelay and HostDrainRate Attributes' setters (they keep m_hostModel).
    void SetHostDelay(Time delay);
    void SetHostDrainRate(DataRate rate);
    Time GetHostDelay() const;         //!< \return the HostDelay Attribute
    DataRate GetHostDrainRate() const; //!< \return the HostDrainRate Attribute

    /**
     * A queue pair's frames as views holding every field that is the same for all its
     * packets (addresses, classes, ECN capability, P_Key, QPN); a packet's view is its
     * template plus its own fields (BuildData, QueueControl). Made from the NIC's
     * attributes when the queue pair is created and again when it is connected.
     */
    struct FrameTemplates
    {
        RoceFrameView data; //!< WRITE middle without payload
        RoceFrameView ack;  //!< ACK (PSN, MSN, syndrome per frame)
        RoceFrameView cnp;  //!< CNP
    };

    std::vector<FrameTemplates> m_templates; //!< by QpnSlot of the local QPN
    uint32_t m_fullPacketWireBytes{0};       //!< GetFullPacketWireBytes(), per new QP
    /// ACK/NAK/CNP frames by priority, sent before data (highest priority first)
    std::array<FrameFifo<RoceParsedFrame>, 8> m_control;
    uint8_t m_controlMask{0};   //!< bit p: m_control[p] is not empty
    uint8_t m_stalledMask{0};   //!< priorities whose receive is stalled
    uint64_t m_stalledDrops{0}; //!< frames discarded while stalled

    // The host IP stack's path (SendPacket, ReceiveIp).
    FrameFifo<RoceParsedFrame> m_ipFrames; //!< IP frames waiting for the wire
    bool m_ipTurn{false};                  //!< the next frame is an IP one, if one waits
    uint8_t m_ipPriority{0};               //!< IpPriority
    uint32_t m_ipQueuePackets{1000};       //!< IpQueuePackets
    uint32_t m_hostCount{0};               //!< SetHostCount
    uint32_t m_ipHeld{0};                  //!< IP packets accepted and not yet on the wire
    Ptr<NetDeviceQueue> m_txQueue; //!< the stack's view of the transmit queue (flow control)
    Time m_ipSendDelay;            //!< IpSendDelay
    Time m_ipReceiveDelay;         //!< IpReceiveDelay
    uint64_t m_ipSent{0};          //!< GetIpSent
    uint64_t m_ipReceived{0};      //!< GetIpReceived
    uint64_t m_ipDrops{0};         //!< GetIpDrops
    TracedCallback<Ptr<const Packet>> m_ipDropTrace; //!< IpDrop
    std::vector<IntHeader> m_qpInt;                  //!< IntEnabled: latest data INT by QpnSlot
    std::deque<IntHeader> m_hostInt;          //!< IntEnabled: INT of data frames in the host model
    std::array<uint64_t, 8> m_controlBytes{}; //!< GetControlQueueBytes, by priority

    // Egress traces: FlaggedTracedCallbacks that set m_queueTraced when connected, so
    // the frame path tests one byte and builds no packet bytes until then.
    bool m_queueTraced{false};
    FlaggedTracedCallback<uint8_t, Ptr<const Packet>> m_enqueueTrace;
    FlaggedTracedCallback<uint8_t, Ptr<const Packet>> m_dequeueTrace;
    FlaggedTracedCallback<uint8_t, uint64_t> m_queueLengthTrace;
    /// Enqueue (and QueueLength if \p queued) of \p frame on \p prio, out of line.
    [[gnu::noinline, gnu::cold]] void TraceEnqueue(uint8_t prio,
                                                   RoceParsedFrame& frame,
                                                   bool queued);
    /// Dequeue (and QueueLength if \p queued) of \p frame from \p prio, out of line.
    [[gnu::noinline, gnu::cold]] void TraceDequeue(uint8_t prio,
                                                   RoceParsedFrame& frame,
                                                   bool queued);
};

} // namespace ns3

#endif // ROCE_NIC_H
