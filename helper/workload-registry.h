/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKLOAD_REGISTRY_H
#define WORKLOAD_REGISTRY_H

#include "ns3/name-registry.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * What a point-to-point workload reads (the scenario layer fills it from --bytes and
 * --fanin; a script sets it directly).
 */
struct PointToPointOptions
{
    uint64_t bytes{1000000}; //!< bytes per host (--bytes; alltoall splits it over the hosts)
    uint32_t fanin{8};       //!< incast senders (--fanin)
};

/**
 * \ingroup ai-fabric
 * The messages a point-to-point workload posts at time 0: one WRITE of `bytes`
 * from each pair's first host to its second, all of one MessageKind.
 */
struct PointToPointPattern
{
    std::vector<std::pair<uint32_t, uint32_t>> pairs; //!< (source host, destination host)
    uint64_t bytes{0};                                //!< bytes of every message
    uint8_t kind{0}; //!< their MessageKind (not flow, background or collective: those
                     //!< are counted towards other workloads' ends)
};

/**
 * \ingroup ai-fabric
 * \brief The main workloads by name (--workload): what the knob table, --help, the
 * JSON configuration, Python's Scenario and the scenario runner read.
 *
 * A workload is one of five families: none (only --background and --flows), a
 * point-to-point pattern (a function from its PointToPointOptions and the host count
 * to the messages posted at time 0), a collective (CollectiveWorkload runs the
 * operation of the same name with the registered algorithms), training
 * (TrainingWorkload runs the model file of --training), or other (the scenario
 * layer's ScenarioWorkload registered under its name runs it). Each registers with
 * one line in its .cc file:
 * \code
 * static WorkloadRegistration g_registration({"name", "one line of help",
 *     WorkloadRegistry::POINT_TO_POINT, &MyPattern});
 * \endcode
 */
class WorkloadRegistry
{
  public:
    /// How the runner starts a workload.
    enum Family
    {
        NONE,           //!< nothing besides background traffic and flow files
        POINT_TO_POINT, //!< the messages of `pattern`, posted at time 0
        COLLECTIVE,     //!< CollectiveWorkload: the collective operation of this name
        TRAINING,       //!< TrainingWorkload: the training iterations of --training
        /// A workload that only its own component knows (the scenario layer's
        /// ScenarioWorkload registered under its name, e.g. a test library's): the other
        /// families' flags do not apply to it
        OTHER,
    };

    /// The messages of a point-to-point workload, drawing on the runner's stream 1
    /// if random; throws std::invalid_argument on options it cannot serve (naming the
    /// flag and what is allowed; the scenario layer reports it as a ConfigError).
    typedef std::function<PointToPointPattern(const PointToPointOptions& options,
                                              uint32_t nHosts,
                                              Ptr<UniformRandomVariable> rng)>
        PatternFunction;

    /// One registered workload.
    struct Entry
    {
        std::string name;        //!< as in --workload
        std::string help;        //!< one line: what it sends
        Family family;           //!< how the runner starts it
        PatternFunction pattern; //!< POINT_TO_POINT: its messages (else empty)
    };

    /// Add a workload (at load time); aborts on an empty or registered name.
    static void Add(Entry entry);
    /**
     * \param name a workload name
     * \return its entry
     * \throws std::invalid_argument naming the value and the registered names
     */
    static const Entry& Get(const std::string& name);
    /// \param name a workload name \return whether it is registered
    static bool Has(const std::string& name);
    /// The registered names, sorted.
    static std::vector<std::string> GetNames();
    /// The registered names of one family, sorted.
    static std::vector<std::string> GetNames(Family family);
    /**
     * Run --workload=\p name as \p family where the hosts are GPU servers (--gpus-per-server
     * > 1): alltoall is a point-to-point pattern on one-NIC hosts and NCCL's all-to-all (the
     * collective) on servers. Called at load time, after the workload's registration.
     */
    static void SetServerFamily(const std::string& name, Family family);
    /**
     * \param name a registered workload name
     * \param gpusPerServer GPUs per server of the topology (0 or 1: one-NIC hosts)
     * \return the family the workload runs as there (its own, or its SetServerFamily one on
     *         servers)
     * \throws std::invalid_argument as Get
     */
    static Family GetFamily(const std::string& name, uint32_t gpusPerServer);

  private:
    /// The table, made on first use (registrations run in static constructors).
    static NameRegistry<Entry>& Table();
    /// SetServerFamily's families, made on first use.
    static std::map<std::string, Family>& ServerFamilies();
};

/**
 * \ingroup ai-fabric
 * Registers a workload at load time (one static object per workload).
 */
class WorkloadRegistration
{
  public:
    /// \param entry the workload
    explicit WorkloadRegistration(WorkloadRegistry::Entry entry);
};

} // namespace ns3

#endif // WORKLOAD_REGISTRY_H
