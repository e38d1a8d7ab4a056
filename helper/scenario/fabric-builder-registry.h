/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_BUILDER_REGISTRY_H
#define FABRIC_BUILDER_REGISTRY_H

#include "fabric-builder.h"

#include "ns3/name-registry.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The fabrics by name (--fabric): what the knob table, --help, the JSON
 * configuration, Python's Scenario and the scenario runner read.
 *
 * A fabric registers its FabricBuilder with one line in the builder's .cc file:
 * \code
 *   static FabricBuilderRegistration<RoceFabricBuilder> g_registration(
 *       "rocev2", "RoCEv2: Ethernet, PFC and ECN");
 * \endcode
 */
class FabricBuilderRegistry
{
  public:
    /// One registered fabric.
    struct Entry
    {
        std::string name; //!< as in --fabric: "rocev2"
        std::string help; //!< one line: what it is
        /// A new builder of this fabric.
        std::function<std::unique_ptr<FabricBuilder>()> create;
    };

    /// Add a fabric (at load time); aborts on an empty or registered name.
    static void Add(Entry entry);
    /**
     * \param name a fabric name
     * \return its entry
     * \throws std::invalid_argument naming the value and the registered names
     */
    static const Entry& Get(const std::string& name);
    /// \param name a fabric name \return whether it is registered
    static bool Has(const std::string& name);
    /// The registered names, sorted.
    static std::vector<std::string> GetNames();
    /**
     * \param name a fabric name (--fabric)
     * \return a new builder of it
     * \throws ConfigError "--fabric: unknown fabric 'x'; allowed: ..." for a name not
     * registered
     */
    static std::unique_ptr<FabricBuilder> Create(const std::string& name);
    /**
     * \param name a fabric name (--fabric)
     * \return a builder of it made once, for its properties (GetLinkLayer,
     * GetBytesPerCable, MarksEcn), which the knob table and the memory estimate ask
     * \throws ConfigError as Create
     */
    static const FabricBuilder& GetProperties(const std::string& name);
    /**
     * \param name a fabric name (--fabric, or a summary.json's config.fabric)
     * \return whether its devices are InfiniBand's (GetLinkLayer); false for a name not
     * registered (the --fabric knob refuses it)
     */
    static bool IsInfiniBand(const std::string& name);
    /**
     * \param name a fabric name
     * \return whether its links carry PFC (CarriesPfc); false for a name not registered
     */
    static bool CarriesPfc(const std::string& name);

  private:
    /// The table, made on first use (registrations run in static constructors). Defined
    /// in the .cc: an inline one would be a separate copy in each program.
    static NameRegistry<Entry>& Table();
};

/**
 * \ingroup ai-fabric
 * \brief Registers the FabricBuilder subclass T (default-constructible) as a fabric
 * (one static object per fabric).
 */
template <typename T>
class FabricBuilderRegistration
{
  public:
    /**
     * \param name the fabric's name (--fabric)
     * \param help one line for --PrintHelp: what it is
     */
    FabricBuilderRegistration(const std::string& name, const std::string& help)
    {
        FabricBuilderRegistry::Add({name, help, [] { return std::make_unique<T>(); }});
    }
};

} // namespace ns3

#endif // FABRIC_BUILDER_REGISTRY_H
