/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "wait-for-graph.h"

#include "ns3/directed-cycle.h"

namespace ns3
{

uint32_t
WaitForGraph::AddVertex(const Vertex& v)
{
    m_vertices.push_back(v);
    m_edges.emplace_back();
    return static_cast<uint32_t>(m_vertices.size() - 1);
}

void
WaitForGraph::AddEdge(uint32_t u, uint32_t v)
{
    m_edges.at(u).push_back(v);
}

void
WaitForGraph::Clear()
{
    m_vertices.clear();
    m_edges.clear();
}

uint32_t
WaitForGraph::GetNVertices() const
{
    return static_cast<uint32_t>(m_vertices.size());
}

const WaitForGraph::Vertex&
WaitForGraph::GetVertex(uint32_t i) const
{
    return m_vertices.at(i);
}

std::vector<uint32_t>
WaitForGraph::FindCycle() const
{
    return FindDirectedCycle(m_edges);
}

} // namespace ns3
