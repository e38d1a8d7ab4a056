/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EXIT_STATUS_H
#define EXIT_STATUS_H

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The exit statuses of ai-fabric-sim. One list (ExitStatusTable) gives the --help
 * text; doc/scenario-runner.md's table and the README say the same
 * (test/python/test_exit_status.py checks all three).
 */
enum class ExitStatus : int
{
    DONE = 0,                //!< every message and collective finished
    ENVIRONMENT_FAILURE = 1, //!< a file could not be written, memory ran out (named)
    BAD_CONFIGURATION = 2,   //!< ConfigError: one message naming the value
    STOPPED_UNFINISHED = 3,  //!< --stop-time reached with work left
    DEADLOCK = 4,            //!< the deadlock detector found a cycle of stalled queues
};

/// One exit status and what it means, as --help prints it.
struct ExitStatusEntry
{
    ExitStatus status;   //!< the status
    std::string meaning; //!< one sentence for --help
};

/// \return every exit status, in numeric order, with its meaning
const std::vector<ExitStatusEntry>& ExitStatusTable();

/// \return "Exit status:" and one line per ExitStatusTable entry ("  0  done: ...")
std::string ExitStatusHelp();

/**
 * The status of a run that ended (ScenarioRunner::Run returned its summary):
 * DEADLOCK when the summary has "deadlock", DONE when "complete" is true,
 * STOPPED_UNFINISHED otherwise.
 * \param summary the run's summary.json object
 * \return the status
 */
ExitStatus ExitStatusOfRun(const nlohmann::json& summary);

} // namespace ns3

#endif // EXIT_STATUS_H
