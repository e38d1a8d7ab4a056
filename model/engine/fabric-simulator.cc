/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-simulator.h"

#include "ns3/event-impl.h"

namespace ns3
{

namespace
{
/// A call and its payload as an ordinary event.
class CallEvent : public EventImpl
{
  public:
    CallEvent(const FabricSimulator::CallOps* ops, const void* arg)
        : m_ops(ops),
          m_arg(arg)
    {
    }

    ~CallEvent() override
    {
        DestroyPayload(); // a call that never ran (Simulator::Destroy, Cancel)
    }

    /// \return where the caller constructs the payload
    void* Payload()
    {
        return m_payload;
    }

  private:
    void Notify() override
    {
        const bool carries = m_ops->destroy != nullptr;
        m_ops->fire(const_cast<void*>(m_arg), carries ? m_payload : nullptr);
        DestroyPayload();
    }

    void DestroyPayload()
    {
        if (m_ops->destroy != nullptr && !m_destroyed)
        {
            m_destroyed = true;
            m_ops->destroy(m_payload);
        }
    }

    const FabricSimulator::CallOps* m_ops; //!< what the call runs
    const void* m_arg;                     //!< its object
    bool m_destroyed{false};               //!< the payload has been destroyed
    alignas(64) unsigned char m_payload[TimingWheelScheduler::PAYLOAD_BYTES]; //!< the payload
};
} // namespace

void*
FabricSimulator::ScheduleCallEvent(uint32_t context,
                                   int64_t delayTicks,
                                   const CallOps* ops,
                                   const void* arg)
{
    auto* event = new CallEvent(ops, arg); // its one reference goes to the simulator
    FabricSimulatorImpl::ScheduleWithContextFast(context,
                                                 TimeStep(delayTicks),
                                                 event,
                                                 event->Payload());
    return event->Payload();
}

} // namespace ns3
