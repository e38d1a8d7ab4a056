/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Installs one collective on a NodeContainer of ranks: a
 * CollectiveRankApplication per Node (rank i = the i-th Node), sharing one
 * CollectiveApplication and one RdmaCollectiveTransport whose TagSpace it matches.
 *
 *   CollectiveHelper allreduce("ring", 4 << 20, 2);
 *   ApplicationContainer ranks = allreduce.Install(topology->GetHosts());
 *   ranks.Start(MicroSeconds(5));
 */
class CollectiveHelper
{
  public:
    /**
     * \param algorithm the Algorithm Attribute (ring, tree, hd, 2d, ...)
     * \param bytes the Bytes Attribute: bytes per rank
     * \param iterations the Iterations Attribute
     */
    CollectiveHelper(const std::string& algorithm, uint64_t bytes, uint32_t iterations = 1);

    /**
     * \param name a CollectiveRankApplication Attribute (Operation, ComputeGap, ...)
     * \param value its value
     * \throws std::invalid_argument for an Attribute the class does not have
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \param name an Attribute of the collective's algorithm object (CollectiveAlgorithm:
     *        ChunkBytes, Channels, MaxInFlight; or the algorithm's own)
     * \param value its value
     */
    void SetAlgorithmAttribute(const std::string& name, const AttributeValue& value);

    /**
     * One collective over \p ranks.
     * \return the ranks' applications, rank order
     * \throws std::invalid_argument (one message naming the value and what is allowed)
     *         for an unknown operation or algorithm, zero bytes, fewer than 2 ranks, a
     *         repeated Node, a Node without an RDMA device or on another fabric, an
     *         algorithm that cannot run on that many ranks, an unknown algorithm
     *         Attribute
     */
    ApplicationContainer Install(NodeContainer ranks) const;

  private:
    ObjectFactory m_factory; //!< CollectiveRankApplication with its Attributes
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_algorithmAttributes; //!< set
};

} // namespace ns3

#endif // COLLECTIVE_HELPER_H
