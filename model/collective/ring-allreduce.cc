/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-allreduce.h"

#include "rail-ring-order.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

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
    static TypeId tid =
        TypeId("ns3::RingAllreduce")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<RingAllreduce>()
            .AddAttribute("GpusPerServer",
                          "GPUs per server, one NIC each (ranks server * G + GPU): with G >= 2 "
                          "dividing the ranks into >= 2 servers every channel gets its own "
                          "ring, entering and leaving each server through NIC channel mod G "
                          "(NCCL's rings, src/graph/search.cc); the scenario runner sets it "
                          "from --gpus-per-server. 0 or 1 = one-NIC hosts: the ring 0..N-1 "
                          "on every channel.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RingAllreduce::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pxn",
                          "NCCL's PXN (PCI x NVLink, NCCL >= 2.12, off with "
                          "NCCL_PXN_DISABLE=1): true = a channel leaves each server through "
                          "the NIC it entered by, its last GPU's data moving over the scale-up "
                          "domain to that NIC; false = NCCL's rings without it, each network "
                          "hop between GPUs of the same rail (needs an even number of GPUs per "
                          "server and of servers). Default true: NCCL's default.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RingAllreduce::m_pxn),
                          MakeBooleanChecker());
    return tid;
}

RingAllreduce::RingAllreduce()
    : m_gpusPerServer(0),
      m_pxn(true)
{
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
    const std::vector<uint32_t> ring =
        RailRingOrder(n, m_gpusPerServer, m_pxn).GetRing(GetBuildChannel());
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
