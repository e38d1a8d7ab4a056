/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AI_FABRIC_INT_RECORD_HISTORY_H
#define AI_FABRIC_INT_RECORD_HISTORY_H

#include "ns3/int-header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The previous ACK's in-band telemetry records of one queue pair, for the
 * algorithms that compare consecutive records hop by hop (HPCC's L in Li et al. 2019,
 * Algorithm 1; PowerTCP's prevInt in Addanki et al. 2022, Algorithm 1).
 */
class IntRecordHistory
{
  public:
    /// Forget the records (a new flow).
    void Reset();

    /**
     * Whether \p h can be compared with the kept records hop by hop. An ACK without
     * records leaves the history as it is; the first records, or records of a path
     * with another hop count, are kept for the next ACK and cannot be compared.
     */
    bool Accept(const IntHeader& h);

    /// \return the kept record of hop \p i (i < GetNHops())
    const IntHop& GetHop(uint32_t i) const
    {
        return m_hops[i];
    }

    /// \return the hops kept
    uint32_t GetNHops() const
    {
        return m_nHops;
    }

    /// Keep \p h's records for the next ACK.
    void Store(const IntHeader& h);

  private:
    bool m_have{false};                               //!< records are kept
    uint32_t m_nHops{0};                              //!< records in m_hops
    std::array<IntHop, IntHeader::MAX_HOPS> m_hops{}; //!< the previous ACK's records
};

} // namespace ns3

#endif // AI_FABRIC_INT_RECORD_HISTORY_H
