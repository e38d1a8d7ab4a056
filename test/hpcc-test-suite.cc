/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC (Li et al., SIGCOMM 2019, Algorithm 1) against hand-computed steps:
 * MeasureInflight's per-link u (queue and transmit rate), the most loaded link, the
 * tau/T EWMA; ComputeWind's multiplicative and additive branches, maxStage, per-ACK
 * versus per-RTT reference updates, the clamps and R = W / T. The INT block's bytes
 * (IntHeader): the documented bit layout, the wrap of its counters. The presets and
 * the registry entry.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/congestion-control-registry.h"
#include "ns3/double.h"
#include "ns3/hpcc-congestion-control.h"
#include "ns3/int-header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/// One record: 100 Gb/s, ts (ns), txBytes and qLen in 128-byte units.
struct Rec
{
    uint32_t tsNs;
    uint32_t txUnits;
    uint32_t qlenUnits;
};

IntHeader
Records(std::initializer_list<Rec> hops)
{
    IntHeader h;
    for (const Rec& r : hops)
    {
        IntHop hop;
        hop.Set(100000000000ULL, r.tsNs, uint64_t(r.txUnits) * 128, uint64_t(r.qlenUnits) * 128);
        h.PushHop(hop);
    }
    return h;
}

/// A started controller ('paper': eta 0.95, maxStage 5, W_AI = 40 Mb/s x T) on the
/// unit-test path: 100 Gb/s, T = 8 us, 1000-byte packets of 1082 wire bytes.
Ptr<HpccCongestionControl>
MakeHpcc(double uInit = 0.0)
{
    Ptr<HpccCongestionControl> cc = CreateObject<HpccCongestionControl>();
    // The hand-computed steps start the EWMA at 0 (the default, 1, is asserted apart).
    cc->SetAttribute("InitialUtilization", DoubleValue(uInit));
    cc->Start(UnitTestCcContext());
    return cc;
}

const double TOL = 1e-6; //!< bytes (W) and dimensionless (U)

} // namespace

/// Algorithm 1 step by step on a two-link path (hand-computed figures in comments).
class HpccAlgorithmTest : public TestCase
{
  public:
    HpccAlgorithmTest()
        : TestCase("HPCC: Algorithm 1's MeasureInflight and ComputeWind against hand-computed "
                   "steps (most loaded link, tau over T EWMA, MD, AI, maxStage, per-ACK W)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HpccCongestionControl> cc = MakeHpcc();
        // W_init = 100 Gb/s x 8 us = 100000 B; W_AI = 40 Mb/s x 8 us = 40 B.
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetInitialWindow(), 100000.0, TOL, "W_init = B T");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindowAi(), 40.0, TOL, "W_AI = RateAi T");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 100000000000ULL, "starts at line rate");
        // Payload window: 100000 x 1000 / 1082 = 92421.44 -> 92421.
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 92421, "W in payload bytes");

        // First records: kept, nothing computed.
        bool done = cc->Update(Records({{0, 0, 0}, {0, 0, 100}}), true);
        NS_TEST_ASSERT_MSG_EQ(done, false, "the first ACK's records are only kept");

        // 4 us later (tau = T/2). Link A: 312 units = 39936 B in 4 us = 79.872 Gb/s,
        // u = 0.79872. Link B: 390 units in 4 us = 99.84 Gb/s -> 0.9984, plus
        // min(200, 100) units = 12800 B over B T = 100000 B -> 0.128: u = 1.1264, the
        // max. U = 0.5 x 0 + 0.5 x 1.1264 = 0.5632 < eta: W = W_c + W_AI = 100040,
        // clamped to W_init; incStage 1.
        done = cc->Update(Records({{4000, 312, 0}, {4000, 390, 200}}), true);
        NS_TEST_ASSERT_MSG_EQ(done, true, "computed");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetLastLinkUtilization(), 1.1264, TOL, "u of link B");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetUtilization(), 0.5632, TOL, "U EWMA over tau = T/2");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 100000.0, TOL, "AI, clamped at W_init");
        NS_TEST_ASSERT_MSG_EQ(cc->GetIncStage(), 1, "incStage 1");

        // 8 us later (tau = T). A idle: u = 0. B: 781 units = 99968 B in 8 us ->
        // 0.99968, plus min(200, 200) units = 25600 B -> 0.256: u = 1.25568 = U.
        // U >= eta: W = 100000 x 0.95 / 1.25568 + 40 = 75696.2181; W_c = W, incStage 0.
        cc->Update(Records({{12000, 312, 0}, {12000, 1171, 200}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetUtilization(), 1.25568, TOL, "U = u over tau = T");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 75696.21814475, TOL, "MD: W_c eta / U + W_AI");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetReferenceWindow(), 75696.21814475, TOL, "W_c updated");
        NS_TEST_ASSERT_MSG_EQ(cc->GetIncStage(), 0, "incStage reset");
        // R = W / T = 75696.2181 B / 8 us = 75.6962 Gb/s; payload window x 1000/1082.
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 75696218145ULL, "R = W / T");
        NS_TEST_ASSERT_MSG_EQ(cc->GetWindowBytes(), 69959, "window in payload bytes");

        // A per-ACK update 2 us later (tau = T/4): B sent 195 units (99.84 Gb/s,
        // 0.9984) and its queue drained (min(0, 200) = 0): u = 0.9984. U = 0.75 x
        // 1.25568 + 0.25 x 0.9984 = 1.19136; W = 75696.2181 x 0.95 / 1.19136 + 40 =
        // 60400.7702 from the unchanged W_c.
        cc->Update(Records({{14000, 312, 0}, {14000, 1366, 0}}), false);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetUtilization(), 1.19136, TOL, "U EWMA over tau = T/4");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 60400.77024368, TOL, "per-ACK W");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetReferenceWindow(),
                                  75696.21814475,
                                  TOL,
                                  "per-ACK: W_c unchanged");
        NS_TEST_ASSERT_MSG_EQ(cc->GetIncStage(), 0, "per-ACK: incStage unchanged");

        // Five round trips at u = U = 703 units / 8 us = 0.89984 < eta: additive steps,
        // W_c + 40 each: 75736.2181 ... 75896.2181, incStage 1 ... 5.
        uint32_t ts = 14000;
        uint32_t tx = 1366;
        for (uint32_t i = 1; i <= 5; ++i)
        {
            ts += 8000;
            tx += 703;
            cc->Update(Records({{ts, 312, 0}, {ts, tx, 0}}), true);
            NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetUtilization(), 0.89984, TOL, "U below eta");
            NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(),
                                      75696.21814475 + 40.0 * i,
                                      TOL,
                                      "AI: W_c + W_AI");
            NS_TEST_ASSERT_MSG_EQ(cc->GetIncStage(), i, "incStage counts the AI steps");
        }
        // incStage = maxStage: a multiplicative step although U < eta:
        // W = 75896.2181 x 0.95 / 0.89984 + 40 = 80166.9195 (multiplicative increase).
        ts += 8000;
        tx += 703;
        cc->Update(Records({{ts, 312, 0}, {ts, tx, 0}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 80166.91949404, TOL, "MI after maxStage");
        NS_TEST_ASSERT_MSG_EQ(cc->GetIncStage(), 0, "incStage reset after MI");
        NS_TEST_ASSERT_MSG_EQ(cc->GetReferenceUpdates(), 8, "8 reference updates");
        NS_TEST_ASSERT_MSG_EQ(cc->GetUpdates(), 9, "9 windows computed");

        // The default start, U = 1 (the HPCC simulator's hp.u): the same second record
        // gives U = 0.5 x 1 + 0.5 x 1.1264 = 1.0632 >= eta, a cut at once:
        // W = 100000 x 0.95 / 1.0632 + 40 = 89392.8969 (from 0 it was an AI step).
        Ptr<HpccCongestionControl> fresh = CreateObject<HpccCongestionControl>();
        fresh->Start(UnitTestCcContext());
        NS_TEST_ASSERT_MSG_EQ_TOL(fresh->GetUtilization(), 1.0, TOL, "U starts at 1");
        fresh->Update(Records({{0, 0, 0}, {0, 0, 100}}), true);
        fresh->Update(Records({{4000, 312, 0}, {4000, 390, 200}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(fresh->GetUtilization(), 1.0632, TOL, "U from 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(fresh->GetWindow(),
                                  100000.0 * 0.95 / 1.0632 + 40.0,
                                  TOL,
                                  "a cut at the first update");
    }
};

/// The clamps, a changed path, the 24-bit time wrap, and OnAck's per-RTT gate.
class HpccEdgesTest : public TestCase
{
  public:
    HpccEdgesTest()
        : TestCase("HPCC: W between MinRate x T and W_init, records across the 2^24 ns wrap, a "
                   "new path length restarts, OnAck updates W_c once per round trip")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HpccCongestionControl> cc = MakeHpcc();
        // Timestamps across the wrap: 16777000 -> 7784 (2^24 + 7784 - 16777000 = 8000
        // ns). A queue of 65535 units (the saturated field, 8388480 B) on both: u =
        // 8388480 / 100000 + 0 = 83.8848: W = 100000 x 0.95 / 83.8848 + 40 = 1172.5055;
        // MinRate x T = 1 Gb/s x 8 us = 1000 B is below it.
        cc->Update(Records({{16777000, 5, 1000000}}), true);
        cc->Update(Records({{7784, 5, 1000000}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetUtilization(), 83.8848, TOL, "wrap: tau = 8000 ns");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 1172.50553140, 1e-6, "deep cut");
        // Another deep cut from W_c = 1172.5: 13.28 + 40 -> clamped at 1000 B (MinRate).
        cc->Update(Records({{15784, 5, 1000000}}), true);
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 1000.0, TOL, "floor: MinRate x T");
        NS_TEST_ASSERT_MSG_EQ(cc->GetRateBps(), 1000000000ULL, "R = 1 Gb/s");
        // Three hops now: only kept (compared with nothing), W unchanged.
        bool done = cc->Update(Records({{16000, 0, 0}, {16000, 0, 0}, {16000, 0, 0}}), true);
        NS_TEST_ASSERT_MSG_EQ(done, false, "another path: records kept only");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetWindow(), 1000.0, TOL, "W unchanged");

        // OnAck: the reference window moves once per round trip (lastUpdateSeq).
        Ptr<HpccCongestionControl> c2 = MakeHpcc();
        for (int i = 0; i < 10; ++i)
        {
            c2->OnPacketSent(1000);
        }
        RdmaAckSample s;
        s.ackedPackets = 1;
        IntHeader h0 = Records({{0, 0, 0}});
        s.intHeader = &h0;
        c2->OnAck(s); // first records; lastUpdateSeq = 10 packets sent
        uint32_t tx = 0;
        for (uint32_t k = 1; k <= 8; ++k) // packets 2..9 acknowledged
        {
            tx += 98; // 98 units per 1000 ns: 100.352 Gb/s, u = 1.00352
            IntHeader h = Records({{1000 * k, tx, 0}});
            s.intHeader = &h;
            c2->OnAck(s);
        }
        NS_TEST_ASSERT_MSG_EQ(c2->GetUpdates(), 8, "every ACK computes W");
        NS_TEST_ASSERT_MSG_EQ(c2->GetReferenceUpdates(), 0, "no W_c update within the RTT");
        IntHeader h10 = Records({{9000, tx + 98, 0}});
        s.intHeader = &h10;
        c2->OnAck(s); // the 10th packet acked: not beyond lastUpdateSeq = 10 yet
        NS_TEST_ASSERT_MSG_EQ(c2->GetReferenceUpdates(), 0, "ack.seq = lastUpdateSeq");
        c2->OnPacketSent(1000);
        IntHeader h11 = Records({{10000, tx + 196, 0}});
        s.intHeader = &h11;
        c2->OnAck(s); // the 11th: sent after the last update
        NS_TEST_ASSERT_MSG_EQ(c2->GetReferenceUpdates(), 1, "one W_c update per round trip");
        // Without INT (another fabric): nothing changes.
        const uint64_t before = c2->GetUpdates();
        s.intHeader = nullptr;
        c2->OnAck(s);
        NS_TEST_ASSERT_MSG_EQ(c2->GetUpdates(), before, "no INT, no update");
        // PerAckUpdate false: only the round trip's ACK computes W.
        Ptr<HpccCongestionControl> c3 = CreateObject<HpccCongestionControl>();
        c3->SetAttribute("PerAckUpdate", BooleanValue(false));
        c3->Start(UnitTestCcContext());
        for (int i = 0; i < 10; ++i)
        {
            c3->OnPacketSent(1000);
        }
        s.intHeader = &h0;
        c3->OnAck(s);
        for (uint32_t k = 1; k <= 3; ++k)
        {
            IntHeader h = Records({{1000 * k, 98 * k, 0}});
            s.intHeader = &h;
            c3->OnAck(s);
        }
        NS_TEST_ASSERT_MSG_EQ(c3->GetUpdates(), 0, "per RTT only: no ACK beyond lastUpdateSeq");
    }
};

/// The INT block's bytes: shim, record bit fields, slots beyond the hop count.
class IntHeaderBytesTest : public TestCase
{
  public:
    IntHeaderBytesTest()
        : TestCase("INT block: 44 bytes, shim (version, hop count, slots, echo flag) and 8-byte "
                   "big-endian records (rate code, 24-bit ns, 20-bit txBytes, 16-bit qLen)")
    {
    }

  private:
    void DoRun() override
    {
        IntHeader h;
        IntHop a;
        // 400 Gb/s (code 7), t = 0x1234567 ns (-> 0x234567), 0x12345 x 128 + 5 bytes
        // sent (-> 0x12345), 300 x 128 + 100 bytes queued (-> 300 = 0x012C).
        a.Set(400000000000ULL, 0x1234567, 0x12345ULL * 128 + 5, 300 * 128 + 100);
        h.PushHop(a);
        h.SetEcho(true);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 44, "4 + 5 x 8 bytes");
        uint8_t b[44];
        p->CopyData(b, 44);
        NS_TEST_ASSERT_MSG_EQ(+b[0], 0x10, "version 1 in the high nibble");
        NS_TEST_ASSERT_MSG_EQ(+b[1], 1, "hop count");
        NS_TEST_ASSERT_MSG_EQ(+b[2], 5, "slots");
        NS_TEST_ASSERT_MSG_EQ(+b[3], 1, "echo flag");
        // Word: 7 << 60 | 0x234567 << 36 | 0x12345 << 16 | 0x012C
        //     = 0x7000000000000000 | 0x0234567000000000 | 0x123450000 | 0x12C
        //     = 0x7234 5671 2345 012C
        const uint8_t word[8] = {0x72, 0x34, 0x56, 0x71, 0x23, 0x45, 0x01, 0x2C};
        for (int i = 0; i < 8; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(+b[4 + i], +word[i], "record byte " << i);
        }
        for (int i = 12; i < 44; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(+b[i], 0, "empty slots are zero");
        }
        IntHeader r;
        p->RemoveHeader(r);
        NS_TEST_ASSERT_MSG_EQ(r.GetNHops(), 1, "one record back");
        NS_TEST_ASSERT_MSG_EQ(r.GetHop(0).GetRateBps(), 400000000000ULL, "rate");
        NS_TEST_ASSERT_MSG_EQ(r.GetHop(0).timeNs, 0x234567U, "ts");
        NS_TEST_ASSERT_MSG_EQ(r.GetHop(0).GetQlenBytes(), 300U * 128, "qLen");
        NS_TEST_ASSERT_MSG_EQ(r.IsEcho(), true, "echo");
        // Six pushes: five records, count 6.
        IntHeader six;
        for (int i = 0; i < 6; ++i)
        {
            six.PushHop(a);
        }
        NS_TEST_ASSERT_MSG_EQ(six.GetHopCount(), 6, "count beyond the slots");
        NS_TEST_ASSERT_MSG_EQ(six.GetNHops(), 5, "five records");
        // Wraps: 20-bit txBytes and 24-bit ts deltas.
        IntHop x;
        IntHop y;
        x.Set(100000000000ULL, (1U << 24) - 10, ((1ULL << 20) - 2) * 128, 0);
        y.Set(100000000000ULL, 20, 3 * 128, 0);
        NS_TEST_ASSERT_MSG_EQ(y.TimeSince(x), 30U, "ts wraps at 2^24 ns");
        NS_TEST_ASSERT_MSG_EQ(y.BytesSince(x), 5U * 128, "txBytes wraps at 2^20 units");
        NS_TEST_ASSERT_MSG_EQ(+IntHop::RateCode(123000000000ULL), 0, "no code for 123 Gb/s");
    }
};

/// Presets and registration.
class HpccPresetTest : public TestCase
{
  public:
    HpccPresetTest()
        : TestCase("HPCC: 'paper' (maxStage 5) and 'simulator' (maxStage 0) presets, registered "
                   "as hpcc with INT and without ECN")
    {
    }

  private:
    void DoRun() override
    {
        const auto& e = CongestionControlRegistry::Get("hpcc");
        NS_TEST_ASSERT_MSG_EQ(e.typeName, "ns3::HpccCongestionControl", "type");
        NS_TEST_ASSERT_MSG_EQ(e.usesInt, true, "reads INT");
        NS_TEST_ASSERT_MSG_EQ(e.usesEcn, false, "no ECN");
        NS_TEST_ASSERT_MSG_EQ(e.defaultPreset, "paper", "default preset");
        NS_TEST_ASSERT_MSG_EQ(CongestionControlRegistry::Get("dcqcn").usesInt,
                              false,
                              "DCQCN: no INT");
        // The attribute defaults are the 'paper' preset.
        Ptr<HpccCongestionControl> cc = CreateObject<HpccCongestionControl>();
        for (const auto& [name, value] : HpccCongestionControl::GetPreset("paper"))
        {
            StringValue v;
            cc->GetAttribute(name, v);
            Ptr<HpccCongestionControl> probe = CreateObject<HpccCongestionControl>();
            probe->SetAttribute(name, StringValue(value));
            StringValue w;
            probe->GetAttribute(name, w);
            NS_TEST_ASSERT_MSG_EQ(v.Get(), w.Get(), "default of " << name);
        }
        // 'simulator': maxStage 0, every reference update multiplicative: at U = 0.5
        // W = 100000 x 0.95 / 0.5 + 40, clamped to W_init (an MI step, not W_c + W_AI).
        Ptr<HpccCongestionControl> sim = CreateObject<HpccCongestionControl>();
        for (const auto& [name, value] : HpccCongestionControl::GetPreset("simulator"))
        {
            sim->SetAttribute(name, StringValue(value));
        }
        sim->Start(UnitTestCcContext());
        sim->ComputeWind(2.0, true); // first cut the window: 100000 x 0.95 / 2 + 40
        NS_TEST_ASSERT_MSG_EQ_TOL(sim->GetWindow(), 47540.0, TOL, "MD");
        sim->ComputeWind(0.9, true); // U < eta, but maxStage 0: 47540 x 0.95 / 0.9 + 40
        NS_TEST_ASSERT_MSG_EQ_TOL(sim->GetWindow(), 50221.11111111, TOL, "MI at once");
        bool threw = false;
        try
        {
            HpccCongestionControl::GetPreset("fast");
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "unknown preset refused");
    }
};

class HpccTestSuite : public TestSuite
{
  public:
    HpccTestSuite()
        : TestSuite("ai-fabric-hpcc", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new HpccAlgorithmTest, AI_FABRIC_QUICK);
        AddTestCase(new HpccEdgesTest, AI_FABRIC_QUICK);
        AddTestCase(new IntHeaderBytesTest, AI_FABRIC_QUICK);
        AddTestCase(new HpccPresetTest, AI_FABRIC_QUICK);
    }
};

static HpccTestSuite g_hpccTestSuite; //!< registers the suite
