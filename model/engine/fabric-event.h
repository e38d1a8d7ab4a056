/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_EVENT_H
#define FABRIC_EVENT_H

#include "ns3/event-impl.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A reusable event of a packet's path (a cable's arrivals, a port's end of
 * transmission) that FabricSimulatorImpl runs directly.
 *
 * EventImpl::Invoke, ns-3's only public way to run an event, is an out-of-line call
 * with a logging check, paid by every event of a packet hop. Events scheduled
 * through FabricSimulator::Schedule are marked in the event
 * list, and the simulator calls Fire instead. Any other simulator implementation
 * runs them through Invoke as usual. Disable stops both paths.
 */
class FabricEvent : public EventImpl
{
  public:
    /// Run the event (Invoke without its logging check), unless disabled.
    void Fire()
    {
        if (!m_disabled)
        {
            Notify();
        }
    }

    /// Never run again, whichever simulator implementation holds it (Cancel for the others).
    void Disable()
    {
        m_disabled = true;
        Cancel();
    }

  private:
    bool m_disabled{false}; //!< Disable was called
};

} // namespace ns3

#endif // FABRIC_EVENT_H
