/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Google Benchmark micro-benchmarks of the per-packet hot paths: building a
 * RoCEv2 frame, the switch's fixed-offset header peek, the ECMP hash, and the
 * shared-buffer MMU's admission and accounting.
 */
#include "ns3/data-rate.h"
#include "ns3/map-scheduler.h"
#include "ns3/packet.h"
#include "ns3/quaternary-heap-scheduler.h"
#include "ns3/rdma-opcode.h"
#include "ns3/roce-frame.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/timing-wheel-scheduler.h"

#include <benchmark/benchmark.h>

using namespace ns3;

namespace
{

RoceFrameFields
DataFields()
{
    RoceFrameFields f;
    f.srcIp = Ipv4Address("10.0.0.1");
    f.dstIp = Ipv4Address("10.0.0.2");
    f.opcode = RdmaOpcode::WRITE_MIDDLE;
    f.destQp = 7;
    f.psn = 1234;
    f.payloadBytes = 1000;
    return f;
}

void
BM_EncapsulateWriteMiddle(benchmark::State& state)
{
    RoceFrameFields f = DataFields();
    for (auto _ : state)
    {
        Ptr<Packet> p = Create<Packet>(1000);
        RoceFrame::Encapsulate(p, f);
        benchmark::DoNotOptimize(p);
    }
}

BENCHMARK(BM_EncapsulateWriteMiddle);

/// The NIC's path: a new WRITE-middle frame in one buffer operation.
void
BM_BuildWriteMiddle(benchmark::State& state)
{
    RoceFrameFields f = DataFields();
    for (auto _ : state)
    {
        Ptr<Packet> p = RoceFrame::Build(f);
        benchmark::DoNotOptimize(p);
    }
}

BENCHMARK(BM_BuildWriteMiddle);

/// What the NIC sends now: the frame's view, its bytes only when observed.
void
BM_BuildParsedWriteMiddle(benchmark::State& state)
{
    RoceFrameFields f = DataFields();
    for (auto _ : state)
    {
        RoceParsedFrame frame = RoceFrame::BuildParsed(f);
        benchmark::DoNotOptimize(frame.view);
    }
}

BENCHMARK(BM_BuildParsedWriteMiddle);

/// An event list in a fabric's steady state: ~2000 events pending within 1.5 us,
/// each pop followed by an insert a frame time to a cable's delay later.
void
PopInsert(benchmark::State& state, Ptr<Scheduler> list)
{
    uint64_t uid = 0;
    uint64_t lcg = 1;
    auto next = [&lcg]() {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        return lcg >> 33;
    };
    for (int i = 0; i < 2000; ++i)
    {
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = next() % 1500000; // ps
        ev.key.m_uid = static_cast<uint32_t>(uid++);
        ev.key.m_context = 0;
        list->Insert(ev);
    }
    for (auto _ : state)
    {
        Scheduler::Event ev = list->RemoveNext();
        ev.key.m_ts += 80000 + next() % 1300000;
        ev.key.m_uid = static_cast<uint32_t>(uid++);
        list->Insert(ev);
    }
}

void
BM_TimingWheelPopInsert(benchmark::State& state)
{
    PopInsert(state, CreateObject<TimingWheelScheduler>());
}

BENCHMARK(BM_TimingWheelPopInsert);

void
BM_QuaternaryHeapPopInsert(benchmark::State& state)
{
    PopInsert(state, CreateObject<QuaternaryHeapScheduler>());
}

BENCHMARK(BM_QuaternaryHeapPopInsert);

void
BM_MapSchedulerPopInsert(benchmark::State& state)
{
    PopInsert(state, CreateObject<MapScheduler>());
}

BENCHMARK(BM_MapSchedulerPopInsert);

void
BM_PeekFrame(benchmark::State& state)
{
    Ptr<Packet> p = Create<Packet>(1000);
    RoceFrame::Encapsulate(p, DataFields());
    RoceFrameView v;
    for (auto _ : state)
    {
        RoceFrame::Peek(p, v);
        benchmark::DoNotOptimize(v);
    }
}

BENCHMARK(BM_PeekFrame);

void
BM_FlowHash(benchmark::State& state)
{
    Ptr<Packet> p = Create<Packet>(1000);
    RoceFrame::Encapsulate(p, DataFields());
    RoceFrameView v;
    RoceFrame::Peek(p, v);
    uint32_t seed = 1;
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(RoceFrame::FlowHash(v, seed++));
    }
}

BENCHMARK(BM_FlowHash);

void
BM_MmuAdmitEnqueueDequeue(benchmark::State& state)
{
    Ptr<SharedBufferMmu> mmu = CreateObject<SharedBufferMmu>();
    std::vector<DataRate> rates(16, DataRate("100Gbps"));
    std::vector<Time> delays(16, MicroSeconds(1));
    mmu->Configure(16, rates, delays, 1100);
    uint32_t in = 0;
    for (auto _ : state)
    {
        uint32_t out = (in + 5) % 16;
        if (mmu->Admit(in, 3, out, 3, 1058))
        {
            benchmark::DoNotOptimize(mmu->ShouldPause(in, 3));
            mmu->OnDequeue(in, 3, out, 3, 1058);
            benchmark::DoNotOptimize(mmu->ShouldResume(in, 3));
        }
        in = (in + 1) % 16;
    }
}

BENCHMARK(BM_MmuAdmitEnqueueDequeue);

} // namespace

BENCHMARK_MAIN();
