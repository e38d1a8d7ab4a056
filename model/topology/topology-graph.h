/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TOPOLOGY_GRAPH_H
#define TOPOLOGY_GRAPH_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Technology-agnostic graph of hosts, switches and cables.
 *
 * Node ids are dense (0..N-1); hosts and switches may interleave. Each node has
 * ports numbered 0.. in the order its links were added. Every cable is one Link,
 * host cables included. The fabric helpers create one ns-3 Node per graph node
 * in id order and one device per port; the routing engines read only this graph.
 */
class TopologyGraph : public SimpleRefCount<TopologyGraph>
{
  public:
    /// Kind of a node.
    enum class NodeKind : uint8_t
    {
        HOST,
        SWITCH
    };

    /// One port of a node: the cable it holds and the far end.
    struct Port
    {
        uint32_t link;     //!< link id
        uint32_t peer;     //!< node id at the far end
        uint32_t peerPort; //!< port number at the far end
    };

    /// Cable tier of a link no topology family placed in a tier (a topology file's
    /// cables, a custom graph's, a server's scale-up cables): per-tier cable lengths
    /// leave its delay as it is.
    static constexpr uint32_t NO_TIER = std::numeric_limits<uint32_t>::max();

    /// One cable (full duplex, same rate and delay both ways).
    struct Link
    {
        uint32_t a;     //!< first end node
        uint32_t portA; //!< port on a
        uint32_t b;     //!< second end node
        uint32_t portB; //!< port on b
        DataRate rate;  //!< line rate
        Time delay;     //!< propagation delay
        /// Cable tier (TopologyHelper CableLengths): 0 host to its first switch, 1 the
        /// next switch layer (leaf-spine, edge-aggregation; torus/mesh router cables;
        /// DragonFly local), 2 aggregation-core (DragonFly global); NO_TIER: none
        uint32_t tier{NO_TIER};
    };

    /**
     * \brief What built the graph; routing engines that need coordinates read it.
     *
     * type is one of "custom", "fattree", "leafspine", "torus", "mesh", "dragonfly",
     * "file". For torus/mesh a switch's group is its router id
     * sum x_d prod_{j<d} k_j; for dragonfly group is the dragonfly group and index
     * the router's position in it.
     */
    struct Shape
    {
        std::string type{"custom"};  //!< builder name
        std::string label{"custom"}; //!< human description, e.g. "k=4 fat-tree"
        /// The routing engine --routing=auto picks (the family's natural one): "ecmp"
        /// (all shortest paths), "dor" (torus, mesh: dimension order), "minimal"
        /// (DragonFly).
        std::string routing{"ecmp"};
        std::vector<uint32_t> dims; //!< torus/mesh radices
        bool wrap{false};           //!< torus (true) or mesh (false)
        uint32_t k{0};              //!< fat-tree arity
        uint32_t p{0};              //!< dragonfly hosts per router
        uint32_t a{0};              //!< dragonfly routers per group
        uint32_t h{0};              //!< dragonfly global links per router
        uint32_t g{0};              //!< dragonfly groups
        /// GPUs per server (TopologyHelper GpusPerServer): 1 = every host is a one-NIC
        /// host cabled to the fabric; G > 1 = host i is GPU i % G of server i / G, cabled
        /// to its server's scale-up crossbar, whose G uplinks are the GPUs' NIC cables
        uint32_t gpusPerServer{1};
        uint32_t servers{0};            //!< servers (G > 1, or the rail family)
        uint32_t firstScaleUpSwitch{0}; //!< node id of server 0's crossbar (G > 1)
        uint32_t railSpines{0};         //!< rail family: spines (0 = rail-only)

        // The family's traits, set by its helper (so that names, partitions and the
        // like read data rather than the family's name):

        /// How GetNodeName names a switch
        enum class SwitchNames
        {
            GENERIC,        //!< "switch" and its rank among the switches
            BY_TIER,        //!< tierNames, per group below groupedTiers
            BY_COORDINATES, //!< "sw" and the router's coordinates over dims ("sw1-2")
        };

        SwitchNames switchNames{SwitchNames::GENERIC}; //!< how switches are named
        /// BY_TIER: each tier's switch name ("leaf", "spine"; the last serves higher tiers)
        std::vector<std::string> tierNames;
        /// BY_TIER: the tiers below this are named per group, groupPrefix, the group, "-",
        /// then the tier's name and index ("pod0-edge1", "g2-r3"); the others by tier
        /// name and index ("core3")
        uint32_t groupedTiers{0};
        std::string groupPrefix; //!< BY_TIER: see groupedTiers ("pod", "g")
        /// Whether the switches form groups a rank partition can keep whole (false: a
        /// topology file, which says nothing of its groups)
        bool hasGroups{true};
        /// The "group" rank partition spreads every switch over the ranks by index (the
        /// rail family: a rail leaf joins one GPU of every server); else only the top tier
        bool spreadsAllSwitches{false};
        /// What the "group" partition keeps whole, as its description says ("pods")
        std::string partitionGroups{"groups"};
        /// What the "group" partition spreads over the ranks ("cores"; empty: the top
        /// tier, if the graph has more than one)
        std::string partitionSpread;
    };

    /// Distance value of an unreachable node.
    static constexpr uint32_t UNREACHABLE = std::numeric_limits<uint32_t>::max();

    TopologyGraph();

    /**
     * \param group pod / dragonfly group / torus router the host belongs to
     * \return the new node id
     */
    uint32_t AddHost(uint32_t group = 0);
    /**
     * \param tier 0 host-facing (edge, leaf, ToR, router), 1 agg/spine, 2 core
     * \param group pod / dragonfly group / torus router index
     * \param index position within the group (dragonfly router index)
     * \return the new node id
     */
    uint32_t AddSwitch(uint32_t tier = 0, uint32_t group = 0, uint32_t index = 0);
    /**
     * Add a cable; takes the next free port on each side.
     * Throws std::invalid_argument for an unknown node or a self loop.
     * \return the link id
     */
    uint32_t AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay);
    /**
     * Add a cable of a cable tier (Link::tier), as the topology families do.
     * \return the link id
     */
    uint32_t AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay, uint32_t tier);
    /// Change a cable's propagation delay (TopologyHelper applies per-tier cable lengths).
    void SetLinkDelay(uint32_t id, Time delay);

    uint32_t GetNNodes() const;    //!< \return hosts + switches
    uint32_t GetNHosts() const;    //!< \return number of hosts
    uint32_t GetNSwitches() const; //!< \return number of switches
    uint32_t GetNLinks() const;    //!< \return number of cables, host cables included

    NodeKind GetKind(uint32_t node) const;  //!< \return kind of node
    bool IsHost(uint32_t node) const;       //!< \return true for a host
    uint32_t GetTier(uint32_t node) const;  //!< \return tier (0 for hosts)
    uint32_t GetGroup(uint32_t node) const; //!< \return group
    uint32_t GetIndex(uint32_t node) const; //!< \return index within group
    /**
     * \return the node's name by its place in the topology, for outputs and plots:
     * hosts "host<i>" (host index); fat-tree "pod<p>-edge<i>", "pod<p>-agg<i>",
     * "core<i>"; leaf-spine "leaf<i>", "spine<i>"; torus and mesh "sw<x>-<y>..."
     * (coordinates, first dimension first); dragonfly "g<group>-r<i>"; rail
     * "rail<r>", "spine<i>"; a server's scale-up crossbar "server<s>-xbar"; other
     * graphs "switch<i>" (switch order)
     */
    std::string GetNodeName(uint32_t node) const;

    /// \return true for a server's scale-up crossbar (Shape::gpusPerServer > 1)
    bool IsScaleUpSwitch(uint32_t node) const
    {
        return m_shape.gpusPerServer > 1 && node >= m_shape.firstScaleUpSwitch &&
               node < m_shape.firstScaleUpSwitch + m_shape.servers;
    }

    /// Change a switch's tier (the file reader derives tiers after loading).
    void SetTier(uint32_t node, uint32_t tier);

    const std::vector<Port>& GetPorts(uint32_t node) const; //!< \return ports in port order
    const Link& GetLink(uint32_t id) const;                 //!< \return the link

    /**
     * Mark a cable up or down (a failed cable). A down link keeps its ports and port
     * numbers (they name devices), but Distances, Validate and the routing engines
     * skip it, so a table computed afterwards routes around it.
     */
    void SetLinkUp(uint32_t id, bool up);
    bool IsLinkUp(uint32_t id) const; //!< \return false for a failed cable
    /// \return true for a failed switch: one whose every cable is down (Validate and
    /// the route tables leave it out)
    bool IsSwitchDown(uint32_t node) const;

    /// \return true if the cable on this port of node is up
    bool IsPortUp(uint32_t node, uint32_t port) const
    {
        return m_linkUp[m_ports[node][port].link] != 0;
    }

    uint32_t GetNLinksDown() const; //!< \return number of failed cables

    /// \return node ids of hosts; a host's rank is its index here
    const std::vector<uint32_t>& GetHosts() const;
    /// \return node ids of switches, ascending
    const std::vector<uint32_t>& GetSwitches() const;
    /// \return rank of a host node (throws std::invalid_argument for a switch)
    uint32_t GetHostIndex(uint32_t node) const;

    /**
     * Hop counts from a node by BFS over the links that are up. Hosts other than the
     * source do not forward (a path never transits a host). Unreachable nodes get
     * UNREACHABLE.
     */
    std::vector<uint32_t> Distances(uint32_t from) const;
    /// Same as Distances(from), reusing the caller's buffer.
    void Distances(uint32_t from, std::vector<uint32_t>& dist) const;

    void SetShape(const Shape& shape); //!< set by builders
    const Shape& GetShape() const;     //!< \return what built the graph

    /// \return e.g. "k=4 fat-tree: 16 hosts, 20 switches, 48 links"
    std::string Describe() const;

    /**
     * Check: at least one host; every host has >= 1 link and only to switches;
     * every node reachable from every switch without transiting a host, over the
     * links that are up.
     * Throws std::invalid_argument naming the first offending node.
     */
    void Validate() const;

  private:
    void CheckNode(uint32_t node, const char* what) const;

    std::vector<NodeKind> m_kind;           //!< per node
    std::vector<uint32_t> m_tier;           //!< per node
    std::vector<uint32_t> m_group;          //!< per node
    std::vector<uint32_t> m_index;          //!< per node
    std::vector<uint32_t> m_hostIndex;      //!< per node; UNREACHABLE for switches
    std::vector<std::vector<Port>> m_ports; //!< per node
    std::vector<Link> m_links;              //!< all cables
    std::vector<uint8_t> m_linkUp;          //!< per link: 1 up, 0 failed
    std::vector<uint32_t> m_hosts;          //!< host node ids by rank
    std::vector<uint32_t> m_switches;       //!< switch node ids
    Shape m_shape;                          //!< builder metadata
};

} // namespace ns3

#endif // TOPOLOGY_GRAPH_H
