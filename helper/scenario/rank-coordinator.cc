/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-coordinator.h"

#include "ns3/global-value.h"
#include "ns3/rank-partition.h"
#include "ns3/string.h"

#ifdef AI_FABRIC_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <cstdlib>

namespace ns3
{

bool
RankCoordinator::IsBuilt()
{
#ifdef AI_FABRIC_MPI
    return true;
#else
    return false;
#endif
}

bool
RankCoordinator::LaunchedByMpirun()
{
    return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

std::string
RankCoordinator::GetEngineTypeName()
{
    // Our engine in granted-time windows, frames batched per window and peer, equal-time
    // events in an order every partition computes alike (doc/distributed.md).
    return "ns3::FabricDistributedSimulatorImpl";
}

void
RankCoordinator::Enable(int* argc, char*** argv)
{
#ifdef AI_FABRIC_MPI
    GlobalValue::Bind("SimulatorImplementationType", StringValue(GetEngineTypeName()));
    MpiInterface::Enable(argc, argv);
#else
    (void)argc;
    (void)argv;
#endif
}

void
RankCoordinator::Disable()
{
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

bool
RankCoordinator::IsEnabled()
{
#ifdef AI_FABRIC_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
RankCoordinator::GetRank()
{
    return RankPartition::GetLocalRank();
}

uint32_t
RankCoordinator::GetSize()
{
    return RankPartition::GetNRanks();
}

std::vector<uint64_t>
RankCoordinator::Sum(const std::vector<uint64_t>& values)
{
    std::vector<uint64_t> out(values);
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled() && !values.empty())
    {
        MPI_Allreduce(values.data(),
                      out.data(),
                      static_cast<int>(values.size()),
                      MPI_UINT64_T,
                      MPI_SUM,
                      MPI_COMM_WORLD);
    }
#endif
    return out;
}

std::vector<int64_t>
RankCoordinator::Max(const std::vector<int64_t>& values)
{
    std::vector<int64_t> out(values);
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled() && !values.empty())
    {
        MPI_Allreduce(values.data(),
                      out.data(),
                      static_cast<int>(values.size()),
                      MPI_INT64_T,
                      MPI_MAX,
                      MPI_COMM_WORLD);
    }
#endif
    return out;
}

std::vector<double>
RankCoordinator::Gather(double value)
{
    std::vector<double> out(GetSize(), value);
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled())
    {
        MPI_Allgather(&value, 1, MPI_DOUBLE, out.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    }
#endif
    return out;
}

void
RankCoordinator::Barrier()
{
#ifdef AI_FABRIC_MPI
    if (MpiInterface::IsEnabled())
    {
        MPI_Barrier(MPI_COMM_WORLD);
    }
#endif
}

} // namespace ns3
