/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCTCP_CONGESTION_CONTROL_H
#define DCTCP_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief DCTCP on the RDMA transport, as the HPCC simulator runs it (Alizadeh et al.,
 * "Data Center TCP (DCTCP)", SIGCOMM 2010; RFC 8257; github.com/alibaba-edu/
 * High-Precision-Congestion-Control, rdma-hw.cc HandleAckDctcp).
 *
 * The receiver echoes ECN CE in every ACK (RoceNic EcnEchoInAck: the ACK's BTH BECN
 * bit, one CE state per ACK); the sender keeps
 *
 *   alpha = (1 - g) alpha + g F     once per window (F: marked / acknowledged packets)
 *   rate  = max(MinRate, rate (1 - alpha / 2))   at an echoing ACK, at most once per
 *                                                window (until the ACK covering what
 *                                                was sent at the cut: CWR)
 *   rate  = min(line rate, rate + AdditiveIncrement)   once per window otherwise
 *
 * and, with UseWindow, a window of BDP x rate / line rate payload bytes (at least one
 * MTU), BDP = line rate x base RTT: the HPCC simulator's VarWin.
 */
class DctcpCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    DctcpCongestionControl();
    ~DctcpCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;

    bool UsesRttSamples() const override
    {
        return false; // (OnAck reads no RTT)
    }

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// alpha, the estimate of the fraction of marked packets.
    double GetAlpha() const;
    /// The controller's rate in bit/s before rounding to whole bits.
    double GetExactRateBps() const;
    /// Whether a cut's window is still being acknowledged (no further cut until it is).
    bool IsInCwr() const;
    /// Windows (alpha updates) since Start.
    uint64_t GetWindows() const;
    /// Rate cuts since Start.
    uint64_t GetCuts() const;
    /// Packets acknowledged by ACKs that echoed ECN CE, since Start.
    uint64_t GetEchoedPackets() const;

    /// Names of the presets ("hpcc").
    static std::vector<std::string> GetPresetNames();
    /// Name of the preset the attribute defaults equal ("hpcc").
    static std::string GetDefaultPresetName();
    /**
     * Attribute (name, value) pairs of a preset.
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetPreset(const std::string& name);
    /**
     * The switches' ns3::EcnMarker values of a preset: DCTCP's single threshold K
     * (Kmin = Kmax = K, Pmax 1).
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetSwitchPreset(
        const std::string& name);

  private:
    /// Clamp m_rate to [MinRate, line rate]; hand rate and window to the queue pair.
    void Apply();

    // Attributes
    double m_g;            //!< EWMA gain of alpha
    double m_initialAlpha; //!< alpha at Start
    DataRate m_ai;         //!< additive increase per window
    DataRate m_minRate;    //!< lowest rate
    bool m_useWindow;      //!< window = BDP x rate / line rate

    // State
    double m_rate;                    //!< current rate, bit/s (unrounded)
    double m_alpha;                   //!< fraction-of-marks estimate
    uint64_t m_sentPackets;           //!< packets handed to the wire (retransmissions too)
    uint64_t m_ackedPackets;          //!< packets acknowledged
    uint64_t m_windowEnd;             //!< acked packets that end the current window (0: none yet)
    bool m_firstWindow;               //!< the window that ends first: no alpha update (as HPCC's)
    uint64_t m_winAcked;              //!< packets acknowledged in the current window
    uint64_t m_winMarked;             //!< of them, acknowledged by echoing ACKs
    bool m_inCwr;                     //!< reduced; no cut until m_cwrEnd is acknowledged
    uint64_t m_cwrEnd;                //!< sent packets at the cut
    uint64_t m_windows;               //!< alpha updates
    uint64_t m_cuts;                  //!< rate cuts
    uint64_t m_echoed;                //!< packets acknowledged by echoing ACKs
    double m_bdpBytes;                //!< line rate x base RTT, bytes
    TracedValue<double> m_alphaTrace; //!< alpha after each update
};

} // namespace ns3

#endif // DCTCP_CONGESTION_CONTROL_H
