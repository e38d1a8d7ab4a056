/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-watchdog.h"

#include "roce-fabric.h"
#include "roce-net-device.h"
#include "roce-switch.h"
#include "shared-buffer-mmu.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcWatchdog");
NS_OBJECT_ENSURE_REGISTERED(PfcWatchdog);

TypeId
PfcWatchdog::GetTypeId()
{
    // Defaults from SONiC's pfcwd (sonic-utilities pfcwd/main.py): detection 200 ms
    // (start_default), restoration twice the detection time when not given (`pfcwd
    // start` without --restoration-time).
    static TypeId tid =
        TypeId("ns3::PfcWatchdog")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<PfcWatchdog>()
            .AddAttribute("DetectionTime",
                          "How long a lossless queue must have been paused by its link "
                          "partner without a break to count as a PFC storm, whether or not "
                          "it holds frames (SONiC pfcwd detection_time, 200 ms in its "
                          "start_default; runs of a few milliseconds need far less)",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_detectionTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RestorationTime",
                          "How long the link partner's pause requests on a queue in a storm "
                          "must have ended (run out or resumed) before its pauses are "
                          "honoured again (SONiC pfcwd restoration_time); 0: twice "
                          "DetectionTime, as SONiC's CLI defaults it",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcWatchdog::m_restorationTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PollInterval",
                          "Simulated time between two polls of every watched queue (SONiC's "
                          "POLL_INTERVAL); a storm is detected at most DetectionTime + "
                          "PollInterval after it began; 0: a tenth of the shorter of "
                          "DetectionTime and RestorationTime",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcWatchdog::m_pollInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "Action",
                "What a detected storm does to its queue: Drop (ignore the "
                "partner's pauses and discard the queue's frames, SONiC's drop) "
                "or Forward (ignore the pauses only, SONiC's forward)",
                EnumValue(PfcWatchdog::DROP),
                MakeEnumAccessor(&PfcWatchdog::m_action),
                MakeEnumChecker(PfcWatchdog::DROP, "Drop", PfcWatchdog::FORWARD, "Forward"))
            .AddTraceSource("Storm",
                            "A storm was detected on a queue (true) or it was restored "
                            "(false): (switch graph node, port, priority, detected)",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormTrace),
                            "ns3::PfcWatchdog::StormTracedCallback");
    return tid;
}

PfcWatchdog::PfcWatchdog()
    : m_action(DROP)
{
}

PfcWatchdog::~PfcWatchdog() = default;

void
PfcWatchdog::DoDispose()
{
    m_event.Cancel();
    m_queues.clear();
    m_fabric = nullptr;
    Object::DoDispose();
}

Time
PfcWatchdog::GetRestorationTime() const
{
    return m_restorationTime > Time(0) ? m_restorationTime : 2 * m_detectionTime;
}

Time
PfcWatchdog::GetPollInterval() const
{
    if (m_pollInterval > Time(0))
    {
        return m_pollInterval;
    }
    return std::max(PicoSeconds(1), std::min(m_detectionTime, GetRestorationTime()) / 10);
}

void
PfcWatchdog::Install(Ptr<RdmaFabric> rdma)
{
    Ptr<RoceFabric> fabric = DynamicCast<RoceFabric>(rdma);
    if (!fabric)
    {
        throw std::invalid_argument("PfcWatchdog: " + rdma->GetInstanceTypeId().GetName() +
                                    " has no PFC pauses to watch; allowed: a RoCEv2 fabric");
    }
    m_fabric = fabric;
    const auto& switches = fabric->GetSwitches();
    for (uint32_t i = 0; i < switches.size(); ++i)
    {
        const Ptr<RoceSwitch>& sw = switches[i];
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            for (uint8_t prio = 0; prio < 8; ++prio)
            {
                if (sw->GetMmu()->IsLossless(prio))
                {
                    m_queues.push_back(Queue{PeekPointer(sw),
                                             PeekPointer(sw->GetPort(port)),
                                             fabric->GetSwitchNode(i),
                                             port,
                                             prio});
                }
            }
        }
    }
    NS_LOG_INFO("watching " << m_queues.size() << " lossless queues every "
                            << GetPollInterval().As(Time::US));
    m_event = Simulator::Schedule(GetPollInterval(), &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::Poll()
{
    const Time now = Simulator::Now();
    const Time restore = GetRestorationTime();
    for (Queue& q : m_queues)
    {
        if (!q.storm)
        {
            if (q.dev->IsPausedByPeer(q.prio) &&
                now - q.dev->GetPauseStart(q.prio) >= m_detectionTime)
            {
                SetStorm(q, true);
            }
        }
        else if (now - q.dev->GetPeerPauseEnd(q.prio) >= restore)
        {
            SetStorm(q, false);
        }
    }
    m_event = Simulator::Schedule(GetPollInterval(), &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::SetStorm(Queue& q, bool storm)
{
    q.storm = storm;
    m_storms += storm ? 1 : -1;
    NS_LOG_INFO((storm ? "storm on " : "restored ") << q.node << ":" << q.port << ":" << +q.prio);
    if (m_action == DROP)
    {
        q.sw->SetStormDrop(q.port, q.prio, storm);
    }
    q.dev->SetPauseIgnored(q.prio, storm);
    m_events.push_back(Event{Simulator::Now(), q.node, q.port, q.prio, storm});
    m_stormTrace(q.node, q.port, q.prio, storm);
}

const std::vector<PfcWatchdog::Event>&
PfcWatchdog::GetEvents() const
{
    return m_events;
}

uint32_t
PfcWatchdog::GetStormsInProgress() const
{
    return m_storms;
}

} // namespace ns3
