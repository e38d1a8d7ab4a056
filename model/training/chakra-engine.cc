/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "chakra-engine.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraEngine");

NS_OBJECT_ENSURE_REGISTERED(ChakraEngine);

TypeId
ChakraEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ChakraEngine")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<ChakraEngine>()
            .AddAttribute("Iterations",
                          "Times the trace (one iteration of every rank) runs, each after the "
                          "previous one finished on every rank.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ChakraEngine::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AllreduceAlgorithm",
                          "Collective algorithm of the allreduces (CollectiveAlgorithm::Create "
                          "names), as TrainingEngine's.",
                          StringValue("ring"),
                          MakeStringAccessor(&ChakraEngine::m_algorithm),
                          MakeStringChecker())
            .AddAttribute("ChunkBytes",
                          "CollectiveAlgorithm ChunkBytes of every collective (0 = unpipelined). "
                          "Default: the collectives' default, NCCL's Simple step.",
                          UintegerValue(CollectiveAlgorithm::DEFAULT_CHUNK_BYTES),
                          MakeUintegerAccessor(&ChakraEngine::m_chunkBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Channels",
                          "CollectiveAlgorithm Channels of every collective. Default: the "
                          "collectives' default (NCCL's channel count for one NIC per GPU).",
                          UintegerValue(CollectiveAlgorithm::DEFAULT_CHANNELS),
                          MakeUintegerAccessor(&ChakraEngine::m_channels),
                          MakeUintegerChecker<uint32_t>(1, CollectiveAlgorithm::MAX_CHANNELS))
            .AddAttribute("GpusPerServer",
                          "GPUs per server of the hosts: each collective's communicator gets "
                          "the server-aware schedules with its own GPUs per server, as "
                          "TrainingEngine's. The scenario runner sets it from "
                          "--gpus-per-server. Default 0: one-NIC hosts.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ChakraEngine::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pxn",
                          "NCCL's PXN in the rings on GPU servers, as TrainingEngine's. "
                          "Default true, as NCCL >= 2.12.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ChakraEngine::m_pxn),
                          MakeBooleanChecker())
            .AddAttribute("NicRate",
                          "One NIC's rate on GPU servers: above 0 (and GpusPerServer > 1) each "
                          "communicator gets NCCL's channels, as TrainingEngine's. Default 0: "
                          "Channels.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&ChakraEngine::m_nicRate),
                          MakeDataRateChecker())
            .AddAttribute("TagSpace",
                          "Top 8 bits of every tag posted (must be the transport's: "
                          "RdmaCollectiveTransport accepts 0xC0 by default).",
                          UintegerValue(0xC0),
                          MakeUintegerAccessor(&ChakraEngine::m_tagSpace),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

ChakraEngine::ChakraEngine() = default;

ChakraEngine::~ChakraEngine() = default;

void
ChakraEngine::DoDispose()
{
    if (m_pool)
    {
        m_pool->Dispose();
    }
    m_pool = nullptr;
    m_finishedCb = Callback<void>();
    Object::DoDispose();
}

uint32_t
ChakraEngine::StatsIndex(const std::string& operation, uint64_t bytes, uint32_t ranks)
{
    const std::string key = operation + "|" + std::to_string(bytes) + "|" + std::to_string(ranks);
    auto it = m_statsIndex.find(key);
    if (it != m_statsIndex.end())
    {
        return it->second;
    }
    m_stats.push_back({operation, bytes, ranks, {}});
    const auto idx = static_cast<uint32_t>(m_stats.size() - 1);
    m_statsIndex.emplace(key, idx);
    return idx;
}

void
ChakraEngine::Setup(const ChakraTrace& trace, Ptr<CollectiveTransport> transport)
{
    if (!transport)
    {
        throw std::invalid_argument("ChakraEngine::Setup without a transport");
    }
    if (trace.GetNRanks() > transport->GetNRanks())
    {
        throw std::invalid_argument("the trace has " + std::to_string(trace.GetNRanks()) +
                                    " ranks; the transport connects " +
                                    std::to_string(transport->GetNRanks()));
    }
    m_pool = CreateObject<CollectiveInstancePool>();
    m_pool->Setup(transport,
                  CollectiveInstancePool::ReadSettings(*this),
                  MakeCallback(&ChakraEngine::OpDone, this));
    m_trace = trace;
    const uint32_t n = trace.GetNRanks();
    m_ranks.assign(n, RankState());
    std::map<std::string, std::vector<uint32_t>> groupOps;          // group -> its ops in order
    std::map<std::pair<std::string, uint32_t>, uint32_t> groupSeen; // (group, rank) -> count
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::vector<uint32_t>> sendOps;
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, uint32_t> recvSeen;
    for (uint32_t r = 0; r < n; ++r)
    {
        const std::vector<ChakraNode>& nodes = trace.ranks[r];
        std::map<uint64_t, uint32_t> index;
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            index.emplace(nodes[i].id, i);
        }
        RankState& rs = m_ranks[r];
        rs.nodes.resize(nodes.size());
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            for (uint64_t d : nodes[i].deps)
            {
                rs.nodes[index.at(d)].children.push_back(i);
                rs.nodes[i].nDeps++;
            }
        }
        // Collectives and sends here; receives below, once every send has its op.
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            const ChakraNode& node = nodes[i];
            if (node.kind == ChakraNode::COLLECTIVE)
            {
                const uint32_t k = groupSeen[{node.group, r}]++;
                std::vector<uint32_t>& ops = groupOps[node.group];
                if (k == ops.size())
                {
                    // Fail now, not mid-run, on an operation without this algorithm.
                    m_pool->CheckAlgorithm(node.op);
                    const std::vector<uint32_t> members = trace.GetGroupRanks(node.group);
                    Op op;
                    op.op = node.op;
                    op.comm = m_pool->CommunicatorOf(members);
                    op.bytes = node.bytes;
                    op.participants = static_cast<uint32_t>(members.size());
                    op.stats =
                        StatsIndex(CollectiveOpToString(node.op), node.bytes, op.participants);
                    m_ops.push_back(op);
                    ops.push_back(static_cast<uint32_t>(m_ops.size() - 1));
                }
                rs.nodes[i].op = ops[k];
                m_ops[ops[k]].nodes.emplace_back(r, i);
            }
            else if (node.kind == ChakraNode::SEND)
            {
                Op op;
                op.p2p = true;
                op.src = r;
                op.dst = node.peer;
                op.bytes = node.bytes;
                op.participants = 1;
                op.stats = StatsIndex("send", node.bytes, 2);
                op.nodes.emplace_back(r, i);
                m_ops.push_back(op);
                rs.nodes[i].op = static_cast<uint32_t>(m_ops.size() - 1);
                sendOps[{r, node.peer, node.tag}].push_back(rs.nodes[i].op);
            }
        }
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        const std::vector<ChakraNode>& nodes = trace.ranks[r];
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            if (nodes[i].kind == ChakraNode::RECV)
            {
                const auto key = std::make_tuple(nodes[i].peer, r, nodes[i].tag);
                const uint32_t op = sendOps.at(key).at(recvSeen[key]++);
                m_ranks[r].nodes[i].op = op;
                m_ops[op].nodes.emplace_back(r, i);
            }
        }
    }
    NS_LOG_INFO(m_ops.size() << " communications per iteration, " << m_pool->GetNCommunicators()
                             << " communicators");
}

void
ChakraEngine::Start()
{
    NS_ABORT_MSG_IF(!m_pool, "ChakraEngine::Start before Setup");
    StartIteration();
}

void
ChakraEngine::StartIteration()
{
    for (Op& op : m_ops)
    {
        op.issued = 0;
        op.done = false;
        op.instance = -1;
    }
    m_iterationStartNs = Simulator::Now().GetNanoSeconds();
    m_remainingRanks = static_cast<uint32_t>(m_ranks.size());
    for (RankState& rs : m_ranks)
    {
        for (NodeState& ns : rs.nodes)
        {
            ns.pending = ns.nDeps;
            ns.started = false;
            ns.done = false;
        }
        rs.ready[0].clear();
        rs.ready[1].clear();
        rs.busy[0] = rs.busy[1] = false;
        rs.remaining = static_cast<uint32_t>(rs.nodes.size());
        rs.gpuComputeNs = 0;
        rs.finishNs = 0;
    }
    NS_LOG_INFO("iteration " << m_iteration << " starts");
    for (uint32_t r = 0; r < m_ranks.size(); ++r)
    {
        if (m_ranks[r].nodes.empty())
        {
            --m_remainingRanks;
        }
    }
    for (uint32_t r = 0; r < m_ranks.size(); ++r)
    {
        for (uint32_t i = 0; i < m_ranks[r].nodes.size(); ++i)
        {
            if (m_ranks[r].nodes[i].nDeps == 0)
            {
                Ready(r, i);
            }
        }
        RunProcessor(r, 0);
        RunProcessor(r, 1);
    }
    if (m_remainingRanks == 0)
    {
        Simulator::ScheduleNow(&ChakraEngine::EndIteration, this);
    }
}

void
ChakraEngine::Ready(uint32_t rank, uint32_t node)
{
    RankState& rs = m_ranks[rank];
    NodeState& ns = rs.nodes[node];
    const ChakraNode& cn = m_trace.ranks[rank][node];
    ns.started = true;
    switch (cn.kind)
    {
    case ChakraNode::NOOP:
        NodeDone(rank, node);
        return;
    case ChakraNode::COMPUTE:
        if (cn.durationNs == 0)
        {
            NodeDone(rank, node);
            return;
        }
        // the processor takes it in RunProcessor (the lowest ready id first)
        rs.ready[cn.cpu ? 1 : 0].emplace(cn.id, node);
        return;
    case ChakraNode::COLLECTIVE: {
        Op& op = m_ops[ns.op];
        NS_ASSERT(op.issued < op.participants);
        if (++op.issued == op.participants)
        {
            StartOp(ns.op);
        }
        return;
    }
    case ChakraNode::SEND:
        StartOp(ns.op);
        return;
    case ChakraNode::RECV:
        if (m_ops[ns.op].done)
        {
            NodeDone(rank, node);
        }
        return;
    }
}

void
ChakraEngine::RunProcessor(uint32_t rank, uint8_t processor)
{
    RankState& rs = m_ranks[rank];
    if (rs.busy[processor] || rs.ready[processor].empty())
    {
        return;
    }
    const uint32_t node = rs.ready[processor].begin()->second;
    rs.ready[processor].erase(rs.ready[processor].begin());
    rs.busy[processor] = true;
    const int64_t ns = m_trace.ranks[rank][node].durationNs;
    if (processor == 0)
    {
        rs.gpuComputeNs += ns;
    }
    Simulator::Schedule(NanoSeconds(ns), &ChakraEngine::ComputeDone, this, rank, node);
}

void
ChakraEngine::ComputeDone(uint32_t rank, uint32_t node)
{
    m_ranks[rank].busy[m_trace.ranks[rank][node].cpu ? 1 : 0] = false;
    NodeDone(rank, node);
    RunProcessor(rank, 0);
    RunProcessor(rank, 1);
}

void
ChakraEngine::NodeDone(uint32_t rank, uint32_t node)
{
    RankState& rs = m_ranks[rank];
    NodeState& ns = rs.nodes[node];
    NS_ASSERT(!ns.done);
    ns.done = true;
    for (uint32_t c : ns.children)
    {
        if (--rs.nodes[c].pending == 0)
        {
            Ready(rank, c);
        }
    }
    if (--rs.remaining == 0)
    {
        rs.finishNs = Simulator::Now().GetNanoSeconds() - m_iterationStartNs;
        if (--m_remainingRanks == 0)
        {
            Simulator::ScheduleNow(&ChakraEngine::EndIteration, this);
        }
    }
}

void
ChakraEngine::StartOp(uint32_t opIndex)
{
    Op& op = m_ops[opIndex];
    op.startNs = Simulator::Now().GetNanoSeconds();
    op.instance = m_pool->Start(opIndex, op);
}

void
ChakraEngine::OpDone(uint32_t opIndex)
{
    Op& op = m_ops[opIndex];
    op.done = true;
    m_stats[op.stats].durationsNs.push_back(Simulator::Now().GetNanoSeconds() - op.startNs);
    // every member's node (a receive not yet started finishes when it starts)
    for (const auto& [rank, node] : op.nodes)
    {
        const NodeState& ns = m_ranks[rank].nodes[node];
        if (ns.started && !ns.done)
        {
            NodeDone(rank, node);
            RunProcessor(rank, 0);
            RunProcessor(rank, 1);
        }
    }
}

void
ChakraEngine::EndIteration()
{
    IterationRecord rec;
    rec.iteration = m_iteration;
    rec.startNs = m_iterationStartNs;
    rec.endNs = Simulator::Now().GetNanoSeconds();
    for (const RankState& rs : m_ranks)
    {
        rec.gpuComputeNs.push_back(rs.gpuComputeNs);
        rec.finishNs.push_back(rs.finishNs);
    }
    NS_LOG_INFO("iteration " << m_iteration << " took " << rec.endNs - rec.startNs << " ns");
    m_records.push_back(std::move(rec));
    if (++m_iteration < m_iterations)
    {
        StartIteration();
        return;
    }
    m_finished = true;
    if (!m_finishedCb.IsNull())
    {
        m_finishedCb();
    }
}

void
ChakraEngine::SetFinishedCallback(Callback<void> cb)
{
    m_finishedCb = cb;
}

bool
ChakraEngine::IsFinished() const
{
    return m_finished;
}

const std::vector<ChakraEngine::IterationRecord>&
ChakraEngine::GetIterations() const
{
    return m_records;
}

const std::vector<ChakraEngine::CommStats>&
ChakraEngine::GetCommStats() const
{
    return m_stats;
}

const ChakraTrace&
ChakraEngine::GetTrace() const
{
    return m_trace;
}

} // namespace ns3
