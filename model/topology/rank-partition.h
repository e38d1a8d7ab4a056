/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANK_PARTITION_H
#define RANK_PARTITION_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief Which MPI rank (ns-3 system id) simulates each node of a fabric, and which
 * rank this process is.
 *
 * A partition is a system id per node of a TopologyGraph; RdmaFabricHelper::
 * SetPartition creates each node with its id (Node::GetSystemId) and puts a remote
 * channel (RoceRemoteChannel, IbRemoteChannel) on every cable whose ends differ.
 * Methods:
 *  - "group": by the graph's groups (TopologyGraph::GetGroup: fat-tree pods, DragonFly
 *    groups): groups in contiguous blocks of equal count, each host and pod switch
 *    with its group; the top tier (fat-tree cores), which joins every group, spread
 *    over the ranks by index in contiguous blocks.
 *  - "block": node ids in contiguous blocks of equal count.
 * A cable between ranks is where the lookahead comes from (its delay), and every
 * frame on it is an MPI message: "group" keeps a pod's edge-aggregation traffic on
 * one rank and cuts only aggregation-core cables.
 */
class RankPartition
{
  public:
    /// \return this process's rank: MpiInterface::GetSystemId() when MPI is enabled
    /// (built with AI_FABRIC_MPI and MpiInterface::Enable called), else 0
    static uint32_t GetLocalRank();
    /// \return the number of ranks: MpiInterface::GetSize() when enabled, else 1
    static uint32_t GetNRanks();

    /// \return the methods Partition accepts
    static std::vector<std::string> GetMethods();
    /**
     * \param graph the fabric
     * \param ranks number of ranks (>= 1)
     * \param method "group" or "block"
     * \return the rank of each node
     * \throws std::invalid_argument for an unknown method, 0 ranks, or more ranks
     *         than the method has parts (groups, nodes), naming the value
     */
    static std::vector<uint32_t> Partition(const TopologyGraph& graph,
                                           uint32_t ranks,
                                           const std::string& method);

    /// Per rank: (nodes, hosts, cables to other ranks) of \p partition on \p graph.
    struct Stats
    {
        std::vector<uint32_t> nodes;        //!< nodes per rank
        std::vector<uint32_t> hosts;        //!< hosts per rank
        std::vector<uint32_t> remoteCables; //!< cables with one end on the rank, one off
        uint32_t cutCables{0};              //!< cables between ranks
        int64_t minCutDelayTicks{-1};       //!< the smallest delay of those: the lookahead
    };

    /// \return the statistics of \p partition (one rank per node of \p graph)
    static Stats GetStats(const TopologyGraph& graph, const std::vector<uint32_t>& partition);
};

} // namespace ns3

#endif // RANK_PARTITION_H
