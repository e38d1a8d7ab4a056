/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TIMELY_CONGESTION_CONTROL_H
#define TIMELY_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief TIMELY RTT-gradient congestion control (Mittal et al., "TIMELY: RTT-based
 * Congestion Control for the Datacenter", SIGCOMM 2015, Algorithm 1).
 *
 * A pacing rate, updated once per completion event: every UpdateBytes of
 * acknowledged payload (the paper's segment, Seg), or, with UpdateBytes 0, once per
 * round trip (when the data sent at the previous update is acknowledged, as the HPCC
 * simulator does). Each update takes the RTT of the ACK that ends the event:
 *
 *   rtt_diff = (1 - alpha) rtt_diff + alpha (new_rtt - prev_rtt)
 *   gradient = rtt_diff / MinRtt
 *   new_rtt < TLow:     rate += delta
 *   new_rtt > THigh:    rate *= 1 - beta (1 - THigh / new_rtt)
 *   gradient <= 0:      rate += N delta   (N = HaiFactor after HaiThreshold
 *                                          consecutive non-positive gradients, else 1)
 *   otherwise:          rate *= 1 - beta gradient
 *
 * clamped to [MinRate, line rate]. No window: the rate alone limits the sender.
 */
class TimelyCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    TimelyCongestionControl();
    ~TimelyCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;
    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /**
     * One completion event with RTT \p rtt: Algorithm 1's rate update. OnAck calls it
     * when an event completes; public so that tests can drive the rule directly.
     */
    void UpdateRate(Time rtt);

    /// The EWMA of RTT differences (rtt_diff), seconds.
    double GetRttDiff() const;
    /// The normalized gradient of the latest update (rtt_diff / MinRtt).
    double GetGradient() const;
    /// Consecutive updates whose gradient was at most 0.
    uint32_t GetNonPositiveGradients() const;
    /// Rate updates (completion events) since Start.
    uint64_t GetUpdates() const;
    /// The controller's rate in bit/s before rounding to whole bits.
    double GetExactRateBps() const;

    /// Names of the presets ("hpcc", "paper").
    static std::vector<std::string> GetPresetNames();
    /// Name of the preset the attribute defaults equal ("hpcc").
    static std::string GetDefaultPresetName();
    /**
     * Attribute (name, value) pairs of a preset.
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetPreset(const std::string& name);

  private:
    /// Clamp m_rate to [MinRate, line rate] and hand it to the queue pair.
    void Apply();

    // Attributes
    double m_alpha;          //!< EWMA weight of a new RTT difference
    double m_beta;           //!< multiplicative decrease factor
    Time m_tLow;             //!< below it: additive increase whatever the gradient
    Time m_tHigh;            //!< above it: decrease in proportion to the excess
    Time m_minRtt;           //!< normalizer of the gradient
    DataRate m_delta;        //!< additive increment per completion event
    uint32_t m_haiThreshold; //!< consecutive non-positive gradients before HAI
    double m_haiFactor;      //!< N in HAI mode
    DataRate m_minRate;      //!< lowest rate
    uint64_t m_updateBytes;  //!< acknowledged payload per completion event; 0 = per RTT

    // State
    double m_rate;                       //!< current rate, bit/s (unrounded)
    double m_rttDiff;                    //!< EWMA of RTT differences, seconds
    double m_gradient;                   //!< latest normalized gradient
    Time m_prevRtt;                      //!< RTT of the previous completion event (0 = none yet)
    uint32_t m_nonPositive;              //!< consecutive non-positive gradients
    uint64_t m_updates;                  //!< completion events so far
    uint64_t m_sentPackets;              //!< packets handed to the wire (retransmissions too)
    uint64_t m_ackedPackets;             //!< packets acknowledged
    uint64_t m_ackedBytes;               //!< payload bytes acknowledged
    uint64_t m_nextUpdate;               //!< segment mode: acked bytes that end the event
    uint64_t m_updateMark;               //!< RTT mode: acked packets that end the event
    TracedValue<double> m_gradientTrace; //!< normalized gradient of each update
};

} // namespace ns3

#endif // TIMELY_CONGESTION_CONTROL_H
