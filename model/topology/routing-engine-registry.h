/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROUTING_ENGINE_REGISTRY_H
#define ROUTING_ENGINE_REGISTRY_H

#include "routing-engine.h"

#include "ns3/name-registry.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The routing engines by name ("ecmp", "dor", "ugal", ...): the one table
 * RoutingEngine::CreateByName, the runner's --routing (with "auto", the graph's
 * natural engine) and its help read. An engine registers itself with one line in its
 * own .cc file:
 * \code
 *   static RoutingEngineRegistration g_registration("ecmp", "all shortest paths",
 *       [] { return Ptr<RoutingEngine>(Create<ShortestPathRouting>()); });
 * \endcode
 */
class RoutingEngineRegistry
{
  public:
    /// One registered engine.
    struct Entry
    {
        std::string name;                           //!< as in --routing and GetName()
        std::string help;                           //!< one line: what it does, its source
        std::function<Ptr<RoutingEngine>()> create; //!< a new engine
        /// Whether switches may send one queue pair's packets on different paths under
        /// it (Valiant, UGAL): --recovery=auto then picks selective repeat.
        bool reorders{false};
    };

    /// Add an engine (at load time); aborts on an empty or registered name.
    static void Add(Entry entry);
    /**
     * \param name an engine name
     * \return its entry
     * \throws std::invalid_argument naming the value and the registered names
     */
    static const Entry& Get(const std::string& name);
    /// \param name an engine name \return whether it is registered
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
 * \brief Registers a routing engine (see RoutingEngineRegistry); one static object
 * of it per engine name.
 */
class RoutingEngineRegistration
{
  public:
    /**
     * \param name the engine's name (--routing), equal to its GetName()
     * \param help one line for --PrintHelp
     * \param create makes a new engine
     * \param reorders whether its paths may reorder one queue pair's packets
     */
    RoutingEngineRegistration(const std::string& name,
                              const std::string& help,
                              std::function<Ptr<RoutingEngine>()> create,
                              bool reorders = false);
};

} // namespace ns3

#endif // ROUTING_ENGINE_REGISTRY_H
