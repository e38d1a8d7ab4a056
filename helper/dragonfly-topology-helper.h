/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DRAGONFLY_TOPOLOGY_HELPER_H
#define DRAGONFLY_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-helper.h"

#include <string>

namespace ns3
{

/**
 * \brief Builds a DragonFly (Kim, Dally, Scott, Abts, ISCA 2008).
 *
 * g groups of a routers; every router has p hosts, a-1 local cables (all-to-all
 * inside its group) and h global cables: radix p + a - 1 + h, N = a p g hosts,
 * g <= a h + 1. Each group has a h global slots j = i h + c (router i, global port
 * c). Slot j reaches another group by the arrangement:
 *  - "absolute": group j if j < G else j + 1 (over the g-1 other groups);
 *  - "relative": group (G + j + 1) mod g.
 * When g < a h + 1 there are more slots than other groups: slot j is taken modulo
 * g-1 (round r = j / (g-1)), so each pair of groups gets floor or ceil of
 * a h / (g-1) parallel global cables; a slot whose partner slot in the other group
 * does not exist (last, partial round) stays unused. DuplicateGlobalLinks=false
 * keeps only round 0 (one cable per pair, the rest unused).
 * Node ids: hosts first (rank = (G a + i) p + j), then routers G a + i (group G,
 * index i, tier 0). Ports: hosts, local cables, then global cables.
 */
class DragonflyTopologyHelper : public TopologyHelper
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    DragonflyTopologyHelper();

    /**
     * Build the graph. Throws std::invalid_argument for p, a or h = 0, g > a h + 1
     * or an unknown arrangement.
     * \return the graph
     */
    Ptr<TopologyGraph> Build() const override;
    /// \return the closed-form counts of Build()
    Size GetSize() const override;

  private:
    uint32_t m_p;              //!< hosts per router
    uint32_t m_a;              //!< routers per group
    uint32_t m_h;              //!< global cables per router
    uint32_t m_g;              //!< groups (0 = a h + 1)
    std::string m_arrangement; //!< "absolute" or "relative"
    bool m_duplicate;          //!< duplicate global cables round-robin when g < a h + 1
    Time m_globalDelay;        //!< global cable delay
};

} // namespace ns3

#endif // DRAGONFLY_TOPOLOGY_HELPER_H
