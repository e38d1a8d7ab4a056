/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BUFFER_COVERAGE_CHECK_H
#define BUFFER_COVERAGE_CHECK_H

#include "ns3/rdma-fabric.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The check before a run that every port's buffer covers its link's
 * bandwidth-delay product (RdmaFabric::GetBufferShortfalls), as one warning.
 *
 * Ports with the same buffer, the same need and the same kind of buffer are one
 * entry, "N ports like leaf0 port 4", the port named as topology.csv names it (node
 * name, port number), so a fabric of thousands of identical ports gives one line.
 * The scenario runner prints it on stderr and lists it in summary.json's warnings; a
 * script calls Describe after installing a fabric.
 */
class BufferCoverageCheck
{
  public:
    /// Kinds of ports listed before "and N more kinds of ports"
    static constexpr size_t MAX_GROUPS = 6;

    /**
     * \param fabric an installed fabric
     * \return "" when every port's buffer covers its bandwidth-delay product, else one
     *         warning naming the ports (grouped), their buffers and needs in bytes
     */
    static std::string Describe(const RdmaFabric& fabric);

    /**
     * The same from a list of shortfalls.
     * \param graph the fabric's graph (for the names)
     * \param shortfalls the ports, in any order
     * \return the warning, or ""
     */
    static std::string Describe(const TopologyGraph& graph,
                                const std::vector<RdmaFabric::BufferShortfall>& shortfalls);
};

} // namespace ns3

#endif // BUFFER_COVERAGE_CHECK_H
