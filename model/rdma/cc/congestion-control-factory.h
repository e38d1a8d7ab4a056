/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CONGESTION_CONTROL_FACTORY_H
#define CONGESTION_CONTROL_FACTORY_H

#include "rdma-congestion-control.h"

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Makes one congestion controller per queue pair from an algorithm name
 * (one of CongestionControlRegistry's: "none", "dcqcn", "swift", ...), a preset
 * name and attribute overrides.
 *
 * Names are checked when set, so a scenario with a bad --cc or --cc-preset
 * fails before any node is built. Precedence: the class's attribute defaults
 * (Config::SetDefault) < the preset < Set() overrides.
 */
class CongestionControlFactory
{
  public:
    /// Algorithm "none", no preset.
    /// A copy has the settings, not the configured controller: it makes its own on its
    /// first Create (a helper's factory copied into each fabric it installs sees the
    /// attribute defaults of that moment).
    CongestionControlFactory(const CongestionControlFactory& other);
    CongestionControlFactory& operator=(const CongestionControlFactory& other);
    CongestionControlFactory();
    /**
     * \param algorithm a registered name (CongestionControlRegistry)
     * \param preset a preset of that algorithm; "" keeps the attribute defaults
     * \throws std::invalid_argument naming the value and what is allowed
     */
    explicit CongestionControlFactory(const std::string& algorithm, const std::string& preset = "");

    /// \throws std::invalid_argument for an unknown algorithm; clears the preset.
    void SetAlgorithm(const std::string& algorithm);
    /// \throws std::invalid_argument for a preset the algorithm does not have.
    void SetPreset(const std::string& preset);
    /// Override one attribute of the created controllers (applied after the preset).
    void Set(const std::string& name, const AttributeValue& value);

    const std::string& GetAlgorithm() const;
    const std::string& GetPreset() const;

    /// A new controller with the preset and overrides applied.
    Ptr<RdmaCongestionControl> Create() const;

    /// Registered algorithm names, sorted (CongestionControlRegistry::GetNames).
    static std::vector<std::string> GetAlgorithms();
    /// Preset names of an algorithm ("default" only for one without presets).
    static std::vector<std::string> GetPresets(const std::string& algorithm);
    /// The preset the algorithm's attribute defaults equal.
    static std::string GetDefaultPreset(const std::string& algorithm);
    /// ns-3 TypeId name of an algorithm's class.
    static std::string GetTypeName(const std::string& algorithm);

    /**
     * Create a controller by name and apply a preset ("" = attribute defaults).
     * \throws std::invalid_argument for an unknown algorithm or preset
     */
    static Ptr<RdmaCongestionControl> Create(const std::string& algorithm,
                                             const std::string& preset = "");
    /**
     * Apply a preset of the controller's own algorithm to it.
     * \throws std::invalid_argument for an unknown preset
     */
    static void ApplyPreset(Ptr<RdmaCongestionControl> cc, const std::string& preset);

  private:
    std::string m_algorithm; //!< algorithm name
    std::string m_preset;    //!< preset name, "" = none
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_overrides; //!< Set() values
    /// A controller with the preset's and Set()'s values, made on the first Create
    /// after a change and forked for each queue pair: constructing every controller
    /// from attribute values (strings, for a preset) was most of a connection's
    /// set-up cost, about 120,000 instructions a controller.
    mutable Ptr<RdmaCongestionControl> m_prototype; //!< null until made, and after a change
};

} // namespace ns3

#endif // CONGESTION_CONTROL_FACTORY_H
