/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Time from fractional values, rounded the same way on every ns-3 release.
 *
 * ns-3.33 made Time(int64x64_t), and with it Seconds(double), Time::FromDouble
 * and Time("2.3us"), round to the nearest time step; ns-3.31 and 3.32 truncate.
 * DataRate::CalculateBytesTxTime truncates up to ns-3.36: ns-3.31 divides in
 * double (then Seconds(double) truncates), ns-3.32 .. 3.36 divide a Time by the
 * rate in integer steps (Seconds(bits) / bps); ns-3.37 rounds the exact 64.64
 * quotient (Seconds(int64x64_t(bits) / bps)). A run on an older tree then differs
 * from the same run on ns-3.37 by one time step here and there, and the
 * difference grows through the event order. These functions do exactly what
 * ns-3.37 does (the same 64.64 fixed-point products, then
 * int64x64_t::Round()'s half-away-from-zero), on every release: outputs stay
 * what they are on ns-3.37 and become the same on ns-3.31.
 */
#ifndef ROUNDED_TIME_H
#define ROUNDED_TIME_H

#include "ns3/data-rate.h"
#include "ns3/int64x64.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/// The largest time the module's inputs accept, in seconds: half of the largest ns-3
/// Time at picosecond resolution (2^63 ps = 9223372 s), so that one such time plus
/// another cannot overflow (the scenario runner uses picoseconds).
constexpr double MAX_TIME_SECONDS = 4611686.0;

/**
 * \brief Time::From(value, unit) rounded to the nearest time step (ns-3.37's behaviour).
 * \param value a count of \p unit, as a 64.64 fixed-point number
 * \param unit the unit of \p value
 * \return the Time
 */
inline Time
RoundedTime(const int64x64_t& value, Time::Unit unit)
{
    // The product Time::From forms: times the integer number of steps per unit
    // when the unit is at least the resolution, else by the inverse of the
    // number of units per step (ns-3's MulByInvert, for the same bits).
    int64x64_t steps = value;
    if (unit <= Time::GetResolution())
    {
        steps *= int64x64_t(Time::FromInteger(1, unit).GetTimeStep());
    }
    else
    {
        steps.MulByInvert(int64x64_t::Invert(TimeStep(1).ToInteger(unit)));
    }
    // int64x64_t::Round() of ns-3.33+, which ns-3.31 lacks.
    const bool negative = steps < int64x64_t(0);
    if (negative)
    {
        steps = -steps;
    }
    steps += int64x64_t(0, uint64_t(1) << 63);
    const int64_t rounded = steps.GetHigh();
    return Time(negative ? -rounded : rounded);
}

/**
 * \brief Seconds(seconds) as ns-3.37 computes it: rounded to the nearest time step.
 * \param seconds the duration in seconds
 * \return the Time
 */
inline Time
RoundedSeconds(double seconds)
{
    return RoundedTime(int64x64_t(seconds), Time::S);
}

/**
 * \brief DataRate::CalculateBytesTxTime as ns-3.37 computes it (exact quotient, rounded).
 *
 * Takes 64-bit byte counts: CalculateBytesTxTime takes uint32_t and forms
 * bytes * 8 in 32 bits, which overflows from 512 MiB on.
 *
 * \param rate the link or sending rate (> 0 b/s)
 * \param bytes the bytes to send
 * \return the time \p bytes take at \p rate
 */
inline Time
RoundedTxTime(const DataRate& rate, uint64_t bytes)
{
    return RoundedTime(int64x64_t(bytes * 8) / int64x64_t(rate.GetBitRate()), Time::S);
}

} // namespace ns3

#endif // ROUNDED_TIME_H
