/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "halving-doubling-allreduce.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"

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
    static TypeId tid = TypeId("ns3::HalvingDoublingAllreduce")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<HalvingDoublingAllreduce>();
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
    std::vector<uint32_t> lo(np, 0);
    std::vector<uint32_t> sent(static_cast<size_t>(np) * c);
    // recursive halving: partner at distance m keeps the other half of my range
    for (uint32_t m = np / 2; m >= 1; m /= 2)
    {
        for (uint32_t q = 0; q < np; ++q)
        {
            uint32_t p = q ^ m;
            uint32_t sendLo = (p & m) ? lo[q] + m : lo[q];
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                sent[q * c + ch] = AddTransfer(rankOf(q),
                                               rankOf(p),
                                               ch * np + sendLo,
                                               ch * np + sendLo + m,
                                               true,
                                               received[q * c + ch]);
            }
        }
        for (uint32_t q = 0; q < np; ++q)
        {
            lo[q] += (q & m) ? m : 0;
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                received[q * c + ch].push_back(sent[(q ^ m) * c + ch]);
            }
        }
    }
    // recursive doubling: send my aligned range of m blocks (it contains block q)
    for (uint32_t m = 1; m < np; m *= 2)
    {
        for (uint32_t q = 0; q < np; ++q)
        {
            uint32_t start = q & ~(m - 1);
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                sent[q * c + ch] = AddTransfer(rankOf(q),
                                               rankOf(q ^ m),
                                               ch * np + start,
                                               ch * np + start + m,
                                               false,
                                               received[q * c + ch]);
            }
        }
        for (uint32_t q = 0; q < np; ++q)
        {
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                received[q * c + ch].push_back(sent[(q ^ m) * c + ch]);
            }
        }
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
