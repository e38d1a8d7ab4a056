/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-reduce-scatter.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingReduceScatter");

NS_OBJECT_ENSURE_REGISTERED(RingReduceScatter);

TypeId
RingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingReduceScatter")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RingReduceScatter>();
    return tid;
}

CollectiveOp
RingReduceScatter::GetOp() const
{
    return CollectiveOp::REDUCE_SCATTER;
}

std::string
RingReduceScatter::GetName() const
{
    return "ring";
}

uint32_t
RingReduceScatter::GetUnitOwner(uint32_t unit) const
{
    return unit / (GetNUnits() / GetCommunicator().GetSize());
}

void
RingReduceScatter::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t c = ChunksFor(GetBytes() / n);
    SetNUnits(n * c);
    std::vector<uint32_t> ring(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        ring[i] = i;
    }
    AddRingPhase(ring,
                 c,
                 true,
                 [c](uint32_t seg, uint32_t chunk) {
                     return std::make_pair(seg * c + chunk, seg * c + chunk + 1);
                 },
                 {});
}

} // namespace ns3
