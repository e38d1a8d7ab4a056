/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "workload-options.h"

#include "fast-forward-setup.h"

#include "ns3/config-error.h"

#include <stdexcept>

namespace ns3
{

CollectiveWorkload::Options
WorkloadOptions::Collective(const ScenarioConfig& c)
{
    CollectiveWorkload::Options o;
    o.operation = c.workload;
    o.algorithm = c.algorithm;
    o.protocol = c.protocol;
    o.protocolLatency = c.protocolLatency.value_or(false);
    o.bytes = c.bytes;
    o.ranks = c.ranks;
    o.iterations = c.iterations;
    o.chunk = c.chunk;
    o.channels = c.channels;
    o.ncclChannelTuning = c.channelsFromNccl;
    o.gpusPerServer = c.gpusPerServer;
    o.hostRate = c.hostRate;
    o.pxn = c.pxn;
    o.fabric = c.fabric;
    // Other messages on the collective's connections: receives cannot be matched ahead.
    const bool background = !c.background.empty() && c.background != "none";
    o.matchInAdvance = !background && c.flows.empty();
    o.fastForward = c.fastForward && FastForwardSetup::InactiveReason(c).empty();
    return o;
}

void
WorkloadOptions::ResolveCollectiveDefaults(ScenarioConfig& c)
{
    if (c.gpusPerServer <= 1 || !CollectiveWorkload::Handles(c.workload) || c.IsGiven("algorithm"))
    {
        return;
    }
    c.algorithm = "auto";
    if (!c.IsGiven("protocol"))
    {
        c.protocol = "auto";
    }
}

TrainingWorkload::Options
WorkloadOptions::Training(const ScenarioConfig& c)
{
    TrainingWorkload::Options o;
    o.file = c.training;
    o.iterations = c.iterations;
    o.algorithm = c.algorithm;
    o.chunk = c.chunk;
    // '' (the runner's 2) on GPU servers: NCCL's channels per communicator and call
    o.channels = c.channelsFromNccl && c.gpusPerServer > 1 ? std::nullopt : c.channels;
    o.gpusPerServer = c.gpusPerServer;
    o.pxn = c.pxn;
    o.hostRate = c.hostRate;
    o.fastForward = c.fastForward && FastForwardSetup::InactiveReason(c).empty();
    return o;
}

FlowWorkload::Options
WorkloadOptions::Flows(const ScenarioConfig& c)
{
    FlowWorkload::Options o;
    o.background = c.background;
    o.load = c.load;
    o.hostRate = c.hostRate;
    o.flows = c.flows;
    o.stopTime = c.stopTime;
    o.priority = c.priority;
    o.out = c.out;
    return o;
}

PointToPointOptions
WorkloadOptions::PointToPoint(const ScenarioConfig& c)
{
    PointToPointOptions o;
    o.bytes = c.bytes;
    o.fanin = c.fanin;
    return o;
}

void
WorkloadOptions::AsConfigError(const std::function<void()>& step)
{
    try
    {
        step();
    }
    catch (const ConfigError&)
    {
        throw;
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(e.what());
    }
}

// The overloads of the workloads' public API that took a ScenarioConfig (deprecated in
// favour of the options above). They live here, in the scenario layer, so that helper/
// needs no header of helper/scenario/; they throw ConfigError, as they did.

uint32_t
CollectiveWorkload::ChannelsFor(const ScenarioConfig& config)
{
    return ChannelsFor(WorkloadOptions::Collective(config));
}

NcclTuner::Topology
CollectiveWorkload::TunerTopology(const ScenarioConfig& config, uint32_t ranks)
{
    return TunerTopology(WorkloadOptions::Collective(config), ranks);
}

void
CollectiveWorkload::Setup(const ScenarioConfig& config, Ptr<RdmaFabric> fabric)
{
    WorkloadOptions::AsConfigError([&]() { Setup(WorkloadOptions::Collective(config), fabric); });
}

void
TrainingWorkload::Setup(const ScenarioConfig& config, Ptr<RdmaFabric> fabric)
{
    WorkloadOptions::AsConfigError([&]() { Setup(WorkloadOptions::Training(config), fabric); });
}

void
FlowWorkload::Install(const ScenarioConfig& config, Ptr<RdmaFabric> fabric)
{
    WorkloadOptions::AsConfigError([&]() { Install(WorkloadOptions::Flows(config), fabric); });
}

} // namespace ns3
