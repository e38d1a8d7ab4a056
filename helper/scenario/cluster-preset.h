/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_PRESET_H
#define CLUSTER_PRESET_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief A hardware preset (--cluster=NAME or --cluster=FILE.json): the runner flags
 * that describe one cluster's servers, NICs, switches and cables, each with its public
 * source.
 *
 * A preset is a JSON file
 * \code
 * {"name": "dgx-h100-ndr", "description": "...",
 *  "values":  {"host-rate": "400Gbps", "mtu": 4096, ...},
 *  "sources": {"host-rate": "NVIDIA ConnectX-7 datasheet ...", ...}}
 * \endcode
 * whose "values" are runner flags (ScenarioConfig knobs, or ns-3 attribute defaults
 * named "ns3::Class::Attribute") from AllowedFields(), each with a non-empty source.
 * The shipped presets are the files NAME.json of the preset directories
 * (GetDirectories(): $AI_FABRIC_CLUSTER_PATH, then the installed and the source
 * copy); that listing is the registry of names. ScenarioConfig applies a preset as if
 * its flags were given, under the flags the user gives (doc/hardware.md).
 *
 * Load() checks everything before anything is applied and throws ConfigError naming
 * the file, the field, the value and what is allowed.
 */
class ClusterPreset
{
  public:
    /// One value of a preset.
    struct Field
    {
        std::string name;   ///< the flag ("host-rate") or "ns3::Class::Attribute"
        std::string value;  ///< its text, as on the command line
        std::string source; ///< where the figure comes from
        /// false when this build's runner has no such flag yet (AllowedFields() lists it
        /// as pending): the value is echoed, not applied
        bool applied{true};
    };

    /**
     * \param nameOrFile a shipped preset's name, or a path to a JSON file (it contains
     *        a '/' or ends in ".json")
     * \return the preset, every field checked against its flag
     * \throws ConfigError for an unknown name (listing the names), an unreadable or
     *         malformed file, an unknown or misplaced key, a field that is not a
     *         hardware flag, a value its flag refuses, or a field without a source
     */
    static ClusterPreset Load(const std::string& nameOrFile);

    /// \return the shipped presets' names (sorted, each once)
    static std::vector<std::string> GetNames();

    /// \return the directories searched for NAME.json, in order
    static std::vector<std::string> GetDirectories();

    /// \return the flags and ns-3 attributes a preset may set, in doc order
    static const std::vector<std::string>& AllowedFields();

    /// \return flags a preset may carry before this build's runner knows them (they are
    ///         echoed as not applied): the cable lengths per tier
    static const std::vector<std::string>& PendingFields();

    /// \return the preset's name (its "name" key)
    const std::string& GetName() const;
    /// \return the file it was read from
    const std::string& GetFile() const;
    /// \return its one-line description
    const std::string& GetDescription() const;
    /// \return its values, in the file's order
    const std::vector<Field>& GetFields() const;

  private:
    std::string m_name;          //!< "name"
    std::string m_file;          //!< the file read
    std::string m_description;   //!< "description"
    std::vector<Field> m_fields; //!< "values" with their "sources"
};

} // namespace ns3

#endif // CLUSTER_PRESET_H
