/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A program written against the module's public names before they were renamed
 * (CHANGES.md, "Deprecated"). test/python/test_deprecated_api.py compiles it against
 * the build's headers and asserts that every line marked "// OLD: <name>" draws a
 * -Wdeprecated-declarations warning naming <name>, that no other line does (code using
 * the new names, copies and aggregate initialisation of the same structs stay
 * silent), and that the program prints "old names: all checks passed": the old names
 * read and write what they always did.
 */
#include "ns3/collective-metrics.h"
#include "ns3/collective-workload.h"
#include "ns3/config-error.h"
#include "ns3/core-module.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/routing-engine.h"
#include "ns3/scenario-config.h"
#include "ns3/topology-graph.h"
#include "ns3/workload-options.h"

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

int g_failures = 0;

void
Check(bool ok, const std::string& what)
{
    std::cout << (ok ? "ok: " : "FAILED: ") << what << std::endl;
    g_failures += ok ? 0 : 1;
}

/// CollectiveRecord as it was laid out before the aliases (same members, same order).
struct RecordBefore
{
    uint64_t opId;
    std::string operation;
    std::string algorithm;
    uint32_t job;
    uint32_t iteration;
    uint32_t ranks;
    uint64_t bytes;
    int64_t startNs;
    int64_t endNs;
    int64_t durationNs;
    double algbwGBps;
    double busbwGBps;
};

void
CollectiveRecordNames()
{
    // 1 GB in 1 s on 8 ranks: algbw 1 GB/s, busbw 2 (8-1)/8 = 1.75 GB/s (nccl-tests)
    CollectiveRecord r = CollectiveMetrics::MakeRecord(0,
                                                       CollectiveOp::ALLREDUCE,
                                                       "ring",
                                                       0,
                                                       0,
                                                       8,
                                                       1000000000,
                                                       0,
                                                       1000000000);
    const double algbw = r.algbwGbps; // OLD: algbwGbps
    const double busbw = r.busbwGbps; // OLD: busbwGbps
    Check(algbw == 1.0 && algbw == r.algbwGBps, "algbwGbps reads the record's GB/s (1)");
    Check(busbw == 1.75 && busbw == r.busbwGBps, "busbwGbps reads the record's GB/s (1.75)");
    r.algbwGbps = 3.5; // OLD: algbwGbps
    r.busbwGbps = 6.0; // OLD: busbwGbps
    Check(r.algbwGBps == 3.5 && r.busbwGBps == 6.0, "writes through the old names land");

    // New code: copies, aggregate initialisation and the size are those of the
    // record without aliases (none of these lines may warn).
    CollectiveRecord copy = r;
    Check(copy.algbwGBps == 3.5 && copy.busbwGBps == 6.0, "a copy carries both values");
    CollectiveRecord init{1, "allreduce", "ring", 0, 0, 8, 64, 0, 10, 10, 6.4, 11.2};
    Check(init.algbwGBps == 6.4 && init.busbwGBps == 11.2, "aggregate initialisation");
    Check(sizeof(CollectiveRecord) == sizeof(RecordBefore), "sizeof(CollectiveRecord) unchanged");
    std::vector<CollectiveRecord> records(3, init);
    Check(records.back().busbwGBps == 11.2, "records in a vector");
}

/// A 7-to-1 incast of 1 MB each on one RoCEv2 switch with a 1 MiB buffer: PFC pauses.
void
PauseFrameNames()
{
    Time::SetResolution(Time::PS);
    Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(1 << 20));
    const uint32_t hosts = 8;
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (uint32_t i = 0; i < hosts; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    RoceFabricHelper helper;
    Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
    for (uint32_t src = 1; src < hosts; ++src)
    {
        fabric->PostWrite(src, 0, 1000000, src, 0);
    }
    Simulator::Run();

    RdmaFabric::Counters c = fabric->GetCounters(); // (new code: no warning)
    RdmaFabric::Counters made;                      // (its constructor: no warning)
    const uint64_t frames = c.pauseFramesSent;      // OLD: pauseFramesSent
    std::cout << "PFC pauses " << c.pfcPausesSent << ", resumes " << c.pfcResumesSent
              << ", pauseFramesSent " << frames << std::endl;
    Check(c.pfcPausesSent > 0 && c.pfcResumesSent > 0, "the incast pauses and resumes");
    Check(frames == c.pfcPausesSent + c.pfcResumesSent,
          "Counters::pauseFramesSent counts pauses and resumes, as before");
    Check(made.pauseFramesSent == 0, "a default Counters holds 0"); // OLD: pauseFramesSent

    uint64_t sent = 0;
    uint64_t received = 0;
    uint64_t sentNew = 0;
    uint64_t receivedNew = 0;
    for (const Ptr<RoceNetDevice>& dev : fabric->GetAllDevices())
    {
        sent += dev->GetPauseFramesSent();         // OLD: GetPauseFramesSent
        received += dev->GetPauseFramesReceived(); // OLD: GetPauseFramesReceived
        sentNew += dev->GetPfcPausesSent() + dev->GetPfcResumesSent();
        receivedNew += dev->GetPfcPausesReceived() + dev->GetPfcResumesReceived();
    }
    std::cout << "devices: GetPauseFramesSent " << sent << ", GetPauseFramesReceived " << received
              << std::endl;
    Check(sent == sentNew && sent == frames, "GetPauseFramesSent: pauses and resumes sent");
    Check(received == receivedNew && received == sent,
          "GetPauseFramesReceived: pauses and resumes received (every one arrives)");
    Simulator::Destroy();
}

void
ScenarioConfigNames()
{
    ScenarioConfig ok;
    bool threw = false;
    try
    {
        ok.ValidateTopologyFlags(); // OLD: ValidateTopologyFlags
    }
    catch (const ConfigError&)
    {
        threw = true;
    }
    Check(!threw, "ValidateTopologyFlags accepts the defaults");

    ScenarioConfig bad;
    bad.topology = "leafspine";
    bad.k = 8; // sizes fat-trees only
    std::string oldMessage;
    std::string newMessage;
    try
    {
        bad.ValidateTopologyFlags(); // OLD: ValidateTopologyFlags
    }
    catch (const ConfigError& e)
    {
        oldMessage = e.what();
    }
    try
    {
        bad.ValidateApplicableFlags();
    }
    catch (const ConfigError& e)
    {
        newMessage = e.what();
    }
    std::cout << "ValidateTopologyFlags: " << oldMessage << std::endl;
    Check(!oldMessage.empty() && oldMessage == newMessage,
          "ValidateTopologyFlags refuses --k on a leaf-spine as ValidateApplicableFlags does");
}

void
WorkloadConfigNames()
{
    // The workloads took a ScenarioConfig before they took their own options.
    ScenarioConfig c;
    c.gpusPerServer = 8;
    const uint32_t old = CollectiveWorkload::ChannelsFor(c); // OLD: ChannelsFor
    const uint32_t now = CollectiveWorkload::ChannelsFor(WorkloadOptions::Collective(c));
    Check(old == now && old > 0, "ChannelsFor(ScenarioConfig) gives what the options give");
    const NcclTuner::Topology t = CollectiveWorkload::TunerTopology(c, 16); // OLD: TunerTopology
    const NcclTuner::Topology u =
        CollectiveWorkload::TunerTopology(WorkloadOptions::Collective(c), 16);
    Check(t.ranks == u.ranks && t.gpusPerServer == u.gpusPerServer && t.channels == u.channels,
          "TunerTopology(ScenarioConfig) gives what the options give");
}

} // namespace

int
main(int argc, char* argv[])
{
    CommandLine cmd(__FILE__);
    cmd.Parse(argc, argv);
    CollectiveRecordNames();
    PauseFrameNames();
    ScenarioConfigNames();
    WorkloadConfigNames();
    if (g_failures != 0)
    {
        std::cout << "old names: " << g_failures << " check(s) failed" << std::endl;
        return 1;
    }
    std::cout << "old names: all checks passed" << std::endl;
    return 0;
}
