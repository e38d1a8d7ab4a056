/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLNET_COLLECTIVE_TRANSPORT_H
#define COLLNET_COLLECTIVE_TRANSPORT_H

#include "ns3/collective-transport.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaCollectiveTransport;
class SharpHcaPort;

/**
 * \ingroup ai-fabric
 * \brief The transport of CollNet allreduces (CollNetAllreduce): the messages between
 * servers are SHARP reductions the InfiniBand switches perform (SharpAggregationEngine),
 * sent by the hosts' SHARP ports (SharpHcaPort); the messages inside a server go over the
 * RDMA transport it wraps.
 *
 * Each message (transfer) of the schedule has a role (SetPlan). A NORMAL message goes to
 * the RDMA transport (its completions reach the application as any other). A CONTRIBUTE
 * message r -> h is r's part of slice s, which h's server owns: its Send queues r's part
 * as SHARP operation s of r's tree, and r's own slice of the same chunk the first time r
 * sends in it; it is delivered (and its sender completes) when the sum of slice s is in
 * at h. A RESULT message h -> r stands for the sum reaching r, which the switches
 * replicate down the tree: it costs no frame of h's, completes at once at h and is
 * delivered when the sum is in at r. Each member sends its tree's operations in slice
 * order (every member the same order, as SHARP requires of a group's operations), within
 * the window the Aggregation Manager gave it.
 */
class CollNetCollectiveTransport : public CollectiveTransport
{
  public:
    /// What a message of the schedule is.
    enum Role : uint8_t
    {
        NORMAL = 0,     //!< a message inside a server: the RDMA transport's
        CONTRIBUTE = 1, //!< src's part of dst's slice, into the switches' tree
        RESULT = 2,     //!< the slice's sum reaching dst (sent down by the switches)
    };

    /// A message's role and slice.
    struct Message
    {
        uint8_t role{NORMAL}; //!< Role
        uint32_t slice{0};    //!< the slice it carries
        uint32_t ownSlice{0}; //!< CONTRIBUTE: the sender's own slice of the same chunk
    };

    /// A slice: its tree (index into the trees of Attach) and payload bytes.
    struct Slice
    {
        uint32_t tree{0};  //!< index of its tree
        uint64_t bytes{0}; //!< payload
    };

    static TypeId GetTypeId();
    CollNetCollectiveTransport();
    ~CollNetCollectiveTransport() override;

    /**
     * Work on \p rdma's ranks.
     * \param rdma the transport of the messages inside servers
     * \param treeIds the Aggregation Manager's tree of each tree index
     * \param members per tree index, its members (transport ranks)
     * \param ports per transport rank, its host's SHARP port (null for non-members)
     */
    void Attach(Ptr<RdmaCollectiveTransport> rdma,
                const std::vector<uint16_t>& treeIds,
                const std::vector<std::vector<uint32_t>>& members,
                const std::vector<Ptr<SharpHcaPort>>& ports);
    /// The schedule: \p messages by transfer index (a tag's low 32 bits), \p slices by slice.
    void SetPlan(std::vector<Message> messages, std::vector<Slice> slices);
    /// The sum of SHARP operation \p operation of tree \p treeId is in at \p host.
    void OnResult(uint32_t host, uint16_t treeId, uint16_t epoch, uint32_t operation);

    uint32_t GetNRanks() const override;
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;
    void BeginOperation(uint64_t tagBase, uint32_t nTransfers) override;
    void ExpectConnection(uint32_t srcRank, uint32_t dstRank, uint32_t channel) override;
    void Expect(uint32_t srcRank, uint32_t dstRank, uint64_t tag, uint32_t channel) override;
    bool NeedsTransferOrder() const override;
    /// Aborts the RDMA transport under it.
    void Abort() override;

  protected:
    void DoDispose() override;

  private:
    /// Mark slice \p slice ready at member rank \p rank and send what its order allows.
    void Ready(uint32_t rank, uint32_t slice);

    /// A message posted: (src, dst, tag, bytes).
    struct Posted
    {
        uint32_t src;   //!< sending rank
        uint32_t dst;   //!< receiving rank
        uint64_t tag;   //!< its tag
        uint64_t bytes; //!< its bytes
    };

    /// A slice's state in the running operation.
    struct State
    {
        std::vector<Posted> contributions; //!< CONTRIBUTE messages posted
        std::vector<Posted> results;       //!< RESULT messages posted
        std::vector<uint8_t> in;           //!< per member index: the sum is in
    };

    Ptr<RdmaCollectiveTransport> m_rdma;
    std::vector<uint16_t> m_treeIds;
    std::vector<std::vector<uint32_t>> m_members;
    std::vector<Ptr<SharpHcaPort>> m_ports; //!< by transport rank
    std::vector<int32_t> m_treeOf;          //!< by transport rank (-1: none)
    std::vector<uint32_t> m_memberIndex;    //!< by transport rank
    std::vector<int32_t> m_rankOfHost;      //!< by host (-1: none)
    std::vector<Message> m_messages;
    std::vector<Slice> m_slices;
    std::vector<std::vector<uint32_t>> m_order; //!< per tree: its slices, in order
    std::vector<uint32_t> m_position;           //!< per slice: its place in its tree's order
    // per operation
    uint16_t m_epoch{0};
    std::vector<State> m_state;                //!< per slice
    std::vector<std::vector<uint8_t>> m_ready; //!< per rank, per order place: may be sent
    std::vector<uint32_t> m_next;              //!< per rank: next order place to send
};

} // namespace ns3

#endif // COLLNET_COLLECTIVE_TRANSPORT_H
