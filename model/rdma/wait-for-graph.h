/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WAIT_FOR_GRAPH_H
#define WAIT_FOR_GRAPH_H

#include "ns3/topology-graph.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The queues of a fabric that hold frames they may not send, and which of
 * them each one waits for: a cycle is a deadlock.
 *
 * A vertex is a switch egress queue (node, port, lane: the PFC priority on RoCEv2,
 * the VL on InfiniBand) that has frames waiting, is blocked by its link partner
 * (paused, or short of credits) and has not sent anything for a stall time. An
 * edge u -> v says that u's partner cannot accept u's frames until v sends: the
 * partner's ingress buffer that is full (PFC XOFF, no credits left) holds frames
 * queued at v. Fabrics fill it (RdmaFabric::CollectStalledQueues); DeadlockDetector
 * looks for a cycle.
 */
class WaitForGraph
{
  public:
    /// One stalled egress queue.
    struct Vertex
    {
        uint32_t node;      //!< graph node id of the switch
        uint32_t port;      //!< its egress port
        uint8_t lane;       //!< PFC priority or VL
        int64_t sinceTicks; //!< when it last sent or stopped being blocked (time steps)
    };

    /// Add a vertex; \return its index
    uint32_t AddVertex(const Vertex& v);
    /// u waits for v (indices from AddVertex).
    void AddEdge(uint32_t u, uint32_t v);

    /**
     * Add every edge u -> v where v is a vertex of u's link partner (the far end of
     * u's port in \p topology) and \p holds(partner, v.port, v.lane, partner's port
     * facing u, u.lane) is true: v holds frames of the ingress buffer that blocks u.
     */
    template <typename Holds>
    void AddPartnerEdges(const TopologyGraph& topology, Holds holds)
    {
        std::vector<std::vector<uint32_t>> byNode(topology.GetNNodes());
        for (uint32_t v = 0; v < m_vertices.size(); ++v)
        {
            byNode[m_vertices[v].node].push_back(v);
        }
        for (uint32_t u = 0; u < m_vertices.size(); ++u)
        {
            const TopologyGraph::Port& far =
                topology.GetPorts(m_vertices[u].node)[m_vertices[u].port];
            for (uint32_t v : byNode[far.peer])
            {
                if (holds(far.peer,
                          m_vertices[v].port,
                          m_vertices[v].lane,
                          far.peerPort,
                          m_vertices[u].lane))
                {
                    AddEdge(u, v);
                }
            }
        }
    }

    /// Drop every vertex and edge.
    void Clear();

    uint32_t GetNVertices() const;
    const Vertex& GetVertex(uint32_t i) const;

    /**
     * \return the vertices of one cycle in wait order (each waits for the next, the
     * last for the first), empty if the graph has none. Deterministic: the cycle
     * reached first from the lowest-numbered vertex.
     */
    std::vector<uint32_t> FindCycle() const;

  private:
    std::vector<Vertex> m_vertices;
    std::vector<std::vector<uint32_t>> m_edges; //!< per vertex: the vertices it waits for
};

} // namespace ns3

#endif // WAIT_FOR_GRAPH_H
