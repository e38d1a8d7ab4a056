/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-engine.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <climits>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingEngine");

NS_OBJECT_ENSURE_REGISTERED(TrainingEngine);

TypeId
TrainingEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingEngine")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<TrainingEngine>()
            .AddAttribute("Iterations",
                          "Training iterations (steps) to run, each after the previous one "
                          "finished on every GPU.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingEngine::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AllreduceAlgorithm",
                          "Collective algorithm of the allreduces (CollectiveAlgorithm::Create "
                          "names: ring, tree, hd, 2d). Reduce-scatter and all-gather run ring, "
                          "all-to-all pairwise (their only algorithms).",
                          StringValue("ring"),
                          MakeStringAccessor(&TrainingEngine::m_algorithm),
                          MakeStringChecker())
            .AddAttribute("ChunkBytes",
                          "CollectiveAlgorithm ChunkBytes of every collective (0 = unpipelined). "
                          "Default: the collectives' default, NCCL's Simple step.",
                          UintegerValue(CollectiveAlgorithm::DEFAULT_CHUNK_BYTES),
                          MakeUintegerAccessor(&TrainingEngine::m_chunkBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Channels",
                          "CollectiveAlgorithm Channels of every collective. Default: the "
                          "collectives' default (NCCL's channel count for one NIC per GPU).",
                          UintegerValue(CollectiveAlgorithm::DEFAULT_CHANNELS),
                          MakeUintegerAccessor(&TrainingEngine::m_channels),
                          MakeUintegerChecker<uint32_t>(1, CollectiveAlgorithm::MAX_CHANNELS))
            .AddAttribute("GpusPerServer",
                          "GPUs per server of the hosts (host = server x G + GPU): each "
                          "collective's communicator gets the server-aware schedules (NCCL's "
                          "rings, tree and all-to-all) with its own GPUs per server "
                          "(Communicator::GetRanksPerServer: runs of consecutive ranks, one "
                          "server each), or one-NIC ones if its ranks are not laid out so. The "
                          "scenario runner sets it from --gpus-per-server. Default 0: one-NIC "
                          "hosts.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingEngine::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pxn",
                          "NCCL's PXN in the rings of every communicator on GPU servers "
                          "(RingAllreduce::Pxn, RingCollective::Pxn; NCCL_PXN_DISABLE=1 is "
                          "false). The scenario runner sets it from --pxn. Default true, as "
                          "NCCL >= 2.12.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TrainingEngine::m_pxn),
                          MakeBooleanChecker())
            .AddAttribute("NicRate",
                          "One NIC's rate on GPU servers. When above 0 (and GpusPerServer > 1), "
                          "each communicator gets the channels NCCL gives it instead of "
                          "Channels: its search and ncclTopoPostset's count for its own GPUs "
                          "per server, one NIC each (RailRingOrder::NcclChannels), and for "
                          "an allreduce of the ring or tree the channels NCCL gives a call of "
                          "its size (NcclChannelTuning, Simple). The scenario runner sets it "
                          "from --host-rate unless --channels is given. Default 0: Channels.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&TrainingEngine::m_nicRate),
                          MakeDataRateChecker())
            .AddAttribute("TagSpace",
                          "Top 8 bits of every tag posted (must be the transport's: "
                          "RdmaCollectiveTransport accepts 0xC0 by default).",
                          UintegerValue(0xC0),
                          MakeUintegerAccessor(&TrainingEngine::m_tagSpace),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute(
                "IterationStart",
                "barrier (default): a collective starts when every GPU of its group issued it, "
                "a GPU's wait ends when the whole operation ended, and an iteration starts on "
                "every GPU when the last one finished the previous one. per-rank: each GPU on "
                "its own, as NCCL runs a communicator's calls in CUDA stream order (NCCL's "
                "documentation, 'CUDA Stream Semantics'): its part of a collective starts when "
                "it issues it (after its part of the group's previous one), its wait ends when "
                "its own part is done, and its next iteration starts when its program ended; "
                "the only choice that runs across MPI ranks (CollectiveInstancePool "
                "PlanPerRank).",
                EnumValue(TrainingEngine::BARRIER),
                MakeEnumAccessor(&TrainingEngine::m_iterationStart),
                MakeEnumChecker(TrainingEngine::BARRIER,
                                "barrier",
                                TrainingEngine::PER_RANK,
                                "per-rank"))
            .AddTraceSource("Interval",
                            "A GPU computed (state 0) or waited on a communication (state 1 + "
                            "its parallelism: 1 tp, 2 dp, 3 pp, 4 ep) from start to end (ns).",
                            MakeTraceSourceAccessor(&TrainingEngine::m_intervalTrace),
                            "ns3::TrainingEngine::IntervalTracedCallback");
    return tid;
}

TrainingEngine::TrainingEngine() = default;

TrainingEngine::~TrainingEngine() = default;

void
TrainingEngine::DoDispose()
{
    if (m_pool)
    {
        m_pool->Dispose();
    }
    m_pool = nullptr;
    m_finishedCb = Callback<void>();
    Object::DoDispose();
}

std::vector<uint32_t>
TrainingEngine::GroupOf(TrainingParallelism p, uint32_t rank) const
{
    const uint32_t tp = m_model.tp;
    const uint32_t dp = m_model.dp;
    const uint32_t t = rank % tp;
    const uint32_t d = (rank / tp) % dp;
    const uint32_t s = rank / (tp * dp);
    std::vector<uint32_t> g;
    switch (p)
    {
    case TrainingParallelism::TP:
        for (uint32_t i = 0; i < tp; ++i)
        {
            g.push_back(i + tp * (d + dp * s));
        }
        break;
    case TrainingParallelism::DP:
        for (uint32_t i = 0; i < dp; ++i)
        {
            g.push_back(t + tp * (i + dp * s));
        }
        break;
    case TrainingParallelism::EP: {
        const uint32_t d0 = d - d % m_model.ep;
        for (uint32_t i = 0; i < m_model.ep; ++i)
        {
            g.push_back(t + tp * (d0 + i + dp * s));
        }
        break;
    }
    case TrainingParallelism::PP:
        g.push_back(rank);
        break;
    }
    return g;
}

uint32_t
TrainingEngine::GetStage(uint32_t rank) const
{
    return rank / (m_model.tp * m_model.dp);
}

uint32_t
TrainingEngine::StatsIndex(TrainingParallelism p,
                           const std::string& operation,
                           const std::string& phase,
                           uint64_t bytes,
                           uint32_t ranks)
{
    const std::string key = TrainingParallelismName(p) + "|" + operation + "|" + phase + "|" +
                            std::to_string(bytes) + "|" + std::to_string(ranks);
    auto it = m_statsIndex.find(key);
    if (it != m_statsIndex.end())
    {
        return it->second;
    }
    CommStats s;
    s.parallelism = p;
    s.operation = operation;
    s.phase = phase;
    s.bytes = bytes;
    s.ranks = ranks;
    m_stats.push_back(s);
    const auto idx = static_cast<uint32_t>(m_stats.size() - 1);
    m_statsIndex.emplace(key, idx);
    return idx;
}

uint32_t
TrainingEngine::CollectiveOpIndex(const std::string& key,
                                  const TrainingComm& c,
                                  const std::string& phase,
                                  uint32_t rank)
{
    const std::vector<uint32_t> group = GroupOf(c.group, rank);
    const uint32_t comm = m_pool->CommunicatorOf(group);
    const std::string full = key + "|" + std::to_string(comm);
    auto it = m_opIndex.find(full);
    if (it != m_opIndex.end())
    {
        return it->second;
    }
    Op op;
    op.op = c.op;
    op.parallelism = c.group;
    op.comm = comm;
    op.bytes = c.bytes;
    op.participants = static_cast<uint32_t>(group.size());
    op.stats = StatsIndex(c.group, CollectiveOpToString(c.op), phase, c.bytes, op.participants);
    m_ops.push_back(op);
    const auto idx = static_cast<uint32_t>(m_ops.size() - 1);
    m_opIndex.emplace(full, idx);
    return idx;
}

uint32_t
TrainingEngine::SendOpIndex(const std::string& key,
                            uint32_t src,
                            uint32_t dst,
                            uint64_t bytes,
                            const std::string& phase)
{
    auto it = m_opIndex.find(key);
    if (it != m_opIndex.end())
    {
        return it->second;
    }
    Op op;
    op.p2p = true;
    op.parallelism = TrainingParallelism::PP;
    op.src = src;
    op.dst = dst;
    op.bytes = bytes;
    op.participants = 1;
    op.stats = StatsIndex(TrainingParallelism::PP, "send", phase, bytes, 2);
    m_ops.push_back(op);
    const auto idx = static_cast<uint32_t>(m_ops.size() - 1);
    m_opIndex.emplace(key, idx);
    return idx;
}

void
TrainingEngine::Setup(const TrainingModel& model, Ptr<CollectiveTransport> transport)
{
    if (!transport)
    {
        throw std::invalid_argument("TrainingEngine::Setup without a transport");
    }
    if (model.GetNRanks() > transport->GetNRanks() || model.tp == 0 || model.dp == 0)
    {
        throw std::invalid_argument("the model needs " + std::to_string(model.GetNRanks()) +
                                    " GPUs; the transport connects " +
                                    std::to_string(transport->GetNRanks()));
    }
    m_pool = CreateObject<CollectiveInstancePool>();
    m_pool->Setup(transport,
                  CollectiveInstancePool::ReadSettings(*this),
                  MakeCallback(&TrainingEngine::OpDone, this));
    // Fail now, not mid-run, on an algorithm the allreduce does not have.
    m_pool->CheckAlgorithm(CollectiveOp::ALLREDUCE);
    m_model = model;
    m_nRanks = model.GetNRanks();
    BuildPrograms();
    if (m_iterationStart != PER_RANK)
    {
        return;
    }
    // Bind every operation before the run: in the order GPU 0's program, then GPU 1's, ...
    // first issue them (each group's in program order; a send's on its sender's order).
    std::vector<CollectiveInstancePool::Operation> ops(m_ops.begin(), m_ops.end());
    std::vector<uint32_t> order;
    std::vector<uint8_t> seen(m_ops.size(), 0);
    for (const std::vector<Step>& prog : m_programs)
    {
        for (const Step& step : prog)
        {
            if (step.kind == ISSUE && !seen[step.op])
            {
                seen[step.op] = 1;
                order.push_back(step.op);
            }
        }
    }
    m_pool->PlanPerRank(ops,
                        order,
                        m_iterations,
                        MakeCallback(&TrainingEngine::OnRankOpDone, this),
                        MakeCallback(&TrainingEngine::OnSendAcked, this));
}

void
TrainingEngine::BuildPrograms()
{
    const TrainingModel& m = m_model;
    const uint32_t P = m.pp;
    const uint32_t M = m.microbatches;
    const uint32_t stageRanks = m.tp * m.dp;
    m_programs.assign(m_nRanks, {});
    for (uint32_t r = 0; r < m_nRanks; ++r)
    {
        std::vector<Step>& prog = m_programs[r];
        const uint32_t s = r / stageRanks;
        const std::vector<uint32_t> layers = m.GetStageLayers(s);
        const uint64_t ppBytes = m.ppBytesSet ? m.ppBytes : m.layers[layers.back()].activationBytes;
        const uint64_t ppBytesIn = m.ppBytesSet || s == 0
                                       ? ppBytes
                                       : m.layers[m.GetStageLayers(s - 1).back()].activationBytes;
        auto compute = [&prog](int64_t ns) {
            if (ns > 0)
            {
                prog.push_back({COMPUTE, 0, ns});
            }
        };

        // Buckets of this stage's DP gradients, in backward order.
        struct Bucket
        {
            std::vector<uint32_t> layers;
            TrainingComm comm;
            bool open{true};
        };

        std::vector<Bucket> buckets;
        std::vector<int32_t> closesBucket(m.layers.size(), -1);
        int64_t updatesWithoutComm = 0;
        for (auto it = layers.rbegin(); it != layers.rend(); ++it)
        {
            const TrainingLayer& L = m.layers[*it];
            if (!L.hasWeightGradComm || GroupOf(L.weightGradComm.group, r).size() < 2)
            {
                updatesWithoutComm += L.updateNs;
                continue;
            }
            const bool mergeable = m.bucketBytes > 0 &&
                                   L.weightGradComm.group == TrainingParallelism::DP &&
                                   L.weightGradComm.op == CollectiveOp::ALLREDUCE;
            if (!mergeable || buckets.empty() || !buckets.back().open ||
                buckets.back().comm.group != TrainingParallelism::DP ||
                buckets.back().comm.op != CollectiveOp::ALLREDUCE)
            {
                if (!buckets.empty())
                {
                    buckets.back().open = false;
                }
                buckets.push_back({{}, L.weightGradComm, mergeable});
                buckets.back().comm.bytes = 0;
            }
            Bucket& b = buckets.back();
            b.layers.push_back(*it);
            b.comm.bytes += L.weightGradComm.bytes;
            if (!mergeable || b.comm.bytes >= m.bucketBytes)
            {
                b.open = false;
            }
        }
        std::vector<uint32_t> bucketOps;
        for (uint32_t b = 0; b < buckets.size(); ++b)
        {
            closesBucket[buckets[b].layers.back()] = static_cast<int32_t>(b);
            bucketOps.push_back(CollectiveOpIndex("W|" + std::to_string(b) + "|" +
                                                      std::to_string(buckets[b].layers.back()),
                                                  buckets[b].comm,
                                                  "weight_grad",
                                                  r));
        }
        // The 1F1B order of this stage.
        const uint32_t warm = std::min(P - s - 1, M);
        std::vector<std::pair<bool, uint32_t>> order;
        for (uint32_t i = 0; i < warm; ++i)
        {
            order.emplace_back(true, i);
        }
        for (uint32_t i = 0; i < M - warm; ++i)
        {
            order.emplace_back(true, warm + i);
            order.emplace_back(false, i);
        }
        for (uint32_t i = M - warm; i < M; ++i)
        {
            order.emplace_back(false, i);
        }
        for (const auto& [forward, mb] : order)
        {
            const std::string mbs = std::to_string(mb);
            if (forward)
            {
                if (s > 0)
                {
                    const uint32_t src = r - stageRanks;
                    prog.push_back({WAIT,
                                    SendOpIndex("PF|" + mbs + "|" + std::to_string(src),
                                                src,
                                                r,
                                                ppBytesIn,
                                                "forward"),
                                    0});
                }
                for (uint32_t l : layers)
                {
                    const TrainingLayer& L = m.layers[l];
                    compute(L.forwardNs);
                    for (uint32_t ci = 0; ci < L.forwardComms.size(); ++ci)
                    {
                        const TrainingComm& c = L.forwardComms[ci];
                        if (GroupOf(c.group, r).size() < 2)
                        {
                            continue;
                        }
                        const uint32_t op = CollectiveOpIndex("F|" + mbs + "|" + std::to_string(l) +
                                                                  "|" + std::to_string(ci),
                                                              c,
                                                              "forward",
                                                              r);
                        prog.push_back({ISSUE, op, 0});
                        prog.push_back({WAIT, op, 0});
                    }
                }
                if (s + 1 < P)
                {
                    prog.push_back({ISSUE,
                                    SendOpIndex("PF|" + mbs + "|" + std::to_string(r),
                                                r,
                                                r + stageRanks,
                                                ppBytes,
                                                "forward"),
                                    0});
                }
                continue;
            }
            if (s + 1 < P)
            {
                const uint32_t src = r + stageRanks;
                prog.push_back({WAIT,
                                SendOpIndex("PB|" + mbs + "|" + std::to_string(src),
                                            src,
                                            r,
                                            ppBytes,
                                            "backward"),
                                0});
            }
            for (auto it = layers.rbegin(); it != layers.rend(); ++it)
            {
                const uint32_t l = *it;
                const TrainingLayer& L = m.layers[l];
                compute(L.inputGradNs);
                std::vector<uint32_t> pending;
                for (uint32_t ci = 0; ci < L.inputGradComms.size(); ++ci)
                {
                    const TrainingComm& c = L.inputGradComms[ci];
                    if (GroupOf(c.group, r).size() < 2)
                    {
                        continue;
                    }
                    const uint32_t op = CollectiveOpIndex("I|" + mbs + "|" + std::to_string(l) +
                                                              "|" + std::to_string(ci),
                                                          c,
                                                          "input_grad",
                                                          r);
                    prog.push_back({ISSUE, op, 0});
                    pending.push_back(op);
                }
                compute(L.weightGradNs);
                for (uint32_t op : pending)
                {
                    prog.push_back({WAIT, op, 0});
                }
                if (mb + 1 == M && m.overlap && closesBucket[l] >= 0)
                {
                    prog.push_back({ISSUE, bucketOps[closesBucket[l]], 0});
                }
            }
            if (s > 0)
            {
                prog.push_back({ISSUE,
                                SendOpIndex("PB|" + mbs + "|" + std::to_string(r),
                                            r,
                                            r - stageRanks,
                                            ppBytesIn,
                                            "backward"),
                                0});
            }
        }
        if (!m.overlap)
        {
            for (uint32_t op : bucketOps)
            {
                prog.push_back({ISSUE, op, 0});
            }
        }
        for (uint32_t b = 0; b < buckets.size(); ++b)
        {
            prog.push_back({WAIT, bucketOps[b], 0});
            int64_t update = 0;
            for (uint32_t l : buckets[b].layers)
            {
                update += m.layers[l].updateNs;
            }
            compute(update);
        }
        compute(updatesWithoutComm);
    }
    NS_LOG_INFO(m_ops.size() << " communications per iteration, " << m_pool->GetNCommunicators()
                             << " communicators");
}

void
TrainingEngine::Start()
{
    NS_ABORT_MSG_IF(!m_pool, "TrainingEngine::Start before Setup");
    m_running = true;
    if (m_iterationStart != PER_RANK)
    {
        StartIteration();
        return;
    }
    const size_t nOps = m_ops.size();
    m_doneCount.assign(m_nRanks * nOps, 0);
    m_issueNs.assign(m_nRanks * nOps, 0);
    m_sendIssueNs.assign(nOps, {});
    m_rankRecords.assign(static_cast<size_t>(m_iterations) * m_nRanks * RANK_RECORD_FIELDS,
                         INT64_MIN);
    m_iterationGpus.assign(m_iterations, 0);
    m_ranks.assign(m_nRanks, RankState());
    m_localGpus = 0;
    m_finishedGpus = 0;
    m_iterationStartNs = Simulator::Now().GetNanoSeconds();
    for (uint32_t r = 0; r < m_nRanks; ++r)
    {
        if (m_pool->IsLocal(r))
        {
            m_localGpus++;
            m_ranks[r].startNs = m_iterationStartNs;
        }
    }
    for (uint32_t r = 0; r < m_nRanks; ++r)
    {
        if (m_pool->IsLocal(r))
        {
            Advance(r);
        }
    }
}

void
TrainingEngine::StartIteration()
{
    for (Op& op : m_ops)
    {
        op.issued = 0;
        op.done = false;
        op.instance = -1;
        op.waiters.clear();
    }
    m_ranks.assign(m_nRanks, RankState());
    m_finishedRanks = 0;
    m_iterationStartNs = Simulator::Now().GetNanoSeconds();
    NS_LOG_INFO("iteration " << m_iteration << " starts");
    for (uint32_t r = 0; r < m_nRanks; ++r)
    {
        Advance(r);
    }
}

void
TrainingEngine::Advance(uint32_t rank)
{
    RankState& st = m_ranks[rank];
    const std::vector<Step>& prog = m_programs[rank];
    const bool perRank = m_iterationStart == PER_RANK;
    while (st.pc < prog.size())
    {
        const Step& step = prog[st.pc];
        const size_t slot = static_cast<size_t>(rank) * m_ops.size() + step.op;
        switch (step.kind)
        {
        case COMPUTE:
            st.pc++;
            st.rec.computeNs += step.ns;
            m_intervalTrace(perRank ? st.iteration : m_iteration,
                            rank,
                            0,
                            Simulator::Now().GetNanoSeconds(),
                            Simulator::Now().GetNanoSeconds() + step.ns);
            Simulator::Schedule(NanoSeconds(step.ns), &TrainingEngine::Advance, this, rank);
            return;
        case ISSUE:
            st.pc++;
            if (perRank)
            {
                m_issueNs[slot] = Simulator::Now().GetNanoSeconds();
                if (m_ops[step.op].p2p)
                {
                    m_sendIssueNs[step.op].push_back(m_issueNs[slot]);
                }
                m_pool->Issue(rank, step.op, st.iteration);
                break;
            }
            Issue(step.op);
            break;
        case WAIT:
            if (perRank)
            {
                if (m_doneCount[slot] > st.iteration)
                {
                    st.pc++;
                    break;
                }
                st.waitOp = static_cast<int32_t>(step.op);
                st.waitSinceNs = Simulator::Now().GetNanoSeconds();
                return;
            }
            if (m_ops[step.op].done)
            {
                st.pc++;
                break;
            }
            m_ops[step.op].waiters.push_back(rank);
            st.waitSinceNs = Simulator::Now().GetNanoSeconds();
            return;
        }
    }
    if (perRank)
    {
        EndRankIteration(rank);
        return;
    }
    st.finished = true;
    st.rec.finishNs = Simulator::Now().GetNanoSeconds() - m_iterationStartNs;
    if (++m_finishedRanks == m_nRanks)
    {
        Simulator::ScheduleNow(&TrainingEngine::EndIteration, this);
    }
}

void
TrainingEngine::Issue(uint32_t opIndex)
{
    Op& op = m_ops[opIndex];
    NS_ASSERT(op.issued < op.participants);
    if (++op.issued == op.participants)
    {
        StartOp(opIndex);
    }
}

void
TrainingEngine::StartOp(uint32_t opIndex)
{
    Op& op = m_ops[opIndex];
    op.startNs = Simulator::Now().GetNanoSeconds();
    op.instance = m_pool->Start(opIndex, op);
}

void
TrainingEngine::OpDone(uint32_t opIndex)
{
    Op& op = m_ops[opIndex];
    op.done = true;
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_stats[op.stats].durationsNs.push_back(now - op.startNs);
    std::vector<uint32_t> waiters;
    waiters.swap(op.waiters);
    for (uint32_t w : waiters)
    {
        RankState& st = m_ranks[w];
        st.rec.waitNs[static_cast<uint8_t>(op.parallelism)] += now - st.waitSinceNs;
        m_intervalTrace(m_iteration,
                        w,
                        static_cast<uint8_t>(1 + static_cast<uint8_t>(op.parallelism)),
                        st.waitSinceNs,
                        now);
        st.pc++;
        Advance(w);
    }
}

void
TrainingEngine::EndIteration()
{
    IterationRecord rec;
    rec.iteration = m_iteration;
    rec.startNs = m_iterationStartNs;
    rec.endNs = Simulator::Now().GetNanoSeconds();
    for (const RankState& st : m_ranks)
    {
        rec.ranks.push_back(st.rec);
    }
    for (const Op& op : m_ops)
    {
        NS_ABORT_MSG_IF(!op.done, "iteration ended with a communication not done");
    }
    NS_LOG_INFO("iteration " << m_iteration << " took " << rec.endNs - rec.startNs << " ns");
    m_records.push_back(std::move(rec));
    if (++m_iteration < m_iterations)
    {
        StartIteration();
    }
    else
    {
        m_finished = true;
        m_running = false;
        if (!m_finishedCb.IsNull())
        {
            m_finishedCb();
        }
    }
}

void
TrainingEngine::OnRankOpDone(uint32_t rank, uint32_t opIndex)
{
    const size_t slot = static_cast<size_t>(rank) * m_ops.size() + opIndex;
    m_doneCount[slot]++;
    const Op& op = m_ops[opIndex];
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (!op.p2p) // (a send's duration ends at its acknowledgement: OnSendAcked)
    {
        m_stats[op.stats].durationsNs.push_back(now - m_issueNs[slot]);
    }
    RankState& st = m_ranks[rank];
    if (st.waitOp != static_cast<int32_t>(opIndex) || m_doneCount[slot] <= st.iteration)
    {
        return; // not waited for (yet)
    }
    st.waitOp = -1;
    st.rec.waitNs[static_cast<uint8_t>(op.parallelism)] += now - st.waitSinceNs;
    m_intervalTrace(st.iteration,
                    rank,
                    static_cast<uint8_t>(1 + static_cast<uint8_t>(op.parallelism)),
                    st.waitSinceNs,
                    now);
    st.pc++;
    Advance(rank);
}

void
TrainingEngine::OnSendAcked(uint32_t /* rank */, uint32_t opIndex)
{
    // the sender's issues of this send, in order (one stream acknowledges in order)
    std::deque<int64_t>& issued = m_sendIssueNs[opIndex];
    NS_ABORT_MSG_IF(issued.empty(), "acknowledgement of send " << opIndex << " never issued");
    m_stats[m_ops[opIndex].stats].durationsNs.push_back(Simulator::Now().GetNanoSeconds() -
                                                        issued.front());
    issued.pop_front();
}

void
TrainingEngine::EndRankIteration(uint32_t rank)
{
    RankState& st = m_ranks[rank];
    const int64_t now = Simulator::Now().GetNanoSeconds();
    int64_t* f =
        &m_rankRecords[(static_cast<size_t>(st.iteration) * m_nRanks + rank) * RANK_RECORD_FIELDS];
    f[0] = st.startNs;
    f[1] = now;
    f[2] = st.rec.computeNs;
    std::copy(st.rec.waitNs.begin(), st.rec.waitNs.end(), f + 3);
    NS_LOG_INFO("GPU " << rank << " ended iteration " << st.iteration << " in " << now - st.startNs
                       << " ns");
    if (++m_iterationGpus[st.iteration] == m_nRanks)
    {
        SetRankRecords(m_rankRecords); // (every GPU is here: the iteration is complete)
    }
    if (++st.iteration < m_iterations)
    {
        // its next iteration starts now (the program's first step, in its own event)
        st.pc = 0;
        st.rec = RankRecord();
        st.startNs = now;
        Simulator::ScheduleNow(&TrainingEngine::Advance, this, rank);
        return;
    }
    st.finished = true;
    if (++m_finishedGpus < m_localGpus)
    {
        return;
    }
    SetRankRecords(m_rankRecords);
    m_finished = true;
    m_running = false;
    if (!m_finishedCb.IsNull())
    {
        Simulator::ScheduleNow(&TrainingEngine::NotifyFinished, this);
    }
}

void
TrainingEngine::NotifyFinished()
{
    m_finishedCb();
}

bool
TrainingEngine::IsPerRank() const
{
    return m_iterationStart == PER_RANK;
}

std::vector<int64_t>
TrainingEngine::GetRankRecords() const
{
    return m_rankRecords;
}

void
TrainingEngine::SetCommDurations(const std::vector<std::vector<int64_t>>& durations)
{
    NS_ABORT_MSG_IF(durations.size() != m_stats.size(),
                    "TrainingEngine::SetCommDurations: " << durations.size() << " kinds, not "
                                                         << m_stats.size());
    for (size_t i = 0; i < m_stats.size(); ++i)
    {
        m_stats[i].durationsNs = durations[i];
    }
}

uint32_t
TrainingEngine::GetFinishedGpus() const
{
    return m_finishedGpus;
}

void
TrainingEngine::SetRankRecords(const std::vector<int64_t>& records)
{
    NS_ABORT_MSG_IF(records.size() !=
                        static_cast<size_t>(m_iterations) * m_nRanks * RANK_RECORD_FIELDS,
                    "TrainingEngine::SetRankRecords: " << records.size() << " numbers");
    m_records.clear();
    for (uint32_t it = 0; it < m_iterations; ++it)
    {
        IterationRecord rec;
        rec.iteration = it;
        rec.startNs = INT64_MAX;
        rec.endNs = INT64_MIN;
        const int64_t* base = &records[static_cast<size_t>(it) * m_nRanks * RANK_RECORD_FIELDS];
        for (uint32_t r = 0; r < m_nRanks; ++r)
        {
            const int64_t* f = base + static_cast<size_t>(r) * RANK_RECORD_FIELDS;
            if (f[0] != INT64_MIN)
            {
                rec.startNs = std::min(rec.startNs, f[0]);
                rec.endNs = std::max(rec.endNs, f[1]);
            }
        }
        bool complete = true;
        for (uint32_t r = 0; r < m_nRanks; ++r)
        {
            const int64_t* f = base + static_cast<size_t>(r) * RANK_RECORD_FIELDS;
            if (f[0] == INT64_MIN)
            {
                complete = false; // (its end is INT64_MIN too: no finish time)
                break;
            }
            RankRecord rr;
            rr.computeNs = f[2];
            std::copy(f + 3, f + 7, rr.waitNs.begin());
            rr.finishNs = f[1] - rec.startNs;
            rec.ranks.push_back(rr);
        }
        if (!complete)
        {
            break; // an iteration counts once every GPU ended it
        }
        m_records.push_back(std::move(rec));
    }
}

void
TrainingEngine::SetFinishedCallback(Callback<void> cb)
{
    m_finishedCb = cb;
}

bool
TrainingEngine::IsFinished() const
{
    return m_finished;
}

const TrainingModel&
TrainingEngine::GetModel() const
{
    return m_model;
}

const std::vector<TrainingEngine::IterationRecord>&
TrainingEngine::GetIterations() const
{
    return m_records;
}

const std::vector<TrainingEngine::CommStats>&
TrainingEngine::GetCommStats() const
{
    return m_stats;
}

uint32_t
TrainingEngine::GetProgramSize(uint32_t rank) const
{
    return static_cast<uint32_t>(m_programs.at(rank).size());
}

} // namespace ns3
