/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NSCC_CONGESTION_CONTROL_H
#define NSCC_CONGESTION_CONTROL_H

#include "ns3/nstime.h"
#include "ns3/rdma-congestion-control.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief NSCC, the Ultra Ethernet Transport's network-signal congestion control (Ultra
 * Ethernet specification 1.0, congestion management; the UEC's simulator uet-htsim,
 * htsim/sim/uec.cpp, which this follows): a window driven by two signals per ACK, ECN
 * (the ACK's echo) and queueing delay (RTT minus the lowest RTT seen), in four quadrants:
 *
 *   no ECN, delay >= target: fair increase      inc += FairIncrease x acked
 *   no ECN, delay <  target: proportional       inc += alpha x acked x (target - delay)
 *                            (fast increase cwnd += FastIncreaseScale x acked when the
 *                            delay stays under FastIncreaseDelay for a whole window)
 *   ECN,    delay >= target: multiplicative     cwnd *= max(1 - Gamma (avg - target)/avg,
 *                                                         MaxDecrease), once per base RTT
 *   ECN,    delay <  target: nothing (the sender's spraying moves off the marked path)
 *
 * The increases accumulate and apply together (cwnd += inc / cwnd) every AdjustMtus
 * packets' worth of ACKed bytes or network RTT, plus Eta once per network RTT. Quick
 * adapt: once per base RTT + target, after a NACK or a delay above
 * QuickAdaptFactor x target, a window that achieved less than max window >> QuickAdaptGate
 * becomes what it achieved. A NACK (trim) takes one packet off the window. Scaling as
 * uet-htsim: a = BDP / (100 Gb/s x 12 us), b = target / 12 us; FairIncrease =
 * 5 MTU a, alpha = 4 MTU a b / target, Eta = 0.15 MTU a, FastIncreaseScale = 0.25 a;
 * window in [1 MTU, 1.5 BDP], starting at 1.5 BDP.
 */
class NsccCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    NsccCongestionControl();
    ~NsccCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;
    void OnNack() override;
    /// A packet inferred lost (not trimmed): no window rule (uet-htsim's NSCC reacts to
    /// trims, updateCwndOnNack, not to losses).
    void OnLossNack() override;
    void OnTimeout() override;
    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// \return the window, payload bytes (unrounded)
    double GetCwnd() const;
    /// \return the target queueing delay in force
    Time GetTarget() const;
    /// \return multiplicative decreases since Start
    uint64_t GetDecreases() const;
    /// \return quick adaptations since Start
    uint64_t GetQuickAdapts() const;

  private:
    /// Quick adapt (uet-htsim quick_adapt). \return true if it ran or the ACK is ignored
    bool QuickAdapt(bool loss, bool ecn, int64_t delayPs);
    /// The averaged delay (uet-htsim update_delay), from an RTT of \p rttPs.
    void UpdateDelay(int64_t rttPs, bool ecn);
    /// Clamp the window to [1 MTU, max window] and hand it to the queue pair.
    void Apply();

    // Attributes
    Time m_targetDelay;       //!< TargetQueueDelay (0: 0.75 x base RTT)
    double m_gamma;           //!< Gamma
    double m_maxDecrease;     //!< MaxDecrease: the floor of the decrease factor
    double m_fairMtus;        //!< FairIncreaseMtus
    double m_propMtus;        //!< ProportionalIncreaseMtus
    double m_etaMtus;         //!< EtaMtus
    double m_fastScale;       //!< FastIncreaseScale
    Time m_fastDelay;         //!< FastIncreaseDelay
    double m_delayGain;       //!< DelayEwmaGain
    uint32_t m_qaGate;        //!< QuickAdaptGate
    double m_qaFactor;        //!< QuickAdaptFactor
    uint32_t m_adjustMtus;    //!< AdjustMtus
    double m_maxWindowBdps;   //!< MaxWindowBdps
    bool m_quickAdaptEnabled; //!< QuickAdapt
    DataRate m_referenceRate; //!< ReferenceRate
    Time m_referenceRtt;      //!< ReferenceRtt

    // State (times in picoseconds, sizes in payload bytes)
    double m_cwnd{0};
    double m_maxWnd{0};
    double m_minWnd{0};
    double m_bdp{0};
    double m_fi{0};
    double m_alpha{0};
    double m_eta{0};
    double m_fiScale{0};
    int64_t m_target{0};
    int64_t m_baseRtt{0};
    int64_t m_networkRtt{0};
    double m_avgDelay{0};
    double m_incBytes{0};
    uint64_t m_receivedBytes{0};
    uint64_t m_achievedBytes{0};
    uint64_t m_inFlight{0};
    uint64_t m_bytesToIgnore{0};
    uint64_t m_bytesIgnored{0};
    uint64_t m_fastCount{0};
    bool m_increase{false};
    bool m_triggerQa{false};
    int64_t m_qaEnd{0};
    int64_t m_lastAdjust{0};
    int64_t m_lastDecrease{0};
    uint64_t m_decreases{0};
    uint64_t m_quickAdapts{0};
};

} // namespace ns3

#endif // NSCC_CONGESTION_CONTROL_H
