/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAT_TREE_ROUTING_H
#define FAT_TREE_ROUTING_H

#include "routing-engine.h"

#include <vector>

namespace ns3
{

/**
 * \brief OpenSM's fat-tree engine ("ftree") in its D-mod-K form: one port per
 * (switch, destination), chosen so that shift permutations are contention free on a
 * full fat-tree.
 *
 * Zahavi, Johnson, Kerbyson and Lang, "Optimized InfiniBand fat-tree routing for
 * shift all-to-all communication patterns" (Concurrency Computat.: Pract. Exper.
 * 22(2), 2010) show that on a k-ary n-tree numbering the hosts in leaf order and
 * sending destination index d up through up-port (d / W_t) mod w_t at a tier-t
 * switch (w_t its up ports, W_t = w_0 ... w_{t-1}) gives every top switch exactly
 * one destination per pod, so every downward cable carries one destination and
 * every shift permutation (host i to host i + s mod N) uses each cable at most once.
 * OpenSM's ftree engine (osm_ucast_ftree.c) reaches the same spread by indexing the
 * HCAs in leaf order and assigning each destination the least-loaded up-port group.
 *
 * Here: hosts are indexed in leaf order (tier-0 switches by node id, then their
 * ports in port order). A switch with the destination below it (reachable going
 * only down) sends it down; any other switch sends it up, among the up ports whose
 * far switch can still reach it, to port (d / W_t) mod n. Paths are up*&#47;down*, so
 * the routing is deadlock free. It fits the layered graphs: hosts only on tier-0
 * switches and every switch-to-switch cable joining adjacent tiers (fat-tree,
 * leaf-spine, tiered topology files). Failed cables are skipped, so the Subnet
 * Manager's heavy sweep can re-run it; a switch a failure leaves without any
 * up*&#47;down* route to a destination (no other switch then sends it that
 * destination) gets a shortest-path port so that the LFT stays complete.
 */
class FatTreeRouting : public RoutingEngine
{
  public:
    std::string GetName() const override;
    bool Fits(const TopologyGraph& graph) const override;

    /**
     * \param graph a graph the engine fits
     * \return per host rank: its index in leaf order (the "d" of D-mod-K)
     */
    static std::vector<uint32_t> LeafOrder(const TopologyGraph& graph);

  protected:
    void DoCompute(const TopologyGraph& graph, RouteTable& table) override;
};

} // namespace ns3

#endif // FAT_TREE_ROUTING_H
