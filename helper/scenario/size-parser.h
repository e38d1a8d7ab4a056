/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SIZE_PARSER_H
#define SIZE_PARSER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \brief Parse a byte count (at most RdmaFabric::MAX_MESSAGE_BYTES, 1 PiB): an integer with an
 * optional suffix B, KB/kB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
 *
 * A decimal fraction is accepted only when it gives a whole number of bytes
 * ("1.5KB" = 1500; "1.5B" and "0.0001KB" are rejected) so that a size never
 * rounds silently.
 * \param text the size as written by the user
 * \return the size in bytes
 * \throws ConfigError naming the text and the allowed suffixes (no flag prefix)
 */
uint64_t ParseByteSize(const std::string& text);

/**
 * \brief Format a byte count with the largest suffix that divides it exactly
 * (1000000 -> "1MB", 1048576 -> "1MiB", 1500 -> "1500"), so that
 * ParseByteSize(FormatByteSize(x)) == x.
 * \param bytes the size in bytes
 * \return the text
 */
std::string FormatByteSize(uint64_t bytes);

/**
 * \brief Parse a data rate in ns-3's units (e.g. "100Gbps", "12.5GBps", "400Gb/s").
 *
 * Checks the syntax first so that a typo gives a ConfigError instead of
 * DataRate's NS_FATAL_ERROR.
 * \param text the rate as written by the user
 * \return the rate
 * \throws ConfigError naming the text and the allowed units (no flag prefix)
 */
DataRate ParseDataRate(const std::string& text);

/**
 * \brief Format a rate as an exact Gbps/Mbps/kbps/bps figure ("100Gbps").
 * \param rate the rate
 * \return the text, parseable by ParseDataRate
 */
std::string FormatDataRate(const DataRate& rate);

/**
 * \brief Parse a non-negative time (at most MAX_TIME_SECONDS) in ns-3's units: a number followed by
 * s, ms, us, ns, ps, min or h ("1us", "2.5ms"); a bare "0" is also accepted.
 * \param text the time as written by the user
 * \return the time
 * \throws ConfigError naming the text and the allowed units (no flag prefix)
 */
Time ParseTime(const std::string& text);

/**
 * \brief Format a time with the largest unit (s, ms, us, ns, ps) that gives an integer.
 * \param t the time (non-negative)
 * \return the text, parseable by ParseTime
 */
std::string FormatTime(const Time& t);

} // namespace ns3

#endif // SIZE_PARSER_H
