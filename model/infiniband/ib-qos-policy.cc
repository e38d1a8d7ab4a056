/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-qos-policy.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{
/// A decimal number in [0, max], or throws naming the entry.
uint32_t
ParseField(const std::string& s, uint32_t max, const std::string& entry, const char* what)
{
    if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(s) > max)
    {
        throw std::invalid_argument("'" + entry + "': " + what + " '" + s +
                                    "' is not allowed (allowed 0.." + std::to_string(max) + ")");
    }
    return static_cast<uint32_t>(std::stoul(s));
}
} // namespace

std::vector<VlArbiter::Entry>
IbQosPolicy::ParseTable(const std::string& text)
{
    std::vector<VlArbiter::Entry> table;
    std::size_t pos = 0;
    while (pos <= text.size() && !text.empty())
    {
        std::size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
        {
            comma = text.size();
        }
        const std::string entry = text.substr(pos, comma - pos);
        const std::size_t colon = entry.find(':');
        if (colon == std::string::npos)
        {
            throw std::invalid_argument("'" + entry + "' is not VL:weight (e.g. 0:64,1:192)");
        }
        const uint32_t vl = ParseField(entry.substr(0, colon), 14, entry, "VL");
        const uint32_t w = ParseField(entry.substr(colon + 1), 255, entry, "weight");
        table.push_back(VlArbiter::Entry{static_cast<uint8_t>(vl), static_cast<uint8_t>(w)});
        pos = comma + 1;
    }
    if (table.size() > 64)
    {
        throw std::invalid_argument(std::to_string(table.size()) +
                                    " entries; a VL arbitration table holds at most 64");
    }
    return table;
}

std::string
IbQosPolicy::FormatTable(const std::vector<VlArbiter::Entry>& table)
{
    std::string s;
    for (const auto& e : table)
    {
        s += (s.empty() ? "" : ",") + std::to_string(e.vl) + ":" + std::to_string(e.weight);
    }
    return s;
}

uint8_t
IbQosPolicy::GetRequiredVls() const
{
    uint8_t n = 0;
    for (const auto* t : {&high, &low})
    {
        for (const auto& e : *t)
        {
            n = std::max<uint8_t>(n, e.vl + 1);
        }
    }
    return n;
}

} // namespace ns3
