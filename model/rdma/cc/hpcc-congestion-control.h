/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_CONGESTION_CONTROL_H
#define HPCC_CONGESTION_CONTROL_H

#include "int-record-history.h"
#include "rdma-congestion-control.h"

#include "ns3/int-header.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief HPCC, High Precision Congestion Control (Li et al., "HPCC: High Precision
 * Congestion Control", SIGCOMM 2019, Algorithm 1): a window computed from the
 * in-flight bytes that in-band network telemetry (INT) measures on every link.
 *
 * Each ACK echoes the INT records (IntHeader) the switches wrote into the data packet
 * it acknowledges. Against the previous ACK's records, per link i:
 *
 *   txRate_i = (txBytes_i - txBytes'_i) / (ts_i - ts'_i)
 *   u_i      = min(qLen_i, qLen'_i) / (B_i T) + txRate_i / B_i
 *
 * the most loaded link's u (and its tau = ts_i - ts'_i, at most T) feeds the EWMA
 * U = (1 - tau/T) U + (tau/T) u (MeasureInflight). Then (ComputeWind):
 *
 *   U >= eta or incStage >= maxStage:  W = W_c / (U / eta) + W_AI
 *   otherwise:                         W = W_c + W_AI
 *
 * and the reference window W_c (and incStage: 0 after a multiplicative step, + 1 after
 * an additive one) takes W only once per round trip: on the first ACK of a PSN sent
 * after the previous reference update (the paper's lastUpdateSeq); the other ACKs
 * compute W from the unchanged W_c (PerAckUpdate; false: they do nothing). The pacing
 * rate is R = W / T. W is in wire bytes (the INT counters'), at most the line rate
 * times T (W_init) and at least MinRate times T; the queue pair's window is W in
 * payload bytes (times MTU / wire bytes of a full packet).
 */
class HpccCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    HpccCongestionControl();
    ~HpccCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;

    bool UsesRttSamples() const override
    {
        return false; // (OnAck reads no RTT)
    }

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// HPCC reads in-band network telemetry (CongestionControlRegistry usesInt).
    static bool UsesInt()
    {
        return true;
    }

    /**
     * Algorithm 1's NewAck for an ACK echoing records \p h: MeasureInflight, then
     * ComputeWind with updateWc = \p updateWc, then the rate. The first records (or
     * records of another path length) are only kept. OnAck calls it; public so that
     * tests can drive the rule directly.
     * \return true if the window was computed (there were previous records)
     */
    bool Update(const IntHeader& h, bool updateWc);
    /// Algorithm 1's MeasureInflight: fold records \p h into U. \return U
    double MeasureInflight(const IntHeader& h);
    /// Algorithm 1's ComputeWind(U, updateWc), clamped. \return W, wire bytes
    double ComputeWind(double u, bool updateWc);

    /// U, the EWMA of the most loaded link's normalized in-flight bytes
    double GetUtilization() const;
    /// u of the latest MeasureInflight (before the EWMA)
    double GetLastLinkUtilization() const;
    /// W, wire bytes
    double GetWindow() const;
    /// W_c, wire bytes
    double GetReferenceWindow() const;
    /// W_AI = RateAi x T, wire bytes
    double GetWindowAi() const;
    /// W_init = line rate x T, wire bytes
    double GetInitialWindow() const;
    /// T, the base RTT in use
    Time GetBaseRtt() const;
    /// incStage
    uint32_t GetIncStage() const;
    /// Windows computed since Start
    uint64_t GetUpdates() const;
    /// Reference-window (per-RTT) updates since Start
    uint64_t GetReferenceUpdates() const;

    /// Names of the presets ("paper", "simulator").
    static std::vector<std::string> GetPresetNames();
    /// Name of the preset the attribute defaults equal ("paper").
    static std::string GetDefaultPresetName();
    /**
     * Attribute (name, value) pairs of a preset.
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetPreset(const std::string& name);

  private:
    /// Hand W to the queue pair: its window (payload bytes) and R = W / T.
    void Apply();

    // Attributes
    double m_eta;        //!< target utilization eta
    uint32_t m_maxStage; //!< additive steps before a multiplicative one
    DataRate m_rateAi;   //!< W_AI / T
    DataRate m_minRate;  //!< lowest rate (W >= MinRate x T)
    Time m_baseRttAttr;  //!< T; 0 = the path's unloaded RTT
    bool m_perAckUpdate; //!< react on every ACK (updateWc false) between RTT updates
    double m_uInit;      //!< U before the first measurement

    // State
    double m_tSeconds;            //!< T, seconds
    double m_u;                   //!< U
    double m_lastU;               //!< latest u
    double m_w;                   //!< W, wire bytes
    double m_wc;                  //!< W_c, wire bytes
    double m_wAi;                 //!< W_AI, wire bytes
    double m_wInit;               //!< W_init, wire bytes
    double m_wMin;                //!< MinRate x T, wire bytes
    uint32_t m_incStage;          //!< incStage
    IntRecordHistory m_prev;      //!< the previous ACK's records (L)
    uint64_t m_sentPackets;       //!< packets handed to the wire
    uint64_t m_ackedPackets;      //!< packets acknowledged
    uint64_t m_updateMark;        //!< lastUpdateSeq, as sent packets
    uint64_t m_updates;           //!< windows computed
    uint64_t m_refUpdates;        //!< reference-window updates
    TracedValue<double> m_uTrace; //!< U of each update
};

} // namespace ns3

#endif // HPCC_CONGESTION_CONTROL_H
