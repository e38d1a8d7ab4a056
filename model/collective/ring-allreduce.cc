/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-allreduce.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllreduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"ring",
     CollectiveOp::ALLREDUCE,
     "ring reduce-scatter then ring all-gather (Patarasuk and Yuan 2009; NCCL ring)",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<RingAllreduce>()); },
     true});

TypeId
RingAllreduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllreduce")
                            .SetParent<CollectiveAlgorithm>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<RingAllreduce>();
    return tid;
}

CollectiveOp
RingAllreduce::GetOp() const
{
    return CollectiveOp::ALLREDUCE;
}

std::string
RingAllreduce::GetName() const
{
    return "ring";
}

void
RingAllreduce::BuildSchedule()
{
    const Communicator& comm = GetCommunicator();
    uint32_t n = comm.GetSize();
    uint32_t c = ChunksFor(GetChannelBytes() / n);
    SetNUnits(n * c); // unit = segment * c + chunk
    std::vector<uint32_t> ring(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        ring[i] = i;
    }
    auto units = [c](uint32_t seg, uint32_t chunk) {
        return std::make_pair(seg * c + chunk, seg * c + chunk + 1);
    };
    auto rs = AddRingPhase(ring, c, true, units, {});
    // all-gather step 0 sends the segment the reduce-scatter just completed
    std::vector<std::vector<uint32_t>> done(rs.size());
    for (size_t i = 0; i < rs.size(); ++i)
    {
        if (!rs[i].empty())
        {
            done[i].push_back(rs[i].back());
        }
    }
    AddRingPhase(ring, c, false, units, done);
}

} // namespace ns3
