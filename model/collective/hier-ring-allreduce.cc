/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hier-ring-allreduce.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HierRingAllreduce");

NS_OBJECT_ENSURE_REGISTERED(HierRingAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"hierring",
     CollectiveOp::ALLREDUCE,
     "hierarchical ring over GPU servers (NCCL-like): reduce-scatter inside each server "
     "(scale-up), ring allreduce per rail across servers, all-gather inside each server; "
     "needs --gpus-per-server >= 2",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<HierRingAllreduce>()); },
     false});

TypeId
HierRingAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HierRingAllreduce")
            .SetParent<HierarchicalAllreduce>()
            .SetGroupName("AiFabric")
            .AddConstructor<HierRingAllreduce>()
            .AddAttribute("GpusPerServer",
                          "GPUs per server (ranks server * G + GPU); the scenario runner sets "
                          "it from --gpus-per-server. 0 = unset (refused).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HierRingAllreduce::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

HierRingAllreduce::HierRingAllreduce()
    : m_gpusPerServer(0)
{
}

std::string
HierRingAllreduce::GetName() const
{
    return "hierring";
}

void
HierRingAllreduce::BuildSchedule()
{
    const uint32_t n = GetCommunicator().GetSize();
    const uint32_t g = m_gpusPerServer;
    if (g < 2 || n % g != 0 || n / g < 2)
    {
        throw std::invalid_argument(
            "hierring allreduce: " + std::to_string(n) + " ranks in servers of " +
            std::to_string(g) +
            " GPUs is not allowed (needs GPUs per server >= 2 dividing the ranks, and >= 2 "
            "servers)");
    }
    SetAttribute("X", UintegerValue(g));
    SetAttribute("Y", UintegerValue(n / g));
    HierarchicalAllreduce::BuildSchedule();
}

} // namespace ns3
