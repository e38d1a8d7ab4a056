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

#include "ns3/background-traffic-generator.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-application.h"
#include "ns3/collective-rank-application.h"
#include "ns3/dcqcn-congestion-control.h"
#include "ns3/dctcp-congestion-control.h"
#include "ns3/deadlock-detector.h"
#include "ns3/flow-workload.h"
#include "ns3/hpcc-congestion-control.h"
#include "ns3/ib-fabric.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/ibta-congestion-control.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/rdma-flow-application.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/swift-congestion-control.h"
#include "ns3/test.h"
#include "ns3/timely-congestion-control.h"
#include "ns3/traced-value.h"

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
        AI_FABRIC_TRACE(IbSwitch, "Drop", IbSwitch::DropTracedCallback),
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
        AI_FABRIC_TRACE(RoceSwitch, "Drop", RoceSwitch::DropTracedCallback),
        AI_FABRIC_TRACE(PfcWatchdog, "Storm", PfcWatchdog::StormTracedCallback),
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
        AI_FABRIC_TRACE(FlowWorkload, "Posted", FlowWorkload::PostedTracedCallback),
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

class TraceSourceTestSuite : public TestSuite
{
  public:
    TraceSourceTestSuite()
        : TestSuite("ai-fabric-trace-sources", AI_FABRIC_UNIT_SUITE)
    {
        AddTestCase(new EveryTraceSourceConnectsTestCase(), AI_FABRIC_QUICK);
    }
};

TraceSourceTestSuite g_traceSourceTestSuite;

} // namespace
