/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RCCC_CREDIT_GATE_H
#define RCCC_CREDIT_GATE_H

#include "ns3/rdma-congestion-control.h"

#include <cstdint>

namespace ns3
{

class RdmaRequester;

/**
 * \ingroup ai-fabric
 * \brief The sender's half of UET's receiver-credit congestion control (RCCC; Ultra
 * Ethernet specification 1.0, congestion management: receiver-issued credits), as the
 * UEC's simulator uet-htsim runs it (htsim/sim/uec.cpp, receiver-based CC): a PDC sends
 * a data packet only while it holds credit, and each packet spends its payload bytes.
 * It starts with a speculative credit (SpeculativeBdps) that it may spend before the
 * receiver has answered; the first ACK, NACK or CREDIT from the receiver ends
 * speculation (what is left of it is forfeited). Every request carries a credit
 * target (RUD_CC_REQ): the credit granted so far plus what the PDC still needs
 * (unsent bytes and pending resends, at most MaxCreditBdps, less the credit it holds),
 * in Quantum-byte units; the receiver's RcccCreditPacer grants towards it.
 *
 * A decorator around the PDC's own controller (NSCC, or none): its window is the
 * smaller of the inner controller's and the bytes in flight plus the credit held, its
 * rate the inner controller's. UetNic installs one per PDC when RCCC is on (UetNic
 * Rccc); with RCCC off nothing of this runs.
 */
class RcccCreditGate : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    RcccCreditGate();
    ~RcccCreditGate() override;

    /// Gate \p inner (a started controller) of the queue pair whose requester is \p r.
    void Wrap(Ptr<RdmaCongestionControl> inner, const RdmaRequester* r);

    void Start(const RdmaCcContext& ctx) override;
    void Stop() override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;
    void OnCnp() override;
    void OnNack() override;
    void OnLossNack() override;
    void OnTimeout() override;
    /// A resend spends credit as new data does: it waits while none is held.
    bool MayResend() const override;
    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// A CREDIT arrived: \p granted, the credit granted so far (Quantum units, 24 bits).
    void ReceiveCredit(uint32_t granted);
    /// \return the credit target the next request carries (Quantum units, 24 bits)
    uint32_t GetCreditTarget() const;
    /// \return the credit held (bytes; below 0 after the last packet overspent it)
    int64_t GetCredit() const;
    /// \return whether the PDC still spends its speculative credit
    bool IsSpeculating() const;
    /// \return Quantum, bytes
    uint32_t GetQuantum() const;

  private:
    /// The first word from the receiver: the speculative credit left is forfeited.
    void StopSpeculating();
    /// Window and rate from the inner controller and the credit (the change callback).
    void Refresh();

    double m_speculativeBdps;                  //!< attribute SpeculativeBdps
    double m_maxCreditBdps;                    //!< attribute MaxCreditBdps
    uint32_t m_quantum;                        //!< attribute Quantum, bytes
    Ptr<RdmaCongestionControl> m_inner;        //!< the PDC's own controller
    const RdmaRequester* m_requester{nullptr}; //!< the PDC's sender half
    int64_t m_credit{0};                       //!< credit held, bytes
    int64_t m_maxCredit{0};                    //!< MaxCreditBdps in bytes
    uint32_t m_granted{0};                     //!< credit granted so far, Quantum units (24 bits)
    bool m_speculating{true};                  //!< no word from the receiver yet
};

} // namespace ns3

#endif // RCCC_CREDIT_GATE_H
