/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Two long flows into one 100 Gb/s port (a dumbbell: hosts 0 and 1 and the
 * receiver 2 on one switch, 1 us cables). With a congestion controller the two
 * flows should share the port fairly (50 Gb/s of wire each) and keep the queue
 * short enough that PFC rarely or never pauses; without one ("none") the queue
 * fills to the PFC threshold and the port is held by pause frames.
 *
 *   dcqcn-fairness [--cc=dcqcn|swift|none] [--preset=NAME] [--stop=10ms]
 *                  [--start-gap=0s] [--interval=10us] [--out=dcqcn-fairness]
 *
 * Writes OUT.dat (one row per interval: time, each flow's delivered payload rate,
 * each flow's controller rate (DCQCN) or window (Swift), the bottleneck queue) and
 * OUT.png (gnuplot, two panels) and prints each flow's rate over the last 20% of
 * the run, the pause frames and the ECN/CNP counts.
 */
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/swift-congestion-control.h"
#include "ns3/topology-graph.h"

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/// What the sampler reads every interval.
struct Probe
{
    Ptr<RoceFabric> fabric;
    Ptr<RoceSwitch> sw;
    uint32_t port{0};
    uint32_t receiver{0};
    std::vector<uint32_t> senders;
    std::vector<Time> starts;
    std::string cc;
    Time interval;
    std::vector<uint64_t> lastBytes;
    std::ofstream dat;
};

Ptr<RdmaQueuePair>
FindQp(Ptr<RoceFabric> fabric, uint32_t host, uint32_t peer)
{
    for (const auto& qp : fabric->GetNic(host)->GetQueuePairs())
    {
        if (qp->GetPeerHost() == peer)
        {
            return qp;
        }
    }
    return nullptr;
}

void
Sample(Probe* p)
{
    Time now = Simulator::Now();
    p->dat << std::fixed << std::setprecision(3) << now.GetMicroSeconds();
    std::vector<double> ctl;
    for (uint32_t i = 0; i < p->senders.size(); ++i)
    {
        Ptr<RdmaQueuePair> rx = FindQp(p->fabric, p->receiver, p->senders[i]);
        uint64_t bytes = rx ? rx->GetDeliveredBytes() : 0;
        double gbps = (bytes - p->lastBytes[i]) * 8.0 / p->interval.GetSeconds() / 1e9;
        p->lastBytes[i] = bytes;
        p->dat << " " << gbps;
        Ptr<RdmaQueuePair> tx = FindQp(p->fabric, p->senders[i], p->receiver);
        double c = 0;
        if (tx && tx->GetCongestionControl())
        {
            Ptr<RdmaCongestionControl> cc = tx->GetCongestionControl();
            Ptr<SwiftCongestionControl> swift = DynamicCast<SwiftCongestionControl>(cc);
            c = swift ? swift->GetCwnd() : cc->GetRate().GetBitRate() / 1e9;
        }
        ctl.push_back(c);
    }
    for (double c : ctl)
    {
        p->dat << " " << c;
    }
    p->dat << " " << p->sw->GetQueueBytes(p->port, 3) / 1000.0 << "\n";
    Simulator::Schedule(p->interval, &Sample, p);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string cc = "dcqcn";
    std::string preset;
    Time stop = MilliSeconds(10);
    Time startGap = Seconds(0);
    Time interval = MicroSeconds(10);
    std::string out = "dcqcn-fairness";
    bool plot = true;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "congestion control: dcqcn, swift or none", cc);
    cmd.AddValue("preset", "preset of the algorithm (empty = its default)", preset);
    cmd.AddValue("stop", "simulated time", stop);
    cmd.AddValue("start-gap", "the second flow starts this long after the first", startGap);
    cmd.AddValue("interval", "sampling interval", interval);
    cmd.AddValue("out", "output prefix: OUT.dat, OUT.gp, OUT.png", out);
    cmd.AddValue("plot", "run gnuplot on OUT.gp", plot);
    cmd.Parse(argc, argv);
    Time::SetResolution(Time::PS);

    // Dumbbell: hosts 0, 1 (senders) and 2 (receiver) on one switch.
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    uint32_t s = g->AddSwitch();
    std::vector<uint32_t> hostNodes;
    for (uint32_t i = 0; i < 3; ++i)
    {
        uint32_t h = g->AddHost();
        g->AddLink(h, s, DataRate("100Gbps"), MicroSeconds(1));
        hostNodes.push_back(h);
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
        if (ports[i].peer == hostNodes[2])
        {
            probe.port = i;
        }
    }
    probe.receiver = 2;
    probe.senders = {0, 1};
    probe.starts = {Seconds(0), startGap};
    probe.cc = cc;
    probe.interval = interval;
    probe.lastBytes.assign(2, 0);
    probe.dat.open(out + ".dat");
    probe.dat << "# time_us flow0_gbps flow1_gbps "
              << (cc == "swift" ? "cwnd0_pkts cwnd1_pkts" : "rate0_gbps rate1_gbps")
              << " queue_kb\n";

    // Long enough never to finish: line rate for the whole run.
    uint64_t bytes = static_cast<uint64_t>(stop.GetSeconds() * 100e9 / 8) + 1000000;
    for (uint32_t i = 0; i < 2; ++i)
    {
        ScheduleLambda(probe.starts[i],
                       [fabric, i, bytes]() { fabric->PostWrite(i, 2, bytes, i, 0); });
    }
    Simulator::Schedule(interval, &Sample, &probe);

    // Rate over the last 20% of the run, from the receiver's delivered bytes. Integer
    // arithmetic: ns-3.31 has no Time * double and would convert 0.8 to 0.
    Time windowStart = stop * 4 / 5;
    std::vector<uint64_t> atWindow(2, 0);
    ScheduleLambda(windowStart, [&]() {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RdmaQueuePair> rx = FindQp(fabric, 2, i);
            atWindow[i] = rx ? rx->GetDeliveredBytes() : 0;
        }
    });
    Simulator::Stop(stop);
    Simulator::Run();

    RdmaFabric::Counters k = fabric->GetCounters();
    std::cout << "cc=" << cc << " preset=" << (preset.empty() ? "(default)" : preset)
              << " stop=" << stop.As(Time::MS) << std::endl;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RdmaQueuePair> rx = FindQp(fabric, 2, i);
        uint64_t b = rx ? rx->GetDeliveredBytes() : 0;
        double gbps = (b - atWindow[i]) * 8.0 / (stop - windowStart).GetSeconds() / 1e9;
        std::cout << "flow " << i << ": " << gbps << " Gb/s of payload over the last "
                  << (stop - windowStart).As(Time::MS) << " (" << gbps * 1082 / 1000
                  << " Gb/s of wire)" << std::endl;
    }
    std::cout << "pause frames " << k.pfcPausesSent << ", resume frames " << k.pfcResumesSent
              << ", ECN marks " << k.ecnMarks << ", CNPs " << k.cnpsSent << ", drops "
              << k.losslessDrops + k.lossyDrops << std::endl;
    probe.dat.close();
    Simulator::Destroy();

    std::ofstream gp(out + ".gp");
    bool swift = cc == "swift";
    gp << "set terminal pngcairo size 1000,750\n"
       << "set output '" << out << ".png'\n"
       << "set multiplot layout 2,1 title '" << cc << " fairness: 2 flows into one 100G port'\n"
       << "set grid\nset xlabel 'time (us)'\n"
       << "set ylabel 'Gb/s'\n"
       << "set yrange [0:*]\n";
    if (swift)
    {
        gp << "set y2label 'cwnd (packets)'\nset y2tics\nset y2range [0:*]\n"
           << "plot '" << out << ".dat' u 1:2 w l t 'flow 0 delivered', '' u 1:3 w l t "
           << "'flow 1 delivered', '' u 1:4 axes x1y2 w l t 'flow 0 cwnd', '' u 1:5 axes "
           << "x1y2 w l t 'flow 1 cwnd'\n"
           << "unset y2label\nunset y2tics\n";
    }
    else
    {
        gp << "plot '" << out << ".dat' u 1:2 w l t 'flow 0 delivered', '' u 1:3 w l t "
           << "'flow 1 delivered', '' u 1:4 w l lw 2 t 'flow 0 rate RC', '' u 1:5 w l lw 2 "
           << "t 'flow 1 rate RC'\n";
    }
    gp << "set ylabel 'queue (KB)'\n"
       << "plot '" << out << ".dat' u 1:6 w l t 'bottleneck queue'\n"
       << "unset multiplot\n";
    gp.close();
    if (plot)
    {
        std::string c = "gnuplot " + out + ".gp";
        if (std::system(c.c_str()) != 0)
        {
            std::cerr << "gnuplot failed (is gnuplot with pngcairo installed?); data in " << out
                      << ".dat" << std::endl;
        }
    }
    return 0;
}
