/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A program outside the module's tree, built against an installed ai-fabric (with
 * find_package or with pkg-config): one RDMA WRITE of 1,000,000 bytes between two
 * hosts on one RoCEv2 switch (100 Gb/s, 1 us cables, the switch's default 300 ns
 * cut-through), printing its completion time. test/python/test_install.py builds and
 * runs it and checks the figure against the closed form.
 *
 * It includes the umbrella header alone (plus ns-3's core), so it also checks that
 * ns3/ai-fabric-module.h compiles on its own.
 */
#include "ns3/ai-fabric-module.h"
#include "ns3/core-module.h"

#include <iostream>

using namespace ns3;

namespace
{
Time g_fct;

void
MessageDone(const RdmaFabric::MessageRecord& r)
{
    g_fct = r.end - r.start;
}
} // namespace

int
main(int argc, char* argv[])
{
    CommandLine cmd(__FILE__);
    cmd.Parse(argc, argv);
    Time::SetResolution(Time::PS); // the module's time steps are picoseconds

    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (int i = 0; i < 2; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    RoceFabricHelper helper;
    Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
    fabric->AddMessageCallback(MakeCallback(&MessageDone));
    fabric->PostWrite(0, 1, 1000000, 7, 0);
    Simulator::Run();
    Simulator::Destroy();
    std::cout << "write 1000000 bytes: " << g_fct.GetPicoSeconds() << " ps" << std::endl;
    return 0;
}
