/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TOPOLOGY_REGISTRY_H
#define TOPOLOGY_REGISTRY_H

#include "ns3/data-rate.h"
#include "ns3/name-registry.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-helper.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The topology families by name ("fattree", "torus", ...): the one table the
 * scenario runner's --topology, --PrintHelp, the JSON configuration and Python's
 * Scenario read.
 *
 * A family registers itself with one line in its helper's .cc file, naming the
 * runner flags that size it and the helper Attribute each one sets:
 * \code
 *   static TopologyRegistration<FatTreeTopologyHelper> g_registration(
 *       "fattree", "k-ary fat-tree (Al-Fares et al. 2008)", {{"k", "K"}});
 * \endcode
 */
class TopologyRegistry
{
  public:
    /// The cables of every family: the runner's --host-rate, --fabric-rate, --link-delay,
    /// --cable-lengths and --propagation-delay.
    struct Links
    {
        DataRate hostRate;   //!< host-to-switch cable rate
        Time hostDelay;      //!< host-to-switch cable delay
        DataRate fabricRate; //!< switch-to-switch cable rate
        Time fabricDelay;    //!< switch-to-switch cable delay
        /// metres per cable tier (TopologyHelper CableLengths); "" = the delays above
        std::string cableLengths{};
        /// delay per metre (TopologyHelper PropagationDelayPerMetre)
        Time delayPerMetre{NanoSeconds(5)};
    };

    /// A flag's value as text, by flag name ("k" -> "4").
    using FlagReader = std::function<std::string(const std::string&)>;

    /// One registered family.
    struct Entry
    {
        std::string name;               //!< as in --topology: "fattree"
        std::string help;               //!< one line: what it is, with its source
        std::vector<std::string> flags; //!< the flags that size it, in order ("k")
        /// Build the graph; throws std::invalid_argument naming what cannot be built.
        std::function<Ptr<TopologyGraph>(const Links&, const FlagReader&)> build;
        /// What build would make, counted before building it (TopologyHelper::GetSize);
        /// empty when only building tells (a topology file: its size is bounded by the
        /// file's own lines).
        std::function<TopologyHelper::Size(const FlagReader&)> size;
    };

    /**
     * Add a family; called by TopologyRegistration at load time. Aborts with a
     * message on an empty or already registered name.
     * \param entry the family
     */
    static void Add(Entry entry);

    /**
     * \param name a family name
     * \return its entry
     * \throws std::invalid_argument naming the value and the registered names
     */
    static const Entry& Get(const std::string& name);

    /// The registered names, sorted.
    static std::vector<std::string> GetNames();

    /// The flags that size a family of GPU servers besides its own (TopologyRegistration's
    /// \c servers), each with the TopologyHelper Attribute it sets.
    static const std::vector<std::pair<std::string, std::string>>& ServerFlags();

  private:
    /// The table, made on first use (registrations run in static constructors).
    /// Defined in the .cc on purpose: an inline one would be a separate copy in each
    /// program that registers into it (the library binds its own symbols locally).
    static NameRegistry<Entry>& Table();
};

/**
 * \ingroup ai-fabric
 * \brief Registers the TopologyHelper subclass T as a family (see TopologyRegistry):
 * its build sets the four cable Attributes and, for each (flag, Attribute) pair, the
 * Attribute from the flag's text, then calls Build().
 */
template <typename T>
class TopologyRegistration
{
  public:
    /**
     * \param name the family's name (--topology)
     * \param help one line for --PrintHelp: what it is, with its source
     * \param flagAttributes (runner flag, helper Attribute) pairs that size it
     * \param servers whether the family builds GPU servers (TopologyHelper
     *        GpusPerServer): then --gpus-per-server, --scaleup-rate,
     *        --scaleup-latency and --scaleup-efficiency size it too
     */
    TopologyRegistration(const std::string& name,
                         const std::string& help,
                         std::vector<std::pair<std::string, std::string>> flagAttributes,
                         bool servers = false)
    {
        if (servers)
        {
            const auto& serverFlags = TopologyRegistry::ServerFlags();
            flagAttributes.insert(flagAttributes.end(), serverFlags.begin(), serverFlags.end());
        }
        TopologyRegistry::Entry e;
        e.name = name;
        e.help = help;
        for (const auto& [flag, attribute] : flagAttributes)
        {
            e.flags.push_back(flag);
        }
        // The helper with the shape Attributes set from the flags.
        auto configure = [flagAttributes](const TopologyRegistry::FlagReader& flag) {
            Ptr<T> helper = CreateObject<T>();
            for (const auto& [flagName, attribute] : flagAttributes)
            {
                helper->SetAttribute(attribute, StringValue(flag(flagName)));
            }
            return helper;
        };
        e.build = [configure](const TopologyRegistry::Links& links,
                              const TopologyRegistry::FlagReader& flag) {
            Ptr<T> helper = configure(flag);
            helper->SetLinks(links.hostRate, links.hostDelay, links.fabricRate, links.fabricDelay);
            helper->SetAttribute("CableLengths", StringValue(links.cableLengths));
            helper->SetAttribute("PropagationDelayPerMetre", TimeValue(links.delayPerMetre));
            return helper->Build();
        };
        e.size = [configure](const TopologyRegistry::FlagReader& flag) {
            Ptr<T> helper = configure(flag);
            return helper->AddServerCounts(helper->GetSize());
        };
        TopologyRegistry::Add(std::move(e));
    }
};

} // namespace ns3

#endif // TOPOLOGY_REGISTRY_H
