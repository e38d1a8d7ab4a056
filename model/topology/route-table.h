/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROUTE_TABLE_H
#define ROUTE_TABLE_H

#include "topology-graph.h"

#include "ns3/abort.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Destination-based forwarding state for a whole TopologyGraph.
 *
 * For every (switch, destination host rank) a non-empty set of candidate egress
 * ports. Storage: one "port set id" per (switch, destination) and a pool of
 * deduplicated sorted port sets; ids take one byte after Finish when there are at
 * most 256 sets, so a k=34 fat-tree (9826 hosts, 1445 switches, 35 sets) needs
 * ~14 MB (57 MB in 4-byte ids). A host's route is all of its ports (one uplink in every builder),
 * whatever the destination. Lookups are O(1) and allocate nothing.
 *
 * It also carries the class (priority / VL) rule of the engine, applied per hop by
 * NextClass(): none, the torus dateline rule, the dragonfly global-hop rule, or a
 * class per path (DFSSSP's virtual layers: GetPathLayer, which the source stamps and
 * no hop changes).
 */
class RouteTable : public SimpleRefCount<RouteTable>
{
  public:
    /// Port value meaning "no port" (e.g. the ingress of a packet a host injects).
    static constexpr uint32_t NO_PORT = 0xffffffffu;

    /// A read-only view of a candidate port set.
    struct PortSpan
    {
        const uint32_t* ptr; //!< first port
        uint32_t count;      //!< number of ports

        const uint32_t* begin() const //!< \return first
        {
            return ptr;
        }

        const uint32_t* end() const //!< \return past the last
        {
            return ptr + count;
        }

        uint32_t size() const //!< \return count
        {
            return count;
        }

        bool empty() const //!< \return true if no port
        {
            return count == 0;
        }

        uint32_t operator[](uint32_t i) const //!< \return port i
        {
            return ptr[i];
        }
    };

    /// How NextClass changes a packet's class along its path.
    enum class ClassRule : uint8_t
    {
        NONE,       //!< class never changes (one class)
        DATELINE,   //!< torus DOR: 0, 1 after crossing a wrap cable, reset per dimension
        GLOBAL_HOP, //!< dragonfly: class = number of global cables already crossed
        /// A class per (source switch, destination): the source stamps GetPathLayer
        /// (an InfiniBand SL, DFSSSP's virtual layer) and every hop keeps it.
        PATH_LAYER
    };

    /// How the switches choose a packet's path beyond the table's candidates: the
    /// engine's mode (RoutingEngine::GetPathMode), which a switch reads once.
    enum class PathMode : uint8_t
    {
        MINIMAL, //!< the table's candidates only
        VALIANT, //!< via a random intermediate group (DragonFly Valiant)
        UGAL,    //!< minimal or Valiant by the local queues (DragonFly UGAL-L)
    };

    /// What kind of cable a port holds, for the class rules.
    enum class PortKind : uint8_t
    {
        HOST,   //!< to or from a host
        FABRIC, //!< switch-switch, no special role
        RING,   //!< torus/mesh cable of some dimension
        GLOBAL  //!< dragonfly inter-group cable
    };

    /**
     * Allocates an empty per-destination row for every switch and sets every host's
     * route to all its ports.
     * \param graph the topology (kept by reference)
     * \param engine engine name, for reports
     */
    RouteTable(Ptr<const TopologyGraph> graph, const std::string& engine);

    /// \return the graph the table routes
    Ptr<const TopologyGraph> GetGraph() const;
    /// \return the engine that filled the table ("ecmp", "updown", ...)
    const std::string& GetEngineName() const;
    /// \return how switches choose among paths under the engine (SetPathMode)
    PathMode GetPathMode() const;

    /**
     * Candidates at a node for a destination host rank. O(1), no allocation.
     * \param node switch or host node id
     * \param dstHostIndex destination rank (index in TopologyGraph::GetHosts())
     * \return the ports (empty only if the engine left a hole)
     */
    PortSpan GetCandidates(uint32_t node, uint32_t dstHostIndex) const
    {
        const uint32_t row = m_rowOf[node];
        uint32_t set;
        if (row == NO_ROW)
        {
            set = m_hostSet[node];
        }
        else
        {
            const size_t i = static_cast<size_t>(row) * m_nHosts + dstHostIndex;
            // (After Finish every switch row holds a set, so no narrow NO_SET.)
            set = m_setWidth == 1 ? m_sets8[i] : m_setWidth == 2 ? m_sets16[i] : m_sets[i];
        }
        if (set == NO_SET)
        {
            return PortSpan{nullptr, 0};
        }
        return PortSpan{m_pool.data() + m_setOffset[set], m_setOffset[set + 1] - m_setOffset[set]};
    }

    /**
     * The class a packet uses on its egress cable. O(1), no allocation.
     * \param node the switch
     * \param ingressPort port it arrived on (NO_PORT when injected here)
     * \param egressPort chosen egress port
     * \param cls class it arrived with (0 at the source host)
     * \return class on the egress cable, < GetNumClasses()
     */
    uint8_t NextClass(uint32_t node, uint32_t ingressPort, uint32_t egressPort, uint8_t cls) const
    {
        if (m_rule == ClassRule::NONE)
        {
            return 0;
        }
        if (m_rule == ClassRule::PATH_LAYER)
        {
            return cls; // set once at the source (GetPathLayer)
        }
        const uint32_t base = m_portOffset[node];
        const bool inValid = ingressPort != NO_PORT;
        if (m_rule == ClassRule::DATELINE)
        {
            const uint32_t out = base + egressPort;
            if (m_portKind[out] != PortKind::RING)
            {
                return 0;
            }
            if (!inValid || m_portKind[base + ingressPort] != PortKind::RING ||
                m_portDim[base + ingressPort] != m_portDim[out])
            {
                cls = 0; // entering a new dimension: restart on class 0
            }
            return m_portWrap[out] ? 1 : cls;
        }
        // GLOBAL_HOP: one more class after arriving over a global cable
        if (inValid && m_portKind[base + ingressPort] == PortKind::GLOBAL &&
            cls + 1u < m_numClasses)
        {
            return cls + 1;
        }
        return cls;
    }

    /// \return number of classes the rule uses (1, 2 for DOR on a torus, 2 or 3 for
    /// dragonfly, the virtual layers of a PATH_LAYER table)
    uint8_t GetNumClasses() const;

    /**
     * The class a packet from a host attached to \p node towards \p dstHostIndex
     * starts in (PATH_LAYER: the path's virtual layer; other rules: 0).
     * \param node the source's attachment switch
     * \param dstHostIndex destination rank
     * \return the class, < GetNumClasses()
     */
    uint8_t GetPathLayer(uint32_t node, uint32_t dstHostIndex) const
    {
        if (m_layers.empty())
        {
            return 0;
        }
        return m_layers[static_cast<size_t>(m_rowOf[node]) * m_nHosts + dstHostIndex];
    }

    /// \return the class rule
    ClassRule GetClassRule() const;

    // ---- used by routing engines while filling the table ----

    /**
     * \param ports egress ports (sorted and deduplicated here)
     * \return the id of the (deduplicated) set
     */
    uint32_t InternPortSet(const std::vector<uint32_t>& ports);

    /// \return the id of the set {port}, interned once per port number (for engines
    /// that set one port per entry: the dedup map is searched once per port, not per entry)
    uint32_t InternSinglePort(uint32_t port);

    /// Set the route of switch node towards destination rank dstHostIndex.
    void SetRoute(uint32_t node, uint32_t dstHostIndex, uint32_t setId)
    {
        NS_ABORT_MSG_IF(m_setWidth != 4,
                        "RouteTable::SetRoute after Finish (the rows are narrowed then): "
                        "routing engines set every route before Finish");
        m_sets[static_cast<size_t>(m_rowOf[node]) * m_nHosts + dstHostIndex] = setId;
    }

    /// Choose the class rule; allocates the per-port info it needs (all FABRIC/HOST).
    void SetClassRule(ClassRule rule, uint8_t numClasses);
    /// Set the virtual layer of the path from switch \p node to \p dstHostIndex
    /// (PATH_LAYER, after SetClassRule; every path starts in layer 0).
    void SetPathLayer(uint32_t node, uint32_t dstHostIndex, uint8_t layer);
    /// Set the engine's path mode (RoutingEngine::Compute; MINIMAL unless set).
    void SetPathMode(PathMode mode);
    /// Describe a port for the class rules (after SetClassRule).
    void SetPortInfo(uint32_t node, uint32_t port, PortKind kind, uint8_t dim, bool wrap);

    /**
     * Throw std::logic_error naming the first (switch, destination) without a
     * candidate, then free the build-time dedup index and store the rows' set ids in
     * one or two bytes when the sets are that few (a fat-tree's are: its rows then
     * take a quarter of the memory and of the cache a packet hop reads them from).
     * RoutingEngine calls it last; no SetRoute after it.
     */
    void Finish();

    /// \return number of distinct port sets
    uint32_t GetNPortSets() const;
    /// \return bytes used by the tables (rows + pool)
    size_t GetMemoryBytes() const;

    /// \return bytes a row holds per destination: 4 until Finish, then 1, 2 or 4
    uint8_t GetSetIdBytes() const
    {
        return m_setWidth;
    }

  private:
    static constexpr uint32_t NO_ROW = 0xffffffffu;
    static constexpr uint32_t NO_SET = 0xffffffffu;

    Ptr<const TopologyGraph> m_graph;       //!< the topology
    std::string m_engine;                   //!< engine name
    PathMode m_pathMode{PathMode::MINIMAL}; //!< the engine's path mode
    uint32_t m_nHosts;                      //!< destinations per row
    std::vector<uint32_t> m_rowOf;          //!< node -> row (switches) or NO_ROW
    std::vector<uint32_t> m_hostSet;        //!< node -> set for hosts
    std::vector<uint32_t> m_sets;           //!< row * nHosts + dst -> set id (until Finish narrows)
    std::vector<uint8_t> m_sets8;           //!< m_sets in one byte each (m_setWidth 1)
    std::vector<uint16_t> m_sets16;         //!< m_sets in two bytes each (m_setWidth 2)
    uint8_t m_setWidth{4};                  //!< bytes per set id in the rows: 1, 2 or 4
    std::vector<uint32_t> m_pool;           //!< concatenated port sets
    std::vector<uint32_t> m_setOffset;      //!< set id -> offset in m_pool (size sets+1)
    std::map<std::vector<uint32_t>, uint32_t> m_intern; //!< build-time dedup
    std::vector<uint32_t> m_scratch;                    //!< build-time sort buffer
    std::vector<uint32_t> m_singlePort;                 //!< port -> id of {port}, build time
    ClassRule m_rule;                                   //!< class rule
    uint8_t m_numClasses;                               //!< classes used
    std::vector<uint32_t> m_portOffset;                 //!< node -> first global port index
    std::vector<PortKind> m_portKind;                   //!< per (node, port)
    std::vector<uint8_t> m_portDim;                     //!< per (node, port): ring dimension
    std::vector<uint8_t> m_portWrap;                    //!< per (node, port): dateline cable
    std::vector<uint8_t> m_layers; //!< PATH_LAYER: row * nHosts + dst -> layer (else empty)
};

} // namespace ns3

#endif // ROUTE_TABLE_H
