/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-collective.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);

static CollectiveAlgorithmRegistration g_reduceScatterRegistration(
    {"ring",
     CollectiveOp::REDUCE_SCATTER,
     "ring reduce-scatter, N-1 steps of S/N bytes",
     [] {
         return Ptr<CollectiveAlgorithm>(
             CreateObjectWithAttributes<RingCollective>("Operation",
                                                        EnumValue(RingCollective::REDUCE_SCATTER)));
     },
     true});
static CollectiveAlgorithmRegistration g_allGatherRegistration(
    {"ring",
     CollectiveOp::ALL_GATHER,
     "ring all-gather, N-1 steps of S/N bytes",
     [] {
         return Ptr<CollectiveAlgorithm>(
             CreateObjectWithAttributes<RingCollective>("Operation",
                                                        EnumValue(RingCollective::ALL_GATHER)));
     },
     true});

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingCollective")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<RingCollective>()
            .AddAttribute("Operation",
                          "What the ring does: ReduceScatter (reduce what arrives) or "
                          "AllGather (keep it)",
                          EnumValue(RingCollective::REDUCE_SCATTER),
                          MakeEnumAccessor(&RingCollective::m_operation),
                          MakeEnumChecker(RingCollective::REDUCE_SCATTER,
                                          "ReduceScatter",
                                          RingCollective::ALL_GATHER,
                                          "AllGather"));
    return tid;
}

CollectiveOp
RingCollective::GetOp() const
{
    return m_operation == ALL_GATHER ? CollectiveOp::ALL_GATHER : CollectiveOp::REDUCE_SCATTER;
}

std::string
RingCollective::GetName() const
{
    return "ring";
}

uint32_t
RingCollective::GetUnitOwner(uint32_t unit) const
{
    return unit / (GetChannelUnits() / GetCommunicator().GetSize());
}

void
RingCollective::BuildSchedule()
{
    uint32_t n = GetCommunicator().GetSize();
    uint32_t c = ChunksFor(GetChannelBytes() / n);
    SetNUnits(n * c);
    std::vector<uint32_t> ring(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        ring[i] = i;
    }
    AddRingPhase(ring,
                 c,
                 m_operation == REDUCE_SCATTER,
                 [c](uint32_t seg, uint32_t chunk) {
                     return std::make_pair(seg * c + chunk, seg * c + chunk + 1);
                 },
                 {});
}

} // namespace ns3
