/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCQCN_CONGESTION_CONTROL_H
#define DCQCN_CONGESTION_CONTROL_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief DCQCN reaction point (Zhu et al., "Congestion Control for Large-Scale
 * RDMA Deployments", SIGCOMM 2015).
 *
 * Rate-based: the current rate RC is cut by alpha/2 on each CNP (at most once per
 * RateDecreaseInterval) and recovers towards the target rate RT in three stages
 * (fast recovery, additive increase, hyper increase) driven by an increase timer
 * and a byte counter. The notification point (CNP generation) lives in the
 * receiver, the congestion point (ECN marking) in the switch.
 *
 * The alpha timer is evaluated lazily: alpha is multiplied by (1-g)^n where n is
 * the number of whole AlphaTimer periods since the last CNP. This gives exactly
 * the values of a timer restarted on each CNP without scheduling an event per
 * queue pair every microsecond (the "hpcc" preset's 1 us timer). With AlphaUpdate
 * PerPeriod (the ConnectX NICs and the HPCC-derived simulators) alpha moves once per
 * period instead, up if a CNP came in it; also evaluated lazily.
 */
class DcqcnCongestionControl : public RdmaCongestionControl
{
  public:
    /// When alpha moves up: on each CNP, or once per alpha timer period with a CNP.
    enum AlphaUpdate
    {
        PER_CNP,    //!< alpha = (1-g) alpha + g on each CNP, which restarts the timer (paper)
        PER_PERIOD, //!< once per period: up if a CNP came in it, else down (ConnectX)
    };

    /// How the target rate grows in hyper increase.
    enum HyperIncrease
    {
        HYPER_LINEAR,   //!< RT += i R_HAI, i the hyper stage (paper)
        HYPER_CONSTANT, //!< RT += R_HAI at every hyper step (ConnectX, HPCC-derived code)
    };

    static TypeId GetTypeId();
    DcqcnCongestionControl();
    ~DcqcnCongestionControl() override;

    void Start(const RdmaCcContext& ctx) override;
    void Stop() override;
    void OnPacketSent(uint32_t payloadBytes) override;
    void OnCnp() override;

    bool UsesRttSamples() const override
    {
        return false; // (OnAck reads no RTT)
    }

    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

    /// Current alpha (the alpha timer's decay applied up to now).
    double GetAlpha() const;
    /// Current rate RC in bit/s (unrounded).
    double GetCurrentRateBps() const;
    /// Target rate RT in bit/s (unrounded).
    double GetTargetRateBps() const;
    /// Increase events seen from the timer since the last rate cut.
    uint32_t GetTimerCount() const;
    /// Increase events seen from the byte counter since the last rate cut.
    uint32_t GetByteCount() const;
    /// R_AI after scaling with the line rate, bit/s (valid after Start).
    double GetRateAiBps() const;
    /// R_HAI after scaling with the line rate, bit/s (valid after Start).
    double GetRateHaiBps() const;

    /// Names of the presets ("paper", "hpcc", "hpcc-run").
    static std::vector<std::string> GetPresetNames();
    /// Name of the preset the attribute defaults equal.
    static std::string GetDefaultPresetName();
    /**
     * Attribute (name, value) pairs of a preset.
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetPreset(const std::string& name);
    /**
     * The switches' ECN marking (ns3::EcnMarker attribute (name, value) pairs) that goes
     * with a preset: the congestion point of the same source as the reaction point.
     * \throws std::invalid_argument if the name is not a preset.
     */
    static std::vector<std::pair<std::string, std::string>> GetSwitchPreset(
        const std::string& name);

  protected:
    void DoDispose() override;

  private:
    /// Bring m_alpha up to date with the alpha timer periods elapsed.
    void UpdateAlpha();
    /// Alpha after the periods elapsed since m_alphaAnchor, and how many they are.
    double AlphaAfterPeriods(int64_t& periods) const;
    /// RT = RC; RC *= (1 - alpha/2).
    void CutRate();
    /// A deferred cut (CNP inside the decrease interval) is due.
    void DeferredCut();
    /// Restart the increase timer and zero the stage counters and byte count.
    void ResetIncrease();
    void IncreaseTimerExpired();
    /// One increase event (timer or byte counter); picks the stage.
    void IncreaseEvent();
    /// Clamp RC/RT and hand RC to the queue pair.
    void ApplyRate();

    // Attributes
    double m_g;                    //!< alpha gain
    double m_initialAlpha;         //!< alpha at start
    Time m_alphaTimer;             //!< K
    Time m_decreaseInterval;       //!< minimum spacing of rate cuts
    Time m_increaseTimer;          //!< T
    uint64_t m_byteCounter;        //!< B, bytes; 0 = off
    uint32_t m_threshold;          //!< F
    DataRate m_rateAi;             //!< R_AI at the reference rate
    DataRate m_rateHai;            //!< R_HAI at the reference rate
    DataRate m_rateReference;      //!< line rate R_AI/R_HAI are given for; 0 = no scaling
    DataRate m_minRate;            //!< floor of RC and RT
    AlphaUpdate m_alphaUpdate;     //!< when alpha moves up
    bool m_clampTargetRate;        //!< RT = RC on every cut (else only after an increase)
    HyperIncrease m_hyperIncrease; //!< hyper increase step rule

    // State
    double m_rc;              //!< current rate, bit/s
    double m_rai;             //!< scaled R_AI, bit/s
    double m_rhai;            //!< scaled R_HAI, bit/s
    double m_lineBps;         //!< line rate, bit/s
    double m_minBps;          //!< min rate, bit/s
    double m_alpha;           //!< alpha as of m_alphaAnchor
    Time m_alphaAnchor;       //!< start of the current alpha timer period
    Time m_lastCut;           //!< time of the last rate cut
    bool m_cnpSeen;           //!< a CNP has arrived since Start
    bool m_cnpInPeriod;       //!< PER_PERIOD: a CNP came in the current alpha period
    bool m_increasing;        //!< increase timer / byte counter running
    bool m_increasedSinceCut; //!< an increase event came since the last cut
    uint32_t m_timerCount;    //!< timer stage counter
    uint32_t m_byteCount;     //!< byte counter stage counter
    uint64_t m_bytes;         //!< payload bytes sent since the last byte-counter event
    EventId m_increaseEvent;  //!< pending increase timer
    EventId m_cutEvent;       //!< pending deferred cut

    TracedValue<double> m_alphaTrace;   //!< alpha
    TracedValue<uint64_t> m_targetRate; //!< RT, bit/s
};

} // namespace ns3

#endif // DCQCN_CONGESTION_CONTROL_H
