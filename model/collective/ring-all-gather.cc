/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-all-gather.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllGather");

NS_OBJECT_ENSURE_REGISTERED(RingAllGather);

TypeId
RingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllGather")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RingAllGather>();
    return tid;
}

CollectiveOp
RingAllGather::GetOp() const
{
    return CollectiveOp::ALL_GATHER;
}

std::string
RingAllGather::GetName() const
{
    return "ring";
}

uint32_t
RingAllGather::GetUnitOwner(uint32_t unit) const
{
    return unit / (GetNUnits() / GetCommunicator().GetSize());
}

void
RingAllGather::BuildSchedule()
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
                 false,
                 [c](uint32_t seg, uint32_t chunk) {
                     return std::make_pair(seg * c + chunk, seg * c + chunk + 1);
                 },
                 {});
}

} // namespace ns3
