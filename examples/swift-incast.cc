/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An N-to-1 incast (default 64 senders, one switch, 100 Gb/s, 1 us cables): every
 * sender writes BYTES to the same receiver at once. Swift should hold the
 * receiver port's queue near its flow-scaled target delay and need no PFC pause.
 * The windows settle where 64 x cwnd x wire bytes = line rate x target: about 3.3
 * packets with 1 KB packets and about 1.15 with 4 KB; pacing below one packet per
 * RTT (cwnd < 1) needs 4 KB packets and a 5 us BaseTarget (fixed point ~0.7), as
 * test/congestion-control-fabric-test-suite.cc shows (doc/swift.md).
 * DCQCN (--cc=dcqcn) shows the rate-based alternative.
 *
 *   swift-incast [--cc=swift|dcqcn|none] [--preset=NAME] [--senders=64]
 *                [--bytes=250000] [--interval=1us] [--measure-from=200us]
 *                [--out=swift-incast]
 *
 * Writes OUT.dat (time, queue KB, queue delay us, flow 0's cwnd (Swift) or rate
 * (DCQCN), the smallest cwnd/rate of all flows, flow 0's target delay, delivered
 * Gb/s) and OUT.png, and prints the queue-delay percentiles between
 * --measure-from and the first completion, the smallest window, pause frames
 * and drops.
 */
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/swift-congestion-control.h"
#include "ns3/topology-graph.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

struct Probe
{
    Ptr<RoceFabric> fabric;
    Ptr<RoceSwitch> sw;
    uint32_t port{0};
    uint32_t receiver{0};
    uint32_t senders{0};
    Time interval;
    Time measureFrom;
    Time firstDone = Time::Max();
    bool swift{false};
    uint64_t lastBytes{0};
    double minCwnd{std::numeric_limits<double>::max()};
    std::vector<Ptr<RdmaCongestionControl>> ccs;
    std::vector<Ptr<RdmaQueuePair>> rx;
    std::vector<double> delaysUs; //!< queue delay samples inside the measurement window
    std::ofstream dat;
};

void
OnCwnd(Probe* p, double /* old */, double now)
{
    p->minCwnd = std::min(p->minCwnd, now);
}

void
Sample(Probe* p)
{
    Time now = Simulator::Now();
    uint64_t q = p->sw->GetQueueBytes(p->port, 3);
    double rate = p->sw->GetPort(p->port)->GetDataRate().GetBitRate();
    double delayUs = q * 8.0 / rate * 1e6;
    if (now >= p->measureFrom && now < p->firstDone)
    {
        p->delaysUs.push_back(delayUs);
    }
    double c0 = 0;
    double cmin = std::numeric_limits<double>::max();
    double target0 = 0;
    for (uint32_t i = 0; i < p->ccs.size(); ++i)
    {
        Ptr<SwiftCongestionControl> s = DynamicCast<SwiftCongestionControl>(p->ccs[i]);
        double c = s ? s->GetCwnd() : p->ccs[i]->GetRate().GetBitRate() / 1e9;
        if (i == 0)
        {
            c0 = c;
            target0 =
                s ? s->GetTargetDelay(s->GetFabricCwnd(), s->GetContext().hops).GetMicroSeconds()
                  : 0;
        }
        cmin = std::min(cmin, c);
    }
    uint64_t bytes = 0;
    for (const auto& qp : p->rx)
    {
        bytes += qp->GetDeliveredBytes();
    }
    double gbps = (bytes - p->lastBytes) * 8.0 / p->interval.GetSeconds() / 1e9;
    p->lastBytes = bytes;
    p->dat << std::fixed << std::setprecision(4) << now.GetNanoSeconds() / 1000.0 << " "
           << q / 1000.0 << " " << delayUs << " " << c0 << " " << cmin << " " << target0 << " "
           << gbps << "\n";
    if (p->fabric->GetPendingMessages() > 0)
    {
        Simulator::Schedule(p->interval, &Sample, p);
    }
}

double
Percentile(std::vector<double> v, double pct)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    std::size_t i = static_cast<std::size_t>(pct / 100.0 * (v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string cc = "swift";
    std::string preset;
    uint32_t senders = 64;
    uint64_t bytes = 250000;
    Time interval = MicroSeconds(1);
    Time measureFrom = MicroSeconds(200);
    std::string out = "swift-incast";
    bool plot = true;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "congestion control: swift, dcqcn or none", cc);
    cmd.AddValue("preset", "preset of the algorithm (empty = its default)", preset);
    cmd.AddValue("senders", "number of senders", senders);
    cmd.AddValue("bytes", "bytes each sender writes", bytes);
    cmd.AddValue("interval", "queue sampling interval", interval);
    cmd.AddValue("measure-from",
                 "queue statistics start here (after the start-up burst)",
                 measureFrom);
    cmd.AddValue("out", "output prefix: OUT.dat, OUT.gp, OUT.png", out);
    cmd.AddValue("plot", "run gnuplot on OUT.gp", plot);
    cmd.Parse(argc, argv);
    Time::SetResolution(Time::PS);
    if (senders < 1)
    {
        std::cerr << "error: --senders=" << senders << " must be at least 1" << std::endl;
        return 1;
    }

    // A star: senders 0..N-1 and the receiver N on one switch.
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    uint32_t s = g->AddSwitch();
    uint32_t receiverNode = 0;
    for (uint32_t i = 0; i <= senders; ++i)
    {
        uint32_t h = g->AddHost();
        g->AddLink(h, s, DataRate("100Gbps"), MicroSeconds(1));
        receiverNode = h;
    }
    Ptr<RouteTable> routes = RoutingEngine::BuildTable("ecmp", g);
    RoceFabricHelper helper;
    try
    {
        helper.SetCongestionControl(cc, preset);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    Ptr<RoceFabric> fabric = helper.Install(g, routes);

    Probe probe;
    probe.fabric = fabric;
    probe.sw = fabric->GetSwitches()[0];
    const auto& ports = g->GetPorts(s);
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (ports[i].peer == receiverNode)
        {
            probe.port = i;
        }
    }
    probe.receiver = senders;
    probe.senders = senders;
    probe.interval = interval;
    probe.measureFrom = measureFrom;
    probe.swift = cc == "swift";
    Time lastDone;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&probe, &lastDone](const RdmaFabric::MessageRecord& r) {
            probe.firstDone = std::min(probe.firstDone, r.end);
            lastDone = std::max(lastDone, r.end);
        }));
    for (uint32_t i = 0; i < senders; ++i)
    {
        fabric->PostWrite(i, senders, bytes, i, 0);
    }
    for (uint32_t i = 0; i < senders; ++i)
    {
        for (const auto& qp : fabric->GetNic(i)->GetQueuePairs())
        {
            if (qp->GetPeerHost() == senders)
            {
                probe.ccs.push_back(qp->GetCongestionControl());
                qp->GetCongestionControl()->TraceConnectWithoutContext(
                    "Cwnd",
                    MakeBoundCallback(&OnCwnd, &probe));
            }
        }
        for (const auto& qp : fabric->GetNic(senders)->GetQueuePairs())
        {
            if (qp->GetPeerHost() == i)
            {
                probe.rx.push_back(qp);
            }
        }
    }
    probe.dat.open(out + ".dat");
    probe.dat << "# time_us queue_kb queue_delay_us "
              << (probe.swift ? "cwnd0_pkts min_cwnd_pkts target0_us"
                              : "rate0_gbps min_rate_gbps 0")
              << " delivered_gbps\n";
    Simulator::Schedule(Seconds(0), &Sample, &probe);
    Simulator::Run();

    RdmaFabric::Counters k = fabric->GetCounters();
    double p50 = Percentile(probe.delaysUs, 50);
    double p99 = Percentile(probe.delaysUs, 99);
    double ideal = senders * std::ceil(bytes / 1000.0) * 1082 * 8 / 100e9;
    std::cout << "cc=" << cc << " preset=" << (preset.empty() ? "(default)" : preset) << " "
              << senders << "-to-1 x " << bytes << " B" << std::endl
              << "all done at " << lastDone.As(Time::US) << " (line-rate bound " << ideal * 1e6
              << " us), first at " << probe.firstDone.As(Time::US) << std::endl
              << "bottleneck queue delay from " << measureFrom.As(Time::US)
              << " to the first completion: p50 " << p50 << " us, p99 " << p99 << " us"
              << std::endl;
    if (probe.swift && !probe.ccs.empty())
    {
        Ptr<SwiftCongestionControl> s0 = DynamicCast<SwiftCongestionControl>(probe.ccs[0]);
        std::cout << "smallest cwnd " << probe.minCwnd << " packets; base RTT "
                  << s0->GetContext().baseRtt.As(Time::US)
                  << "; target at cwnd 1 / 0.5 / 0.25: " << s0->GetTargetDelay(1, 1).As(Time::US)
                  << " / " << s0->GetTargetDelay(0.5, 1).As(Time::US) << " / "
                  << s0->GetTargetDelay(0.25, 1).As(Time::US) << std::endl;
    }
    std::cout << "pause frames " << k.pfcPausesSent << ", resume frames " << k.pfcResumesSent
              << ", drops " << k.losslessDrops + k.lossyDrops << ", ECN marks " << k.ecnMarks
              << ", CNPs " << k.cnpsSent << ", timeouts " << k.timeouts << std::endl;
    probe.dat.close();
    Simulator::Destroy();

    std::ofstream gp(out + ".gp");
    gp << "set terminal pngcairo size 1000,750\n"
       << "set output '" << out << ".png'\n"
       << "set multiplot layout 2,1 title '" << cc << ": " << senders
       << "-to-1 incast into one 100G port'\n"
       << "set grid\nset xlabel 'time (us)'\n";
    if (probe.swift)
    {
        gp << "set ylabel 'cwnd (packets)'\nset logscale y\n"
           << "plot '" << out << ".dat' u 1:4 w l t 'flow 0 cwnd', '' u 1:5 w l t "
           << "'smallest cwnd'\nunset logscale y\n"
           << "set ylabel 'delay (us)'\n"
           << "plot '" << out << ".dat' u 1:3 w l t 'bottleneck queue delay', '' u 1:6 w l "
           << "t 'flow 0 fabric target (RTT)'\n";
    }
    else
    {
        gp << "set ylabel 'Gb/s'\n"
           << "plot '" << out << ".dat' u 1:4 w l t 'flow 0 rate', '' u 1:5 w l t "
           << "'smallest rate', '' u 1:7 w l t 'delivered (all flows)'\n"
           << "set ylabel 'delay (us)'\n"
           << "plot '" << out << ".dat' u 1:3 w l t 'bottleneck queue delay'\n";
    }
    gp << "unset multiplot\n";
    gp.close();
    if (plot)
    {
        std::string c = "gnuplot " + out + ".gp";
        if (std::system(c.c_str()) != 0)
        {
            std::cerr << "gnuplot failed; data in " << out << ".dat" << std::endl;
        }
    }
    return 0;
}
