/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-ll-protocol.h"

#include "ns3/data-rate.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NcclLlProtocol);

TypeId
NcclLlProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NcclLlProtocol")
            .SetParent<CollectiveProtocol>()
            .SetGroupName("AiFabric")
            .AddConstructor<NcclLlProtocol>()
            .AddAttribute("LineBytes",
                          "Wire bytes of one LL line: sizeof(union ncclLLFifoLine) = 16 "
                          "(src/include/device.h: data1, flag1, data2, flag2, 4 bytes each).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&NcclLlProtocol::m_lineBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LineDataBytes",
                          "Payload bytes of one LL line: 8 (its two 4-byte data words; the flags "
                          "take the other 8).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&NcclLlProtocol::m_lineDataBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "BufferBytes",
                "Wire bytes of a connection's LL buffer (NCCL_LL_BUFFSIZE): NCCL 2.30.7's default "
                "NCCL_LL_LINES_PER_THREAD 8 x NCCL_LL_MAX_NTHREADS 512 x NCCL_STEPS 8 x 16-byte "
                "lines = 524288 (src/init.cc DEFAULT_LL_BUFFSIZE); a step is 64 KiB of lines, 32 "
                "KiB of data (src/enqueue.cc calcCollChunking: LL chunkSize = stepSize / 2).",
                UintegerValue(524288),
                MakeUintegerAccessor(&NcclLlProtocol::m_bufferBytes),
                MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "NetworkStepLatency",
                "Fixed cost of a network step beyond its bytes: 0, the reference. NCCL 2.30.7's "
                "ring hwLat for LL on the network, 2.7 us (src/graph/tuning.cc), is the write and "
                "the poll of its flag, which the simulation's packets already take.",
                TimeValue(Time(0)),
                MakeTimeAccessor(&NcclLlProtocol::m_networkLatency),
                MakeTimeChecker(Time(0)))
            .AddAttribute("ScaleUpStepLatency",
                          "Fixed cost of a step inside a server beyond its bytes: 0, the reference "
                          "(NCCL 2.30.7's ring hwLat for LL on NVLink, 0.6 us, "
                          "src/graph/tuning.cc, is the write and the poll).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NcclLlProtocol::m_scaleUpLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RingBaseLatency",
                          "Fixed cost of one call of the ring (and of every schedule but the tree) "
                          "before its first step: 6.6 us, NCCL 2.30.7's baseLat for the ring "
                          "with LL (src/graph/tuning.cc ncclTunerConstantsDefaults): kernel "
                          "launch, work setup and the first flag handshakes.",
                          TimeValue(NanoSeconds(6600)),
                          MakeTimeAccessor(&NcclLlProtocol::m_ringBaseLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TreeBaseLatency",
                          "Fixed cost of one call of the tree before its first step: 6.8 us, "
                          "NCCL 2.30.7's baseLat for the tree with LL (src/graph/tuning.cc).",
                          TimeValue(NanoSeconds(6800)),
                          MakeTimeAccessor(&NcclLlProtocol::m_treeBaseLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "ChannelStepTime",
                "Least time one channel's thread block spends on a ring step that carries "
                "lines, however fast they arrive: 0.6 us, NCCL 2.30.7's per-step LL figure on "
                "NVLink (src/graph/tuning.cc hwLat, ring, LL), the block's poll, reduce, store "
                "and the barriers and FIFO update between two steps (src/device/prims_ll.h). "
                "A step without lines (an empty chunk) is not bounded. 0 = no bound.",
                TimeValue(NanoSeconds(600)),
                MakeTimeAccessor(&NcclLlProtocol::m_channelStepTime),
                MakeTimeChecker(Time(0)))
            .AddAttribute(
                "ChannelLineRate",
                "Lines (wire bytes) one channel's block writes per second, added to "
                "ChannelStepTime per step: NCCL's model gives a ring channel the graph's "
                "per-channel bandwidth (src/graph/tuning.cc: busBw = nChannels x bw; LL's "
                "half of it is data). 0 = no bound (default); the collective workload sets "
                "the tuner graph's bandwidth per channel.",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&NcclLlProtocol::m_channelLineRate),
                MakeDataRateChecker());
    return tid;
}

NcclLlProtocol::NcclLlProtocol()
{
    m_lineBytes = 16;
    m_lineDataBytes = 8;
    m_bufferBytes = 524288;
    m_networkLatency = Time(0);
    m_scaleUpLatency = Time(0);
    m_ringBaseLatency = NanoSeconds(6600);
    m_treeBaseLatency = NanoSeconds(6800);
    m_channelStepTime = NanoSeconds(600);
}

NcclProtocol
NcclLlProtocol::GetProtocol() const
{
    return NcclProtocol::LL;
}

} // namespace ns3
