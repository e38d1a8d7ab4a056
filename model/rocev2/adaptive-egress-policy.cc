/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "adaptive-egress-policy.h"

#include "roce-frame.h"
#include "roce-switch.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveEgressPolicy");

NS_OBJECT_ENSURE_REGISTERED(AdaptiveEgressPolicy);

TypeId
AdaptiveEgressPolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveEgressPolicy")
            .SetParent<EgressPortPolicy>()
            .SetGroupName("AiFabric")
            .AddConstructor<AdaptiveEgressPolicy>()
            .AddAttribute("PerPriority",
                          "Compare only the packet's own priority queue (802.1p if tagged, "
                          "else DSCP / 8, as the switch classifies) instead of the sum of "
                          "the port's eight queues (default: the port's whole backlog, "
                          "which is what delays a packet under DWRR)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&AdaptiveEgressPolicy::m_perPriority),
                          MakeBooleanChecker())
            .AddAttribute("TieBreak",
                          "Which of equally loaded ports wins: Random (scan from a random "
                          "candidate; default, spreads traffic over idle paths) or FlowHash "
                          "(scan from the flow's ECMP choice; idle flows keep one path)",
                          EnumValue(AdaptiveEgressPolicy::RANDOM),
                          MakeEnumAccessor(&AdaptiveEgressPolicy::m_tieBreak),
                          MakeEnumChecker(AdaptiveEgressPolicy::RANDOM,
                                          "Random",
                                          AdaptiveEgressPolicy::FLOW_HASH,
                                          "FlowHash"));
    return tid;
}

AdaptiveEgressPolicy::AdaptiveEgressPolicy()
    : m_rng(CreateObject<UniformRandomVariable>()),
      m_perPriority(false),
      m_tieBreak(RANDOM)
{
}

void
AdaptiveEgressPolicy::DoDispose()
{
    m_rng = nullptr;
    EgressPortPolicy::DoDispose();
}

int64_t
AdaptiveEgressPolicy::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
AdaptiveEgressPolicy::Select(const RoceSwitch& sw,
                             const uint32_t* candidates,
                             uint32_t n,
                             const RoceFrameView& frame)
{
    uint32_t start = m_tieBreak == RANDOM ? m_rng->GetInteger(0, n - 1)
                                          : RoceFrame::FlowHash(frame, sw.GetHashSeed()) % n;
    uint8_t prio = frame.hasVlan ? frame.pcp : static_cast<uint8_t>(frame.dscp >> 3);
    uint32_t best = candidates[start];
    uint64_t bestLoad = UINT64_MAX;
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t idx = start + i;
        uint32_t port = candidates[idx >= n ? idx - n : idx];
        uint64_t load = 0;
        if (m_perPriority)
        {
            load = sw.GetQueueBytes(port, prio & 7);
        }
        else
        {
            for (uint8_t q = 0; q < 8; ++q)
            {
                load += sw.GetQueueBytes(port, q);
            }
        }
        if (load < bestLoad)
        {
            bestLoad = load;
            best = port;
            if (load == 0)
            {
                break; // nothing beats an empty port
            }
        }
    }
    return best;
}

} // namespace ns3
