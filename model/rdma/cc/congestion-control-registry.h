/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CONGESTION_CONTROL_REGISTRY_H
#define CONGESTION_CONTROL_REGISTRY_H

#include "ns3/name-registry.h"
#include "ns3/type-id.h"

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The congestion-control algorithms by name ("dcqcn", "swift", ...): the one
 * table the factory, the scenario runner's --cc and --cc-preset, --PrintHelp, the
 * JSON configuration and Python's Scenario read.
 *
 * An algorithm registers itself with one line in its own .cc file:
 * \code
 *   static CongestionControlRegistration<MyCongestionControl> g_registration("my-cc",
 *                                                                           "what it is");
 * \endcode
 * Its class derives from RdmaCongestionControl, returns the same name from GetName()
 * and, when it has named parameter sets, has the static functions
 * GetPresetNames(), GetDefaultPresetName() and GetPreset(name) (DcqcnCongestionControl
 * shows them); without them its one preset is "default" (the attribute defaults). An
 * algorithm that reads in-band network telemetry has static UsesInt() returning true.
 */
class CongestionControlRegistry
{
  public:
    /// Attribute name and value (as text) pairs of one preset, applied in order.
    using PresetValues = std::vector<std::pair<std::string, std::string>>;

    /// One registered algorithm.
    struct Entry
    {
        std::string name;                 //!< as in --cc and GetName(): "dcqcn"
        std::string typeName;             //!< ns-3 TypeId name: "ns3::DcqcnCongestionControl"
        std::string help;                 //!< one line: what it is, with its source
        std::vector<std::string> presets; //!< preset names, "default" when it has none
        std::string defaultPreset;        //!< the preset its attribute defaults equal
        /// The preset a RoCEv2 scenario of the runner uses when --cc-preset is ''
        /// ("" = attribute defaults).
        std::string scenarioPreset;
        /// The attribute values of a preset; throws std::invalid_argument for another name.
        std::function<PresetValues(const std::string&)> presetValues;
        /// The switches' ns3::EcnMarker attribute values that go with a preset (empty
        /// when the algorithm names none); throws std::invalid_argument for another name.
        std::function<PresetValues(const std::string&)> switchValues;
        /// Whether it reacts to ECN (CNPs): if not, RoCEv2 NICs send data Not-ECT by
        /// default, so switches mark nothing and receivers send no CNP.
        bool usesEcn{true};
        /// Whether it reads in-band network telemetry (HPCC): then RoCEv2 NICs send
        /// data with an INT block, switches fill it and ACKs echo it (RoceNic and
        /// RoceSwitch IntEnabled); the InfiniBand fabric carries none and refuses it.
        bool usesInt{false};
        /// Whether it reads ECN CE from ACKs (RdmaAckSample::ecnEcho) rather than CNPs:
        /// if so, RoCEv2 NICs echo CE in their ACKs (RoceNic EcnEchoInAck) by default.
        bool ecnEchoInAck{false};
    };

    /**
     * Add an algorithm; called by CongestionControlRegistration at load time.
     * Aborts with a message on an empty or already registered name.
     * \param entry the algorithm
     */
    static void Add(Entry entry);

    /**
     * \param name an algorithm name
     * \return its entry
     * \throws std::invalid_argument naming the value and the registered names
     */
    static const Entry& Get(const std::string& name);

    /// \param name an algorithm name \return whether it is registered
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
 * \brief Registers the congestion-control class T under a name (see
 * CongestionControlRegistry); one static object of it per algorithm.
 */
template <typename T>
class CongestionControlRegistration
{
  public:
    /**
     * \param name the algorithm's name (--cc), equal to T::GetName()
     * \param help one line for --PrintHelp: what it is, with its source
     * \param scenarioPreset the preset a scenario uses when --cc-preset is '' ("" = the
     *        attribute defaults)
     * \param usesEcn whether it reacts to ECN marks (CNPs); false: data goes Not-ECT
     * \param ecnEchoInAck whether it reads ECN CE echoed in ACKs instead of CNPs
     */
    CongestionControlRegistration(const std::string& name,
                                  const std::string& help,
                                  const std::string& scenarioPreset = "",
                                  bool usesEcn = true,
                                  bool ecnEchoInAck = false)
    {
        CongestionControlRegistry::Entry e;
        e.name = name;
        e.typeName = T::GetTypeId().GetName();
        e.help = help;
        e.scenarioPreset = scenarioPreset;
        e.usesEcn = usesEcn;
        e.ecnEchoInAck = ecnEchoInAck;
        if constexpr (HasPresets<T>::value)
        {
            e.presets = T::GetPresetNames();
            e.defaultPreset = T::GetDefaultPresetName();
            e.presetValues = [](const std::string& preset) { return T::GetPreset(preset); };
        }
        else
        {
            e.presets = {"default"};
            e.defaultPreset = "default";
            e.presetValues = [](const std::string&) {
                return CongestionControlRegistry::PresetValues();
            };
        }
        if constexpr (HasUsesInt<T>::value)
        {
            e.usesInt = T::UsesInt();
        }
        if constexpr (HasSwitchPresets<T>::value)
        {
            e.switchValues = [](const std::string& preset) { return T::GetSwitchPreset(preset); };
        }
        else
        {
            e.switchValues = [](const std::string&) {
                return CongestionControlRegistry::PresetValues();
            };
        }
        CongestionControlRegistry::Add(std::move(e));
    }

  private:
    /// Whether U has static GetPresetNames(), GetDefaultPresetName() and GetPreset(name).
    template <typename U, typename = void>
    struct HasPresets : std::false_type
    {
    };

    template <typename U>
    struct HasPresets<U,
                      std::void_t<decltype(U::GetPresetNames()),
                                  decltype(U::GetDefaultPresetName()),
                                  decltype(U::GetPreset(std::string()))>> : std::true_type
    {
    };

    /// Whether U has static UsesInt() (an INT-based algorithm says true).
    template <typename U, typename = void>
    struct HasUsesInt : std::false_type
    {
    };

    template <typename U>
    struct HasUsesInt<U, std::void_t<decltype(U::UsesInt())>> : std::true_type
    {
    };

    /// Whether U has static GetSwitchPreset(name).
    template <typename U, typename = void>
    struct HasSwitchPresets : std::false_type
    {
    };

    template <typename U>
    struct HasSwitchPresets<U, std::void_t<decltype(U::GetSwitchPreset(std::string()))>>
        : std::true_type
    {
    };
};

} // namespace ns3

#endif // CONGESTION_CONTROL_REGISTRY_H
