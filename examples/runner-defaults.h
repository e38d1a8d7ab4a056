/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared by the examples that compare their outputs with ai-fabric-sim's
 * (fabric-failures, fabric-outputs, pfc-storm-watchdog): what the runner sets by default
 * where the models' own defaults differ.
 */
#ifndef RUNNER_DEFAULTS_H
#define RUNNER_DEFAULTS_H

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

/// What ai-fabric-sim sets by default where the models' own defaults differ: its
/// simulator and event list, the seed, an ACK per 10 packets, go-back-N recovery (and,
/// in each program's main, 1000-byte packets and 32 MB switch buffers on RoCEv2: --mtu,
/// --buffer).
inline void
SetRunnerDefaults()
{
    Time::SetResolution(Time::PS); // a byte at 100 Gb/s lasts 80 ps
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabricSimulatorImpl"));
    ObjectFactory scheduler("ns3::TimingWheelScheduler");
    Simulator::SetScheduler(scheduler);
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(10));
    Config::SetDefault("ns3::RdmaQueuePair::Recovery", StringValue("GoBackN"));
}

} // namespace ns3

#endif // RUNNER_DEFAULTS_H
