/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_COLLECTIVE_TRANSPORT_H
#define RDMA_COLLECTIVE_TRANSPORT_H

#include "ns3/collective-transport.h"
#include "ns3/communicator.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"
#include "ns3/tag-run-queue.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief CollectiveTransport over a real RdmaFabric (RoCEv2 or InfiniBand): a
 * collective message from transport rank a to b is an RDMA WRITE from host
 * hostOf(a) to host hostOf(b).
 *
 * Each channel of a collective (CollectiveAlgorithm Channels) is its own RC
 * connection between two hosts (RdmaFabric::PostWrite's connection index), as NCCL's
 * net transport connects every channel to its peers separately (src/transport/
 * net.cc; one QP per connection by default, NCCL_IB_QPS_PER_CONNECTION=1): on
 * RoCEv2 each has its own UDP source port and so its own ECMP hash.
 *
 * Transport ranks 0..n-1 map to fabric hosts through a vector (by default every
 * host, rank i = host i), so a CollectiveApplication's Communicator indexes
 * transport ranks. The transport listens to every fabric completion and keeps
 * only its own: the tag's top 8 bits equal TagSpace (the application must use the
 * same TagSpace), both hosts are mapped, and for sender completions the message
 * kind is the collective kind.
 *
 * Lifetime: the fabric's listeners hold a reference to the transport, so the
 * transport lives as long as the fabric; the transport does not keep the fabric
 * alive (no reference cycle), so keep the fabric while the simulation runs.
 *
 * Receives matched in advance (attribute MatchInAdvance): BeginOperation takes the
 * operation's message ids (tagBase | i gets the first id + i) and Expect has each
 * receiver post its receives (RdmaFabric::PostReceive) in tag order, after
 * ExpectConnection made every connection of the operation; Send posts without a receive
 * (RdmaFabric::PostPrematched). RC delivers a connection's messages in order, so this
 * holds as long as each channel and ordered pair sends in tag order, which Send checks
 * (it aborts naming both tags otherwise). Every MPI rank so makes the same connections
 * in the same order (queue pair numbers agree) and takes the same ids at the start, and
 * posts the receives of the transfers it holds (CollectiveAlgorithm::Setup with local
 * ranks: those with a host of its own at either end), although only the sender's rank
 * sees a post.
 *
 * Zero-byte messages (a schedule unit may be empty when S is tiny) travel as a
 * 1-byte WRITE: RDMA needs a work request to tell the receiver that the sender
 * reached this step, so the synchronisation (and its latency) is kept, as NCCL
 * keeps it; the completions report the 0 bytes the caller posted.
 */
class RdmaCollectiveTransport : public CollectiveTransport
{
  public:
    /// fct.csv "kind" of collective messages (the runner's KIND_NAMES index).
    static constexpr uint8_t KIND_COLLECTIVE = 4;
    /// QpsPerConnection at most: QP q of channel c is connection c + q x MAX_CHANNELS,
    /// below RdmaFabric::FIRST_OWN_CONNECTION.
    static constexpr uint32_t MAX_QPS_PER_CONNECTION = 128;

    static TypeId GetTypeId();
    RdmaCollectiveTransport();
    ~RdmaCollectiveTransport() override;

    /**
     * Attach to a fabric; rank i runs on host hosts[i] (empty = every host in
     * order). Registers the fabric callbacks. Throws std::invalid_argument on a
     * null fabric, a host out of range or a repeated host.
     */
    void Attach(Ptr<RdmaFabric> fabric, const std::vector<uint32_t>& hosts = {});
    /// Same with the hosts of a communicator.
    void Attach(Ptr<RdmaFabric> fabric, const Communicator& comm);

    uint32_t GetNRanks() const override;
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;
    /// With MatchInAdvance: takes the operation's message ids from the fabric.
    void BeginOperation(uint64_t tagBase, uint32_t nTransfers) override;
    /// Posts nothing more; the message ids taken and not posted count as done in the
    /// fabric (RdmaFabric::ForgoMessageIds), so a run can end without them.
    void Abort() override;
    /// \p n of the operation's message ids carry no message (a transport built on this
    /// one, e.g. CollNet's SHARP operations): RdmaFabric::ForgoMessageIds, counted here.
    void ForgoMessageIds(uint64_t n);
    /// With MatchInAdvance: gives the operation's message ids back (RdmaFabric::ForgoMessageIds).
    void AbandonOperation(uint64_t tagBase, uint32_t nTransfers) override;
    /// With MatchInAdvance: makes the connection now (RdmaFabric::OpenConnection).
    void ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel) override;
    /// With MatchInAdvance: the receiver posts the message's receive now.
    void Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel) override;
    /// RdmaFabric::IsLocalHost of the rank's host.
    bool IsLocal(uint32_t rank) const override;
    /// True with MatchInAdvance.
    bool NeedsTransferOrder() const override;

    /**
     * \return whether SendSkipped may stand for Send of a message of \p bytes: one
     * message of at least one byte, on a fabric in one process, receives not matched in
     * advance (a skipped message consumes no receive) and not cut over QPs
     */
    bool CanSkip(uint64_t bytes) const;
    /**
     * Fast-forward (FastForwardTransport): Send's message without its packets
     * (RdmaFabric::PostSkipped): delivered after \p delivered, acknowledged after \p acked.
     */
    void SendSkipped(uint32_t srcRank,
                     uint32_t dstRank,
                     uint64_t bytes,
                     uint64_t tag,
                     Time delivered,
                     Time acked);
    /// Fabric host of a transport rank.
    uint32_t GetHost(uint32_t rank) const;
    /// \return the fabric Attach gave (null before)
    Ptr<RdmaFabric> GetFabric() const;
    /// Tag space (top 8 bits of the tags) this transport accepts.
    uint8_t GetTagSpace() const;
    /// Messages posted by this transport and not yet acknowledged to the sender.
    uint64_t GetPendingMessages() const;

    /// The verb each message is posted as (attribute Verb).
    enum Verb
    {
        VERB_WRITE = 0, //!< an RDMA WRITE with immediate
        VERB_SEND = 1,  //!< a SEND with immediate (consumes a receive at the peer)
    };

  protected:
    void DoDispose() override;

  private:
    void OnFabricDelivered(uint32_t srcHost, uint32_t dstHost, uint64_t tag, uint64_t bytes);
    void OnFabricMessage(const RdmaFabric::MessageRecord& r);
    /// Aborts naming them unless both ranks exist, differ, and the channel is below
    /// CollectiveAlgorithm::MAX_CHANNELS.
    void CheckPeers(uint32_t srcRank, uint32_t dstRank, uint32_t channel) const;
    /// Translate a host to its rank; false if the host is not one of ours.
    bool RankOf(uint32_t host, uint32_t& rank) const;
    /// Bytes to report for a completion; consumes one of the two notifications of a
    /// zero-byte message.
    uint64_t ReportedBytes(uint64_t tag, uint64_t bytes);
    /// Post one message of \p wire bytes on fabric connection \p connection (Verb).
    void Post(uint32_t srcRank, uint32_t dstRank, uint64_t wire, uint64_t tag, uint32_t connection);
    /// \return whether messages are cut over the QPs (SplitDataOnQps, QpsPerConnection > 1)
    bool Split() const;
    /// Send's SplitDataOnQps path: one part per QP.
    void SendSplit(uint32_t srcRank,
                   uint32_t dstRank,
                   uint64_t bytes,
                   uint64_t tag,
                   uint32_t channel);
    /**
     * \param next per connection, the QP of its next message
     * \return the QP the next message of (\p src, \p dst, \p channel) goes on, and advance
     */
    uint32_t NextQp(std::unordered_map<uint64_t, uint32_t>& next,
                    uint32_t src,
                    uint32_t dst,
                    uint32_t channel);

    uint8_t m_tagSpace;          //!< attribute TagSpace
    Verb m_verb;                 //!< attribute Verb
    bool m_matchInAdvance;       //!< attribute MatchInAdvance
    uint32_t m_qpsPerConnection; //!< attribute QpsPerConnection
    bool m_splitDataOnQps;       //!< attribute SplitDataOnQps
    /// The fabric messages go through. Not a Ptr: the fabric's listeners hold this
    /// transport, so a Ptr back would be a reference cycle that nothing breaks.
    RdmaFabric* m_fabric{nullptr};
    std::vector<uint32_t> m_hostOf; //!< rank -> host
    std::vector<int64_t> m_rankOf;  //!< host -> rank, -1 if not a rank
    uint64_t m_posted{0};           //!< messages posted
    uint64_t m_idsTaken{0};         //!< MatchInAdvance: message ids taken from the fabric
    uint64_t m_idsUsed{0};          //!< of them, posted or forgone
    bool m_aborted{false};          //!< Abort was called
    uint64_t m_acked{0};            //!< sender completions seen
    std::unordered_map<uint64_t, uint8_t> m_zeroByte; //!< tag -> completions still due
    /// MatchInAdvance: tagBase -> first message id of its operation
    std::unordered_map<uint64_t, uint64_t> m_idBase;
    /// MatchInAdvance: per (src rank, dst rank, channel) of a local sender, the tags
    /// its receiver expects, in order
    std::unordered_map<uint64_t, TagRunQueue> m_expected;
    /// \return the key of m_expected
    uint64_t ConnectionKey(uint32_t src, uint32_t dst, uint32_t channel) const;
    /// per (src rank, dst rank, channel): the QP of the next message sent (round-robin)
    std::unordered_map<uint64_t, uint32_t> m_nextQp;
    /// per (src rank, dst rank, channel): the QP of the next receive posted (MatchInAdvance)
    std::unordered_map<uint64_t, uint32_t> m_nextExpectQp;

    /// A message cut over the QPs (SplitDataOnQps): the completions still due.
    struct SplitMessage
    {
        uint32_t deliveries; //!< parts not yet delivered
        uint32_t acks;       //!< parts not yet acknowledged to the sender
        uint64_t bytes;      //!< the message's bytes, reported once
    };

    std::unordered_map<uint64_t, SplitMessage> m_split; //!< tag -> its parts' completions
};

} // namespace ns3

#endif // RDMA_COLLECTIVE_TRANSPORT_H
