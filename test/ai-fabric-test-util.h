/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the fabric test suites.
 */
#ifndef AI_FABRIC_TEST_UTIL_H
#define AI_FABRIC_TEST_UTIL_H

#include "ns3/boolean.h"
#include "ns3/lambda-callback.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-fabric.h"
#include "ns3/rdma-transport-fields.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/topology-graph.h"

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

namespace ns3
{

/// The path a congestion controller's unit tests start it on: 100 Gb/s, MTU 1000
/// (1082 wire bytes), 8 us base RTT, one switch hop.
inline RdmaCcContext
UnitTestCcContext()
{
    RdmaCcContext ctx;
    ctx.lineRate = DataRate("100Gbps");
    ctx.mtuBytes = 1000;
    ctx.wireBytes = 1082;
    ctx.baseRtt = MicroSeconds(8);
    ctx.hops = 1;
    return ctx;
}

/**
 * Switch ns-3 to picosecond time, as the scenario runner does (at 400 Gb/s a byte
 * is 20 ps). Only before anything has run: ns-3 cannot change resolution later.
 */
inline void
UsePicoseconds()
{
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
}

/**
 * Completion time of one WRITE of \p bytes from host 0 to host 1, the two hosts on one
 * switch (100 Gb/s, 1 us cables), on the fabric \p helper installs (its switch
 * attributes as the caller set them).
 */
template <typename Helper>
Time
OneSwitchWriteTime(const Helper& helper, uint64_t bytes)
{
    UsePicoseconds();
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (int i = 0; i < 2; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    auto fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
    Time fct;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&fct](const RdmaFabric::MessageRecord& r) { fct = r.end - r.start; }));
    fabric->PostWrite(0, 1, bytes, 7, 0);
    Simulator::Run();
    Simulator::Destroy();
    return fct;
}

/// \return a SwitchT's default SwitchLatency and CutThrough (its attributes' defaults).
template <typename SwitchT>
std::pair<Time, bool>
SwitchForwardingDefaults()
{
    TimeValue latency;
    BooleanValue cutThrough;
    Ptr<SwitchT> probe = CreateObject<SwitchT>();
    probe->GetAttribute("SwitchLatency", latency);
    probe->GetAttribute("CutThrough", cutThrough);
    return {latency.Get(), cutThrough.Get()};
}

/**
 * Closed form of OneSwitchWriteTime at rate \p rate (bit/s), cable delay \p d and switch
 * latency \p l (s): with \p total the wire bytes of all packets, \p first those of the
 * first and \p ack an ACK's, store-and-forward is (first + total) / R + L + 2d (the first
 * packet is stored, then the port streams) and the ACK 2 ack / R + L + 2d; cut-through is
 * total / R + L + 2d and ack / R + L + 2d.
 */
inline double
OneSwitchWriteClosedForm(double total,
                         double first,
                         double ack,
                         double rate,
                         double d,
                         double l,
                         bool cutThrough)
{
    return cutThrough ? total * 8 / rate + l + 2 * d + ack * 8 / rate + l + 2 * d
                      : (first + total) * 8 / rate + l + 2 * d + 2 * ack * 8 / rate + l + 2 * d;
}

/**
 * Print one measured figure of doc/validation.md's table as "validation: KEY = VALUE"
 * (6 significant digits); test/python/test_validation_doc.py runs the suite and checks
 * that the table shows this value.
 */
inline void
ReportValidation(const std::string& key, double value)
{
    std::ostringstream line;
    line << "validation: " << key << " = " << std::setprecision(6) << value << "\n";
    std::cout << line.str() << std::flush;
}

/**
 * Draw every field the BTH, RETH, AETH and ImmDt carry into \p f (whatever the opcode:
 * a header that does not carry one ignores it) from \p next, a generator of 24-bit or
 * wider values, in one fixed order: the header round-trip tests of both fabrics.
 */
template <typename Next>
void
DrawTransportFields(RdmaTransportFields& f, Next& next)
{
    f.pKey = next() & 0xFFFF;
    f.fecn = next() & 1;
    f.becn = next() & 1;
    f.destQp = next() & 0xFFFFFF;
    f.ackReq = next() & 1;
    f.psn = next() & 0xFFFFFF;
    f.rethVa = (uint64_t(next()) << 40) ^ next();
    f.rethRKey = next() * 31U;
    f.rethDmaLen = next();
    f.aethSyndrome = next() & 0xFF;
    f.aethMsn = next() & 0xFFFFFF;
    f.imm = next() * 131U;
}

} // namespace ns3

#endif // AI_FABRIC_TEST_UTIL_H
