/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The same ring allreduce on the same k=4 fat-tree (16 hosts, 100 Gb/s, 1 us
 * cables, ECMP / Subnet Manager min-hop LFTs, no congestion control) on RoCEv2 and
 * on InfiniBand, printed side by side: duration, nccl-tests algbw and busbw, what
 * each fabric's lossless mechanism did (PFC pause frames; IB credit stalls and
 * flow-control packets), drops and retransmissions.
 *
 *   allreduce-rocev2-vs-infiniband [--bytes=4MiB] [--algorithm=ring] [--mtu=4096]
 *
 * Both fabrics carry the same payload per packet (--mtu). What differs is the
 * framing (RoCEv2: Ethernet + IPv4 + UDP + BTH + ICRC + FCS, preamble and gap; IB:
 * LRH + BTH + ICRC + VCRC), the switches (RoCEv2 store-and-forward with a shared
 * buffer and PFC; IB cut-through with per-VL credits) and so the per-step latency.
 */
#include "ns3/collective-workload.h"
#include "ns3/command-line.h"
#include "ns3/fat-tree-topology-helper.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-net-device.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/route-table.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/size-parser.h"
#include "ns3/uinteger.h"

#include <cstdio>

using namespace ns3;

namespace
{

/// What one run reports.
struct FabricResult
{
    CollectiveRecord record;
    RdmaFabric::Counters counters;
    uint64_t creditStalls{0}; //!< IB: times a head packet waited for credits
};

/// One allreduce of `bytes` per rank on a fresh k=4 fat-tree on one fabric.
FabricResult
RunOne(bool infiniband, const std::string& algorithm, uint64_t bytes, uint32_t mtu)
{
    Ptr<FatTreeTopologyHelper> ft = CreateObject<FatTreeTopologyHelper>();
    ft->SetAttribute("K", UintegerValue(4));
    Ptr<TopologyGraph> g = ft->Build();
    Ptr<RouteTable> routes = RoutingEngine::BuildTable(RoutingEngine::AutoName(*g), g);
    Ptr<RdmaFabric> fabric;
    Ptr<IbFabric> ib;
    if (infiniband)
    {
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(mtu));
        ib = helper.Install(g, routes);
        fabric = ib;
    }
    else
    {
        RoceFabricHelper helper;
        helper.SetNicAttribute("Mtu", UintegerValue(mtu));
        fabric = helper.Install(g, routes);
    }

    CollectiveWorkload::Options c;
    c.operation = "allreduce";
    c.algorithm = algorithm;
    c.bytes = bytes;
    c.ranks = 0; // every host
    c.iterations = 1;
    Ptr<CollectiveWorkload> w = CreateObject<CollectiveWorkload>();
    w->Setup(c, fabric);
    w->Start();
    Simulator::Stop(Seconds(10));
    Simulator::Run();
    NS_ABORT_MSG_IF(!w->IsFinished(),
                    "the allreduce did not finish on " << (infiniband ? "InfiniBand" : "RoCEv2"));
    FabricResult r;
    r.record = w->GetApplication()->GetRecords().back();
    r.counters = fabric->GetCounters();
    if (ib)
    {
        for (const auto& dev : ib->GetAllDevices())
        {
            r.creditStalls += dev->GetCreditStalls();
        }
    }
    w->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    return r;
}

void
Row(const char* name, const std::string& roce, const std::string& ib)
{
    std::printf("%-28s %16s %16s\n", name, roce.c_str(), ib.c_str());
}

std::string
Fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
    return buf;
}

std::string
Count(uint64_t v)
{
    return std::to_string(v);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string bytesText = "4MiB";
    std::string algorithm = "ring";
    uint32_t mtu = 4096;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes per rank (KiB/MiB or KB/MB suffixes)", bytesText);
    cmd.AddValue("algorithm", "allreduce algorithm: ring, tree, hd or 2d", algorithm);
    cmd.AddValue("mtu", "RDMA payload bytes per packet on both fabrics (IB: 256..4096)", mtu);
    cmd.Parse(argc, argv);

    // Picosecond resolution: a byte at 100 Gb/s is 80 ps.
    Time::SetResolution(Time::PS);
    const uint64_t bytes = ParseByteSize(bytesText);
    FabricResult roce = RunOne(false, algorithm, bytes, mtu);
    FabricResult ib = RunOne(true, algorithm, bytes, mtu);

    std::printf("# %s allreduce of %llu bytes per rank, 16 ranks, k=4 fat-tree, 100 Gb/s, "
                "MTU %u\n",
                algorithm.c_str(),
                static_cast<unsigned long long>(bytes),
                mtu);
    Row("", "RoCEv2", "InfiniBand");
    Row("duration (us)",
        Fixed(roce.record.durationNs / 1e3, 2),
        Fixed(ib.record.durationNs / 1e3, 2));
    Row("algbw (GB/s)", Fixed(roce.record.algbwGBps, 2), Fixed(ib.record.algbwGBps, 2));
    Row("busbw (GB/s)", Fixed(roce.record.busbwGBps, 2), Fixed(ib.record.busbwGBps, 2));
    Row("PFC pause frames", Count(roce.counters.pfcPausesSent), "-");
    Row("PFC resume frames", Count(roce.counters.pfcResumesSent), "-");
    Row("credit stalls", "-", Count(ib.creditStalls));
    Row("flow-control packets", "-", Count(ib.counters.creditUpdates));
    Row("lossless drops", Count(roce.counters.losslessDrops), Count(ib.counters.losslessDrops));
    Row("lossy drops", Count(roce.counters.lossyDrops), Count(ib.counters.lossyDrops));
    Row("retransmitted packets",
        Count(roce.counters.retransmittedPackets),
        Count(ib.counters.retransmittedPackets));
    Row("timeouts", Count(roce.counters.timeouts), Count(ib.counters.timeouts));
    Row("packet hops", Count(roce.counters.packetHops), Count(ib.counters.packetHops));
    Row("wire bytes (MB)",
        Fixed(roce.counters.txBytes / 1e6, 3),
        Fixed(ib.counters.txBytes / 1e6, 3));
    std::printf("# IB / RoCEv2 duration: %.3f\n",
                roce.record.durationNs ? double(ib.record.durationNs) / roce.record.durationNs
                                       : 0.0);
    return 0;
}
