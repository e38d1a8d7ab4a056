/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An nccl-tests style table (all_reduce_perf -b 1K -e 64M -f 2) measured on a
 * packet-level RoCEv2 fabric: a k=4 fat-tree (16 hosts, 100 Gb/s, 1 us cables,
 * PFC on, no congestion control), one collective per size on all 16 hosts,
 * through the same CollectiveWorkload the scenario runner uses.
 *
 *   nccl-allreduce-table [--algorithm=ring|tree|hd|2d] [--workload=allreduce]
 *                        [--min-bytes=1KiB] [--max-bytes=64MiB] [--mtu=4096]
 *
 * Columns as nccl-tests prints them: size (bytes per rank), count (float
 * elements), time (us), algbw and busbw in GB/s (1e9 bytes/s; collective.csv
 * holds the same values x 8, in Gbit/s). busbw of a ring allreduce approaches
 * the link's payload goodput, 100 x 4096/4178 = 98.0 Gb/s = 12.25 GB/s.
 *
 * The default stops at 64 MiB (about a minute on one busy core). The full nccl-tests
 * sweep is --max-bytes=1GiB (several minutes per size above 256 MiB).
 */
#include "ns3/collective-workload.h"
#include "ns3/command-line.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/size-parser.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <iostream>

using namespace ns3;

namespace
{

/// One collective of `bytes` per rank on a fresh k=4 fat-tree; the finished record.
CollectiveRecord
RunOne(const std::string& workload, const std::string& algorithm, uint64_t bytes, uint32_t mtu)
{
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> g = ft->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable(RoutingEngine::AutoName(*g), g);
    RoceFabricHelper helper;
    helper.SetNicAttribute("Mtu", UintegerValue(mtu));
    Ptr<RoceFabric> fabric = helper.Install(g, routes);

    CollectiveWorkload::Options c;
    c.operation = workload;
    c.algorithm = algorithm;
    c.bytes = bytes;
    c.ranks = 0; // every host
    c.iterations = 1;
    Ptr<CollectiveWorkload> w = CreateObject<CollectiveWorkload>();
    w->Setup(c, fabric);
    w->Start();
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    NS_ABORT_MSG_IF(!w->IsFinished(), "the collective of " << bytes << " bytes did not finish");
    CollectiveRecord r = w->GetApplication()->GetRecords().back();
    w->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string workload = "allreduce";
    std::string algorithm = "ring";
    std::string minBytes = "1KiB";
    std::string maxBytes = "64MiB";
    uint32_t mtu = 4096;
    CommandLine cmd(__FILE__);
    cmd.AddValue("workload", "allreduce, reducescatter or allgather", workload);
    cmd.AddValue("algorithm", "ring, tree, hd or 2d (allreduce); ring otherwise", algorithm);
    cmd.AddValue("min-bytes", "smallest size per rank (nccl-tests -b)", minBytes);
    cmd.AddValue("max-bytes", "largest size per rank (nccl-tests -e); 1GiB = full sweep", maxBytes);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", mtu);
    cmd.Parse(argc, argv);

    // Picosecond resolution: a byte at 100 Gb/s is 80 ps.
    Time::SetResolution(Time::PS);
    uint64_t lo = ParseByteSize(minBytes);
    uint64_t hi = ParseByteSize(maxBytes);

    std::printf("# %s, algorithm %s, 16 ranks on a k=4 fat-tree, 100 Gb/s, MTU %u\n",
                workload.c_str(),
                algorithm.c_str(),
                mtu);
    std::printf("#%11s %12s %6s %6s %10s %8s %8s\n",
                "size",
                "count",
                "type",
                "redop",
                "time",
                "algbw",
                "busbw");
    std::printf("#%11s %12s %6s %6s %10s %8s %8s\n",
                "(B)",
                "(elements)",
                "",
                "",
                "(us)",
                "(GB/s)",
                "(GB/s)");
    double busSum = 0;
    uint32_t rows = 0;
    for (uint64_t s = lo; s <= hi; s *= 2)
    {
        CollectiveRecord r = RunOne(workload, algorithm, s, mtu);
        std::printf(" %11llu %12llu %6s %6s %10.2f %8.2f %8.2f\n",
                    static_cast<unsigned long long>(s),
                    static_cast<unsigned long long>(s / 4),
                    "float",
                    "sum",
                    r.durationNs / 1e3,
                    r.algbwGBps,
                    r.busbwGBps);
        std::fflush(stdout);
        busSum += r.busbwGBps;
        rows++;
    }
    std::printf("# Avg bus bandwidth    : %g GB/s\n", rows ? busSum / rows : 0.0);
    return 0;
}
