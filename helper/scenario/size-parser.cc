/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "size-parser.h"

#include "ns3/config-error.h"
#include "ns3/rdma-fabric.h"
#include "ns3/rounded-time.h"

#include <cctype>
#include <cstdlib>
#include <numeric>
#include <utility>

namespace ns3
{

namespace
{

/// Split "12.5GBps" into "12.5" and "GBps"; false if the number part is malformed.
bool
SplitNumber(const std::string& text, std::string& intPart, std::string& fracPart, std::string& unit)
{
    std::size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        ++i;
    }
    if (i == 0)
    {
        return false;
    }
    intPart = text.substr(0, i);
    fracPart.clear();
    if (i < text.size() && text[i] == '.')
    {
        std::size_t j = i + 1;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
        {
            ++j;
        }
        if (j == i + 1)
        {
            return false;
        }
        fracPart = text.substr(i + 1, j - i - 1);
        i = j;
    }
    unit = text.substr(i);
    return true;
}

const char* const kSizeSuffixes = "B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB "
                                  "(powers of 1024), e.g. 4096, 64KB, 1MiB";

// ns-3's DataRate::DoParse accepts exactly these trailers.
const char* const kRateUnits[] = {"bps",  "b/s",  "Bps",  "B/s",   "kbps",  "kb/s",  "Kbps",
                                  "Kb/s", "kBps", "kB/s", "KBps",  "KB/s",  "Kib/s", "KiB/s",
                                  "Mbps", "Mb/s", "MBps", "MB/s",  "Mib/s", "MiB/s", "Gbps",
                                  "Gb/s", "GBps", "GB/s", "Gib/s", "GiB/s"};

/// A time unit with the name ns-3's Time(std::string) gives it, and its seconds.
struct TimeUnitName
{
    const char* name;
    Time::Unit unit;
    double seconds;
};

const TimeUnitName kTimeUnits[] = {{"s", Time::S, 1.0},
                                   {"ms", Time::MS, 1e-3},
                                   {"us", Time::US, 1e-6},
                                   {"ns", Time::NS, 1e-9},
                                   {"ps", Time::PS, 1e-12},
                                   {"min", Time::MIN, 60.0},
                                   {"h", Time::H, 3600.0}};

/// Bytes per unit of a size suffix (SI and IEC); 0 for an unknown one
uint64_t
SizeMultiplier(const std::string& unit)
{
    static const std::pair<const char*, uint64_t> kMultipliers[] = {
        {"", 1},
        {"B", 1},
        {"KB", 1000ULL},
        {"kB", 1000ULL},
        {"MB", 1000000ULL},
        {"GB", 1000000000ULL},
        {"TB", 1000000000000ULL},
        {"KiB", 1ULL << 10},
        {"MiB", 1ULL << 20},
        {"GiB", 1ULL << 30},
        {"TiB", 1ULL << 40},
    };
    for (const auto& [suffix, mult] : kMultipliers)
    {
        if (unit == suffix)
        {
            return mult;
        }
    }
    return 0;
}

} // namespace

uint64_t
ParseByteSize(const std::string& text)
{
    std::string intPart;
    std::string fracPart;
    std::string unit;
    if (!SplitNumber(text, intPart, fracPart, unit))
    {
        throw ConfigError("'" + text +
                          "' is not a byte size; use a non-negative number with "
                          "optional suffix " +
                          kSizeSuffixes);
    }
    const uint64_t multiplier = SizeMultiplier(unit);
    if (multiplier == 0)
    {
        throw ConfigError("'" + text + "' has unknown size suffix '" + unit + "'; allowed " +
                          kSizeSuffixes);
    }
    // Exact 64-bit arithmetic: int * mult + frac * mult / 10^fd, where the fraction
    // gives whole bytes only if 10^fd / gcd(mult, 10^fd) divides it.
    const std::string tooLarge = "'" + text + "' is too large for a byte size (at most " +
                                 std::to_string(RdmaFabric::MAX_MESSAGE_BYTES) +
                                 " bytes, 1PiB: beyond it, bit counts and transmission "
                                 "times overflow)";
    const std::string notWhole = "'" + text + "' is not a whole number of bytes";
    uint64_t whole = 0;
    for (char c : intPart)
    {
        if (__builtin_mul_overflow(whole, 10, &whole) ||
            __builtin_add_overflow(whole, static_cast<uint64_t>(c - '0'), &whole))
        {
            throw ConfigError(tooLarge);
        }
    }
    if (__builtin_mul_overflow(whole, multiplier, &whole))
    {
        throw ConfigError(tooLarge);
    }
    fracPart.erase(fracPart.find_last_not_of('0') + 1); // "1.50KB" is "1.5KB"
    if (fracPart.empty())
    {
        if (whole > RdmaFabric::MAX_MESSAGE_BYTES)
        {
            throw ConfigError(tooLarge);
        }
        return whole;
    }
    if (fracPart.size() > 19) // mult = 10^12 at most: more digits cannot be whole bytes
    {
        throw ConfigError(notWhole);
    }
    uint64_t frac = 0;
    uint64_t scale = 1;
    for (char c : fracPart)
    {
        frac = frac * 10 + static_cast<uint64_t>(c - '0');
        scale *= 10;
    }
    const uint64_t g = std::gcd(multiplier, scale);
    if (frac % (scale / g) != 0)
    {
        throw ConfigError(notWhole);
    }
    uint64_t result = 0;
    if (__builtin_add_overflow(whole, frac / (scale / g) * (multiplier / g), &result) ||
        result > RdmaFabric::MAX_MESSAGE_BYTES)
    {
        throw ConfigError(tooLarge);
    }
    return result;
}

std::string
FormatByteSize(uint64_t bytes)
{
    static const std::pair<const char*, uint64_t> kUnits[] = {
        {"TiB", 1ULL << 40},
        {"TB", 1000000000000ULL},
        {"GiB", 1ULL << 30},
        {"GB", 1000000000ULL},
        {"MiB", 1ULL << 20},
        {"MB", 1000000ULL},
        {"KiB", 1ULL << 10},
        {"KB", 1000ULL},
    };
    if (bytes != 0)
    {
        for (const auto& [suffix, mult] : kUnits)
        {
            if (bytes % mult == 0)
            {
                return std::to_string(bytes / mult) + suffix;
            }
        }
    }
    return std::to_string(bytes);
}

DataRate
ParseDataRate(const std::string& text)
{
    std::string intPart;
    std::string fracPart;
    std::string unit;
    bool known = false;
    if (SplitNumber(text, intPart, fracPart, unit))
    {
        for (const char* u : kRateUnits)
        {
            known = known || unit == u;
        }
    }
    if (!known)
    {
        std::string units;
        for (const char* u : kRateUnits)
        {
            units += (units.empty() ? "" : ", ") + std::string(u);
        }
        throw ConfigError("'" + text + "' is not a data rate; use a number followed by one of " +
                          units + " (e.g. 100Gbps)");
    }
    return DataRate(text);
}

std::string
FormatDataRate(const DataRate& rate)
{
    const uint64_t bps = rate.GetBitRate();
    static const std::pair<const char*, uint64_t> kUnits[] = {
        {"Gbps", 1000000000ULL},
        {"Mbps", 1000000ULL},
        {"kbps", 1000ULL},
    };
    if (bps != 0)
    {
        for (const auto& [suffix, mult] : kUnits)
        {
            if (bps % mult == 0)
            {
                return std::to_string(bps / mult) + suffix;
            }
        }
    }
    return std::to_string(bps) + "bps";
}

Time
ParseTime(const std::string& text)
{
    if (text == "0")
    {
        return Time(0);
    }
    std::string intPart;
    std::string fracPart;
    std::string unit;
    const TimeUnitName* known = nullptr;
    if (SplitNumber(text, intPart, fracPart, unit))
    {
        for (const auto& u : kTimeUnits)
        {
            known = unit == u.name ? &u : known;
        }
    }
    if (!known)
    {
        throw ConfigError("'" + text +
                          "' is not a time; use a non-negative number followed by one of "
                          "s, ms, us, ns, ps, min, h (e.g. 1us)");
    }
    // What Time(text) computes on ns-3.37 (the number as a double, times the unit,
    // rounded to the resolution); ns-3.31 and 3.32 truncate instead (rounded-time.h).
    // A time must leave room for another one added to it (an event's time plus a
    // delay) in ns-3's 64-bit count of picoseconds: at most MAX_TIME_SECONDS.
    const std::string number = fracPart.empty() ? intPart : intPart + "." + fracPart;
    const double value = std::strtod(number.c_str(), nullptr); // (HUGE_VAL if out of range)
    if (!(value * known->seconds <= MAX_TIME_SECONDS))
    {
        throw ConfigError("'" + text + "' is too large for a time (at most " +
                          std::to_string(static_cast<uint64_t>(MAX_TIME_SECONDS)) +
                          "s, about 53 days: half of what ns-3's Time holds in picoseconds, "
                          "so that adding a delay cannot overflow)");
    }
    return RoundedTime(int64x64_t(value), known->unit);
}

std::string
FormatTime(const Time& t)
{
    const int64_t ps = t.GetPicoSeconds();
    static const std::pair<const char*, int64_t> kUnits[] = {
        {"s", 1000000000000LL},
        {"ms", 1000000000LL},
        {"us", 1000000LL},
        {"ns", 1000LL},
    };
    if (ps == 0)
    {
        return "0s";
    }
    for (const auto& [suffix, mult] : kUnits)
    {
        if (ps % mult == 0)
        {
            return std::to_string(ps / mult) + suffix;
        }
    }
    return std::to_string(ps) + "ps";
}

} // namespace ns3
