/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWIFT_CONGESTION_CONTROL_H
#define SWIFT_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Swift delay-based congestion control (Kumar et al., "Swift: Delay is
 * Simple and Effective for Congestion Control in the Datacenter", SIGCOMM 2020,
 * Algorithm 1).
 *
 * Two AIMD windows in packets: the fabric window reacts to the fabric delay
 * (rtt - remoteDelay) against a target that grows with the hop count and, through
 * flow scaling, as the window shrinks; the endpoint window reacts to the remote
 * delay against a fixed target. The effective window is their minimum. Below one
 * packet the window becomes a pacing rate of one packet per rtt/cwnd.
 */
class SwiftCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    SwiftCongestionControl();
    ~SwiftCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnAck(const RdmaAckSample& sample) override;
    void OnNack() override;
    void OnTimeout() override;
    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /**
     * Fabric target delay for a fabric window and hop count:
     * base + hops * h + clamp(a/sqrt(cwnd) + b, 0, fs_range).
     */
    Time GetTargetDelay(double cwnd, uint32_t hops) const;
    /// Effective window in packets, min(fabric, endpoint).
    double GetCwnd() const;
    double GetFabricCwnd() const;
    double GetEndpointCwnd() const;
    /// Window bounds in packets as resolved at Start (auto values filled in).
    double GetMinCwnd() const;
    double GetMaxCwnd() const;
    /// Consecutive retransmission timeouts since the last ACK.
    uint32_t GetRetransmitCount() const;

    /// Names of the presets ("default", "paper").
    static std::vector<std::string> GetPresetNames();
    /// Name of the preset the attribute defaults equal.
    static std::string GetDefaultPresetName();
    /**
     * Attribute (name, value) pairs of a preset.
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetPreset(const std::string& name);

  private:
    /// One window's reaction to an ACK (Algorithm 1, "On receiving ACK").
    void AckWindow(double& cwnd, Time& lastDecrease, Time delay, Time target, double acked);
    /// Both windows times (1 - max_mdf), unless either decreased within an RTT.
    bool DecreaseByMaxMdf();
    bool CanDecrease(Time lastDecrease) const;
    double Clamp(double cwnd) const;
    /// Hand the effective window (or pacing rate below one packet) to the QP.
    void Apply();
    Time CurrentRtt() const;

    // Attributes
    double m_ai;           //!< additive increment, packets per RTT
    double m_beta;         //!< multiplicative decrease factor
    double m_maxMdf;       //!< maximum multiplicative decrease
    Time m_baseTarget;     //!< base fabric target delay
    Time m_perHop;         //!< per-hop target scaling h
    Time m_fsRange;        //!< flow-scaling range; 0 = 5 x base target
    double m_fsMinCwnd;    //!< window at which flow scaling reaches fs_range
    double m_fsMaxCwnd;    //!< window at which flow scaling reaches 0
    Time m_endpointTarget; //!< endpoint (remote NIC/host) target delay
    uint32_t m_retxReset;  //!< RETX_RESET_THRESHOLD
    double m_minCwndAttr;  //!< min window, packets
    double m_maxCwndAttr;  //!< max window, packets; 0 = 2 x BDP
    double m_initCwndAttr; //!< initial window, packets; 0 = 1 x BDP

    // State
    double m_minCwnd;            //!< resolved min window
    double m_maxCwnd;            //!< resolved max window
    double m_fabricCwnd;         //!< fabric window, packets
    double m_endpointCwnd;       //!< endpoint window, packets
    Time m_fabricLastDecrease;   //!< time of the fabric window's last decrease
    Time m_endpointLastDecrease; //!< time of the endpoint window's last decrease
    Time m_lastRtt;              //!< latest RTT sample (zero before the first)
    uint32_t m_retransmitCount;  //!< consecutive timeouts

    TracedValue<double> m_cwndTrace; //!< effective window, packets
    TracedValue<Time> m_targetDelay; //!< fabric target delay of the latest ACK
};

} // namespace ns3

#endif // SWIFT_CONGESTION_CONTROL_H
