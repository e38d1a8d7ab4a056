/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "halving-doubling-allreduce.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/enum.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingAllreduce");

NS_OBJECT_ENSURE_REGISTERED(HalvingDoublingAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"hd",
     CollectiveOp::ALLREDUCE,
     "recursive halving-doubling (Thakur, Rabenseifner and Gropp 2005)",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<HalvingDoublingAllreduce>()); },
     false});

TypeId
HalvingDoublingAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HalvingDoublingAllreduce")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<HalvingDoublingAllreduce>()
            .AddAttribute("Order",
                          "Order of the exchange distances. Nearest: the reduce-scatter "
                          "halves the buffer with the rank at distance 1 first, then 2, "
                          "4, ... (recursive vector halving with distance doubling, as "
                          "Open MPI's ompi_coll_base_allreduce_intra_redscat_allgather "
                          "does), the all-gather mirrors it; with ranks on hosts in "
                          "order the largest exchanges stay under one switch. Farthest: "
                          "distance N/2 first (Thakur, Rabenseifner and Gropp 2005). Both "
                          "cost 2 log2(N) alpha + 2 (N-1)/N S/B on a non-blocking switch.",
                          EnumValue(HalvingDoublingAllreduce::NEAREST_FIRST),
                          MakeEnumAccessor(&HalvingDoublingAllreduce::m_order),
                          MakeEnumChecker(HalvingDoublingAllreduce::NEAREST_FIRST,
                                          "nearest",
                                          HalvingDoublingAllreduce::FARTHEST_FIRST,
                                          "farthest"));
    return tid;
}

CollectiveOp
HalvingDoublingAllreduce::GetOp() const
{
    return CollectiveOp::ALLREDUCE;
}

std::string
HalvingDoublingAllreduce::GetName() const
{
    return "hd";
}

void
HalvingDoublingAllreduce::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t np = 1;
    while (np * 2 <= n)
    {
        np *= 2;
    }
    uint32_t extra = n - np;
    uint32_t c = ChunksFor(GetChannelBytes() / np);
    SetNUnits(np * c); // unit = chunk * np + block: one chunk's blocks are contiguous
    if (n < 2)
    {
        return;
    }
    auto rankOf = [extra](uint32_t q) { return q < extra ? 2 * q + 1 : q + extra; };
    // received[q * c + ch]: transfers delivered so far to virtual rank q for chunk ch;
    // a step's send reduces or forwards data from all of them
    std::vector<std::vector<uint32_t>> received(static_cast<size_t>(np) * c);
    for (uint32_t i = 0; i < extra; ++i)
    {
        for (uint32_t ch = 0; ch < c; ++ch)
        {
            received[i * c + ch].push_back(
                AddTransfer(2 * i, 2 * i + 1, ch * np, (ch + 1) * np, true, {}));
        }
    }
    // exchange distances of the reduce-scatter; the all-gather runs them backwards
    std::vector<uint32_t> distances;
    for (uint32_t m = 1; m < np; m *= 2)
    {
        distances.push_back(m);
    }
    if (m_order == FARTHEST_FIRST)
    {
        std::reverse(distances.begin(), distances.end());
    }
    // [lo[q], lo[q] + len): the blocks virtual rank q still reduces (reduce-scatter) or
    // already holds (all-gather); partners at distance d hold the two halves of one range
    std::vector<uint32_t> lo(np, 0);
    std::vector<uint32_t> sent(static_cast<size_t>(np) * c);
    uint32_t len = np;
    for (uint32_t d : distances)
    {
        len /= 2;
        for (uint32_t q = 0; q < np; ++q)
        {
            uint32_t p = q ^ d;
            uint32_t sendLo = (p & d) ? lo[q] + len : lo[q]; // the partner's half
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                sent[q * c + ch] = AddTransfer(rankOf(q),
                                               rankOf(p),
                                               ch * np + sendLo,
                                               ch * np + sendLo + len,
                                               true,
                                               received[q * c + ch]);
            }
        }
        for (uint32_t q = 0; q < np; ++q)
        {
            lo[q] += (q & d) ? len : 0;
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                received[q * c + ch].push_back(sent[(q ^ d) * c + ch]);
            }
        }
    }
    // all-gather: send the range I hold to the partner holding its sibling half
    for (auto it = distances.rbegin(); it != distances.rend(); ++it)
    {
        uint32_t d = *it;
        for (uint32_t q = 0; q < np; ++q)
        {
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                sent[q * c + ch] = AddTransfer(rankOf(q),
                                               rankOf(q ^ d),
                                               ch * np + lo[q],
                                               ch * np + lo[q] + len,
                                               false,
                                               received[q * c + ch]);
            }
        }
        for (uint32_t q = 0; q < np; ++q)
        {
            lo[q] -= (q & d) ? len : 0;
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                received[q * c + ch].push_back(sent[(q ^ d) * c + ch]);
            }
        }
        len *= 2;
    }
    for (uint32_t i = 0; i < extra; ++i)
    {
        for (uint32_t ch = 0; ch < c; ++ch)
        {
            AddTransfer(2 * i + 1, 2 * i, ch * np, (ch + 1) * np, false, received[i * c + ch]);
        }
    }
}

} // namespace ns3
