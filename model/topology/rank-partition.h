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
 * A cable between ranks is where the lookahead comes from (the smallest delay of the
 * cut cables), and every frame on it is an MPI message. Methods:
 *  - "group": by the topology's own structure. GPU servers (Shape::gpusPerServer > 1:
 *    the GPUs and their scale-up crossbar, joined by the short scale-up cables) are
 *    kept whole, in contiguous blocks of equal server count; a fabric switch of a
 *    group (fat-tree pod, leaf) goes with the rank that holds most of that group's
 *    GPUs. Without servers the groups (TopologyGraph::GetGroup: fat-tree pods, leaves,
 *    torus/mesh routers, so slabs of the last dimension, DragonFly groups) go in
 *    contiguous blocks of equal group count, each host with its group. The top tier of
 *    a tiered fabric (fat-tree cores, spines) and a rail fabric's leaves, which join
 *    every group or server, are spread over the ranks by index in contiguous blocks.
 *    A topology file has no groups: "group" is then "graph".
 *  - "block": node ids in contiguous blocks of equal count.
 *  - "graph": a balanced partition of the graph with the fewest cables cut (METIS,
 *    k-way or recursive bisection, whichever has the smaller largest rank, then the
 *    smaller cut; fixed seed; METIS's 3% imbalance, which units of several nodes can
 *    exceed): every switch a vertex weighted by its nodes, each host
 *    merged into the switch of its first cable (so a server's GPUs with their
 *    crossbar), cables weighted by the inverse of their delay relative to the longest
 *    (a cable 8x shorter counts 8 cables) so short cables are cut last. METIS is
 *    linked in builds with AI_FABRIC_MPI only; elsewhere "graph" is refused.
 */
class RankPartition
{
  public:
    /// \return this process's rank: MpiInterface::GetSystemId() when MPI is enabled
    /// (built with AI_FABRIC_MPI and MpiInterface::Enable called), else 0
    static uint32_t GetLocalRank();
    /// \return the number of ranks: MpiInterface::GetSize() when enabled, else 1
    static uint32_t GetNRanks();

    /// \return the methods Partition accepts: group, block, graph
    static std::vector<std::string> GetMethods();
    /// \return true when the "graph" method's partitioner (METIS) is linked (builds
    /// with AI_FABRIC_MPI)
    static bool HasGraphPartitioner();
    /**
     * \param graph the fabric
     * \param method a method of GetMethods()
     * \return how \p method places \p graph's nodes, in a few words (the runner prints
     *         it), e.g. "servers whole in blocks, pods with most of their GPUs, cores
     *         spread"
     */
    static std::string Describe(const TopologyGraph& graph, const std::string& method);
    /**
     * \param graph the fabric
     * \param ranks number of ranks (>= 1)
     * \param method "group", "block" or "graph"
     * \return the rank of each node; the same for the same arguments
     * \throws std::invalid_argument for an unknown method, 0 ranks, more ranks than
     *         the method has parts (groups, servers, switches, nodes), or "graph"
     *         without METIS, naming the value
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
