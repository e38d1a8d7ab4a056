/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nvls-allreduce.h"

#include "rdma-collective-transport.h"

#include "ns3/collective-algorithm-registry.h"
#include "ns3/fast-forward-transport.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/rdma-fabric.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlsAllreduce");

NS_OBJECT_ENSURE_REGISTERED(NvlsAllreduce);

static CollectiveAlgorithmRegistration g_registration(
    {"nvls",
     CollectiveOp::ALLREDUCE,
     "NCCL's NVLS in one server: the scale-up crossbar sums every GPU's slice and "
     "multicasts the sum (NVLink SHARP); needs the ranks to be one server's GPUs "
     "(--gpus-per-server), RoCEv2 with PFC",
     [] { return Ptr<CollectiveAlgorithm>(CreateObject<NvlsAllreduce>()); },
     false});

TypeId
NvlsAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NvlsAllreduce")
            .SetParent<CollectiveAlgorithm>()
            .SetGroupName("AiFabric")
            .AddConstructor<NvlsAllreduce>()
            .AddAttribute("GpusPerServer",
                          "GPUs per server; the scenario runner sets it from "
                          "--gpus-per-server. The ranks must be one server's GPUs. 0 = unset "
                          "(refused).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NvlsAllreduce::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Fabric",
                          "The fabric's name, as --fabric names it (the scenario runner "
                          "sets it), for Setup's message when RdmaFabric refuses it. '' = "
                          "its TypeId's name",
                          StringValue(""),
                          MakeStringAccessor(&NvlsAllreduce::m_fabric),
                          MakeStringChecker())
            .AddAttribute("RdmaFabric",
                          "The fabric it will run on (the scenario runner sets it): Setup "
                          "refuses one whose scale-up crossbars cannot reduce in the switch "
                          "(RdmaFabric::HasNvlinkSharp false: InfiniBand, Ultra Ethernet, "
                          "RoCEv2 without PFC). Null = not checked until the run "
                          "(NvlsCollectiveTransport::Attach checks it then)",
                          PointerValue(),
                          MakePointerAccessor(&NvlsAllreduce::m_rdmaFabric),
                          MakePointerChecker<RdmaFabric>());
    return tid;
}

NvlsAllreduce::NvlsAllreduce()
    : m_gpusPerServer(0)
{
}

void
NvlsAllreduce::DoDispose()
{
    m_nvls = nullptr;
    m_given = nullptr;
    m_rdmaFabric = nullptr;
    CollectiveAlgorithm::DoDispose();
}

CollectiveOp
NvlsAllreduce::GetOp() const
{
    return CollectiveOp::ALLREDUCE;
}

std::string
NvlsAllreduce::GetName() const
{
    return "nvls";
}

void
NvlsAllreduce::BuildSchedule()
{
    const Communicator& comm = GetCommunicator();
    const uint32_t n = comm.GetSize();
    if (m_gpusPerServer < 2 || n != m_gpusPerServer || n > 255)
    {
        throw std::invalid_argument(
            "nvls allreduce: " + std::to_string(n) + " ranks in servers of " +
            std::to_string(m_gpusPerServer) +
            " GPUs is not allowed (needs the ranks to be the GPUs of one server, 2..255 of "
            "them; NVLS across servers, NCCL's NVLSTree, is not modelled)");
    }
    if (m_rdmaFabric && !m_rdmaFabric->HasNvlinkSharp())
    {
        const std::string name =
            m_fabric.empty() ? m_rdmaFabric->GetInstanceTypeId().GetName() : m_fabric;
        throw std::invalid_argument("nvls allreduce: fabric '" + name + "' is not allowed (" +
                                    NvlsCollectiveTransport::NVLINK_SHARP_NEEDS + ")");
    }
    const uint32_t channel = GetBuildChannel();
    if (channel == 0)
    {
        m_messages.clear();
        m_sliceBytes.clear();
        m_owner.clear();
    }
    // Per chunk one slice per GPU (its owner), NCCL's loop of nHeads x chunkSize.
    const uint32_t chunks = ChunksFor(GetChannelBytes() / n);
    // NvlsHeader numbers a slice's frames in 16 bits: 65535 frames of the smallest MTU.
    const uint64_t sliceBytes = (GetChannelBytes() / n + chunks - 1) / chunks;
    if (sliceBytes > MAX_SLICE_BYTES)
    {
        throw std::invalid_argument("nvls allreduce: slices of " + std::to_string(sliceBytes) +
                                    " bytes are not allowed (at most " +
                                    std::to_string(MAX_SLICE_BYTES) +
                                    ", 65535 frames of 256 bytes: a smaller ChunkBytes, --chunk)");
    }
    SetNUnits(n * chunks);
    const uint32_t first = static_cast<uint32_t>(m_sliceBytes.size());
    m_sliceBytes.resize(first + static_cast<size_t>(n) * chunks);
    m_owner.resize(m_sliceBytes.size());
    auto record = [this](uint32_t index, NvlsCollectiveTransport::Message m) {
        if (index >= m_messages.size())
        {
            m_messages.resize(index + 1);
        }
        m_messages[index] = m;
    };
    for (uint32_t c = 0; c < chunks; ++c)
    {
        for (uint32_t h = 0; h < n; ++h)
        {
            const uint32_t unit = c * n + h;
            const uint32_t slice = first + unit;
            m_owner[slice] = comm.GetHost(h);
            std::vector<uint32_t> parts;
            for (uint32_t r = 0; r < n; ++r)
            {
                if (r == h)
                {
                    continue;
                }
                // Not a reduction at h: the switch sums, h receives the sum.
                const uint32_t t = AddTransfer(r, h, unit, unit + 1, false, {});
                record(t, {NvlsCollectiveTransport::CONTRIBUTE, slice, first + c * n + r});
                m_sliceBytes[slice] = GetTransfer(t).bytes;
                parts.push_back(t);
            }
            for (uint32_t r = 0; r < n; ++r)
            {
                if (r != h)
                {
                    const uint32_t t = AddTransfer(h, r, unit, unit + 1, false, parts);
                    record(t, {NvlsCollectiveTransport::MULTICAST, slice, 0});
                }
            }
        }
    }
}

Ptr<CollectiveTransport>
NvlsAllreduce::UseTransport(Ptr<CollectiveTransport> transport)
{
    if (!m_nvls || m_given != transport)
    {
        Ptr<RdmaCollectiveTransport> rdma = DynamicCast<RdmaCollectiveTransport>(transport);
        if (Ptr<FastForwardTransport> ff = DynamicCast<FastForwardTransport>(transport))
        {
            rdma = ff->GetInner(); // (its own transport: fast-forward skips none of it)
        }
        NS_ABORT_MSG_IF(!rdma, "nvls allreduce runs over an RdmaCollectiveTransport's fabric");
        std::vector<uint32_t> ranks;
        for (uint32_t r = 0; r < GetCommunicator().GetSize(); ++r)
        {
            ranks.push_back(GetCommunicator().GetHost(r));
        }
        m_nvls = CreateObject<NvlsCollectiveTransport>();
        try
        {
            m_nvls->Attach(rdma, ranks);
        }
        catch (const std::invalid_argument& e)
        {
            NS_FATAL_ERROR(e.what());
        }
        m_nvls->SetCallbacks(MakeCallback(&NvlsAllreduce::Delivered, this),
                             MakeCallback(&NvlsAllreduce::Sent, this));
        m_given = transport;
    }
    m_nvls->SetPlan(m_messages, m_sliceBytes, m_owner);
    return m_nvls;
}

void
NvlsAllreduce::Delivered(uint32_t /* src */, uint32_t /* dst */, uint64_t tag, uint64_t /* bytes */)
{
    HandleDelivered(static_cast<uint32_t>(tag & 0xffffffffULL));
}

void
NvlsAllreduce::Sent(uint32_t /* src */, uint32_t /* dst */, uint64_t tag, uint64_t /* bytes */)
{
    HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL));
}

} // namespace ns3
