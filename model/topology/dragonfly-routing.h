/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DRAGONFLY_ROUTING_H
#define DRAGONFLY_ROUTING_H

#include "routing-engine.h"

#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \brief DragonFly routing (Kim et al. 2008): minimal tables plus Valiant/UGAL parts.
 *
 * The table is always the minimal route (local, global, local; <= 3 router hops,
 * one global cable): all first hops of the shortest such paths, so ties give
 * several candidates (e.g. a router's own global cable landing next to the
 * destination and a neighbour's landing on it). Classes: GLOBAL_HOP rule, one more
 * class after each global cable (2 classes for minimal, 3 for valiant/ugal).
 *
 * Valiant and UGAL are per packet and need switch state the table cannot hold:
 * the packet carries an intermediate group I and a phase bit (0 until it reaches a
 * router of group I, then 1). Phase 0 routes with MinimalCandidatesToGroup(router,
 * I); phase 1 with the table. The source switch picks I with
 * ChooseIntermediateGroup(); UGAL then keeps the minimal route if
 * UgalPreferMinimal(q_min, q_nonmin, offset) (q = queue length of the first hop).
 */
class DragonflyRouting : public RoutingEngine
{
  public:
    /// \param mode "minimal", "valiant" or "ugal"
    explicit DragonflyRouting(const std::string& mode = "minimal");
    /// \param mode the engine of that path mode (MINIMAL: "minimal", ...)
    explicit DragonflyRouting(RouteTable::PathMode mode);

    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;
    RouteTable::PathMode GetPathMode() const override;

    /**
     * After Compute: ports from a router towards any router of a group: its own
     * global cables to that group, else its local cables to the routers that have
     * one. Empty for the router's own group. O(1), no allocation.
     * \param routerNode switch node id
     * \param group target group
     * \return the ports
     */
    RouteTable::PortSpan MinimalCandidatesToGroup(uint32_t routerNode, uint32_t group) const;

    /**
     * Uniform intermediate group other than src and dst (Valiant). With fewer
     * than 3 groups there is none and dstGroup is returned (route minimally).
     * \param srcGroup source group
     * \param dstGroup destination group
     * \param rng uniform stream (AssignStreams on it for reproducibility)
     * \return the intermediate group
     */
    uint32_t ChooseIntermediateGroup(uint32_t srcGroup,
                                     uint32_t dstGroup,
                                     Ptr<UniformRandomVariable> rng) const;

    /**
     * UGAL-L choice (Kim et al. 2008): minimal if q_min <= 2 q_nonmin + offset
     * (the non-minimal path is about twice as long).
     * \param qMin queue length (bytes or packets) on the minimal first hop
     * \param qNonMin queue length on the non-minimal first hop
     * \param offset bias in the same unit
     * \return true to route minimally
     */
    static bool UgalPreferMinimal(uint64_t qMin, uint64_t qNonMin, int64_t offset);

    /// \return number of groups of the computed graph
    uint32_t GetNGroups() const;

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;

  private:
    std::string m_mode;                    //!< minimal, valiant, ugal
    RouteTable::PathMode m_pathMode;       //!< the mode's path choice
    uint8_t m_globalHopClasses;            //!< classes of its paths (GLOBAL_HOP rule)
    uint32_t m_groups;                     //!< g
    std::vector<uint32_t> m_rowOf;         //!< node -> router row, NO_PORT for hosts
    std::vector<uint32_t> m_toGroupOffset; //!< row * g + group -> offset in m_toGroupPorts
    std::vector<uint32_t> m_toGroupPorts;  //!< concatenated port lists
};

} // namespace ns3

#endif // DRAGONFLY_ROUTING_H
