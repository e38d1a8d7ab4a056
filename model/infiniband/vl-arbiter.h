/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VL_ARBITER_H
#define VL_ARBITER_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief InfiniBand VL arbitration of one output port (IBTA vol. 1 ch. 7.6.9).
 *
 * Two tables of (VL, weight) entries, weight in 64-byte units. The current entry of a
 * table keeps sending while its remaining weight is positive and its VL has an
 * eligible packet (a packet may overrun the remaining weight); then the next entry
 * with an eligible VL and a non-zero weight becomes current, with its full weight.
 * The high-priority table is served first, but after HighLimit x 4096 bytes of
 * high-priority data one low-priority packet may go if one is eligible (HighLimit
 * 255 = unbounded, 0 = one high packet at a time).
 */
class VlArbiter : public Object
{
  public:
    /// One table entry.
    struct Entry
    {
        uint8_t vl;     //!< data VL (0..14)
        uint8_t weight; //!< 64-byte units (0 = entry skipped)
    };

    static TypeId GetTypeId();
    VlArbiter();

    void SetHighTable(const std::vector<Entry>& t); //!< replace the high-priority table
    void SetLowTable(const std::vector<Entry>& t);  //!< replace the low-priority table
    const std::vector<Entry>& GetHighTable() const; //!< \return the table
    const std::vector<Entry>& GetLowTable() const;  //!< \return the table
    /// Default when nothing is configured: low table round-robin over VLs 0..n-1,
    /// each with weight 64 (one 4 KB packet per turn).
    void SetDefaultTables(uint8_t numDataVls);

    /**
     * Choose the VL to send from among eligible ones. No allocation.
     * \param eligibleMask bit v set when VL v has a packet that fits its credits
     * \return the chosen VL (eligibleMask must be non-zero)
     */
    uint8_t Pick(uint16_t eligibleMask);
    /// Account a packet of `bytes` just sent on the VL Pick returned.
    void Charge(uint32_t bytes);

  private:
    struct TableState
    {
        std::vector<Entry> table;
        uint32_t index{0};
        int32_t remaining{0};
    };

    static bool PickFrom(TableState& s, uint16_t mask, uint8_t& vl);
    static bool AnyEligible(const TableState& s, uint16_t mask);

    TableState m_high;
    TableState m_low;
    uint8_t m_highLimit;  //!< Attribute, 4 KB units
    uint64_t m_highBytes; //!< high-priority bytes since the last low packet
    bool m_lastFromHigh;
};

} // namespace ns3

#endif // VL_ARBITER_H
