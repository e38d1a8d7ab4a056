/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collnet-allreduce.h"

#include "rdma-collective-transport.h"

#include "ns3/aggregation-manager.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/fast-forward-transport.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollNetAllreduce");

NS_OBJECT_ENSURE_REGISTERED(CollNetAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"collnet",
     CollectiveOp::ALLREDUCE,
     "NCCL's CollNet with SHARP: reduce-scatter inside each server, the InfiniBand "
     "switches' aggregation trees sum the servers' shards (one tree per rail), all-gather "
     "inside each server; --fabric=infiniband; falls back to the ring when the Aggregation "
     "Manager has no tree left",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<CollNetAllreduce>()); },
     false});

TypeId
CollNetAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollNetAllreduce")
            .SetParent<RingAllreduce>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollNetAllreduce>()
            .AddAttribute("AggregationManager",
                          "The fabric's SHARP Aggregation Manager, which gives the allreduce "
                          "its trees at Setup (an InfiniBand fabric's: IbFabricHelper "
                          "aggregates one to it; the scenario runner passes it). Null: Setup "
                          "refuses the algorithm",
                          PointerValue(),
                          MakePointerAccessor(&CollNetAllreduce::m_manager),
                          MakePointerChecker<AggregationManager>())
            .AddAttribute("Fabric",
                          "The fabric it will run on, as --fabric names it (the scenario "
                          "runner sets it), named when Setup refuses a fabric without a "
                          "SHARP Aggregation Manager (the AggregationManager attribute, "
                          "what Setup checks). '' = not named",
                          StringValue(""),
                          MakeStringAccessor(&CollNetAllreduce::m_fabric),
                          MakeStringChecker());
    return tid;
}

CollNetAllreduce::CollNetAllreduce() = default;

CollNetAllreduce::~CollNetAllreduce() = default;

void
CollNetAllreduce::DoDispose()
{
    ReleaseTrees();
    m_manager = nullptr;
    m_collnet = nullptr;
    m_given = nullptr;
    RingAllreduce::DoDispose();
}

std::string
CollNetAllreduce::GetName() const
{
    return m_fallback.empty() ? "collnet" : "ring";
}

std::string
CollNetAllreduce::GetFallbackReason() const
{
    return m_fallback;
}

const std::vector<uint16_t>&
CollNetAllreduce::GetTrees() const
{
    return m_trees;
}

void
CollNetAllreduce::ReleaseTrees()
{
    for (uint16_t id : m_trees)
    {
        m_manager->ReleaseTree(id);
    }
    m_trees.clear();
}

bool
CollNetAllreduce::AllocateTrees()
{
    const Communicator& comm = GetCommunicator();
    const uint32_t servers = comm.GetSize() / m_gpus;
    m_members.assign(m_gpus, std::vector<uint32_t>());
    for (uint32_t g = 0; g < m_gpus; ++g)
    {
        std::vector<uint32_t> hosts;
        for (uint32_t s = 0; s < servers; ++s)
        {
            m_members[g].push_back(s * m_gpus + g);
            hosts.push_back(comm.GetHost(s * m_gpus + g));
        }
        AggregationManager::TreeInfo info;
        std::string why;
        bool ok = false;
        try
        {
            ok = m_manager->AllocateTree(hosts,
                                         MakeCallback(&CollNetAllreduce::OnResult, this),
                                         info,
                                         &why);
        }
        catch (const std::invalid_argument& e)
        {
            ReleaseTrees();
            throw std::invalid_argument(std::string("collnet allreduce: ") + e.what());
        }
        if (!ok)
        {
            ReleaseTrees();
            m_fallback = "no SHARP tree for rail " + std::to_string(g) + ": " + why +
                         "; the ring runs instead";
            NS_LOG_WARN("collnet allreduce: " << m_fallback);
            return false;
        }
        m_trees.push_back(info.id);
    }
    return true;
}

void
CollNetAllreduce::BuildSchedule()
{
    const Communicator& comm = GetCommunicator();
    const uint32_t n = comm.GetSize();
    if (GetBuildChannel() == 0)
    {
        m_messages.clear();
        m_slices.clear();
        UintegerValue gpus;
        GetAttribute("GpusPerServer", gpus);
        m_gpus = gpus.Get() >= 2 ? static_cast<uint32_t>(gpus.Get()) : 1;
        if (!m_manager)
        {
            // The capability collnet needs is the fabric's SHARP Aggregation Manager, not
            // its name: a fabric that has one (InfiniBand's) runs it.
            throw std::invalid_argument(
                "collnet allreduce: " +
                (m_fabric.empty() ? std::string("the fabric") : "fabric '" + m_fabric + "'") +
                " is not allowed: it has no SHARP Aggregation Manager (SHARP trees are set up "
                "by InfiniBand's Aggregation Manager: --fabric=infiniband)");
        }
        if (n % m_gpus != 0 || n / m_gpus < 2)
        {
            throw std::invalid_argument("collnet allreduce: " + std::to_string(n) +
                                        " ranks in servers of " + std::to_string(m_gpus) +
                                        " GPUs is not allowed (needs whole servers, at least 2)");
        }
        if (GetProtocol() && GetProtocol()->GetName() != "simple")
        {
            throw std::invalid_argument("collnet allreduce: protocol '" + GetProtocol()->GetName() +
                                        "' is not allowed (NCCL's CollNet kernels run Simple "
                                        "only: src/device/all_reduce.h)");
        }
        ReleaseTrees();
        m_fallback.clear();
        AllocateTrees();
    }
    if (!m_fallback.empty())
    {
        RingAllreduce::BuildSchedule();
        return;
    }
    const uint32_t gpus = m_gpus;
    const uint32_t servers = n / gpus;
    // Per shard and chunk one slice per server (its owner); a slice is at most ChunkBytes.
    const uint32_t chunks = ChunksFor(GetChannelBytes() / gpus / servers);
    SetNUnits(gpus * chunks * servers);
    auto unit = [chunks, servers](uint32_t g, uint32_t c, uint32_t h) {
        return (g * chunks + c) * servers + h;
    };
    auto segment = [&unit, servers](uint32_t g, uint32_t c) {
        return std::make_pair(unit(g, c, 0), unit(g, c, 0) + servers);
    };
    const uint32_t first = static_cast<uint32_t>(m_slices.size());
    m_slices.resize(first + static_cast<size_t>(gpus) * chunks * servers);
    auto record = [this](uint32_t index, CollNetCollectiveTransport::Message m) {
        if (index >= m_messages.size())
        {
            m_messages.resize(index + 1);
        }
        m_messages[index] = m;
    };
    auto ring = [gpus](uint32_t s) {
        std::vector<uint32_t> r;
        for (uint32_t i = 0; i < gpus; ++i)
        {
            r.push_back(s * gpus + i);
        }
        return r;
    };
    // 1. Reduce-scatter inside each server: GPU g ends with shard g of its server.
    std::vector<std::vector<std::vector<uint32_t>>> reduced(servers);
    if (gpus > 1)
    {
        for (uint32_t s = 0; s < servers; ++s)
        {
            reduced[s] = AddRingPhase(ring(s), chunks, true, segment, {});
        }
    }
    // 2. Per rail the switches sum the servers' shards: per slice S' - 1 contributions to
    // its owner, then the sum to every other member. In transfer order a chunk's
    // contributions all come before its sums, so that a connection posting in transfer
    // order (MatchInAdvance) never holds a member's contributions (which its own slice goes
    // with) behind a sum that waits for them.
    std::vector<std::vector<uint32_t>> done(static_cast<size_t>(n) * chunks);
    std::vector<std::vector<uint32_t>> parts(static_cast<size_t>(gpus) * chunks * servers);
    for (uint32_t c = 0; c < chunks; ++c)
    {
        for (uint32_t g = 0; g < gpus; ++g)
        {
            for (uint32_t h = 0; h < servers; ++h)
            {
                const uint32_t u = unit(g, c, h);
                const uint32_t slice = first + u;
                const uint32_t owner = h * gpus + g;
                m_slices[slice].tree = g;
                for (uint32_t s = 0; s < servers; ++s)
                {
                    if (s == h)
                    {
                        continue;
                    }
                    const uint32_t r = s * gpus + g;
                    const std::vector<uint32_t> deps =
                        gpus > 1 ? reduced[s][g * chunks + c] : std::vector<uint32_t>();
                    const uint32_t t = AddTransfer(r, owner, u, u + 1, false, deps);
                    record(t,
                           {CollNetCollectiveTransport::CONTRIBUTE, slice, first + unit(g, c, s)});
                    m_slices[slice].bytes = GetTransfer(t).bytes;
                    parts[u].push_back(t);
                    done[owner * chunks + c].push_back(t);
                }
            }
        }
        for (uint32_t g = 0; g < gpus; ++g)
        {
            for (uint32_t h = 0; h < servers; ++h)
            {
                const uint32_t u = unit(g, c, h);
                const uint32_t owner = h * gpus + g;
                for (uint32_t s = 0; s < servers; ++s)
                {
                    if (s != h)
                    {
                        const uint32_t r = s * gpus + g;
                        const uint32_t t = AddTransfer(owner, r, u, u + 1, false, parts[u]);
                        record(t, {CollNetCollectiveTransport::RESULT, first + u, 0});
                        done[r * chunks + c].push_back(t);
                    }
                }
            }
        }
    }
    // 3. All-gather inside each server, each shard's chunk once its sum is in.
    if (gpus > 1)
    {
        for (uint32_t s = 0; s < servers; ++s)
        {
            std::vector<std::vector<uint32_t>> extra(static_cast<size_t>(gpus) * chunks);
            for (uint32_t i = 0; i < gpus; ++i)
            {
                for (uint32_t c = 0; c < chunks; ++c)
                {
                    extra[i * chunks + c] = done[(s * gpus + i) * chunks + c];
                }
            }
            AddRingPhase(ring(s), chunks, false, segment, extra);
        }
    }
}

Ptr<CollectiveTransport>
CollNetAllreduce::UseTransport(Ptr<CollectiveTransport> transport)
{
    if (!m_fallback.empty())
    {
        return transport;
    }
    const Communicator& comm = GetCommunicator();
    if (!m_collnet || m_given != transport)
    {
        Ptr<RdmaCollectiveTransport> rdma = DynamicCast<RdmaCollectiveTransport>(transport);
        if (Ptr<FastForwardTransport> ff = DynamicCast<FastForwardTransport>(transport))
        {
            rdma = ff->GetInner(); // (its own transport: fast-forward skips none of it)
        }
        NS_ABORT_MSG_IF(!rdma, "collnet allreduce runs over an RdmaCollectiveTransport's fabric");
        std::vector<Ptr<SharpHcaPort>> ports(rdma->GetNRanks());
        std::vector<std::vector<uint32_t>> members(m_members.size());
        for (size_t g = 0; g < m_members.size(); ++g)
        {
            for (uint32_t r : m_members[g])
            {
                const uint32_t tr = comm.GetHost(r);
                // The trees were built for the communicator's hosts as fabric hosts.
                NS_ABORT_MSG_IF(rdma->GetHost(tr) != tr,
                                "collnet allreduce: transport rank " << tr << " is host "
                                                                     << rdma->GetHost(tr)
                                                                     << "; attach the transport "
                                                                        "to hosts 0..N-1");
                ports[tr] = m_manager->GetHostPort(tr);
                members[g].push_back(tr);
            }
        }
        m_collnet = CreateObject<CollNetCollectiveTransport>();
        m_collnet->Attach(rdma, m_trees, members, ports);
        m_collnet->SetCallbacks(MakeCallback(&CollNetAllreduce::Delivered, this),
                                MakeCallback(&CollNetAllreduce::Sent, this));
        m_given = transport;
    }
    m_messages.resize(GetNTransfers());
    m_collnet->SetPlan(m_messages, m_slices);
    return m_collnet;
}

void
CollNetAllreduce::OnResult(uint32_t host, uint16_t tree, uint16_t epoch, uint32_t operation)
{
    if (m_collnet)
    {
        m_collnet->OnResult(host, tree, epoch, operation);
    }
}

void
CollNetAllreduce::Delivered(uint32_t /* src */,
                            uint32_t /* dst */,
                            uint64_t tag,
                            uint64_t /* bytes */)
{
    HandleDelivered(static_cast<uint32_t>(tag & 0xffffffffULL));
}

void
CollNetAllreduce::Sent(uint32_t /* src */, uint32_t /* dst */, uint64_t tag, uint64_t /* bytes */)
{
    HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL));
}

} // namespace ns3
