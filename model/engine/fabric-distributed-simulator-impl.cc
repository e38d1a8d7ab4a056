/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifdef AI_FABRIC_MPI

#include "fabric-distributed-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/channel-list.h"
#include "ns3/channel.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/net-device.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <mpi.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricDistributedSimulatorImpl");

NS_OBJECT_ENSURE_REGISTERED(FabricDistributedSimulatorImpl);

FabricDistributedSimulatorImpl* FabricDistributedSimulatorImpl::s_distributed = nullptr;

struct FabricDistributedSimulatorImpl::Comm
{
    MPI_Comm comm{MPI_COMM_NULL}; //!< the communicator
};

namespace
{
/// A frame's head in a batch (then its bytes, padded to 8).
struct FrameHead
{
    uint64_t rxTs;          //!< arrival time (ticks)
    uint64_t originTs;      //!< when its sender scheduled it (ticks)
    uint32_t originContext; //!< the sender's context (node)
    uint32_t node;          //!< destination node id
    uint32_t ifIndex;       //!< destination device's ifIndex
    uint32_t bytes;         //!< bytes that follow
    uint32_t kind;          //!< 0: a serialized Packet; else a RawReceiver's kind
    uint32_t reserved;      //!< zero
};

static_assert(sizeof(FrameHead) == 40, "a frame head is 40 bytes");

/// RawReceiver by kind (index 0 unused: Packets).
FabricDistributedSimulatorImpl::RawReceiver g_rawReceivers[256] = {};

constexpr uint64_t NO_EVENT = std::numeric_limits<uint64_t>::max();
constexpr int BATCH_TAG = 0x41f; //!< tag of the batches on the duplicated communicator

/// \return \p n rounded up to 8
std::size_t
Pad8(std::size_t n)
{
    return (n + 7) & ~std::size_t{7};
}

/// Seconds since \p t0.
double
Since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

TypeId
FabricDistributedSimulatorImpl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricDistributedSimulatorImpl")
                            .SetParent<FabricSimulatorImpl>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<FabricDistributedSimulatorImpl>();
    return tid;
}

FabricDistributedSimulatorImpl::FabricDistributedSimulatorImpl()
    : m_comm(std::make_unique<Comm>())
{
    NS_LOG_FUNCTION(this);
    if (MpiInterface::IsEnabled())
    {
        m_rank = MpiInterface::GetSystemId();
        m_ranks = MpiInterface::GetSize();
    }
}

FabricDistributedSimulatorImpl::~FabricDistributedSimulatorImpl()
{
    if (s_distributed == this)
    {
        s_distributed = nullptr;
    }
}

void
FabricDistributedSimulatorImpl::DoDispose()
{
    if (s_distributed == this)
    {
        s_distributed = nullptr;
    }
    m_rx.clear();
    m_rawCache.clear();
    m_out.clear();
    m_in.clear();
    FabricSimulatorImpl::DoDispose();
}

uint32_t
FabricDistributedSimulatorImpl::GetSystemId() const
{
    return m_rank;
}

const FabricDistributedSimulatorImpl::Stats&
FabricDistributedSimulatorImpl::GetStats() const
{
    return m_stats;
}

int64_t
FabricDistributedSimulatorImpl::Lookahead() const
{
    int64_t local = std::numeric_limits<int64_t>::max();
    for (uint32_t i = 0; i < ChannelList::GetNChannels(); ++i)
    {
        Ptr<Channel> ch = ChannelList::GetChannel(i);
        bool here = false;
        bool there = false;
        for (std::size_t d = 0; d < ch->GetNDevices(); ++d)
        {
            const uint32_t sid = ch->GetDevice(d)->GetNode()->GetSystemId();
            here = here || sid == m_rank;
            there = there || sid != m_rank;
        }
        if (!here || !there)
        {
            continue;
        }
        TimeValue delay;
        if (!ch->GetAttributeFailSafe("Delay", delay))
        {
            NS_FATAL_ERROR("FabricDistributedSimulatorImpl: channel "
                           << i << " (" << ch->GetInstanceTypeId().GetName()
                           << ") joins ranks but has no Delay attribute to take the "
                              "lookahead from");
        }
        if (!delay.Get().IsStrictlyPositive())
        {
            NS_FATAL_ERROR("FabricDistributedSimulatorImpl: channel "
                           << i << " (" << ch->GetInstanceTypeId().GetName()
                           << ") joins ranks with Delay " << delay.Get()
                           << "; a cable between ranks needs a positive delay (the lookahead)");
        }
        local = std::min(local, delay.Get().GetTimeStep());
    }
    int64_t global = local;
    MPI_Allreduce(&local, &global, 1, MPI_INT64_T, MPI_MIN, m_comm->comm);
    return global == std::numeric_limits<int64_t>::max() ? -1 : global;
}

void
FabricDistributedSimulatorImpl::SendPacket(Ptr<Packet> p,
                                           const Time& rxTime,
                                           uint32_t node,
                                           uint32_t ifIndex)
{
    FabricDistributedSimulatorImpl* sim = s_distributed;
    if (sim == nullptr)
    {
        MpiInterface::SendPacket(p, rxTime, node, ifIndex);
        return;
    }
    sim->Batch(p, static_cast<uint64_t>(rxTime.GetTimeStep()), node, ifIndex);
}

void
FabricDistributedSimulatorImpl::SetRawReceiver(uint8_t kind, RawReceiver rx)
{
    NS_ABORT_MSG_IF(kind == 0, "FabricDistributedSimulatorImpl: raw kind 0 is the Packets'");
    g_rawReceivers[kind] = rx;
}

bool
FabricDistributedSimulatorImpl::SendRaw(uint8_t kind,
                                        const void* data,
                                        uint32_t bytes,
                                        const Time& rxTime,
                                        uint32_t node,
                                        uint32_t ifIndex)
{
    FabricDistributedSimulatorImpl* sim = s_distributed;
    if (sim == nullptr)
    {
        return false;
    }
    NS_ABORT_MSG_IF(kind == 0 || g_rawReceivers[kind] == nullptr,
                    "FabricDistributedSimulatorImpl: no receiver of raw kind " << +kind);
    std::memcpy(
        sim->NewRecord(kind, bytes, static_cast<uint64_t>(rxTime.GetTimeStep()), node, ifIndex),
        data,
        bytes);
    ++sim->m_stats.framesSent;
    return true;
}

uint8_t*
FabricDistributedSimulatorImpl::NewRecord(uint8_t kind,
                                          uint32_t bytes,
                                          uint64_t rxTs,
                                          uint32_t node,
                                          uint32_t ifIndex)
{
    NS_ABORT_MSG_IF(node >= m_nodeRank.size(),
                    "FabricDistributedSimulatorImpl: a frame to node "
                        << node << ", but the fabric has " << m_nodeRank.size() << " nodes");
    const uint32_t peer = m_nodeRank[node];
    NS_ABORT_MSG_IF(peer == m_rank || peer >= m_ranks,
                    "FabricDistributedSimulatorImpl: a frame to node "
                        << node << " on rank " << peer << " is not for another of the " << m_ranks
                        << " ranks");
    const EventOrigin origin = CurrentOrigin();
    std::vector<uint8_t>& out = m_out[peer];
    const std::size_t at = out.size();
    out.resize(at + sizeof(FrameHead) + Pad8(bytes));
    const FrameHead head{rxTs, origin.ts, origin.context, node, ifIndex, bytes, kind, 0};
    std::memcpy(out.data() + at, &head, sizeof(head));
    return out.data() + at + sizeof(FrameHead);
}

void
FabricDistributedSimulatorImpl::Batch(Ptr<Packet> p, uint64_t rxTs, uint32_t node, uint32_t ifIndex)
{
    const uint32_t size = p->GetSerializedSize();
    uint8_t* room = NewRecord(0, size, rxTs, node, ifIndex);
    NS_ABORT_MSG_UNLESS(p->Serialize(room, size) == 1,
                        "FabricDistributedSimulatorImpl: a packet of "
                            << p->GetSize() << " bytes does not serialize");
    ++m_stats.framesSent;
}

void
FabricDistributedSimulatorImpl::Deliver(const uint8_t* data, std::size_t bytes)
{
    std::size_t at = 0;
    while (at < bytes)
    {
        NS_ABORT_MSG_IF(bytes - at < sizeof(FrameHead),
                        "FabricDistributedSimulatorImpl: a batch ends inside a frame head");
        FrameHead head;
        std::memcpy(&head, data + at, sizeof(head));
        at += sizeof(FrameHead);
        NS_ABORT_MSG_IF(bytes - at < head.bytes,
                        "FabricDistributedSimulatorImpl: a batch ends inside a frame");
        NS_ABORT_MSG_IF(head.rxTs < static_cast<uint64_t>(Now().GetTimeStep()),
                        "FabricDistributedSimulatorImpl: a frame arrives at "
                            << head.rxTs << " ps, before the window's end " << Now().GetTimeStep());
        if (head.kind != 0)
        {
            RawReceiver rx = head.kind < 256 ? g_rawReceivers[head.kind] : nullptr;
            NS_ABORT_MSG_IF(rx == nullptr,
                            "FabricDistributedSimulatorImpl: a record of kind "
                                << head.kind << " that nothing on this rank receives");
            // Scheduled as by the sender: its instant and node (EventOrigin).
            const EventOrigin here = CurrentOrigin();
            SetCurrent(EventOrigin{head.originTs, head.originContext});
            auto& cache = m_rawCache[(uint64_t{head.node} << 32) | head.ifIndex];
            void* slots[2] = {cache.first, cache.second};
            rx(head.node, head.ifIndex, head.rxTs, data + at, head.bytes, slots);
            cache = {slots[0], slots[1]};
            SetCurrent(here);
            at += Pad8(head.bytes);
            ++m_stats.framesReceived;
            continue;
        }
        // (Packet's deserializing constructor reads 32-bit words: the batch keeps
        // each frame at an 8-byte boundary.)
        Ptr<Packet> p = Create<Packet>(data + at, head.bytes, true);
        at += Pad8(head.bytes);
        const uint64_t key = (uint64_t{head.node} << 32) | head.ifIndex;
        auto it = m_rx.find(key);
        if (it == m_rx.end())
        {
            NS_ABORT_MSG_IF(head.node >= NodeList::GetNNodes(),
                            "FabricDistributedSimulatorImpl: a frame for node "
                                << head.node << " of " << NodeList::GetNNodes());
            Ptr<Node> node = NodeList::GetNode(head.node);
            MpiReceiver* rx = nullptr;
            for (uint32_t i = 0; i < node->GetNDevices(); ++i)
            {
                Ptr<NetDevice> dev = node->GetDevice(i);
                if (dev->GetIfIndex() == head.ifIndex)
                {
                    rx = PeekPointer(dev->GetObject<MpiReceiver>());
                    break;
                }
            }
            NS_ABORT_MSG_IF(rx == nullptr,
                            "FabricDistributedSimulatorImpl: node "
                                << head.node << " has no device " << head.ifIndex
                                << " with an MpiReceiver for frames from another rank");
            it = m_rx.emplace(key, rx).first;
        }
        InsertFrom(head.node,
                   head.rxTs,
                   MakeEvent(&MpiReceiver::Receive, it->second, p),
                   EventOrigin{head.originTs, head.originContext});
        ++m_stats.framesReceived;
    }
}

void
FabricDistributedSimulatorImpl::Exchange()
{
    std::vector<int> sendCounts(m_ranks, 0);
    std::vector<int> recvCounts(m_ranks, 0);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        NS_ABORT_MSG_IF(m_out[r].size() > static_cast<std::size_t>(std::numeric_limits<int>::max()),
                        "FabricDistributedSimulatorImpl: a window's batch to rank "
                            << r << " has " << m_out[r].size() << " bytes (MPI counts are int)");
        sendCounts[r] = static_cast<int>(m_out[r].size());
    }
    const auto t0 = std::chrono::steady_clock::now();
    MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, m_comm->comm);
    std::vector<MPI_Request> requests;
    requests.reserve(2 * m_ranks);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (recvCounts[r] > 0)
        {
            m_in[r].resize(recvCounts[r]);
            requests.emplace_back();
            MPI_Irecv(m_in[r].data(),
                      recvCounts[r],
                      MPI_BYTE,
                      static_cast<int>(r),
                      BATCH_TAG,
                      m_comm->comm,
                      &requests.back());
        }
    }
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        if (sendCounts[r] > 0)
        {
            requests.emplace_back();
            MPI_Isend(m_out[r].data(),
                      sendCounts[r],
                      MPI_BYTE,
                      static_cast<int>(r),
                      BATCH_TAG,
                      m_comm->comm,
                      &requests.back());
            ++m_stats.messagesSent;
            m_stats.bytesSent += m_out[r].size();
        }
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    m_stats.mpiSeconds += Since(t0);
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        m_out[r].clear();
        if (recvCounts[r] > 0)
        {
            Deliver(m_in[r].data(), m_in[r].size()); // peers in rank order: deterministic
        }
    }
}

void
FabricDistributedSimulatorImpl::Run()
{
    NS_LOG_FUNCTION(this);
    m_stats = Stats{};
    if (!MpiInterface::IsEnabled() || m_ranks <= 1)
    {
        FabricSimulatorImpl::Run(); // one rank: the one-process loop
        return;
    }
    const auto start = std::chrono::steady_clock::now();
    if (!OrdersByOrigin())
    {
        NS_FATAL_ERROR("FabricDistributedSimulatorImpl: across ranks the event list must be "
                       "ns3::TimingWheelScheduler or ns3::QuaternaryHeapScheduler (GlobalValue "
                       "SchedulerType), whose order of equal times does not depend on the "
                       "partition");
    }
    BeginRun();
    MPI_Comm_dup(MpiInterface::GetCommunicator(), &m_comm->comm);
    m_nodeRank.assign(NodeList::GetNNodes(), 0);
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        m_nodeRank[n] = NodeList::GetNode(n)->GetSystemId();
    }
    m_out.assign(m_ranks, {});
    m_in.assign(m_ranks, {});
    m_stats.lookaheadTicks = Lookahead();
    const uint64_t lookahead =
        m_stats.lookaheadTicks < 0 ? NO_EVENT : static_cast<uint64_t>(m_stats.lookaheadTicks);
    s_distributed = this;
    for (;;)
    {
        // [0]: the earliest event here; [1]: 0 if Stop was called here. Minimum of both.
        uint64_t local[2] = {NoEvents() ? NO_EVENT : NextEventTs(), StopCalled() ? 0U : 1U};
        uint64_t global[2] = {0, 0};
        const auto t0 = std::chrono::steady_clock::now();
        MPI_Allreduce(local, global, 2, MPI_UINT64_T, MPI_MIN, m_comm->comm);
        m_stats.mpiSeconds += Since(t0);
        if (global[1] == 0 || global[0] == NO_EVENT)
        {
            break;
        }
        const uint64_t end = global[0] > NO_EVENT - lookahead ? NO_EVENT : global[0] + lookahead;
        RunEventsBefore(end);
        Exchange();
        ++m_stats.windows;
    }
    SetStopped();
    s_distributed = nullptr;
    MPI_Comm_free(&m_comm->comm);
    m_stats.runSeconds = Since(start);
}

} // namespace ns3

#endif // AI_FABRIC_MPI
