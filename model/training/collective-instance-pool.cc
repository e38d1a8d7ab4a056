/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-instance-pool.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nccl-channel-tuning.h"
#include "ns3/nccl-tuning-model.h"
#include "ns3/rail-ring-order.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveInstancePool");

NS_OBJECT_ENSURE_REGISTERED(CollectiveInstancePool);

namespace
{
/// Tag bit 55: a point-to-point message; its low bits are the op index.
constexpr uint64_t kP2pBit = 1ULL << 55;
/// Collective instances: tag bits 54..32.
constexpr uint32_t kMaxInstances = 1U << 23;
/// Per rank: objects in tag bits 54..44, runs in 43..32 (StartRuns' limit).
constexpr uint32_t kRunBits = 12;
constexpr uint32_t kMaxObjects = 1U << 11;
constexpr uint32_t kMaxRuns = 1U << kRunBits;
} // namespace

TypeId
CollectiveInstancePool::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CollectiveInstancePool")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CollectiveInstancePool>();
    return tid;
}

CollectiveInstancePool::Settings
CollectiveInstancePool::ReadSettings(const ObjectBase& engine)
{
    StringValue algorithm;
    UintegerValue chunk;
    UintegerValue channels;
    UintegerValue perServer;
    BooleanValue pxn;
    DataRateValue nicRate;
    UintegerValue tagSpace;
    engine.GetAttribute("AllreduceAlgorithm", algorithm);
    engine.GetAttribute("ChunkBytes", chunk);
    engine.GetAttribute("Channels", channels);
    engine.GetAttribute("GpusPerServer", perServer);
    engine.GetAttribute("Pxn", pxn);
    engine.GetAttribute("NicRate", nicRate);
    engine.GetAttribute("TagSpace", tagSpace);
    Settings s;
    s.allreduceAlgorithm = algorithm.Get();
    s.chunkBytes = static_cast<uint32_t>(chunk.Get());
    s.channels = static_cast<uint32_t>(channels.Get());
    s.gpusPerServer = static_cast<uint32_t>(perServer.Get());
    s.pxn = pxn.Get();
    s.nicRate = nicRate.Get();
    s.tagSpace = static_cast<uint8_t>(tagSpace.Get());
    return s;
}

CollectiveInstancePool::CollectiveInstancePool() = default;

CollectiveInstancePool::~CollectiveInstancePool() = default;

void
CollectiveInstancePool::DoDispose()
{
    for (auto& inst : m_instances)
    {
        if (inst.algorithm)
        {
            inst.algorithm->Dispose();
        }
    }
    m_instances.clear();
    m_idle.clear();
    for (auto& o : m_objects)
    {
        o.algorithm->Dispose();
    }
    m_objects.clear();
    m_lanes.clear();
    if (m_planned)
    {
        m_planned->Dispose();
    }
    m_planned = nullptr;
    m_rankOpDone = Callback<void, uint32_t, uint32_t>();
    m_sendAcked = Callback<void, uint32_t, uint32_t>();
    m_transport = nullptr;
    m_opDone = Callback<void, uint32_t>();
    Object::DoDispose();
}

void
CollectiveInstancePool::Setup(Ptr<CollectiveTransport> transport,
                              const Settings& settings,
                              Callback<void, uint32_t> opDone)
{
    m_transport = transport;
    m_settings = settings;
    m_opDone = opDone;
    m_transport->SetCallbacks(MakeCallback(&CollectiveInstancePool::OnDelivered, this),
                              MakeCallback(&CollectiveInstancePool::OnSent, this));
}

Ptr<CollectiveTransport>
CollectiveInstancePool::GetTransport() const
{
    return m_transport;
}

uint32_t
CollectiveInstancePool::CommunicatorOf(const std::vector<uint32_t>& ranks)
{
    auto it = m_commIndex.find(ranks);
    if (it != m_commIndex.end())
    {
        return it->second;
    }
    const auto idx = static_cast<uint32_t>(m_comms.size());
    m_comms.emplace_back(ranks);
    m_commIndex.emplace(ranks, idx);
    return idx;
}

const Communicator&
CollectiveInstancePool::GetCommunicator(uint32_t comm) const
{
    return m_comms.at(comm);
}

uint32_t
CollectiveInstancePool::GetNCommunicators() const
{
    return static_cast<uint32_t>(m_comms.size());
}

std::string
CollectiveInstancePool::AlgorithmFor(CollectiveOp op) const
{
    switch (op)
    {
    case CollectiveOp::ALLREDUCE:
        return m_settings.allreduceAlgorithm;
    case CollectiveOp::REDUCE_SCATTER:
    case CollectiveOp::ALL_GATHER:
        return "ring";
    case CollectiveOp::ALL_TO_ALL:
        return "pairwise";
    default:
        return ""; // the registry's default
    }
}

void
CollectiveInstancePool::CheckAlgorithm(CollectiveOp op) const
{
    CollectiveAlgorithm::Create(op, AlgorithmFor(op));
}

int32_t
CollectiveInstancePool::Start(uint32_t opIndex, const Operation& op)
{
    const uint64_t space = static_cast<uint64_t>(m_settings.tagSpace) << 56;
    if (op.p2p)
    {
        m_transport->Send(op.src, op.dst, op.bytes, space | kP2pBit | opIndex, 0);
        return -1;
    }
    const std::string key = CollectiveOpToString(op.op) + "|" + std::to_string(op.comm) + "|" +
                            std::to_string(op.bytes);
    const uint32_t id = Acquire(key, op);
    Instance& inst = m_instances[id];
    inst.busy = true;
    inst.op = opIndex;
    inst.algorithm->Start(m_transport,
                          space | (static_cast<uint64_t>(id) << 32),
                          MakeCallback(&CollectiveInstancePool::OnInstanceDone, this));
    return static_cast<int32_t>(id);
}

uint32_t
CollectiveInstancePool::Acquire(const std::string& key, const Operation& op)
{
    std::vector<uint32_t>& idle = m_idle[key];
    // An instance whose last run still awaits sender completions (they free its
    // in-flight slots) is not reused: its tags would not tell them from the new run's.
    for (auto it = idle.rbegin(); it != idle.rend(); ++it)
    {
        if (m_instances[*it].algorithm->GetUnacknowledged() == 0)
        {
            const uint32_t id = *it;
            idle.erase(std::next(it).base());
            return id;
        }
    }
    NS_ABORT_MSG_IF(m_instances.size() >= kMaxInstances, "too many concurrent collectives");
    Instance inst;
    inst.algorithm = MakeAlgorithm(op);
    inst.algorithm->Setup(m_comms[op.comm], op.bytes);
    inst.key = key;
    m_instances.push_back(inst);
    return static_cast<uint32_t>(m_instances.size() - 1);
}

Ptr<CollectiveAlgorithm>
CollectiveInstancePool::MakeAlgorithm(const Operation& op) const
{
    Ptr<CollectiveAlgorithm> algorithm = CollectiveAlgorithm::Create(op.op, AlgorithmFor(op.op));
    algorithm->SetAttribute("ChunkBytes", UintegerValue(m_settings.chunkBytes));
    uint32_t channels = m_settings.channels;
    if (m_settings.gpusPerServer > 1)
    {
        // the communicator's own servers (a data-parallel group has one GPU in each)
        const uint32_t perServer = m_comms[op.comm].GetRanksPerServer(m_settings.gpusPerServer);
        algorithm->SetAttributeFailSafe("GpusPerServer", UintegerValue(perServer));
        algorithm->SetAttributeFailSafe("Pxn", BooleanValue(m_settings.pxn));
        if (m_settings.nicRate.GetBitRate() > 0)
        {
            channels = NcclChannelsFor(op, perServer);
        }
    }
    algorithm->SetAttribute("Channels", UintegerValue(channels));
    return algorithm;
}

uint32_t
CollectiveInstancePool::NcclChannelsFor(const Operation& op, uint32_t perServer) const
{
    // the communicator's channels: NCCL's search on its servers, one NIC per GPU
    uint32_t channels = RailRingOrder::NcclChannels(std::max(perServer, 1u), m_settings.nicRate);
    const std::optional<NcclAlgorithm> nccl = FindNcclAlgorithm(m_settings.allreduceAlgorithm);
    if (op.op == CollectiveOp::ALLREDUCE &&
        (nccl == NcclAlgorithm::RING || nccl == NcclAlgorithm::TREE))
    {
        // a short call runs on fewer (topoGetAlgoInfo; the engines' protocol is Simple)
        channels = NcclChannelTuning::Channels(*nccl,
                                               NcclProtocol::SIMPLE,
                                               op.bytes,
                                               m_comms[op.comm].GetSize(),
                                               channels);
    }
    return channels;
}

void
CollectiveInstancePool::OnInstanceDone(uint64_t tagBase)
{
    const auto id = static_cast<uint32_t>((tagBase >> 32) & (kMaxInstances - 1));
    // Freed after the algorithm returned from its completion.
    Simulator::ScheduleNow(&CollectiveInstancePool::Finish,
                           this,
                           m_instances[id].op,
                           static_cast<int32_t>(id));
}

void
CollectiveInstancePool::Finish(uint32_t opIndex, int32_t instance)
{
    if (instance >= 0)
    {
        m_instances[instance].busy = false;
        m_idle[m_instances[instance].key].push_back(static_cast<uint32_t>(instance));
    }
    m_opDone(opIndex);
}

void
CollectiveInstancePool::OnDelivered(uint32_t, uint32_t dst, uint64_t tag, uint64_t)
{
    if (static_cast<uint8_t>(tag >> 56) != m_settings.tagSpace)
    {
        return;
    }
    if (m_perRank)
    {
        const auto target = static_cast<uint32_t>((tag >> 32) & (kMaxInstances - 1));
        if (tag & kP2pBit)
        {
            const SendStream& s = m_streams.at(target);
            const auto seq = static_cast<uint32_t>(tag & 0xffffffffULL);
            Simulator::ScheduleNow(&CollectiveInstancePool::RankOpDone,
                                   this,
                                   dst,
                                   s.ops[seq % s.ops.size()]);
            return;
        }
        m_objects.at(target >> kRunBits).algorithm->HandleRunDelivered(tag);
        return;
    }
    if (tag & kP2pBit)
    {
        Simulator::ScheduleNow(&CollectiveInstancePool::Finish,
                               this,
                               static_cast<uint32_t>(tag & 0xffffffffULL),
                               int32_t{-1});
        return;
    }
    const auto id = static_cast<uint32_t>((tag >> 32) & (kMaxInstances - 1));
    NS_ABORT_MSG_IF(id >= m_instances.size() || !m_instances[id].busy,
                    "delivery for collective instance " << id << " which is not running");
    m_instances[id].algorithm->HandleDelivered(static_cast<uint32_t>(tag & 0xffffffffULL));
}

void
CollectiveInstancePool::OnSent(uint32_t src, uint32_t, uint64_t tag, uint64_t)
{
    if (m_perRank && static_cast<uint8_t>(tag >> 56) == m_settings.tagSpace && (tag & kP2pBit))
    {
        const SendStream& s = m_streams.at((tag >> 32) & (kMaxInstances - 1));
        m_sendAcked(src, s.ops[(tag & 0xffffffffULL) % s.ops.size()]);
        return;
    }
    if (static_cast<uint8_t>(tag >> 56) != m_settings.tagSpace || (tag & kP2pBit))
    {
        return; // a point-to-point message: complete for the schedule when delivered
    }
    // a collective chunk's sender completion frees its in-flight slot (MaxInFlight)
    const auto id = static_cast<uint32_t>((tag >> 32) & (kMaxInstances - 1));
    if (m_perRank)
    {
        m_objects.at(id >> kRunBits)
            .algorithm->HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL));
        return;
    }
    if (id < m_instances.size())
    {
        m_instances[id].algorithm->HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL));
    }
}

bool
CollectiveInstancePool::IsLocal(uint32_t rank) const
{
    return m_transport->IsLocal(rank);
}

bool
CollectiveInstancePool::IsPerRank() const
{
    return m_perRank;
}

void
CollectiveInstancePool::PlanPerRank(const std::vector<Operation>& ops,
                                    const std::vector<uint32_t>& order,
                                    uint32_t iterations,
                                    Callback<void, uint32_t, uint32_t> rankOpDone,
                                    Callback<void, uint32_t, uint32_t> sendAcked)
{
    NS_ABORT_MSG_IF(!m_transport || m_perRank, "CollectiveInstancePool::PlanPerRank: no Setup");
    m_perRank = true;
    m_rankOpDone = rankOpDone;
    m_sendAcked = sendAcked;
    m_planOps = ops;
    m_planned = CreateObject<PlannedReceiveTransport>();
    m_planned->SetInner(m_transport);
    m_binding.assign(ops.size(), Binding());
    // Bind in program order: an object per key, a stream per ordered pair of a send.
    std::map<std::string, uint32_t> objectOf;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> streamOf;
    for (uint32_t i : order)
    {
        const Operation& op = ops.at(i);
        if (op.p2p)
        {
            auto [it, added] = streamOf.emplace(std::make_pair(op.src, op.dst),
                                                static_cast<uint32_t>(m_streams.size()));
            if (added)
            {
                m_streams.push_back({op.src, op.dst, {}});
            }
            m_binding[i] = {it->second, static_cast<uint32_t>(m_streams[it->second].ops.size())};
            m_streams[it->second].ops.push_back(i);
            continue;
        }
        const std::string key = CollectiveOpToString(op.op) + "|" + std::to_string(op.comm) + "|" +
                                std::to_string(op.bytes);
        auto [it, added] = objectOf.emplace(key, static_cast<uint32_t>(m_objects.size()));
        if (added)
        {
            PlannedObject o;
            o.algorithm = MakeAlgorithm(op);
            o.comm = op.comm;
            m_objects.push_back(o);
        }
        m_binding[i] = {it->second, static_cast<uint32_t>(m_objects[it->second].ops.size())};
        m_objects[it->second].ops.push_back(i);
    }
    // The receives of one connection are posted in one stream's order: no two
    // communicators (or sends) may share an ordered pair of ranks.
    std::map<std::pair<uint32_t, uint32_t>, int64_t> user;
    auto claim = [&user](uint32_t a, uint32_t b, int64_t who) {
        auto [it, added] = user.emplace(std::make_pair(a, b), who);
        if (!added && it->second != who)
        {
            throw std::invalid_argument(
                "per-rank operations: GPUs " + std::to_string(a) + " and " + std::to_string(b) +
                " communicate in two groups (an expert-parallel group inside a data-parallel "
                "one?), whose messages would share connections; allowed: groups that share "
                "no pair of GPUs");
        }
    };
    std::set<uint32_t> comms;
    for (const PlannedObject& o : m_objects)
    {
        comms.insert(o.comm);
    }
    for (uint32_t c : comms)
    {
        const Communicator& comm = m_comms[c];
        for (uint32_t a = 0; a < comm.GetSize(); ++a)
        {
            for (uint32_t b = 0; b < comm.GetSize(); ++b)
            {
                if (a != b)
                {
                    claim(comm.GetHost(a), comm.GetHost(b), c);
                }
            }
        }
    }
    for (uint32_t s = 0; s < m_streams.size(); ++s)
    {
        claim(m_streams[s].src, m_streams[s].dst, -1 - static_cast<int64_t>(s));
    }
    if (m_objects.size() > kMaxObjects)
    {
        throw std::invalid_argument("per-rank operations: " + std::to_string(m_objects.size()) +
                                    " collectives of distinct (operation, group, bytes); "
                                    "allowed: up to " +
                                    std::to_string(kMaxObjects));
    }
    const uint64_t space = static_cast<uint64_t>(m_settings.tagSpace) << 56;
    for (uint32_t o = 0; o < m_objects.size(); ++o)
    {
        PlannedObject& po = m_objects[o];
        const uint64_t runs = static_cast<uint64_t>(po.ops.size()) * iterations;
        if (runs > kMaxRuns)
        {
            throw std::invalid_argument(
                "per-rank operations: " + std::to_string(runs) + " runs of one collective (" +
                std::to_string(po.ops.size()) + " per iteration x " + std::to_string(iterations) +
                " iterations); allowed: up to " + std::to_string(kMaxRuns));
        }
        const Communicator& comm = m_comms[po.comm];
        std::vector<bool> local(comm.GetSize());
        for (uint32_t r = 0; r < comm.GetSize(); ++r)
        {
            local[r] = m_transport->IsLocal(comm.GetHost(r));
        }
        po.algorithm->Setup(comm, ops[po.ops.front()].bytes, local);
        po.algorithm->SetCallerStartsRuns(
            MakeBoundCallback(&CollectiveInstancePool::HostRunDone, this, o));
        // every run's message ids and the object's connections (the same on every process)
        po.algorithm->StartRuns(
            m_planned,
            static_cast<uint32_t>(runs),
            Time(0),
            [space, o](uint32_t run) {
                return space | (static_cast<uint64_t>(o) << (32 + kRunBits)) |
                       (static_cast<uint64_t>(run) << 32);
            },
            Callback<void, uint32_t>());
    }
    for (uint32_t s = 0; s < m_streams.size(); ++s)
    {
        const SendStream& st = m_streams[s];
        m_transport->BeginOperation(space | kP2pBit | (static_cast<uint64_t>(s) << 32),
                                    static_cast<uint32_t>(st.ops.size() * iterations));
        m_transport->ExpectConnection(st.src, st.dst, 0);
    }
    // Every receive of the run, each connection's in the order its sender sends: by
    // iteration, then in program order, each collective's transfers in transfer order.
    for (uint32_t it = 0; it < iterations; ++it)
    {
        for (uint32_t i : order)
        {
            const Binding& b = m_binding[i];
            if (ops[i].p2p)
            {
                const SendStream& st = m_streams[b.target];
                const uint64_t seq = static_cast<uint64_t>(it) * st.ops.size() + b.k;
                m_planned->PostReceive(st.src,
                                       st.dst,
                                       space | kP2pBit | (static_cast<uint64_t>(b.target) << 32) |
                                           seq,
                                       0);
                continue;
            }
            const PlannedObject& po = m_objects[b.target];
            const uint64_t run = static_cast<uint64_t>(it) * po.ops.size() + b.k;
            const uint64_t base =
                space | (static_cast<uint64_t>(b.target) << (32 + kRunBits)) | (run << 32);
            const Communicator& comm = m_comms[po.comm];
            for (uint32_t t = 0; t < po.algorithm->GetNTransfers(); ++t)
            {
                if (po.algorithm->IsHeld(t))
                {
                    const CollectiveTransfer& x = po.algorithm->GetTransfer(t);
                    m_planned->PostReceive(comm.GetHost(x.src),
                                           comm.GetHost(x.dst),
                                           base | t,
                                           x.channel);
                }
            }
        }
    }
}

void
CollectiveInstancePool::Issue(uint32_t rank, uint32_t opIndex, uint32_t iteration)
{
    const Binding& b = m_binding.at(opIndex);
    if (m_planOps[opIndex].p2p)
    {
        const SendStream& st = m_streams[b.target];
        const uint64_t space = static_cast<uint64_t>(m_settings.tagSpace) << 56;
        const uint64_t seq = static_cast<uint64_t>(iteration) * st.ops.size() + b.k;
        m_transport->Send(st.src,
                          st.dst,
                          m_planOps[opIndex].bytes,
                          space | kP2pBit | (static_cast<uint64_t>(b.target) << 32) | seq,
                          0);
        return;
    }
    const PlannedObject& po = m_objects.at(b.target);
    Lane& lane = m_lanes[{po.comm, rank}];
    lane.queue.emplace_back(b.target, iteration * static_cast<uint32_t>(po.ops.size()) + b.k);
    if (!lane.busy)
    {
        StartNextPart(po.comm, rank);
    }
}

void
CollectiveInstancePool::StartNextPart(uint32_t comm, uint32_t rank)
{
    Lane& lane = m_lanes[{comm, rank}];
    if (lane.head == lane.queue.size())
    {
        lane.busy = false;
        lane.queue.clear();
        lane.head = 0;
        return;
    }
    lane.busy = true;
    const auto [object, run] = lane.queue[lane.head++];
    const std::vector<uint32_t>& hosts = m_comms[comm].GetHosts();
    const auto h =
        static_cast<uint32_t>(std::find(hosts.begin(), hosts.end(), rank) - hosts.begin());
    m_objects[object].algorithm->StartHostRun(h, run);
}

void
CollectiveInstancePool::HostRunDone(CollectiveInstancePool* pool,
                                    uint32_t object,
                                    uint32_t h,
                                    uint32_t run)
{
    const PlannedObject& po = pool->m_objects[object];
    const uint32_t rank = pool->m_comms[po.comm].GetHost(h);
    pool->m_rankOpDone(rank, po.ops[run % po.ops.size()]);
    pool->StartNextPart(po.comm, rank);
}

void
CollectiveInstancePool::RankOpDone(uint32_t rank, uint32_t opIndex)
{
    m_rankOpDone(rank, opIndex);
}

} // namespace ns3
