/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SUBNET_MANAGER_H
#define SUBNET_MANAGER_H

#include "ib-qos-policy.h"

#include "ns3/route-table.h"
#include "ns3/simple-ref-count.h"
#include "ns3/topology-graph.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The InfiniBand Subnet Manager of the model: LIDs, LFTs, adaptive sets, VLs.
 *
 * LIDs: host rank h gets LID h + 1, switch i (graph switch order) LID nHosts + 1 + i.
 * Routes come from the shared routing library (RoutingEngine::BuildTable: auto, ecmp,
 * updown, dor, minimal, ...). Each switch's LFT entry for a host's LID is one of the
 * engine's candidates, candidate[DLID mod n], which spreads destinations over equal
 * paths deterministically; OpenSM's engines "minhop" (MinHopRouting) and "ftree"
 * (FatTreeRouting) give one candidate, so the LFT is exactly their choice; the full
 * candidate set is the switch's adaptive-routing set. The number of VLs is the
 * engine's class count (2 for the torus dateline rule), and the switches map the
 * class rule onto VLs. Under a per-path rule (RouteTable::ClassRule::PATH_LAYER,
 * "dfsssp") the class is a service level per (source, destination): GetPathSl is what
 * a path record query to the SM returns, the HCA puts it in the LRH, and every
 * switch port's SL-to-VL map (GetSl2Vl) keeps it on VL = SL.
 */
class SubnetManager : public SimpleRefCount<SubnetManager>
{
  public:
    static constexpr uint16_t NO_PORT = 0xFFFF; //!< LFT entry without a port

    explicit SubnetManager(Ptr<const TopologyGraph> graph);

    /// Run a routing engine by name and compute the LFTs. Throws std::invalid_argument.
    void Run(const std::string& engine);
    /// Use an already computed route table (the runner's) and compute the LFTs.
    void Program(Ptr<const RouteTable> routes);
    /**
     * Re-run the engine of the current routes on the graph as it is now (failed
     * links marked down, which the engines skip) and recompute the LFTs, as OpenSM's
     * heavy sweep after a trap does. Throws std::invalid_argument / std::logic_error
     * when the engine cannot route the degraded graph (e.g. DOR missing a cable).
     * \return the number of (switch, host) LFT entries whose port changed
     */
    uint32_t Reroute();

    Ptr<const RouteTable> GetRoutes() const;
    uint16_t GetHostLid(uint32_t host) const;
    uint16_t GetSwitchLid(uint32_t switchIndex) const;
    /// \return the LFT of a switch node (index DLID, value port or NO_PORT)
    const std::vector<uint16_t>& GetLft(uint32_t node) const;
    /// \return data VLs the routing needs (>= 1)
    uint8_t GetRequiredVls() const;
    /// \return whether the routing assigns a service level per path (PATH_LAYER with
    /// more than one layer)
    bool HasPathSls() const;
    /**
     * The SL of the path from host \p src to host \p dst: its virtual layer at the
     * switch \p src's HCA port attaches to (0 without per-path SLs).
     */
    uint8_t GetPathSl(uint32_t src, uint32_t dst) const;
    /// \return the SL-to-VL map the SM programs into every port of \p numDataVls data
    /// VLs: SL s to VL s mod numDataVls (identity for the layers, which are < numDataVls)
    static std::array<uint8_t, 16> GetSl2Vl(uint8_t numDataVls);
    /// The LFTs in a text form modelled on OpenSM's dump (one block per switch).
    std::string DumpLfts() const;

    /**
     * Partitions (OpenSM's partitions.conf: one partition per tenant): host h becomes a
     * full member of P_Key pKeys[h] | 0x8000 (0 or 0xFFFF: the default partition only).
     * \throws std::invalid_argument for a host count that is not the graph's
     */
    void SetPartitions(const std::vector<uint16_t>& pKeys);
    /// \return host \p host's P_Key table as the SM programs its port (empty: none set)
    std::vector<uint16_t> GetPKeyTable(uint32_t host) const;
    /// \return the P_Key host \p host's queue pairs carry (0xFFFF without partitions)
    uint16_t GetPKey(uint32_t host) const;
    /// The QoS policy the SM programs into every port (IbFabric::ApplyQosPolicy).
    void SetQosPolicy(const IbQosPolicy& policy);
    /// \return the QoS policy (null: none, every port keeps its default arbitration)
    const IbQosPolicy* GetQosPolicy() const;

  private:
    Ptr<const TopologyGraph> m_graph;
    Ptr<const RouteTable> m_routes;
    std::vector<uint32_t> m_switchIndexOfNode;
    std::vector<std::vector<uint16_t>> m_lft; //!< by switch index
    std::vector<uint16_t> m_pKeys;            //!< by host (SetPartitions; empty: none)
    std::unique_ptr<IbQosPolicy> m_qos;       //!< SetQosPolicy (null: none)
};

} // namespace ns3

#endif // SUBNET_MANAGER_H
