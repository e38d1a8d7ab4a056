/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3 Callbacks and Simulator events from lambdas (or any callable), on every
 * ns-3 release this module builds with. ns-3.36 added Callback's constructor
 * from a callable and Simulator::Schedule(delay, lambda); ns-3.35 and older
 * (the waf-era trees of wscript-compat/) have neither. Both releases have
 * MakeBoundCallback and Simulator::Schedule over a plain function with one
 * bound argument, so the callable is stored behind a std::shared_ptr and a
 * function template forwards the call to it. The same code runs on every
 * version (no #if on NS3_VERSION): the CI build on ns-3.37 tests exactly what
 * a ns-3.31 build runs.
 */
#ifndef LAMBDA_CALLBACK_H
#define LAMBDA_CALLBACK_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <functional>
#include <memory>
#include <utility>

namespace ns3
{

namespace lambda_callback_detail
{

/**
 * \brief Calls the stored callable; the first argument is bound by MakeBoundCallback.
 *
 * A std::shared_ptr, not the callable itself, is bound: ns-3's Callbacks
 * compare their bound arguments (Callback::IsEqual), a shared_ptr compares,
 * a lambda does not; and copies of the Callback share one callable.
 *
 * \param function the callable
 * \param args the Callback's arguments
 * \return what the callable returns
 */
template <typename R, typename... Args>
R
InvokeFunction(std::shared_ptr<std::function<R(Args...)>> function, Args... args)
{
    return (*function)(std::forward<Args>(args)...);
}

/**
 * \brief Runs a scheduled callable.
 * \param function the callable
 */
inline void
InvokeEvent(std::shared_ptr<std::function<void()>> function)
{
    (*function)();
}

} // namespace lambda_callback_detail

/**
 * \brief A Callback<R, Args...> that calls a lambda (or any callable).
 *
 * Use instead of Callback<R, Args...>(lambda), which needs ns-3.36:
 * \code
 *   fabric->AddMessageCallback(MakeLambdaCallback<void, const RdmaFabric::MessageRecord&>(
 *       [&done](const RdmaFabric::MessageRecord& r) { done.push_back(r); }));
 * \endcode
 *
 * \tparam R the Callback's return type
 * \tparam Args the Callback's argument types, exactly as in the Callback
 * \param callable called with the Callback's arguments
 * \return the Callback
 */
template <typename R, typename... Args, typename F>
Callback<R, Args...>
MakeLambdaCallback(F callable)
{
    auto function = std::make_shared<std::function<R(Args...)>>(std::move(callable));
    return MakeBoundCallback(&lambda_callback_detail::InvokeFunction<R, Args...>, function);
}

/**
 * \brief Simulator::Schedule(delay, callable), which needs ns-3.36 for a lambda.
 * \param delay from now
 * \param callable run with no arguments
 * \return the event, to cancel it
 */
template <typename F>
EventId
ScheduleLambda(const Time& delay, F callable)
{
    auto function = std::make_shared<std::function<void()>>(std::move(callable));
    return Simulator::Schedule(delay, &lambda_callback_detail::InvokeEvent, function);
}

/**
 * \brief Simulator::ScheduleNow(callable), which needs ns-3.36 for a lambda.
 * \param callable run with no arguments, after the events already due now
 * \return the event, to cancel it
 */
template <typename F>
EventId
ScheduleLambdaNow(F callable)
{
    auto function = std::make_shared<std::function<void()>>(std::move(callable));
    return Simulator::ScheduleNow(&lambda_callback_detail::InvokeEvent, function);
}

} // namespace ns3

#endif // LAMBDA_CALLBACK_H
