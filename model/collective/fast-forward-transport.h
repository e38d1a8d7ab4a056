/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAST_FORWARD_TRANSPORT_H
#define FAST_FORWARD_TRANSPORT_H

#include "ns3/forwarding-collective-transport.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * Steady-state fast-forward of collective messages (doc/fast-forward.md): a
 * CollectiveTransport in front of an RdmaCollectiveTransport that memoizes the latency of
 * repeated transfers and, once the contention pattern is steady, completes further
 * messages after the memoized latency without simulating their packets.
 *
 * A transfer is its connection and size: (source rank, destination rank, channel, bytes).
 * Each keeps its last StableMessages simulated messages and fits them a queue (History):
 * an unqueued latency, the spacing of deliveries when messages wait behind each other,
 * and the lag of the acknowledgement; it is stable when that queue reproduces each of
 * those messages' delivery and acknowledgement within Tolerance of its latency. A
 * message is skipped (RdmaCollectiveTransport::SendSkipped, completing when the queue
 * says) when its transfer is stable and no simulated message of an
 * unstable transfer is in flight from or to either of its ranks (their NICs are where
 * transfers of a collective contend): a new transfer, a new size or a changed latency (a
 * new contention pattern) sends packets again until it is steady. Ring and tree steps
 * repeat one pattern 2(N-1) times per operation and every operation of a training
 * iteration, so most of their messages are skipped; what is skipped loads no queue. A
 * message posted while another operation's is still due on its connection (overlapping
 * gradient buckets) is delivered no sooner than its latency after that one when its
 * transfer's fit saw no queue (Connection; summary.json unseen_queue_messages).
 */
class FastForwardTransport : public ForwardingCollectiveTransport
{
  public:
    /// What was skipped (summary.json fast_forward).
    struct Stats
    {
        uint64_t simulatedMessages{0};   //!< messages sent as packets
        uint64_t skippedMessages{0};     //!< messages completed after their memoized latency
        uint64_t skippedBytes{0};        //!< their bytes
        int64_t skippedMessageNs{0};     //!< the sum of their memoized post-to-ACK latencies
        int64_t firstSkipNs{-1};         //!< when the first message was skipped (-1: never)
        uint64_t unseenQueueMessages{0}; //!< skipped behind another operation's (unfitted queue)
    };

    /// (srcRank, dstRank, tag, bytes, delivered after ns)
    typedef void (*SkippedTracedCallback)(uint32_t srcRank,
                                          uint32_t dstRank,
                                          uint64_t tag,
                                          uint64_t bytes,
                                          int64_t deliveredNs);

    static TypeId GetTypeId();
    FastForwardTransport();
    ~FastForwardTransport() override;

    /// The transport that sends the simulated messages (and the skipped ones' records).
    void SetInner(Ptr<RdmaCollectiveTransport> inner);
    Ptr<RdmaCollectiveTransport> GetInner() const;
    const Stats& GetStats() const;

    /// Sends the message as packets, or completes it after its memoized latency.
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;

  protected:
    void DoDispose() override;

  private:
    /// One simulated message of a transfer, absolute ns.
    struct Sample
    {
        int64_t postNs{0};
        int64_t prevDeliveredNs{0}; //!< delivery of the transfer's message before it
        int64_t deliveredNs{0};
        int64_t ackedNs{0};
    };

    /// A connection (ranks, channel): its messages of every size share one queue pair.
    struct Connection
    {
        int64_t deliveredNs{-1}; //!< the latest delivery due of a message posted on it
        uint64_t operation{0};   //!< that message's operation (tag >> 32)
    };

    /**
     * A transfer's last StableMessages simulated messages and the queue that reproduces
     * them: message k is delivered at max(post_k + latency, delivered_{k-1} + gap) (a
     * connection that serves its messages one after another at a steady share of the
     * NICs' rate) and acknowledged ackLag after its delivery.
     */
    struct History
    {
        std::vector<Sample> samples;
        uint32_t next{0};  //!< the slot the next sample overwrites
        uint32_t count{0}; //!< samples held (<= StableMessages)
        bool stable{false};
        bool queueSeen{false};           //!< a message of the fitted window waited (gapNs measured)
        int64_t latencyNs{0};            //!< unqueued post-to-delivered latency
        int64_t gapNs{0};                //!< deliveries' spacing when queued
        int64_t ackLagNs{0};             //!< delivered to acknowledged
        int64_t unqueuedNs{-1};          //!< the last unqueued latency seen (-1: none)
        int64_t lastDeliveredNs{-1};     //!< the latest delivery, simulated or skipped
        int64_t chainDeliveredNs{-1};    //!< the latest delivery due of a posted message
        Connection* connection{nullptr}; //!< its connection's (in m_connections)
    };

    /// A simulated message in flight.
    struct InFlight
    {
        History* history;
        int64_t postNs;
        int64_t prevDeliveredNs{-1}; //!< the transfer's delivery before it
        int64_t deliveredNs{-1};     //!< its own, once delivered
        uint32_t src;
        uint32_t dst;
        bool unstable; //!< its transfer was not stable when it was posted
    };

    struct Key
    {
        uint32_t src;
        uint32_t dst;
        uint32_t channel;
        uint64_t bytes;

        bool operator==(const Key& o) const
        {
            return src == o.src && dst == o.dst && channel == o.channel && bytes == o.bytes;
        }
    };

    struct KeyHash
    {
        std::size_t operator()(const Key& k) const;
    };

    void OnDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void OnSent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    /// Add a sample; the transfer is stable when the queue fitted to its samples
    /// reproduces each of them within Tolerance.
    void Record(History& h, const Sample& sample) const;

    Ptr<RdmaCollectiveTransport> m_inner;
    uint32_t m_stableMessages; //!< attribute StableMessages
    double m_tolerance;        //!< attribute Tolerance
    double m_jitter;           //!< attribute JitterFactor
    std::unordered_map<Key, History, KeyHash> m_history;
    std::unordered_map<Key, Connection, KeyHash> m_connections; //!< (bytes 0)
    std::unordered_map<uint64_t, InFlight> m_inFlight;          //!< tag -> simulated message
    /// per rank: simulated messages of unstable transfers in flight from or to it
    std::vector<uint32_t> m_unstableAt;
    Stats m_stats;
    TracedCallback<uint32_t, uint32_t, uint64_t, uint64_t, int64_t> m_skippedTrace;
};

} // namespace ns3

#endif // FAST_FORWARD_TRANSPORT_H
