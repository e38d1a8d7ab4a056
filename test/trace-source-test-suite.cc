/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every trace source of the module can be connected with the signature it documents.
 *
 * The suite walks every registered TypeId of the AiFabric group and each trace source
 * it declares. The table below gives, per source, its signature typedef; a sink of
 * exactly that signature is connected (TraceConnectWithoutContext) on an object of
 * the type, or of a concrete subtype for an abstract one. A source missing from the
 * table, a signature string other than the table's, or a connection ns-3 refuses
 * fails the suite; a typedef whose parameters differ from the member's does not
 * compile or aborts at Connect.
 */
#include "ai-fabric-test-compat.h"
#include "ai-fabric-test-util.h"

#include "ns3/aggregation-manager.h"
#include "ns3/background-traffic-generator.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/collective-rank-application.h"
#include "ns3/config.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/dctcp-congestion-control.h"
#include "ns3/deadlock-detector.h"
#include "ns3/fast-forward-transport.h"
#include "ns3/fct-attribution.h"
#include "ns3/flow-workload.h"
#include "ns3/hpcc-congestion-control.h"
#include "ns3/ib-fabric-helper.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-hca.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/ibta-congestion-control.h"
#include "ns3/ipoib-interface.h"
#include "ns3/nvls-switch-engine.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/powertcp-congestion-control.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-flow-application.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric-helper.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-engine.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/sharp-aggregation-engine.h"
#include "ns3/string.h"
#include "ns3/swift-congestion-control.h"
#include "ns3/test.h"
#include "ns3/timely-congestion-control.h"
#include "ns3/traced-value.h"
#include "ns3/training-engine.h"
#include "ns3/uet-trimmer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

using namespace ns3;

namespace
{

template <typename... Args>
void
Sink(Args...)
{
}

/// A sink whose parameters are those of the signature typedef \p T.
template <typename... Args>
CallbackBase
SinkFor(void (*)(Args...))
{
    return MakeCallback(&Sink<Args...>);
}

struct Documented
{
    std::string signature; ///< the callback string AddTraceSource carries
    CallbackBase sink;     ///< a sink of that typedef's parameters
};

#define AI_FABRIC_TRACE(cls, source, sig)                                                          \
    {                                                                                              \
        {"ns3::" #cls, source},                                                                    \
        {                                                                                          \
            "ns3::" #sig, SinkFor(static_cast<sig>(nullptr))                                       \
        }                                                                                          \
    }

/// (TypeId, source) -> its documented signature and a sink of it
std::map<std::pair<std::string, std::string>, Documented>
Table()
{
    return {
        AI_FABRIC_TRACE(CollectiveApplication,
                        "OperationFinished",
                        CollectiveApplication::RecordTracedCallback),
        AI_FABRIC_TRACE(CollectiveAlgorithm, "Post", CollectiveAlgorithm::PostTracedCallback),
        AI_FABRIC_TRACE(IbNetDevice, "PhyTxBegin", Packet::TracedCallback),
        AI_FABRIC_TRACE(IbNetDevice, "PromiscSniffer", Packet::TracedCallback),
        AI_FABRIC_TRACE(IbNetDevice, "LinkDownDrop", Packet::TracedCallback),
        AI_FABRIC_TRACE(IbNetDevice, "Credits", IbNetDevice::CreditsCallback),
        AI_FABRIC_TRACE(IbHca, "PKeyViolation", IbHca::PKeyViolationCallback),
        AI_FABRIC_TRACE(IbSwitch, "Drop", IbSwitch::DropTracedCallback),
        AI_FABRIC_TRACE(NvlsSwitchEngine, "SliceReduced", NvlsSwitchEngine::SliceReducedCallback),
        AI_FABRIC_TRACE(SharpAggregationEngine,
                        "OperationReduced",
                        SharpAggregationEngine::OperationReducedCallback),
        AI_FABRIC_TRACE(AggregationManager,
                        "TreeAllocated",
                        AggregationManager::TreeAllocatedCallback),
        AI_FABRIC_TRACE(AggregationManager, "TreeRefused", AggregationManager::TreeRefusedCallback),
        AI_FABRIC_TRACE(IbFabric, "LinkFailed", IbFabric::LinkFailedCallback),
        AI_FABRIC_TRACE(IbFabric, "Rerouted", IbFabric::ReroutedCallback),
        AI_FABRIC_TRACE(RoceFabric, "LinkStateChange", RoceFabric::LinkStateChangeCallback),
        AI_FABRIC_TRACE(RoceFabric, "RoutesConverged", RoceFabric::RoutesConvergedCallback),
        AI_FABRIC_TRACE(SharedBufferMmu, "SharedUsed", TracedValueCallback::Uint64),
        AI_FABRIC_TRACE(SharedBufferMmu, "Drop", SharedBufferMmu::DropTracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "PhyTxBegin", Packet::TracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "PhyRxEnd", Packet::TracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "PromiscSniffer", Packet::TracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "Pfc", RoceNetDevice::PfcTracedCallback),
        AI_FABRIC_TRACE(RoceNic, "IpDrop", Packet::TracedCallback),
        AI_FABRIC_TRACE(IpoibInterface, "IpDrop", Packet::TracedCallback),
        AI_FABRIC_TRACE(RoceSwitch, "Drop", RoceSwitch::DropTracedCallback),
        AI_FABRIC_TRACE(RoceSwitch, "Enqueue", RoceSwitch::QueueFrameTracedCallback),
        AI_FABRIC_TRACE(RoceSwitch, "Dequeue", RoceSwitch::QueueFrameTracedCallback),
        AI_FABRIC_TRACE(RoceSwitch, "Mark", RoceSwitch::QueueFrameTracedCallback),
        AI_FABRIC_TRACE(RoceSwitch, "QueueLength", RoceSwitch::QueueLengthTracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "PauseSent", RoceNetDevice::PauseTracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "ResumeSent", RoceNetDevice::ResumeTracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "PauseReceived", RoceNetDevice::PauseTracedCallback),
        AI_FABRIC_TRACE(RoceNetDevice, "ResumeReceived", RoceNetDevice::ResumeTracedCallback),
        AI_FABRIC_TRACE(RoceNic, "Enqueue", RoceNic::QueueFrameTracedCallback),
        AI_FABRIC_TRACE(RoceNic, "Dequeue", RoceNic::QueueFrameTracedCallback),
        AI_FABRIC_TRACE(RoceNic, "QueueLength", RoceNic::QueueLengthTracedCallback),
        AI_FABRIC_TRACE(RdmaNic, "CnpSent", RdmaNic::CnpTracedCallback),
        AI_FABRIC_TRACE(RdmaNic, "CnpReceived", RdmaNic::CnpTracedCallback),
        AI_FABRIC_TRACE(RdmaNic, "QpCreated", RdmaNic::QpCreatedTracedCallback),
        AI_FABRIC_TRACE(RdmaQueuePair, "Error", RdmaQueuePair::ErrorTracedCallback),
        AI_FABRIC_TRACE(RdmaQueuePair, "RetransmitTimeout", RdmaQueuePair::TimeoutTracedCallback),
        AI_FABRIC_TRACE(IbSwitch, "QueueLength", IbSwitch::QueueLengthTracedCallback),
        AI_FABRIC_TRACE(IbNetDevice, "CreditStall", IbNetDevice::CreditStallCallback),
        AI_FABRIC_TRACE(PfcWatchdog, "Storm", PfcWatchdog::StormTracedCallback),
        AI_FABRIC_TRACE(FctAttribution, "MessageAttributed", FctAttribution::ResultCallback),
        AI_FABRIC_TRACE(UetTrimmer, "Trim", UetTrimmer::TrimTracedCallback),
        AI_FABRIC_TRACE(BackgroundTrafficGenerator,
                        "Flow",
                        BackgroundTrafficGenerator::FlowTracedCallback),
        AI_FABRIC_TRACE(DeadlockDetector, "Deadlock", DeadlockDetector::DeadlockTracedCallback),
        AI_FABRIC_TRACE(RdmaNic, "MessageSent", RdmaNic::MessageSentTracedCallback),
        AI_FABRIC_TRACE(RdmaNic, "MessageDelivered", RdmaNic::MessageDeliveredTracedCallback),
        AI_FABRIC_TRACE(SwiftCongestionControl, "Cwnd", TracedValueCallback::Double),
        AI_FABRIC_TRACE(SwiftCongestionControl, "TargetDelay", TracedValueCallback::Time),
        AI_FABRIC_TRACE(DcqcnCongestionControl, "Alpha", TracedValueCallback::Double),
        AI_FABRIC_TRACE(DcqcnCongestionControl, "TargetRate", TracedValueCallback::Uint64),
        AI_FABRIC_TRACE(DctcpCongestionControl, "Alpha", TracedValueCallback::Double),
        AI_FABRIC_TRACE(IbtaCongestionControl, "Ccti", TracedValueCallback::Uint32),
        AI_FABRIC_TRACE(RdmaCongestionControl, "Rate", TracedValueCallback::Uint64),
        AI_FABRIC_TRACE(RdmaCongestionControl, "Window", TracedValueCallback::Uint64),
        AI_FABRIC_TRACE(TimelyCongestionControl, "Gradient", TracedValueCallback::Double),
        AI_FABRIC_TRACE(HpccCongestionControl, "Utilization", TracedValueCallback::Double),
        AI_FABRIC_TRACE(PowertcpCongestionControl, "Power", TracedValueCallback::Double),
        AI_FABRIC_TRACE(FlowWorkload, "Posted", FlowWorkload::PostedTracedCallback),
        AI_FABRIC_TRACE(TrainingEngine, "Interval", TrainingEngine::IntervalTracedCallback),
        AI_FABRIC_TRACE(FastForwardTransport,
                        "Skipped",
                        FastForwardTransport::SkippedTracedCallback),
        AI_FABRIC_TRACE(RdmaFlowApplication,
                        "MessageCompleted",
                        RdmaFlowApplication::MessageCompletedCallback),
        AI_FABRIC_TRACE(CollectiveRankApplication,
                        "CollectiveCompleted",
                        CollectiveRankApplication::CollectiveCompletedCallback),
    };
}

/// \p tid itself when it has a constructor, else a registered subtype that has one
bool
Concrete(TypeId tid, TypeId* out)
{
    if (tid.HasConstructor())
    {
        *out = tid;
        return true;
    }
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId t = TypeId::GetRegistered(i);
        if (t != tid && t.HasConstructor() && t.IsChildOf(tid))
        {
            *out = t;
            return true;
        }
    }
    return false;
}

class EveryTraceSourceConnectsTestCase : public TestCase
{
  public:
    EveryTraceSourceConnectsTestCase()
        : TestCase("every trace source of every AiFabric TypeId connects with its signature")
    {
    }

  private:
    void DoRun() override
    {
        const auto table = Table();
        uint32_t sources = 0;
        for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
        {
            TypeId tid = TypeId::GetRegistered(i);
            if (tid.GetGroupName() != "AiFabric")
            {
                continue;
            }
            for (std::size_t j = 0; j < tid.GetTraceSourceN(); ++j)
            {
                const TypeId::TraceSourceInformation info = tid.GetTraceSource(j);
                const std::string what = tid.GetName() + "::" + info.name;
                auto it = table.find({tid.GetName(), info.name});
                NS_TEST_ASSERT_MSG_EQ((it != table.end()),
                                      true,
                                      what << " is not in this suite's table");
                NS_TEST_ASSERT_MSG_EQ(info.callback,
                                      it->second.signature,
                                      what << ": the signature AddTraceSource documents");
                TypeId concrete;
                NS_TEST_ASSERT_MSG_EQ(Concrete(tid, &concrete),
                                      true,
                                      what << ": no constructible type to connect on");
                ObjectFactory factory;
                factory.SetTypeId(concrete);
                Ptr<Object> object = factory.Create();
                NS_TEST_ASSERT_MSG_EQ(
                    object->TraceConnectWithoutContext(info.name, it->second.sink),
                    true,
                    what << " connects on a " << concrete.GetName());
                NS_TEST_ASSERT_MSG_EQ(
                    object->TraceDisconnectWithoutContext(info.name, it->second.sink),
                    true,
                    what << " disconnects");
                object->Dispose();
                ++sources;
            }
        }
        std::cout << "connected " << sources << " trace sources" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(sources, table.size(), "every table entry is a trace source");
    }
};

/// A star of \p hosts hosts on one switch (100 Gb/s, 1 us cables).
Ptr<TopologyGraph>
Star(uint32_t hosts)
{
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    const uint32_t sw = g->AddSwitch();
    for (uint32_t i = 0; i < hosts; ++i)
    {
        g->AddLink(g->AddHost(), sw, DataRate("100Gbps"), MicroSeconds(1));
    }
    return g;
}

/// Queue lengths as the QueueLength trace of a fabric's switches tells them, by
/// (switch node, port, priority or VL), and the largest seen.
struct QueueLengths
{
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint64_t> now;
    uint64_t max{0};
    uint64_t calls{0};

    void Update(uint32_t node, uint32_t port, uint8_t q, uint64_t bytes)
    {
        now[{node, port, q}] = bytes;
        max = std::max(max, bytes);
        ++calls;
    }
};

/**
 * A 15-to-1 incast of 1 MB each on one RoCEv2 switch of 4 MiB buffer under DCQCN (the runner's
 * default hpcc-run preset, its switch ECN marking included): the queue, PFC, ECN, CNP and
 * queue-pair traces, connected by their Config paths, count what the fabric's
 * counters (summary.json's pfc_pauses, pfc_resumes, ecn_marks, cnps, queue_pairs)
 * count, and the queue length the trace tells equals the switch's GetQueueBytes (what
 * qlen.csv samples) at every microsecond; the NICs' egress traces count every frame
 * their ports send and tell GetControlQueueBytes (host 0 also sends, so its ACKs
 * queue behind its data).
 */
class RoceTracesFireTestCase : public TestCase
{
  public:
    RoceTracesFireTestCase()
        : TestCase("RoCEv2 queue, PFC, CNP and QpCreated traces agree with the counters")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        for (const auto& [name, value] : DcqcnCongestionControl::GetSwitchPreset("hpcc-run"))
        {
            Config::SetDefault("ns3::EcnMarker::" + name, StringValue(value));
        }
        // A 4 MiB switch buffer (32 MiB by default would hold the whole incast): PFC.
        Config::SetDefault("ns3::SharedBufferMmu::BufferSize", UintegerValue(4 << 20));
        const uint32_t senders = 15;
        Ptr<TopologyGraph> g = Star(senders + 1);
        RoceFabricHelper helper;
        helper.SetCongestionControl("dcqcn", "hpcc-run");
        Ptr<RoceFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Ptr<RoceSwitch> sw = fabric->GetSwitches().at(0);

        QueueLengths qlen;
        uint64_t enqueued = 0;
        uint64_t dequeued = 0;
        uint64_t marks = 0;
        uint64_t markedWithoutCe = 0;
        uint64_t pausesSent = 0;
        uint64_t resumesSent = 0;
        uint64_t pausesReceived = 0;
        uint64_t resumesReceived = 0;
        uint64_t cnpsSent = 0;
        uint64_t cnpsReceived = 0;
        uint64_t qpsCreated = 0;
        uint64_t rateCalls = 0;
        uint64_t rateMax = 0;
        uint64_t samples = 0;
        uint64_t mismatches = 0;
        uint64_t sampledMax = 0;

        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RoceSwitch/QueueLength",
            MakeLambdaCallback<void, uint32_t, uint32_t, uint8_t, uint64_t>(
                [&qlen](uint32_t n, uint32_t p, uint8_t q, uint64_t b) {
                    qlen.Update(n, p, q, b);
                }));
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RoceSwitch/Enqueue",
            MakeLambdaCallback<void, uint32_t, uint32_t, uint8_t, Ptr<const Packet>>(
                [&enqueued](uint32_t, uint32_t, uint8_t, Ptr<const Packet>) { ++enqueued; }));
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RoceSwitch/Dequeue",
            MakeLambdaCallback<void, uint32_t, uint32_t, uint8_t, Ptr<const Packet>>(
                [&dequeued](uint32_t, uint32_t, uint8_t, Ptr<const Packet>) { ++dequeued; }));
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RoceSwitch/Mark",
            MakeLambdaCallback<void, uint32_t, uint32_t, uint8_t, Ptr<const Packet>>(
                [&](uint32_t, uint32_t, uint8_t, Ptr<const Packet> p) {
                    ++marks;
                    RoceFrameView view;
                    if (!RoceFrame::Peek(*p, view) || view.ecn != 3)
                    {
                        ++markedWithoutCe; // the frame must carry CE (RFC 3168: 11)
                    }
                }));
        // The NICs' egress: control queues by (host, priority); data passes through.
        std::map<std::pair<uint32_t, uint8_t>, uint64_t> nicQlen;
        uint64_t nicTracedMax = 0;
        uint64_t nicEnqueued = 0;
        uint64_t nicDequeued = 0;
        for (uint32_t h = 0; h <= senders; ++h)
        {
            Ptr<RoceNic> nic = fabric->GetNic(h);
            nic->TraceConnectWithoutContext(
                "QueueLength",
                MakeLambdaCallback<void, uint8_t, uint64_t>(
                    [&nicQlen, &nicTracedMax, h](uint8_t q, uint64_t b) {
                        nicQlen[{h, q}] = b;
                        nicTracedMax = std::max(nicTracedMax, b);
                    }));
        }
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RoceNic/Enqueue",
            MakeLambdaCallback<void, uint8_t, Ptr<const Packet>>(
                [&nicEnqueued](uint8_t, Ptr<const Packet>) { ++nicEnqueued; }));
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RoceNic/Dequeue",
            MakeLambdaCallback<void, uint8_t, Ptr<const Packet>>(
                [&nicDequeued](uint8_t, Ptr<const Packet>) { ++nicDequeued; }));
        uint64_t nicMismatches = 0;
        uint64_t nicSampledMax = 0;
        const std::string dev = "/NodeList/*/DeviceList/*/$ns3::RoceNetDevice/";
        Config::ConnectWithoutContext(
            dev + "PauseSent",
            MakeLambdaCallback<void, Ptr<const RoceNetDevice>, uint8_t, uint16_t>(
                [&pausesSent](Ptr<const RoceNetDevice>, uint8_t, uint16_t quanta) {
                    pausesSent += quanta > 0 ? 1 : 1000000; // a resume here would show
                }));
        Config::ConnectWithoutContext(
            dev + "ResumeSent",
            MakeLambdaCallback<void, Ptr<const RoceNetDevice>, uint8_t>(
                [&resumesSent](Ptr<const RoceNetDevice>, uint8_t) { ++resumesSent; }));
        Config::ConnectWithoutContext(
            dev + "PauseReceived",
            MakeLambdaCallback<void, Ptr<const RoceNetDevice>, uint8_t, uint16_t>(
                [&pausesReceived](Ptr<const RoceNetDevice>, uint8_t, uint16_t quanta) {
                    pausesReceived += quanta == 65535 ? 1 : 1000000; // PauseQuanta default
                }));
        Config::ConnectWithoutContext(
            dev + "ResumeReceived",
            MakeLambdaCallback<void, Ptr<const RoceNetDevice>, uint8_t>(
                [&resumesReceived](Ptr<const RoceNetDevice>, uint8_t) { ++resumesReceived; }));
        Config::ConnectWithoutContext("/NodeList/*/$ns3::RdmaNic/CnpSent",
                                      MakeLambdaCallback<void, Ptr<const RdmaQueuePair>>(
                                          [&cnpsSent](Ptr<const RdmaQueuePair>) { ++cnpsSent; }));
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RdmaNic/CnpReceived",
            MakeLambdaCallback<void, Ptr<const RdmaQueuePair>>(
                [&cnpsReceived](Ptr<const RdmaQueuePair>) { ++cnpsReceived; }));
        auto onRate = MakeLambdaCallback<void, uint64_t, uint64_t>(
            [&rateCalls, &rateMax](uint64_t, uint64_t now) {
                ++rateCalls;
                rateMax = std::max(rateMax, now);
            });
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::RdmaNic/QpCreated",
            MakeLambdaCallback<void, Ptr<RdmaQueuePair>>([&](Ptr<RdmaQueuePair> qp) {
                ++qpsCreated;
                // the controller is there already: its per-QP traces connect now
                qp->GetCongestionControl()->TraceConnectWithoutContext("Rate", onRate);
            }));

        for (uint32_t i = 1; i <= senders; ++i)
        {
            fabric->PostWrite(i, 0, 1000000, i, 0);
        }
        // Host 0 sends too: its ACKs and CNPs wait behind its data on the wire.
        fabric->PostWrite(0, 1, 4000000, 100, 0);
        std::function<void()> sample = [&]() {
            for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
            {
                for (uint8_t q = 0; q < 8; ++q)
                {
                    const uint64_t actual = sw->GetQueueBytes(port, q);
                    const auto it = qlen.now.find({fabric->GetSwitchNode(0), port, q});
                    const uint64_t traced = it == qlen.now.end() ? 0 : it->second;
                    mismatches += actual != traced;
                    sampledMax = std::max(sampledMax, actual);
                    ++samples;
                }
            }
            for (uint32_t h = 0; h <= senders; ++h)
            {
                for (uint8_t q = 0; q < 8; ++q)
                {
                    const uint64_t actual = fabric->GetNic(h)->GetControlQueueBytes(q);
                    const auto it = nicQlen.find({h, q});
                    nicMismatches += actual != (it == nicQlen.end() ? 0 : it->second);
                    nicSampledMax = std::max(nicSampledMax, actual);
                }
            }
            if (Simulator::Now() < MilliSeconds(5))
            {
                ScheduleLambda(MicroSeconds(1), sample);
            }
        };
        ScheduleLambda(MicroSeconds(1), sample);
        Simulator::Run();
        const RdmaFabric::Counters k = fabric->GetCounters();
        // Every frame a NIC's port sent but its own PFC frames went through the egress.
        uint64_t nicFrames = 0;
        for (uint32_t h = 0; h <= senders; ++h)
        {
            Ptr<RoceNetDevice> d = fabric->GetNic(h)->GetDevice();
            nicFrames += d->GetTxFrames() - d->GetPfcPausesSent() - d->GetPfcResumesSent();
        }
        std::cout << "NICs: enqueued " << nicEnqueued << ", dequeued " << nicDequeued
                  << ", frames sent " << nicFrames << ", control queue max " << nicTracedMax
                  << " B traced, " << nicSampledMax << " B sampled" << std::endl;
        NS_TEST_EXPECT_MSG_GT(nicTracedMax, 0, "control frames queued at a busy NIC port");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(nicTracedMax, nicSampledMax, "the trace sees every peak");
        NS_TEST_EXPECT_MSG_EQ(nicDequeued, nicFrames, "NIC Dequeue: every frame sent");
        NS_TEST_EXPECT_MSG_EQ(nicEnqueued, nicDequeued, "NIC Enqueue: each of them, before");
        NS_TEST_EXPECT_MSG_EQ(nicMismatches, 0, "NIC QueueLength tells GetControlQueueBytes");
        for (const auto& [key, bytes] : nicQlen)
        {
            NS_TEST_EXPECT_MSG_EQ(bytes, 0, "every NIC control queue ends empty");
        }
        std::cout << "incast 15x1MB: pauses " << pausesSent << " (counter " << k.pfcPausesSent
                  << "), resumes " << resumesSent << ", ECN marks " << marks << " (counter "
                  << k.ecnMarks << "), CNPs " << cnpsSent << "/" << cnpsReceived << " (counter "
                  << k.cnpsSent << "), QPs " << qpsCreated << ", Rate calls " << rateCalls
                  << ", queue max " << qlen.max << " B traced, " << sampledMax
                  << " B sampled, enqueued " << enqueued << ", dequeued " << dequeued
                  << ", forwarded " << sw->GetForwarded() << std::endl;

        NS_TEST_EXPECT_MSG_GT(k.pfcPausesSent, 0, "the incast pauses (else PFC is not tested)");
        NS_TEST_EXPECT_MSG_EQ(pausesSent, k.pfcPausesSent, "PauseSent: one call per XOFF frame");
        NS_TEST_EXPECT_MSG_EQ(resumesSent, k.pfcResumesSent, "ResumeSent: one per XON frame");
        NS_TEST_EXPECT_MSG_EQ(pausesReceived, pausesSent, "every pause frame arrived");
        NS_TEST_EXPECT_MSG_EQ(resumesReceived, resumesSent, "every resume frame arrived");
        NS_TEST_EXPECT_MSG_GT(k.ecnMarks, 0, "DCQCN's marking marks");
        NS_TEST_EXPECT_MSG_EQ(marks, k.ecnMarks, "Mark: one call per CE mark");
        NS_TEST_EXPECT_MSG_EQ(markedWithoutCe, 0, "Mark passes the frame with CE set");
        NS_TEST_EXPECT_MSG_GT(k.cnpsSent, 0, "CNPs flow");
        NS_TEST_EXPECT_MSG_EQ(cnpsSent, k.cnpsSent, "CnpSent: one call per CNP");
        NS_TEST_EXPECT_MSG_EQ(cnpsReceived, cnpsSent, "every CNP arrived");
        NS_TEST_EXPECT_MSG_EQ(qpsCreated, 2 * k.queuePairs, "QpCreated: both ends of each");
        NS_TEST_EXPECT_MSG_EQ(qpsCreated,
                              2 * senders,
                              "one connection per host pair (0-1 both ways)");
        NS_TEST_EXPECT_MSG_GT(rateCalls, 0, "the Rate traces connected in QpCreated fire");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(rateMax, 100000000000ULL, "rates within the line rate");
        NS_TEST_EXPECT_MSG_EQ(enqueued, sw->GetForwarded(), "Enqueue: every forwarded frame");
        NS_TEST_EXPECT_MSG_EQ(dequeued, enqueued, "Dequeue: every frame left (no drops)");
        NS_TEST_EXPECT_MSG_GT(samples, 1000, "queues sampled");
        NS_TEST_EXPECT_MSG_EQ(mismatches, 0, "QueueLength tells GetQueueBytes at every sample");
        NS_TEST_EXPECT_MSG_GT(sampledMax, 0, "queues built up");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(qlen.max, sampledMax, "the trace sees every peak");
        for (const auto& [key, bytes] : qlen.now)
        {
            NS_TEST_EXPECT_MSG_EQ(bytes, 0, "every queue ends empty");
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * An 8-to-1 incast on one InfiniBand switch: its QueueLength trace tells
 * GetQueuedBytes(port, VL) at every microsecond, and the CreditStall traces count
 * what the ports' GetCreditStalls count.
 */
class IbTracesFireTestCase : public TestCase
{
  public:
    IbTracesFireTestCase()
        : TestCase("InfiniBand QueueLength and CreditStall traces agree with the counters")
    {
    }

  private:
    void DoRun() override
    {
        UsePicoseconds();
        const uint32_t senders = 8;
        Ptr<TopologyGraph> g = Star(senders + 1);
        IbFabricHelper helper;
        Ptr<IbFabric> fabric = helper.Install(g, RoutingEngine::BuildTable("ecmp", g));
        Ptr<IbSwitch> sw = fabric->GetSwitches().at(0);
        QueueLengths qlen;
        uint64_t stalls = 0;
        uint64_t badStalls = 0;
        Config::ConnectWithoutContext(
            "/NodeList/*/$ns3::IbSwitch/QueueLength",
            MakeLambdaCallback<void, uint32_t, uint32_t, uint8_t, uint64_t>(
                [&qlen](uint32_t n, uint32_t p, uint8_t q, uint64_t b) {
                    qlen.Update(n, p, q, b);
                }));
        Config::ConnectWithoutContext("/NodeList/*/DeviceList/*/$ns3::IbNetDevice/CreditStall",
                                      MakeLambdaCallback<void, uint8_t, uint32_t, uint32_t>(
                                          [&](uint8_t, uint32_t needed, uint32_t credits) {
                                              ++stalls;
                                              badStalls +=
                                                  needed <= credits; // a stall lacks credits
                                          }));
        for (uint32_t i = 1; i <= senders; ++i)
        {
            fabric->PostWrite(i, 0, 1000000, i, 0);
        }
        uint64_t samples = 0;
        uint64_t mismatches = 0;
        uint64_t sampledMax = 0;
        uint32_t swNode = 0;
        for (uint32_t n = 0; n < g->GetNNodes(); ++n)
        {
            if (!g->IsHost(n))
            {
                swNode = n;
            }
        }
        std::function<void()> sample = [&]() {
            for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
            {
                for (uint8_t vl = 0; vl < sw->GetPort(port)->GetNumDataVls(); ++vl)
                {
                    const uint64_t actual = sw->GetQueuedBytes(port, vl);
                    const auto it = qlen.now.find({swNode, port, vl});
                    mismatches += actual != (it == qlen.now.end() ? 0 : it->second);
                    sampledMax = std::max(sampledMax, actual);
                    ++samples;
                }
            }
            if (Simulator::Now() < MilliSeconds(5))
            {
                ScheduleLambda(MicroSeconds(1), sample);
            }
        };
        ScheduleLambda(MicroSeconds(1), sample);
        Simulator::Run();
        uint64_t counted = 0;
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            counted += sw->GetPort(port)->GetCreditStalls();
        }
        for (uint32_t h = 0; h <= senders; ++h)
        {
            counted += fabric->GetHca(h)->GetDevice()->GetCreditStalls();
        }
        std::cout << "IB incast 8x1MB: credit stalls " << stalls << " (counters " << counted
                  << "), queue max " << qlen.max << " B traced, " << sampledMax << " B sampled"
                  << std::endl;
        NS_TEST_EXPECT_MSG_GT(counted, 0, "the incast stalls on credits");
        NS_TEST_EXPECT_MSG_EQ(stalls, counted, "CreditStall: one call per counted stall");
        NS_TEST_EXPECT_MSG_EQ(badStalls, 0, "a stall's packet needs more than the credits");
        NS_TEST_EXPECT_MSG_GT(samples, 1000, "queues sampled");
        NS_TEST_EXPECT_MSG_EQ(mismatches, 0, "QueueLength tells GetQueuedBytes at every sample");
        NS_TEST_EXPECT_MSG_GT(sampledMax, 0, "queues built up");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(qlen.max, sampledMax, "the trace sees every peak");
        Simulator::Destroy();
        Config::Reset();
    }
};

class TraceSourceTestSuite : public TestSuite
{
  public:
    TraceSourceTestSuite()
        : TestSuite("ai-fabric-trace-sources", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new EveryTraceSourceConnectsTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new RoceTracesFireTestCase(), AI_FABRIC_QUICK);
        AddTestCase(new IbTracesFireTestCase(), AI_FABRIC_QUICK);
    }
};

TraceSourceTestSuite g_traceSourceTestSuite;

} // namespace
