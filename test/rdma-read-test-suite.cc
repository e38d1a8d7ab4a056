/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RDMA READ on the RC transport: the request and response PSN rules (IBTA vol. 1
// 9.7), the MaxRdAtomic limit, recovery of lost responses, and the completion time
// of one READ through one switch against its closed form on RoCEv2 and InfiniBand.

#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/aeth-header.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-frame.h"
#include "ns3/ib-switch.h"
#include "ns3/lambda-callback.h"
#include "ns3/leaf-spine-topology-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-opcode.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/reth-header.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/topology-graph.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/// Two hosts on one switch (100 Gb/s, 1 us cables); host 0 posts \p reads READs of
/// \p bytes from host 1 at t = 0. \return the time the last one completed
template <typename Helper>
Time
OneSwitchReads(const Helper& helper, uint64_t bytes, uint32_t reads, uint64_t* readBytes = nullptr)
{
    UsePicoseconds();
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (int i = 0; i < 2; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    auto fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
    Time last;
    uint32_t done = 0;
    fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
        [&last, &done](const RdmaFabric::MessageRecord& r) {
            last = std::max(last, r.end);
            done++;
        }));
    for (uint32_t i = 0; i < reads; ++i)
    {
        fabric->PostRead(0, 1, bytes, i, 0);
    }
    Simulator::Run();
    if (readBytes != nullptr)
    {
        *readBytes = fabric->GetCounters().readBytes;
    }
    Simulator::Destroy();
    return done == reads ? last : Time(-1);
}

/// A queue pair with a completion counter, no controller, MTU 1000.
Ptr<RdmaQueuePair>
MakeQp(std::vector<RdmaMessage>& completed)
{
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->SetCallbacks(
        MakeLambdaCallback<void, Ptr<RdmaQueuePair>, const RdmaMessage&>(
            [&completed](Ptr<RdmaQueuePair>, const RdmaMessage& m) { completed.push_back(m); }),
        RdmaQueuePair::DeliveredCallback(),
        RdmaQueuePair::WakeCallback());
    return qp;
}

} // namespace

/**
 * The PSN rules, on two queue pairs wired by hand: a 3500-byte READ is one request
 * (RETH length 3500) that consumes 4 PSNs; the responder answers FIRST, MIDDLE,
 * MIDDLE, LAST at PSNs 0..3 (AETH on first and last); the WRITE posted after it takes
 * PSN 4. Response 1 lost: response 2 makes the requester re-issue the READ from PSN 1
 * (RETH VA 1000, length 2500) once (response 3 does not again); the responder treats
 * it as a duplicate and answers FIRST, MIDDLE, LAST at PSNs 1..3; the READ completes
 * at its last response with 3500 bytes received, each byte once.
 */
class ReadPsnRulesTestCase : public TestCase
{
  public:
    ReadPsnRulesTestCase()
        : TestCase("READ: request and response PSNs, re-issue from the missing PSN")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        std::vector<RdmaMessage> doneA;
        std::vector<RdmaMessage> doneB;
        Ptr<RdmaQueuePair> a = MakeQp(doneA);
        Ptr<RdmaQueuePair> b = MakeQp(doneB);
        a->PostRead(1, 3500, 0, 0);
        a->PostWrite(2, 500, 0, 0);
        RdmaSegment req = a->NextSegment(Time(0), 1082);
        NS_TEST_ASSERT_MSG_EQ(+req.opcode, +RdmaOpcode::READ_REQUEST, "opcode 0x0C");
        NS_TEST_ASSERT_MSG_EQ(req.psn, 0, "at the message's first PSN");
        NS_TEST_ASSERT_MSG_EQ(req.payloadBytes, 0, "no payload");
        NS_TEST_ASSERT_MSG_EQ(req.messageBytes, 3500, "RETH DMA length");
        RdmaSegment w = a->NextSegment(Time(0), 1082);
        NS_TEST_ASSERT_MSG_EQ(w.psn, 4, "the READ consumed PSNs 0..3");
        NS_TEST_ASSERT_MSG_EQ(+w.opcode, +RdmaOpcode::WRITE_ONLY_IMM, "then the WRITE");

        RdmaQueuePair::Reply r = b->ReceiveReadRequest(0, 3500, false, Time(0));
        NS_TEST_ASSERT_MSG_EQ((r.response == RdmaQueuePair::Response::NONE), true, "no ACK");
        std::vector<RdmaSegment> resp;
        while (b->HasDataToSend())
        {
            resp.push_back(b->NextSegment(Time(0), 1082));
        }
        NS_TEST_ASSERT_MSG_EQ(resp.size(), 4, "four responses");
        const uint8_t ops[] = {RdmaOpcode::READ_RESPONSE_FIRST,
                               RdmaOpcode::READ_RESPONSE_MIDDLE,
                               RdmaOpcode::READ_RESPONSE_MIDDLE,
                               RdmaOpcode::READ_RESPONSE_LAST};
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(resp[i].psn, i, "response PSNs from the request's");
            NS_TEST_ASSERT_MSG_EQ(+resp[i].opcode, +ops[i], "response opcode " << i);
            NS_TEST_ASSERT_MSG_EQ(resp[i].payloadBytes, (i < 3 ? 1000U : 500U), "payload " << i);
            NS_TEST_ASSERT_MSG_EQ(resp[i].msn, 1, "AETH MSN: the READ is message 1");
        }
        // The WRITE at PSN 4 is in order at the responder after the READ.
        r = b->ReceiveData(4, w.opcode, w.payloadBytes, true, false, Time(0));
        NS_TEST_ASSERT_MSG_EQ((r.response == RdmaQueuePair::Response::ACK), true, "ACK");
        NS_TEST_ASSERT_MSG_EQ(r.ackPsn, 4, "of PSN 4");
        // The ACK overtakes the responses (control before data): held, not applied.
        a->ReceiveAck(4, Time(0));
        NS_TEST_ASSERT_MSG_EQ(doneA.size(), 0, "an ACK does not complete a READ");

        a->ReceiveReadResponse(0, resp[0].payloadBytes, false, Time(0));
        // Response 1 is lost.
        a->ReceiveReadResponse(2, resp[2].payloadBytes, false, Time(0));
        a->ReceiveReadResponse(3, resp[3].payloadBytes, false, Time(0));
        NS_TEST_ASSERT_MSG_EQ(a->HasDataToSend(), true, "the READ is re-issued");
        RdmaSegment again = a->NextSegment(Time(0), 1082);
        NS_TEST_ASSERT_MSG_EQ(+again.opcode, +RdmaOpcode::READ_REQUEST, "a READ request");
        NS_TEST_ASSERT_MSG_EQ(again.psn, 1, "from the missing PSN");
        NS_TEST_ASSERT_MSG_EQ(again.offset, 1000, "RETH VA: past the bytes received");
        NS_TEST_ASSERT_MSG_EQ(again.messageBytes, 2500, "RETH length: the rest");
        NS_TEST_ASSERT_MSG_EQ(again.retransmission, true, "a retransmission");
        RdmaSegment w2 = a->NextSegment(Time(0), 1082);
        NS_TEST_ASSERT_MSG_EQ(w2.psn, 4, "go-back-N: the WRITE after it again");
        NS_TEST_ASSERT_MSG_EQ(a->GetRequester().GetReadRetries(), 1, "re-issued once");

        r = b->ReceiveReadRequest(1, 2500, false, Time(0));
        NS_TEST_ASSERT_MSG_EQ(b->GetDuplicatePackets(), 1, "a duplicate at the responder");
        resp.clear();
        while (b->HasDataToSend())
        {
            resp.push_back(b->NextSegment(Time(0), 1082));
        }
        NS_TEST_ASSERT_MSG_EQ(resp.size(), 3, "three responses to the re-issued READ");
        NS_TEST_ASSERT_MSG_EQ(resp[0].psn, 1, "from its PSN");
        NS_TEST_ASSERT_MSG_EQ(+resp[0].opcode, +RdmaOpcode::READ_RESPONSE_FIRST, "first");
        NS_TEST_ASSERT_MSG_EQ(+resp[2].opcode, +RdmaOpcode::READ_RESPONSE_LAST, "last");
        for (const RdmaSegment& s : resp)
        {
            a->ReceiveReadResponse(static_cast<uint32_t>(s.psn), s.payloadBytes, false, Time(0));
        }
        NS_TEST_ASSERT_MSG_EQ(doneA.size(), 2, "the READ and, by the held ACK, the WRITE");
        NS_TEST_ASSERT_MSG_EQ(doneA[0].isRead, true, "READ first");
        NS_TEST_ASSERT_MSG_EQ(doneA[0].bytes, 3500, "its bytes");
        NS_TEST_ASSERT_MSG_EQ(a->GetReadBytes(), 3500, "each byte counted once");
        NS_TEST_ASSERT_MSG_EQ(doneB.size(), 0, "the responder completes nothing");
        a->Dispose();
        b->Dispose();
        Simulator::Destroy();
    }
};

/**
 * MaxRdAtomic: 64 READs of 1000 bytes (one response each) on one queue pair. With a
 * limit of 1 each waits for the one before: 64 x the time of one READ, to the
 * picosecond rounding. With 16, 16 are in flight: a READ's time is a round trip
 * (~4.9 us) and 16 responses take 1.4 us of the link, so the limit still paces them:
 * 4 x one READ's time plus at most 64 responses' serialization.
 */
class ReadMaxRdAtomicTestCase : public TestCase
{
  public:
    ReadMaxRdAtomicTestCase()
        : TestCase("READ: MaxRdAtomic limits the READs in flight")
    {
    }

  private:
    static Time Run(uint32_t limit, uint32_t reads)
    {
        Config::SetDefault("ns3::RdmaQueuePair::MaxRdAtomic", UintegerValue(limit));
        RoceFabricHelper helper;
        const Time t = OneSwitchReads(helper, 1000, reads);
        Config::SetDefault("ns3::RdmaQueuePair::MaxRdAtomic", UintegerValue(16));
        return t;
    }

    void DoRun() override
    {
        UintegerValue def;
        CreateObject<RdmaQueuePair>()->GetAttribute("MaxRdAtomic", def);
        NS_TEST_ASSERT_MSG_EQ(def.Get(), 16, "default: ConnectX max_qp_rd_atom");
        const Time one = Run(16, 1);
        const Time serial = Run(1, 64);
        const Time parallel = Run(16, 64);
        std::cout << "one READ " << one.As(Time::NS) << ", 64 with MaxRdAtomic 1 "
                  << serial.As(Time::NS) << ", with 16 " << parallel.As(Time::NS) << std::endl;
        NS_TEST_ASSERT_MSG_EQ_TOL(serial.GetSeconds(),
                                  64 * one.GetSeconds(),
                                  64e-12,
                                  "limit 1: one after the other");
        const double respWire = (1000 + 82 + 4) * 8 / 100e9; // READ response only, on the wire
        NS_TEST_ASSERT_MSG_GT_OR_EQ(parallel.GetSeconds(),
                                    4 * one.GetSeconds() - 1e-12,
                                    "limit 16: four rounds at least");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(parallel.GetSeconds(),
                                    4 * one.GetSeconds() + 64 * respWire,
                                    "limit 16: four rounds and the responses' serialization");
        NS_TEST_ASSERT_MSG_GT(serial.GetSeconds() / parallel.GetSeconds(),
                              10.0,
                              "the limit is what makes the difference");
    }
};

/**
 * One 1 MB READ (1000 responses of 1000 bytes) through one RoCEv2 switch at the
 * defaults (cut-through, 300 ns): the request (BTH + RETH, 74 bytes + 24 of FCS,
 * preamble and gap) crosses, then the responses stream back: total / R + L + 2d for
 * each direction, with total the responses' wire bytes (1082 each, + 4 for the AETH
 * of the first and last) and the request's. The same closed form as a WRITE's
 * (OneSwitchWriteClosedForm) with the request in the ACK's place.
 */
class ReadOneSwitchRoceTestCase : public TestCase
{
  public:
    ReadOneSwitchRoceTestCase()
        : TestCase("READ: 1 MB through one RoCEv2 switch in the closed-form time")
    {
    }

  private:
    void DoRun() override
    {
        const auto [l, ct] = SwitchForwardingDefaults<RoceSwitch>();
        NS_TEST_ASSERT_MSG_EQ(ct, true, "default: cut-through");
        const double rate = 100e9;
        const double d = 1e-6;
        const double total = 1000000 + 1000 * 82.0 + 2 * AethHeader::SIZE;
        const double first = 1000 + 82 + AethHeader::SIZE;
        const double request =
            62 + 24 - AethHeader::SIZE + RethHeader::SIZE; // an ACK's - AETH + RETH
        const double closed =
            OneSwitchWriteClosedForm(total, first, request, rate, d, l.GetSeconds(), true);
        RoceFabricHelper helper;
        uint64_t readBytes = 0;
        const Time fct = OneSwitchReads(helper, 1000000, 1, &readBytes);
        std::cout << "RoCEv2 1 MB READ: " << fct.As(Time::NS) << ", closed form " << closed * 1e9
                  << " ns" << std::endl;
        ReportValidation("read-1MB-rocev2-ns", fct.GetSeconds() * 1e9);
        ReportValidation("read-1MB-rocev2-ns.expected", closed * 1e9);
        NS_TEST_ASSERT_MSG_EQ_TOL(fct.GetSeconds(), closed, 2e-9, "within 2 ns");
        NS_TEST_ASSERT_MSG_EQ(readBytes, 1000000, "read_bytes: the bytes the responses brought");
    }
};

/**
 * The same on InfiniBand (MTU 1024, 1 MiB: 1024 responses; LRH + BTH + ICRC + VCRC
 * = 26 bytes a packet, + 4 for an AETH; the request 26 + 16 of RETH; 150 ns
 * cut-through switch). The ports also send 6-byte flow-control packets (credit
 * updates, IbNetDevice) ahead of data as blocks are freed: the bound allows one per
 * response, as the WRITE test does (measured: 41.8 ns over the closed form).
 */
class ReadOneSwitchIbTestCase : public TestCase
{
  public:
    ReadOneSwitchIbTestCase()
        : TestCase("READ: 1 MiB through one InfiniBand switch in the closed-form time")
    {
    }

  private:
    void DoRun() override
    {
        const auto [l, ct] = SwitchForwardingDefaults<IbSwitch>();
        NS_TEST_ASSERT_MSG_EQ(ct, true, "default: cut-through");
        const double rate = 100e9;
        const double d = 1e-6;
        const double base = IbFrame::HeaderBytes(RdmaOpcode::READ_RESPONSE_MIDDLE, false);
        const double total = 1048576 + 1024 * base + 2 * IbFrame::AETH_BYTES;
        const double first = 1024 + base + IbFrame::AETH_BYTES;
        const double request = IbFrame::HeaderBytes(RdmaOpcode::READ_REQUEST, false);
        const double closed =
            OneSwitchWriteClosedForm(total, first, request, rate, d, l.GetSeconds(), true);
        IbFabricHelper helper;
        helper.SetHcaAttribute("Mtu", UintegerValue(1024));
        uint64_t readBytes = 0;
        const Time fct = OneSwitchReads(helper, 1048576, 1, &readBytes);
        std::cout << "IB 1 MiB READ: " << fct.As(Time::NS) << ", closed form " << closed * 1e9
                  << " ns" << std::endl;
        ReportValidation("read-1MiB-ib-ns", fct.GetSeconds() * 1e9);
        ReportValidation("read-1MiB-ib-ns.expected", closed * 1e9);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(fct.GetSeconds(), closed - 1e-12, "at least the closed form");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(fct.GetSeconds(),
                                    closed + 1.05 * 1024 * 6 * 8 / rate,
                                    "the closed form and the credit updates");
        NS_TEST_ASSERT_MSG_EQ(readBytes, 1048576, "read_bytes");
    }
};

/**
 * A READ whose responses cross a cable that fails: on a 2-leaf, 2-spine fabric host 0
 * reads 4 MB from host 2 (the other leaf); 20 us in, one leaf-spine cable fails for
 * good (each of the four in turn, one run each). In a run where it carried the
 * responses they are lost until the leaves route around it: the requester re-issues
 * the READ from the first missing PSN (a later response's gap, or its timer) and the
 * READ completes with each of its bytes received once. Every run completes so.
 */
class ReadLossRecoveryTestCase : public TestCase
{
  public:
    ReadLossRecoveryTestCase()
        : TestCase("READ: lost responses (a failed cable) are re-read from the missing PSN")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4000000;
        uint32_t lossyRuns = 0;
        uint32_t runs = 0;
        for (uint32_t link = 0;; ++link)
        {
            UsePicoseconds();
            Ptr<LeafSpineTopologyHelper> h = CreateObject<LeafSpineTopologyHelper>();
            h->SetAttribute("Leaves", UintegerValue(2));
            h->SetAttribute("Spines", UintegerValue(2));
            h->SetAttribute("HostsPerLeaf", UintegerValue(2));
            Ptr<TopologyGraph> g = h->Build();
            if (link >= g->GetNLinks())
            {
                break;
            }
            const TopologyGraph::Link& ends = g->GetLink(link);
            if (g->IsHost(ends.a) || g->IsHost(ends.b))
            {
                continue;
            }
            RoceFabricHelper helper;
            Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
            std::vector<RdmaFabric::MessageRecord> done;
            fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
                [&done](const RdmaFabric::MessageRecord& r) { done.push_back(r); }));
            fabric->PostRead(0, 2, bytes, 1, 0);
            fabric->FailLink(link, MicroSeconds(20));
            Simulator::Stop(MilliSeconds(200));
            Simulator::Run();
            const RdmaFabric::Counters c = fabric->GetCounters();
            std::cout << "READ, link " << link << " failed: " << done.size()
                      << " done, link-down drops " << c.linkDownDrops << ", retransmitted "
                      << c.retransmittedPackets << ", timeouts " << c.timeouts << ", read bytes "
                      << c.readBytes << std::endl;
            NS_TEST_ASSERT_MSG_EQ(done.size(), 1, "the READ completes");
            NS_TEST_ASSERT_MSG_EQ(c.readBytes, bytes, "each byte received once");
            if (c.linkDownDrops > 0)
            {
                lossyRuns++;
                NS_TEST_ASSERT_MSG_GT(c.retransmittedPackets, 0, "the READ was re-issued");
            }
            runs++;
            fabric->Dispose();
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(runs, 4, "four leaf-spine cables");
        NS_TEST_ASSERT_MSG_GT(lossyRuns, 0, "some failure lost responses");
    }
};

/// The RDMA READ tests.
class RdmaReadTestSuite : public TestSuite
{
  public:
    RdmaReadTestSuite()
        : TestSuite("ai-fabric-rdma-read", TestSuite::UNIT)
    {
        AddTestCase(new ReadPsnRulesTestCase, TestCase::QUICK);
        AddTestCase(new ReadMaxRdAtomicTestCase, TestCase::QUICK);
        AddTestCase(new ReadOneSwitchRoceTestCase, TestCase::QUICK);
        AddTestCase(new ReadOneSwitchIbTestCase, TestCase::QUICK);
        AddTestCase(new ReadLossRecoveryTestCase, TestCase::QUICK);
    }
};

static RdmaReadTestSuite g_rdmaReadTestSuite;
