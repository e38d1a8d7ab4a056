/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-collective.h"

#include "rail-ring-order.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"

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
                                          "AllGather"))
            .AddAttribute("GpusPerServer",
                          "GPUs per server, one NIC each (ranks server * G + GPU): with G >= 2 "
                          "dividing the ranks into >= 2 servers every channel gets its own "
                          "ring, entering and leaving each server through NIC channel mod G "
                          "(NCCL's rings, src/graph/search.cc); the scenario runner sets it "
                          "from --gpus-per-server. 0 or 1 = one-NIC hosts: the ring 0..N-1 "
                          "on every channel.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RingCollective::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pxn",
                          "NCCL's PXN (PCI x NVLink, NCCL >= 2.12, off with "
                          "NCCL_PXN_DISABLE=1): true = a channel leaves each server through "
                          "the NIC it entered by, its last GPU's data moving over the scale-up "
                          "domain to that NIC; false = NCCL's rings without it, each network "
                          "hop between GPUs of the same rail (needs an even number of GPUs per "
                          "server and of servers). Default true: NCCL's default.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RingCollective::m_pxn),
                          MakeBooleanChecker());
    return tid;
}

RingCollective::RingCollective()
    : m_gpusPerServer(0),
      m_pxn(true)
{
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
    const std::vector<uint32_t> ring =
        RailRingOrder(n, m_gpusPerServer, m_pxn).GetRing(GetBuildChannel());
    // Position i of the ring ends with (reduce-scatter) or starts with (all-gather) the
    // segment of its rank, ring[i] (GetUnitOwner).
    AddRingPhase(ring,
                 c,
                 m_operation == REDUCE_SCATTER,
                 [c, &ring](uint32_t seg, uint32_t chunk) {
                     const uint32_t owner = ring[seg];
                     return std::make_pair(owner * c + chunk, owner * c + chunk + 1);
                 },
                 {});
}

} // namespace ns3
