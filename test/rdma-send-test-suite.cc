/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Two-sided verbs: a SEND consumes a posted receive; one that finds none is answered
 * with an RNR NAK (AETH syndrome 001xxxxx) and resent after exactly the time its timer
 * code stands for (IBTA vol. 1 table 45); RnrRetry RNR NAKs in a row put the queue
 * pair in the error state, reported; a shared receive queue serves every queue pair
 * of an adapter; a collective over SENDs with a shallow receive queue pays RNR waits
 * that a deep one does not.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/aeth-header.h"
#include "ns3/config.h"
#include "ns3/lambda-callback.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-rnr-timer.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/routing-engine.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/// Restore the queue-pair and NIC defaults a case changed (Config::SetDefault is global).
void
ResetSendDefaults()
{
    Config::SetDefault("ns3::RdmaQueuePair::ReceiveQueueDepth", UintegerValue(0));
    Config::SetDefault("ns3::RdmaQueuePair::RecvRepostDelay", TimeValue(Time(0)));
    Config::SetDefault("ns3::RdmaQueuePair::RnrRetry", UintegerValue(7));
    Config::SetDefault("ns3::RdmaQueuePair::MinRnrTimer", UintegerValue(12));
    Config::SetDefault("ns3::RdmaNic::SharedReceiveQueueDepth", UintegerValue(0));
}

/// Hosts 0..n-1 on one switch, 100 Gb/s, 1 us cables: a RoCEv2 fabric.
Ptr<RoceFabric>
OneSwitch(uint32_t n)
{
    UsePicoseconds();
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (uint32_t i = 0; i < n; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    RoceFabricHelper helper;
    return helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
}

/// The adapter of host \p host.
Ptr<RdmaNic>
NicOf(Ptr<RdmaFabric> fabric, uint32_t host)
{
    return fabric->GetNodes().Get(fabric->GetGraph()->GetHosts()[host])->GetObject<RdmaNic>();
}

/// What one run of SENDs from host 0 to host 1 saw.
struct SendRun
{
    std::vector<Time> fcts;          //!< sender completion times, in order
    std::vector<uint64_t> delivered; //!< receiver completions' tags
    RdmaFabric::Counters counters;   //!< at the end
    uint64_t errorTraces{0};         //!< Error trace calls
    uint64_t errorMessages{0};       //!< messages they reported
    bool inError{false};             //!< host 0's queue pair ended in error
    Time errorAt{-1};                //!< when the Error trace fired
};

/**
 * \p count SENDs of \p bytes from host 0 to host 1 at time 0; \p postAt: when host 1's
 * application posts one receive each (-1: never).
 */
SendRun
RunSends(uint32_t count, uint64_t bytes, Time postAt)
{
    SendRun run;
    Ptr<RoceFabric> fabric = OneSwitch(2);
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&run](const RdmaFabric::MessageRecord& r) { run.fcts.push_back(r.end - r.start); }));
    fabric->AddDeliveredCallback(MakeLambdaCallback<void, uint32_t, uint32_t, uint64_t, uint64_t>(
        [&run](uint32_t, uint32_t, uint64_t tag, uint64_t) { run.delivered.push_back(tag); }));
    for (uint32_t i = 0; i < count; ++i)
    {
        fabric->PostSend(0, 1, bytes, 100 + i, 0);
    }
    Ptr<RdmaQueuePair> sender = NicOf(fabric, 0)->GetQueuePairs().at(0);
    sender->TraceConnectWithoutContext("Error",
                                       MakeLambdaCallback<void, Ptr<const RdmaQueuePair>, uint64_t>(
                                           [&run](Ptr<const RdmaQueuePair>, uint64_t messages) {
                                               run.errorTraces++;
                                               run.errorMessages += messages;
                                               run.errorAt = Simulator::Now();
                                           }));
    Ptr<RdmaQueuePair> receiver = NicOf(fabric, 1)->GetQueuePairs().at(0);
    if (postAt >= Time(0))
    {
        ScheduleLambda(postAt, [receiver, count] { receiver->PostReceives(count); });
    }
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    run.counters = fabric->GetCounters();
    run.inError = sender->IsInError();
    Simulator::Destroy();
    return run;
}

/// IBTA vol. 1 table 45 (and ibv_modify_qp(3), min_rnr_timer), written out in ms.
class RnrTimerTableTestCase : public TestCase
{
  public:
    RnrTimerTableTestCase()
        : TestCase("RNR timer codes: IBTA table 45, all 32; AETH RNR NAK syndrome")
    {
    }

  private:
    void DoRun() override
    {
        const double ms[32] = {655.36, 0.01,  0.02,  0.03,   0.04,   0.06,   0.08,   0.12,
                               0.16,   0.24,  0.32,  0.48,   0.64,   0.96,   1.28,   1.92,
                               2.56,   3.84,  5.12,  7.68,   10.24,  15.36,  20.48,  30.72,
                               40.96,  61.44, 81.92, 122.88, 163.84, 245.76, 327.68, 491.52};
        for (uint8_t code = 0; code <= RdmaRnrTimer::MAX_CODE; ++code)
        {
            const int64_t ns = static_cast<int64_t>(ms[code] * 1e6 + 0.5);
            NS_TEST_ASSERT_MSG_EQ(RdmaRnrTimer::Decode(code).GetNanoSeconds(),
                                  ns,
                                  "RNR timer code " << +code);
            if (code >= 2)
            {
                NS_TEST_ASSERT_MSG_GT(RdmaRnrTimer::Decode(code),
                                      RdmaRnrTimer::Decode(code - 1),
                                      "codes 1..31 grow");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(RdmaRnrTimer::Decode(12), MicroSeconds(640), "code 12 = 0.64 ms");
        // The syndrome of an RNR NAK: bits 6..5 = 01, bits 4..0 = the timer code.
        AethHeader a;
        a.SetRnrNak(12);
        NS_TEST_ASSERT_MSG_EQ(+a.GetSyndrome(), 0x2C, "RNR NAK, timer 12: syndrome 0x2C");
        NS_TEST_ASSERT_MSG_EQ(AethHeader::IsRnrNakSyndrome(a.GetSyndrome()), true, "is RNR");
        NS_TEST_ASSERT_MSG_EQ(AethHeader::IsNakSyndrome(a.GetSyndrome()), false, "not a NAK");
        NS_TEST_ASSERT_MSG_EQ(AethHeader::IsRnrNakSyndrome(AethHeader::ResponderSyndrome(true)),
                              false,
                              "a PSN sequence error NAK is no RNR NAK");
        // SEND opcodes are the WRITE ones of the same place, 6 lower (table 38).
        NS_TEST_ASSERT_MSG_EQ(+(RdmaOpcode::WRITE_ONLY_IMM - RdmaOpcode::WRITE_TO_SEND),
                              +RdmaOpcode::SEND_ONLY_IMM,
                              "SEND only with immediate");
        NS_TEST_ASSERT_MSG_EQ(+(RdmaOpcode::WRITE_MIDDLE - RdmaOpcode::WRITE_TO_SEND),
                              +RdmaOpcode::SEND_MIDDLE,
                              "SEND middle");
    }
};

/// A SEND into an empty receive queue: RNR NAK, the encoded wait, then success.
class RnrWaitTestCase : public TestCase
{
  public:
    RnrWaitTestCase()
        : TestCase("SEND without a receive: RNR NAK, resent exactly the RNR timer later")
    {
    }

  private:
    void DoRun() override
    {
        // The unloaded SEND: one receive posted at the start.
        ResetSendDefaults();
        Config::SetDefault("ns3::RdmaQueuePair::ReceiveQueueDepth", UintegerValue(1));
        const SendRun plain = RunSends(1, 1000, Time(-1));
        NS_TEST_ASSERT_MSG_EQ(plain.fcts.size(), 1, "the SEND completes");
        NS_TEST_ASSERT_MSG_EQ(plain.counters.rnrNaks, 0, "no RNR NAK with a receive posted");
        const Time t0 = plain.fcts[0];
        NS_TEST_ASSERT_MSG_EQ(plain.delivered.size(), 1, "delivered once");
        NS_TEST_ASSERT_MSG_EQ(plain.delivered[0], 100, "with its tag");
        // A WRITE of the same size carries a 16-byte RETH more: it takes longer.
        ResetSendDefaults();
        RoceFabricHelper helper;
        const Time write = OneSwitchWriteTime(helper, 1000);
        NS_TEST_ASSERT_MSG_GT(write, t0, "the WRITE's RETH costs wire time a SEND has not");

        for (uint8_t code : {uint8_t(1), uint8_t(14)})
        {
            // No receive until 5 us: the first arrival (~2.2 us) finds none.
            ResetSendDefaults();
            Config::SetDefault("ns3::RdmaQueuePair::MinRnrTimer", UintegerValue(code));
            const SendRun rnr = RunSends(1, 1000, MicroSeconds(5));
            NS_TEST_ASSERT_MSG_EQ(rnr.fcts.size(), 1, "the SEND completes after the RNR wait");
            NS_TEST_ASSERT_MSG_EQ(rnr.counters.rnrNaks, 1, "one RNR NAK");
            NS_TEST_ASSERT_MSG_EQ(rnr.counters.rnrRetries, 1, "one retry");
            NS_TEST_ASSERT_MSG_EQ(rnr.counters.qpErrors, 0, "no error");
            NS_TEST_ASSERT_MSG_EQ(rnr.delivered.size(), 1, "delivered once");
            // The RNR NAK comes back as an ACK would (same size): t0 after the post; the
            // resend leaves the RNR timer later and takes t0 again.
            const Time expected = t0 + RdmaRnrTimer::Decode(code) + t0;
            std::cout << "RNR timer code " << +code << ": SEND " << t0.As(Time::NS) << " unloaded, "
                      << rnr.fcts[0].As(Time::NS) << " with one RNR NAK" << std::endl;
            NS_TEST_ASSERT_MSG_EQ(rnr.fcts[0], expected, "t0 + timer(code " << +code << ") + t0");
        }
        ResetSendDefaults();
    }
};

/// RnrRetry RNR NAKs in a row: the queue pair enters the error state, reported.
class RnrRetryExhaustedTestCase : public TestCase
{
  public:
    RnrRetryExhaustedTestCase()
        : TestCase("rnr_retry exhausted: the queue pair enters the error state, reported")
    {
    }

  private:
    void DoRun() override
    {
        ResetSendDefaults();
        Config::SetDefault("ns3::RdmaQueuePair::MinRnrTimer", UintegerValue(1)); // 10 us
        Config::SetDefault("ns3::RdmaQueuePair::ReceiveQueueDepth", UintegerValue(1));
        const Time t0 = RunSends(1, 1000, Time(-1)).fcts.at(0);

        ResetSendDefaults();
        Config::SetDefault("ns3::RdmaQueuePair::MinRnrTimer", UintegerValue(1));
        Config::SetDefault("ns3::RdmaQueuePair::RnrRetry", UintegerValue(2));
        const SendRun run = RunSends(3, 1000, Time(-1)); // never a receive
        NS_TEST_ASSERT_MSG_EQ(run.fcts.size(), 0, "no SEND completes");
        NS_TEST_ASSERT_MSG_EQ(run.delivered.size(), 0, "nothing delivered");
        NS_TEST_ASSERT_MSG_EQ(run.counters.rnrNaks, 3, "the first try and 2 retries NAKed");
        NS_TEST_ASSERT_MSG_EQ(run.counters.rnrRetries, 2, "RnrRetry 2: two retries");
        NS_TEST_ASSERT_MSG_EQ(run.counters.qpErrors, 1, "one queue pair in error");
        NS_TEST_ASSERT_MSG_EQ(run.inError, true, "the sender's queue pair is in error");
        NS_TEST_ASSERT_MSG_EQ(run.errorTraces, 1, "Error fired once");
        NS_TEST_ASSERT_MSG_EQ(run.errorMessages, 3, "its 3 work requests complete in error");
        // Three tries a t0 each (the NAK arrives when an ACK would), two 10 us waits.
        NS_TEST_ASSERT_MSG_EQ(run.errorAt, t0 * 3 + MicroSeconds(20), "error at 3 t0 + 2 timers");

        // RnrRetry 7 retries for ever: still waiting when the run stops, no error.
        ResetSendDefaults();
        Config::SetDefault("ns3::RdmaQueuePair::MinRnrTimer", UintegerValue(1));
        const SendRun forever = RunSends(1, 1000, MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(forever.fcts.size(), 1, "completes once a receive is posted");
        NS_TEST_ASSERT_MSG_GT(forever.counters.rnrRetries, 50, "dozens of retries meanwhile");
        NS_TEST_ASSERT_MSG_EQ(forever.counters.qpErrors, 0, "rnr_retry 7 never errs");
        ResetSendDefaults();
    }
};

/// A shared receive queue: one adapter's receives serve SENDs of all its queue pairs.
class SharedReceiveQueueTestCase : public TestCase
{
  public:
    SharedReceiveQueueTestCase()
        : TestCase("Shared receive queue: two senders draw on one receiver's SRQ")
    {
    }

  private:
    void DoRun() override
    {
        ResetSendDefaults();
        Config::SetDefault("ns3::RdmaNic::SharedReceiveQueueDepth", UintegerValue(2));
        Config::SetDefault("ns3::RdmaQueuePair::RecvRepostDelay", TimeValue(MilliSeconds(1)));
        Config::SetDefault("ns3::RdmaQueuePair::MinRnrTimer", UintegerValue(1));
        Ptr<RoceFabric> fabric = OneSwitch(3);
        uint32_t done = 0;
        fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
            [&done](const RdmaFabric::MessageRecord&) { done++; }));
        // Three SENDs into host 2 from two queue pairs: the SRQ's 2 receives serve two,
        // the third waits for a re-post 1 ms after a completion.
        fabric->PostSend(0, 2, 1000, 1, 0);
        fabric->PostSend(1, 2, 1000, 2, 0);
        fabric->PostSend(0, 2, 1000, 3, 0);
        Ptr<RdmaReceiveQueue> srq = NicOf(fabric, 2)->GetSharedReceiveQueue();
        NS_TEST_ASSERT_MSG_EQ((srq != nullptr), true, "host 2 has an SRQ");
        Simulator::Run();
        const RdmaFabric::Counters k = fabric->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(done, 3, "all three complete");
        NS_TEST_ASSERT_MSG_GT(k.rnrNaks, 0, "the third SEND met an empty SRQ");
        NS_TEST_ASSERT_MSG_EQ(srq->GetConsumed(), 3, "three receives taken from the SRQ");
        NS_TEST_ASSERT_MSG_EQ(srq->GetPosted(), 2, "all re-posted by the end");
        NS_TEST_ASSERT_MSG_GT(Simulator::Now(), MilliSeconds(1), "the third waited a re-post");
        Simulator::Destroy();
        ResetSendDefaults();
    }
};

/// A ring allreduce on 8 hosts over SENDs: a shallow receive queue costs RNR waits.
class CollectiveOverSendTestCase : public TestCase
{
  public:
    CollectiveOverSendTestCase()
        : TestCase("Ring allreduce over SEND: shallow receive queue RNR-NAKed and slower, "
                   "deep one as fast as WRITE")
    {
    }

  private:
    /// Run the allreduce; \return the summary
    nlohmann::json Run(const std::vector<std::pair<std::string, std::string>>& extra)
    {
        ScenarioConfig c;
        c.Set("topology", "leafspine");
        c.Set("leaves", "2");
        c.Set("spines", "2");
        c.Set("hosts-per-switch", "4");
        c.Set("workload", "allreduce");
        c.Set("algorithm", "ring");
        c.Set("bytes", "4MB");
        c.Set("qlen-interval", "0");
        c.Set("out", "out/test-rdma-send-collective");
        for (const auto& [name, value] : extra)
        {
            c.Set(name, value);
        }
        nlohmann::json s = ScenarioRunner(c).Run();
        ResetSendDefaults();
        Config::SetDefault("ns3::RdmaCollectiveTransport::Verb", StringValue("Write"));
        return s;
    }

    static int64_t StepTime(const nlohmann::json& s)
    {
        return s["collectives"][0]["step_time_ns"]["max"].get<int64_t>();
    }

    void DoRun() override
    {
        const nlohmann::json write = Run({});
        const nlohmann::json deep = Run({{"collective-verb", "send"}, {"rq-depth", "512"}});
        const nlohmann::json shallow =
            Run({{"collective-verb", "send"}, {"rq-depth", "1"}, {"rq-repost-delay", "20us"}});
        for (const auto* s : {&write, &deep, &shallow})
        {
            NS_TEST_ASSERT_MSG_EQ((*s)["complete"].get<bool>(), true, "the allreduce completes");
        }
        std::cout << "ring allreduce 4MB, 8 hosts: WRITE " << StepTime(write) << " ns, SEND rq 512 "
                  << StepTime(deep) << " ns (" << deep["rnr_naks"] << " RNR NAKs), SEND rq 1 "
                  << "+20us " << StepTime(shallow) << " ns (" << shallow["rnr_naks"]
                  << " RNR NAKs, " << shallow["rnr_retries"] << " retries)" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(write["rnr_naks"].get<uint64_t>(), 0, "WRITEs take no receive");
        NS_TEST_ASSERT_MSG_EQ(deep["rnr_naks"].get<uint64_t>(), 0, "512 receives: never short");
        NS_TEST_ASSERT_MSG_GT(shallow["rnr_naks"].get<uint64_t>(), 0, "1 receive: RNR NAKs");
        NS_TEST_ASSERT_MSG_EQ(shallow["rnr_retries"].get<uint64_t>(),
                              shallow["rnr_naks"].get<uint64_t>(),
                              "each RNR NAK retried (rnr_retry 7)");
        NS_TEST_ASSERT_MSG_EQ(shallow["qp_errors"].get<uint64_t>(), 0, "no queue pair in error");
        // The min_rnr_timer wait (0.64 ms) dwarfs a step: the shallow queue is much slower.
        NS_TEST_ASSERT_MSG_GT(StepTime(shallow),
                              StepTime(write) + RdmaRnrTimer::Decode(12).GetNanoSeconds() / 2,
                              "RNR waits lengthen the step");
        // A deep queue: a SEND is a WRITE without the 16-byte RETH, within 1%.
        const double ratio = static_cast<double>(StepTime(deep)) / StepTime(write);
        NS_TEST_ASSERT_MSG_EQ_TOL(ratio, 1.0, 0.01, "deep receive queue: WRITE's step time");
    }
};

/// The suite.
class RdmaSendTestSuite : public TestSuite
{
  public:
    RdmaSendTestSuite()
        : TestSuite("ai-fabric-rdma-send", AI_FABRIC_SYSTEM_SUITE)
    {
        AddTestCase(new RnrTimerTableTestCase(), TestCase::QUICK);
        AddTestCase(new RnrWaitTestCase(), TestCase::QUICK);
        AddTestCase(new RnrRetryExhaustedTestCase(), TestCase::QUICK);
        AddTestCase(new SharedReceiveQueueTestCase(), TestCase::QUICK);
        AddTestCase(new CollectiveOverSendTestCase(), TestCase::QUICK);
    }
};

/// Registered with ns-3's test runner.
static RdmaSendTestSuite g_rdmaSendTestSuite;

} // namespace
