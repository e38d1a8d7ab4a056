/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TOPOLOGY_HELPER_H
#define TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief What every topology helper has: the rate and delay of its host cables and of
 * its switch-to-switch cables (Attributes), and Build(), which makes the graph.
 *
 * The families (FatTreeTopologyHelper, LeafSpineTopologyHelper, TorusTopologyHelper,
 * MeshTopologyHelper, DragonflyTopologyHelper) add their own shape Attributes. Code
 * that sets the links or builds a graph needs only this class.
 */
class TopologyHelper : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();

    /**
     * Build the graph. Throws std::invalid_argument naming a shape Attribute the
     * family cannot build.
     * \return the graph
     */
    virtual Ptr<TopologyGraph> Build() const = 0;

    /**
     * Set the four cable Attributes at once.
     * \param hostRate rate of every host-to-switch cable
     * \param hostDelay its propagation delay
     * \param fabricRate rate of every switch-to-switch cable
     * \param fabricDelay its propagation delay
     */
    void SetLinks(DataRate hostRate, Time hostDelay, DataRate fabricRate, Time fabricDelay);

  protected:
    /**
     * The last step of every Build(): record the shape, check the graph's invariants
     * and log its description.
     * \param graph the graph the family built
     * \param shape what built it (family, its parameters, a one-line label)
     * \return graph
     */
    static Ptr<TopologyGraph> Finish(Ptr<TopologyGraph> graph, const TopologyGraph::Shape& shape);

    DataRate m_hostRate;   //!< host-to-switch cable rate
    Time m_hostDelay;      //!< host-to-switch cable delay
    DataRate m_fabricRate; //!< switch-to-switch cable rate
    Time m_fabricDelay;    //!< switch-to-switch cable delay
};

} // namespace ns3

#endif // TOPOLOGY_HELPER_H
