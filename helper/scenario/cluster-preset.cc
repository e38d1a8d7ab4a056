/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cluster-preset.h"

#include "scenario-config.h"
#include "size-parser.h"
#include "strict-json.h"

#include "ns3/config-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

// Where the shipped presets are: the build sets these on this file alone (the
// installed copy and the source copy, ':'-separated); a build that sets neither still
// reads $AI_FABRIC_CLUSTER_PATH and --cluster=FILE.json.
#ifndef AI_FABRIC_CLUSTER_DIRS
#define AI_FABRIC_CLUSTER_DIRS ""
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClusterPreset");

namespace
{

/// A preset file's suffix: --cluster=NAME reads NAME + this in the preset directories
const std::string PRESET_SUFFIX = ".json";

std::string
JoinNames(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names)
    {
        s += (s.empty() ? "" : ", ") + n;
    }
    return s;
}

void
AppendPath(std::vector<std::string>& dirs, const std::string& list)
{
    std::size_t start = 0;
    while (start <= list.size())
    {
        const std::size_t colon = list.find(':', start);
        const std::string dir =
            list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!dir.empty() && std::find(dirs.begin(), dirs.end(), dir) == dirs.end())
        {
            dirs.push_back(dir);
        }
        if (colon == std::string::npos)
        {
            break;
        }
        start = colon + 1;
    }
}

bool
IsFileArgument(const std::string& v)
{
    return v.find('/') != std::string::npos ||
           (v.size() > PRESET_SUFFIX.size() &&
            v.compare(v.size() - PRESET_SUFFIX.size(), PRESET_SUFFIX.size(), PRESET_SUFFIX) == 0);
}

/// A JSON value as flag text (numbers as written, booleans 1/0 or, for an ns-3
/// attribute, true/false).
std::string
ValueText(const nlohmann::json& v, bool attribute, const std::string& where)
{
    if (v.is_string())
    {
        return v.get<std::string>();
    }
    if (v.is_boolean())
    {
        return attribute ? (v.get<bool>() ? "true" : "false") : (v.get<bool>() ? "1" : "0");
    }
    if (v.is_number_unsigned())
    {
        return std::to_string(v.get<uint64_t>());
    }
    if (v.is_number_integer())
    {
        return std::to_string(v.get<int64_t>());
    }
    if (v.is_number_float())
    {
        char buf[64];
        auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), v.get<double>());
        return ec == std::errc() ? std::string(buf, ptr) : std::string();
    }
    throw ConfigError(where + " has the wrong type (" + std::string(v.type_name()) +
                      "); allowed: a string, number or boolean, as the flag's value");
}

} // namespace

const std::vector<std::string>&
ClusterPreset::AllowedFields()
{
    // The hardware: server, scale-up domain, NIC and host interface, switches,
    // cables, the RoCE guide's ECN/PFC settings, the IB ports' VL buffers and the GPUs'
    // generation (NCCL's tuner reads it). Not the
    // topology's shape, the workload or the run (a preset describes parts, not a
    // fabric's size or what runs on it).
    static const std::vector<std::string> fields = {
        "fabric",
        "gpus-per-server",
        "scaleup-rate",
        "scaleup-latency",
        "scaleup-efficiency",
        "host-rate",
        "fabric-rate",
        "nic-injection-cap",
        "switch-latency",
        "cut-through",
        "buffer",
        "pfc",
        "ecn",
        "kmin",
        "kmax",
        "pmax",
        "mtu",
        "link-delay",
        "cable-lengths",
        "propagation-delay",
        "ns3::IbNetDevice::VlBufferBytes",
        "ns3::SharedBufferMmu::LosslessAlpha",
        "ns3::SharedBufferMmu::XonOffsetBytes",
        "ns3::SharedBufferMmu::ReservedBytesPerPg",
        "ns3::NcclTuner::GpuGeneration",
    };
    return fields;
}

const std::vector<std::string>&
ClusterPreset::PendingFields()
{
    static const std::vector<std::string> fields = {"cable-lengths", "propagation-delay"};
    return fields;
}

std::vector<std::string>
ClusterPreset::GetDirectories()
{
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("AI_FABRIC_CLUSTER_PATH"))
    {
        AppendPath(dirs, env);
    }
    AppendPath(dirs, AI_FABRIC_CLUSTER_DIRS);
    return dirs;
}

std::vector<std::string>
ClusterPreset::GetNames()
{
    std::set<std::string> names;
    for (const std::string& dir : ClusterPreset::GetDirectories())
    {
        std::error_code ec;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end;
             it.increment(ec))
        {
            const std::filesystem::path& p = it->path();
            if (p.extension() == PRESET_SUFFIX && it->is_regular_file(ec))
            {
                names.insert(p.stem().string());
            }
        }
    }
    return {names.begin(), names.end()};
}

namespace
{

/// The file of --cluster=\p nameOrFile: the argument itself, or the preset directories'
/// <name>.json (ConfigError naming what is allowed when there is none)
std::string
PresetFile(const std::string& nameOrFile)
{
    std::string file;
    if (IsFileArgument(nameOrFile))
    {
        file = nameOrFile;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec))
        {
            throw ConfigError("'" + nameOrFile + "': no such file; allowed: a preset name (" +
                              JoinNames(ClusterPreset::GetNames()) + ") or an existing JSON file");
        }
    }
    else
    {
        for (const std::string& dir : ClusterPreset::GetDirectories())
        {
            std::error_code ec;
            const std::string candidate = dir + "/" + nameOrFile + PRESET_SUFFIX;
            if (std::filesystem::is_regular_file(candidate, ec))
            {
                file = candidate;
                break;
            }
        }
        if (file.empty())
        {
            const std::vector<std::string> names = ClusterPreset::GetNames();
            throw ConfigError("'" + nameOrFile + "' is not a cluster preset; allowed: " +
                              (names.empty() ? std::string("none found (set "
                                                           "AI_FABRIC_CLUSTER_PATH)")
                                             : JoinNames(names)) +
                              ", or a JSON file");
        }
    }
    return file;
}

/// The top level of a preset \p file: an object of exactly name, description (non-empty
/// strings), values and sources (non-empty objects)
void
CheckPresetShape(const nlohmann::json& j, const std::string& file)
{
    if (!j.is_object())
    {
        throw ConfigError(file + ": the top level must be an object with \"name\", "
                                 "\"description\", \"values\" and \"sources\"");
    }
    static const std::set<std::string> keys = {"name", "description", "values", "sources"};
    for (const auto& [key, value] : j.items())
    {
        if (keys.count(key) == 0)
        {
            throw ConfigError(file + ": unknown key '" + key +
                              "'; allowed: name, description, values, sources");
        }
    }
    for (const char* key : {"name", "description"})
    {
        if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
        {
            throw ConfigError(file + ": \"" + key + "\" must be a non-empty string");
        }
    }
    for (const char* key : {"values", "sources"})
    {
        if (!j.contains(key) || !j[key].is_object() || j[key].empty())
        {
            throw ConfigError(file + ": \"" + key + "\" must be a non-empty object");
        }
    }
}

/// cable-lengths: L0[,L1[,L2]] metres (ConfigError naming \p where otherwise)
void
CheckCableLengths(const std::string& value, const std::string& where)
{
    if (!std::regex_match(value, std::regex(R"(\d+(\.\d+)?(,\d+(\.\d+)?){0,2})")))
    {
        throw ConfigError(where + ": '" + value +
                          "' is not L0[,L1[,L2]]; allowed: one to three lengths in metres "
                          "(host tier first), e.g. 3,20,50");
    }
}

/// propagation-delay: a time (ConfigError naming \p where otherwise)
void
CheckPropagationDelay(const std::string& value, const std::string& where)
{
    try
    {
        ParseTime(value);
    }
    catch (const ConfigError& e)
    {
        throw ConfigError(where + ": " + e.what());
    }
}

/// The fields a preset's value text is checked for before the flag's own check, by name
const std::map<std::string, void (*)(const std::string&, const std::string&)>&
FieldChecks()
{
    static const std::map<std::string, void (*)(const std::string&, const std::string&)> table = {
        {"cable-lengths", &CheckCableLengths},
        {"propagation-delay", &CheckPropagationDelay}};
    return table;
}

/// One field of "values" (\p field = \p value), checked against the allowed fields, its
/// source and, through \p scratch, the flag's or attribute's own check
ClusterPreset::Field
ReadPresetField(const std::string& field,
                const nlohmann::json& value,
                const nlohmann::json& j,
                const std::string& file,
                ScenarioConfig& scratch)
{
    const std::vector<std::string>& allowed = ClusterPreset::AllowedFields();
    const std::vector<std::string>& pending = ClusterPreset::PendingFields();
    const std::string where = file + ": field '" + field + "'";
    if (std::find(allowed.begin(), allowed.end(), field) == allowed.end())
    {
        throw ConfigError(
            where + " is not a hardware flag a preset may set; allowed: " + JoinNames(allowed));
    }
    const bool attribute = field.rfind("ns3::", 0) == 0;
    ClusterPreset::Field f;
    f.name = field;
    f.value = ValueText(value, attribute, where);
    if (!j["sources"].contains(field) || !j["sources"][field].is_string() ||
        j["sources"][field].get<std::string>().empty())
    {
        throw ConfigError(where + " has no source; allowed: a value with its public "
                                  "source under \"sources\"");
    }
    f.source = j["sources"][field].get<std::string>();
    const bool isPending = std::find(pending.begin(), pending.end(), field) != pending.end();
    f.applied = attribute || ScenarioConfig::FindKnob(field) != nullptr;
    if (!f.applied && !isPending)
    {
        throw ConfigError(where + ": this build's runner has no such flag");
    }
    if (auto check = FieldChecks().find(field); check != FieldChecks().end())
    {
        check->second(f.value, where);
    }
    try
    {
        if (attribute)
        {
            scratch.SetAttribute(field, f.value);
        }
        else if (f.applied)
        {
            scratch.Set(field, f.value);
        }
    }
    catch (const ConfigError& e)
    {
        throw ConfigError(file + ": field " + e.what());
    }
    return f;
}

} // namespace

ClusterPreset
ClusterPreset::Load(const std::string& nameOrFile)
{
    NS_LOG_FUNCTION(nameOrFile);
    const std::string file = PresetFile(nameOrFile);
    std::ifstream in(file);
    if (!in)
    {
        throw ConfigError("cannot open '" + file + "': " + std::strerror(errno));
    }
    const nlohmann::json j = ParseStrictJson(in, file);
    CheckPresetShape(j, file);
    ClusterPreset preset;
    preset.m_file = file;
    preset.m_name = j["name"].get<std::string>();
    preset.m_description = j["description"].get<std::string>();
    if (!IsFileArgument(nameOrFile) && preset.m_name != nameOrFile)
    {
        throw ConfigError(file + ": \"name\" is '" + preset.m_name + "'; allowed: '" + nameOrFile +
                          "', the file's name");
    }
    ScenarioConfig scratch;
    for (const auto& [field, value] : j["values"].items())
    {
        preset.m_fields.push_back(ReadPresetField(field, value, j, file, scratch));
    }
    for (const auto& [field, source] : j["sources"].items())
    {
        if (!j["values"].contains(field))
        {
            throw ConfigError(file + ": \"sources\" names '" + field +
                              "', which \"values\" does not set; allowed: the fields of "
                              "\"values\"");
        }
    }
    return preset;
}

const std::string&
ClusterPreset::GetName() const
{
    return m_name;
}

const std::string&
ClusterPreset::GetFile() const
{
    return m_file;
}

const std::string&
ClusterPreset::GetDescription() const
{
    return m_description;
}

const std::vector<ClusterPreset::Field>&
ClusterPreset::GetFields() const
{
    return m_fields;
}

} // namespace ns3
