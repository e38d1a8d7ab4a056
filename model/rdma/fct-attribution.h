/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FCT_ATTRIBUTION_H
#define FCT_ATTRIBUTION_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaQueuePair;
struct RdmaMessage;
struct RdmaSegment;

/**
 * \ingroup ai-fabric
 * \brief Splits every message's completion time into its causes (--attribution=1).
 *
 * The definition (doc/attribution.md): a message's FCT runs from its post to the
 * ACK that completes it at the sender. That ACK answers one data packet (the
 * "final" packet, usually the message's last). The FCT is the chain
 *   post -> the final packet's start at the source NIC (sender side: own bytes'
 *   serialization, congestion control holds, QP-cache misses, RNR waits,
 *   retransmissions, waiting for the port: pause or queueing at the source)
 *   -> its arrival at the receiver (per hop: serialization, propagation, switch
 *   forwarding latency, pause, queueing)
 *   -> its ACK's start (receiver host delay) -> the ACK's arrival (per hop, as above)
 *   -> the completion (host delay at the sender),
 * every link of which is measured in simulator time steps, so the components add up
 * to the FCT exactly. Pause is PFC pause on RoCEv2 and credit starvation on
 * InfiniBand: the part of a wait during which the port's class could not send.
 *
 * The fabrics' devices call it only for frames that carry a journey id (nonzero only
 * when attribution is on), the NICs for what arrives only when it is on, so that off
 * it costs one predictable branch per hop. Only packets whose ACK can complete a
 * message get a journey that follows them past their first hop (NewData). Runs in one
 * process (journeys are kept here, not on the wire).
 */
class FctAttribution : public Object
{
  public:
    /// The causes a message's FCT is split into.
    enum Component : uint8_t
    {
        SERIALIZATION,  //!< own bytes at the source, and store-and-forward hops' wire time
        PROPAGATION,    //!< cable delays of the final packet and its ACK
        FORWARDING,     //!< switch forwarding latency
        QUEUEING,       //!< waiting for a busy port (switch egress, source NIC)
        PAUSE,          //!< waits while the port's class was paused (PFC) or had no credits
        CC,             //!< sender held by its congestion control (rate or window)
        QP_CACHE,       //!< sender waiting for its QP context (QP-cache miss)
        RNR,            //!< sender waiting out an RNR NAK's timer
        RETRANSMISSION, //!< resent packets' serialization and the waits that ended in them
        HOST,           //!< receiver's delay to its ACK, and the sender's to the completion
        N_COMPONENTS
    };

    /// \return the CSV column stem of \p c ("serialization", ...)
    static const char* ComponentName(uint8_t c);

    /// One hop's wait (queueing and pause) at a port.
    struct HopWait
    {
        uint32_t node{0};      //!< ns-3 node id (= graph node)
        uint32_t port{0};      //!< port index on that node
        uint8_t queue{0};      //!< priority (RoCEv2) or VL (InfiniBand)
        int64_t queueTicks{0}; //!< queueing there (time steps)
        int64_t pauseTicks{0}; //!< pause or credit wait there (time steps)
    };

    /// One message's decomposition.
    struct Result
    {
        uint64_t messageId{0};
        uint64_t tag{0}; //!< the application's tag (RdmaMessage::tag)
        uint8_t kind{0}; //!< the application's kind (RdmaMessage::kind: fct.csv's kind)
        uint32_t src{0};
        uint32_t dst{0};
        uint64_t bytes{0};
        int64_t startTicks{0};
        int64_t endTicks{0};
        int64_t idealTicks{0}; //!< the fabric's ideal FCT of the message (fct.csv's)
        std::array<int64_t, N_COMPONENTS> ticks{}; //!< per component (time steps)
        int64_t unattributedTicks{0}; //!< FCT not explained (no tracked ACK): 0 normally
        std::vector<HopWait> hops;    //!< waits along the final packet's and ACK's path
    };

    /// MessageAttributed trace signature.
    typedef void (*ResultCallback)(const Result&);

    static TypeId GetTypeId();
    FctAttribution();
    ~FctAttribution() override;

    // ---- sender side (RdmaRequester, RdmaNic) ----

    /// \p qp posted message \p m (a WRITE or SEND) now.
    void OnPost(const RdmaQueuePair& qp, const RdmaMessage& m);
    /// \p qp waits until \p until for an RNR NAK's timer.
    void OnRnrWait(const RdmaQueuePair& qp, Time until);
    /// \p qp missed the QP-context cache now (it waits for the fetch).
    void OnQpCacheMiss(const RdmaQueuePair& qp);
    /**
     * \return a journey id for the data packet \p s that \p qp sends now (its port puts
     * it on the wire at once: OnTransmit). Only a packet whose ACK can complete a message
     * is followed along its path: go-back-N delivers in order, so that is a message's
     * last packet, a resent packet, or one sent while an earlier message of its queue
     * pair waits for its ACK (that ACK may be lost: a later one completes it); with any
     * other recovery, every packet. Any other packet gets no journey: its id names its
     * queue pair (SENDER_ONLY), whose state keeps what its first hop needs (its
     * sender's time: every packet's start counts), and ends there.
     */
    uint32_t NewData(const RdmaQueuePair& qp, const RdmaSegment& s);
    /// \return a journey id for an ACK or NAK \p qp (responder) sends now; 0 if the
    /// packet it answers was not tracked
    uint32_t NewAck(const RdmaQueuePair& qp);
    /// \p qp's message \p m completed now (RdmaFabric): fires MessageAttributed.
    void OnComplete(const RdmaQueuePair& qp,
                    const RdmaMessage& m,
                    uint32_t src,
                    uint32_t dst,
                    Time ideal);

    // ---- every hop (fabric devices) ----

    /**
     * Journey \p id starts on the wire of the port \p device (node \p node, port \p port,
     * class \p queue) at \p startTicks for \p txTicks, arriving (tail) \p delayTicks
     * after its end. \p readyTicks: when its switch let it go (forwarding latency), 0
     * for none. Times are time steps. \return false if the journey ends here (its first
     * hop done, the packet is not followed further: the caller drops the id from the
     * frame, which then carries none, as with attribution off).
     */
    bool OnTransmit(uint32_t id,
                    const void* device,
                    uint32_t node,
                    uint32_t port,
                    uint8_t queue,
                    int64_t readyTicks,
                    int64_t startTicks,
                    int64_t txTicks,
                    int64_t delayTicks);
    /// Journey \p id was let go by its switch now (InfiniBand: after its latency); its
    /// next OnTransmit without a ready time takes this one.
    void OnReady(uint32_t id);
    /// Journey \p id (a data packet or ACK) reached its destination queue pair \p qp now.
    void OnArrival(uint32_t id, const RdmaQueuePair& qp);
    /// A data packet (\p ack false) or an ACK or NAK (\p ack true) that is not followed
    /// reached \p qp now: what it triggers is not followed either.
    void OnUnfollowedArrival(const RdmaQueuePair& qp, bool ack);
    /// Journey \p id was dropped (or consumed without an answer): forget it.
    void Forget(uint32_t id);

    /// \p device's class \p queue stopped (paused, or out of credits) or resumed now.
    void OnPortBlocked(const void* device, uint8_t queue, bool blocked);

    /**
     * Forget every journey that can no longer explain a completion: a packet that has
     * not arrived and whose message its sender completed, or a data packet its sender
     * has resent since (selective repeat: that PSN; go-back-N: it or one before it). It
     * was dropped, or it is a copy still on its way (a late arrival of it is then not
     * followed). Runs by itself whenever the journey table would grow. \return the
     * journeys forgotten
     */
    std::size_t ForgetStale();

    /// A new queue pair reports to this: \return its slot (RdmaQueuePair::SetAttribution)
    uint32_t AddQueuePair();

    /// \return journeys alive (tests: no leak beyond packets in flight)
    std::size_t GetLiveJourneys() const;
    /// \return the journey table's size (alive or free: its peak of live journeys)
    std::size_t GetJourneyTableSize() const;

  private:
    using Ticks = std::array<int64_t, N_COMPONENTS>;
    /// The components a packet's path has: SERIALIZATION .. PAUSE.
    static constexpr uint8_t N_PATH = PAUSE + 1;
    using PathTicks = std::array<int64_t, N_PATH>;
    /// An id with this bit is no journey: an unfollowed data packet's first hop, its
    /// queue pair's slot below (NewData). Find never matches it.
    static constexpr uint32_t SENDER_ONLY = 1U << 31;
    /// A journey id: its generation (64 of them) above, its index + 1 below (0: none).
    static constexpr uint32_t INDEX_BITS = 25;
    static constexpr uint32_t INDEX_MASK = (1U << INDEX_BITS) - 1;
    static constexpr uint32_t GENERATION_MASK = (SENDER_ONLY - 1) >> INDEX_BITS;

    /// A packet's path so far.
    struct Leg
    {
        // (What every hop reads and writes first: with the journey's flags, one line.)
        int64_t arrival{-1};        //!< tail arrival at the node it is at
        int64_t head{-1};           //!< head arrival there
        int64_t ready{0};           //!< OnReady's time for the next hop (0: none)
        uint32_t hops{0};           //!< transmissions so far
        PathTicks ticks{};          //!< path components (time steps)
        int64_t hostTicks{0};       //!< ACK: receiver delay before its start
        std::vector<HopWait> waits; //!< per-hop waits
    };

    /// What a data packet knows of its sender when it started.
    struct SenderSnapshot
    {
        Ticks cumulative{};  //!< its queue pair's cumulative sender time by cause
        int64_t ownSer{0};   //!< its message's own serialization before it
        int64_t start{0};    //!< when it started at the source
        uint64_t message{0}; //!< its message
        uint32_t slot{0};    //!< its sender queue pair's slot
    };

    /// A followed packet (one per cache line start: a hop touches its first two lines).
    struct alignas(64) Journey
    {
        bool live{false};
        bool ack{false};
        bool arrived{false};              //!< reached its queue pair (OnArrival)
        uint8_t retx{0};                  //!< data: a retransmission
        uint32_t generation{0};           //!< bumped when forgotten (stale ids miss)
        Leg leg;                          //!< this packet's path
        const RdmaQueuePair* qp{nullptr}; //!< sender (data) or responder (ACK)
        uint64_t psn{0};                  //!< data: its PSN
        uint32_t resendSeq{0};            //!< data: its queue pair's resends before it
        SenderSnapshot sender;            //!< data: the sender; ACK: its data packet's
        Leg dataLeg;                      //!< ACK: the path of the data packet it answers
    };

    /// A message not yet completed.
    struct MessageState
    {
        uint64_t id{0};
        uint64_t firstPsn{0}; //!< its packets' PSNs: [firstPsn, endPsn)
        uint64_t endPsn{0};
        int64_t post{0};
        Ticks atPost{};    //!< the queue pair's cumulative sender time at the post
        int64_t ownSer{0}; //!< its own first transmissions' serialization so far
    };

    /// Sender-side accounting of one queue pair: every time step since its first post
    /// goes to one cause in `cumulative`. (Its scalars first, in one cache line: an
    /// arrival touches only that.)
    struct alignas(64) QpState
    {
        int64_t accounted{-1};       //!< time accounted up to (may be ahead: serializing)
        int64_t holdUntil{0};        //!< pacing or RNR: may not send before this
        int64_t lastAck{-1};         //!< last ACK arrival
        int64_t qpCacheMiss{-1};     //!< a context miss since its last packet
        const void* device{nullptr}; //!< its NIC port (pause history)
        uint32_t node{0};            //!< its host's node id
        uint32_t port{0};            //!< its NIC port index
        uint32_t lastData{0};        //!< responder: the last data journey that arrived
        uint32_t currentAck{0};      //!< requester: the ACK being processed
        uint8_t priority{0};
        uint8_t serializingCause{SERIALIZATION}; //!< the cause of its last packet's wire time
        bool holdRnr{false};                     //!< the hold is an RNR wait
        bool windowBlocked{false};               //!< its window was full after its last packet
        bool goBackN{true};                      //!< its recovery (when it resent)
        Ticks cumulative{};
        const RdmaQueuePair* qp{nullptr};  //!< itself (NewData)
        uint64_t unfollowedMessage{0};     //!< its unfollowed packet's message (NewData)
        std::deque<MessageState> messages; //!< not completed, in post order
        std::vector<uint64_t> resends;     //!< the PSNs it resent, in order (ForgetStale)
    };

    struct Interval
    {
        int64_t start;
        int64_t end; //!< INT64_MAX while blocked
    };

    uint32_t Allocate();
    /// \return journey \p id if it is alive (not forgotten since), else nullptr
    Journey* Find(uint32_t id);
    QpState& StateOf(const RdmaQueuePair& qp);
    /// \return \p s's message \p id if not completed, else nullptr
    static MessageState* MessageOf(QpState& s, uint64_t id);
    /// Account \p s up to \p t (the sender could not send in [accounted, t)).
    void Advance(QpState& s, int64_t t, bool retx);
    /// Time \p device's class \p queue was blocked within [a, b).
    int64_t BlockedWithin(const void* device, uint8_t queue, int64_t a, int64_t b) const;
    /**
     * \p s (queue pair \p qp) starts a packet of message \p message (a resend if \p retx)
     * on its port \p device at \p start for \p tx: its time since its last packet goes
     * to its causes (Advance), the packet's wire time to serialization or
     * retransmission. \return the message's own serialization before this packet
     */
    int64_t SenderTransmit(QpState& s,
                           const RdmaQueuePair& qp,
                           uint64_t message,
                           bool retx,
                           const void* device,
                           int64_t start,
                           int64_t tx);
    static uint64_t PortKey(const void* device, uint8_t queue);

    std::vector<Journey> m_journeys; //!< by index (id's low bits - 1)
    std::vector<uint32_t> m_free;    //!< free indices
    std::size_t m_live{0};
    std::size_t m_sweepAt{4096}; //!< ForgetStale when the table would grow beyond this
    std::vector<QpState> m_qps;  //!< by RdmaQueuePair::GetAttributionSlot
    std::unordered_map<uint64_t, std::vector<Interval>> m_blocked; //!< by PortKey
    Result m_result; //!< OnComplete's (its hops' room kept between messages)
    TracedCallback<const Result&> m_resultTrace;
};

} // namespace ns3

#endif // FCT_ATTRIBUTION_H
