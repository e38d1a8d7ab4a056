/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_SPEC_H
#define FLOW_SPEC_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief One flow to inject: who sends how many bytes to whom, and when.
 *
 * The common currency of the background traffic generator, the flow file
 * reader and the NICs that start the flows. src and dst are host indices
 * (0 .. hosts-1); in the HPCC-derived simulators' files they are node ids,
 * which coincide when hosts are numbered before switches, as there.
 */
struct FlowSpec
{
    uint64_t id{0};        //!< unique, increasing with (start, generation order)
    uint32_t src{0};       //!< sending host index
    uint32_t dst{0};       //!< receiving host index (never src)
    uint64_t sizeBytes{0}; //!< message size in bytes (payload, > 0)
    Time start;            //!< time the sender posts the message
    uint8_t priority{3};   //!< traffic class / PFC priority (0..7)
    uint16_t dport{100};   //!< destination port (HPCC-derived files use 100)
};

/**
 * \param a first flow
 * \param b second flow
 * \return true if all fields are equal
 */
inline bool
operator==(const FlowSpec& a, const FlowSpec& b)
{
    return a.id == b.id && a.src == b.src && a.dst == b.dst && a.sizeBytes == b.sizeBytes &&
           a.start == b.start && a.priority == b.priority && a.dport == b.dport;
}

} // namespace ns3

#endif // FLOW_SPEC_H
