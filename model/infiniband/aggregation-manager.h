/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_MANAGER_H
#define AGGREGATION_MANAGER_H

#include "sharp-hca-port.h"

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class IbFabric;
class SharpAggregationEngine;

/**
 * \ingroup ai-fabric
 * \brief The SHARP Aggregation Manager of an InfiniBand subnet (NVIDIA's sharp_am, which
 * runs beside the Subnet Manager): builds reduction trees over the fabric's switches for
 * a job's hosts and hands out the switches' SHARP resources.
 *
 * AllocateTree(hosts) builds one tree in the way sharp_am's dynamic trees mode creates a
 * tree per job (per rail when the job spans several rails): the hosts' attachment
 * switches are the leaves (a GPU server's host reaches its rail leaf through its
 * crossbar, which relays between GPU j and NIC j), the root is the switch with the
 * smallest greatest distance to them (then the smallest total distance, then the lowest
 * node id) that still has a tree to give, and the tree is the union of the shortest
 * paths from the leaves to the root (breadth first, lowest port first): on a fat-tree an
 * up/down tree. Every switch of the tree must have a tree left (SharpAggregationEngine
 * MaxTrees, 1 on Quantum); else the next candidate root is tried, and with none left the
 * allocation is refused (AllocateTree returns false and says why): the caller falls back
 * to another algorithm, as NCCL does when CollNet is unavailable. The hosts get a window
 * of outstanding payload bytes per tree, the smallest BufferBytes / MaxTrees of the tree's
 * switches (SHARP's per-job quota of a node's outstanding operations and buffers), and engines and
 * host ports are installed on first use, so a fabric whose jobs ask for no tree pays nothing.
 */
class AggregationManager : public Object
{
  public:
    /// What AllocateTree made.
    struct TreeInfo
    {
        uint16_t id{0};                 //!< the tree's id (SharpHeader tree)
        uint32_t root{0};               //!< root switch node
        std::vector<uint32_t> switches; //!< aggregation switches (node ids; relays not counted)
        uint32_t levels{0};             //!< switch levels from the leaves to the root
        uint64_t windowBytes{0};        //!< the hosts' window of outstanding payload bytes
    };

    /// Signature of TreeAllocated: (tree id, hosts, switches)
    typedef void (*TreeAllocatedCallback)(uint16_t tree, uint32_t hosts, uint32_t switches);
    /// Signature of TreeRefused: (hosts)
    typedef void (*TreeRefusedCallback)(uint32_t hosts);

    static TypeId GetTypeId();
    AggregationManager();
    ~AggregationManager() override;

    /// Manage \p fabric's switches (IbFabricHelper::Install calls it and aggregates this
    /// object to the fabric).
    void SetFabric(Ptr<IbFabric> fabric);
    /// \return the fabric
    Ptr<IbFabric> GetFabric() const;

    /**
     * A tree over \p hosts (host indices, at least 2, at most one per server).
     * \param hosts the members, in the order results are reported
     * \param cb each member's result callback (SharpHcaPort::JoinTree)
     * \param info filled on success
     * \param why set to the reason on failure
     * \return true if a tree was allocated
     * \throws std::invalid_argument for a member set no tree can have (fewer than 2,
     *         repeated, two on one server, a host without a path)
     */
    bool AllocateTree(const std::vector<uint32_t>& hosts,
                      SharpHcaPort::ResultCallback cb,
                      TreeInfo& info,
                      std::string* why);
    /// Free tree \p id's resources (its operations must be done).
    void ReleaseTree(uint16_t id);

    /// \return host \p host's SHARP port (null before a tree used it)
    Ptr<SharpHcaPort> GetHostPort(uint32_t host) const;
    /// \return the engine of switch node \p node (null before a tree used it)
    Ptr<SharpAggregationEngine> GetEngine(uint32_t node) const;
    uint32_t GetTreesInUse() const;  //!< \return trees allocated and not released
    uint32_t GetAllocations() const; //!< \return trees ever allocated
    uint32_t GetRefusals() const;    //!< \return allocations refused for want of trees

  protected:
    void DoDispose() override;

  private:
    /// A tree node's wiring at one switch.
    struct NodePlan
    {
        uint32_t parentPort{0xFFFFFFFFu}; //!< port towards the parent (none at the root)
        uint16_t parentLid{0};            //!< the parent's LID (0: not set yet)
        std::vector<uint32_t> childPorts; //!< ports towards the children
        std::vector<uint16_t> childLids;  //!< their LIDs
    };

    /// A tree in use: its nodes (switch node -> plan) and hosts.
    struct Allocated
    {
        std::map<uint32_t, NodePlan> nodes;
        std::vector<uint32_t> hosts;
        std::vector<uint32_t> counted; //!< switch nodes whose MaxTrees it takes
    };

    /// The engine of \p node, created (not attached) if need be.
    Ptr<SharpAggregationEngine> EngineOf(uint32_t node);
    /// \return the LID of graph node \p node (host or switch)
    uint16_t LidOf(uint32_t node) const;

    IbFabric* m_fabric{nullptr};           //!< not a Ptr: the fabric aggregates this object
    std::vector<uint32_t> m_switchIndexOf; //!< by node: switch index
    std::map<uint32_t, Ptr<SharpAggregationEngine>> m_engines; //!< by switch node
    std::map<uint32_t, uint32_t> m_used;                       //!< trees per switch node
    std::vector<Ptr<SharpHcaPort>> m_hostPorts;                //!< by host
    std::map<uint16_t, Allocated> m_trees;
    uint16_t m_nextTree{1};
    uint32_t m_allocations{0};
    uint32_t m_refusals{0};
    TracedCallback<uint16_t, uint32_t, uint32_t> m_allocatedTrace;
    TracedCallback<uint32_t> m_refusedTrace;
};

} // namespace ns3

#endif // AGGREGATION_MANAGER_H
