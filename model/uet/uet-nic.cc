/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "uet-nic.h"

#include "uet-trimmer.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("UetNic");
NS_OBJECT_ENSURE_REGISTERED(UetNic);

TypeId
UetNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UetNic")
            .SetParent<RoceNic>()
            .SetGroupName("AiFabric")
            .AddConstructor<UetNic>()
            .AddAttribute("SprayEntropies",
                          "Entropy values (UDP source ports) each queue pair's data packets "
                          "cycle over, one per packet: UET's oblivious packet spraying (Ultra "
                          "Ethernet specification 1.0, PDS: the sender chooses an entropy "
                          "per packet). uet-htsim draws among 64 by default "
                          "(htsim/sim/datacenter/main_uec.cpp, path_entropy_size); these "
                          "are cycled in order, not drawn, so the switches' hash needs more "
                          "values to spread evenly: on a k=8 fat-tree permutation (300 KB "
                          "per host) 64 give 0.90 of line rate, 256 give 0.93 (measured, "
                          "doc/uet.md). Default 256.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&UetNic::m_sprayEntropies),
                          MakeUintegerChecker<uint32_t>(1, 16384));
    return tid;
}

UetNic::UetNic()
    : m_sprayEntropies(256)
{
}

void
UetNic::NotifyConstructionCompleted()
{
    RoceNic::NotifyConstructionCompleted();
    // Here, not in the constructor: the trace source is found by the instance's TypeId,
    // which the object factory sets after construction.
    TraceConnectWithoutContext("QpCreated", MakeCallback(&UetNic::ConfigureQueuePair, this));
}

UetNic::~UetNic() = default;

void
UetNic::ConfigureQueuePair(Ptr<RdmaQueuePair> qp)
{
    // Reordering is the rule under spraying: the receiver places in any order (RUD).
    qp->SetAttribute("Recovery", EnumValue(RdmaQueuePair::SELECTIVE_REPEAT));
    qp->SetAttribute("NicEntropy", UintegerValue(m_sprayEntropies));
    qp->SetAttribute("EntropyBurst", UintegerValue(1));
    NS_LOG_LOGIC("host " << GetHostIndex() << " QP " << qp->GetLocalQpn() << ": "
                         << m_sprayEntropies << " entropies, selective repeat");
}

void
UetNic::ReceiveFrame(RoceNetDevice& dev, RoceParsedFrame& frame)
{
    const RoceFrameView& view = frame.view;
    if (view.isRoce)
    {
        const uint8_t op = view.bthOpcode;
        if (__builtin_expect(UetTrimmer::IsTrimmed(view), false) && RdmaOpcode::IsData(op))
        {
            // A header without its payload: NACK it at once, deliver nothing.
            const uint32_t slot = QpnSlot(view.destQp);
            if (slot < m_qps.size() && m_qps[slot])
            {
                m_trimmedReceived++;
                QueueAethFrame(*m_qps[slot], view.psn, 0, TRIM_NACK_SYNDROME);
            }
            return;
        }
        if (op == RdmaOpcode::ACKNOWLEDGE && view.aethSyndrome == TRIM_NACK_SYNDROME)
        {
            const uint32_t slot = QpnSlot(view.destQp);
            if (slot < m_qps.size() && m_qps[slot])
            {
                m_trimNacksReceived++;
                m_qps[slot]->ReceiveTrimNack(view.psn);
            }
            return;
        }
    }
    RoceNic::ReceiveFrame(dev, frame);
}

uint64_t
UetNic::GetTrimmedReceived() const
{
    return m_trimmedReceived;
}

uint64_t
UetNic::GetTrimNacksReceived() const
{
    return m_trimNacksReceived;
}

} // namespace ns3
