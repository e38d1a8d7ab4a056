/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-ll128-protocol.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NcclLl128Protocol);

TypeId
NcclLl128Protocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NcclLl128Protocol")
            .SetParent<CollectiveProtocol>()
            .SetGroupName("AiFabric")
            .AddConstructor<NcclLl128Protocol>()
            .AddAttribute("LineBytes",
                          "Wire bytes of the unit LL128 writes: one warp's 16 lines of 128 bytes = "
                          "2048 (prims_ll128.h WireWordPerSlice = WARP_SIZE 32 x "
                          "NCCL_LL128_SHMEM_ELEMS_PER_THREAD 8 words of 8 bytes; NCCL posts a "
                          "step's size in these units).",
                          UintegerValue(2048),
                          MakeUintegerAccessor(&NcclLl128Protocol::m_lineBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("LineDataBytes",
                          "Payload bytes of that unit: 16 lines x 120 = 1920 (NCCL_LL128_DATAELEMS "
                          "15 of NCCL_LL128_LINEELEMS 16 words per line carry data; "
                          "ncclProtoGrainSize(LL128), src/include/device.h).",
                          UintegerValue(1920),
                          MakeUintegerAccessor(&NcclLl128Protocol::m_lineDataBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("BufferBytes",
                          "Wire bytes of a connection's LL128 buffer (NCCL_LL128_BUFFSIZE): NCCL "
                          "2.30.7's default NCCL_LL128_ELEMS_PER_THREAD 120 x "
                          "NCCL_LL128_MAX_NTHREADS 640 x NCCL_STEPS 8 x 8 bytes = 4915200 "
                          "(src/init.cc DEFAULT_LL128_BUFFSIZE); a step is 614400 wire bytes, "
                          "576000 of data (src/enqueue.cc calcCollChunking: chunkSize / 16 x 15).",
                          UintegerValue(4915200),
                          MakeUintegerAccessor(&NcclLl128Protocol::m_bufferBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "NetworkStepLatency",
                "Fixed cost of a network step beyond its bytes: 1.3 us, NCCL 2.30.7's ring hwLat "
                "for LL128 on the network (4.0 us) less LL's (2.7 us), src/graph/tuning.cc.",
                TimeValue(NanoSeconds(1300)),
                MakeTimeAccessor(&NcclLl128Protocol::m_networkLatency),
                MakeTimeChecker(Time(0)))
            .AddAttribute(
                "ScaleUpStepLatency",
                "Fixed cost of a step inside a server beyond its bytes: 1.3 us, NCCL 2.30.7's ring "
                "hwLat for LL128 on NVLink (1.9 us) less LL's (0.6 us), src/graph/tuning.cc.",
                TimeValue(NanoSeconds(1300)),
                MakeTimeAccessor(&NcclLl128Protocol::m_scaleUpLatency),
                MakeTimeChecker(Time(0)))
            .AddAttribute("RingBaseLatency",
                          "Fixed cost of one call of the ring (and of every schedule but the tree) "
                          "before its first step: 14 us, NCCL 2.30.7's baseLat for the ring "
                          "with LL128 (src/graph/tuning.cc ncclTunerConstantsDefaults): kernel "
                          "launch, work setup and the first flag handshakes.",
                          TimeValue(NanoSeconds(14000)),
                          MakeTimeAccessor(&NcclLl128Protocol::m_ringBaseLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TreeBaseLatency",
                          "Fixed cost of one call of the tree before its first step: 14 us, "
                          "NCCL 2.30.7's baseLat for the tree with LL128 (src/graph/tuning.cc).",
                          TimeValue(NanoSeconds(14000)),
                          MakeTimeAccessor(&NcclLl128Protocol::m_treeBaseLatency),
                          MakeTimeChecker(Time(0)));
    return tid;
}

NcclLl128Protocol::NcclLl128Protocol()
{
    m_lineBytes = 2048;
    m_lineDataBytes = 1920;
    m_bufferBytes = 4915200;
    m_networkLatency = NanoSeconds(1300);
    m_scaleUpLatency = NanoSeconds(1300);
    m_ringBaseLatency = NanoSeconds(14000);
    m_treeBaseLatency = NanoSeconds(14000);
}

NcclProtocol
NcclLl128Protocol::GetProtocol() const
{
    return NcclProtocol::LL128;
}

} // namespace ns3
