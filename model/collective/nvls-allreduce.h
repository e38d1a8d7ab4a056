/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NVLS_ALLREDUCE_H
#define NVLS_ALLREDUCE_H

#include "collective-algorithm.h"
#include "nvls-collective-transport.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaFabric;

/**
 * \ingroup ai-fabric
 * \brief NCCL's NVLS allreduce in one server ("nvls"): the scale-up crossbar reduces and
 * multicasts (NVLink SHARP, NvlsSwitchEngine).
 *
 * Each channel's data is cut into chunks, and each chunk into one slice per GPU (its
 * owner, NCCL's NVLS head). For slice (c, h): every GPU sends its part to the crossbar,
 * which sums the N parts and sends the sum to h; h writes it back through the
 * crossbar's multicast, which replicates it to all N GPUs (NCCL 2.30,
 * src/device/all_reduce.h, NCCL_ALGO_NVLS one-node: multimem.ld_reduce, then
 * multimem.st). Per GPU its scale-up cable carries S (N + 1) / N bytes each way, where
 * a ring moves 2 (N - 1) / N S.
 *
 * In the schedule slice (c, h) is N - 1 messages r -> h (r's contribution; delivered
 * when the sum is at h) and N - 1 messages h -> r (the sum to r; posted once the sum
 * is at h), carried by NvlsCollectiveTransport (UseTransport). Contributions are
 * tracked as for any schedule (TrackContributions). One server only: the ranks must be
 * the G GPUs of a server (GpusPerServer, set by the scenario runner); NCCL's NVLSTree
 * (NVLS inside servers, trees across them) is not modelled. Fabrics with NVLink SHARP only
 * (RdmaFabric::HasNvlinkSharp: RoCEv2 with PFC).
 */
class NvlsAllreduce : public CollectiveAlgorithm
{
  public:
    /// Largest slice: NvlsHeader's 16-bit frame numbers, frames of the smallest MTU (256)
    static constexpr uint64_t MAX_SLICE_BYTES = 65535ULL * 256;

    static TypeId GetTypeId();
    NvlsAllreduce();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void DoDispose() override;
    void BuildSchedule() override;
    /// The NVLS transport on the fabric of \p transport (an RdmaCollectiveTransport).
    Ptr<CollectiveTransport> UseTransport(Ptr<CollectiveTransport> transport) override;

  private:
    /// The NVLS transport's completions, as the application passes them on.
    void Delivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void Sent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);

    uint32_t m_gpusPerServer;                                 //!< attribute GpusPerServer
    std::string m_fabric;                                     //!< attribute Fabric
    Ptr<RdmaFabric> m_rdmaFabric;                             //!< attribute RdmaFabric
    std::vector<NvlsCollectiveTransport::Message> m_messages; //!< by transfer index
    std::vector<uint64_t> m_sliceBytes;                       //!< by slice
    std::vector<uint32_t> m_owner;                            //!< by slice: transport rank
    Ptr<NvlsCollectiveTransport> m_nvls;
    Ptr<CollectiveTransport> m_given; //!< the transport m_nvls was made for
};

} // namespace ns3

#endif // NVLS_ALLREDUCE_H
