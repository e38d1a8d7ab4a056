/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hierarchical-allreduce.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HierarchicalAllreduce");

NS_OBJECT_ENSURE_REGISTERED(HierarchicalAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"2d",
     CollectiveOp::ALLREDUCE,
     "2-D ring: reduce-scatter along rows, allreduce along columns, all-gather along rows",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<HierarchicalAllreduce>()); },
     false});

TypeId
HierarchicalAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HierarchicalAllreduce")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<HierarchicalAllreduce>()
            .AddAttribute("X",
                          "Ranks per row (the inner ring); 0 = derive from Y, or the most "
                          "square factorization of N if both are 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HierarchicalAllreduce::m_x),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Y",
                          "Rows (the outer ring); 0 = derive from X.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HierarchicalAllreduce::m_y),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

CollectiveOp
HierarchicalAllreduce::GetOp() const
{
    return CollectiveOp::ALLREDUCE;
}

HierarchicalAllreduce::HierarchicalAllreduce()
    : m_x(0),
      m_y(0)
{
}

std::string
HierarchicalAllreduce::GetName() const
{
    return "2d";
}

void
HierarchicalAllreduce::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t x = m_x;
    uint32_t y = m_y;
    if (x == 0 && y == 0)
    {
        for (uint32_t d = 1; d * d <= n; ++d)
        {
            if (n % d == 0)
            {
                y = d;
            }
        }
        x = n / y;
    }
    else if (x == 0)
    {
        x = n % y == 0 ? n / y : 0;
    }
    else if (y == 0)
    {
        y = n % x == 0 ? n / x : 0;
    }
    if (x == 0 || y == 0 || static_cast<uint64_t>(x) * y != n)
    {
        throw std::invalid_argument("2d allreduce: X=" + std::to_string(m_x) +
                                    " x Y=" + std::to_string(m_y) + " does not match " +
                                    std::to_string(n) + " ranks; X * Y must equal N");
    }
    uint32_t c = ChunksFor(GetChannelBytes() / n);
    // unit = (chunk * x + column segment) * y + row subsegment
    SetNUnits(c * x * y);
    std::vector<std::vector<uint32_t>> afterRows(static_cast<size_t>(n) * c);
    // 1. reduce-scatter along each row: position xi ends with segment xi
    for (uint32_t row = 0; row < y; ++row)
    {
        std::vector<uint32_t> ring(x);
        for (uint32_t i = 0; i < x; ++i)
        {
            ring[i] = row * x + i;
        }
        auto d = AddRingPhase(ring,
                              c,
                              true,
                              [x, y](uint32_t seg, uint32_t ch) {
                                  return std::make_pair((ch * x + seg) * y, (ch * x + seg) * y + y);
                              },
                              {});
        for (uint32_t i = 0; i < x; ++i)
        {
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                if (!d[i * c + ch].empty())
                {
                    afterRows[(row * x + i) * c + ch].push_back(d[i * c + ch].back());
                }
            }
        }
    }
    // 2. ring allreduce of segment col along each column; every step of a rank
    // waits for that rank's row phase, since it reduces into its row result
    std::vector<std::vector<uint32_t>> afterCols(static_cast<size_t>(n) * c);
    for (uint32_t col = 0; col < x; ++col)
    {
        std::vector<uint32_t> ring(y);
        std::vector<std::vector<uint32_t>> start(static_cast<size_t>(y) * c);
        for (uint32_t j = 0; j < y; ++j)
        {
            ring[j] = j * x + col;
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                start[j * c + ch] = afterRows[ring[j] * c + ch];
            }
        }
        auto units = [x, y, col](uint32_t seg, uint32_t ch) {
            uint32_t u = (ch * x + col) * y + seg;
            return std::make_pair(u, u + 1);
        };
        auto rs = AddRingPhase(ring, c, true, units, start);
        std::vector<std::vector<uint32_t>> mid(rs.size());
        for (size_t k = 0; k < rs.size(); ++k)
        {
            mid[k] = start[k];
            if (!rs[k].empty())
            {
                mid[k].push_back(rs[k].back());
            }
        }
        auto ag = AddRingPhase(ring, c, false, units, mid);
        for (uint32_t j = 0; j < y; ++j)
        {
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                // the row all-gather sends the whole segment: every piece must be in
                auto& a = afterCols[ring[j] * c + ch];
                a = mid[j * c + ch];
                a.insert(a.end(), ag[j * c + ch].begin(), ag[j * c + ch].end());
            }
        }
    }
    // 3. all-gather along each row
    for (uint32_t row = 0; row < y; ++row)
    {
        std::vector<uint32_t> ring(x);
        std::vector<std::vector<uint32_t>> start(static_cast<size_t>(x) * c);
        for (uint32_t i = 0; i < x; ++i)
        {
            ring[i] = row * x + i;
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                start[i * c + ch] = afterCols[ring[i] * c + ch];
            }
        }
        AddRingPhase(
            ring,
            c,
            false,
            [x, y](uint32_t seg, uint32_t ch) {
                return std::make_pair((ch * x + seg) * y, (ch * x + seg) * y + y);
            },
            start);
    }
}

} // namespace ns3
