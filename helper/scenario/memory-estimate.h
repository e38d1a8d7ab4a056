/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MEMORY_ESTIMATE_H
#define MEMORY_ESTIMATE_H

#include "ns3/topology-helper.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief How much memory a fabric takes, from its size alone, and whether this machine
 * has it: the scenario runner refuses a topology that would not fit before building it
 * (a wrong --k or --leaves would otherwise end in std::bad_alloc or the OOM killer
 * minutes later).
 *
 * The figures are peak resident sizes measured with ai-fabric-sim --workload=none on
 * fat-trees k = 16 and 24 (doc/scenario-runner.md, Errors), rounded up: per cable
 * 6 KiB on RoCEv2 (two devices with their queues, the switch MMU's per-port state;
 * 5.1 KiB measured at k = 24)
 * and 29 KiB on InfiniBand (per-VL buffers and credit state on both ends), plus the
 * route table while it is computed, 5 bytes per (switch, destination host), plus
 * 22 MiB for the process (ns-3, the module and the libraries it links: 20.5 MB at k = 4). Traffic
 * adds to it (queue pairs, frames in flight).
 */
class MemoryEstimate
{
  public:
    static constexpr uint64_t ROCE_BYTES_PER_CABLE = 6 * 1024; //!< measured, rounded up
    static constexpr uint64_t IB_BYTES_PER_CABLE = 29 * 1024;  //!< measured, rounded up
    static constexpr uint64_t ROUTE_BYTES_PER_ENTRY = 5;       //!< 4 while built + 1 kept
    /// ns-3 and the module: 21.4 MiB peak for a k=2 fat-tree with --workload=none
    /// (Release without link-time optimization, after IPoIB, ERF pcaps and presets), rounded up
    static constexpr uint64_t PROCESS_BYTES = 24ULL * 1024 * 1024;
#ifdef AI_FABRIC_MPI
    /// Built with MPI (doc/distributed.md): OpenMPI's libraries are loaded too (libmpi,
    /// open-pal, open-rte, hwloc, libevent): 2.1 MiB more peak resident size measured
    /// on a k=4 fat-tree without traffic, rounded up.
    static constexpr uint64_t MPI_PROCESS_BYTES = 3ULL * 1024 * 1024;
#else
    static constexpr uint64_t MPI_PROCESS_BYTES = 0; //!< built without MPI
#endif

    /**
     * \param size the fabric's hosts, switches and cables
     * \param fabric a registered fabric (--fabric): its builder gives the bytes per cable
     * \return the estimated peak bytes to build it and run it without traffic
     *         (saturates at UINT64_MAX)
     */
    static uint64_t FabricBytes(const TopologyHelper::Size& size, const std::string& fabric);

    /// \return this machine's MemAvailable (/proc/meminfo) in bytes; 0 if unknown
    static uint64_t AvailableBytes();

    /// \return this process's peak resident size so far (getrusage ru_maxrss), in bytes
    static uint64_t PeakResidentBytes();

    /**
     * Throw ConfigError when the fabric has more nodes than node ids can number
     * (2^32 - 2) or its estimate exceeds AvailableBytes(); the message starts with
     * \p what, gives the counts, the estimate and what is available.
     * \param size the fabric's counts
     * \param fabric a registered fabric (--fabric): its builder gives the bytes per cable
     * \param what the flags that chose the size, e.g. "--topology=fattree --k=128"
     */
    static void Check(const TopologyHelper::Size& size,
                      const std::string& fabric,
                      const std::string& what);

    /**
     * \param bytes a byte count
     * \return it in binary units with three significant digits: "1.71 GiB"
     */
    static std::string Format(uint64_t bytes);
};

} // namespace ns3

#endif // MEMORY_ESTIMATE_H
