/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FAULT_INJECTION_HELPER_H
#define FAULT_INJECTION_HELPER_H

#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/rdma-fabric.h"

#include <string>
#include <vector>

namespace ns3
{

class PfcWatchdog;
class TopologyGraph;

/**
 * \ingroup ai-fabric
 * \brief Faults on an installed fabric, RoCEv2 or InfiniBand: cable failures (by link id
 * or by the two nodes it joins), switch failures, PFC storms (a host NIC whose receive
 * pipeline stalls) and the PFC watchdog that mitigates them.
 *
 * Every call checks its input at once and schedules the fault at absolute simulated times
 * (>= now): call them after the fabric helper's Install, before Simulator::Run. Bad input
 * throws std::invalid_argument naming the value and what is allowed; what a fabric cannot
 * do is its refusal (RdmaFabric::StallReceive: InfiniBand links have no PFC). The
 * scenario runner's --link-failure, --node-failure, --pfc-storm and --pfc-watchdog are
 * these calls (doc/scenario-runner.md).
 *
 * \code
 *   FaultInjectionHelper faults;
 *   faults.FailLink(fabric, 16, MicroSeconds(100), MilliSeconds(1)); // down, then up
 *   faults.FailNode(fabric, 32, MicroSeconds(200));                   // every cable
 *   faults.PfcStorm(fabric, 0, MicroSeconds(20), MilliSeconds(1));    // RoCEv2 only
 *   faults.FailHost(fabric, 5, MicroSeconds(300));                    // a GPU server
 *   faults.SetPfcWatchdogAttribute("DetectionTime", TimeValue(MicroSeconds(50)));
 *   Ptr<PfcWatchdog> watchdog = faults.InstallPfcWatchdog(fabric);
 * \endcode
 */
class FaultInjectionHelper
{
  public:
    FaultInjectionHelper();

    /**
     * Fail switch-to-switch cable \p link (a TopologyGraph link id, as topology.csv
     * numbers it) at \p down and, if \p up is positive, bring it back then.
     * \throws std::invalid_argument naming the link and what is wrong (it does not
     *         exist, is a host cable, fails already, cannot be routed around, or the
     *         fabric cannot bring it back)
     */
    void FailLink(Ptr<RdmaFabric> fabric, uint32_t link, Time down, Time up = Time(0)) const;
    /**
     * FailLink on the cable between nodes \p nodeA and \p nodeB (the first in
     * \p nodeA's port order if there are several).
     * \return the link id
     * \throws std::invalid_argument if they share no cable, or as FailLink
     */
    uint32_t FailLinkBetween(Ptr<RdmaFabric> fabric,
                             uint32_t nodeA,
                             uint32_t nodeB,
                             Time down,
                             Time up = Time(0)) const;
    /**
     * Fail switch \p node at \p at: every one of its cables, in port order (GetNodeCables).
     * \return the links failed
     * \throws std::invalid_argument as GetNodeCables, or as FailLink
     */
    std::vector<uint32_t> FailNode(Ptr<RdmaFabric> fabric, uint32_t node, Time at) const;
    /**
     * A PFC storm: host \p host's NIC stops taking frames of the fabric's lossless
     * classes from \p start, so its port pauses its switch (RdmaFabric::StallReceive),
     * until \p end if positive.
     * \throws std::invalid_argument naming the host if it does not exist, or the
     *         fabric's refusal (InfiniBand has no pause frames)
     */
    void PfcStorm(Ptr<RdmaFabric> fabric, uint32_t host, Time start, Time end = Time(0)) const;
    /**
     * Host \p host (a GPU server's NIC) fails at \p at, for good: its cables carry
     * nothing more (RdmaFabric::FailHost); its peers' queue pairs go to the error state
     * once their retries (RdmaQueuePair::RetryCount) run out.
     * \throws std::invalid_argument naming the host (it does not exist, fails twice,
     *         the time is past)
     */
    void FailHost(Ptr<RdmaFabric> fabric, uint32_t host, Time at) const;

    /// An attribute of the PfcWatchdog InstallPfcWatchdog makes (DetectionTime,
    /// RestorationTime, Action, PollInterval).
    void SetPfcWatchdogAttribute(const std::string& name, const AttributeValue& value);
    /**
     * A PfcWatchdog with the attributes set, watching every lossless switch queue of
     * \p fabric (PfcWatchdog::Install).
     * \return the watchdog (its Storm trace and GetEvents say what it did)
     * \throws std::invalid_argument if the fabric has no PFC (InfiniBand)
     */
    Ptr<PfcWatchdog> InstallPfcWatchdog(Ptr<RdmaFabric> fabric) const;

    /**
     * The cables a failure of switch \p node cuts, in port order.
     * \throws std::invalid_argument if \p node does not exist, is a host, or has a host
     *         attached (a host's only cable cannot fail in this model)
     */
    static std::vector<uint32_t> GetNodeCables(const TopologyGraph& graph, uint32_t node);
    /**
     * \return the cable between nodes \p nodeA and \p nodeB (the first in \p nodeA's port
     *         order)
     * \throws std::invalid_argument if there is none
     */
    static uint32_t GetLinkBetween(const TopologyGraph& graph, uint32_t nodeA, uint32_t nodeB);

  private:
    ObjectFactory m_watchdog; //!< makes InstallPfcWatchdog's watchdog
};

} // namespace ns3

#endif // FAULT_INJECTION_HELPER_H
