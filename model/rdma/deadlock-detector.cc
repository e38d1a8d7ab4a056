/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "deadlock-detector.h"

#include "rdma-fabric.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DeadlockDetector");
NS_OBJECT_ENSURE_REGISTERED(DeadlockDetector);

TypeId
DeadlockDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DeadlockDetector")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<DeadlockDetector>()
            .AddAttribute("CheckInterval",
                          "Simulated time between two looks at the fabric's stalled queues "
                          "(one event each, off the frame path). A deadlock is reported at "
                          "most StallTime + CheckInterval after its last queue stopped",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&DeadlockDetector::m_interval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("StallTime",
                          "How long every queue of a cycle must have been blocked without "
                          "sending before the cycle counts as a deadlock. 500 us is a chosen "
                          "value, not a measured one: longer than one full-quanta PFC pause at "
                          "100 Gb/s (65535 x 512 bit times = 335 us), far shorter than any "
                          "run a deadlock would otherwise waste",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&DeadlockDetector::m_stallTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("StopSimulation",
                          "Stop the simulation (Simulator::Stop) when a deadlock is found",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DeadlockDetector::m_stop),
                          MakeBooleanChecker())
            .AddTraceSource("Deadlock",
                            "A cycle of stalled queues was found: (time, the cycle in wait "
                            "order)",
                            MakeTraceSourceAccessor(&DeadlockDetector::m_deadlockTrace),
                            "ns3::DeadlockDetector::DeadlockTracedCallback");
    return tid;
}

DeadlockDetector::DeadlockDetector()
    : m_stop(true)
{
}

DeadlockDetector::~DeadlockDetector() = default;

void
DeadlockDetector::DoDispose()
{
    m_event.Cancel();
    m_fabric = nullptr;
    Object::DoDispose();
}

void
DeadlockDetector::Install(Ptr<RdmaFabric> fabric)
{
    m_fabric = fabric;
    m_laneName = fabric->GetLaneName();
    m_event = Simulator::Schedule(m_interval, &DeadlockDetector::Check, this);
}

void
DeadlockDetector::Check()
{
    m_graph.Clear();
    m_fabric->CollectStalledQueues(m_stallTime.GetTimeStep(), m_graph);
    const std::vector<uint32_t> cycle = m_graph.FindCycle();
    if (cycle.empty())
    {
        m_event = Simulator::Schedule(m_interval, &DeadlockDetector::Check, this);
        return;
    }
    m_foundAt = Simulator::Now();
    for (uint32_t v : cycle)
    {
        m_cycle.push_back(m_graph.GetVertex(v));
    }
    NS_LOG_INFO("deadlock at " << m_foundAt.As(Time::US) << ": " << DescribeCycle());
    m_deadlockTrace(m_foundAt, m_cycle);
    if (m_stop)
    {
        Simulator::Stop();
    }
}

bool
DeadlockDetector::Found() const
{
    return !m_cycle.empty();
}

const std::vector<WaitForGraph::Vertex>&
DeadlockDetector::GetCycle() const
{
    return m_cycle;
}

Time
DeadlockDetector::GetDetectionTime() const
{
    return m_foundAt;
}

Time
DeadlockDetector::GetStalledSince() const
{
    int64_t since = 0;
    for (const auto& v : m_cycle)
    {
        since = std::max(since, v.sinceTicks);
    }
    return TimeStep(since);
}

const std::string&
DeadlockDetector::GetLaneName() const
{
    return m_laneName;
}

std::string
DeadlockDetector::DescribeCycle() const
{
    std::ostringstream os;
    for (const auto& v : m_cycle)
    {
        os << v.node << ":" << v.port << ":" << +v.lane << " -> ";
    }
    if (!m_cycle.empty())
    {
        os << m_cycle.front().node << ":" << m_cycle.front().port << ":" << +m_cycle.front().lane;
    }
    return os.str();
}

} // namespace ns3
