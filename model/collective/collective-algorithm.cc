/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-algorithm.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/rounded-time.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveAlgorithm");

NS_OBJECT_ENSURE_REGISTERED(CollectiveAlgorithm);

TypeId
CollectiveAlgorithm::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveAlgorithm")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute("ChunkBytes",
                          "Pipeline chunk size in bytes: each message of a channel is split "
                          "into chunks of at most this size that are forwarded independently "
                          "(a tree node sends a chunk on as soon as it has it); 0 = no split "
                          "(the unpipelined schedule). Default 512 KiB = 524288 B, NCCL's "
                          "Simple protocol step: its buffer of 4 MiB (NCCL_BUFFSIZE default, "
                          "src/init.cc DEFAULT_BUFFSIZE 1 << 22) over NCCL_STEPS = 8 slots "
                          "(src/include/device.h).",
                          UintegerValue(DEFAULT_CHUNK_BYTES),
                          MakeUintegerAccessor(&CollectiveAlgorithm::m_chunkBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Channels",
                          "NCCL channels: the data is split into this many equal slices, each "
                          "run through the algorithm's schedule on its own connections (RC "
                          "queue pairs; on RoCEv2 each has its own UDP source port, so ECMP "
                          "can route the channels apart). The double binary tree gives its two "
                          "trees to alternate channels. Default 2: NCCL duplicates each "
                          "channel its topology search finds (src/graph/connect.cc, "
                          "ncclTopoPostset: nChannels * 2), so one NIC per GPU gives 2 "
                          "channels, tree 0 on one and tree 1 on the other.",
                          UintegerValue(DEFAULT_CHANNELS),
                          MakeUintegerAccessor(&CollectiveAlgorithm::m_channels),
                          MakeUintegerChecker<uint32_t>(1, MAX_CHANNELS))
            .AddAttribute("MaxInFlight",
                          "Chunks outstanding per channel and ordered pair of ranks: from "
                          "its post until its sender's completion (the WRITE acknowledged), "
                          "when NCCL's sender would see the receiver's clear-to-send for the "
                          "slot, one one-way latency after the delivery; 0 = unlimited. "
                          "Default 8 = NCCL_STEPS (src/include/device.h).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&CollectiveAlgorithm::m_maxInFlight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ReductionRate",
                          "Rate at which a rank reduces received data (bytes x 8 / rate delays "
                          "forwarding the result); 0 = reduction is free (default: GPU "
                          "reduction is far faster than the network).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&CollectiveAlgorithm::m_reductionRate),
                          MakeDataRateChecker())
            .AddAttribute("UnitAlignBytes",
                          "Align the data units to this many bytes, as NCCL's ring aligns a "
                          "chunk of a short call (src/device/all_reduce.h runRing: "
                          "alignUp(divUp(count, nranks), 16 / sizeof(T)) elements, 16 bytes): "
                          "every unit but the last ones holds ceil(S / units) rounded up to it, "
                          "so a call smaller than units x 16 bytes leaves some units empty. "
                          "0 = no alignment, units differ by at most one byte (default).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CollectiveAlgorithm::m_unitAlignBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TrackContributions",
                          "Track per rank and data unit the set of ranks whose input it holds "
                          "(for VerifyContributions; costs N^2 x units bits).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveAlgorithm::m_track),
                          MakeBooleanChecker())
            .AddTraceSource("Post",
                            "A transfer was handed to the transport: (src rank, dst rank, bytes).",
                            MakeTraceSourceAccessor(&CollectiveAlgorithm::m_postTrace),
                            "ns3::CollectiveAlgorithm::PostTracedCallback");
    return tid;
}

CollectiveAlgorithm::CollectiveAlgorithm()
    : m_chunkBytes(DEFAULT_CHUNK_BYTES),
      m_channels(DEFAULT_CHANNELS),
      m_maxInFlight(8),
      m_reductionRate(0),
      m_track(false)
{
}

CollectiveAlgorithm::~CollectiveAlgorithm() = default;

std::string
CollectiveAlgorithm::GetFallbackReason() const
{
    return "";
}

void
CollectiveAlgorithm::DoDispose()
{
    m_transport = nullptr;
    m_protocol = nullptr;
    m_onDone = Callback<void, uint64_t>();
    Object::DoDispose();
}

Ptr<CollectiveAlgorithm>
CollectiveAlgorithm::Create(CollectiveOp op, const std::string& name)
{
    return CollectiveAlgorithmRegistry::Get(op, name).create();
}

void
CollectiveAlgorithm::Setup(const Communicator& comm, uint64_t bytes)
{
    Build(comm, bytes, {});
}

void
CollectiveAlgorithm::Setup(const Communicator& comm, uint64_t bytes, const std::vector<bool>& local)
{
    if (local.size() != comm.GetSize())
    {
        throw std::invalid_argument("CollectiveAlgorithm::Setup: " + std::to_string(local.size()) +
                                    " local flags for a communicator of " +
                                    std::to_string(comm.GetSize()) + " ranks");
    }
    if (std::all_of(local.begin(), local.end(), [](bool l) { return l; }))
    {
        Build(comm, bytes, {});
        return;
    }
    Build(comm, bytes, local);
    if (!m_depsAtSource)
    {
        // a local source may wait for a transfer no local host sends or receives
        Build(comm, bytes, {});
    }
}

void
CollectiveAlgorithm::Build(const Communicator& comm, uint64_t bytes, const std::vector<bool>& local)
{
    NS_LOG_FUNCTION(this << comm.GetSize() << bytes << local.size());
    if (m_running)
    {
        throw std::logic_error("CollectiveAlgorithm::Setup while an operation is running");
    }
    if (comm.GetSize() == 0)
    {
        throw std::invalid_argument("collective on a communicator with zero ranks; at least 1 "
                                    "rank is required");
    }
    m_comm = comm;
    m_bytes = bytes;
    m_setup = false; // (the columns are read as unsealed until the build ends)
    m_setupAlignBytes = m_unitAlignBytes;
    m_tSlot.Clear();
    m_tUnitBegin.Clear();
    m_tUnitCount.Clear();
    m_tDepsReduce.Clear();
    m_nHeld = 0;
    m_nTransfers = 0;
    m_filter = !local.empty();
    m_local.assign(local.begin(), local.end());
    m_heldIndex.clear();
    m_heldBits.clear();
    m_heldBefore.clear();
    m_depBegin.Clear();
    m_depList.Clear();
    m_buildEdgeDeps.Clear();
    m_buildDst.clear();
    m_slotOf.clear();
    m_slotPeers.clear();
    m_nSlots = 0;
    m_depsAtSource = true;
    m_nUnits = 0;
    m_channelUnits = 0;
    m_nChannels = std::max<uint32_t>(1, m_channels);
    m_buildChannel = 0;
    m_unitOffset = 0;
    if (BuildsChannels())
    {
        BuildSchedule();
    }
    else
    {
        for (uint32_t c = 0; c < m_nChannels; ++c)
        {
            m_buildChannel = c;
            m_unitOffset = c * m_channelUnits; // SetNUnits sets it for channel 0
            BuildSchedule();
        }
    }
    m_buildChannel = 0;
    m_unitOffset = 0;
    std::unordered_map<uint64_t, uint32_t>().swap(m_slotOf);
    std::vector<uint32_t>().swap(m_buildDst);
    m_tSlot.Seal();
    m_tUnitBegin.Seal();
    m_tUnitCount.Seal();
    m_tDepsReduce.Seal();
    const uint32_t held = m_nHeld;
    {
        // each slot's transfers in order (a stable counting sort by slot)
        std::vector<uint32_t> begin(m_nSlots + 1, 0);
        for (uint32_t i = 0; i < held; ++i)
        {
            begin[TSlot(i) + 1]++;
        }
        for (uint32_t k = 0; k < m_nSlots; ++k)
        {
            begin[k + 1] += begin[k];
        }
        std::vector<uint32_t> list(held);
        std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
        for (uint32_t i = 0; i < held; ++i)
        {
            list[fill[TSlot(i)]++] = i;
        }
        m_slotSeqBegin.Clear();
        m_slotSeqList.Clear();
        for (uint32_t b : begin)
        {
            m_slotSeqBegin.Append(b);
        }
        for (uint32_t t : list)
        {
            m_slotSeqList.Append(t);
        }
        m_slotSeqBegin.Seal();
        m_slotSeqList.Seal();
    }
    {
        // the dependents, grouped by dependency in the order they were added (a stable
        // counting sort of the edges: held transfer i's TNDeps(i) edges are the next ones
        // of m_buildEdgeDeps)
        m_buildEdgeDeps.Seal();
        const uint64_t edges = m_buildEdgeDeps.Size();
        std::vector<uint32_t> fill(held + 1, 0);
        for (uint64_t e = 0; e < edges; ++e)
        {
            fill[m_buildEdgeDeps[e] + 1]++;
        }
        for (uint32_t i = 0; i < held; ++i)
        {
            fill[i + 1] += fill[i];
        }
        for (uint32_t b : fill)
        {
            m_depBegin.Append(b);
        }
        m_depBegin.Seal();
        std::vector<uint32_t> list(edges);
        uint64_t e = 0;
        for (uint32_t i = 0; i < held; ++i)
        {
            for (uint32_t k = TNDeps(i); k > 0; --k)
            {
                list[fill[m_buildEdgeDeps[e++]]++] = i;
            }
        }
        m_buildEdgeDeps.Clear();
        std::vector<uint32_t>().swap(fill);
        for (uint32_t d : list)
        {
            m_depList.Append(d);
        }
        m_depList.Seal();
    }
    m_heldIndex.shrink_to_fit();
    m_setup = true;
}

uint32_t
CollectiveAlgorithm::LocalIndex(uint32_t global) const
{
    if (!m_filter)
    {
        return global < m_nHeld ? global : NOT_HELD;
    }
    const uint32_t word = global / 64;
    if (word >= m_heldBits.size())
    {
        return NOT_HELD;
    }
    const uint64_t bit = 1ULL << (global % 64);
    if (!(m_heldBits[word] & bit))
    {
        return NOT_HELD;
    }
    return m_heldBefore[word] +
           static_cast<uint32_t>(__builtin_popcountll(m_heldBits[word] & (bit - 1)));
}

bool
CollectiveAlgorithm::IsSetup() const
{
    return m_setup;
}

const Communicator&
CollectiveAlgorithm::GetCommunicator() const
{
    return m_comm;
}

uint64_t
CollectiveAlgorithm::GetBytes() const
{
    return m_bytes;
}

uint32_t
CollectiveAlgorithm::GetNChannels() const
{
    return m_nChannels;
}

void
CollectiveAlgorithm::SetProtocol(Ptr<CollectiveProtocol> protocol, uint32_t hostsPerServer)
{
    m_protocol = protocol;
    m_hostsPerServer = std::max<uint32_t>(hostsPerServer, 1);
    if (m_protocol)
    {
        m_chunkBytes = m_protocol->GetStepBytes();
        // NCCL's counterpart for the per-call base latency: its own name, else the ring's
        m_ncclAlgorithm = NcclAlgorithm::RING;
        m_ncclRing = false;
        try
        {
            m_ncclAlgorithm = NcclAlgorithmFromString(GetName());
            m_ncclRing = m_ncclAlgorithm == NcclAlgorithm::RING;
        }
        catch (const std::invalid_argument&)
        {
        }
    }
}

Ptr<CollectiveProtocol>
CollectiveAlgorithm::GetProtocol() const
{
    return m_protocol;
}

bool
CollectiveAlgorithm::BuildsChannels() const
{
    return false;
}

void
CollectiveAlgorithm::SetNUnits(uint32_t nUnits)
{
    // the transfers' bytes are computed from the unit count of the whole schedule
    if (m_nTransfers > 0 && nUnits != m_channelUnits)
    {
        throw std::logic_error("CollectiveAlgorithm::SetNUnits(" + std::to_string(nUnits) +
                               ") after transfers of " + std::to_string(m_channelUnits) +
                               " units were added; set the units once, before AddTransfer");
    }
    if (BuildsChannels())
    {
        m_channelUnits = nUnits;
        m_nUnits = nUnits;
        return;
    }
    // every channel's schedule is the same over an equal slice: same unit count
    NS_ASSERT(m_buildChannel == 0 || nUnits == m_channelUnits);
    if (static_cast<uint64_t>(nUnits) * m_nChannels > 0xffffffffULL)
    {
        throw std::invalid_argument("collective schedule of " + std::to_string(nUnits) +
                                    " units x " + std::to_string(m_nChannels) +
                                    " channels exceeds 2^32 units");
    }
    m_channelUnits = nUnits;
    m_nUnits = nUnits * m_nChannels;
    m_unitOffset = m_buildChannel * nUnits;
}

uint32_t
CollectiveAlgorithm::GetChannelUnits() const
{
    return m_channelUnits;
}

uint64_t
CollectiveAlgorithm::GetChannelBytes() const
{
    return BuildsChannels() ? m_bytes : m_bytes / m_nChannels;
}

void
CollectiveAlgorithm::SetBuildChannel(uint32_t channel)
{
    NS_ASSERT(BuildsChannels() && channel < m_nChannels);
    m_buildChannel = channel;
}

uint32_t
CollectiveAlgorithm::GetBuildChannel() const
{
    return m_buildChannel;
}

uint32_t
CollectiveAlgorithm::GetNUnits() const
{
    return m_nUnits;
}

uint64_t
CollectiveAlgorithm::GetUnitBytes(uint32_t begin, uint32_t end) const
{
    return UnitBytes(begin, end, m_unitAlignBytes);
}

uint64_t
CollectiveAlgorithm::UnitBytesAtSetup(uint32_t begin, uint32_t end) const
{
    return UnitBytes(begin, end, m_setupAlignBytes);
}

uint64_t
CollectiveAlgorithm::UnitBytes(uint32_t begin, uint32_t end, uint32_t align) const
{
    if (m_nUnits == 0)
    {
        return 0;
    }
    if (align > 0)
    {
        // unit u spans [min(S, u a), min(S, (u+1) a)), a = ceil(S / U) aligned up
        const uint64_t per = (m_bytes + m_nUnits - 1) / m_nUnits;
        const uint64_t a = (per + align - 1) / align * align;
        using u128w = unsigned __int128;
        const auto at = [&](uint32_t u) {
            return static_cast<uint64_t>(std::min<u128w>(m_bytes, static_cast<u128w>(a) * u));
        };
        return at(end) - at(begin);
    }
    // unit u spans [S u / U, S (u+1) / U): sizes differ by at most one byte
    uint64_t whole;
    if (!__builtin_mul_overflow(m_bytes, static_cast<uint64_t>(m_nUnits), &whole))
    {
        // S U fits in 64 bits (end <= U): the same quotients without 128-bit division
        return m_bytes * end / m_nUnits - m_bytes * begin / m_nUnits;
    }
    using u128 = unsigned __int128;
    u128 s = m_bytes;
    return static_cast<uint64_t>(s * end / m_nUnits - s * begin / m_nUnits);
}

uint32_t
CollectiveAlgorithm::ChunksFor(uint64_t bytes) const
{
    if (m_chunkBytes == 0 || bytes <= m_chunkBytes)
    {
        return 1;
    }
    uint64_t c = (bytes + m_chunkBytes - 1) / m_chunkBytes;
    if (c > (1u << 20))
    {
        throw std::invalid_argument("ChunkBytes " + std::to_string(m_chunkBytes) + " splits " +
                                    std::to_string(bytes) + " bytes into " + std::to_string(c) +
                                    " chunks; at most 2^20 are allowed");
    }
    return static_cast<uint32_t>(c);
}

uint32_t
CollectiveAlgorithm::AddTransfer(uint32_t src,
                                 uint32_t dst,
                                 uint32_t unitBegin,
                                 uint32_t unitEnd,
                                 bool reduce,
                                 const std::vector<uint32_t>& deps)
{
    NS_ASSERT(src < m_comm.GetSize() && dst < m_comm.GetSize() && src != dst);
    NS_ASSERT(unitBegin < unitEnd && unitEnd <= m_channelUnits);
    unitBegin += m_unitOffset;
    unitEnd += m_unitOffset;
    if (m_nTransfers >= 0xffffffffu)
    {
        throw std::invalid_argument("collective schedule exceeds 2^32 transfers");
    }
    uint64_t n = m_comm.GetSize();
    uint64_t key = (m_buildChannel * n + src) * n + dst;
    auto it = m_slotOf.find(key);
    if (it == m_slotOf.end())
    {
        it = m_slotOf.emplace(key, m_nSlots++).first;
        m_slotPeers.push_back({src, dst, m_buildChannel});
    }
    const uint32_t index = m_nTransfers++;
    for (uint32_t d : deps)
    {
        NS_ASSERT(d < index);
        const uint32_t depDst = m_filter ? m_buildDst[d] : m_slotPeers[m_tSlot.GetAny(d)].dst;
        m_depsAtSource = m_depsAtSource && depDst == src;
    }
    if (m_filter)
    {
        m_buildDst.push_back(dst);
        if (index % 64 == 0)
        {
            m_heldBits.push_back(0);
            m_heldBefore.push_back(m_nHeld);
        }
        if (!m_local[src] && !m_local[dst])
        {
            return index; // neither host is simulated here
        }
        m_heldBits.back() |= 1ULL << (index % 64);
        m_heldIndex.push_back(index);
    }
    uint32_t nDeps = 0;
    for (uint32_t d : deps)
    {
        const uint32_t ld = m_filter ? LocalIndex(d) : d;
        if (ld != NOT_HELD)
        {
            m_buildEdgeDeps.Append(ld);
            nDeps++;
        }
    }
    if (nDeps >= 0x80000000u)
    {
        throw std::invalid_argument("collective transfer with " + std::to_string(nDeps) +
                                    " dependencies; at most 2^31 - 1 are allowed");
    }
    m_tSlot.Append(it->second);
    m_tUnitBegin.Append(unitBegin);
    m_tUnitCount.Append(unitEnd - unitBegin);
    m_tDepsReduce.Append(nDeps * 2 + (reduce ? 1 : 0));
    m_nHeld++;
    return index;
}

std::vector<std::vector<uint32_t>>
CollectiveAlgorithm::AddRingPhase(
    const std::vector<uint32_t>& ring,
    uint32_t nChunks,
    bool reduce,
    const std::function<std::pair<uint32_t, uint32_t>(uint32_t, uint32_t)>& units,
    const std::vector<std::vector<uint32_t>>& extraDeps)
{
    uint32_t n = static_cast<uint32_t>(ring.size());
    std::vector<std::vector<uint32_t>> delivered(static_cast<size_t>(n) * nChunks);
    if (n < 2)
    {
        return delivered;
    }
    std::vector<uint32_t> prev(static_cast<size_t>(n) * nChunks);
    std::vector<uint32_t> cur(prev.size());
    std::vector<uint32_t> deps;
    for (uint32_t step = 0; step + 1 < n; ++step)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            // reduce-scatter sends segment i-1-step, all-gather segment i-step
            uint32_t seg = (i + 2 * n - step - (reduce ? 1 : 0)) % n;
            uint32_t left = (i + n - 1) % n;
            for (uint32_t c = 0; c < nChunks; ++c)
            {
                deps.clear();
                if (step > 0)
                {
                    // the segment forwarded now is the one that arrived from the left
                    deps.push_back(prev[left * nChunks + c]);
                }
                if (!extraDeps.empty())
                {
                    const auto& e = extraDeps[i * nChunks + c];
                    deps.insert(deps.end(), e.begin(), e.end());
                }
                auto r = units(seg, c);
                cur[i * nChunks + c] =
                    AddTransfer(ring[i], ring[(i + 1) % n], r.first, r.second, reduce, deps);
            }
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t c = 0; c < nChunks; ++c)
            {
                delivered[((i + 1) % n) * nChunks + c].push_back(cur[i * nChunks + c]);
            }
        }
        std::swap(prev, cur);
    }
    return delivered;
}

void
CollectiveAlgorithm::Start(Ptr<CollectiveTransport> transport,
                           uint64_t tagBase,
                           Callback<void, uint64_t> onDone)
{
    NS_LOG_FUNCTION(this << tagBase);
    NS_ABORT_MSG_IF(!m_setup, "CollectiveAlgorithm::Start before Setup");
    NS_ABORT_MSG_IF(m_running, "CollectiveAlgorithm::Start while the previous run is going");
    NS_ABORT_MSG_IF((tagBase & 0xffffffffULL) != 0, "tagBase must have its low 32 bits zero");
    transport = UseTransport(transport);
    m_runsMode = false;
    m_transport = transport;
    m_tagBase = tagBase;
    m_onDone = onDone;
    m_running = true;
    m_completed = 0;
    m_unacked = 0; // (completions of an earlier run still due: its caller filters them)
    m_lastCompletion = Time(-1);
    const uint32_t nt = m_nHeld;
    m_pendingDeps.resize(nt);
    for (uint32_t i = 0; i < nt; ++i)
    {
        m_pendingDeps[i] = TNDeps(i);
    }
    m_inFlight.assign(m_nSlots, 0);
    m_inOrder = transport->NeedsTransferOrder();
    m_waiting.assign(m_nSlots, std::deque<uint32_t>());
    m_slotNext.assign(m_nSlots, 0);
    m_ready.assign(m_inOrder ? nt : 0, 0);
    if (m_track)
    {
        uint32_t n = m_comm.GetSize();
        m_words = (n + 63) / 64;
        m_masks.assign(static_cast<size_t>(n) * m_nUnits * m_words, 0);
        bool gather = GetOp() == CollectiveOp::ALL_GATHER || GetOp() == CollectiveOp::ALL_TO_ALL;
        for (uint32_t r = 0; r < n; ++r)
        {
            for (uint32_t u = 0; u < m_nUnits; ++u)
            {
                if (!gather || GetUnitOwner(u % m_channelUnits) == r)
                {
                    Mask(r, u)[r / 64] |= 1ULL << (r % 64);
                }
            }
        }
        m_snapshots.assign(nt, std::vector<uint64_t>());
    }
    // Every connection of the run, in the order of its first transfer (every process
    // alike), then each held transfer in index order: a transport that matches receives
    // in advance makes the connections and posts the receives now, before the first Send.
    transport->BeginOperation(tagBase, m_nTransfers);
    for (const SlotPeers& p : m_slotPeers)
    {
        transport->ExpectConnection(m_comm.GetHost(p.src), m_comm.GetHost(p.dst), p.channel);
    }
    for (uint32_t i = 0; i < nt; ++i)
    {
        const SlotPeers& p = m_slotPeers[TSlot(i)];
        transport->Expect(m_comm.GetHost(p.src),
                          m_comm.GetHost(p.dst),
                          tagBase | GlobalIndex(i),
                          p.channel);
    }
    if (m_nTransfers == 0)
    {
        // one rank: nothing to exchange, done now (asynchronously, like any completion)
        Simulator::ScheduleNow(&CollectiveAlgorithm::Complete, this, 0xffffffffu);
        return;
    }
    // The protocol's per-call cost (NCCL's baseLat: launch and setup) before the first step.
    const Time base = m_protocol ? m_protocol->GetBaseLatency(m_ncclAlgorithm) : Time(0);
    // NCCL's ring: each rank's channel runs its steps one after another in one block
    m_channelFree.clear();
    if (m_ncclRing && m_protocol && m_protocol->HasChannelStepTime())
    {
        m_channelFree.assign(static_cast<size_t>(m_comm.GetSize()) * m_nChannels,
                             Simulator::Now() + base);
    }
    if (base.IsStrictlyPositive())
    {
        Simulator::Schedule(base, &CollectiveAlgorithm::PostInitial, this);
    }
    else
    {
        PostInitial();
    }
}

namespace
{
/// A compressed list per key: the items of key k are list[begin[k] .. begin[k + 1]), in
/// the order given. \p keyOf(i) is the key of item i, or \p none to leave it out.
template <typename KeyOf>
void
GroupByKey(uint32_t keys,
           uint32_t items,
           uint32_t none,
           KeyOf keyOf,
           std::vector<uint32_t>& begin,
           std::vector<uint32_t>& list)
{
    begin.assign(keys + 1, 0);
    for (uint32_t i = 0; i < items; ++i)
    {
        const uint32_t k = keyOf(i);
        if (k != none)
        {
            begin[k + 1]++;
        }
    }
    for (uint32_t k = 0; k < keys; ++k)
    {
        begin[k + 1] += begin[k];
    }
    list.resize(begin[keys]);
    std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
    for (uint32_t i = 0; i < items; ++i)
    {
        const uint32_t k = keyOf(i);
        if (k != none)
        {
            list[fill[k]++] = i;
        }
    }
}
} // namespace

bool
CollectiveAlgorithm::CanStartRuns(Ptr<CollectiveTransport> transport)
{
    return m_setup && !m_track && m_nTransfers > 0 && UseTransport(transport) == transport;
}

void
CollectiveAlgorithm::StartRuns(Ptr<CollectiveTransport> transport,
                               uint32_t runs,
                               Time gap,
                               std::function<uint64_t(uint32_t)> tagBaseOf,
                               Callback<void, uint32_t> onRunDone)
{
    NS_LOG_FUNCTION(this << runs << gap);
    NS_ABORT_MSG_IF(m_running, "CollectiveAlgorithm::StartRuns while a run is going");
    NS_ABORT_MSG_IF(!CanStartRuns(transport),
                    "CollectiveAlgorithm::StartRuns: not set up, no transfers, "
                    "TrackContributions on or a transport of its own (use Start)");
    NS_ABORT_MSG_IF(runs == 0 || runs > 4096, "StartRuns: " << runs << " runs (allowed 1..4096)");
    m_runsMode = true;
    m_transport = transport;
    m_runs = runs;
    m_maxStarted = 0;
    m_runGap = gap;
    m_tagBaseOf = std::move(tagBaseOf);
    m_onRunDone = onRunDone;
    m_running = true;
    m_completed = 0;
    m_completedTotal = 0;
    m_unacked = 0;
    m_lastCompletion = Time(-1);
    m_inOrder = transport->NeedsTransferOrder();
    m_inFlight.assign(m_nSlots, 0);
    m_waitingRun.assign(m_nSlots, {});
    const uint32_t n = m_comm.GetSize();
    const uint32_t nt = m_nHeld;
    m_hostIsLocal.assign(n, 0);
    m_localHosts = 0;
    for (uint32_t h = 0; h < n; ++h)
    {
        m_hostIsLocal[h] = transport->IsLocal(m_comm.GetHost(h)) ? 1 : 0;
        m_localHosts += m_hostIsLocal[h];
    }
    m_recvCount.assign(n, 0);
    m_sendCount.assign(n, 0);
    for (uint32_t i = 0; i < nt; ++i)
    {
        const SlotPeers& p = m_slotPeers[TSlot(i)];
        m_recvCount[p.dst] += m_hostIsLocal[p.dst];
        m_sendCount[p.src] += m_hostIsLocal[p.src];
    }
    GroupByKey(
        n,
        nt,
        NO_RUN,
        [this](uint32_t i) {
            const uint32_t src = TSrc(i);
            return TNDeps(i) == 0 && m_hostIsLocal[src] ? src : NO_RUN;
        },
        m_initialBegin,
        m_initialList);
    GroupByKey(
        n,
        m_nSlots,
        NO_RUN,
        [this](uint32_t s) {
            return m_hostIsLocal[m_slotPeers[s].src] ? m_slotPeers[s].src : NO_RUN;
        },
        m_hostSlotBegin,
        m_hostSlotList);
    GroupByKey(
        n,
        nt,
        NO_RUN,
        [this](uint32_t i) {
            const SlotPeers& p = m_slotPeers[TSlot(i)];
            return m_hostIsLocal[p.dst] ? p.dst : p.src;
        },
        m_expectBegin,
        m_expectList);
    m_hostRun.assign(n, NO_RUN);
    m_deferred.assign(n, {});
    m_runTimes.assign(runs, RunTimes());
    m_channelFree.clear();
    const Time base = m_protocol ? m_protocol->GetBaseLatency(m_ncclAlgorithm) : Time(0);
    if (m_ncclRing && m_protocol && m_protocol->HasChannelStepTime())
    {
        m_channelFree.assign(static_cast<size_t>(n) * m_nChannels, Simulator::Now() + base);
    }
    // Every run's message ids in run order, every connection in the order of its first
    // transfer, then run 0's receives (every process alike, as Start does per run).
    for (uint32_t r = 0; r < runs; ++r)
    {
        transport->BeginOperation(m_tagBaseOf(r), m_nTransfers);
    }
    for (const SlotPeers& p : m_slotPeers)
    {
        transport->ExpectConnection(m_comm.GetHost(p.src), m_comm.GetHost(p.dst), p.channel);
    }
    const uint64_t base0 = m_tagBaseOf(0);
    for (uint32_t i = 0; i < nt; ++i)
    {
        const SlotPeers& p = m_slotPeers[TSlot(i)];
        transport->Expect(m_comm.GetHost(p.src),
                          m_comm.GetHost(p.dst),
                          base0 | GlobalIndex(i),
                          p.channel);
    }
    m_run[0].run = NO_RUN;
    m_run[1].run = NO_RUN;
    ResetRun(0);
    if (runs > 1)
    {
        ResetRun(1);
    }
    for (uint32_t h = 0; h < n && m_onHostRunDone.IsNull(); ++h)
    {
        if (m_hostIsLocal[h])
        {
            HostStart(h, 0);
        }
    }
}

void
CollectiveAlgorithm::SetCallerStartsRuns(Callback<void, uint32_t, uint32_t> onHostRunDone)
{
    NS_ABORT_MSG_IF(m_running, "CollectiveAlgorithm::SetCallerStartsRuns while running");
    m_onHostRunDone = onHostRunDone;
}

void
CollectiveAlgorithm::StartHostRun(uint32_t h, uint32_t run)
{
    NS_ABORT_MSG_IF(!m_runsMode || !m_running || m_onHostRunDone.IsNull() ||
                        h >= m_hostIsLocal.size() || !m_hostIsLocal[h] || m_hostRun[h] != NO_RUN ||
                        run >= m_runs,
                    "CollectiveAlgorithm::StartHostRun(" << h << ", " << run
                                                         << "): not a host here between runs");
    HostStart(h, run);
}

void
CollectiveAlgorithm::ResetRun(uint32_t run)
{
    RunState& rs = m_run[run % 2];
    rs.run = run;
    rs.tagBase = m_tagBaseOf(run);
    const uint32_t nt = m_nHeld;
    rs.pendingDeps.resize(nt);
    for (uint32_t i = 0; i < nt; ++i)
    {
        rs.pendingDeps[i] = TNDeps(i);
    }
    rs.ready.assign(m_inOrder ? nt : 0, 0);
    rs.slotNext.assign(m_nSlots, 0);
    rs.recvLeft = m_recvCount;
    rs.sendLeft = m_sendCount;
}

void
CollectiveAlgorithm::HostStart(uint32_t h, uint32_t run)
{
    if (run >= m_runs)
    {
        return; // StopRuns came during the gap
    }
    m_maxStarted = std::max(m_maxStarted, run);
    RunTimes& t = m_runTimes[run];
    if (t.firstStart.IsStrictlyNegative())
    {
        t.firstStart = Simulator::Now();
    }
    if (run + 1 < m_runs)
    {
        // the next run's receives, after this run's on every connection
        const uint64_t next = m_tagBaseOf(run + 1);
        for (uint32_t k = m_expectBegin[h]; k < m_expectBegin[h + 1]; ++k)
        {
            const SlotPeers& p = m_slotPeers[TSlot(m_expectList[k])];
            m_transport->Expect(m_comm.GetHost(p.src),
                                m_comm.GetHost(p.dst),
                                next | GlobalIndex(m_expectList[k]),
                                p.channel);
        }
    }
    // the protocol's per-call cost (NCCL's baseLat) before the host's first step
    const Time base = m_protocol ? m_protocol->GetBaseLatency(m_ncclAlgorithm) : Time(0);
    if (base.IsStrictlyPositive())
    {
        Simulator::Schedule(base, &CollectiveAlgorithm::HostPost, this, h, run);
    }
    else
    {
        HostPost(h, run);
    }
}

void
CollectiveAlgorithm::HostPost(uint32_t h, uint32_t run)
{
    RunState& rs = m_run[run % 2];
    NS_ABORT_MSG_IF(rs.run != run,
                    "collective run " << run << " started while run " << rs.run
                                      << " holds its state");
    m_hostRun[h] = run;
    for (uint32_t c = 0; c < m_nChannels && !m_channelFree.empty(); ++c)
    {
        Time& free = m_channelFree[static_cast<size_t>(h) * m_nChannels + c];
        free = std::max(free, Simulator::Now());
    }
    for (uint32_t k = m_initialBegin[h]; k < m_initialBegin[h + 1]; ++k)
    {
        MakeReadyRun(rs, m_initialList[k]);
    }
    // what became ready before the host started this run
    if (m_inOrder)
    {
        for (uint32_t k = m_hostSlotBegin[h]; k < m_hostSlotBegin[h + 1]; ++k)
        {
            PostInOrderRun(rs, m_hostSlotList[k]);
        }
    }
    else
    {
        std::vector<uint32_t> deferred;
        deferred.swap(m_deferred[h]);
        for (uint32_t i : deferred)
        {
            MakeReadyRun(rs, i);
        }
    }
    CheckHostDone(h, run);
}

void
CollectiveAlgorithm::MakeReadyRun(RunState& rs, uint32_t index)
{
    const uint32_t slot = TSlot(index);
    const uint32_t src = m_slotPeers[slot].src;
    if (!m_hostIsLocal[src])
    {
        return; // across MPI ranks: the source's rank posts it
    }
    if (m_inOrder)
    {
        rs.ready[index] = 1;
        PostInOrderRun(rs, slot); // (nothing while its source is not in this run)
    }
    else if (m_hostRun[src] != rs.run)
    {
        m_deferred[src].push_back(index); // its source starts this run later
    }
    else if (m_maxInFlight == 0 || m_inFlight[slot] < m_maxInFlight)
    {
        PostRun(rs, index);
    }
    else
    {
        m_waitingRun[slot].emplace_back(rs.run % 2, index);
    }
}

void
CollectiveAlgorithm::PostInOrderRun(RunState& rs, uint32_t slot)
{
    if (m_hostRun[m_slotPeers[slot].src] != rs.run)
    {
        return;
    }
    const uint32_t first = m_slotSeqBegin[slot];
    const uint32_t size = m_slotSeqBegin[slot + 1] - first;
    uint32_t& next = rs.slotNext[slot];
    while (next < size && rs.ready[m_slotSeqList[first + next]] &&
           (m_maxInFlight == 0 || m_inFlight[slot] < m_maxInFlight))
    {
        PostRun(rs, m_slotSeqList[first + next++]);
    }
}

void
CollectiveAlgorithm::PostRun(RunState& rs, uint32_t index)
{
    const uint32_t slot = TSlot(index);
    const SlotPeers& p = m_slotPeers[slot];
    const uint64_t bytes = TBytes(index);
    NS_LOG_LOGIC("run " << rs.run << " post " << index << " " << p.src << "->" << p.dst << " "
                        << bytes << " B");
    m_inFlight[slot]++;
    m_unacked++;
    rs.sendLeft[p.src]--;
    m_postTrace(p.src, p.dst, bytes);
    const uint64_t wire = m_protocol ? m_protocol->GetWireBytes(bytes) : bytes;
    m_transport->Send(m_comm.GetHost(p.src),
                      m_comm.GetHost(p.dst),
                      wire,
                      rs.tagBase | GlobalIndex(index),
                      p.channel);
}

void
CollectiveAlgorithm::HandleRunDelivered(uint64_t tag)
{
    const uint64_t tagBase = tag & ~0xffffffffULL;
    const uint32_t global = static_cast<uint32_t>(tag & 0xffffffffULL);
    const uint32_t index = LocalIndex(global);
    uint32_t parity = 2;
    for (uint32_t p = 0; p < 2; ++p)
    {
        if (m_run[p].run != NO_RUN && m_run[p].tagBase == tagBase)
        {
            parity = p;
        }
    }
    NS_ABORT_MSG_IF(!m_runsMode || !m_running || index == NOT_HELD || parity == 2,
                    "delivery of collective transfer " << global << " of tag base " << tagBase
                                                       << " outside the live runs");
    const CollectiveTransfer t = MakeTransfer(index, false);
    Time stepLatency(0);
    if (m_protocol)
    {
        const bool network =
            m_comm.GetHost(t.src) / m_hostsPerServer != m_comm.GetHost(t.dst) / m_hostsPerServer;
        stepLatency = m_protocol->GetStepLatency(network);
    }
    Time delay = stepLatency;
    if (t.reduce && m_reductionRate.GetBitRate() > 0)
    {
        delay += RoundedTxTime(m_reductionRate, t.bytes);
    }
    if (!m_channelFree.empty() && t.bytes > 0)
    {
        // as HandleDelivered: the receiver's block takes its channel's steps in turn
        Time& free = m_channelFree[static_cast<size_t>(t.dst) * m_nChannels +
                                   std::min(t.channel, m_nChannels - 1)];
        const Time earliest =
            free + m_protocol->GetChannelStepTime(m_protocol->GetWireBytes(t.bytes));
        free = std::max(Simulator::Now() + delay, earliest);
        delay = free - Simulator::Now();
    }
    if (delay.IsStrictlyPositive())
    {
        Simulator::Schedule(delay, &CollectiveAlgorithm::CompleteRun, this, parity, index);
    }
    else
    {
        CompleteRun(parity, index);
    }
}

void
CollectiveAlgorithm::CompleteRun(uint32_t parity, uint32_t index)
{
    RunState& rs = m_run[parity];
    const uint32_t run = rs.run;
    m_lastCompletion = Simulator::Now();
    ++m_completed;
    ++m_completedTotal;
    const uint32_t dst = TDst(index);
    rs.recvLeft[dst]--;
    for (uint32_t k = m_depBegin[index]; k < m_depBegin[index + 1]; ++k)
    {
        const uint32_t d = m_depList[k];
        if (--rs.pendingDeps[d] == 0)
        {
            MakeReadyRun(rs, d);
        }
    }
    // (after the dependents: ending a run may reset the other run's state)
    for (uint32_t k = m_depBegin[index]; k < m_depBegin[index + 1]; ++k)
    {
        CheckHostDone(TSrc(m_depList[k]), run);
    }
    CheckHostDone(dst, run);
}

void
CollectiveAlgorithm::HandleSentRun(uint32_t index)
{
    const uint32_t slot = TSlot(index);
    const uint32_t src = m_slotPeers[slot].src;
    NS_ABORT_MSG_IF(m_inFlight[slot] == 0,
                    "transfer " << index << " completed twice at its sender");
    m_inFlight[slot]--;
    const uint32_t run = m_hostRun[src];
    if (run == NO_RUN)
    {
        return; // between runs: its next run posts what waits
    }
    RunState& rs = m_run[run % 2];
    if (m_inOrder)
    {
        PostInOrderRun(rs, slot);
    }
    else if (!m_waitingRun[slot].empty())
    {
        const auto [parity, next] = m_waitingRun[slot].front();
        m_waitingRun[slot].pop_front();
        PostRun(m_run[parity], next);
    }
    CheckHostDone(src, run);
}

void
CollectiveAlgorithm::CheckHostDone(uint32_t h, uint32_t run)
{
    if (!m_hostIsLocal[h] || m_hostRun[h] != run)
    {
        return;
    }
    const RunState& rs = m_run[run % 2];
    if (rs.recvLeft[h] != 0 || rs.sendLeft[h] != 0)
    {
        return;
    }
    // h's part of the run is done: its kernel ends; the next starts after the gap
    m_hostRun[h] = NO_RUN;
    RunTimes& t = m_runTimes[run];
    t.lastEnd = Simulator::Now();
    t.hostsDone++;
    NS_LOG_LOGIC("host " << h << " ended run " << run);
    if (!m_onHostRunDone.IsNull())
    {
        // the caller starts the host's next run (after returning from this one)
        Simulator::ScheduleNow(&CollectiveAlgorithm::NotifyHostRunDone, this, h, run);
    }
    else if (run + 1 < m_runs)
    {
        Simulator::Schedule(m_runGap, &CollectiveAlgorithm::HostStart, this, h, run + 1);
    }
    if (t.hostsDone < m_localHosts)
    {
        return;
    }
    // every host here ended the run: its state takes run + 2 (no message of run + 2
    // exists before every host started run + 1)
    if (run + 2 < m_runs)
    {
        ResetRun(run + 2);
    }
    if (run + 1 == m_runs)
    {
        m_running = false;
    }
    if (!m_onRunDone.IsNull())
    {
        m_onRunDone(run);
    }
}

void
CollectiveAlgorithm::NotifyHostRunDone(uint32_t h, uint32_t run)
{
    m_onHostRunDone(h, run);
}

void
CollectiveAlgorithm::StopRuns()
{
    if (!m_runsMode || !m_running || m_maxStarted + 1 >= m_runs)
    {
        return;
    }
    const uint32_t last = m_maxStarted + 1;
    for (uint32_t r = last; r < m_runs; ++r)
    {
        m_transport->AbandonOperation(m_tagBaseOf(r), m_nTransfers);
    }
    m_runs = last;
    m_running = m_runTimes[last - 1].hostsDone < m_localHosts;
}

bool
CollectiveAlgorithm::IsRunningRuns() const
{
    return m_runsMode && m_running;
}

const std::vector<CollectiveAlgorithm::RunTimes>&
CollectiveAlgorithm::GetRunTimes() const
{
    return m_runTimes;
}

void
CollectiveAlgorithm::PostInitial()
{
    for (uint32_t i = 0; i < m_nHeld; ++i)
    {
        if (TNDeps(i) == 0)
        {
            MakeReady(i);
        }
    }
}

Ptr<CollectiveTransport>
CollectiveAlgorithm::UseTransport(Ptr<CollectiveTransport> transport)
{
    return transport;
}

bool
CollectiveAlgorithm::IsRunning() const
{
    return m_running;
}

uint32_t
CollectiveAlgorithm::GetCompletedTransfers() const
{
    return m_runsMode ? static_cast<uint32_t>(m_completedTotal) : m_completed;
}

uint32_t
CollectiveAlgorithm::GetUnacknowledged() const
{
    return m_unacked;
}

Time
CollectiveAlgorithm::GetLastCompletion() const
{
    return m_lastCompletion;
}

bool
CollectiveAlgorithm::DependsOnlyOnDeliveriesAtSource() const
{
    return m_depsAtSource;
}

void
CollectiveAlgorithm::MakeReady(uint32_t index)
{
    const uint32_t slot = TSlot(index);
    if (!m_transport->IsLocal(m_comm.GetHost(m_slotPeers[slot].src)))
    {
        return; // across MPI ranks: the source's rank posts it
    }
    if (m_inOrder)
    {
        m_ready[index] = 1;
        PostInOrder(slot);
    }
    else if (m_maxInFlight == 0 || m_inFlight[slot] < m_maxInFlight)
    {
        Post(index);
    }
    else
    {
        m_waiting[slot].push_back(index);
    }
}

void
CollectiveAlgorithm::PostInOrder(uint32_t slot)
{
    const uint32_t first = m_slotSeqBegin[slot];
    const uint32_t size = m_slotSeqBegin[slot + 1] - first;
    uint32_t& next = m_slotNext[slot];
    while (next < size && m_ready[m_slotSeqList[first + next]] &&
           (m_maxInFlight == 0 || m_inFlight[slot] < m_maxInFlight))
    {
        Post(m_slotSeqList[first + next++]);
    }
}

void
CollectiveAlgorithm::Post(uint32_t index)
{
    const uint32_t slot = TSlot(index);
    const SlotPeers& p = m_slotPeers[slot];
    const uint64_t bytes = TBytes(index);
    NS_LOG_LOGIC("post " << index << " " << p.src << "->" << p.dst << " " << bytes << " B");
    m_inFlight[slot]++;
    m_unacked++;
    if (m_track)
    {
        const uint32_t unitBegin = m_tUnitBegin[index];
        auto& snap = m_snapshots[index];
        snap.assign(Mask(p.src, unitBegin), Mask(p.src, unitBegin) + m_tUnitCount[index] * m_words);
    }
    m_postTrace(p.src, p.dst, bytes);
    // the protocol's lines on the wire; the payload is what the operation accounts
    const uint64_t wire = m_protocol ? m_protocol->GetWireBytes(bytes) : bytes;
    m_transport->Send(m_comm.GetHost(p.src),
                      m_comm.GetHost(p.dst),
                      wire,
                      m_tagBase | GlobalIndex(index),
                      p.channel);
}

void
CollectiveAlgorithm::HandleDelivered(uint32_t global)
{
    const uint32_t index = LocalIndex(global);
    NS_ABORT_MSG_IF(!m_running || index == NOT_HELD,
                    "delivery of unknown collective transfer " << global);
    // (the facts it needs, read from the columns one by one: this runs per message)
    const SlotPeers& p = m_slotPeers[TSlot(index)];
    const bool reduce = TReduce(index);
    if (m_track)
    {
        const auto& snap = m_snapshots[index];
        uint64_t* dst = Mask(p.dst, m_tUnitBegin[index]);
        for (size_t w = 0; w < snap.size(); ++w)
        {
            dst[w] |= snap[w];
        }
    }
    // The protocol's fixed cost of the step (its fence, flag and flush), by the hop's kind.
    Time stepLatency(0);
    if (m_protocol)
    {
        const bool network =
            m_comm.GetHost(p.src) / m_hostsPerServer != m_comm.GetHost(p.dst) / m_hostsPerServer;
        stepLatency = m_protocol->GetStepLatency(network);
    }
    const bool reduceTime = reduce && m_reductionRate.GetBitRate() > 0;
    const uint64_t bytes = m_channelFree.empty() && !reduceTime ? 0 : TBytes(index);
    if (!m_channelFree.empty() && bytes > 0)
    {
        // the receiver's block finishes a step with lines no sooner than its step time
        // after its previous one on this channel (CollectiveProtocol::GetChannelStepTime)
        Time delay = stepLatency;
        if (reduceTime)
        {
            delay += RoundedTxTime(m_reductionRate, bytes);
        }
        Time& free = m_channelFree[static_cast<size_t>(p.dst) * m_nChannels +
                                   std::min(p.channel, m_nChannels - 1)];
        const Time earliest =
            free + m_protocol->GetChannelStepTime(m_protocol->GetWireBytes(bytes));
        free = std::max(Simulator::Now() + delay, earliest);
        Simulator::Schedule(free - Simulator::Now(), &CollectiveAlgorithm::Complete, this, index);
        return;
    }
    if (reduceTime)
    {
        Simulator::Schedule(RoundedTxTime(m_reductionRate, bytes) + stepLatency,
                            &CollectiveAlgorithm::Complete,
                            this,
                            index);
    }
    else if (stepLatency.IsStrictlyPositive())
    {
        Simulator::Schedule(stepLatency, &CollectiveAlgorithm::Complete, this, index);
    }
    else
    {
        Complete(index);
    }
}

void
CollectiveAlgorithm::HandleSent(uint32_t global)
{
    const uint32_t index = LocalIndex(global);
    NS_ABORT_MSG_IF(index == NOT_HELD || m_unacked == 0,
                    "sender completion of unknown collective transfer " << global);
    m_unacked--;
    if (m_runsMode)
    {
        HandleSentRun(index);
        return;
    }
    if (!m_running)
    {
        return; // the operation ended at its last delivery, before this completion
    }
    uint32_t ch = TSlot(index);
    NS_ABORT_MSG_IF(m_inFlight[ch] == 0, "transfer " << index << " completed twice at its sender");
    m_inFlight[ch]--;
    if (m_inOrder)
    {
        PostInOrder(ch);
    }
    else if (!m_waiting[ch].empty())
    {
        uint32_t next = m_waiting[ch].front();
        m_waiting[ch].pop_front();
        Post(next);
    }
}

std::vector<uint32_t>
CollectiveAlgorithm::GetDependents(uint32_t index) const
{
    if (index + 1 >= m_depBegin.Size())
    {
        return {};
    }
    std::vector<uint32_t> dependents;
    for (uint32_t k = m_depBegin[index]; k < m_depBegin[index + 1]; ++k)
    {
        dependents.push_back(m_depList[k]);
    }
    return dependents;
}

void
CollectiveAlgorithm::Complete(uint32_t index)
{
    if (index != 0xffffffffu)
    {
        m_lastCompletion = Simulator::Now();
        for (uint32_t k = m_depBegin[index]; k < m_depBegin[index + 1]; ++k)
        {
            const uint32_t d = m_depList[k];
            if (--m_pendingDeps[d] == 0)
            {
                MakeReady(d);
            }
        }
        ++m_completed;
    }
    if (m_completed == m_nTransfers)
    {
        m_running = false;
        m_transport = nullptr;
        Callback<void, uint64_t> cb = m_onDone;
        m_onDone = Callback<void, uint64_t>();
        if (!cb.IsNull())
        {
            cb(m_tagBase);
        }
    }
}

uint32_t
CollectiveAlgorithm::GetNTransfers() const
{
    return m_nTransfers;
}

uint32_t
CollectiveAlgorithm::GetNHeldTransfers() const
{
    return m_nHeld;
}

bool
CollectiveAlgorithm::IsHeld(uint32_t index) const
{
    return LocalIndex(index) != NOT_HELD;
}

CollectiveTransfer
CollectiveAlgorithm::GetTransfer(uint32_t index) const
{
    const uint32_t local = LocalIndex(index);
    if (local == NOT_HELD)
    {
        throw std::out_of_range("collective transfer " + std::to_string(index) +
                                (index < m_nTransfers
                                     ? " is not held in this process"
                                     : " does not exist (the graph has " +
                                           std::to_string(m_nTransfers) + " transfers)"));
    }
    return MakeTransfer(local, !m_setup);
}

CollectiveTransfer
CollectiveAlgorithm::MakeTransfer(uint32_t i, bool building) const
{
    // while building, the last transfers are in the columns' unsealed tails
    const auto get = [i, building](const CompactIndexArray& a) {
        return building ? a.GetAny(i) : a.Get(i);
    };
    CollectiveTransfer t;
    t.slot = get(m_tSlot);
    t.src = m_slotPeers[t.slot].src;
    t.dst = m_slotPeers[t.slot].dst;
    t.channel = m_slotPeers[t.slot].channel;
    t.unitBegin = get(m_tUnitBegin);
    t.unitEnd = t.unitBegin + get(m_tUnitCount);
    t.bytes = UnitBytesAtSetup(t.unitBegin, t.unitEnd);
    const uint32_t depsReduce = get(m_tDepsReduce);
    t.nDeps = depsReduce >> 1;
    t.reduce = depsReduce & 1;
    return t;
}

uint32_t
CollectiveAlgorithm::GetUnitOwner(uint32_t /* unit */) const
{
    return 0;
}

uint64_t*
CollectiveAlgorithm::Mask(uint32_t rank, uint32_t unit)
{
    return &m_masks[(static_cast<size_t>(rank) * m_nUnits + unit) * m_words];
}

const uint64_t*
CollectiveAlgorithm::Mask(uint32_t rank, uint32_t unit) const
{
    return &m_masks[(static_cast<size_t>(rank) * m_nUnits + unit) * m_words];
}

bool
CollectiveAlgorithm::VerifyContributions(std::string* why) const
{
    auto fail = [why](const std::string& s) {
        if (why)
        {
            *why = s;
        }
        return false;
    };
    if (!m_track || m_masks.empty())
    {
        return fail("TrackContributions was off or the operation never ran");
    }
    if (m_running)
    {
        return fail("operation still running");
    }
    uint32_t n = m_comm.GetSize();
    CollectiveOp op = GetOp();
    for (uint32_t r = 0; r < n; ++r)
    {
        if (m_filter && !m_local[r])
        {
            continue; // another process simulates it: what it holds is not seen here
        }
        for (uint32_t u = 0; u < m_nUnits; ++u)
        {
            const uint64_t* m = Mask(r, u);
            uint32_t count = 0;
            for (uint32_t w = 0; w < m_words; ++w)
            {
                count += static_cast<uint32_t>(__builtin_popcountll(m[w]));
            }
            bool ok = true;
            std::string expect;
            if (op == CollectiveOp::ALL_GATHER || op == CollectiveOp::ALL_TO_ALL)
            {
                uint32_t o = GetUnitOwner(u % m_channelUnits);
                ok = count == 1 && (m[o / 64] >> (o % 64)) & 1;
                expect = "exactly rank " + std::to_string(o);
            }
            else if (op == CollectiveOp::REDUCE_SCATTER)
            {
                ok = GetUnitOwner(u % m_channelUnits) != r || count == n;
                expect = "all " + std::to_string(n) + " ranks";
            }
            else
            {
                ok = count == n;
                expect = "all " + std::to_string(n) + " ranks";
            }
            if (!ok)
            {
                return fail("rank " + std::to_string(r) + " unit " + std::to_string(u) + " holds " +
                            std::to_string(count) + " contributions, expected " + expect);
            }
        }
    }
    return true;
}

} // namespace ns3
