/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DEADLOCK_DETECTOR_H
#define DEADLOCK_DETECTOR_H

#include "wait-for-graph.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaFabric;

/**
 * \ingroup ai-fabric
 * \brief Finds a cyclic buffer dependency that has stopped a fabric: a cycle of
 * switch egress queues, each holding frames, each blocked by its link partner (PFC
 * pause on RoCEv2, no credits on InfiniBand) and none sending for StallTime.
 *
 * Every CheckInterval of simulated time one event asks the fabric for its stalled
 * queues and what each waits for (RdmaFabric::CollectStalledQueues, a WaitForGraph)
 * and looks for a cycle; nothing runs on the frame path. Queue u waits for queue v
 * when u's partner holds, queued at v, frames of the ingress buffer whose fill
 * blocks u. When a cycle is found the Deadlock trace fires and, if StopSimulation,
 * the simulation stops at once: a deadlocked fabric never moves again.
 */
class DeadlockDetector : public Object
{
  public:
    /// Deadlock trace: (detection time, the cycle in wait order).
    typedef void (*DeadlockTracedCallback)(Time, const std::vector<WaitForGraph::Vertex>&);

    static TypeId GetTypeId();
    DeadlockDetector();
    ~DeadlockDetector() override;

    /// Start checking \p fabric (first check one CheckInterval from now).
    void Install(Ptr<RdmaFabric> fabric);

    /// \return true once a deadlock was found
    bool Found() const;
    /// \return the cycle found, in wait order (each waits for the next, the last for the first)
    const std::vector<WaitForGraph::Vertex>& GetCycle() const;
    /// \return when the cycle was found
    Time GetDetectionTime() const;
    /// \return when the last queue of the cycle stopped sending
    Time GetStalledSince() const;
    /// \return "priority" (RoCEv2) or "vl" (InfiniBand): what a vertex's lane is
    const std::string& GetLaneName() const;
    /// \return the cycle as "node:port:lane -> ... -> " back to the first queue
    std::string DescribeCycle() const;

  protected:
    void DoDispose() override;

  private:
    void Check();

    Time m_interval;  //!< Attribute CheckInterval
    Time m_stallTime; //!< Attribute StallTime
    bool m_stop;      //!< Attribute StopSimulation
    Ptr<RdmaFabric> m_fabric;
    WaitForGraph m_graph; //!< reused by every check
    EventId m_event;
    std::vector<WaitForGraph::Vertex> m_cycle;
    Time m_foundAt;
    std::string m_laneName;
    TracedCallback<Time, const std::vector<WaitForGraph::Vertex>&> m_deadlockTrace;
};

} // namespace ns3

#endif // DEADLOCK_DETECTOR_H
