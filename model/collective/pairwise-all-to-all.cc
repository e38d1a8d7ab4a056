/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pairwise-all-to-all.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PairwiseAllToAll");

NS_OBJECT_ENSURE_REGISTERED(PairwiseAllToAll);

static CollectiveAlgorithmRegistration g_registration(
    {"pairwise",
     CollectiveOp::ALL_TO_ALL,
     "pairwise exchange, N-1 steps of S/N bytes",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<PairwiseAllToAll>()); },
     true});

TypeId
PairwiseAllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PairwiseAllToAll")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<PairwiseAllToAll>();
    return tid;
}

CollectiveOp
PairwiseAllToAll::GetOp() const
{
    return CollectiveOp::ALL_TO_ALL;
}

std::string
PairwiseAllToAll::GetName() const
{
    return "pairwise";
}

uint32_t
PairwiseAllToAll::GetUnitOwner(uint32_t unit) const
{
    return unit / (GetChannelUnits() / GetCommunicator().GetSize());
}

void
PairwiseAllToAll::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t c = ChunksFor(GetChannelBytes() / n);
    // unit = source * c + chunk: what rank j holds of unit i*c+k is "the block i sent
    // me"; the block's size is S/N, whatever its destination
    SetNUnits(n * c);
    std::vector<uint32_t> prev(static_cast<size_t>(n) * c);
    std::vector<uint32_t> cur(prev.size());
    std::vector<uint32_t> deps;
    for (uint32_t k = 1; k < n; ++k)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t from = (i + n - (k - 1)) % n; // who sent to i in step k-1
            for (uint32_t ch = 0; ch < c; ++ch)
            {
                deps.clear();
                if (k > 1)
                {
                    deps.push_back(prev[from * c + ch]);
                }
                cur[i * c + ch] =
                    AddTransfer(i, (i + k) % n, i * c + ch, i * c + ch + 1, false, deps);
            }
        }
        std::swap(prev, cur);
    }
}

} // namespace ns3
