/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_SPEC_H
#define JOB_SPEC_H

#include "ns3/nstime.h"

#include <cstdint>
#include <nlohmann/json.hpp>
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

    /// What a job does when a host it runs on fails (a queue pair of it enters the
    /// error state: NCCL aborts the communicator).
    enum class OnFailure
    {
        STOP,    //!< "stop": the job ends there, state "stopped"
        RESTART, //!< "restart": after "restart_delay", from its last finished iteration,
                 //!< the failed host replaced by a free one (state "restarted")
    };

    /// What runs a job: its "workload" value resolved once, when the file is read.
    enum class Kind
    {
        TRAINING,   //!< "training": a model file (TrainingWorkload)
        COLLECTIVE, //!< a collective loop (CollectiveWorkload::Handles)
        PATTERN,    //!< a point-to-point pattern (WorkloadRegistry::POINT_TO_POINT)
        CHAKRA,     //!< "training" with a "trace": a Chakra execution trace (ChakraWorkload)
    };

    std::string name;            //!< "name" (unique)
    std::string workload;        //!< "workload": training, a collective or a point-to-point pattern
    Kind kind{Kind::COLLECTIVE}; //!< what "workload" names
    std::string model;           //!< "model": training model file
    std::string trace;           //!< "trace": Chakra trace prefix (PREFIX.RANK.et)
    uint64_t bytes{1000000};     //!< "bytes": collective bytes per rank, or a pattern's
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
    OnFailure onFailure{OnFailure::STOP};   //!< "on_failure"
    Time restartDelay{0};                   //!< "restart_delay" of RESTART

    /// \return the placement's name (packed, spread, random, explicit)
    std::string GetPlacementName() const;

    /**
     * Read and check one job of a --jobs file.
     * \param j the job's JSON object
     * \param index its position in the file (from 0), for messages
     * \param file the --jobs value, for messages
     * \return the job (its hosts: EXPLICIT's list, else empty until JobSet::Place)
     * \throws ConfigError naming the job, the field and what is allowed
     */
    static JobSpec FromJson(const nlohmann::json& j, uint32_t index, const std::string& file);
};

} // namespace ns3

#endif // JOB_SPEC_H
