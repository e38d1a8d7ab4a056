/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ai-fabric-sim: the command-line front end of ScenarioRunner.
 *   ai-fabric-sim --topology=fattree --k=4 --workload=allreduce --bytes=16MiB --out=out
 *   mpirun -np 2 ai-fabric-sim --mpi --topology=fattree --k=8 --workload=permutation
 * Exit status (ns3::ExitStatus; --help lists them): 0 done, 1 environment failure
 * (a file that could not be written, memory that ran out; named), 2 bad configuration,
 * 3 stopped by --stop-time with work left, 4 deadlock detected (summary.json "deadlock").
 * With --mpi (doc/distributed.md) every rank exits alike; rank 0 prints the summary.
 */
#include "ns3/config-error.h"
#include "ns3/exit-status.h"
#include "ns3/nstime.h"
#include "ns3/rank-coordinator.h"
#include "ns3/run-summary-printer.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <exception>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>

namespace
{

int
Run(int argc, char** argv)
{
    // Picoseconds before any flag is parsed: a time flag read at ns-3's default
    // (nanosecond) resolution would lose its sub-nanosecond part (--propagation-delay=
    // 4900ps became 5ns). The runner needs picoseconds anyway.
    ns3::Time::SetResolution(ns3::Time::PS);
    try
    {
        const ns3::ScenarioConfig config = ns3::ScenarioConfig::FromCommandLine(argc, argv);
        if (config.mpi && ns3::RankCoordinator::IsBuilt() &&
            ns3::RankCoordinator::LaunchedByMpirun())
        {
            // (otherwise the runner refuses --mpi, naming why)
            ns3::RankCoordinator::Enable(&argc, &argv);
        }
        ns3::ScenarioRunner runner(config);
        const nlohmann::json summary = runner.Run();
        if (ns3::RankCoordinator::GetRank() == 0)
        {
            ns3::PrintRunSummary(std::cout, summary);
        }
        return static_cast<int>(ns3::ExitStatusOfRun(summary));
    }
    catch (const ns3::ConfigError& e)
    {
        if (ns3::RankCoordinator::GetRank() == 0)
        {
            std::cerr << "ai-fabric-sim: error: " << e.what() << "\n";
        }
        return static_cast<int>(ns3::ExitStatus::BAD_CONFIGURATION);
    }
    catch (const std::bad_alloc& e)
    {
        // (what() is only "std::bad_alloc": say what it means)
        std::cerr << "ai-fabric-sim: error: out of memory (" << e.what()
                  << "); a smaller fabric or workload needs less\n";
        return static_cast<int>(ns3::ExitStatus::ENVIRONMENT_FAILURE);
    }
    catch (const std::exception& e)
    {
        // OutputError names the file and why; anything else is named by its message
        std::cerr << "ai-fabric-sim: error: " << e.what() << "\n";
        return static_cast<int>(ns3::ExitStatus::ENVIRONMENT_FAILURE);
    }
}

} // namespace

int
main(int argc, char** argv)
{
    const int status = Run(argc, argv);
    ns3::RankCoordinator::Disable();
    return status;
}
