/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ets-weights.h"

#include <iterator>
#include <stdexcept>

namespace ns3
{

ATTRIBUTE_HELPER_CPP(EtsWeights);

EtsWeights::EtsWeights()
{
    m_weight.fill(1);
}

EtsWeights
EtsWeights::Parse(const std::string& text)
{
    EtsWeights w;
    std::array<bool, 8> seen{};
    std::size_t pos = 0;
    while (!text.empty() && pos <= text.size())
    {
        std::size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
        {
            comma = text.size();
        }
        const std::string entry = text.substr(pos, comma - pos);
        const std::size_t colon = entry.find(':');
        const std::string p = colon == std::string::npos ? "" : entry.substr(0, colon);
        const std::string v = colon == std::string::npos ? "" : entry.substr(colon + 1);
        const bool digits = !p.empty() && !v.empty() && v.size() <= 3 &&
                            p.find_first_not_of("0123456789") == std::string::npos &&
                            v.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || p.size() != 1 || p[0] > '6' || std::stoul(v) < 1 || std::stoul(v) > 100)
        {
            throw std::invalid_argument("'" + entry +
                                        "' is not PRIO:WEIGHT (allowed PRIO 0..6, WEIGHT 1..100, "
                                        "e.g. 3:3,4:1)");
        }
        const auto prio = static_cast<uint8_t>(p[0] - '0');
        if (seen[prio])
        {
            throw std::invalid_argument("priority " + p + " appears twice (allowed once each)");
        }
        seen[prio] = true;
        w.m_named |= static_cast<uint8_t>(1U << prio);
        w.m_weight[prio] = static_cast<uint32_t>(std::stoul(v));
        pos = comma + 1;
    }
    return w;
}

bool
EtsWeights::IsEqual() const
{
    for (uint32_t x : m_weight)
    {
        if (x != 1)
        {
            return false;
        }
    }
    return true;
}

std::string
EtsWeights::ToString() const
{
    std::string s;
    for (uint8_t p = 0; p < 7; ++p)
    {
        if (((m_named >> p) & 1) != 0)
        {
            s += (s.empty() ? "" : ",") + std::to_string(p) + ":" + std::to_string(m_weight[p]);
        }
    }
    return s;
}

std::ostream&
operator<<(std::ostream& os, const EtsWeights& w)
{
    return os << w.ToString();
}

std::istream&
operator>>(std::istream& is, EtsWeights& w)
{
    // The whole text ("" is the default, equal weights)
    const std::string text{std::istreambuf_iterator<char>(is), std::istreambuf_iterator<char>()};
    is.setstate(std::ios::eofbit); // (all of it read, which the iterators do not mark)
    try
    {
        w = EtsWeights::Parse(text);
    }
    catch (const std::invalid_argument&)
    {
        is.setstate(std::ios::failbit);
    }
    return is;
}

} // namespace ns3
