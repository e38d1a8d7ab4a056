/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef UET_NIC_H
#define UET_NIC_H

#include "rccc-credit-gate.h"
#include "rccc-credit-pacer.h"
#include "uet-path-penalty.h"
#include "uet-pds-header.h"

#include "ns3/event-id.h"
#include "ns3/roce-nic.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The NIC of --fabric=uet: RoceNic's RDMA transport run the way the Ultra Ethernet
 * Transport's reliable unordered delivery (PDS RUD) runs it, in UET's framing.
 *
 * - Frames: Ethernet / IPv4 / UDP 4793 / PDS / SES (UetFrame): the transport's frames
 *   are encoded when they leave and decoded when they arrive. A queue pair is a packet
 *   delivery context (PDC; its QPN the PDC id): created on first use, its requests carry
 *   SYN (and no DPDCID) until the first ACK comes back; the target finds its PDC by the
 *   source's address and SPDCID.
 * - Spraying: every queue pair's data packets cycle over SprayEntropies entropy values
 *   (the UDP source port the switches' ECMP hash reads), one per packet; with Reps (off by
 * default), an entropy whose ACK came back without the ECN mark is reused first (REPS: a receiver's
 *   ACK carries the entropy of the packet that triggered it in its UDP source port).
 * - Recovery: the receiver places packets in any order (selective repeat), the sender
 *   resends only what is missing. A request that a switch trimmed (UetTrimmer) is not
 *   delivered: the receiver NACKs it at once (code TRIMMED) and the sender resends it
 *   within its window (RdmaRequester::ReceiveTrimNack); its congestion control hears a
 *   NACK.
 *
 * - Path failures: a data packet the receiver reports lost (a NACK with
 *   RCVR_INFER_LOSS) penalizes the entropy it went out on (UetPathPenalty,
 *   PathPenaltyMax): the PDC's next packets skip it for that many spray cycles.
 * - RCCC (Rccc, off by default): every PDC's controller is gated by credit
 *   (RcccCreditGate), its requests are RUD_CC_REQ carrying its credit target, and this
 *   NIC's RcccCreditPacer grants credit to the PDCs that send to it, in CREDIT control
 *   packets paced at its line rate.
 *
 * - SACK (Sack, off by default): while a PDC's target holds packets beyond the expected
 *   PSN its ACKs are ACK_CCs with a 64-bit SACK bitmap, one at least every SackBytes of
 *   them; the source resends each packet the bitmap shows missing below
 *   SackLossThreshold later arrivals, once, and penalizes its entropy.
 *
 * Not modelled yet (doc/uet.md): TSS, the SACK's CC state fields (sent as zeros).
 */
class UetNic : public RoceNic
{
  public:
    /**
     * The AETH syndrome the transport uses for a trim NACK: NAK (bits 6..5 = 11) with
     * code 5, the first code the IBTA reserves (0..4 are defined); on the wire it is a
     * PDS NACK with code TRIMMED (UetFrame).
     */
    static constexpr uint8_t TRIM_NACK_SYNDROME = 0x65;

    static TypeId GetTypeId();
    UetNic();
    ~UetNic() override;

    /// \return trimmed requests received (each answered with a trim NACK)
    uint64_t GetTrimmedReceived() const;
    /// \return trim NACKs received for this NIC's queue pairs
    uint64_t GetTrimNacksReceived() const;
    /// \return data packets sent on a recycled entropy (REPS)
    uint64_t GetRepsRecycled() const;
    /// \return losses that penalized an entropy (path failures)
    uint64_t GetPathPenalties() const;
    /// \return data packets moved off a penalized entropy
    uint64_t GetPathsAvoided() const;
    /// \return CREDIT packets this NIC sent (RCCC; 0 with Rccc off)
    uint64_t GetCreditsSent() const;
    /// \return CREDIT packets this NIC received (RCCC)
    uint64_t GetCreditsReceived() const;
    /// \return ACK_CCs with a SACK bitmap this NIC sent
    uint64_t GetSacksSent() const;
    /// \return packets this NIC's SACKs showed lost (each resent once, its path penalized)
    uint64_t GetSackLosses() const;
    /// UET data frames: RoceNic's plus the PDS and SES headers' difference.
    uint32_t GetFullPacketWireBytes() const override;
    /// A PDS ACK: Ethernet, IPv4, UDP and 12 bytes, padded to 60, plus wire overhead.
    uint32_t GetAckWireBytes() const override;
    /// UET data packets: the same headers on every packet of a message.
    IdealFraming GetIdealFraming() const override;

  protected:
    void NotifyConstructionCompleted() override;
    void DoDispose() override;
    void ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame) override;
    void RewriteData(const RdmaQueuePair& qp,
                     const RdmaSegment& s,
                     RoceParsedFrame& frame) override;
    void RewriteControl(RoceParsedFrame& frame) override;

  private:
    /// QpCreated: the new queue pair sprays and recovers selectively; its PDC is known.
    void ConfigureQueuePair(Ptr<RdmaQueuePair> qp);
    /// A retransmission timeout of \p qp from \p psn: its entropy's path may have failed.
    void PdcTimedOut(Ptr<const RdmaQueuePair> qp, uint64_t psn);
    /// RCCC: gate \p qp's controller with credit (slot \p slot) and ready the pacer.
    void ConfigureRccc(RdmaQueuePair& qp, uint32_t slot);
    /// RCCC: send PDC slot \p slot's peer a CREDIT of \p granted quanta (the pacer's).
    void SendCredit(uint32_t slot, uint32_t granted);
    /// SACK, the target's half: a request of \p payloadBytes was delivered to \p qp (slot
    /// \p slot); with packets held beyond the expected PSN, a SACK every SackBytes of them.
    void CountOutOfOrder(RdmaQueuePair& qp, uint32_t slot, uint32_t payloadBytes);
    /// SACK, the source's half: ACK_CC \p pds for \p qp (slot \p slot) arrived; resend
    /// the packets it shows missing below SackLossThreshold later arrivals.
    void ReceiveSack(RdmaQueuePair& qp, uint32_t slot, const UetPdsHeader& pds);
    /// SACK: look at ACK_CC \p pds of PDC \p qpn again (a hole it showed is old enough now).
    void RecheckSack(uint32_t qpn, UetPdsHeader pds);

    /// \return the key of the PDC of (peer host, peer PDC id) in m_pdcOf
    static uint64_t PdcKey(uint32_t peerHost, uint32_t peerPdc)
    {
        return (static_cast<uint64_t>(peerHost) << 32) | peerPdc;
    }

    /// REPS' buffer of one PDC: entropies whose ACKs came back unmarked, each usable once
    /// (uet-htsim buffer_reps: a circular buffer, the earliest fresh one first).
    struct RepsBuffer
    {
        std::vector<uint16_t> ring; //!< RepsBufferSize slots
        uint32_t head{0};           //!< the next slot written
        uint32_t fresh{0};          //!< entries not used yet, the newest before head
    };

    uint32_t m_sprayEntropies;          //!< attribute SprayEntropies
    Time m_rto;                         //!< attribute RetransmitTimeout
    bool m_reps;                        //!< attribute Reps
    uint32_t m_repsBufferSize;          //!< attribute RepsBufferSize
    bool m_rccc;                        //!< attribute Rccc
    uint8_t m_pathPenaltyMax;           //!< attribute PathPenaltyMax
    bool m_sack;                        //!< attribute Sack
    uint32_t m_sackBytes;               //!< attribute SackBytes
    uint32_t m_sackLossThreshold;       //!< attribute SackLossThreshold
    std::vector<uint32_t> m_oooBytes;   //!< by QpnSlot: held bytes since the last SACK
    std::vector<EventId> m_sackRecheck; //!< by QpnSlot: ReceiveSack again (RecheckSack)
    uint64_t m_sackTrigger{0};          //!< PSN of the request being delivered (SACK base)
    uint64_t m_sacksSent{0};            //!< GetSacksSent
    uint64_t m_sackLosses{0};           //!< GetSackLosses
    std::vector<std::unique_ptr<UetPathPenalty>> m_paths; //!< by QpnSlot (path failures)
    uint64_t m_pathPenalties{0};                          //!< of released PDCs' (GetPathPenalties)
    uint64_t m_pathsAvoided{0};                           //!< of released PDCs' (GetPathsAvoided)
    std::vector<Ptr<RcccCreditGate>> m_gates;             //!< by QpnSlot (RCCC)
    Ptr<RcccCreditPacer> m_pacer;                         //!< RCCC's grants to this NIC's senders
    uint64_t m_creditsReceived{0};                        //!< GetCreditsReceived
    std::vector<RepsBuffer> m_repsBuffers;                //!< by QpnSlot
    uint16_t m_echoEntropy{0};                            //!< entropy of the data being delivered
    uint64_t m_repsRecycled{0};                           //!< GetRepsRecycled
    uint64_t m_trimmedReceived{0};                        //!< GetTrimmedReceived
    uint64_t m_trimNacksReceived{0};                      //!< GetTrimNacksReceived
    std::unordered_map<uint64_t, uint32_t> m_pdcOf;       //!< (peer host, peer QPN) -> local QPN
    std::vector<bool> m_established;                      //!< by QpnSlot: an ACK or NACK came back
};

} // namespace ns3

#endif // UET_NIC_H
