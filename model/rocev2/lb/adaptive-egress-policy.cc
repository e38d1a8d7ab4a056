/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "adaptive-egress-policy.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/load-balancing-registry.h"
#include "ns3/log.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveEgressPolicy");

NS_OBJECT_ENSURE_REGISTERED(AdaptiveEgressPolicy);

static LoadBalancingRegistration g_lbRegistration(
    {"adaptive",
     "per packet the equal-cost port with the fewest queued bytes; on InfiniBand the switches' "
     "adaptive routing",
     "ns3::AdaptiveEgressPolicy",
     true,
     LoadBalancingRegistry::IB_ADAPTIVE});

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
            .AddAttribute("CountWireBytes",
                          "Count the unsent bytes of the frame a port is transmitting as "
                          "load (default). Without them an idle port and a port busy with "
                          "a full MTU both read 0 under this model's pull-from-queue ports, "
                          "and ties go to busy ports as often as to idle ones",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdaptiveEgressPolicy::m_countWireBytes),
                          MakeBooleanChecker())
            .AddAttribute("LoadQuantumBytes",
                          "Compare loads in steps of this many bytes (load / quantum), as "
                          "adaptive-routing switches compare a few quantized port-quality "
                          "levels (CONGA: 3-bit link-load estimates) rather than exact byte "
                          "counts; ports within one step tie and are chosen at random. "
                          "Exact comparisons (1) phase-lock with periodic arrivals: each "
                          "flow keeps landing on the same port, and on a k=8 fat-tree "
                          "permutation goodput falls from 0.93 to 0.875 of line rate. "
                          "Default 8192 bytes: 8 frames at a 1 KB MTU, 0.66 us at 100 Gb/s, "
                          "chosen by that measurement (0.93-0.94 from 3 KB to 30 KB)",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&AdaptiveEgressPolicy::m_loadQuantum),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("TieBreak",
                          "Which of equally loaded ports wins: Random (uniformly among "
                          "them; default, spreads traffic over idle paths like spraying) or "
                          "FlowHash (the first from the flow's ECMP choice on; idle flows "
                          "keep one path)",
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
      m_countWireBytes(true),
      m_loadQuantum(8192),
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

uint64_t
AdaptiveEgressPolicy::PortLoad(const RoceSwitch& sw, uint32_t port, uint8_t prio) const
{
    uint64_t load = m_perPriority ? sw.GetQueueBytes(port, prio) : sw.GetPortBytes(port);
    if (m_countWireBytes)
    {
        load += sw.GetPort(port)->GetUnsentWireBytes();
    }
    return load / m_loadQuantum;
}

uint32_t
AdaptiveEgressPolicy::Select(const RoceSwitch& sw,
                             const uint32_t* candidates,
                             uint32_t n,
                             const RoceFrameView& frame)
{
    const uint8_t prio = (frame.hasVlan ? frame.pcp : static_cast<uint8_t>(frame.dscp >> 3)) & 7;
    if (m_tieBreak == FLOW_HASH)
    {
        // Scan from the flow's ECMP choice: an idle flow keeps that path.
        const uint32_t start =
            RoceFrame::HashIndex(RoceFrame::FlowHash(frame, sw.GetHashSeed()), n);
        uint32_t best = candidates[start];
        uint64_t bestLoad = UINT64_MAX;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t idx = start + i;
            const uint32_t port = candidates[idx >= n ? idx - n : idx];
            const uint64_t load = PortLoad(sw, port, prio);
            if (load < bestLoad)
            {
                bestLoad = load;
                best = port;
            }
        }
        return best;
    }
    // Uniform among the least-loaded ports (reservoir sampling over ties). Scanning
    // from a random start and keeping the first minimum would favour the port after
    // a busy one; a draw is made only when a tie is found.
    uint32_t best = candidates[0];
    uint64_t bestLoad = PortLoad(sw, best, prio);
    uint32_t ties = 1;
    for (uint32_t i = 1; i < n; ++i)
    {
        const uint64_t load = PortLoad(sw, candidates[i], prio);
        if (load < bestLoad)
        {
            bestLoad = load;
            best = candidates[i];
            ties = 1;
        }
        else if (load == bestLoad && m_rng->GetInteger(0, ties++) == 0)
        {
            best = candidates[i];
        }
    }
    return best;
}

} // namespace ns3
