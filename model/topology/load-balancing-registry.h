/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LOAD_BALANCING_REGISTRY_H
#define LOAD_BALANCING_REGISTRY_H

#include "ns3/name-registry.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The load-balancing policies by name ("ecmp", "spray", ...): how a switch
 * chooses among the equal-cost ports the route table gives. The runner's --lb, its
 * help and the choice of loss recovery under --recovery=auto read this table. A policy
 * registers itself with one line in its own .cc file:
 * \code
 *   static LoadBalancingRegistration g_registration({"spray", "a random port per packet",
 *       "ns3::RandomSprayEgressPolicy", true, LoadBalancingRegistry::IB_NONE});
 * \endcode
 */
class LoadBalancingRegistry
{
  public:
    /// What an InfiniBand switch does for the policy.
    enum InfinibandMode
    {
        IB_NONE,    //!< not available on InfiniBand
        IB_STATIC,  //!< the Subnet Manager's static LFT spread
        IB_ADAPTIVE //!< IbSwitch::AdaptiveRouting: the least-loaded candidate port
    };

    /// One registered policy.
    struct Entry
    {
        std::string name;             //!< as in --lb
        std::string help;             //!< one line: what it does, its source
        std::string roceEgressPolicy; //!< TypeId of RoceSwitch's EgressPortPolicy
        /// Whether one queue pair's packets may take different paths (and so arrive out
        /// of order): --recovery=auto then picks selective repeat.
        bool reorders;
        InfinibandMode infiniband; //!< its meaning on an InfiniBand fabric
    };

    /// Add a policy (at load time); aborts on an empty or registered name.
    static void Add(Entry entry);
    /**
     * \param name a policy name
     * \return its entry
     * \throws std::invalid_argument naming the value and the registered names
     */
    static const Entry& Get(const std::string& name);
    /// \param name a policy name \return whether it is registered
    static bool Has(const std::string& name);
    /// The registered names, sorted.
    static std::vector<std::string> GetNames();

  private:
    /// The table, made on first use (registrations run in static constructors).
    /// Defined in the .cc on purpose: an inline one would be a separate copy in each
    /// program that registers into it (the library binds its own symbols locally).
    static NameRegistry<Entry>& Table();
};

/**
 * \ingroup ai-fabric
 * \brief Registers a load-balancing policy (see LoadBalancingRegistry); one static
 * object of it per policy name.
 */
class LoadBalancingRegistration
{
  public:
    /// \param entry the policy
    explicit LoadBalancingRegistration(LoadBalancingRegistry::Entry entry);
};

} // namespace ns3

#endif // LOAD_BALANCING_REGISTRY_H
