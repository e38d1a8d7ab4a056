/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_TRANSPORT_H
#define COLLECTIVE_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * What a collective algorithm needs from the network: the RDMA verbs reduced to
 * "post a message of N bytes from rank a to rank b" and two completions.
 *
 * The RDMA implementation posts a WRITE-with-immediate on the RC queue pair
 * between the two hosts: the receiver's completion fires when the last byte has
 * been placed, the sender's when the last byte has been acknowledged. A test
 * implementation may model the network by an alpha-beta cost instead.
 */
class CollectiveTransport : public Object
{
  public:
    /// (srcRank, dstRank, tag, bytes)
    typedef Callback<void, uint32_t, uint32_t, uint64_t, uint64_t> MessageCallback;

    static TypeId GetTypeId();

    /// Number of ranks this transport connects.
    virtual uint32_t GetNRanks() const = 0;
    /**
     * Post a message; tag is opaque and is returned in both completions. channel is
     * the collective's channel (NCCL's term): messages of different channels between
     * the same two ranks travel on different connections where the transport has them.
     */
    virtual void Send(uint32_t srcRank,
                      uint32_t dstRank,
                      uint64_t bytes,
                      uint64_t tag,
                      uint32_t channel) = 0;
    /**
     * An operation of \p nTransfers messages, tags tagBase | 0 .. tagBase | nTransfers-1,
     * starts; Expect follows for each, in tag order, before the first Send. A transport
     * that matches receives in advance (RdmaCollectiveTransport MatchInAdvance) takes its
     * message ids and posts its receives then. Default: nothing.
     */
    virtual void BeginOperation(uint64_t tagBase, uint32_t nTransfers);
    /**
     * The operation begun sends srcRank -> dstRank on \p channel: called once for each
     * channel and ordered pair of the operation (of every process's transfers, also those
     * no host of this process sends or receives), in the order of its first transfer,
     * after BeginOperation and before the first Expect. A transport that matches receives
     * in advance makes the connection then, so that every process makes the same
     * connections in the same order. Default: nothing.
     */
    virtual void ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel);
    /**
     * The operation begun with \p tagBase (BeginOperation) will not run (a stopped
     * application's later iterations): a transport that took message ids for it gives
     * them back. Default: nothing.
     */
    virtual void AbandonOperation(uint64_t tagBase, uint32_t nTransfers);
    /**
     * The message \p tag of the operation begun will be sent srcRank -> dstRank on
     * \p channel (Send's arguments), and on that channel and ordered pair after every
     * message Expect named before it. Default: nothing.
     */
    virtual void Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel);
    /**
     * \return whether this process sends what \p rank posts (and sees its sender
     * completions): across MPI ranks only the rank owning its host does. Default: true.
     */
    virtual bool IsLocal(uint32_t rank) const;
    /**
     * \return whether the receiver tells messages apart by their place on their
     * connection (channel and ordered pair), so each connection must send in the order
     * Expect named them (RdmaCollectiveTransport MatchInAdvance). Default: false.
     */
    virtual bool NeedsTransferOrder() const;
    /**
     * The communicator is aborted (ncclCommAbort after a peer's failure): later Sends and
     * operations post nothing, and what the transport set aside for messages it will now
     * never post is released. Default: nothing.
     */
    virtual void Abort();
    /// onDelivered fires at the receiver when all bytes arrived; onSent at the
    /// sender when all bytes were acknowledged.
    void SetCallbacks(MessageCallback onDelivered, MessageCallback onSent);

  protected:
    void DoDispose() override;
    /// Implementations call these.
    void NotifyDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void NotifySent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);

  private:
    MessageCallback m_onDelivered;
    MessageCallback m_onSent;
};

} // namespace ns3

#endif // COLLECTIVE_TRANSPORT_H
