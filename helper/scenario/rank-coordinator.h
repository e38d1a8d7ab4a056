/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANK_COORDINATOR_H
#define RANK_COORDINATOR_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief What the scenario runner needs of MPI to run one simulation across ranks
 * (ai-fabric-sim --mpi, doc/distributed.md): the engine the ranks run, starting and
 * ending MPI, and the few collective operations the runner makes between ranks (the
 * periodic completion check, the end-of-run counters). Every function works in a build
 * without MPI (-DAI_FABRIC_MPI off): IsBuilt() is false there, one rank is this
 * process and the reductions return their argument.
 */
class RankCoordinator
{
  public:
    /// \return true when the library was built with ns-3's mpi module (AI_FABRIC_MPI)
    static bool IsBuilt();
    /**
     * \return true when this process was started by an MPI launcher: OpenMPI's mpirun
     * sets OMPI_COMM_WORLD_SIZE, MPICH's and Intel MPI's Hydra set PMI_SIZE
     */
    static bool LaunchedByMpirun();
    /**
     * \return the ns-3 SimulatorImpl TypeId name the ranks run: the one place that
     * chooses it. ns-3's "ns3::DistributedSimulatorImpl" (granted time windows of the
     * smallest cut-cable delay); MpiInterface::Enable takes its interface from it.
     */
    static std::string GetEngineTypeName();
    /**
     * Bind SimulatorImplementationType to GetEngineTypeName() and MpiInterface::Enable
     * (MPI_Init). Only when IsBuilt(); call once, before the first Simulator call.
     */
    static void Enable(int* argc, char*** argv);
    /// MpiInterface::Disable (MPI_Finalize) when Enable was called; else nothing.
    static void Disable();
    /// \return true between Enable and Disable
    static bool IsEnabled();
    /// \return this process's rank (0 without MPI)
    static uint32_t GetRank();
    /// \return the number of ranks (1 without MPI)
    static uint32_t GetSize();
    /// \return the element-wise sum of \p values over every rank (MPI_Allreduce)
    static std::vector<uint64_t> Sum(const std::vector<uint64_t>& values);
    /// \return the element-wise maximum of \p values over every rank (MPI_Allreduce)
    static std::vector<int64_t> Max(const std::vector<int64_t>& values);
    /// \return \p value of every rank, rank order (MPI_Allgather)
    static std::vector<double> Gather(double value);
    /// Wait until every rank has called it (MPI_Barrier).
    static void Barrier();
};

} // namespace ns3

#endif // RANK_COORDINATOR_H
