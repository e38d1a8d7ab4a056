/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_H
#define RDMA_FABRIC_H

#include "ns3/abort.h"
#include "ns3/ai-fabric-deprecated.h"
#include "ns3/callback.h"
#include "ns3/congestion-control-factory.h"
#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class RouteTable;
class RdmaQueuePair;
class WaitForGraph;
class RdmaNic;
class FctAttribution;
class NetDevice;
class PcapFileWrapper;
struct RdmaMessage;

/**
 * \ingroup ai-fabric
 * \brief What workloads see of a fabric, RoCEv2 or InfiniBand: hosts that post
 * RDMA WRITEs to each other, completions, and fabric-wide counters.
 *
 * Workloads (point-to-point patterns, background flows, collectives) talk only
 * to this interface, so the same workload runs unchanged on either fabric.
 *
 * Connections: the two hosts of a message share one RC connection (a queue pair at
 * each end), made on first use; a workload that wants several connections between
 * the same two hosts (a collective's channels, as NCCL opens one per channel and
 * peer) names them by a connection index, and each index is its own connection. Once neither end
 * has anything posted, unacknowledged or held, the connection is idle; idle for QpIdleTimeout, it
 * is released at both ends (RdmaNic::ReleaseQueuePair) the next time a message is posted, and made
 * anew when the pair talks again. Memory then follows the connections in use, not every pair that
 * ever talked. Releases happen only in PostWrite, never on a packet's path.
 *
 * A workload that opens a connection per flow (PostWriteOnOwnConnection) gets one made
 * for that message alone and released as soon as it is done, without the wait.
 */
class RdmaFabric : public Object
{
  public:
    /// A finished message (one fct.csv row).
    struct MessageRecord
    {
        uint64_t id{0};
        uint32_t src{0};
        uint32_t dst{0};
        uint64_t bytes{0};
        uint64_t tag{0};
        uint8_t kind{0};
        Time start;
        Time end;
        Time ideal;
    };

    // (the constructor the compiler writes initialises the deprecated member below:
    // that is no use of it, so it does not warn; a program's own use of it does)
    AI_FABRIC_WARNING_PUSH_DEPRECATED

    /// Fabric-wide counters for summary.json.
    struct Counters
    {
        uint64_t losslessDrops{0};
        uint64_t lossyDrops{0};
        uint64_t pfcPausesSent{0};  //!< PFC pause (XOFF) frames sent (RoCEv2) or 0 (IB)
        uint64_t pfcResumesSent{0}; //!< PFC resume (XON, quanta 0) frames sent, or 0 (IB)
        uint64_t creditUpdates{0};  //!< flow-control packets (IB) or 0 (RoCEv2)
        uint64_t retransmittedPackets{0};
        uint64_t timeouts{0};
        uint64_t ecnMarks{0};
        uint64_t cnpsSent{0};
        uint64_t packetHops{0}; //!< frames put on any link (every hop counts)
        uint64_t txBytes{0};
        uint64_t queuePairs{0};         //!< RC connections made (released ones included)
        uint64_t queuePairsPeak{0};     //!< RC connections alive at once, at most
        uint64_t queuePairsReleased{0}; //!< RC connections released (idle for QpIdleTimeout,
                                        //!< or their own connection's message done)
        uint64_t staleFrames{0};        //!< arrivals for a released queue pair, dropped
        uint64_t qpCacheMisses{0};      //!< QP-context fetches (RdmaNic QpCacheSize > 0)
        uint64_t outOfOrderPackets{0};
        uint64_t spuriousRetransmissions{0}; //!< packets that arrived twice
        uint64_t linkDownDrops{0};       //!< packets lost to a failed cable (not lossless drops)
        uint64_t pfcWatchdogDrops{0};    //!< frames the PFC watchdog's drop action discarded
        uint64_t stalledReceiveDrops{0}; //!< frames a NIC with a stalled receive discarded
        uint64_t readBytes{0};  //!< bytes READ responses delivered (in order, at requesters)
        uint64_t rnrNaks{0};    //!< RNR NAKs sent (SENDs that found no posted receive)
        uint64_t rnrRetries{0}; //!< resends after an RNR NAK's wait
        uint64_t qpErrors{0};   //!< queue pairs in the error state (RNR retries exhausted)

        /**
         * \deprecated Until commit bef3edc, all the PFC frames sent: pauses and resumes.
         * Kept for one release with that meaning, filled by RoceFabric::GetCounters
         * (pfcPausesSent + pfcResumesSent; 0 on InfiniBand, as before). Last, so the
         * members before it keep their places (CHANGES.md).
         */
        AI_FABRIC_DEPRECATED("RdmaFabric::Counters::pauseFramesSent counted pauses and resumes: "
                             "use pfcPausesSent + pfcResumesSent (see CHANGES.md)")
        uint64_t pauseFramesSent{0};
    };

    AI_FABRIC_WARNING_POP

    /**
     * One cable failure (RoceFabric::FailLink, IbFabric::FailLink) and what the
     * fabric's routing made of it. Times are -1 while (or if) it has not happened.
     */
    struct LinkFailureRecord
    {
        uint32_t link{0};          //!< graph link id
        uint32_t nodeA{0};         //!< one end: node
        uint32_t portA{0};         //!< and port
        uint32_t nodeB{0};         //!< the other end: node
        uint32_t portB{0};         //!< and port
        Time down;                 //!< when the cable failed
        Time up{-1};               //!< when it carries frames again (-1: never)
        Time detected{-1};         //!< the routing first reacted (RoCE: the ends noticed)
        Time converged{-1};        //!< every switch routes around it
        Time restoreConverged{-1}; //!< after up: every switch uses it again
    };

    /// One host (GPU server) failure (FailHost).
    struct HostFailureRecord
    {
        uint32_t host{0}; //!< host index
        uint32_t node{0}; //!< its graph node
        Time at;          //!< when it failed
    };

    /**
     * A port whose receive buffer cannot cover its link's bandwidth-delay product: what
     * the peer may send before the buffer's flow control can act (GetBufferShortfalls).
     */
    struct BufferShortfall
    {
        uint32_t node{0};        //!< graph node id
        uint32_t port{0};        //!< its port
        uint64_t bufferBytes{0}; //!< the buffer that must cover it
        uint64_t neededBytes{0}; //!< what arrives before flow control takes effect
        std::string buffer;      //!< what the buffer is ("VL buffer", "PFC headroom")
        std::string needed;      //!< what neededBytes is ("credit round trip", ...)
    };

    typedef Callback<void, const MessageRecord&> MessageCallback;
    /// (src host, dst host, tag, bytes) when a message's last byte is placed.
    typedef Callback<void, uint32_t, uint32_t, uint64_t, uint64_t> DeliveredCallback;

    static TypeId GetTypeId();
    RdmaFabric();
    ~RdmaFabric() override;

    /// \return the number of hosts (the graph's; 0 once disposed)
    virtual uint32_t GetNHosts() const;
    /// \return the graph the fabric was installed on (its helper's)
    virtual Ptr<TopologyGraph> GetGraph() const;
    virtual Ptr<const RouteTable> GetRoutes() const = 0;
    /// \return the fabric's nodes, by graph node
    virtual const NodeContainer& GetNodes() const;
    /// \return the graph node of the fabric's \p i-th switch (in graph switch order)
    uint32_t GetSwitchNode(uint32_t i) const;
    /// The largest message PostWrite takes: 1 PiB (2^50 bytes). Its bit count fits 64
    /// bits with room for header arithmetic, and at 100 Gb/s it takes 9.0e4 s, well
    /// within MAX_TIME_SECONDS; 2^64-1 bytes would wrap to 0 packets.
    static constexpr uint64_t MAX_MESSAGE_BYTES = 1ULL << 50;

    /**
     * Post an RDMA WRITE of `bytes` from host src to host dst on their RC connection
     * number \p connection (made on first use, with its congestion controller; on
     * RoCEv2 each connection index has its own UDP source port, so ECMP may route
     * it apart); the receiver posts the matching receive. Aborts for an unknown host,
     * src == dst, or bytes outside 1..MAX_MESSAGE_BYTES (inputs are checked before:
     * ParseByteSize, FlowFile).
     * \return the message id
     */
    virtual uint64_t PostWrite(uint32_t src,
                               uint32_t dst,
                               uint64_t bytes,
                               uint64_t tag,
                               uint8_t kind,
                               uint32_t connection = 0);
    /**
     * Post an RDMA READ: host \p requester reads `bytes` from host \p responder on their
     * RC connection number \p connection (made on first use, as for PostWrite). The
     * request goes requester -> responder, the data (READ responses) responder ->
     * requester; no receive is posted. Its completion (the last response in) is a
     * MessageRecord with src = requester and dst = responder (the data flowed dst ->
     * src) and the ideal FCT of the data's direction. Aborts as PostWrite does.
     * \return the message id
     */
    uint64_t PostRead(uint32_t requester,
                      uint32_t responder,
                      uint64_t bytes,
                      uint64_t tag,
                      uint8_t kind,
                      uint32_t connection = 0);
    /// Post an RDMA READ as PostRead does, on an RC connection of its own, made and
    /// released as PostWriteOnOwnConnection's. \return the message id
    uint64_t PostReadOnOwnConnection(uint32_t requester,
                                     uint32_t responder,
                                     uint64_t bytes,
                                     uint64_t tag,
                                     uint8_t kind);
    /**
     * Post a SEND (with immediate) of `bytes` from host src to host dst, as PostWrite
     * does a WRITE: it consumes a receive posted at dst's queue pair (its receive queue,
     * RdmaQueuePair ReceiveQueueDepth, or dst's shared one); without one dst answers an
     * RNR NAK and src resends after the RNR timer. Same checks as PostWrite.
     * \return the message id
     */
    uint64_t PostSend(uint32_t src,
                      uint32_t dst,
                      uint64_t bytes,
                      uint64_t tag,
                      uint8_t kind,
                      uint32_t connection = 0);
    /**
     * Receive-side matching fixed in advance, for a workload whose messages are a static
     * graph (a collective's transfers): the receiver \p dst posts now the receive of the
     * next message \p src sends on their RC connection number \p connection (made now if
     * it is not yet, as PostWrite makes it), with \p tag as what its completion reports.
     * RC delivers a connection's messages in order, so the k-th receive posted here
     * matches the k-th message posted with PostPrematched on that connection: every
     * process of a run across MPI ranks can post them all at the start, in the same order,
     * and connections, queue pair numbers and receives then agree, though only the
     * sender's rank sees when each message is posted. Aborts as PostWrite does.
     */
    void PostReceive(uint32_t src, uint32_t dst, uint64_t tag, uint32_t connection = 0);
    /**
     * Make the RC connection number \p connection between hosts \p src and \p dst now
     * if it is not yet (as PostWrite makes it, and marked in use as a post marks it),
     * posting nothing: a workload that makes its connections in advance in a fixed
     * order, so that queue pair numbers agree on every MPI rank, also makes those that
     * no host of this process uses. Aborts as PostWrite does.
     */
    void OpenConnection(uint32_t src, uint32_t dst, uint32_t connection);
    /**
     * Take \p n message ids at once (counted as posted, as PostWrite's are); the caller
     * gives them to its PostPrematched messages.
     * \return the first; the others follow it
     */
    uint64_t ReserveMessageIds(uint64_t n);
    /**
     * A message whose packets are not simulated (fast-forward, FastForwardTransport): it
     * takes a message id now and counts as posted; the delivered listeners hear of it
     * after \p delivered and the message listeners (an fct.csv row, its ideal FCT as any
     * message's) after \p acked (>= \p delivered), as of a simulated message. No queue
     * pair, port or counter sees it.
     * \return the message id
     */
    uint64_t PostSkipped(uint32_t src,
                         uint32_t dst,
                         uint64_t bytes,
                         uint64_t tag,
                         uint8_t kind,
                         Time delivered,
                         Time acked);
    /**
     * \p n of the ids ReserveMessageIds gave will carry no message (an algorithm's
     * transfers that the switches carry, CollNet's SHARP operations): they count as done,
     * so GetPendingMessages counts only messages.
     */
    void ForgoMessageIds(uint64_t n);
    /**
     * Post a WRITE (or a SEND, \p send) as PostWrite does, but without posting its
     * receive (PostReceive did, in the order of the connection's messages) and under
     * message id \p id, taken with ReserveMessageIds. Only host \p src's process sends.
     */
    void PostPrematched(uint32_t src,
                        uint32_t dst,
                        uint64_t bytes,
                        uint64_t tag,
                        uint8_t kind,
                        uint32_t connection,
                        uint64_t id,
                        bool send);
    /// \return whether this process sends what host \p host posts: always in one
    /// process; across MPI ranks (RankPartition) only on the rank that owns the host
    bool IsLocalHost(uint32_t host) const;
    /// The first connection index PostWriteOnOwnConnection gives out; a workload's own
    /// indices (PostWrite's \p connection) stay below it.
    static constexpr uint32_t FIRST_OWN_CONNECTION = 1U << 31;
    /**
     * Post an RDMA WRITE as PostWrite does, on an RC connection of its own between src
     * and dst: made now (two new queue pairs with their QPNs and congestion controllers
     * and, on RoCEv2, their own UDP source port) under a connection index of
     * FIRST_OWN_CONNECTION or above that no other connection of the pair has, and
     * released at both ends once its message is done (at the first post after that,
     * as idle connections are; never while QpIdleTimeout is 0). This is what an
     * application that opens one QP per flow and destroys it when the flow ends does,
     * as the HPCC simulator's RdmaClient does (RdmaHw::AddQueuePair per flow,
     * RdmaHw::DeleteQueuePair at its completion).
     * \return the message id
     */
    uint64_t PostWriteOnOwnConnection(uint32_t src,
                                      uint32_t dst,
                                      uint64_t bytes,
                                      uint64_t tag,
                                      uint8_t kind);
    /// PostWriteOnOwnConnection's SEND: a SEND on an RC connection of its own.
    uint64_t PostSendOnOwnConnection(uint32_t src,
                                     uint32_t dst,
                                     uint64_t bytes,
                                     uint64_t tag,
                                     uint8_t kind);
    /// Switch hops between two hosts on the routed path (PathLinks' links less one).
    virtual uint32_t GetPathHops(uint32_t src, uint32_t dst) const;
    /// The congestion controller each new queue pair gets (algorithm, preset, overrides).
    void SetCongestionControlFactory(const CongestionControlFactory& factory);
    /**
     * Unloaded completion time of a message on its path (PathLinks), ACK included: the
     * source's framing (GetHostPort) packet by packet through the links, store-and-forward
     * (PipelinedMakespan) or cut-through (the slowest link), plus each switch's latency,
     * then the ACK back, rounded to the simulator's resolution.
     */
    virtual Time GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const;
    virtual Counters GetCounters() const = 0;

    /// What one port has sent so far (its own counters).
    struct PortTx
    {
        uint64_t bytes{0};  //!< bytes sent (RoCEv2: frames without preamble, FCS and gap;
                            //!< InfiniBand: packets LRH to VCRC)
        uint64_t frames{0}; //!< frames (packets) sent
    };

    /**
     * \param node a TopologyGraph node id
     * \param port one of its ports (TopologyGraph::GetPorts order)
     * \return what that port has sent (read from its counters, kept anyway: reading
     * costs nothing on the packet path)
     *
     * RoceFabric and IbFabric implement it; a fabric that keeps no per-port counters
     * (the default) stops with a message naming it.
     */
    virtual PortTx GetPortTx(uint32_t node, uint32_t port) const;
    /**
     * Put into \p graph every switch egress queue that holds frames, is blocked by its
     * link partner (PFC pause on RoCEv2, too few credits on InfiniBand) and has sent
     * nothing for at least \p stallTicks time steps, with the edges of what each waits
     * for (WaitForGraph). DeadlockDetector calls it periodically; a fabric that tracks
     * progress between calls may keep state. The default adds nothing.
     */
    virtual void CollectStalledQueues(int64_t stallTicks, WaitForGraph& graph);
    /// \return what a WaitForGraph vertex's lane is on this fabric: "priority" or "vl"
    virtual std::string GetLaneName() const;

    /**
     * Tenants (jobs) on a shared fabric: the traffic class of the connections between
     * \p src and \p dst (both directions; before their first message). RoCEv2: the
     * 802.1p priority and DSCP of their queue pairs (0..6); InfiniBand: their service
     * level (0..15).
     * \throws std::invalid_argument for a class this fabric cannot carry (the default:
     *         no per-pair class)
     */
    virtual void SetPairClass(uint32_t src, uint32_t dst, uint8_t trafficClass);
    /**
     * Partitions assigned by the fabric's manager: host h is a full member of the
     * partition of P_Key \p pKeys[h] (0 = the default partition 0xFFFF only); its queue
     * pairs carry that P_Key in their BTH and its port drops a packet of any other
     * partition (counted: GetPKeyViolations). Before the first message.
     * \throws std::invalid_argument if the fabric enforces no partitions (the default)
     */
    virtual void AssignPartitions(const std::vector<uint16_t>& pKeys);
    /// \return packets the hosts' ports dropped for a foreign P_Key (0 by default)
    virtual uint64_t GetPKeyViolations() const;

    /// IP packet counters of the hosts' NICs (HCAs), summed (GetIpCounters).
    struct IpCounters
    {
        uint64_t sent{0};     //!< IP packets framed and queued for the wire
        uint64_t received{0}; //!< IP packets handed to the hosts' stacks
        uint64_t drops{0};    //!< IP packets the NICs dropped
    };

    /**
     * IP over the fabric (ns-3's internet stack on the hosts, e.g. TcpFlowTransport):
     * carry the hosts' IP packets in traffic class \p trafficClass (RoCEv2: the 802.1p
     * priority and DSCP of RoceNic::IpPriority; InfiniBand: the service level of the
     * IPoIB interfaces it creates). Before the stack is installed.
     * \throws std::invalid_argument if this fabric carries no IP (the default)
     */
    virtual void EnableIp(uint8_t trafficClass);
    /// \return the device host \p host's IP stack sends on; null before EnableIp
    virtual Ptr<NetDevice> GetIpDevice(uint32_t host) const;
    /**
     * The hosts' IPv4 addresses are assigned (on their GetIpDevice): resolve them as
     * the fabric needs (InfiniBand: every IPoIB interface's neighbour table; RoCEv2
     * resolves by its address plan, RoceNic::HostIndexOf, and needs nothing).
     */
    virtual void ResolveIpNeighbours();
    /// \return the hosts' IP counters (zeros by default)
    virtual IpCounters GetIpCounters() const;

    /**
     * The ports whose buffer is smaller than the bytes their link delivers before flow
     * control can stop or pace the sender (InfiniBand: a VL buffer below the credit
     * round trip, so the link idles waiting for credits; RoCEv2: a PFC headroom below
     * what arrives after XOFF, so a lossless class can drop), in graph node and port
     * order. Checked once the fabric is built, before the run; the default finds none.
     * \return the ports
     */
    virtual std::vector<BufferShortfall> GetBufferShortfalls() const;
    /// Messages posted and not yet acknowledged (nor, with FailHost, completed in error).
    uint64_t GetPendingMessages() const;
    /// \return RC connections alive now (made and not released)
    uint64_t GetLiveConnections() const;
    /// \return RC connections released so far
    uint64_t GetReleasedConnections() const;
    /// \return the cable failures scheduled so far, in FailLink order (none by default)
    const std::vector<LinkFailureRecord>& GetLinkFailures() const;

    /**
     * Fail switch-to-switch cable \p link (a graph link id) at simulated time \p down
     * (>= now) and, if \p up is not negative (> down), bring it back then; recorded in
     * GetLinkFailures. Checked at once (RecordLinkFailure's checks, and what the fabric
     * cannot do: InfiniBand refuses \p up, a failed cable does not come back there).
     * FaultInjectionHelper calls it. The default refuses: this fabric has no failures.
     * \throws std::invalid_argument naming the link and the reason
     */
    virtual void FailLink(uint32_t link, Time down, Time up = Time(-1));
    /**
     * A PFC storm's cause: host \p host's NIC stops taking the frames of the fabric's
     * lossless classes (its routing classes' priorities) from simulated time \p start
     * (>= now), so its port keeps pausing its switch, until \p end if it is not
     * negative (> start). Across MPI ranks only the host's rank stalls it. Checked at
     * once. FaultInjectionHelper calls it. The default refuses (no pause frames).
     * \throws std::invalid_argument naming the host and the reason
     */
    virtual void StallReceive(uint32_t host, Time start, Time end = Time(-1));
    /**
     * Host \p host (a GPU server's NIC) fails at simulated time \p at (>= now) for good:
     * every cable of its node stops carrying frames both ways (the switch end drops what
     * it holds for the host and what arrives, as for a failed cable: "link_down" drops),
     * so its peers' queue pairs time out until their retries run out (RdmaQueuePair
     * RetryCount) and enter the error state. The routes are left as they are: nothing
     * can reach the host any more. Checked at once (RecordHostFailure); recorded in
     * GetHostFailures. FaultInjectionHelper calls it. At \p at the host's queue pairs
     * (GetHostNic) enter the error state, then the fabric cuts its cables
     * (CutHostCables). Refused by a fabric without host NICs.
     * \throws std::invalid_argument naming the host and the reason
     */
    void FailHost(uint32_t host, Time at);
    /**
     * \param host a host index
     * \return its NIC (RoceNic, IbHca): its queue pairs and counters; null where the
     *         fabric has none (the default)
     */
    virtual Ptr<RdmaNic> GetHostNic(uint32_t host) const;
    /// \return the host failures FailHost took, in order
    const std::vector<HostFailureRecord>& GetHostFailures() const;

    /// (graph node, port, priority, true: a pause (XOFF) / false: a resume (XON) sent)
    typedef Callback<void, uint32_t, uint32_t, uint8_t, bool> PfcSentCallback;
    /// (graph node, port, reason) of a packet dropped ("link_down": lost on a failed
    /// cable, counted at the port it was heading to)
    typedef Callback<void, uint32_t, uint32_t, const std::string&> DropCallback;
    /// (graph node, port, queue, bytes) of a switch egress queue holding bytes
    typedef std::function<void(uint32_t, uint32_t, uint8_t, uint64_t)> QueueVisitor;

    /**
     * Call \p cb for every PFC frame a port of graph node \p node sends (pfc.csv).
     * The default connects nothing: a fabric without PFC sends none.
     */
    virtual void ConnectPfcSent(uint32_t node, PfcSentCallback cb);
    /**
     * Call \p cb for every packet a switch drops, with its reason, and for every packet
     * lost on a failed cable (drops.csv). The default connects nothing.
     */
    virtual void ConnectDrops(DropCallback cb);
    /**
     * Split every message's FCT into causes from now on (--attribution): the hosts'
     * queue pairs and every port report to \p attribution, which fires its
     * MessageAttributed trace per completed message. This base class connects the
     * hosts; a fabric's override connects its ports too and calls it.
     */
    virtual void EnableAttribution(Ptr<FctAttribution> attribution);
    /// \return the attribution EnableAttribution connected, or nullptr
    Ptr<FctAttribution> GetAttribution() const;
    /**
     * Visit now every egress queue holding bytes of every switch whose graph node
     * \p nodes accepts, in switch, port and queue order (qlen.csv).
     * \return false if this fabric's queues are not sampled (the default): then none
     *         is visited and there is no use asking again
     */
    virtual bool VisitSwitchQueues(const std::function<bool(uint32_t)>& nodes,
                                   const QueueVisitor& visit) const;

    /// The largest PcapSnapLength: 65535 bytes, ns-3 PcapFile's default snapshot length
    /// (PcapFile::SNAPLEN_DEFAULT), above the largest frame of either fabric (a 9216-byte
    /// RoCEv2 MTU plus Ethernet header; an InfiniBand 4096-byte MTU plus headers).
    static constexpr uint32_t MAX_PCAP_SNAP_LENGTH = 65535;
    /// \return the first pcap file a write to failed (a full disk: it is truncated),
    /// "" if every one is whole so far (or none was opened)
    std::string GetPcapWriteError() const;
    /// \return the pcap files EnablePcap opened, in the order it opened them
    std::vector<std::string> GetPcapFiles() const;
    /**
     * Write one pcap (nanosecond timestamps, the fabric's link type and records,
     * PcapSnapLength bytes of each frame) per port of every node (of the hosts only if
     * \p hostsOnly): PREFIX-NODE-PORT.pcap, NODE and PORT the graph's. What a port
     * records and when is the fabric's (RoceFabric, IbFabric: EnablePcapPort).
     */
    void EnablePcap(const std::string& prefix, bool hostsOnly);
    /// The same for the ports \p select accepts (node, port), e.g. --pcap-nodes'.
    void EnablePcap(const std::string& prefix,
                    const std::function<bool(uint32_t node, uint32_t port)>& select);

    /**
     * \return whether a link of this fabric holds a frame back rather than drop it when
     * the receiver has no room (PFC on RoCEv2, credits on InfiniBand): only then can
     * the routing's channel dependencies deadlock. The default: true.
     */
    virtual bool HasLosslessLinks() const;
    /**
     * \return whether the fabric's scale-up crossbars can reduce and multicast in the
     * switch (NVIDIA's NVLink SHARP, which NCCL's NVLS algorithm uses): crossbars that
     * can hold an NvlsSwitchEngine (RoCEv2 switches), on GPU cables whose flow control
     * bounds that engine's buffer (PFC pauses, its PauseBytes). The NVLS path
     * (NvlsAllreduce, NvlsCollectiveTransport) refuses a fabric without it. The
     * default: false.
     */
    virtual bool HasNvlinkSharp() const;
    /**
     * \return the routing classes (RouteTable::GetNumClasses: torus datelines,
     * dragonfly hops, virtual layers) the switches keep apart: the route table's, or 1
     * when the switches put every packet in one class (RoceSwitch UseClassRule false).
     * The default: the route table's.
     */
    virtual uint32_t GetSwitchClasses() const;

    /// Every listener is called for every finished message (sender completion).
    void AddMessageCallback(MessageCallback cb);
    /// Every listener is called for every delivered message (receiver completion).
    void AddDeliveredCallback(DeliveredCallback cb);

    /// The NICs' (HCAs') sender-completion hook: records the message with its FCT and
    /// ideal FCT and notifies the listeners.
    void OnMessageSent(Ptr<const RdmaQueuePair> qp, const RdmaMessage& m);
    /// The NICs' (HCAs') receiver-completion hook.
    void OnDelivered(Ptr<const RdmaQueuePair> qp, uint64_t tag, uint64_t bytes);

  protected:
    /**
     * Check a cable failure for a fabric's FailLink and record it (GetLinkFailures):
     * the link exists and joins two switches, does not fail already, \p down is not in
     * the past and \p up (-1: never) is after it, and routing engine \p engine can
     * route the graph without it and the earlier ones.
     * \return the index of its record in m_linkFailures
     * \throw std::invalid_argument naming the link and what is wrong
     */
    uint32_t RecordLinkFailure(uint32_t link, Time down, Time up, const std::string& engine);
    /// The failures RecordLinkFailure took, in order; the fabric fills in their times.
    std::vector<LinkFailureRecord> m_linkFailures;
    /**
     * Check a host failure for a fabric's FailHost (the host exists, is not failing
     * already, \p at is not in the past) and record it (GetHostFailures).
     * \throws std::invalid_argument naming the host and the reason
     */
    void RecordHostFailure(uint32_t host, Time at);
    /// The failures RecordHostFailure took, in order.
    std::vector<HostFailureRecord> m_hostFailures;
    /**
     * FailHost's event, once host \p host's queue pairs are in the error state: every
     * cable of the host stops carrying frames both ways, for good. The default cuts
     * nothing (a fabric whose host cables cannot fail).
     */
    virtual void CutHostCables(uint32_t host);

  private:
    /// With a host failure (FailHost): queue pair \p qp entered the error state and
    /// completed \p messages in error (they leave GetPendingMessages).
    void OnQueuePairError(Ptr<const RdmaQueuePair> qp, uint64_t messages);

    /// With a host failure: a message just posted to \p qp, already in the error state,
    /// was flushed (completed in error) at once.
    void NoteFlushedPost(const RdmaQueuePair& qp);

    uint64_t m_erroredMessages{0}; //!< messages completed in error (with FailHost)

    /// FailHost's event: host \p host's queue pairs enter the error state (its server's
    /// process is gone), then CutHostCables.
    void DoFailHost(uint32_t host);

  protected:
    /**
     * Open the pcap of port \p port of graph node \p node (PREFIX-NODE-PORT.pcap, with
     * OpenPcapFile or AddPcapPort) and connect what the port sends and receives to it,
     * as this fabric records frames: EnablePcap calls it for each port it traces.
     * RoceFabric and IbFabric implement it; a fabric that writes no pcaps (the default)
     * stops with a message naming it.
     */
    virtual void EnablePcapPort(const std::string& prefix, uint32_t node, uint32_t port);
    /**
     * Open PREFIX-NODE-PORT.pcap (nanosecond timestamps, link type \p linkType, snapshot
     * length PcapSnapLength) and write into it every packet \p device's "PromiscSniffer"
     * trace source gives. A fabric's EnablePcapPort may call it.
     */
    void AddPcapPort(const std::string& prefix,
                     uint32_t node,
                     uint32_t port,
                     Ptr<NetDevice> device,
                     uint32_t linkType);
    /**
     * Open PREFIX-NODE-PORT.pcap as AddPcapPort does, for records that hold
     * \p recordHeaderBytes of their own before each frame (an ERF header): the file's
     * snapshot length is PcapSnapLength plus those (65535 for whole frames), so a record
     * keeps PcapSnapLength bytes of the frame. The caller connects the sink; the file is
     * in GetPcapFiles and GetPcapWriteError.
     */
    Ptr<PcapFileWrapper> OpenPcapFile(const std::string& prefix,
                                      uint32_t node,
                                      uint32_t port,
                                      uint32_t linkType,
                                      uint32_t recordHeaderBytes);

    /// What a host's port tells a new connection's congestion controller and GetIdealFct.
    struct HostPort
    {
        DataRate lineRate;        //!< the port's rate
        uint32_t mtuBytes{0};     //!< payload bytes per full packet
        uint32_t wireBytes{0};    //!< bytes a full data packet occupies on the link
        uint32_t ackWireBytes{0}; //!< bytes an ACK occupies on the link
        Time switchLatency;       //!< forwarding latency of each switch on the path
        bool cutThrough{false};   //!< the switches forward a packet as its head arrives
        uint32_t packetBytes{0};  //!< headers and wire overhead of every data packet
        uint32_t firstBytes{0};   //!< more on a message's first packet (RETH)
        uint32_t lastBytes{0};    //!< more on its last (ImmDt)
        uint32_t padToBytes = 1;  //!< the last packet's payload padded to a multiple (IB: 4)
    };

    void DoDispose() override;
    /// A new message id; counts the message as posted.
    uint64_t TakeMessageId();
    /// The connection src -> dst number \p connection, made (both queue pairs,
    /// connected, each with its congestion controller) on first use.
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t src, uint32_t dst, uint32_t connection = 0);
    /// Make the two queue pairs of the RC connection number \p connection between src
    /// and dst and connect them; the base class gives each its congestion controller.
    virtual std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(uint32_t src,
                                                                      uint32_t dst,
                                                                      uint32_t connection) = 0;
    /**
     * Release both (idle) queue pairs of a connection Connect made, each at its host's
     * NIC (GetHostNic, RdmaNic::ReleaseQueuePair).
     * \return false if this fabric cannot (no GetHostNic): the connection stays
     */
    virtual bool Disconnect(const RdmaQueuePair& a, const RdmaQueuePair& b);
    /// \param host a host index \return its port's facts
    virtual HostPort GetHostPort(uint32_t host) const = 0;
    /**
     * The graph links of the routed path src -> dst, in order: from the source host's
     * port 0, each switch's GetRoutedPort. \pre GetGraph() is the fabric's graph
     */
    virtual void PathLinks(uint32_t src, uint32_t dst, std::vector<uint32_t>& links) const;
    /**
     * The port switch graph node \p node forwards host \p dst's packets to when it
     * takes one path (the first ECMP candidate, the LFT's entry): minimal routes all
     * have the same length, which is all PathLinks' callers need. The default aborts:
     * a fabric whose PathLinks does not walk the graph need not give it.
     */
    virtual uint32_t GetRoutedPort(uint32_t node, uint32_t dst) const;

    /// Add one host's transport counters (retransmissions, timeouts, CNPs sent, queue
    /// pairs, out-of-order and spurious packets) to \p c.
    static void AddHostCounters(Counters& c, const RdmaNic& host);
    /// Set \p c's connection counters (queuePairs: made, peak, released) from the fabric's.
    void SetConnectionCounters(Counters& c) const;

    CongestionControlFactory m_ccFactory; //!< makes each queue pair's controller

    /// Call \p f on the device of every port of \p devices (by graph node, then port),
    /// skipping the ports left without one (null).
    template <class Device, class F>
    static void ForEachPort(const std::vector<std::vector<Ptr<Device>>>& devices, F&& f)
    {
        for (const auto& node : devices)
        {
            for (const Ptr<Device>& device : node)
            {
                if (device)
                {
                    f(*device);
                }
            }
        }
    }

    /// \return the device of port \p port of graph node \p node; aborts, naming \p caller,
    /// where this process does not simulate the node (an MPI run's other rank's)
    template <class Device>
    static const Device& GetSimulatedPort(const std::vector<std::vector<Ptr<Device>>>& devices,
                                          uint32_t node,
                                          uint32_t port,
                                          const char* caller)
    {
        const Ptr<Device>& device = devices.at(node).at(port);
        NS_ABORT_MSG_IF(!device,
                        caller << ": node " << node << " is not simulated in this process");
        return *device;
    }

    /// Record \p trafficClass as the class of the queue pairs \p src -> \p dst (SetPairClass).
    void SetPairClassOf(uint32_t src, uint32_t dst, uint8_t trafficClass);
    /// \return the class SetPairClassOf recorded for \p src -> \p dst, else \p fallback
    uint8_t GetPairClassOr(uint32_t src, uint32_t dst, uint8_t fallback) const;

    Ptr<TopologyGraph> m_graph;          //!< the graph the fabric is installed on
    NodeContainer m_nodes;               //!< by graph node
    std::vector<uint32_t> m_switchNodes; //!< graph node of each switch, in graph order
    /**
     * Makespan, in seconds, of a message sent packet by packet store-and-forward
     * through links of \p rates (bit/s, in path order): the largest, over the choice of
     * bottleneck link b, of the first packet's \p first wire bytes on the links before
     * b, all \p total bytes on b and the last packet's \p last bytes on the links after.
     */
    static double PipelinedMakespan(const std::vector<double>& rates,
                                    uint64_t first,
                                    uint64_t total,
                                    uint64_t last);

  private:
    /**
     * What every post does first: aborts for an unknown host, from == to, or bytes
     * outside 1..MAX_MESSAGE_BYTES (named with \p verb), releases idle connections,
     * and \return the connection's queue pair at \p from, marked in use (its other
     * end in \p peer).
     */
    Ptr<RdmaQueuePair> PrepareConnection(const char* verb,
                                         uint32_t from,
                                         uint32_t to,
                                         uint64_t bytes,
                                         uint32_t connection,
                                         RdmaQueuePair*& peer);
    /// Whether this process sends what host \p host posts: across MPI ranks
    /// (RankPartition) every rank posts the same messages, so that connections, receives
    /// and message ids agree, and only the host's own rank sends.
    bool SendsHere(uint32_t host) const;
    /// PostWrite's and PostSend's work: a SEND if \p send.
    uint64_t PostMessage(uint32_t src,
                         uint32_t dst,
                         uint64_t bytes,
                         uint64_t tag,
                         uint8_t kind,
                         uint32_t connection,
                         bool send);
    /// The verb of a post on a connection of its own.
    enum class OwnVerb : uint8_t
    {
        WRITE,
        SEND,
        READ, //!< src is the requester, dst the responder
    };

    /// PostWriteOnOwnConnection's, PostSendOnOwnConnection's and
    /// PostReadOnOwnConnection's work.
    uint64_t PostOnOwnConnection(uint32_t src,
                                 uint32_t dst,
                                 uint64_t bytes,
                                 uint64_t tag,
                                 uint8_t kind,
                                 OwnVerb verb);
    /// The controller's view of the path from -> to: rates, sizes, hops and the unloaded
    /// RTT (one full packet and one ACK through every link, both ways' delay, and the
    /// switches' latency both ways).
    RdmaCcContext MakeCcContext(uint32_t from, uint32_t to) const;

    /// One RC connection: its queue pairs (a at the lower host index) and since when it
    /// has been idle (time step; -1: in use).
    struct Connection
    {
        Ptr<RdmaQueuePair> a;
        Ptr<RdmaQueuePair> b;
        int64_t idleSince{-1};
        bool ownConnection{false}; //!< PostWriteOnOwnConnection's: released once idle
    };

    /// Key of a connection: its two hosts (either order) and its index.
    struct ConnectionKey
    {
        uint64_t hosts{0}; //!< lower host << 32 | higher host
        uint32_t index{0}; //!< connection index between the two

        bool operator==(const ConnectionKey& o) const
        {
            return hosts == o.hosts && index == o.index;
        }
    };

    /// Hash of a ConnectionKey.
    struct ConnectionKeyHash
    {
        std::size_t operator()(const ConnectionKey& k) const
        {
            return std::hash<uint64_t>()(k.hosts ^ (static_cast<uint64_t>(k.index) << 48) ^
                                         (static_cast<uint64_t>(k.index) * 0x9E3779B97F4A7C15ULL));
        }
    };

    /// \return the key of connection \p index between hosts \p x and \p y (either order)
    static ConnectionKey MakeConnectionKey(uint32_t x, uint32_t y, uint32_t index);
    /// \p qp completed a message: if its connection is now idle, note since when.
    void NoteIfIdle(const RdmaQueuePair& qp);
    /// Release the connections idle for QpIdleTimeout at \p now (time step).
    void ReleaseIdle(int64_t now);

    std::unordered_map<ConnectionKey, Connection, ConnectionKeyHash> m_connections;
    /// (connection key, idle since) in the order they went idle; an entry whose
    /// connection was used again since is skipped
    std::deque<std::pair<ConnectionKey, int64_t>> m_idle;
    /// host << 32 | QPN -> connection index, for the queue pairs of connections
    /// other than index 0 (what NoteIfIdle needs to find their connection)
    std::unordered_map<uint64_t, uint32_t> m_indexOfQp;
    /// Release the own connections (PostWriteOnOwnConnection) that went idle.
    void ReleaseOwnConnections();
    /// own connections that went idle, released at the next post
    std::vector<ConnectionKey> m_ownIdle;
    uint32_t m_nextOwnConnection{FIRST_OWN_CONNECTION}; //!< next own connection index
    Time m_qpIdleTimeout;         //!< QpIdleTimeout attribute; 0: never release
    uint32_t m_pcapSnapLength{0}; //!< PcapSnapLength attribute (bytes); 0: whole frames
    std::vector<std::pair<std::string, Ptr<PcapFileWrapper>>> m_pcapFiles; //!< AddPcapPort's
    uint64_t m_connectionsMade{0};                                         //!< connections made
    uint64_t m_connectionsPeak{0};                                         //!< most alive at once
    uint64_t m_connectionsReleased{0};                                     //!< released
    mutable std::vector<uint32_t> m_idealLinks; //!< GetIdealFct's path (reused)
    mutable std::vector<double> m_idealRates;   //!< its links' rates, bit/s (reused)
    /// GetIdealFct's GetHostPort by source host, made on first use (mtuBytes 0: not yet):
    /// a port's facts are fixed once messages flow, and the call costs ~600 instructions
    mutable std::vector<HostPort> m_idealPorts;
    std::unordered_map<uint64_t, uint8_t> m_pairClass; //!< (src << 32 | dst) -> class
    uint64_t m_nextMessageId{0};
    uint64_t m_completed{0};
    std::vector<MessageCallback> m_messageCallbacks;
    Ptr<FctAttribution> m_attribution; //!< EnableAttribution's (nullptr: off)
    std::vector<DeliveredCallback> m_deliveredCallbacks;
    /// PostSkipped's message has arrived: the delivered callbacks.
    void DeliverSkipped(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    /// PostSkipped's message is acknowledged: counted done, the message callbacks.
    void CompleteSkipped(MessageRecord r);
};

} // namespace ns3

#endif // RDMA_FABRIC_H
