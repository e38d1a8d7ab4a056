/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_WATCHDOG_H
#define PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class RdmaFabric;
class RoceFabric;
class RoceSwitch;
class RoceNetDevice;

/**
 * \ingroup ai-fabric
 * \brief A PFC storm watchdog on every lossless switch egress queue, as SONiC's
 * pfcwd (detection, mitigation, restoration).
 *
 * Every PollInterval one event looks at each lossless priority of each switch port.
 * Detection: the port has been paused by its link partner for that priority without
 * a break for DetectionTime, whether or not the queue holds frames, as SONiC's test
 * plan states it (a PFC storm: a partner that keeps pausing, e.g. a NIC whose
 * receive pipeline stalled). Mitigation, by
 * Action: `forward` stops honouring the partner's pauses on that queue
 * (RoceNetDevice::SetPauseIgnored), so the queue drains onto the wire; `drop` does
 * the same and discards what the queue holds, what is routed to it and what arrives
 * from the partner on that priority (RoceSwitch::SetStormDrop), so the switch stops
 * pausing its own upstream ports for it. Restoration: once the partner's pause
 * requests have ended (its last pause time ran out, or it sent a resume) for
 * RestorationTime, pauses are honoured again and the drops end (SONiC restores when no
 * pause frame arrived for that long; a peer that keeps a queue paused refreshes its
 * pause before it runs out, so the two agree whatever the pause time). Each detection and
 * restoration is a Storm trace event and kept in GetEvents(). Nothing runs on the frame path; a
 * fabric without a watchdog pays nothing.
 */
class PfcWatchdog : public Object
{
  public:
    /// What a detected storm does to its queue.
    enum Action
    {
        DROP,    //!< ignore the partner's pauses and discard the queue's frames
        FORWARD, //!< ignore the partner's pauses only
    };

    /// One detection or restoration.
    struct Event
    {
        Time time;     //!< when the poll saw it
        uint32_t node; //!< the switch's graph node
        uint32_t port; //!< its port
        uint8_t prio;  //!< the lossless priority
        bool storm;    //!< true: storm detected; false: restored
    };

    /// Storm trace: (switch graph node, port, priority, true = detected / false = restored).
    typedef void (*StormTracedCallback)(uint32_t, uint32_t, uint8_t, bool);

    static TypeId GetTypeId();
    PfcWatchdog();
    ~PfcWatchdog() override;

    /// Watch every lossless queue of every switch of \p fabric (first poll one
    /// PollInterval from now). \throws std::invalid_argument if \p fabric is not a
    /// RoceFabric (only RoCEv2 has PFC)
    void Install(Ptr<RdmaFabric> fabric);

    /// \return the detections and restorations so far, in time order
    const std::vector<Event>& GetEvents() const;
    /// \return the queues in a storm now
    uint32_t GetStormsInProgress() const;
    /// \return the restoration time in use (RestorationTime, or twice DetectionTime)
    Time GetRestorationTime() const;
    /// \return the poll period in use (PollInterval, or its default from the other two)
    Time GetPollInterval() const;

  protected:
    void DoDispose() override;

  private:
    /// One watched queue.
    struct Queue
    {
        RoceSwitch* sw;     //!< its switch (kept alive by the fabric)
        RoceNetDevice* dev; //!< the switch's port
        uint32_t node;      //!< the switch's graph node
        uint32_t port;      //!< port number
        uint8_t prio;       //!< lossless priority
        bool storm{false};  //!< mitigated now
    };

    void Poll();
    void SetStorm(Queue& q, bool storm);

    Time m_detectionTime;   //!< Attribute DetectionTime
    Time m_restorationTime; //!< Attribute RestorationTime (0: twice DetectionTime)
    Time m_pollInterval;    //!< Attribute PollInterval (0: a tenth of the shorter time)
    Action m_action;        //!< Attribute Action
    Ptr<RoceFabric> m_fabric;
    std::vector<Queue> m_queues;
    std::vector<Event> m_events;
    uint32_t m_storms{0};
    EventId m_event;
    TracedCallback<uint32_t, uint32_t, uint8_t, bool> m_stormTrace;
};

} // namespace ns3

#endif // PFC_WATCHDOG_H
