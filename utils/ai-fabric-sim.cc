/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric-sim: the command-line front end of ScenarioRunner.
 *   ai-fabric-sim --topology=fattree --k=4 --workload=allreduce --bytes=16MiB --out=out
 * Exit status: 0 finished, 2 bad configuration, 3 stopped by --stop-time with work
 * left, 4 stopped by a deadlock (summary.json "deadlock"), 1 any other error.
 */
#include "ns3/config-error.h"
#include "ns3/run-summary-printer.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>

int
main(int argc, char** argv)
{
    try
    {
        const ns3::ScenarioConfig config = ns3::ScenarioConfig::FromCommandLine(argc, argv);
        ns3::ScenarioRunner runner(config);
        const nlohmann::json summary = runner.Run();
        ns3::PrintRunSummary(std::cout, summary);
        const bool complete = summary.contains("complete") && summary["complete"].is_boolean() &&
                              summary["complete"].get<bool>();
        if (summary.contains("deadlock"))
        {
            return 4;
        }
        return complete ? 0 : 3;
    }
    catch (const ns3::ConfigError& e)
    {
        std::cerr << "ai-fabric-sim: error: " << e.what() << "\n";
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "ai-fabric-sim: error: " << e.what() << "\n";
        return 1;
    }
}
