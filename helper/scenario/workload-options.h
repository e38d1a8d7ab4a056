/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKLOAD_OPTIONS_H
#define WORKLOAD_OPTIONS_H

#include "scenario-config.h"

#include "ns3/collective-workload.h"
#include "ns3/flow-workload.h"
#include "ns3/training-workload.h"
#include "ns3/workload-registry.h"

#include <functional>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The scenario layer's map from a ScenarioConfig to the options of each
 * workload in helper/ (which never see the configuration), and the wrap of their
 * errors into ConfigError.
 */
class WorkloadOptions
{
  public:
    /// --workload (a collective), --algorithm, --protocol, --protocol-latency, --bytes,
    /// --ranks, --iterations, --chunk, --channels, --gpus-per-server, --host-rate, --pxn,
    /// --fabric; receives matched in advance unless --background or --flows is given.
    static CollectiveWorkload::Options Collective(const ScenarioConfig& c);
    /**
     * The defaults of the NCCL choices that depend on the topology, resolved in \p c
     * (so summary.json echoes what ran): on GPU servers (--gpus-per-server > 1) a
     * collective whose --algorithm is not given runs NCCL's tuner (--algorithm=auto,
     * like NCCL_ALGO unset), and with --protocol not given either, it picks the
     * protocol too (--protocol=auto). One-GPU hosts keep ring and simple.
     * \param c the configuration, before validation
     */
    static void ResolveCollectiveDefaults(ScenarioConfig& c);
    /// --training, --iterations, --algorithm, --chunk, --channels.
    static TrainingWorkload::Options Training(const ScenarioConfig& c);
    /// --background, --load, --host-rate, --flows, --stop-time, --priority, --out.
    static FlowWorkload::Options Flows(const ScenarioConfig& c);
    /// --bytes, --fanin.
    static PointToPointOptions PointToPoint(const ScenarioConfig& c);

    /**
     * Run \p step; a std::invalid_argument it throws (a workload's refusal, whose text
     * names the flag and what is allowed) becomes a ConfigError of the same text.
     * \param step what to run
     */
    static void AsConfigError(const std::function<void()>& step);
};

} // namespace ns3

#endif // WORKLOAD_OPTIONS_H
