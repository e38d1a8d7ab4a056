/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NVLS_COLLECTIVE_TRANSPORT_H
#define NVLS_COLLECTIVE_TRANSPORT_H

#include "ns3/collective-transport.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class NvlsGpuPort;
class RdmaCollectiveTransport;

/**
 * \ingroup ai-fabric
 * \brief The transport of NVLS collectives (NvlsAllreduce): their messages are slices
 * the server's crossbar reduces and multicasts (NvlsSwitchEngine), sent by the GPUs'
 * NVLS ports (NvlsGpuPort) over the scale-up cables.
 *
 * Each message (transfer) of the schedule has a role (SetPlan): a CONTRIBUTE message r
 * -> h is GPU r's part of slice s, owned by h; a MULTICAST message h -> r is the sum of
 * slice s, which h writes to every member. Send of a CONTRIBUTE message sends r's
 * contribution to the switch, and r's own slice of the same chunk the first time r
 * sends in that chunk (NCCL's ld_reduce reads the owner's copy too). The contributions
 * of slice s are delivered (and their senders complete) when the switch's sum is in at
 * h. The first Send of a MULTICAST message of slice s sends the slice once; each
 * member's message is delivered when the copy is in at that member, and the owner's
 * complete when its own copy is back.
 *
 * Attach installs, on first use, an NvlsGpuPort on each member GPU and an
 * NvlsSwitchEngine on their crossbar (RoCEv2 fabrics with PFC: RdmaFabric::HasNvlinkSharp),
 * and registers the members as
 * one multicast group.
 */
class NvlsCollectiveTransport : public CollectiveTransport
{
  public:
    /// What a message of the schedule is.
    enum Role : uint8_t
    {
        CONTRIBUTE = 0, //!< src's contribution to dst's slice
        MULTICAST = 1,  //!< the owner (src) writes the slice's sum to dst
    };

    /// A message's role and slice.
    struct Message
    {
        uint8_t role{CONTRIBUTE}; //!< Role
        uint32_t slice{0};        //!< the slice it carries
        uint32_t ownSlice{0};     //!< CONTRIBUTE: the sender's own slice of the same chunk
    };

    /// What NVLS needs of a fabric (RdmaFabric::HasNvlinkSharp), for refusals' messages.
    static const char* const NVLINK_SHARP_NEEDS;

    static TypeId GetTypeId();
    NvlsCollectiveTransport();
    ~NvlsCollectiveTransport() override;

    /**
     * Work on \p rdma's fabric and ranks: \p ranks (transport ranks of \p rdma) are the
     * group's members, all on one crossbar.
     * \throws std::invalid_argument for a fabric without NVLink SHARP
     *         (RdmaFabric::HasNvlinkSharp) or members not on one server's crossbar
     */
    void Attach(Ptr<RdmaCollectiveTransport> rdma, const std::vector<uint32_t>& ranks);
    /**
     * The schedule: \p messages by transfer index (a tag's low 32 bits), \p sliceBytes
     * by slice, \p owner (transport rank) by slice.
     */
    void SetPlan(std::vector<Message> messages,
                 std::vector<uint64_t> sliceBytes,
                 std::vector<uint32_t> owner);

    uint32_t GetNRanks() const override;
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;
    /// Forget the previous operation's slices.
    void BeginOperation(uint64_t tagBase, uint32_t nTransfers) override;

  protected:
    void DoDispose() override;

  private:
    /// Member \p member's port sends the frames of \p slice of kind \p kind, naming the
    /// host of member \p owner as the slice's owner.
    void SendSliceFrom(uint32_t member, uint8_t kind, uint32_t slice, uint32_t owner);
    /// A whole slice reached host \p host (NvlsGpuPort's callback).
    void OnSlice(uint32_t host, uint8_t kind, uint16_t group, uint32_t slice);

    /// A message posted: (src, dst, tag, bytes).
    struct Posted
    {
        uint32_t src;   //!< sending rank
        uint32_t dst;   //!< receiving rank
        uint64_t tag;   //!< its tag
        uint64_t bytes; //!< its bytes
    };

    /// One slice of the operation.
    struct Slice
    {
        std::vector<Posted> contributions; //!< CONTRIBUTE messages posted
        std::vector<Posted> multicasts;    //!< MULTICAST messages posted
        std::vector<uint8_t> copyIn;       //!< per member (group index): its copy arrived
        bool ownSent{false};               //!< the owner's own contribution went
        bool multicastSent{false};         //!< the owner sent the sum
        bool resultIn{false};              //!< the sum reached the owner
        bool ownCopyBack{false};           //!< the owner's own copy came back
    };

    std::vector<Ptr<NvlsGpuPort>> m_ports; //!< by member
    std::vector<uint32_t> m_hostOf;        //!< member -> host
    std::vector<int32_t> m_memberOf;       //!< transport rank -> member (-1: none)
    std::vector<int32_t> m_memberOfHost;   //!< host -> member (-1: none)
    std::vector<uint32_t> m_rankOf;        //!< member -> transport rank
    uint32_t m_nRanks{0};
    uint16_t m_group{0};
    std::vector<Message> m_messages;
    std::vector<uint64_t> m_sliceBytes;
    std::vector<uint32_t> m_owner; //!< by slice: transport rank
    std::vector<Slice> m_slices;
};

} // namespace ns3

#endif // NVLS_COLLECTIVE_TRANSPORT_H
