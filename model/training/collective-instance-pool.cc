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
    inst.algorithm = CollectiveAlgorithm::Create(op.op, AlgorithmFor(op.op));
    inst.algorithm->SetAttribute("ChunkBytes", UintegerValue(m_settings.chunkBytes));
    uint32_t channels = m_settings.channels;
    if (m_settings.gpusPerServer > 1)
    {
        // the communicator's own servers (a data-parallel group has one GPU in each)
        const uint32_t perServer = m_comms[op.comm].GetRanksPerServer(m_settings.gpusPerServer);
        inst.algorithm->SetAttributeFailSafe("GpusPerServer", UintegerValue(perServer));
        inst.algorithm->SetAttributeFailSafe("Pxn", BooleanValue(m_settings.pxn));
        if (m_settings.nicRate.GetBitRate() > 0)
        {
            channels = NcclChannelsFor(op, perServer);
        }
    }
    inst.algorithm->SetAttribute("Channels", UintegerValue(channels));
    inst.algorithm->Setup(m_comms[op.comm], op.bytes);
    inst.key = key;
    m_instances.push_back(inst);
    return static_cast<uint32_t>(m_instances.size() - 1);
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
CollectiveInstancePool::OnDelivered(uint32_t, uint32_t, uint64_t tag, uint64_t)
{
    if (static_cast<uint8_t>(tag >> 56) != m_settings.tagSpace)
    {
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
CollectiveInstancePool::OnSent(uint32_t, uint32_t, uint64_t tag, uint64_t)
{
    if (static_cast<uint8_t>(tag >> 56) != m_settings.tagSpace || (tag & kP2pBit))
    {
        return; // a point-to-point message: complete for the schedule when delivered
    }
    // a collective chunk's sender completion frees its in-flight slot (MaxInFlight)
    const auto id = static_cast<uint32_t>((tag >> 32) & (kMaxInstances - 1));
    if (id < m_instances.size())
    {
        m_instances[id].algorithm->HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL));
    }
}

} // namespace ns3
