/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fast-forward-setup.h"

#include "ns3/double.h"
#include "ns3/uinteger.h"
#include "ns3/workload-registry.h"

namespace ns3
{

std::string
FastForwardSetup::InactiveReason(const ScenarioConfig& c)
{
    if (!c.background.empty() && c.background != "none")
    {
        return "--background=" + c.background +
               ": flows start and end all the time, so the contention never stays steady";
    }
    if (!c.flows.empty())
    {
        return "--flows: the file's flows change the contention, and fast-forward sees only "
               "collective messages";
    }
    if (!c.linkFailures.empty() || !c.nodeFailures.empty())
    {
        return "failures change paths and contention mid-run";
    }
    const WorkloadRegistry::Family family =
        WorkloadRegistry::Has(c.workload) ? WorkloadRegistry::GetFamily(c.workload, c.gpusPerServer)
                                          : WorkloadRegistry::NONE;
    if (family != WorkloadRegistry::COLLECTIVE && family != WorkloadRegistry::TRAINING)
    {
        return "--workload=" + c.workload +
               " posts no repeated collective transfers (fast-forward skips collective and "
               "training messages only)";
    }
    return "";
}

nlohmann::json
FastForwardSetup::ToJson(const FastForwardTransport& ff)
{
    const FastForwardTransport::Stats& st = ff.GetStats();
    UintegerValue window;
    DoubleValue tolerance;
    ff.GetAttribute("StableMessages", window);
    ff.GetAttribute("Tolerance", tolerance);
    return {{"active", true},
            {"stable_messages", window.Get()},
            {"tolerance", tolerance.Get()},
            {"simulated_messages", st.simulatedMessages},
            {"skipped_messages", st.skippedMessages},
            {"skipped_bytes", st.skippedBytes},
            {"skipped_message_time_s", static_cast<double>(st.skippedMessageNs) * 1e-9},
            {"unseen_queue_messages", st.unseenQueueMessages},
            {"first_skip_s",
             st.firstSkipNs < 0 ? nlohmann::json(nullptr)
                                : nlohmann::json(static_cast<double>(st.firstSkipNs) * 1e-9)}};
}

nlohmann::json
FastForwardSetup::InactiveJson(const ScenarioConfig& c)
{
    const std::string why = InactiveReason(c);
    return {{"active", false},
            {"reason", why},
            {"simulated_messages", nullptr},
            {"skipped_messages", 0},
            {"skipped_bytes", 0},
            {"skipped_message_time_s", 0.0}};
}

void
FastForwardSetup::AddInactive(const ScenarioConfig& c, nlohmann::json& summary)
{
    if (c.fastForward && !summary.contains("fast_forward"))
    {
        summary["fast_forward"] = InactiveJson(c); // (it skipped nothing)
    }
}

} // namespace ns3
