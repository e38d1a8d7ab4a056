/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target ai-fabric-fuzz-size-parser: the input is one flag value, given to
// each of ParseByteSize, ParseDataRate and ParseTime (helper/scenario/size-parser.h;
// --bytes, --host-rate, --link-delay, ...). Documented errors are ConfigError. A value
// that parses must survive its formatter: Parse(Format(x)) == x.

#include "ns3/config-error.h"
#include "ns3/size-parser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try
    {
        const uint64_t bytes = ns3::ParseByteSize(text);
        if (ns3::ParseByteSize(ns3::FormatByteSize(bytes)) != bytes)
        {
            std::abort();
        }
    }
    catch (const ns3::ConfigError&)
    {
    }
    try
    {
        const ns3::DataRate rate = ns3::ParseDataRate(text);
        if (ns3::ParseDataRate(ns3::FormatDataRate(rate)) != rate)
        {
            std::abort();
        }
    }
    catch (const ns3::ConfigError&)
    {
    }
    try
    {
        const ns3::Time t = ns3::ParseTime(text);
        if (ns3::ParseTime(ns3::FormatTime(t)) != t)
        {
            std::abort();
        }
    }
    catch (const ns3::ConfigError&)
    {
    }
    return 0;
}
