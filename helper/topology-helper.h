/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TOPOLOGY_HELPER_H
#define TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"

#include <string>
#include <vector>

namespace ns3
{

class FabricTopology;

/**
 * \ingroup ai-fabric
 * \brief What every topology helper has: the rate and delay of its host cables and of
 * its switch-to-switch cables (Attributes), and Build(), which makes the graph.
 *
 * The families (FatTreeTopologyHelper, LeafSpineTopologyHelper, TorusTopologyHelper,
 * MeshTopologyHelper, DragonflyTopologyHelper, RailTopologyHelper) add their own shape
 * Attributes. Code that sets the links or builds a graph needs only this class.
 *
 * GpusPerServer > 1 (fat-tree, leaf-spine and rail families) makes every G
 * consecutive hosts one server: host i is GPU i % G of server i / G, cabled at
 * ScaleUpRate to its server's crossbar (a switch of the fabric, lossless like the
 * others), and the host's scale-out cable starts at the crossbar (crossbar port j is
 * GPU j's NIC cable, port G + j its scale-up cable). --routing=auto is then "rail".
 *
 * CableLengths (metres per cable tier, TopologyGraph::Link::tier) replaces the delays
 * of the tiered cables by length x PropagationDelayPerMetre: tier 0 host to its first
 * switch, tier 1 the next switch layer (leaf-spine, edge-aggregation, torus/mesh
 * router cables, DragonFly local), tier 2 aggregation-core (DragonFly global); the
 * last length given repeats for higher tiers. A server's scale-up cables keep
 * ScaleUpDelay. Unset, every cable keeps HostLinkDelay / FabricLinkDelay.
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
     * Build the graph and create one ns-3 Node per graph node (hosts first): the
     * topology's NodeContainers (FabricTopology::GetHosts, GetSwitches, GetHost),
     * on which RoceFabricHelper or IbFabricHelper installs a fabric.
     * Throws std::invalid_argument as Build() does.
     * \return the topology
     */
    Ptr<FabricTopology> CreateTopology() const;

    /// What Build() would make, counted without building it.
    struct Size
    {
        uint64_t hosts;    //!< host nodes
        uint64_t switches; //!< switches (routers)
        uint64_t cables;   //!< cables, host cables included
    };

    /**
     * Count what Build() would make, in closed form (no allocation, no wrap: a count
     * past 2^64 saturates at UINT64_MAX), so that a caller can refuse a fabric too
     * large for the machine before building it. Exact, but for DragonFly's duplicated
     * global cables (an upper bound). Meaningful only for shape Attributes that Build()
     * accepts.
     * \return the counts
     */
    virtual Size GetSize() const = 0;

    /**
     * \param a a count
     * \param b a count
     * \return a * b, or UINT64_MAX when the product does not fit
     */
    static uint64_t SaturatingMultiply(uint64_t a, uint64_t b);

    /**
     * What GetSize() counts with the servers added (GpusPerServer > 1): one crossbar
     * per server and one scale-up cable per GPU.
     * \param s the scale-out counts (every host a GPU's NIC)
     * \return the counts with the servers
     */
    Size AddServerCounts(Size s) const;
    /**
     * \param a a count
     * \param b a count
     * \return a + b, or UINT64_MAX when the sum does not fit
     */
    static uint64_t SaturatingAdd(uint64_t a, uint64_t b);

    /**
     * Set the four cable Attributes at once.
     * \param hostRate rate of every host-to-switch cable
     * \param hostDelay its propagation delay
     * \param fabricRate rate of every switch-to-switch cable
     * \param fabricDelay its propagation delay
     */
    void SetLinks(DataRate hostRate, Time hostDelay, DataRate fabricRate, Time fabricDelay);

    /// Longest cable CableLengths accepts (metres): 100 km, beyond any cluster's cables.
    static constexpr double MAX_CABLE_METRES = 100000;
    /// Largest PropagationDelayPerMetre accepted: 100 ns/m (fibre is ~5 ns/m).
    static constexpr int64_t MAX_DELAY_PER_METRE_PS = 100000;

    /**
     * Parse a CableLengths value: one to three lengths in metres, comma separated,
     * each a number > 0 and <= MAX_CABLE_METRES; "" is no lengths.
     * \param text the value ("3,30,500")
     * \return the lengths, tier 0 first
     * \throws std::invalid_argument naming the value and what is allowed
     */
    static std::vector<double> ParseCableLengths(const std::string& text);
    /**
     * Check a PropagationDelayPerMetre value.
     * \param perMetre the delay per metre of cable
     * \throws std::invalid_argument naming the value and the allowed range
     */
    static void CheckPropagationDelay(Time perMetre);
    /**
     * The delay of a cable of a tier.
     * \param lengths CableLengths parsed (not empty)
     * \param perMetre delay per metre
     * \param tier the cable's tier
     * \return lengths[min(tier, last)] x perMetre, rounded to the picosecond
     */
    static Time CableDelay(const std::vector<double>& lengths, Time perMetre, uint32_t tier);

  protected:
    /**
     * The last step of every Build(): record the shape, check the graph's invariants
     * and log its description.
     * \param graph the graph the family built
     * \param shape what built it (family, its parameters, a one-line label)
     * \return graph
     */
    Ptr<TopologyGraph> Finish(Ptr<TopologyGraph> graph, const TopologyGraph::Shape& shape) const;

    DataRate m_hostRate;             //!< host-to-switch cable rate
    Time m_hostDelay;                //!< host-to-switch cable delay
    DataRate m_fabricRate;           //!< switch-to-switch cable rate
    Time m_fabricDelay;              //!< switch-to-switch cable delay
    uint32_t m_gpusPerServer{1};     //!< GPUs per server (1 = plain hosts)
    DataRate m_scaleUpRate;          //!< GPU-to-crossbar cable rate
    Time m_scaleUpDelay;             //!< GPU-to-crossbar cable delay
    double m_scaleUpEfficiency{1.0}; //!< payload share of m_scaleUpRate
    std::string m_cableLengths;      //!< metres per cable tier ("" = the delays above)
    Time m_delayPerMetre;            //!< propagation delay per metre of cable

  private:
    /**
     * Replace every host of \p graph by a GPU of a server (GpusPerServer > 1): host i
     * is GPU i % G of server i / G; its cable becomes the server crossbar's uplink
     * (the GPU's NIC cable) and the GPU gets a scale-up cable to the crossbar.
     * \param graph the scale-out graph the family built
     * \param shape its shape; gains the servers and the "rail" routing
     * \return the graph with the servers
     */
    Ptr<TopologyGraph> AddServers(Ptr<TopologyGraph> graph, TopologyGraph::Shape& shape) const;
    /// Give every tiered cable of \p graph its CableLengths delay (if set).
    void ApplyCableLengths(TopologyGraph& graph) const;
};

} // namespace ns3

#endif // TOPOLOGY_HELPER_H
