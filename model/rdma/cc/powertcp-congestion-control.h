/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POWERTCP_CONGESTION_CONTROL_H
#define POWERTCP_CONGESTION_CONTROL_H

#include "int-record-history.h"
#include "rdma-congestion-control.h"

#include "ns3/data-rate.h"
#include "ns3/int-header.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <array>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief PowerTCP (Addanki, Michel and Schmid, "PowerTCP: Pushing the Performance
 * Limits of Datacenter Networks", NSDI 2022, Algorithm 1): a window driven by the
 * normalized "power" of the most loaded link, read from the in-band network telemetry
 * (INT) records that ACKs echo (the same records HPCC reads).
 *
 * Per ACK, against the previous ACK's records, for each hop i (b_i its rate, tau the
 * base RTT, dt_i = ts_i - ts'_i):
 *
 *   current  lambda_i = (qLen_i - qLen'_i) / dt_i + (txBytes_i - txBytes'_i) / dt_i
 *   voltage  nu_i     = qLen_i + b_i tau
 *   Gamma_i = lambda_i nu_i / (b_i^2 tau)          (normalized by the base power)
 *
 * the hop with the largest Gamma_i (and its dt, at most tau) feeds the smoothing
 * Gamma = (Gamma (tau - dt) + Gamma_i dt) / tau; then
 *
 *   W = gamma (W_old / Gamma + beta) + (1 - gamma) W,  R = W / tau
 *
 * where W_old is the window in effect when the acknowledged packet was sent (Eq. 7's
 * w(t - theta(t)), Algorithm 1's GETCWND(ack.seq)): W is remembered once per round
 * trip (on the first ACK of a packet sent after the previous refresh: Algorithm 1's
 * UPDATE_OLD), and an ACK takes the latest remembered W from before its packet was
 * sent, as the authors' Linux module (inet-tub/powertcp-linux, get_cwnd) does (the
 * ReferenceWindow attribute selects the authors' ns-3 simulator's rule instead). W is in
 * wire bytes (the INT counters'), at least one full packet and at most the line rate
 * times tau; the queue pair's window is W in payload bytes.
 */
class PowertcpCongestionControl : public RdmaCongestionControl
{
  public:
    /// Which remembered window an ACK's update divides by the power (W_old).
    enum ReferenceWindow
    {
        /// The window remembered before the acknowledged packet was sent (Algorithm 1's
        /// GETCWND); the EWMA's other term is the current W.
        REFERENCE_AT_SEND,
        /// The window of the latest once-per-round-trip update, which is also the
        /// EWMA's other term (the authors' ns-3 simulator, m_curRate).
        REFERENCE_LATEST_UPDATE,
    };

    static TypeId GetTypeId();
    PowertcpCongestionControl();
    ~PowertcpCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;

    bool UsesRttSamples() const override
    {
        return false; // (OnAck reads no RTT)
    }

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// PowerTCP reads in-band network telemetry (CongestionControlRegistry usesInt).
    static bool UsesInt()
    {
        return true;
    }

    /**
     * Algorithm 1's NEW_ACK for an ACK echoing records \p h: NORM_POWER, then
     * UPDATE_WINDOW, then the rate; W_old takes W if \p refreshOld. The first records
     * (or records of another path length) are only kept. OnAck calls it; public so that
     * tests can drive the rule directly.
     * \return true if the window was computed (there were previous records)
     */
    bool Update(const IntHeader& h, bool refreshOld);
    /// Algorithm 1's NORM_POWER: fold records \p h into Gamma. \return Gamma
    double NormPower(const IntHeader& h);
    /// Algorithm 1's UPDATE_WINDOW with power \p power, clamped. \return W, wire bytes
    double UpdateWindow(double power);

    /// Gamma, the smoothed normalized power
    double GetPower() const;
    /// The most loaded hop's normalized power of the latest NormPower (before smoothing)
    double GetLastHopPower() const;
    /// W, wire bytes
    double GetWindow() const;
    /// W_old, wire bytes
    double GetOldWindow() const;
    /// beta, wire bytes
    double GetBeta() const;
    /// Line rate x tau, wire bytes (the initial and largest window)
    double GetMaxWindow() const;
    /// Windows computed since Start
    uint64_t GetUpdates() const;

    /// Preset names: "paper" (Algorithm 1, the attribute defaults) and "ns3-datacenter".
    static std::vector<std::string> GetPresetNames();
    /// "paper": the attribute defaults.
    static std::string GetDefaultPresetName();
    /**
     * \param name a preset name
     * \return its attribute values
     * \throws std::invalid_argument for another name
     */
    static std::vector<std::pair<std::string, std::string>> GetPreset(const std::string& name);

  private:
    /// Hand W to the queue pair: its window (payload bytes) and R = W / tau.
    void Apply();

    // Attributes
    double m_gamma;              //!< EWMA weight gamma of the window update
    DataRate m_betaRate;         //!< beta / tau
    uint32_t m_expectedFlows;    //!< N > 0: beta = line rate x tau / N
    bool m_queueGradient;        //!< lambda = dq/dt + mu (false: mu)
    double m_eta;                //!< Attribute TargetUtilization (dimensionless)
    double m_minCurrent;         //!< lambda's floor, a fraction of the hop's rate
    ReferenceWindow m_reference; //!< which remembered window W_old is
    Time m_baseRttAttr;          //!< tau; 0 = the path's unloaded RTT

    // State
    double m_tau;            //!< tau, seconds
    double m_power;          //!< Gamma
    double m_lastPower;      //!< latest most loaded hop's power
    double m_w;              //!< W, wire bytes
    double m_wOld;           //!< W_old, wire bytes
    double m_beta;           //!< beta, wire bytes
    double m_wMax;           //!< line rate x tau, wire bytes
    double m_wMin;           //!< one full packet, wire bytes
    IntRecordHistory m_prev; //!< the previous ACK's records (prevInt)
    uint64_t m_sentPackets;  //!< packets handed to the wire
    uint64_t m_ackedPackets; //!< packets acknowledged
    uint64_t m_updateMark;   //!< lastUpdated, as sent packets
    uint64_t m_updates;      //!< windows computed
    /// The remembered windows (UPDATE_OLD), oldest first: (packets sent when it was
    /// remembered, W). A packet numbered above the first entry was sent under its W.
    std::deque<std::pair<uint64_t, double>> m_oldWindows;
    TracedValue<double> m_powerTrace; //!< Gamma of each update
};

} // namespace ns3

#endif // POWERTCP_CONGESTION_CONTROL_H
