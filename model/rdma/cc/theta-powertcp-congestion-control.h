/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef THETA_POWERTCP_CONGESTION_CONTROL_H
#define THETA_POWERTCP_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief theta-PowerTCP, the RTT-only variant of PowerTCP (Addanki, Michel and Schmid,
 * "PowerTCP: Pushing the Performance Limits of Datacenter Networks", NSDI 2022,
 * Algorithm 2): a window driven by the normalized "power" of the path, estimated from
 * the RTT and its gradient alone (no INT).
 *
 * Every ACK (tau = base RTT, dt = time since the previous ACK):
 *
 *   Gamma_norm = (d rtt / dt + 1) rtt / tau
 *   Gamma      = Gamma (1 - min(dt / tau, 1)) + Gamma_norm min(dt / tau, 1)
 *
 * and once per RTT (the ACK covering what was sent at the previous update):
 *
 *   cwnd = Gamma_w (cwnd_old / Gamma + beta) + (1 - Gamma_w) cwnd,  cwnd_old = cwnd
 *
 * (Gamma_w: the Gamma attribute, the paper's EWMA weight gamma). The rate is
 * cwnd / tau, at most the line rate; the window at least one MTU.
 */
class ThetaPowertcpCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId();
    ThetaPowertcpCongestionControl();
    ~ThetaPowertcpCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnAck(const RdmaAckSample& sample) override;
    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// OnAck at time \p now (OnAck passes Simulator::Now(); tests drive it directly).
    void Update(const RdmaAckSample& sample, Time now);

    /// The smoothed normalized power Gamma.
    double GetPower() const;
    /// The window, bytes, before rounding.
    double GetExactWindow() const;

  private:
    /// Window to the queue pair: window and rate cwnd / tau.
    void Apply();

    // Attributes
    double m_gamma;     //!< EWMA weight of the window update
    double m_betaRatio; //!< beta as a fraction of the BDP

    // State
    double m_cwnd;           //!< bytes
    double m_oldCwnd;        //!< cwnd at the last per-RTT update
    double m_power;          //!< smoothed normalized power
    double m_bdp;            //!< line rate x base RTT, bytes
    bool m_first;            //!< no ACK yet
    Time m_prevRtt;          //!< RTT of the previous ACK
    Time m_prevTime;         //!< arrival of the previous ACK
    uint64_t m_sentPackets;  //!< packets handed to the wire
    uint64_t m_ackedPackets; //!< packets acknowledged
    uint64_t m_updateMark;   //!< acked packets that allow the next per-RTT update
};

} // namespace ns3

#endif // THETA_POWERTCP_CONGESTION_CONTROL_H
