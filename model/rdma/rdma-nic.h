/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "rdma-opcode.h"
#include "rdma-queue-pair.h"

#include "ns3/aeth-header.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-event.h"
#include "ns3/fabric-simulator.h"
#include "ns3/frame-fifo.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/rdma-transport-fields.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <list>
#include <utility>
#include <vector>

namespace ns3
{

class FctAttribution;

struct RdmaMessage;

/**
 * \ingroup ai-fabric
 * \brief The host core every RDMA adapter shares, whatever its framing: the queue
 * pairs (by local QPN - QpnBase), the round robin that picks which of them sends next, the
 * pacing wake-ups, the dispatch of arrivals (ACK, NAK, CNP, data) to their queue pair,
 * the message-completion trace sources and the counters summed over the queue pairs.
 *
 * RoceNic (RoCEv2 framing) and IbHca (InfiniBand framing) derive from it: they build,
 * queue and parse frames, and answer two calls: NotifyPort (a queue pair may send: the
 * port should pull) and QueueControl (send an ACK, NAK or CNP).
 */
class RdmaNic : public Object
{
  public:
    /// MessageSent trace: (queue pair, the message) when its last byte is acknowledged.
    typedef void (*MessageSentTracedCallback)(Ptr<const RdmaQueuePair>, const RdmaMessage&);
    /// MessageDelivered trace: (queue pair, tag, bytes) when its last byte is placed.
    typedef void (*MessageDeliveredTracedCallback)(Ptr<const RdmaQueuePair>, uint64_t, uint64_t);
    /// CnpSent and CnpReceived traces: (the queue pair sending / receiving it).
    typedef void (*CnpTracedCallback)(Ptr<const RdmaQueuePair>);
    /// QpCreated trace: (the new queue pair, connected, with its congestion controller).
    typedef void (*QpCreatedTracedCallback)(Ptr<RdmaQueuePair>);

    /// \return the TypeId
    static TypeId GetTypeId();

    RdmaNic();
    ~RdmaNic() override;

    /// \return the host index this adapter serves
    uint32_t GetHostIndex() const;
    /// \return payload bytes per data packet (the path MTU)
    uint32_t GetMtu() const;
    /// \return the live queue pairs (not released), in local QPN order
    std::vector<Ptr<RdmaQueuePair>> GetQueuePairs() const;
    /// \return the live queue pair of local QPN \p qpn, or nullptr (released, or never made)
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;
    /// \return queue pairs made since the start, released ones included
    uint64_t GetQueuePairsCreated() const;
    /// \return queue pairs alive now (made and not released)
    uint32_t GetLiveQueuePairs() const;
    /// \return QPN slots: live queue pairs plus released QPNs not yet given out again
    uint32_t GetQpnSlots() const;
    /// \return the QpnBase attribute: the first QPN this adapter gives out
    uint32_t GetQpnBase() const;
    /// Report every queue pair's sender waits and every frame's journey to
    /// \p attribution (nullptr: off, the default; the caller keeps it alive).
    void SetAttribution(FctAttribution* attribution);

    /// \return the attribution frames are reported to, or nullptr
    FctAttribution* GetAttribution() const
    {
        return m_attribution;
    }

    /// The largest QPN (BTH DestQP is 24 bits)
    static constexpr uint32_t MAX_QPN = 0xFFFFFF;
    /// QpnBase's default: 16, RXE_MIN_QP_INDEX of Linux's software RoCE HCA (rxe), the
    /// first QPN it gives a queue pair (QPNs 0 and 1 are the SMI and GSI QPs)
    static constexpr uint32_t DEFAULT_QPN_BASE = 16;
    /// \return arrivals for a released QPN (late duplicates, ACKs, CNPs), dropped
    uint64_t GetStaleFrames() const;
    /**
     * Release the idle queue pair of local QPN \p qpn (the fabric's call, with its
     * peer's at the other end): it is disposed, its counters stay in this adapter's
     * totals, and arrivals for the QPN are dropped and counted (GetStaleFrames). The
     * QPN is given to a new queue pair only QpnReuseDelay after, so a frame of the old
     * connection still in the fabric cannot reach the new one.
     */
    void ReleaseQueuePair(uint32_t qpn);
    /**
     * Fire QpCreated for \p qp, a queue pair of this NIC that its fabric has just
     * connected and given its congestion controller (RdmaFabric calls it once per
     * queue pair it makes).
     */
    void NotifyQueuePairCreated(Ptr<RdmaQueuePair> qp);
    /// \return packets resent, over all queue pairs
    uint64_t GetRetransmittedPackets() const;
    /// \return READ response payload bytes received in order, over all queue pairs
    uint64_t GetReadBytes() const;
    /// \return retransmission timeouts, over all queue pairs
    uint64_t GetTimeouts() const;
    /// \return RNR NAKs sent (SENDs that found no posted receive), over all queue pairs
    uint64_t GetRnrNaksSent() const;
    /// \return resends after an RNR NAK's wait, over all queue pairs
    uint64_t GetRnrRetries() const;
    /// \return queue pairs that entered the error state (RNR retries exhausted)
    uint64_t GetQpErrors() const;
    /// \return the shared receive queue (SharedReceiveQueueDepth > 0), else nullptr
    Ptr<RdmaReceiveQueue> GetSharedReceiveQueue() const;
    /// \return data packets that arrived out of order, over all queue pairs
    uint64_t GetOutOfOrderPackets() const;
    /// \return arrivals of a PSN that had already arrived, over all queue pairs
    uint64_t GetSpuriousRetransmissions() const;
    /// \return congestion notifications (CNPs, BECNs) sent
    uint64_t GetCnpsSent() const;
    /// \return congestion notifications received
    uint64_t GetCnpsReceived() const;
    /// \return QP-context cache misses (context fetches started; 0 with QpCacheSize 0)
    uint64_t GetQpCacheMisses() const;
    /// \return QP-context cache hits (packets whose QP's context was cached)
    uint64_t GetQpCacheHits() const;
    /// \return whether local QPN \p qpn's context is in the QP-context cache (a
    /// fetched context not yet used counts as cached)
    bool IsQpContextCached(uint32_t qpn) const;

  protected:
    void DoDispose() override;

    /**
     * Add a queue pair (local QPN: the oldest released one past QpnReuseDelay, else the
     * next new one, QpnBase, QpnBase + 1, ... in allocation order) to \p peerHost on
     * \p priority (the
     * service level on InfiniBand), UDP source port \p entropy (0 on InfiniBand),
     * packets of GetMtu() payload bytes; its peer's QPN comes with SetPeerQpn.
     */
    Ptr<RdmaQueuePair> AddQueuePair(uint32_t peerHost, uint8_t priority, uint16_t entropy);
    /// Connect \p qp to its peer's queue pair \p peerQpn.
    static void SetPeerQpn(RdmaQueuePair& qp, uint32_t peerQpn);

    /// \return true if some queue pair is in the round robin (has, or had, data to send)
    bool HasActiveQueuePairs() const
    {
        return !m_active.empty();
    }

    /**
     * The data round robin: the next queue pair, from where the last pick left off,
     * that has data, is not skipped (\p skip(qp): its class is paused, or on another
     * virtual lane) and that window and pacing let send at \p now; queue pairs without
     * data leave the round robin until they wake. Without one, a wake-up is scheduled
     * for the earliest time pacing lets one send (NotifyPort then).
     * \return the queue pair, or nullptr
     */
    template <typename Skip>
    RdmaQueuePair* NextSender(Time now, Skip skip);

    /**
     * The host-interface cap (InjectionCap attribute): \p qp's data packet of
     * \p payloadBytes was just taken at \p now; if it leaves the server, the next such
     * packet waits until the interface has carried these bytes at the cap (NextSender
     * holds it back). Without a cap (the default) one predictable branch.
     */
    void ChargeInjection(const RdmaQueuePair& qp, uint32_t payloadBytes, Time now)
    {
        if (__builtin_expect(m_injectionCapped, false) && CrossesHostInterface(qp))
        {
            m_injectionReady = now + m_injectionCap.CalculateBytesTxTime(payloadBytes);
        }
    }

    /// \return whether \p qp's data crosses this GPU's host interface to its NIC: a peer
    /// on another server (HostsPerServer) with this GPU's local index, on its NIC's rail.
    /// Data within the server moves in the scale-up domain, and data for another rail
    /// leaves by PXN through the NIC of the GPU on that rail (its PCIe, not this one's).
    bool CrossesHostInterface(const RdmaQueuePair& qp) const
    {
        const uint32_t peer = qp.GetPeerHost();
        return peer / m_hostsPerServer != m_hostIndex / m_hostsPerServer &&
               peer % m_hostsPerServer == m_hostIndex % m_hostsPerServer;
    }

    /**
     * Hand an arrival for local QP \p destQp to its queue pair: an ACK or NAK (by the
     * AETH syndrome \p aethSyndrome), a CNP, or data (\p payloadBytes(): its payload
     * size, asked for data only; AckReq; \p congested: ECN CE or FECN), whose ACK/NAK
     * and CNP go out through QueueControl. Unknown queue pairs and opcodes are dropped
     * with a warning; arrivals for a released queue pair are dropped and counted.
     * \p remoteDelaySteps: for an ACK, the endpoint delay its header echoes (Swift), in
     * time steps (an integer, so that a NIC without the echo pays nothing for it);
     * \p echoedHops: the switch hops of the data packet it acknowledges (0: not echoed);
     * \p ecnEcho: for an ACK, whether it echoes ECN CE (m_ackEcnEcho at the receiver).
     * \p ackInt: the INT records an ACK echoes (nullptr: none; RoceNic IntEnabled).
     * \p rethDmaLen: a READ request's RETH DMA length (read only for that opcode).
     * READ requests and responses (DeliverRead) are off the WRITE path: they take the
     * branch that unsupported opcodes take.
     */
    template <typename PayloadBytes>
    [[gnu::always_inline]] inline void Deliver(uint32_t destQp,
                                               uint8_t opcode,
                                               uint32_t psn,
                                               uint8_t aethSyndrome,
                                               PayloadBytes payloadBytes,
                                               bool ackReq,
                                               bool congested,
                                               Time now,
                                               int64_t remoteDelaySteps = 0,
                                               uint32_t echoedHops = 0,
                                               bool ecnEcho = false,
                                               const IntHeader* ackInt = nullptr,
                                               uint32_t rethDmaLen = 0);

    /// The transport fields of data packet \p s of \p qp: opcode, destination QP, AckReq,
    /// PSN, payload size, and RETH (the message's length) and ImmDt as the opcode has them.
    static void DataFields(const RdmaQueuePair& qp, const RdmaSegment& s, RdmaTransportFields& f);
    /// The transport fields of \p qp's ACK (\p nak false) or NAK of \p psn, \p msn, or
    /// of its CNP (\p opcode; BECN set).
    static void ControlFields(const RdmaQueuePair& qp,
                              uint8_t opcode,
                              uint32_t psn,
                              uint32_t msn,
                              bool nak,
                              RdmaTransportFields& f);

    /// \return the class (RoCEv2 priority, InfiniBand service level) of \p qp's ACKs and
    /// NAKs: the AckPriority attribute, or \p qp's own class when it is -1
    uint8_t AckPriorityOf(const RdmaQueuePair& qp) const
    {
        return m_ackPriority < 0 ? qp.GetPriority() : static_cast<uint8_t>(m_ackPriority);
    }

    /// A queue pair may send, or a pacing wake-up ran: the port should pull.
    virtual void NotifyPort() = 0;
    /// Send an ACK (\p nak false) or NAK of \p psn, \p msn, or a CNP (\p opcode), of \p qp.
    virtual void QueueControl(const RdmaQueuePair& qp,
                              uint8_t opcode,
                              uint32_t psn,
                              uint32_t msn,
                              bool nak) = 0;

    /// \return the slot of local QPN \p qpn in m_qps and the per-QPN vectors (a QPN
    /// below QpnBase wraps around to a slot beyond every vector's size)
    uint32_t QpnSlot(uint32_t qpn) const
    {
        return qpn - m_qpnBase;
    }

    std::vector<Ptr<RdmaQueuePair>> m_qps; //!< by QpnSlot of the local QPN; nullptr: released
    uint32_t m_qpnBase{DEFAULT_QPN_BASE};  //!< QpnBase attribute (beside m_qps: per packet)
    uint32_t m_hostIndex{0};               //!< GetHostIndex (set by the subclass's Setup)
    uint32_t m_mtu{0};                     //!< the subclass's Mtu Attribute
    int32_t m_ackPriority{-1};             //!< AckPriority attribute (-1: the QP's class)
    /// ACKs echo ECN CE (a subclass's attribute; RoceNic's EcnEchoInAck): Deliver keeps
    /// each queue pair's CE state and the subclass's ACKs carry it (GetCeEcho)
    bool m_ackEcnEcho{false};

  private:
    class WakeEvent;

    /// The QpnBase attribute's setter: only before the first queue pair.
    void SetQpnBase(uint32_t base);

    /// The queue pairs' sender-completion hook: fires MessageSent.
    void MessageSent(Ptr<RdmaQueuePair> qp, const RdmaMessage& m);
    /// The queue pairs' receiver-completion hook: fires MessageDelivered.
    void MessageDelivered(Ptr<RdmaQueuePair> qp, uint64_t tag, uint64_t bytes);
    /// Wake for RdmaQueuePair::SetWakeFunction (\p nic: this adapter): \p qp may send.
    static void WakeQueuePair(void* nic, RdmaQueuePair& qp);
    /// Ack function of RdmaQueuePair::SetAckFunction (\p nic: this adapter): the
    /// responder's coalescing timer sends an ACK of \p psn, \p msn through QueueControl.
    static void SendCoalescedAck(void* nic, RdmaQueuePair& qp, uint32_t psn, uint32_t msn);
    /// Deliver's warning for an arrival it drops (\p what, then \p value), out of line:
    /// its stream code would make every arrival save and restore registers.
    [[gnu::cold, gnu::noinline]] static void WarnDropped(const char* what, uint32_t value);
    /**
     * Deliver's READ arrivals for \p qp: a request (\p rethDmaLen bytes asked for) to its
     * responder half, a response (\p bytesAfterHeaders: the frame's bytes after BTH and
     * ICRC-excluded headers, the AETH included) to its requester half; the NAK and CNP
     * due go out through QueueControl.
     */
    [[gnu::noinline]] void DeliverRead(RdmaQueuePair& qp,
                                       uint8_t opcode,
                                       uint32_t psn,
                                       uint32_t bytesAfterHeaders,
                                       uint32_t rethDmaLen,
                                       bool congested,
                                       Time now);
    /// ECN echo: a data packet of \p qp with CE state \p ce, not the state its
    /// un-acknowledged packets had, arrived. RFC 8257 3.2's DCTCP receiver: those are
    /// acknowledged at once with their state, so that every ACK covers one state.
    void ChangeCeEcho(RdmaQueuePair& qp, bool ce);
    /// QP-context cache state of a local QPN (QpCacheSize > 0 only)
    enum class QpCtx : uint8_t
    {
        NONE,     //!< not on chip
        WAITING,  //!< missed; in m_qpFetchWait for a fetch slot or a free entry
        FETCHING, //!< its fetch is under way: the queue pair may not send
        FETCHED,  //!< fetched, not yet used: pinned (not evicted) until it sends
        CACHED,   //!< in m_qpLru
    };
    /// The QP-context cache's answer for \p qp, which may send now: true if its context
    /// is on chip (it sends; the LRU order is updated), false if it must wait (a fetch
    /// started, is under way, or no fetch slot or evictable entry is free).
    [[gnu::noinline]] bool QpContextReady(RdmaQueuePair& qp);
    /// Start the fetches of waiting contexts (m_qpFetchWait) that slots and entries allow.
    void QpCacheStartWaiting();
    /// Start the fetch of QPN \p qpn's context if a slot and an entry are free (evicting
    /// the least recently used entry if it must). \return whether it started
    bool QpCacheStartFetch(uint32_t qpn);
    /// The fetch of QPN \p qpn's context number \p serial completed.
    void QpContextFetched(uint32_t qpn, uint64_t serial);
    /// Make room for QPN slot \p idx (grow the per-QPN cache vectors).
    void QpCacheGrow(std::size_t slots);
    /// Forget QPN \p qpn's context (its queue pair was released).
    void QpCacheForget(uint32_t qpn);
    /// Schedule a pacing wake-up at \p earliest (> \p now) unless an earlier one is.
    [[gnu::always_inline]] void ScheduleWake(Time earliest, Time now);
    /// Pacing wake-up number \p generation ran: NotifyPort if no later one was asked for.
    void WakeIfCurrent(uint64_t generation);

    /// QPs with data to send, in round-robin order (raw pointers: m_qps owns them)
    std::vector<RdmaQueuePair*> m_active;
    std::vector<bool> m_isActive; //!< by QpnSlot
    std::size_t m_rrNext{0};      //!< round-robin position in m_active
    /// Released QPNs with their release time (time steps), oldest first
    FrameFifo<std::pair<uint32_t, int64_t>> m_freeQpns;
    Time m_qpnReuseDelay;                //!< QpnReuseDelay attribute
    uint64_t m_qpsCreated{0};            //!< GetQueuePairsCreated
    uint32_t m_liveQps{0};               //!< GetLiveQueuePairs
    uint64_t m_staleFrames{0};           //!< GetStaleFrames
    uint64_t m_releasedRetransmitted{0}; //!< released queue pairs' counters, kept
    uint64_t m_releasedTimeouts{0};
    uint64_t m_releasedOutOfOrder{0};
    uint64_t m_releasedSpurious{0};
    uint64_t m_releasedReadBytes{0};
    uint64_t m_cnpsSent{0};     //!< congestion notifications sent
    uint64_t m_cnpsReceived{0}; //!< congestion notifications received
    int64_t m_wakeAt{-1};       //!< time step of the pending wake-up; -1: none
    /// Every wake-up event made (superseded ones stay in the event list until they run)
    /// and those not in the event list: reused, not one allocation per wake-up.
    /// InjectionCap's setter: the cap and whether there is one (DataRate::GetBitRate is an
    /// out-of-line, logged call: ~27 instructions, twice per data packet)
    void SetInjectionCap(DataRate cap);
    DataRate GetInjectionCap() const; //!< \return the InjectionCap attribute

    std::vector<Ptr<FabricEvent>> m_wakeEvents;
    std::vector<FabricEvent*> m_idleWakeEvents; //!< of m_wakeEvents, not scheduled
    uint64_t m_wakeGeneration{0};               //!< number of the pending wake-up

    uint32_t m_qpCacheSize{0};              //!< QpCacheSize attribute (0: unlimited, no model)
    FctAttribution* m_attribution{nullptr}; //!< SetAttribution (nullptr: off)
    DataRate m_injectionCap{0};             //!< InjectionCap attribute (0: no cap, no model)
    bool m_injectionCapped{false};          //!< m_injectionCap is not 0 (read per packet)
    uint32_t m_hostsPerServer{1};           //!< HostsPerServer attribute
    Time m_injectionReady;                  //!< the host interface can take the next packet then
    Time m_qpCacheMissLatency;              //!< QpCacheMissLatency attribute
    uint32_t m_qpCacheMaxFetches{0};        //!< QpCacheMaxFetches attribute
    std::vector<QpCtx> m_qpCtx;             //!< by QpnSlot
    /// Cached contexts by QPN, least recently used first (FETCHED ones are not in it)
    std::list<uint32_t> m_qpLru;
    std::vector<std::list<uint32_t>::iterator> m_qpLruPos; //!< by QpnSlot: place in m_qpLru
    std::vector<uint64_t> m_qpFetchSerial; //!< by QpnSlot: number of its latest fetch
    /// Missed contexts waiting for a fetch, in miss order (QPNs; a released QPN's stale
    /// entry is skipped: its state is no longer WAITING)
    FrameFifo<uint32_t> m_qpFetchWait;
    uint32_t m_qpFetching{0};    //!< fetches under way
    uint32_t m_qpPinned{0};      //!< FETCHED contexts (occupy a cache entry)
    uint64_t m_qpCacheMisses{0}; //!< GetQpCacheMisses
    uint64_t m_qpCacheHits{0};   //!< GetQpCacheHits

    TracedCallback<Ptr<const RdmaQueuePair>, const RdmaMessage&> m_messageSentTrace;
    TracedCallback<Ptr<const RdmaQueuePair>, uint64_t, uint64_t> m_messageDeliveredTrace;
    TracedCallback<Ptr<const RdmaQueuePair>> m_cnpSentTrace;
    TracedCallback<Ptr<const RdmaQueuePair>> m_cnpReceivedTrace;
    TracedCallback<Ptr<RdmaQueuePair>> m_qpCreatedTrace;

    // Two-sided verbs (after the per-packet state: off the frames' cache lines).
    uint64_t m_releasedRnrNaks{0};    //!< released queue pairs' RNR NAKs sent
    uint64_t m_releasedRnrRetries{0}; //!< released queue pairs' RNR retries
    uint64_t m_releasedQpErrors{0};   //!< released queue pairs in the error state
    uint32_t m_srqDepth{0};           //!< SharedReceiveQueueDepth attribute (0: none)
    Ptr<RdmaReceiveQueue> m_srq;      //!< the shared receive queue, made with the first QP
};

template <typename Skip>
RdmaQueuePair*
RdmaNic::NextSender(Time now, Skip skip)
{
    Time earliest = Time::Max();
    std::size_t n = m_active.size();
    for (std::size_t i = 0; i < n && !m_active.empty(); ++i)
    {
        if (m_rrNext >= m_active.size())
        {
            m_rrNext = 0;
        }
        RdmaQueuePair* qp = m_active[m_rrNext];
        if (!qp->HasDataToSend())
        {
            // Done for now: leave the round robin until the QP wakes again.
            m_isActive[QpnSlot(qp->GetLocalQpn())] = false;
            m_active[m_rrNext] = m_active.back();
            m_active.pop_back();
            continue;
        }
        if (skip(*qp))
        {
            m_rrNext++;
            continue;
        }
        // Host-interface cap (off, the default: one predictable branch): a queue pair
        // to another server waits until the interface has carried the last packet.
        if (__builtin_expect(m_injectionCapped, false) && now < m_injectionReady &&
            CrossesHostInterface(*qp))
        {
            earliest = std::min(earliest, m_injectionReady);
            m_rrNext++;
            continue;
        }
        if (qp->CanSend(now))
        {
            m_rrNext++;
            // QP-context cache (off, the default: one predictable branch)
            if (__builtin_expect(m_qpCacheSize != 0, false) && !QpContextReady(*qp))
            {
                continue; // not eligible until its context is on chip
            }
            return qp;
        }
        if (!qp->IsWindowBlocked())
        {
            earliest = std::min(earliest, qp->GetNextSendTime());
        }
        m_rrNext++;
    }
    if (earliest != Time::Max() && earliest > now)
    {
        ScheduleWake(earliest, now);
    }
    return nullptr;
}

/// One pacing wake-up of an adapter: it wakes the adapter only if no earlier wake-up
/// was asked for since it was scheduled (what cancelling it would do, without an EventId).
class RdmaNic::WakeEvent : public FabricEvent
{
  public:
    WakeEvent(RdmaNic* nic)
        : m_nic(nic)
    {
    }

    /// Make this the adapter's wake-up number \p generation (before it is scheduled).
    void SetGeneration(uint64_t generation)
    {
        m_generation = generation;
    }

  private:
    void Notify() override
    {
        m_nic->m_idleWakeEvents.push_back(this); // out of the event list: free again
        m_nic->WakeIfCurrent(m_generation);
    }

    RdmaNic* m_nic;           //!< not owned: it outlives its pending wake-ups (see DoDispose)
    uint64_t m_generation{0}; //!< which wake-up of the adapter this is
};

inline void
RdmaNic::ScheduleWake(Time earliest, Time now)
{
    // One wake-up, the earliest asked for; a later one still in the event list does
    // nothing when it runs (as a cancelled event would).
    const int64_t at = earliest.GetTimeStep();
    if (m_wakeAt >= 0 && m_wakeAt <= at)
    {
        return;
    }
    m_wakeAt = at;
    if (m_idleWakeEvents.empty())
    {
        m_wakeEvents.push_back(Create<WakeEvent>(this));
        m_idleWakeEvents.push_back(PeekPointer(m_wakeEvents.back()));
    }
    auto* wake = static_cast<WakeEvent*>(m_idleWakeEvents.back());
    m_idleWakeEvents.pop_back();
    wake->SetGeneration(++m_wakeGeneration);
    wake->Ref(); // the simulator's reference, released when it has run
    FabricSimulator::Schedule(Simulator::GetContext(), at - now.GetTimeStep(), wake, nullptr);
}

template <typename PayloadBytes>
void
RdmaNic::Deliver(uint32_t destQp,
                 uint8_t opcode,
                 uint32_t psn,
                 uint8_t aethSyndrome,
                 PayloadBytes payloadBytes,
                 bool ackReq,
                 bool congested,
                 Time now,
                 int64_t remoteDelaySteps,
                 uint32_t echoedHops,
                 bool ecnEcho,
                 const IntHeader* ackInt,
                 uint32_t rethDmaLen)
{
    const uint32_t slot = QpnSlot(destQp); // below QpnBase it wraps: beyond every slot
    if (slot >= m_qps.size())
    {
        WarnDropped("packet for unknown QP ", destQp);
        return;
    }
    RdmaQueuePair* qp = PeekPointer(m_qps[slot]);
    if (qp == nullptr)
    {
        m_staleFrames++; // for a released queue pair: late, nobody waits for it
        return;
    }
    if (opcode == RdmaOpcode::ACKNOWLEDGE)
    {
        if ((aethSyndrome & 0x60) != 0) // a NAK (11) or RNR NAK (01), not an ACK (00)
        {
            if (AethHeader::IsNakSyndrome(aethSyndrome))
            {
                qp->ReceiveNak(psn, now);
            }
            else if (AethHeader::IsRnrNakSyndrome(aethSyndrome))
            {
                qp->ReceiveRnrNak(psn, aethSyndrome & 0x1F, now);
            }
        }
        else
        {
            qp->ReceiveAck(psn, now, remoteDelaySteps, echoedHops, ecnEcho, ackInt);
        }
        return;
    }
    if (opcode == RdmaOpcode::CNP)
    {
        m_cnpsReceived++;
        m_cnpReceivedTrace(qp);
        qp->ReceiveCnp();
        return;
    }
    if (!RdmaOpcode::IsData(opcode))
    {
        if (RdmaOpcode::IsRead(opcode))
        {
            DeliverRead(*qp, opcode, psn, payloadBytes(), rethDmaLen, congested, now);
            return;
        }
        WarnDropped("unsupported opcode ", opcode);
        return;
    }
    if (m_ackEcnEcho && congested != qp->GetCeEcho())
    {
        ChangeCeEcho(*qp, congested);
    }
    const RdmaQueuePair::Reply r =
        qp->ReceiveData(psn, opcode, payloadBytes(), ackReq, congested, now);
    if (r.cnp && !m_ackEcnEcho) // with the echo in ACKs, CE makes no CNP
    {
        m_cnpsSent++;
        m_cnpSentTrace(qp);
        QueueControl(*qp, RdmaOpcode::CNP, 0, 0, false);
    }
    if (r.response == RdmaQueuePair::Response::ACK)
    {
        QueueControl(*qp, RdmaOpcode::ACKNOWLEDGE, r.ackPsn, r.msn, false);
    }
    else if (r.response == RdmaQueuePair::Response::NAK)
    {
        QueueControl(*qp, RdmaOpcode::ACKNOWLEDGE, r.ackPsn, r.msn, true);
    }
}

} // namespace ns3

#endif // RDMA_NIC_H
