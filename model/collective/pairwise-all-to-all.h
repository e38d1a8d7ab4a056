/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PAIRWISE_ALL_TO_ALL_H
#define PAIRWISE_ALL_TO_ALL_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Pairwise-exchange all-to-all: S is the send buffer per rank, S/N bytes
 * for each destination. In step k = 1..N-1 rank i sends to i+k and receives from
 * i-k; step k+1 starts on a rank when its step-k block has arrived.
 * Time (N-1)(alpha + S/(N B)).
 *
 * On GPU servers (GpusPerServer G >= 2 dividing the ranks into >= 2 servers) it runs
 * NCCL's all-to-all instead (NcclP2pSchedule): every rank's sends to all its peers at
 * once, in NCCL's rounds, each cut into parts on the channels NCCL gives its round;
 * batches of rounds that share a channel run one after the other. A send to another
 * server leaves through the NIC on the destination GPU's rail (PXN: the rail routing
 * engine moves it over the scale-up domain first).
 */
class PairwiseAllToAll : public CollectiveAlgorithm
{
  public:
    static TypeId GetTypeId();
    PairwiseAllToAll();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;
    uint32_t GetUnitOwner(uint32_t unit) const override;
    bool BuildsChannels() const override;

  private:
    /// The pairwise exchange (one-NIC hosts).
    void BuildPairwise();
    /// NCCL's rounds over servers.
    void BuildServers();

    uint32_t m_gpusPerServer{0};      //!< attribute GpusPerServer, 0 = one-NIC hosts
    uint32_t m_netChannelsPerPeer{4}; //!< attribute NetChannelsPerPeer
    bool m_pxn{true};                 //!< attribute Pxn
};

} // namespace ns3

#endif // PAIRWISE_ALL_TO_ALL_H
