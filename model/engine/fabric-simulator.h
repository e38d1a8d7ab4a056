/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SIMULATOR_H
#define FABRIC_SIMULATOR_H

#include "ns3/fabric-event.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/nstime.h"
#include "ns3/timing-wheel-scheduler.h"

#include <cstdint>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The one way the models on a packet's path read the clock and schedule, as
 * ns3::Simulator is for the rest of ns-3: one mechanism per kind of event, whatever
 * simulator implementation runs.
 *
 * - A reusable event (a NIC's pacing wake-up): Schedule(FabricEvent*).
 * - A call of a function on an object, optionally carrying a payload (a port's end
 *   of transmission; a frame's arrival at the next port): ScheduleCall. With
 *   FabricSimulatorImpl and its TimingWheelScheduler the call is an event-list node
 *   that holds the payload (no event object, no reference count; a frame forwarded by
 *   the arrival that carried it stays in that node). Otherwise (another
 *   implementation, another event list, or beyond the wheel's span) the same call
 *   runs from an EventImpl that holds the payload, scheduled through the running
 *   implementation: the same time, context and order.
 *
 * Cancellable timers (PFC pause expiry, retransmission timeouts) stay on
 * Simulator::Schedule and EventId. A call cannot be cancelled: the object it names
 * must live until Simulator::Destroy (a port, a NIC), which destroys the payloads of
 * the calls that did not run. Like every Simulator call, for the simulation thread.
 */
class FabricSimulator
{
  public:
    /// What a call runs: fire(arg, payload), and the payload's destructor (nullptr:
    /// the call carries no payload, and fire gets nullptr).
    using CallOps = TimingWheelScheduler::CallOps;

    /// \return the simulation time, as Simulator::Now
    static Time Now()
    {
        return FabricSimulatorImpl::NowFast();
    }

    /// \return the simulation time in time steps
    static int64_t NowTicks()
    {
        return FabricSimulatorImpl::NowTicksFast();
    }

    /// \return the running event's context, as Simulator::GetContext
    static uint32_t Context()
    {
        return FabricSimulatorImpl::ContextFast();
    }

    /**
     * Run the reusable \p event (the simulator takes over one reference) \p delayTicks
     * time steps from now in \p context; \p hint is memory it reads, prefetched before
     * it runs. FabricEvent::Disable stops it on every implementation.
     */
    static void Schedule(uint32_t context, int64_t delayTicks, FabricEvent* event, const void* hint)
    {
        FabricSimulatorImpl::ScheduleWithContextFast(context, delayTicks, event, hint);
    }

    /**
     * Call \p ops->fire(\p arg, nullptr) \p delayTicks time steps from now in
     * \p context (\p ops->destroy is nullptr: no payload).
     */
    static void ScheduleCall(uint32_t context,
                             int64_t delayTicks,
                             const CallOps* ops,
                             const void* arg)
    {
        if (FabricSimulatorImpl::ScheduleCallFast(context, delayTicks, ops, arg) == nullptr)
        {
            ScheduleCallEvent(context, delayTicks, ops, arg);
        }
    }

    /**
     * Call \p ops->fire(\p arg, p) \p delayTicks time steps from now in \p context,
     * where p is a T moved from \p payload (\p ops->destroy is DestroyPayload<T>).
     */
    template <typename T>
    static void ScheduleCall(uint32_t context,
                             int64_t delayTicks,
                             const CallOps* ops,
                             const void* arg,
                             T& payload)
    {
        // The running call's own payload, forwarded: its node goes back in as it is.
        if (FabricSimulatorImpl::ScheduleCallInPlace(context, delayTicks, ops, arg, &payload))
        {
            return;
        }
        void* room = FabricSimulatorImpl::ScheduleCallFast(context, delayTicks, ops, arg);
        if (room == nullptr)
        {
            room = ScheduleCallEvent(context, delayTicks, ops, arg);
        }
        new (room) T(std::move(payload));
    }

    /// The payload type \p T's destructor, for a CallOps.
    template <typename T>
    static void DestroyPayload(void* payload)
    {
        FabricSimulatorImpl::DestroyPayload<T>(payload);
    }

  private:
    /**
     * The call as an EventImpl, scheduled through the running implementation.
     * \return room for its payload (TimingWheelScheduler::PAYLOAD_BYTES), which the
     * caller constructs before the next event runs when \p ops->destroy is set
     */
    static void* ScheduleCallEvent(uint32_t context,
                                   int64_t delayTicks,
                                   const CallOps* ops,
                                   const void* arg);
};

} // namespace ns3

#endif // FABRIC_SIMULATOR_H
