/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLAGGED_TRACED_CALLBACK_H
#define FLAGGED_TRACED_CALLBACK_H

#include "ns3/callback.h"
#include "ns3/traced-callback.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A TracedCallback that sets its owner's flag when a sink is connected.
 *
 * An owner with several trace sources on one per-frame path keeps one bool for all
 * of them and points each source at it (SetFlag); the path then tests that one byte
 * (false: nothing was ever connected, nothing to build or fire) instead of each
 * source's sink list. The flag stays set after a disconnect: it means "test the
 * sources", each of which still fires only its own sinks.
 *
 * ns-3 connects a trace source through the accessor MakeTraceSourceAccessor makes
 * from the member's own type, so Connect and ConnectWithoutContext here are the ones
 * Config::Connect and TraceConnect call.
 */
template <typename... Ts>
class FlaggedTracedCallback : public TracedCallback<Ts...>
{
  public:
    /// \param flag set to true at every connection (not owned; outlives this)
    void SetFlag(bool* flag)
    {
        m_flag = flag;
    }

    /// TracedCallback::ConnectWithoutContext, setting the flag
    void ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Raise();
    }

    /// TracedCallback::Connect, setting the flag
    void Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Raise();
    }

  private:
    void Raise()
    {
        if (m_flag != nullptr)
        {
            *m_flag = true;
        }
    }

    bool* m_flag{nullptr}; //!< the owner's flag
};

} // namespace ns3

#endif // FLAGGED_TRACED_CALLBACK_H
