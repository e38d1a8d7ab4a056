/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_SWITCH_H
#define ROCE_SWITCH_H

#include "ets-weights.h"
#include "roce-port-owner.h"
#include "roce-queued-frame.h"
#include "shared-buffer-mmu.h"

#include "ns3/flagged-traced-callback.h"
#include "ns3/frame-pool.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-frame.h"
#include "ns3/route-table.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

class UetTrimmer;

class RoceNetDevice;
class Packet;
class TopologyGraph;
class EcnMarker;
class EgressPortPolicy;
class DragonflyRouting;

/**
 * \ingroup ai-fabric
 * \brief A shared-buffer RoCEv2 switch: forwarding, 8 priority queues per port,
 * ingress PFC and egress ECN.
 *
 * Each frame is classified to a priority (802.1p if tagged, else DSCP / 8),
 * routed to one of the routing engine's candidate ports by the egress policy,
 * admitted by the shared-buffer MMU (which may drop lossy traffic and triggers
 * PFC XOFF/XON per ingress port and priority), queued, and marked CE at dequeue
 * with the RED-style probability of the egress queue's depth (DCQCN's CP).
 * Frames are forwarded with their headers untouched except the IPv4 TTL, which every
 * switch decrements as an IPv4 router does (RFC 1812 5.3.1; the receiving NIC echoes
 * the hop count it gives, see RoceNic), the ECN bits and, under a class rule, the
 * priority. The TTL is not checked for 0 (RFC 1812 would drop the frame): from the
 * NIC's 64 it cannot get there on loop-free routes of fewer than 64 switches, and
 * RoceFabric refuses a queue pair whose route is longer.
 *
 * Classes (deadlock avoidance): when the route table's rule has more than one
 * class (torus dateline: 2; dragonfly: one more per global cable), class c travels
 * on priority ClassBasePriority + c. A frame arriving on priority base + c is in
 * class c; RouteTable::NextClass gives its class on the egress cable, and when it
 * changes the switch rewrites DSCP (= priority << 3) and the PCP of a tagged frame
 * and queues it on the new priority. PFC accounting of the ingress stays on the
 * priority the frame arrived with. Frames on other priorities (e.g. control, 7)
 * are never reclassified.
 *
 * Forwarding latency (SwitchLatency, CutThrough): a frame arrives whole (its tail),
 * is classified, routed and admitted at once, and the switch writes into it when its
 * output port may start it (ForwardingTiming: cut-through, header + SwitchLatency but
 * never ending before the tail; store-and-forward, tail + SwitchLatency). The port
 * starts it then or when its wire is free, whichever is later, without an event of
 * its own: the wait is part of the frame's time on the port (RoceNetDevice::PutOnWire).
 * A cut-through frame whose head came in long enough ago starts before its tail
 * arrived, as on the switch. Contention for an output is resolved in the order frames
 * arrive whole (a real cut-through switch arbitrates on headers), and a frame handed
 * to its port waits there through its latency even if a pause for its priority
 * arrives meanwhile (pause frames the port sends go out in that wait if they fit).
 *
 * DragonFly non-minimal routing (RoutingMode valiant / ugal): at the router a host
 * attaches to, Valiant sends a packet through a random intermediate group; UGAL
 * (local) keeps the minimal route when q_min <= 2 q_nonmin + UgalOffsetBytes (queued
 * data bytes of the two first-hop ports). A non-minimal packet carries a
 * DragonflyRouteTag until it reaches the intermediate group.
 */
class RoceSwitch : public Object, public RocePortOwner
{
  public:
    /// Per-packet path choice on a DragonFly.
    enum RoutingMode
    {
        MINIMAL, //!< the route table only
        VALIANT, //!< always via a random intermediate group
        UGAL,    //!< minimal or Valiant by local queue depth
        AUTO     //!< the route table's path mode (RouteTable::GetPathMode)
    };

    /// Drop trace: (switch node id, port, reason).
    typedef void (*DropTracedCallback)(uint32_t, uint32_t, const std::string&);
    /// Enqueue, Dequeue and Mark traces: (switch node id, egress port, priority, frame).
    typedef void (*QueueFrameTracedCallback)(uint32_t, uint32_t, uint8_t, Ptr<const Packet>);
    /// QueueLength trace: (switch node id, egress port, priority, bytes queued now).
    typedef void (*QueueLengthTracedCallback)(uint32_t, uint32_t, uint8_t, uint64_t);
    static TypeId GetTypeId();
    RoceSwitch();
    ~RoceSwitch() override;

    /// Ports are numbered in the order they are added (the topology's port numbers).
    void AddPort(Ptr<RoceNetDevice> device);
    void SetRouting(Ptr<const RouteTable> table, uint32_t graphNode);
    void SetEgressPolicy(Ptr<EgressPortPolicy> policy);
    /**
     * Share one DragonFly engine (computed on the same graph) between switches for
     * the valiant / ugal modes. Optional: without it a switch computes its own copy
     * on first use, which costs O(routers^2) per switch on large DragonFlies.
     */
    void SetDragonflyRouting(Ptr<const DragonflyRouting> engine);
    /// \return the effective routing mode (AUTO resolved once routing is set)
    RoutingMode GetRoutingMode() const;
    /// \return classes in use (1 when the class rule is off or the table has one)
    uint8_t GetNumClasses() const;
    /// Configure the MMU and ECN markers once all ports are added.
    void Setup(uint32_t mtuFrameBytes);

    uint32_t GetNPorts() const;
    Ptr<RoceNetDevice> GetPort(uint32_t i) const;
    Ptr<SharedBufferMmu> GetMmu() const;
    /// \return the SwitchLatency attribute
    Time GetSwitchLatency() const;
    /// \return the CutThrough attribute
    bool IsCutThrough() const;
    uint32_t GetHashSeed() const;
    uint64_t GetQueueBytes(uint32_t port, uint8_t queue) const;
    /// \return a bit per egress queue of port `port` that holds frames (bit q: queue q)
    uint8_t GetNonEmptyQueues(uint32_t port) const;
    /// \return bytes queued at egress port `port` over all eight priorities
    uint64_t GetPortBytes(uint32_t port) const;
    uint32_t GetQueuePackets(uint32_t port, uint8_t queue) const;
    /**
     * \return true if egress queue \p queue of \p port holds a frame that arrived on
     * \p inPort with priority \p inPrio (it counts towards that ingress's PFC
     * threshold). Walks the queue: for the deadlock check, not the frame path.
     */
    bool HoldsFrameFrom(uint32_t port, uint8_t queue, uint32_t inPort, uint8_t inPrio) const;

    /**
     * The PFC watchdog's drop action (PfcWatchdog) on egress queue \p prio of \p port,
     * as SONiC's pfcwd drops: when it starts, the frames queued there are discarded;
     * while it lasts, frames routed to that queue and frames arriving on \p port with
     * priority \p prio are discarded too (so the switch stops pausing that peer).
     * Each discard is a "pfc-watchdog" drop (GetWatchdogDrops), neither lossless nor
     * lossy. \p drop false ends it.
     */
    void SetStormDrop(uint32_t port, uint8_t prio, bool drop);
    /// \return frames discarded by SetStormDrop
    uint64_t GetWatchdogDrops() const;

    /**
     * The cable of \p port failed (true) or carries frames again (false)
     * (RoceFabric::FailLink). At the failure the frames queued for the port are
     * discarded; while it is down, frames arriving on it (they were on the cable) and
     * frames the routing still sends into it are discarded too: a blackhole until
     * the switch notices (SetPortExcluded). Each discard is a "link_down" drop
     * (GetLinkDownDrops), neither lossless nor lossy.
     */
    void SetPortDown(uint32_t port, bool down);
    /**
     * The switch knows \p port is down (true: its failure detection, e.g. BFD, fired)
     * or up again (false): the egress policy chooses among the other candidates of a
     * route (the ECMP / spray group shrinks), and a route whose only candidate it is
     * drops its frames ("link_down") until the routing converges (SetRouting with a
     * table computed without the cable).
     */
    void SetPortExcluded(uint32_t port, bool excluded);
    /// \return frames discarded because of a failed cable
    uint64_t GetLinkDownDrops() const;

    uint64_t GetLosslessDrops() const;
    uint64_t GetLossyDrops() const;
    uint64_t GetEcnMarks() const;
    /// \return the Trimmer attribute: the switch's packet trimming (null: none)
    Ptr<UetTrimmer> GetTrimmer() const;
    /// Trim at egress with \p trimmer (the Trimmer attribute; null: stop trimming).
    void SetTrimmer(Ptr<UetTrimmer> trimmer);
    uint64_t GetForwarded() const;
    /// \return frames whose priority this switch rewrote (class changes)
    uint64_t GetReclassified() const;
    /// \return packets this switch sent on a non-minimal (Valiant) path as source router
    uint64_t GetNonMinimalRouted() const;

    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// The tag of a queued frame: its ingress port and priority group (PFC accounting),
    /// kept with the frame (RoceQueuedFrame::GetTag; packed, in its shared header set).
    static uint32_t IngressTag(uint32_t inPort, uint8_t inPrio)
    {
        return inPort << 8 | inPrio;
    }

    /// \return the ingress port of IngressTag \p tag
    static uint32_t TagPort(uint32_t tag)
    {
        return tag >> 8;
    }

    /// \return the ingress priority group of IngressTag \p tag
    static uint8_t TagPrio(uint32_t tag)
    {
        return static_cast<uint8_t>(tag & 0xff);
    }

    using FrameQueue = FramePool<RoceQueuedFrame, false>::Queue; //!< one priority queue

    /// One priority queue of an egress port: its frames (linked through the switch's
    /// FramePool), their bytes (ECN marking, adaptive routing, queue samples) and its
    /// DWRR deficit, kept together so that an enqueue or a dequeue touches one cache line.
    struct alignas(32) EgressQueue
    {
        FrameQueue frames;  //!< the queued frames
        uint64_t bytes{0};  //!< their bytes
        int64_t deficit{0}; //!< DWRR deficit
    };

    /// Whose turn it is in an egress port's deficit round robin.
    struct DwrrTurn
    {
        uint8_t queue{0};    //!< the queue (0..6) whose turn it is
        bool granted{false}; //!< it has had this turn's quantum
    };

    /// The queues of one egress port, by priority.
    struct alignas(64) EgressPort
    {
        std::array<EgressQueue, 8> queue; //!< by priority
    };

    void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) override;
    bool DequeueFrame(RoceNetDevice& dev, uint8_t pausedMask, RoceParsedFrame& frame) override;
    bool HasFrame(const RoceNetDevice& dev, uint8_t pausedMask) const override;
    /// Send a frame admitted for an idle egress port with empty queues at once:
    /// what enqueueing it and the port pulling it would do, in the same order.
    void ForwardAtOnce(uint32_t inPort,
                       uint8_t prio,
                       uint32_t out,
                       uint8_t outPrio,
                       RoceParsedFrame& frame);
    /// (Always inlined into DequeueFrame, its one caller, whatever the inliner's size
    /// estimate of that function: a call per dequeue costs 16 instructions.)
    [[gnu::always_inline]] int PickQueue(uint32_t outPort, uint8_t pausedMask);
    /// PickQueue's choice among the queues \p ready (a bit each, some set) of \p outPort
    /// (strict priority, or DWRR over 0..6 with 7 first).
    int PickAmong(uint32_t outPort, uint8_t ready);
    /**
     * PickQueue of a switch with a forwarding latency and two or more \p ready queues:
     * PickAmong over ReadyQueues. Out of line, so that PickQueue without latency (no
     * call left in it) saves no registers.
     */
    [[gnu::noinline]] int PickTimedQueue(uint32_t outPort, uint8_t ready);
    /// Of the queues \p candidates (a bit each, two or more) of \p outPort, those
    /// whose head frame is ready now, or else the one whose head is ready first.
    uint8_t ReadyQueues(uint32_t outPort, uint8_t candidates);
    void Drop(uint32_t port, const char* reason, bool lossless);
    /// IntEnabled's egress step for \p frame leaving by \p outPort: count its bytes,
    /// and push this hop's record into its INT block if it is a data frame with one.
    /// Out of line: a switch without INT pays one test of m_intEnabled per frame.
    [[gnu::noinline]] void PushInt(uint32_t outPort, RoceParsedFrame& frame);
    /// A frame the PFC watchdog's drop action discards (counted apart from Drop's).
    void DropForWatchdog(uint32_t port);

    /**
     * Buffer of ingress PG (\p inPort, \p inPrio) was released: resume that PG if it is
     * below XON, then every other paused PG that now is (the shared pool, and with it
     * each dynamic threshold, grew). Nothing paused: one test (the frame path's case).
     */
    void ResumeAfterRelease(uint32_t inPort, uint8_t inPrio)
    {
        if (!m_mmu->GetPausedPgs().empty())
        {
            ResumePaused(inPort, inPrio);
        }
    }

    /// ResumeAfterRelease's work while some PG is paused.
    void ResumePaused(uint32_t inPort, uint8_t inPrio);
    static constexpr uint8_t FILTER_STORMS = 1;   //!< some SetStormDrop holds
    static constexpr uint8_t FILTER_FAILURES = 2; //!< some port is down or excluded
    static constexpr uint8_t FILTER_TRIM = 4;     //!< a Trimmer trims at egress (UET)

    /// Set (\p on) or clear a FILTER_* bit of m_frameFilters.
    void SetFrameFilter(uint8_t bit, bool on)
    {
        m_frameFilters = on ? static_cast<uint8_t>(m_frameFilters | bit)
                            : static_cast<uint8_t>(m_frameFilters & ~bit);
    }

    /**
     * What a frame routed to \p out meets when a storm or a failure is on
     * (m_frameFilters): RouteAroundFailure may re-choose \p out (and \p outPrio
     * with it), the PFC watchdog's drop action may discard it.
     * \return false if the frame was dropped
     */
    bool FilterFrame(uint32_t inPort,
                     uint8_t prio,
                     RouteTable::PortSpan c,
                     const RoceFrameView& view,
                     uint32_t& out,
                     uint8_t& outPrio);

    /// The class rule: a frame of class (priority - base) < classes leaving by \p out
    /// takes the class the route table gives; control and other priorities keep theirs.
    uint8_t OutPriority(uint32_t inPort, uint32_t out, uint8_t prio) const
    {
        const uint8_t cls = static_cast<uint8_t>(prio - m_classBase);
        if (m_numClasses > 1 && cls < m_numClasses)
        {
            return static_cast<uint8_t>(m_classBase +
                                        m_routes->NextClass(m_graphNode, inPort, out, cls));
        }
        return prio;
    }

    /// A frame lost to a failed cable (counted apart from Drop's).
    void DropLinkDown(uint32_t port);
    /// Discard egress queue \p prio of \p port, releasing its buffer as dequeues
    /// would; each frame is a watchdog drop, or a link-down drop if \p linkDown.
    void DiscardQueue(uint32_t port, uint8_t prio, bool linkDown);
    /**
     * Some port is down or excluded (SetPortDown, SetPortExcluded): drop a frame that
     * arrived on a dead cable, and re-choose \p out among the live candidates \p c
     * (or drop) when it is excluded or down. \return false if the frame was dropped
     */
    bool RouteAroundFailure(uint32_t inPort,
                            const uint32_t* c,
                            uint32_t count,
                            const RoceFrameView& view,
                            uint32_t& out);
    /// Valiant / UGAL: the egress port, possibly tagging \p p; minimal choice \p out.
    uint32_t RouteNonMinimal(Ptr<Packet> p,
                             uint32_t inPort,
                             uint32_t dst,
                             uint32_t out,
                             const RoceFrameView& view);
    /// Build the dragonfly engine when none was shared.
    void EnsureDragonflyRouting();
    /// \return the path mode of the non-minimal RoutingMode (VALIANT, UGAL)
    RouteTable::PathMode NonMinimalPathMode() const;
    /// \return the DragonFly engine's name of the non-minimal RoutingMode ("valiant", "ugal")
    std::string NonMinimalModeName() const;
    /// Queued data bytes (priorities 0-6) of an egress port.
    uint64_t DataBytes(uint32_t port) const;
    /// Rewrite a frame's priority (DSCP, and PCP if tagged), keeping ECN; the view too.
    static void SetPriority(RoceParsedFrame& frame, uint8_t prio);

    // Ordered by use: the members a frame's hop reads come first, next to the
    // port-owner vtable pointer that the hop's call loads anyway.
    std::vector<Ptr<RoceNetDevice>> m_ports;
    std::vector<EgressPort> m_egress;
    /// Per egress port, bit q set while its queue q holds a frame: picking a queue or
    /// finding a port idle tests one byte.
    std::vector<uint8_t> m_nonEmpty;
    Ptr<const RouteTable> m_routes;
    Ptr<EgressPortPolicy> m_policy;
    Ptr<SharedBufferMmu> m_mmu; //!< attribute
    uint32_t m_graphNode;
    uint32_t m_hashSeed;      //!< attribute
    bool m_idlePortShortcut;  //!< attribute: ForwardAtOnce for frames meeting an idle port
    bool m_dwrr;              //!< attribute
    bool m_ecnEnabled;        //!< attribute
    bool m_intEnabled{false}; //!< attribute IntEnabled
    std::vector<uint64_t> m_intTxBytes; //!< per port: wire bytes sent (INT's txBytes)
    /// FILTER_* bits: what FilterFrame must look at (one test per frame when none)
    uint8_t m_frameFilters{0};
    Ptr<UetTrimmer> m_trimmer; //!< attribute Trimmer (null: no trimming)
    /// Some per-queue trace (Enqueue, Dequeue, Mark, QueueLength) was connected
    bool m_queueTraced{false};
    uint8_t m_numClasses;      //!< classes in use
    uint8_t m_classBase;       //!< attribute
    RoutingMode m_routingMode; //!< attribute
    uint64_t m_forwarded;
    uint64_t m_reclassified;
    FramePool<RoceQueuedFrame, false> m_framePool; //!< every egress queue's frames
    std::vector<Ptr<EcnMarker>> m_ecn;             //!< per port
    std::vector<DwrrTurn> m_dwrrTurn;              //!< per port: whose DWRR turn it is
    Ptr<UniformRandomVariable> m_uniform;

    // Attributes
    Time m_latency;               //!< SwitchLatency
    int64_t m_latencyTicks{0};    //!< m_latency in time steps (Setup)
    bool m_cutThrough{true};      //!< CutThrough
    bool m_timedForwarding{true}; //!< latency or cut-through: frames get a ready time
    uint32_t m_dwrrQuantum;
    EtsWeights m_etsWeights; //!< attribute EtsWeights (DWRR quantum multipliers)
    bool m_useClassRule;
    int64_t m_ugalOffset;

    Ptr<const DragonflyRouting> m_dragonfly; //!< for valiant / ugal
    uint32_t m_group;                        //!< this router's dragonfly group
    std::vector<uint8_t> m_hostPort;         //!< per port: 1 if it faces a host
    Ptr<const TopologyGraph> m_graph;        //!< the routed graph (host groups)

    std::vector<uint8_t> m_stormDrop;           //!< per port, bit p: SetStormDrop(port, p) holds
    uint64_t m_watchdogDrops{0};                //!< frames SetStormDrop discarded
    static constexpr uint8_t PORT_DOWN = 1;     //!< m_portState: the cable failed
    static constexpr uint8_t PORT_EXCLUDED = 2; //!< m_portState: the switch knows it
    std::vector<uint8_t> m_portState;           //!< per port: PORT_DOWN | PORT_EXCLUDED
    std::vector<uint32_t> m_liveCandidates;     //!< RouteAroundFailure's (reused)
    uint64_t m_linkDownDrops{0};                //!< frames lost to failed cables
    uint64_t m_losslessDrops;
    uint64_t m_lossyDrops;
    uint64_t m_ecnMarks;
    uint64_t m_nonMinimal;

    TracedCallback<uint32_t, uint32_t, const std::string&> m_dropTrace;
    // Per-queue traces: FlaggedTracedCallbacks that set m_queueTraced when connected,
    // so the frame path tests that one byte and builds no packet bytes until then.
    FlaggedTracedCallback<uint32_t, uint32_t, uint8_t, Ptr<const Packet>> m_enqueueTrace;
    FlaggedTracedCallback<uint32_t, uint32_t, uint8_t, Ptr<const Packet>> m_dequeueTrace;
    FlaggedTracedCallback<uint32_t, uint32_t, uint8_t, Ptr<const Packet>> m_markTrace;
    FlaggedTracedCallback<uint32_t, uint32_t, uint8_t, uint64_t> m_queueLengthTrace;
    /// Enqueue and QueueLength of a frame queued at (\p out, \p prio), out of line.
    [[gnu::noinline, gnu::cold]] void TraceEnqueue(uint32_t out,
                                                   uint8_t prio,
                                                   RoceParsedFrame& frame);
    /// Enqueue and Dequeue of a frame ForwardAtOnce sends, out of line.
    [[gnu::noinline, gnu::cold]] void TracePassThrough(uint32_t out,
                                                       uint8_t prio,
                                                       RoceParsedFrame& frame);
    /// Dequeue and QueueLength of a frame leaving (\p out, \p prio), out of line.
    [[gnu::noinline, gnu::cold]] void TraceDequeue(uint32_t out,
                                                   uint8_t prio,
                                                   RoceParsedFrame& frame);
};

} // namespace ns3

#endif // ROCE_SWITCH_H
