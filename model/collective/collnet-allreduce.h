/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLNET_ALLREDUCE_H
#define COLLNET_ALLREDUCE_H

#include "collnet-collective-transport.h"
#include "ring-allreduce.h"

#include <string>
#include <vector>

namespace ns3
{

class AggregationManager;

/**
 * \ingroup ai-fabric
 * \brief NCCL's CollNet allreduce ("collnet") on InfiniBand with SHARP: the switches
 * reduce between servers.
 *
 * On servers of G GPUs (GpusPerServer, ranks server x G + GPU; G = 1 for one-NIC hosts):
 * a ring reduce-scatter inside each server (over the scale-up domain) leaves GPU g with
 * shard g reduced over its server; GPU g's NIC sends its shard into the SHARP tree of
 * rail g (one tree per rail: the GPUs g of all servers), whose switches sum the servers'
 * shards and send the sum back down to every member; a ring all-gather inside each server
 * spreads the shards (NCCL's CollNetDirect / CollNetChain: reduce inside the node, the
 * network plugin's reduction between nodes, broadcast inside the node; src/device/
 * all_reduce.h). Per server the network carries S bytes each way, where a ring's NICs
 * carry 2 (N - 1) / N x S (N GPUs; NCCL's rings cross the network once per server and
 * channel).
 *
 * In the schedule each shard's chunk is cut into one slice per server (its owner, as for
 * NVLS): slice (c, h) is S' - 1 CONTRIBUTE messages r -> h (delivered when the sum is at
 * h) and S' - 1 RESULT messages h -> r (delivered when the sum is at r), carried by
 * CollNetCollectiveTransport; every slice is one SHARP operation of its rail's tree.
 *
 * Trees: at Setup, one per rail from the fabric's Aggregation Manager (attribute
 * AggregationManager; the scenario runner passes the InfiniBand fabric's). When the
 * manager has no tree left for a rail (its switches' MaxTrees are taken by other jobs)
 * the allreduce runs the ring instead (GetName() then says "ring" and
 * GetFallbackReason() why), as NCCL falls back when CollNet is unavailable. Without a
 * manager (a RoCEv2 fabric) Setup refuses it.
 */
class CollNetAllreduce : public RingAllreduce
{
  public:
    static TypeId GetTypeId();
    CollNetAllreduce();
    ~CollNetAllreduce() override;
    std::string GetName() const override;
    std::string GetFallbackReason() const override;
    /// \return the Aggregation Manager's trees this allreduce holds (one per rail)
    const std::vector<uint16_t>& GetTrees() const;

  protected:
    void DoDispose() override;
    void BuildSchedule() override;
    Ptr<CollectiveTransport> UseTransport(Ptr<CollectiveTransport> transport) override;

  private:
    /// Free the trees held.
    void ReleaseTrees();
    /// Ask the manager for one tree per rail; false (and m_fallback) if one is refused.
    bool AllocateTrees();
    void OnResult(uint32_t host, uint16_t tree, uint16_t epoch, uint32_t operation);
    void Delivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void Sent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);

    Ptr<AggregationManager> m_manager;            //!< attribute AggregationManager
    std::string m_fabric;                         //!< attribute Fabric
    uint32_t m_gpus{1};                           //!< GPUs per server at Setup
    std::vector<uint16_t> m_trees;                //!< per rail
    std::vector<std::vector<uint32_t>> m_members; //!< per rail: communicator ranks
    std::string m_fallback;                       //!< why the ring runs ('' = collnet)
    std::vector<CollNetCollectiveTransport::Message> m_messages; //!< by transfer index
    std::vector<CollNetCollectiveTransport::Slice> m_slices;     //!< by slice
    Ptr<CollNetCollectiveTransport> m_collnet;
    Ptr<CollectiveTransport> m_given; //!< the transport m_collnet was made for
};

} // namespace ns3

#endif // COLLNET_ALLREDUCE_H
