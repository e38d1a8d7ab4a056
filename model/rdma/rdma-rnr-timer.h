/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RNR_TIMER_H
#define RDMA_RNR_TIMER_H

#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The receiver-not-ready (RNR) NAK timer: the 5-bit code an RNR NAK's AETH carries
 * (syndrome 001xxxxx) and a responder's min_rnr_timer holds, and the time it stands
 * for, in microseconds (IBTA vol. 1 sec. 9.7.5.2.8, table 45; the same table in
 * rdma-core's ibv_modify_qp(3) man page, min_rnr_timer). Code 0 is the longest,
 * 655.36 ms; 1..31 run from 0.01 ms to 491.52 ms.
 */
namespace RdmaRnrTimer
{
/// Codes: 0..31 (5 bits)
constexpr uint8_t MAX_CODE = 31;

/// Table 45 in nanoseconds, by code.
constexpr std::array<int64_t, 32> NANOSECONDS = {
    655360000, 10000,    20000,    30000,     40000,     60000,     80000,     120000,
    160000,    240000,   320000,   480000,    640000,    960000,    1280000,   1920000,
    2560000,   3840000,  5120000,  7680000,   10240000,  15360000,  20480000,  30720000,
    40960000,  61440000, 81920000, 122880000, 163840000, 245760000, 327680000, 491520000};

/// \return the time RNR timer code \p code (0..31; higher bits ignored) stands for
inline Time
Decode(uint8_t code)
{
    return NanoSeconds(NANOSECONDS[code & MAX_CODE]);
}
} // namespace RdmaRnrTimer

} // namespace ns3

#endif // RDMA_RNR_TIMER_H
