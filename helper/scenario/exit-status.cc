/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "exit-status.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace ns3
{

const std::vector<ExitStatusEntry>&
ExitStatusTable()
{
    static const std::vector<ExitStatusEntry> table = {
        {ExitStatus::DONE, "done: every message and collective finished"},
        {ExitStatus::ENVIRONMENT_FAILURE,
         "environment failure, named on stderr: an output file could not be written (disk "
         "full, file size limit, I/O error; the run's files are removed) or memory ran out; "
         "also any other unexpected error"},
        {ExitStatus::BAD_CONFIGURATION,
         "bad configuration: one message naming the value and what is allowed"},
        {ExitStatus::STOPPED_UNFINISHED,
         "stopped by --stop-time with work unfinished (every file written, summary.json "
         "\"complete\": false)"},
        {ExitStatus::DEADLOCK,
         "deadlock detected (--deadlock-stall-time): the cycle of stalled switch queues is "
         "printed and in summary.json \"deadlock\""},
    };
    return table;
}

std::string
ExitStatusHelp()
{
    std::ostringstream os;
    os << "Exit status:";
    for (const auto& e : ExitStatusTable())
    {
        os << "\n  " << static_cast<int>(e.status) << "  " << e.meaning;
    }
    return os.str();
}

ExitStatus
ExitStatusOfRun(const nlohmann::json& summary)
{
    if (summary.contains("deadlock"))
    {
        return ExitStatus::DEADLOCK;
    }
    const bool complete = summary.contains("complete") && summary["complete"].is_boolean() &&
                          summary["complete"].get<bool>();
    return complete ? ExitStatus::DONE : ExitStatus::STOPPED_UNFINISHED;
}

} // namespace ns3
