/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_QOS_POLICY_H
#define IB_QOS_POLICY_H

#include "vl-arbiter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The Subnet Manager's QoS policy: the VL arbitration tables it programs into
 * every port (switch ports and HCA ports), written as OpenSM's opensm.conf options
 * qos_vlarb_high and qos_vlarb_low ("VL:weight,VL:weight,...", weight in 64-byte
 * units, 0..255; OpenSM's QoS documentation, doc/QoS_management_in_OpenSM.txt) and
 * qos_high_limit. SL-to-VL stays the SM's map (SubnetManager::GetSl2Vl: SL s on VL
 * s mod the data VLs), so a tenant given SL s is arbitrated as VL s.
 */
struct IbQosPolicy
{
    std::vector<VlArbiter::Entry> high; //!< qos_vlarb_high (empty: no high-priority VL)
    std::vector<VlArbiter::Entry> low;  //!< qos_vlarb_low
    uint8_t highLimit{0};               //!< qos_high_limit (VlArbiter HighLimit, 4 KB units)

    /**
     * Parse a table in OpenSM's syntax.
     * \param text "VL:weight,..." (VL 0..14, weight 0..255; at most 64 entries)
     * \return the entries
     * \throws std::invalid_argument naming the entry and what is allowed
     */
    static std::vector<VlArbiter::Entry> ParseTable(const std::string& text);
    /// \return the table in OpenSM's syntax
    static std::string FormatTable(const std::vector<VlArbiter::Entry>& table);
    /// \return the data VLs the tables name (highest VL + 1; 0 for empty tables)
    uint8_t GetRequiredVls() const;
};

} // namespace ns3

#endif // IB_QOS_POLICY_H
