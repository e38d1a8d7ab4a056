/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_NIC_H
#define UET_NIC_H

#include "ns3/roce-nic.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The NIC of --fabric=uet: RoceNic's RDMA transport run the way the Ultra Ethernet
 * Transport's reliable unordered delivery (PDS RUD) runs it. Every queue pair sprays its
 * data packets over SprayEntropies entropy values (the UDP source port the switches'
 * ECMP hash reads), one per packet (oblivious spraying), and recovers selectively: the
 * receiver places packets in any order and the sender resends only what is missing.
 * A data packet that a switch trimmed (UetTrimmer) is not delivered: the receiver
 * answers it with a trim NACK at once, and the sender resends that packet next
 * (RdmaRequester::ReceiveTrimNack) and its congestion control hears a NACK.
 *
 * What it does not do yet (doc/uet.md): the UET wire format (UDP 4793, PDS and SES
 * headers; frames keep RoCEv2's BTH framing), REPS entropy recycling, RCCC credits.
 */
class UetNic : public RoceNic
{
  public:
    /**
     * The AETH syndrome of a trim NACK: NAK (bits 6..5 = 11) with code 5, the first
     * code the IBTA reserves (0..4 are defined). The model's encoding of UET's NACK
     * with reason "trimmed" in a frame that keeps RoCEv2's framing.
     */
    static constexpr uint8_t TRIM_NACK_SYNDROME = 0x65;

    static TypeId GetTypeId();
    UetNic();
    ~UetNic() override;

    /// \return trimmed data packets received (each answered with a trim NACK)
    uint64_t GetTrimmedReceived() const;
    /// \return trim NACKs received for this NIC's queue pairs
    uint64_t GetTrimNacksReceived() const;

  protected:
    void NotifyConstructionCompleted() override;
    void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) override;

  private:
    /// QpCreated: the new queue pair sprays and recovers selectively.
    void ConfigureQueuePair(Ptr<RdmaQueuePair> qp);

    uint32_t m_sprayEntropies;       //!< attribute SprayEntropies
    uint64_t m_trimmedReceived{0};   //!< GetTrimmedReceived
    uint64_t m_trimNacksReceived{0}; //!< GetTrimNacksReceived
};

} // namespace ns3

#endif // UET_NIC_H
