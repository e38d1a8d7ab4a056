/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_SPEC_H
#define JOB_SPEC_H

#include "ns3/nstime.h"
#include "ns3/topology-graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief One job of a --jobs file: its workload, size, placement, start, traffic class
 * and partition (doc/jobs.md).
 */
struct JobSpec
{
    /// How a job's hosts are chosen among those no earlier job took.
    enum class Placement
    {
        PACKED,   //!< the lowest free hosts, in order (fills a leaf, then the next)
        SPREAD,   //!< one free host per leaf switch in turn (round robin over leaves)
        RANDOM,   //!< a seeded random draw (mt19937, Fisher-Yates) of the free hosts
        EXPLICIT, //!< the host indices listed
    };

    std::string name;        //!< "name" (unique)
    std::string workload;    //!< "workload": training, a collective or a point-to-point pattern
    std::string model;       //!< "model": training model file
    uint64_t bytes{1000000}; //!< "bytes": collective bytes per rank, or a pattern's
    std::optional<uint32_t> fanin;          //!< "fanin": incast senders; unset = --fanin
    std::optional<uint32_t> iterations;     //!< "iterations"; unset = the model's, or 1
    std::string algorithm{"ring"};          //!< "algorithm" (allreduce's, training's DP)
    uint32_t gpus{0};                       //!< "gpus": its size (hosts of one GPU each)
    Placement placement{Placement::PACKED}; //!< "placement"
    uint32_t seed{1};                       //!< "seed" of RANDOM
    std::vector<uint32_t> hosts;            //!< EXPLICIT's list; after Place, the hosts
    Time start{0};                          //!< "start"
    std::optional<uint8_t> trafficClass;    //!< "class"; unset = --priority
    uint16_t partition{0};                  //!< "partition" P_Key (0 = none)

    /// \return the placement's name (packed, spread, random, explicit)
    std::string GetPlacementName() const;
};

/**
 * \ingroup ai-fabric
 * \brief A --jobs file: a JSON array of jobs, read strictly (ParseStrictJson: a key
 * given twice is refused), and their placement on a topology.
 */
class JobSet
{
  public:
    /**
     * Read and check a jobs file.
     * \param file the path (the --jobs value)
     * \return the jobs, in file order
     * \throws ConfigError "--jobs=FILE: job 'NAME' (number N): "FIELD": VALUE ...; allowed
     *         ..." naming the job, the field and what is allowed
     */
    static std::vector<JobSpec> Load(const std::string& file);
    /**
     * Place the jobs in file order on \p graph's hosts (each host in one job at most).
     * \param jobs the jobs (their hosts are filled in)
     * \param graph the topology
     * \param file the --jobs value, for messages
     * \throws ConfigError naming the job whose hosts do not fit
     */
    static void Place(std::vector<JobSpec>& jobs,
                      const TopologyGraph& graph,
                      const std::string& file);
};

} // namespace ns3

#endif // JOB_SPEC_H
