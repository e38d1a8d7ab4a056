/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "job-spec.h"

#include "size-parser.h"
#include "strict-json.h"

#include "ns3/collective-workload.h"
#include "ns3/config-error.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

namespace ns3
{

namespace
{
/// The fields a job may have.
const std::set<std::string> FIELDS{"name",
                                   "workload",
                                   "model",
                                   "bytes",
                                   "fanin",
                                   "iterations",
                                   "algorithm",
                                   "gpus",
                                   "placement",
                                   "seed",
                                   "start",
                                   "class",
                                   "partition"};

/// Builds the messages about one job of a file.
class JobError
{
  public:
    JobError(const std::string& file, uint32_t index, const std::string& name)
        : m_prefix("--jobs=" + file + ": job " +
                   (name.empty() ? std::string() : "'" + name + "' ") + "(number " +
                   std::to_string(index + 1) + ")")
    {
    }

    /// \return the error of \p field whose value \p value is not one of \p allowed
    ConfigError Field(const std::string& field,
                      const nlohmann::json& value,
                      const std::string& allowed) const
    {
        return ConfigError(m_prefix + ": \"" + field + "\": " + value.dump() +
                           " is not allowed; allowed " + allowed);
    }

    /// \return an error about the job as a whole
    ConfigError Job(const std::string& what) const
    {
        return ConfigError(m_prefix + ": " + what);
    }

  private:
    std::string m_prefix;
};

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

/// \return whether \p workload is a point-to-point pattern (on one-GPU hosts)
bool
IsPattern(const std::string& workload)
{
    return WorkloadRegistry::Has(workload) &&
           WorkloadRegistry::GetFamily(workload, 1) == WorkloadRegistry::POINT_TO_POINT;
}

/// Read one job.
JobSpec
ReadJob(const nlohmann::json& j, uint32_t index, const std::string& file)
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
    for (auto it = j.begin(); it != j.end(); ++it)
    {
        if (FIELDS.count(it.key()) == 0)
        {
            std::string all;
            for (const auto& f : FIELDS)
            {
                all += (all.empty() ? "" : ", ") + f;
            }
            throw err.Job("unknown field \"" + it.key() + "\"; allowed " + all);
        }
    }
    JobSpec s;
    if (!j.contains("name") || !j["name"].is_string() || name.empty() || name.size() > 64 ||
        name.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
            std::string::npos)
    {
        throw err.Field("name",
                        j.contains("name") ? j["name"] : nlohmann::json(),
                        "1..64 characters of letters, digits, '_', '.', '-'");
    }
    s.name = name;
    const std::string workloads = AllowedWorkloads();
    if (!j.contains("workload") || !j["workload"].is_string())
    {
        throw err.Field("workload", j.contains("workload") ? j["workload"] : nullptr, workloads);
    }
    s.workload = j["workload"].get<std::string>();
    const bool training = s.workload == "training";
    if (!training && !CollectiveWorkload::Handles(s.workload) && !IsPattern(s.workload))
    {
        throw err.Field("workload", j["workload"], workloads);
    }
    if (training)
    {
        if (!j.contains("model") || !j["model"].is_string() ||
            !std::ifstream(j["model"].get<std::string>()).good())
        {
            throw err.Field("model",
                            j.contains("model") ? j["model"] : nullptr,
                            "an existing training model file (JSON or ASTRA-sim/SimAI text)");
        }
        s.model = j["model"].get<std::string>();
        if (j.contains("bytes"))
        {
            throw err.Job("\"bytes\" is for a collective job; a training job's sizes are in "
                          "its model");
        }
    }
    else if (j.contains("model"))
    {
        throw err.Job("\"model\" is for a training job; allowed with \"workload\": \"training\"");
    }
    if (j.contains("bytes"))
    {
        const nlohmann::json& v = j["bytes"];
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
    if (j.contains("fanin"))
    {
        if (!IsPattern(s.workload))
        {
            throw err.Job("\"fanin\" is for a point-to-point pattern (incast)");
        }
        s.fanin = static_cast<uint32_t>(Integer(j["fanin"], err, "fanin", 1, 65535));
    }
    if (j.contains("iterations"))
    {
        s.iterations =
            static_cast<uint32_t>(Integer(j["iterations"], err, "iterations", 1, 1000000));
    }
    if (j.contains("algorithm"))
    {
        if (!j["algorithm"].is_string() || j["algorithm"].get<std::string>().empty())
        {
            throw err.Field("algorithm",
                            j["algorithm"],
                            "a collective algorithm name (ring, tree, ...)");
        }
        s.algorithm = j["algorithm"].get<std::string>();
    }
    if (!j.contains("gpus"))
    {
        throw err.Field("gpus", nullptr, "an integer 2..65536 (GPUs, one per host)");
    }
    s.gpus = static_cast<uint32_t>(Integer(j["gpus"], err, "gpus", 2, 65536));
    if (j.contains("placement"))
    {
        const nlohmann::json& v = j["placement"];
        const std::string allowed = "packed, spread, random or a list of host indices";
        if (v.is_array())
        {
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
                                "a list of exactly \"gpus\" = " + std::to_string(s.gpus) +
                                    " host indices");
            }
        }
        else if (v == "packed")
        {
            s.placement = JobSpec::Placement::PACKED;
        }
        else if (v == "spread")
        {
            s.placement = JobSpec::Placement::SPREAD;
        }
        else if (v == "random")
        {
            s.placement = JobSpec::Placement::RANDOM;
        }
        else
        {
            throw err.Field("placement", v, allowed);
        }
    }
    if (j.contains("seed"))
    {
        if (s.placement != JobSpec::Placement::RANDOM)
        {
            throw err.Job("\"seed\" is for \"placement\": \"random\"");
        }
        s.seed = static_cast<uint32_t>(Integer(j["seed"], err, "seed", 0, 0xFFFFFFFFULL));
    }
    if (j.contains("start"))
    {
        const nlohmann::json& v = j["start"];
        const std::string allowed = "a time >= 0 in ns-3 units as text (\"0s\", \"10us\")";
        if (!v.is_string())
        {
            throw err.Field("start", v, allowed);
        }
        try
        {
            s.start = ParseTime(v.get<std::string>());
        }
        catch (const std::invalid_argument&)
        {
            throw err.Field("start", v, allowed);
        }
        if (s.start.IsNegative())
        {
            throw err.Field("start", v, allowed);
        }
    }
    if (j.contains("class"))
    {
        s.trafficClass = static_cast<uint8_t>(Integer(j["class"], err, "class", 0, 15));
    }
    if (j.contains("partition"))
    {
        const nlohmann::json& v = j["partition"];
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
    return s;
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

std::vector<JobSpec>
JobSet::Load(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        throw ConfigError("--jobs=" + file +
                          ": cannot read the file; allowed an existing JSON file");
    }
    const nlohmann::json doc = ParseStrictJson(in, "--jobs=" + file);
    if (!doc.is_array() || doc.empty())
    {
        throw ConfigError("--jobs=" + file +
                          ": the file is not a non-empty JSON array of jobs; allowed "
                          "[{\"name\": ..., \"workload\": ..., \"gpus\": ...}, ...]");
    }
    std::vector<JobSpec> jobs;
    std::set<std::string> names;
    for (uint32_t i = 0; i < doc.size(); ++i)
    {
        jobs.push_back(ReadJob(doc[i], i, file));
        if (!names.insert(jobs.back().name).second)
        {
            throw JobError(file, i, jobs.back().name)
                .Field("name", jobs.back().name, "a name no other job has");
        }
    }
    return jobs;
}

void
JobSet::Place(std::vector<JobSpec>& jobs, const TopologyGraph& graph, const std::string& file)
{
    const std::vector<uint32_t>& hostNodes = graph.GetHosts();
    const auto nHosts = static_cast<uint32_t>(hostNodes.size());
    // A host's group: the switch its first port reaches (its leaf, or its server's
    // crossbar), in order of first appearance.
    std::vector<uint32_t> groupOf(nHosts);
    std::map<uint32_t, uint32_t> groupIndex;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        const auto& ports = graph.GetPorts(hostNodes[h]);
        const uint32_t peer = ports.empty() ? hostNodes[h] : ports.front().peer;
        groupOf[h] =
            groupIndex.emplace(peer, static_cast<uint32_t>(groupIndex.size())).first->second;
    }
    std::vector<bool> taken(nHosts, false);
    for (uint32_t i = 0; i < jobs.size(); ++i)
    {
        JobSpec& job = jobs[i];
        const JobError err(file, i, job.name);
        std::vector<uint32_t> free;
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            if (!taken[h])
            {
                free.push_back(h);
            }
        }
        if (job.placement != JobSpec::Placement::EXPLICIT && free.size() < job.gpus)
        {
            throw err.Field("gpus",
                            job.gpus,
                            "at most the " + std::to_string(free.size()) +
                                " hosts the earlier jobs left free (of " + std::to_string(nHosts) +
                                ")");
        }
        switch (job.placement)
        {
        case JobSpec::Placement::PACKED:
            job.hosts.assign(free.begin(), free.begin() + job.gpus);
            break;
        case JobSpec::Placement::SPREAD: {
            // Round robin over the groups: each turn takes the lowest free host of the
            // next group that has one.
            std::vector<std::vector<uint32_t>> byGroup(groupIndex.size());
            for (uint32_t h : free)
            {
                byGroup[groupOf[h]].push_back(h);
            }
            std::vector<std::size_t> next(byGroup.size(), 0);
            job.hosts.clear();
            while (job.hosts.size() < job.gpus)
            {
                for (std::size_t g = 0; g < byGroup.size() && job.hosts.size() < job.gpus; ++g)
                {
                    if (next[g] < byGroup[g].size())
                    {
                        job.hosts.push_back(byGroup[g][next[g]++]);
                    }
                }
            }
            break;
        }
        case JobSpec::Placement::RANDOM: {
            // Fisher-Yates with mt19937's raw output (the same on every platform)
            std::mt19937 rng(job.seed);
            for (std::size_t k = free.size(); k > 1; --k)
            {
                std::swap(free[k - 1], free[rng() % k]);
            }
            job.hosts.assign(free.begin(), free.begin() + job.gpus);
            break;
        }
        case JobSpec::Placement::EXPLICIT:
            for (uint32_t h : job.hosts)
            {
                if (h >= nHosts)
                {
                    throw err.Field("placement",
                                    h,
                                    "host indices 0.." + std::to_string(nHosts - 1));
                }
                if (taken[h])
                {
                    throw err.Field("placement", h, "hosts no earlier job has");
                }
            }
            break;
        }
        for (uint32_t h : job.hosts)
        {
            taken[h] = true;
        }
    }
}

} // namespace ns3
