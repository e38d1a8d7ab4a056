/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_SWITCH_H
#define IB_SWITCH_H

#include "ib-frame.h"

#include "ns3/flagged-traced-callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class IbNetDevice;
class Packet;
class RouteTable;

/**
 * \ingroup ai-fabric
 * \brief An InfiniBand switch: LFT forwarding, SL-to-VL per output port, optional
 * adaptive routing, input-buffered credit flow control.
 *
 * A packet is charged to the receive buffer of its input port and VL until it starts
 * on its output port, so the input port's credits (and so the upstream sender) follow
 * the output's backlog: lossless by construction. Queues are per (output port, VL),
 * so a blocked output does not block packets behind it to other outputs.
 *
 * Forwarding: the Subnet Manager installs the LFT (DLID -> port). With
 * AdaptiveRouting the switch picks, among the SM's port set for the destination, the
 * port with the fewest queued bytes (ties: the LFT port). The output VL is the output
 * port's SL2VL entry for the packet's SL, or, when the route table has a per-hop
 * class rule (torus dateline, dragonfly), the class that rule gives for (input,
 * output, VL). Per-path SLs (dfsssp's layers) go through the SL2VL maps.
 *
 * Failed cables: when a port's link goes down the switch discards what it queued for
 * that port, and later packets whose LFT port is down (the SM has not re-routed yet),
 * counting them as link-down drops and returning their input credits; adaptive
 * routing only picks ports whose link is up. These are not lossless drops: the
 * credit protocol was kept, the cable is gone.
 *
 * Congestion control (IBTA Annex A10, simplified): with FecnThreshold > 0 a packet
 * leaving an output (port, VL) queue that still holds at least that many bytes gets
 * its BTH FECN bit set (every FecnMarkingRate + 1 eligible packets of at least
 * FecnPacketSize bytes, per port). The
 * destination HCA answers with a CNP carrying BECN, and the source's rate controller
 * (DCQCN) reacts to it as to a RoCEv2 CNP. Marking on departure means the port was
 * sending, so it is a root of congestion, not a victim waiting for credits.
 *
 * Latency: cut-through (default) forwards once the header is in and SwitchLatency has
 * passed, but never finishes sending before the tail has arrived; store-and-forward
 * waits for the tail, then SwitchLatency.
 */
class IbSwitch : public Object
{
  public:
    static TypeId GetTypeId();
    IbSwitch();
    ~IbSwitch() override;

    /// Add the next port (port numbers follow the order of calls).
    void AddPort(Ptr<IbNetDevice> dev);
    uint32_t GetNPorts() const;
    Ptr<IbNetDevice> GetPort(uint32_t i) const;

    /// Install the linear forwarding table (index DLID, value port; 0xFFFF = none).
    void SetLft(const std::vector<uint16_t>& lft);
    const std::vector<uint16_t>& GetLft() const;
    /// The SM's adaptive sets and class rule: the route table and this switch's node id.
    void SetRouting(Ptr<const RouteTable> routes, uint32_t node);
    /// SL-to-VL map of an output port (index SL).
    void SetSl2Vl(uint32_t port, const std::array<uint8_t, 16>& map);

    /// Drop trace: (switch node id, port, reason), as RoceSwitch's.
    typedef void (*DropTracedCallback)(uint32_t, uint32_t, const std::string&);
    /// QueueLength trace: (switch node id, egress port, VL, bytes queued now on it).
    typedef void (*QueueLengthTracedCallback)(uint32_t, uint32_t, uint8_t, uint64_t);

    uint64_t GetForwarded() const;
    uint64_t GetUnroutable() const;
    /// Packets discarded because their output port's cable failed.
    uint64_t GetLinkDownDrops() const;
    /// Packets this switch marked with FECN.
    uint64_t GetFecnMarked() const;
    /// \return bytes queued for an output (port, VL)
    uint64_t GetQueuedBytes(uint32_t port, uint8_t vl) const;
    uint64_t GetQueuedBytes(uint32_t port) const;
    /// \return true if output (port, VL) holds a packet and its port has too few
    /// credits on that VL for the first one
    bool IsCreditBlocked(uint32_t port, uint8_t vl) const;
    /**
     * \return true if output (port, VL) holds a packet that arrived on \p inPort and
     * \p inVl (it occupies that input's buffer). Walks the queue: for the deadlock
     * check, not the packet path.
     */
    bool HoldsPacketFrom(uint32_t port, uint8_t vl, uint32_t inPort, uint8_t inVl) const;

  protected:
    void DoDispose() override;

  private:
    struct Queued
    {
        Ptr<Packet> p;
        uint32_t inPort;
        uint8_t inVl;
        uint32_t blocks;
    };

    void Receive(Ptr<IbNetDevice> dev, Ptr<Packet> p, const IbFrameView& v, Time txIn);
    void Enqueue(Ptr<Packet> p, uint32_t outPort, uint8_t outVl, uint32_t inPort, uint8_t inVl);

    /// A packet on its way through the switch (Receive to Enqueue).
    struct Forward
    {
        Ptr<Packet> packet; //!< the packet
        uint32_t outPort;   //!< where it goes
        uint32_t inPort;    //!< where it came from
        uint8_t outVl;      //!< its VL out
        uint8_t inVl;       //!< its VL in
    };

    /// Enqueue of the Forward \p payload on switch \p sw, as a FabricSimulator call.
    static void EnqueueCall(void* sw, void* payload);
    uint32_t Head(Ptr<IbNetDevice> dev, uint8_t vl);
    Ptr<Packet> Dequeue(Ptr<IbNetDevice> dev, uint8_t vl);
    void LinkChanged();
    void DropLinkDown(uint32_t outPort, uint32_t inPort, uint8_t inVl, uint32_t blocks);

    Time m_latency;
    bool m_cutThrough;
    bool m_adaptive;
    uint32_t m_fecnThreshold;   //!< Attribute, bytes; 0 = no marking
    uint32_t m_fecnMarkingRate; //!< Attribute: eligible packets skipped between marks
    uint32_t m_fecnPacketSize;  //!< Attribute, bytes: smaller packets are not marked

    std::vector<Ptr<IbNetDevice>> m_ports;
    std::vector<uint16_t> m_lft;
    Ptr<const RouteTable> m_routes;
    bool m_hopClasses{false}; //!< the table has a per-hop class rule (dateline, global hop)
    uint32_t m_node;
    std::vector<std::array<uint8_t, 16>> m_sl2vl;       //!< per output port
    std::vector<std::vector<std::deque<Queued>>> m_voq; //!< [port][vl]
    std::vector<uint64_t> m_queuedBytes;                //!< per output port (incl. in flight)
    std::vector<std::array<uint64_t, 15>> m_vlBytes;    //!< per output (port, VL), in the queue
    std::vector<uint32_t> m_sinceMark;                  //!< per port: eligible since last mark
    uint64_t m_forwarded;
    uint64_t m_unroutable;
    uint64_t m_linkDownDrops;
    uint64_t m_fecnMarked;
    TracedCallback<uint32_t, uint32_t, const std::string&> m_dropTrace;
    /// (node, port, VL, bytes) when a VL's queue changes; sets m_queueTraced when
    /// connected, so an unconnected one costs a test of that byte per packet
    FlaggedTracedCallback<uint32_t, uint32_t, uint8_t, uint64_t> m_queueLengthTrace;
    bool m_queueTraced{false}; //!< QueueLength was connected
    /// QueueLength of (\p port, \p vl), out of the packet path's code.
    [[gnu::noinline, gnu::cold]] void TraceQueueLength(uint32_t port, uint8_t vl);
};

} // namespace ns3

#endif // IB_SWITCH_H
