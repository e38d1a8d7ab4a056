/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_TUNER_H
#define NCCL_TUNER_H

#include "ns3/collective-metrics.h"
#include "ns3/data-rate.h"
#include "ns3/nccl-tuning-model.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NCCL's tuner on a simulated communicator: describes the topology as NCCL's
 * topology search would report it (NcclTuningInput), asks NcclTuningModel for the
 * fastest algorithm x protocol for a size, and keeps to the algorithms this simulator
 * runs (those NCCL names that CollectiveAlgorithmRegistry has for the operation: ring
 * and tree for allreduce, ring for reduce-scatter and all-gather).
 *
 * The communicator: ranks on servers of GpusPerServer GPUs, one NIC per GPU (ranks
 * numbered server x G + GPU; a single-NIC host is a server of one GPU). Its ring
 * graph is NCCL's search result for those NICs (RailRingOrder::NcclRingGraph: 8 x 400
 * Gb/s gives 8 channels of 48 GB/s); the tree's graph is taken to be the same (on
 * such servers NCCL's tree search finds the ring's channels and speed; its pass 2 may
 * raise a tree's bandwidth inside the server up to twice when NICs are slower, which
 * is not modelled). Paths: NVLink inside a server, GPU to NIC through PCIe switches or
 * PXN (so LL128 is enabled, as on DGX-class servers); NVSwitch when G > 1; no SHARP.
 */
class NcclTuner : public Object
{
  public:
    /// The simulated communicator, as the runner resolves it.
    struct Topology
    {
        uint32_t ranks{0};         //!< GPUs in the communicator
        uint32_t gpusPerServer{1}; //!< GPUs (and NICs) per server; 1 = single-NIC hosts
        uint32_t channels{2};      //!< the communicator's channels (after ncclTopoPostset)
        DataRate nicRate;          //!< one NIC's rate
    };

    /// A choice and what NCCL itself would pick.
    struct Result
    {
        NcclTuningModel::Choice choice;  //!< the fastest simulated pair
        NcclTuningModel::Choice fastest; //!< the fastest pair NCCL models (all algorithms)
    };

    static TypeId GetTypeId();
    NcclTuner();
    ~NcclTuner() override;

    /// \return the GpuGeneration attribute
    NcclGpuGeneration GetGpuGeneration() const;

    /**
     * \param topology the communicator
     * \return the model's input for it
     * \throws std::invalid_argument for 0 ranks, 0 GPUs per server or a NIC of 0 b/s
     */
    NcclTuningInput MakeInput(const Topology& topology) const;

    /**
     * \param op the operation
     * \param bytes its size per rank (nccl-tests' size)
     * \param topology the communicator
     * \param algorithms allowed algorithms (empty: every simulated one)
     * \param protocols allowed protocols (empty: all three)
     * \return the fastest allowed simulated pair, and NCCL's own pick
     * \throws std::invalid_argument when no allowed pair is available (naming them)
     */
    Result Choose(CollectiveOp op,
                  uint64_t bytes,
                  const Topology& topology,
                  const std::vector<NcclAlgorithm>& algorithms = {},
                  const std::vector<NcclProtocol>& protocols = {}) const;

    /// \return NCCL's algorithms that the registry has for \p op, in NCCL's order
    static std::vector<NcclAlgorithm> SimulatedAlgorithms(CollectiveOp op);

  private:
    int m_gpu;     //!< attribute GpuGeneration (an NcclGpuGeneration)
    bool m_amdCpu; //!< attribute AmdCpu
};

} // namespace ns3

#endif // NCCL_TUNER_H
