/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "job-set.h"

#include "job-error.h"
#include "strict-json.h"

#include "ns3/config-error.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

namespace ns3
{

namespace
{
/**
 * \return each host's group (by host index): the switch its first port reaches (its
 * leaf, or its server's crossbar), numbered in order of first appearance; and in
 * \p nGroups how many groups there are
 */
std::vector<uint32_t>
HostGroups(const TopologyGraph& graph, uint32_t& nGroups)
{
    const std::vector<uint32_t>& hostNodes = graph.GetHosts();
    std::vector<uint32_t> groupOf(hostNodes.size());
    std::map<uint32_t, uint32_t> groupIndex;
    for (std::size_t h = 0; h < hostNodes.size(); ++h)
    {
        const auto& ports = graph.GetPorts(hostNodes[h]);
        const uint32_t peer = ports.empty() ? hostNodes[h] : ports.front().peer;
        groupOf[h] =
            groupIndex.emplace(peer, static_cast<uint32_t>(groupIndex.size())).first->second;
    }
    nGroups = static_cast<uint32_t>(groupIndex.size());
    return groupOf;
}

/// SPREAD: round robin over the groups, each turn the lowest free host of the next
/// group that has one.
std::vector<uint32_t>
PlaceSpread(const std::vector<uint32_t>& free,
            const std::vector<uint32_t>& groupOf,
            uint32_t nGroups,
            uint32_t gpus)
{
    std::vector<std::vector<uint32_t>> byGroup(nGroups);
    for (uint32_t h : free)
    {
        byGroup[groupOf[h]].push_back(h);
    }
    std::vector<std::size_t> next(byGroup.size(), 0);
    std::vector<uint32_t> hosts;
    while (hosts.size() < gpus)
    {
        for (std::size_t g = 0; g < byGroup.size() && hosts.size() < gpus; ++g)
        {
            if (next[g] < byGroup[g].size())
            {
                hosts.push_back(byGroup[g][next[g]++]);
            }
        }
    }
    return hosts;
}

/// RANDOM: Fisher-Yates with mt19937's raw output (the same on every platform).
std::vector<uint32_t>
PlaceRandom(std::vector<uint32_t> free, uint32_t seed, uint32_t gpus)
{
    std::mt19937 rng(seed);
    for (std::size_t k = free.size(); k > 1; --k)
    {
        std::swap(free[k - 1], free[rng() % k]);
    }
    free.resize(gpus);
    return free;
}

/// EXPLICIT: check the listed hosts exist and are free.
void
CheckExplicit(const JobSpec& job,
              const std::vector<bool>& taken,
              uint32_t nHosts,
              const JobError& err)
{
    for (uint32_t h : job.hosts)
    {
        if (h >= nHosts)
        {
            throw err.Field("placement", h, "host indices 0.." + std::to_string(nHosts - 1));
        }
        if (taken[h])
        {
            throw err.Field("placement", h, "hosts no earlier job has");
        }
    }
}
} // namespace

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
        jobs.push_back(JobSpec::FromJson(doc[i], i, file));
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
    const auto nHosts = static_cast<uint32_t>(graph.GetHosts().size());
    uint32_t nGroups = 0;
    const std::vector<uint32_t> groupOf = HostGroups(graph, nGroups);
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
        case JobSpec::Placement::SPREAD:
            job.hosts = PlaceSpread(free, groupOf, nGroups, job.gpus);
            break;
        case JobSpec::Placement::RANDOM:
            job.hosts = PlaceRandom(std::move(free), job.seed, job.gpus);
            break;
        case JobSpec::Placement::EXPLICIT:
            CheckExplicit(job, taken, nHosts, err);
            break;
        }
        for (uint32_t h : job.hosts)
        {
            taken[h] = true;
        }
    }
}

} // namespace ns3
