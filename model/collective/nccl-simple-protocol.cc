/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-simple-protocol.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NcclSimpleProtocol);

TypeId
NcclSimpleProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NcclSimpleProtocol")
            .SetParent<CollectiveProtocol>()
            .SetGroupName("AiFabric")
            .AddConstructor<NcclSimpleProtocol>()
            .AddAttribute(
                "BufferBytes",
                "Bytes of a connection's Simple buffer (NCCL_BUFFSIZE): NCCL 2.30.7's default 4 "
                "MiB = 4194304 (src/init.cc DEFAULT_BUFFSIZE 1 << 22); a step is 512 KiB.",
                UintegerValue(4194304),
                MakeUintegerAccessor(&NcclSimpleProtocol::m_bufferBytes),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("NetworkStepLatency",
                          "Fixed cost of a network step beyond its bytes: 11.3 us, NCCL 2.30.7's "
                          "ring hwLat for Simple on the network (14 us) less LL's (2.7 us), "
                          "src/graph/tuning.cc: the sender's fence and the proxy's post, the "
                          "receiver's proxy poll and GPUDirect flush.",
                          TimeValue(NanoSeconds(11300)),
                          MakeTimeAccessor(&NcclSimpleProtocol::m_networkLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "ScaleUpStepLatency",
                "Fixed cost of a step inside a server beyond its bytes: 2.8 us, NCCL 2.30.7's ring "
                "hwLat for Simple on NVLink (3.4 us) less LL's (0.6 us), src/graph/tuning.cc.",
                TimeValue(NanoSeconds(2800)),
                MakeTimeAccessor(&NcclSimpleProtocol::m_scaleUpLatency),
                MakeTimeChecker(Time(0)))
            .AddAttribute("RingBaseLatency",
                          "Fixed cost of one call of the ring (and of every schedule but the tree) "
                          "before its first step: 8.4 us, NCCL 2.30.7's baseLat for the ring "
                          "with Simple (src/graph/tuning.cc ncclTunerConstantsDefaults): kernel "
                          "launch, work setup and the first flag handshakes.",
                          TimeValue(NanoSeconds(8400)),
                          MakeTimeAccessor(&NcclSimpleProtocol::m_ringBaseLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TreeBaseLatency",
                          "Fixed cost of one call of the tree before its first step: 8.4 us, "
                          "NCCL 2.30.7's baseLat for the tree with Simple (src/graph/tuning.cc).",
                          TimeValue(NanoSeconds(8400)),
                          MakeTimeAccessor(&NcclSimpleProtocol::m_treeBaseLatency),
                          MakeTimeChecker(Time(0)));
    return tid;
}

NcclSimpleProtocol::NcclSimpleProtocol()
{
    m_bufferBytes = 4194304;
    m_networkLatency = NanoSeconds(11300);
    m_scaleUpLatency = NanoSeconds(2800);
    m_ringBaseLatency = NanoSeconds(8400);
    m_treeBaseLatency = NanoSeconds(8400);
}

NcclProtocol
NcclSimpleProtocol::GetProtocol() const
{
    return NcclProtocol::SIMPLE;
}

} // namespace ns3
