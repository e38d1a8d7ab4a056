/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ALPHA_BETA_COLLECTIVE_TRANSPORT_H
#define ALPHA_BETA_COLLECTIVE_TRANSPORT_H

#include "ns3/collective-transport.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A CollectiveTransport with an alpha-beta cost instead of a network, for
 * tests and for quick what-ifs.
 *
 * Model: every rank has one full-duplex NIC; rank r's send and receive sides
 * each run at Bandwidth (or the rate SetRankBandwidth gave r). A message of S
 * bytes from a to b is reserved when posted: it starts when both a's send side
 * and b's receive side are free (each side serves messages in posting order),
 * holds both for S / min(B_a, B_b), and is delivered Alpha after its last byte
 * left (onDelivered at b). The sender's completion (onSent) comes Alpha after
 * delivery, as an acknowledgement would. With CoupledSides=false the sender
 * transmits as soon as its own side is free and the fabric buffers the bytes
 * until b's receive side takes them (delivery = when b has them all + Alpha). No fabric contention
 * is modelled: only the endpoints are shared. Times are integer nanoseconds, rounded up.
 */
class AlphaBetaCollectiveTransport : public CollectiveTransport
{
  public:
    static TypeId GetTypeId();
    AlphaBetaCollectiveTransport();
    ~AlphaBetaCollectiveTransport() override;

    uint32_t GetNRanks() const override;
    void Send(uint32_t srcRank,
              uint32_t dstRank,
              uint64_t bytes,
              uint64_t tag,
              uint32_t channel) override;

    /// Gives rank its own NIC rate (both directions); fatal if rank >= NRanks.
    void SetRankBandwidth(uint32_t rank, DataRate rate);
    DataRate GetRankBandwidth(uint32_t rank) const;
    /// Messages posted so far and their bytes.
    uint64_t GetMessages() const;
    uint64_t GetBytesSent() const;

  private:
    void Deliver(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void Acknowledge(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void EnsureSized();

    uint32_t m_nRanks;                 //!< attribute NRanks
    DataRate m_rate;                   //!< attribute Bandwidth
    Time m_alpha;                      //!< attribute Alpha
    bool m_coupled;                    //!< attribute CoupledSides
    std::vector<uint64_t> m_rankBps;   //!< per-rank rate, bit/s (0 = m_rate)
    std::vector<int64_t> m_sendFreeNs; //!< when each send side is next free
    std::vector<int64_t> m_recvFreeNs; //!< when each receive side is next free
    uint64_t m_messages{0};
    uint64_t m_bytes{0};
};

} // namespace ns3

#endif // ALPHA_BETA_COLLECTIVE_TRANSPORT_H
