/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHAKRA_WORKLOAD_H
#define CHAKRA_WORKLOAD_H

#include "training-workload.h"

#include "ns3/chakra-engine.h"
#include "ns3/object.h"
#include "ns3/rdma-collective-transport.h"
#include "ns3/rdma-fabric.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The scenario runner's training workload read from a Chakra trace
 * (--workload=training --chakra=PREFIX): an
 * MLCommons Chakra execution trace (PREFIX.0.et, PREFIX.1.et, ..., one per rank) read
 * by ChakraTrace and run by a ChakraEngine over an RdmaCollectiveTransport, rank r on
 * host r (or on options.hosts[r], a job's placement).
 *
 * It takes TrainingWorkload's Options (file = the prefix; --iterations, --algorithm,
 * --chunk, --channels, --gpus-per-server, --pxn as for a training model), so that a trace
 * and the model it was written from run their collectives alike. The trace's rank count
 * must equal the hosts it runs on.
 *
 * Outputs: summary.json "chakra" (ToJson) and chakra.csv (a row per iteration).
 */
class ChakraWorkload : public Object
{
  public:
    /// chakra.csv's header line
    static constexpr const char* CSV_HEADER =
        "iteration,start_ns,end_ns,duration_ns,critical_rank,gpu_compute_ns";

    static TypeId GetTypeId();
    ChakraWorkload();
    ~ChakraWorkload() override;

    /**
     * Read the trace and build transport and engine on the fabric. Throws
     * std::invalid_argument naming the file, the node and the field of a bad trace, or
     * the rank count that does not match the hosts.
     */
    void Setup(const TrainingWorkload::Options& options, Ptr<RdmaFabric> fabric);
    /// Called when the last iteration ended.
    void SetFinishedCallback(Callback<void> cb);
    void Start();
    bool IsFinished() const;
    /// The summary.json "chakra" object.
    nlohmann::json ToJson() const;
    /// Writes chakra.csv into dir; false if it could not be written.
    bool WriteCsv(const std::string& dir) const;
    /// The files WriteCsv writes.
    std::vector<std::string> GetCsvNames() const;
    Ptr<ChakraEngine> GetEngine() const;
    /// The transport its collectives and messages run on (a job's abort: Abort).
    Ptr<RdmaCollectiveTransport> GetTransport() const;

  protected:
    void DoDispose() override;

  private:
    Ptr<ChakraEngine> m_engine;
    Ptr<RdmaCollectiveTransport> m_transport;
    std::string m_prefix;
};

} // namespace ns3

#endif // CHAKRA_WORKLOAD_H
