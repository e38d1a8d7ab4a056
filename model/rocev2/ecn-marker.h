/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ECN_MARKER_H
#define ECN_MARKER_H

#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief RED-style ECN marking thresholds of one switch egress port (DCQCN's CP).
 *
 * At egress dequeue, with q the queue's bytes: q <= Kmin never marks,
 * q >= Kmax always marks, in between marks with probability
 * Pmax * (q - Kmin) / (Kmax - Kmin). Kmin == Kmax gives DCTCP's step (mark iff q > K).
 *
 * The Attributes give Kmin and Kmax at ReferenceRate; SetLinkRate scales them
 * linearly with the port's rate (ScaleWithRate), so Config::SetDefault changes
 * every port's defaults. SetThresholds sets absolute values for one port.
 */
class EcnMarker : public Object
{
  public:
    /// Absolute marking thresholds of one port.
    struct Config
    {
        uint64_t kminBytes; //!< no marking at or below
        uint64_t kmaxBytes; //!< always marking at or above
        double pmax;        //!< marking probability just below Kmax
    };

    static TypeId GetTypeId();
    EcnMarker();
    ~EcnMarker() override;

    /// Thresholds for a port of this rate, from the current Attribute defaults.
    static Config ConfigFor(DataRate linkRate);

    /// Scale the Attribute thresholds to this port's rate (or copy them if ScaleWithRate is off).
    void SetLinkRate(DataRate linkRate);
    /// Set absolute thresholds; NS_FATAL_ERROR unless kmin <= kmax and 0 <= pmax <= 1.
    void SetThresholds(uint64_t kminBytes, uint64_t kmaxBytes, double pmax);
    Config GetConfig() const;

    /**
     * \brief Marking decision at egress dequeue.
     * \param queueBytes bytes in the egress queue
     * \param uniform01 a draw from U[0,1) (an ns-3 UniformRandomVariable of the caller)
     * \return true to set CE
     */
    bool ShouldMark(uint64_t queueBytes, double uniform01) const
    {
        if (queueBytes <= m_kmin)
        {
            return false;
        }
        if (queueBytes >= m_kmax)
        {
            return true;
        }
        return uniform01 < m_slope * static_cast<double>(queueBytes - m_kmin);
    }

    /**
     * \brief Marking decision that draws from rng only between Kmin and Kmax, where the
     * outcome is random: most dequeues see a queue below Kmin and cost no draw.
     */
    bool ShouldMark(uint64_t queueBytes, UniformRandomVariable& rng) const
    {
        if (queueBytes <= m_kmin)
        {
            return false;
        }
        if (queueBytes >= m_kmax)
        {
            return true;
        }
        return rng.GetValue() < m_slope * static_cast<double>(queueBytes - m_kmin);
    }

    /// Marking probability at this queue length (for tests and docs).
    double GetMarkProbability(uint64_t queueBytes) const;

  protected:
    /// Start with the unscaled Attribute thresholds until SetLinkRate is called.
    void NotifyConstructionCompleted() override;

  private:
    void Apply(uint64_t kmin, uint64_t kmax, double pmax);

    // Attributes (at m_refRate)
    uint64_t m_kminRef;
    uint64_t m_kmaxRef;
    double m_pmaxAttr;
    DataRate m_refRate;
    bool m_scale;

    // In use
    uint64_t m_kmin;
    uint64_t m_kmax;
    double m_pmax;
    double m_slope; //!< pmax / (kmax - kmin); avoids a division per packet
};

} // namespace ns3

#endif // ECN_MARKER_H
