/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "job-spec.h"

#include "job-error.h"
#include "size-parser.h"

#include "ns3/collective-workload.h"
#include "ns3/workload-registry.h"

#include <fstream>
#include <map>
#include <set>

namespace ns3
{

namespace
{
/// An integer field in [lo, hi].
uint64_t
Integer(const nlohmann::json& v, const JobError& err, const char* field, uint64_t lo, uint64_t hi)
{
    const std::string allowed = "an integer " + std::to_string(lo) + ".." + std::to_string(hi);
    if (!v.is_number_unsigned() || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
    {
        throw err.Field(field, v, allowed);
    }
    return v.get<uint64_t>();
}

/// The workloads a job may run: training, the collectives, the point-to-point patterns.
std::string
AllowedWorkloads()
{
    std::string s = "training";
    for (const char* w : {"allreduce", "reducescatter", "allgather"})
    {
        s += std::string(", ") + w;
    }
    for (const std::string& w : WorkloadRegistry::GetNames(WorkloadRegistry::POINT_TO_POINT))
    {
        s += ", " + w;
    }
    return s;
}

/**
 * \return what runs \p workload: its WorkloadRegistry family (on one-GPU hosts), or a
 * collective CollectiveWorkload handles; nothing for a workload a job cannot run
 */
std::optional<JobSpec::Kind>
KindOf(const std::string& workload)
{
    const WorkloadRegistry::Family family = WorkloadRegistry::Has(workload)
                                                ? WorkloadRegistry::GetFamily(workload, 1)
                                                : WorkloadRegistry::NONE;
    if (family == WorkloadRegistry::TRAINING)
    {
        return JobSpec::Kind::TRAINING;
    }
    if (family == WorkloadRegistry::POINT_TO_POINT)
    {
        return JobSpec::Kind::PATTERN;
    }
    if (CollectiveWorkload::Handles(workload))
    {
        return JobSpec::Kind::COLLECTIVE;
    }
    return std::nullopt;
}

/// The value of field \p f of job \p j, or JSON null when it has none (for messages).
nlohmann::json
ValueOf(const nlohmann::json& j, const char* f)
{
    return j.contains(f) ? j[f] : nlohmann::json(nullptr);
}

/// "trace" of a training job: its step from a Chakra trace instead of a "model".
void
ReadTrace(const nlohmann::json& j, JobSpec& s, const JobError& err)
{
    if (s.kind != JobSpec::Kind::TRAINING)
    {
        throw err.Job("\"trace\" is for a training job; allowed with \"workload\": \"training\"");
    }
    if (j.contains("model"))
    {
        throw err.Job("\"model\" and \"trace\" both give the training step; allowed: one of them");
    }
    if (!j["trace"].is_string() || !std::ifstream(j["trace"].get<std::string>() + ".0.et").good())
    {
        throw err.Field("trace",
                        j["trace"],
                        "the PREFIX of a Chakra execution trace (PREFIX.0.et, PREFIX.1.et, ...: "
                        "one file per GPU of the job)");
    }
    s.kind = JobSpec::Kind::CHAKRA;
    s.trace = j["trace"].get<std::string>();
}

/// "workload" (required) and what it allows: "model" for training, "bytes" otherwise.
void
ReadWorkload(const nlohmann::json& j, JobSpec& s, const JobError& err)
{
    const std::string workloads = AllowedWorkloads();
    if (!j.contains("workload") || !j["workload"].is_string())
    {
        throw err.Field("workload", ValueOf(j, "workload"), workloads);
    }
    s.workload = j["workload"].get<std::string>();
    const std::optional<JobSpec::Kind> kind = KindOf(s.workload);
    if (!kind)
    {
        throw err.Field("workload", j["workload"], workloads);
    }
    s.kind = *kind;
    if (j.contains("trace"))
    {
        ReadTrace(j, s, err);
    }
    const bool training = s.kind == JobSpec::Kind::TRAINING;
    const bool traced = s.kind == JobSpec::Kind::CHAKRA;
    if (training && (!j.contains("model") || !j["model"].is_string() ||
                     !std::ifstream(j["model"].get<std::string>()).good()))
    {
        throw err.Field("model",
                        ValueOf(j, "model"),
                        "an existing training model file (JSON or ASTRA-sim/SimAI text)");
    }
    if ((training || traced) && j.contains("bytes"))
    {
        throw err.Job("\"bytes\" is for a collective job; a training job's sizes are in its model");
    }
    if (!training && !traced && j.contains("model"))
    {
        throw err.Job("\"model\" is for a training job; allowed with \"workload\": \"training\"");
    }
    if (training)
    {
        s.model = j["model"].get<std::string>();
    }
}

/// "bytes": an integer or a text size.
void
ReadBytes(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    const std::string allowed = "a byte count 1..4GB (integer or text with KB/MB/GB or "
                                "KiB/MiB/GiB)";
    try
    {
        s.bytes = v.is_string() ? ParseByteSize(v.get<std::string>())
                                : Integer(v, err, "bytes", 1, 4000000000ULL);
    }
    catch (const std::invalid_argument&)
    {
        throw err.Field("bytes", v, allowed);
    }
    if (s.bytes < 1 || s.bytes > 4000000000ULL)
    {
        throw err.Field("bytes", v, allowed);
    }
}

/// "fanin": a pattern's (incast's) senders.
void
ReadFanin(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    if (s.kind != JobSpec::Kind::PATTERN)
    {
        throw err.Job("\"fanin\" is for a point-to-point pattern (incast)");
    }
    s.fanin = static_cast<uint32_t>(Integer(v, err, "fanin", 1, 65535));
}

/// "iterations"
void
ReadIterations(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    s.iterations = static_cast<uint32_t>(Integer(v, err, "iterations", 1, 1000000));
}

/// "algorithm": a name the workload checks when it is installed.
void
ReadAlgorithm(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    if (!v.is_string() || v.get<std::string>().empty())
    {
        throw err.Field("algorithm", v, "a collective algorithm name (ring, tree, ...)");
    }
    s.algorithm = v.get<std::string>();
}

/// "gpus" (required; read before "placement", whose list it sizes).
void
ReadGpus(const nlohmann::json& j, JobSpec& s, const JobError& err)
{
    if (!j.contains("gpus"))
    {
        throw err.Field("gpus", nullptr, "an integer 2..65536 (GPUs, one per host)");
    }
    s.gpus = static_cast<uint32_t>(Integer(j["gpus"], err, "gpus", 2, 65536));
}

/// "placement": a policy's name or an explicit list of "gpus" host indices.
void
ReadPlacement(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    static const std::map<std::string, JobSpec::Placement> POLICIES{
        {"packed", JobSpec::Placement::PACKED},
        {"spread", JobSpec::Placement::SPREAD},
        {"random", JobSpec::Placement::RANDOM}};
    if (!v.is_array())
    {
        const auto it = v.is_string() ? POLICIES.find(v.get<std::string>()) : POLICIES.end();
        if (it == POLICIES.end())
        {
            throw err.Field("placement", v, "packed, spread, random or a list of host indices");
        }
        s.placement = it->second;
        return;
    }
    s.placement = JobSpec::Placement::EXPLICIT;
    std::set<uint32_t> seen;
    for (const auto& h : v)
    {
        const auto host = static_cast<uint32_t>(Integer(h, err, "placement", 0, 1U << 30));
        if (!seen.insert(host).second)
        {
            throw err.Field("placement", v, "each host once");
        }
        s.hosts.push_back(host);
    }
    if (s.hosts.size() != s.gpus)
    {
        throw err.Field("placement",
                        v,
                        "a list of exactly \"gpus\" = " + std::to_string(s.gpus) + " host indices");
    }
}

/// "seed" of a random placement.
void
ReadSeed(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    if (s.placement != JobSpec::Placement::RANDOM)
    {
        throw err.Job("\"seed\" is for \"placement\": \"random\"");
    }
    s.seed = static_cast<uint32_t>(Integer(v, err, "seed", 0, 0xFFFFFFFFULL));
}

/// A time >= 0 in ns-3 units as text (\p field: "start", ...).
Time
ReadTime(const nlohmann::json& v, const JobError& err, const char* field)
{
    const std::string allowed = "a time >= 0 in ns-3 units as text (\"0s\", \"10us\")";
    Time t;
    try
    {
        if (!v.is_string())
        {
            throw std::invalid_argument("not text");
        }
        t = ParseTime(v.get<std::string>());
    }
    catch (const std::invalid_argument&)
    {
        throw err.Field(field, v, allowed);
    }
    if (t.IsNegative())
    {
        throw err.Field(field, v, allowed);
    }
    return t;
}

/// "start"
void
ReadStart(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    s.start = ReadTime(v, err, "start");
}

/// "class": RoCEv2 priority / IB SL.
void
ReadClass(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    s.trafficClass = static_cast<uint8_t>(Integer(v, err, "class", 0, 15));
}

/// "partition": a P_Key, an integer or "0x..." text.
void
ReadPartition(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    const std::string allowed = "a P_Key 1..0x7ffe (integer, or text \"0x...\")";
    uint64_t key = 0;
    if (v.is_string())
    {
        const std::string t = v.get<std::string>();
        if (t.size() < 3 || t.size() > 6 || t.compare(0, 2, "0x") != 0 ||
            t.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos)
        {
            throw err.Field("partition", v, allowed);
        }
        key = std::stoul(t.substr(2), nullptr, 16);
    }
    else
    {
        key = Integer(v, err, "partition", 1, 0x7FFE);
    }
    if (key < 1 || key > 0x7FFE)
    {
        throw err.Field("partition", v, allowed);
    }
    s.partition = static_cast<uint16_t>(key);
}

/// "on_failure": stop or restart (a training or collective job).
void
ReadOnFailure(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    static const std::map<std::string, JobSpec::OnFailure> ACTIONS{
        {"stop", JobSpec::OnFailure::STOP},
        {"restart", JobSpec::OnFailure::RESTART}};
    const auto it = v.is_string() ? ACTIONS.find(v.get<std::string>()) : ACTIONS.end();
    if (it == ACTIONS.end())
    {
        throw err.Field("on_failure", v, "stop or restart");
    }
    if (it->second == JobSpec::OnFailure::RESTART && s.kind == JobSpec::Kind::PATTERN)
    {
        throw err.Field("on_failure", v, "stop for a point-to-point pattern job");
    }
    s.onFailure = it->second;
}

/// "restart_delay" of "on_failure": "restart".
void
ReadRestartDelay(const nlohmann::json& v, JobSpec& s, const JobError& err)
{
    if (s.onFailure != JobSpec::OnFailure::RESTART)
    {
        throw err.Job("\"restart_delay\" is for \"on_failure\": \"restart\"");
    }
    s.restartDelay = ReadTime(v, err, "restart_delay");
}

/// An optional field's reader: its value, the job so far, the job's errors.
using FieldReader = void (*)(const nlohmann::json&, JobSpec&, const JobError&);

/**
 * The optional fields, in the order they are read (a field a later one depends on
 * comes first: "placement" before "seed"); "name", "workload" (with "model") and
 * "gpus" are read before them.
 */
const std::vector<std::pair<std::string, FieldReader>>&
OptionalFields()
{
    static const std::vector<std::pair<std::string, FieldReader>> FIELDS{
        {"bytes", &ReadBytes},
        {"fanin", &ReadFanin},
        {"iterations", &ReadIterations},
        {"algorithm", &ReadAlgorithm},
        {"placement", &ReadPlacement},
        {"seed", &ReadSeed},
        {"start", &ReadStart},
        {"class", &ReadClass},
        {"partition", &ReadPartition},
        {"on_failure", &ReadOnFailure},
        {"restart_delay", &ReadRestartDelay}};
    return FIELDS;
}

/// Refuse a field no reader knows, listing the allowed ones.
void
CheckFieldNames(const nlohmann::json& j, const JobError& err)
{
    std::set<std::string> known{"name", "workload", "model", "trace", "gpus"};
    for (const auto& [field, read] : OptionalFields())
    {
        known.insert(field);
    }
    for (auto it = j.begin(); it != j.end(); ++it)
    {
        if (known.count(it.key()) == 0)
        {
            std::string all;
            for (const auto& f : known)
            {
                all += (all.empty() ? "" : ", ") + f;
            }
            throw err.Job("unknown field \"" + it.key() + "\"; allowed " + all);
        }
    }
}

/// \return "name" of \p j if it is a valid one, else throws
std::string
ReadName(const nlohmann::json& j, const JobError& err)
{
    const std::string name =
        j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "";
    if (name.empty() || name.size() > 64 ||
        name.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
            std::string::npos)
    {
        throw err.Field("name",
                        ValueOf(j, "name"),
                        "1..64 characters of letters, digits, '_', '.', '-'");
    }
    return name;
}
} // namespace

std::string
JobSpec::GetPlacementName() const
{
    switch (placement)
    {
    case Placement::PACKED:
        return "packed";
    case Placement::SPREAD:
        return "spread";
    case Placement::RANDOM:
        return "random";
    case Placement::EXPLICIT:
        return "explicit";
    }
    return "";
}

JobSpec
JobSpec::FromJson(const nlohmann::json& j, uint32_t index, const std::string& file)
{
    std::string name;
    if (j.is_object() && j.contains("name") && j["name"].is_string())
    {
        name = j["name"].get<std::string>();
    }
    const JobError err(file, index, name);
    if (!j.is_object())
    {
        throw err.Job(j.dump() + " is not an object; allowed {\"name\": ..., \"workload\": ...}");
    }
    CheckFieldNames(j, err);
    JobSpec s;
    s.name = ReadName(j, err);
    ReadWorkload(j, s, err);
    ReadGpus(j, s, err);
    for (const auto& [field, read] : OptionalFields())
    {
        if (j.contains(field))
        {
            read(j[field], s, err);
        }
    }
    return s;
}

} // namespace ns3
