/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-workload.h"

#include "message-kind.h"
#include "sample-quantiles.h"

#include "ns3/aggregation-manager.h"
#include "ns3/boolean.h"
#include "ns3/collective-protocol.h"
#include "ns3/communicator.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/nccl-channel-tuning.h"
#include "ns3/nccl-p2p-schedule.h"
#include "ns3/nccl-tuner.h"
#include "ns3/pointer.h"
#include "ns3/rail-ring-order.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveWorkload");

NS_OBJECT_ENSURE_REGISTERED(CollectiveWorkload);

namespace
{
} // namespace

TypeId
CollectiveWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CollectiveWorkload")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<CollectiveWorkload>();
    return tid;
}

CollectiveWorkload::CollectiveWorkload() = default;

CollectiveWorkload::~CollectiveWorkload() = default;

void
CollectiveWorkload::DoDispose()
{
    if (m_app)
    {
        m_app->Dispose();
    }
    m_app = nullptr;
    if (m_transport)
    {
        m_transport->Dispose();
    }
    m_transport = nullptr;
    if (m_fastForward)
    {
        m_fastForward->Dispose();
    }
    m_fastForward = nullptr;
    m_rowCb = RowCallback();
    m_finishedCb = Callback<void>();
    Object::DoDispose();
}

static_assert(KIND_COLLECTIVE == RdmaCollectiveTransport::KIND_COLLECTIVE,
              "the transport's kind byte is fct.csv's 'collective'");

static WorkloadRegistration g_allReduce({"allreduce",
                                         "an allreduce of --bytes per rank over --ranks, by "
                                         "--algorithm, --iterations times",
                                         WorkloadRegistry::COLLECTIVE,
                                         {}});
static WorkloadRegistration g_reduceScatter({"reducescatter",
                                             "a reduce-scatter of --bytes per rank over --ranks",
                                             WorkloadRegistry::COLLECTIVE,
                                             {}});
static WorkloadRegistration g_allGather({"allgather",
                                         "an all-gather of --bytes per rank over --ranks",
                                         WorkloadRegistry::COLLECTIVE,
                                         {}});

bool
CollectiveWorkload::Handles(const std::string& workload)
{
    return Handles(workload, 1);
}

bool
CollectiveWorkload::Handles(const std::string& workload, uint32_t gpusPerServer)
{
    return WorkloadRegistry::Has(workload) &&
           WorkloadRegistry::GetFamily(workload, gpusPerServer) == WorkloadRegistry::COLLECTIVE;
}

bool
CollectiveWorkload::IsTunerChoice(const std::string& value)
{
    return value == "auto"; // (the one name the tuner's choice has: --algorithm, --protocol)
}

uint32_t
CollectiveWorkload::ChannelsFor(const Options& c)
{
    if (c.channels)
    {
        return *c.channels;
    }
    if (c.gpusPerServer > 1 && Handles(c.operation, c.gpusPerServer))
    {
        // NCCL's count, which on GPU servers follows their NICs
        return RailRingOrder::NcclChannels(c.gpusPerServer, c.hostRate);
    }
    return CollectiveAlgorithm::DEFAULT_CHANNELS;
}

NcclTuner::Topology
CollectiveWorkload::TunerTopology(const Options& c, uint32_t ranks)
{
    NcclTuner::Topology t;
    t.ranks = ranks;
    t.gpusPerServer = c.gpusPerServer;
    t.channels = ChannelsFor(c);
    t.nicRate = c.hostRate;
    return t;
}

void
CollectiveWorkload::Setup(const Options& c, Ptr<RdmaFabric> fabric)
{
    if (!Handles(c.operation, c.gpusPerServer))
    {
        std::string names;
        for (const std::string& name : WorkloadRegistry::GetNames(WorkloadRegistry::COLLECTIVE))
        {
            names += (names.empty() ? "" : ", ") + name;
        }
        throw std::invalid_argument("--workload: '" + c.operation +
                                    "' is not a collective; the collective workloads are " + names);
    }
    if (m_app)
    {
        throw std::invalid_argument("CollectiveWorkload::Setup called twice");
    }
    uint32_t nHosts = fabric->GetNHosts();
    uint32_t n = !c.hosts.empty() ? static_cast<uint32_t>(c.hosts.size())
                 : c.ranks == 0   ? nHosts
                                  : c.ranks;
    if (n < 2 || n > nHosts)
    {
        throw std::invalid_argument("--ranks: " + std::to_string(c.ranks) + " is not possible on " +
                                    std::to_string(nHosts) +
                                    " hosts (allowed 0 = all hosts, or 2.." +
                                    std::to_string(nHosts) + ")");
    }
    // The first n hosts: a packed job, ranks in host order (neighbours share a switch);
    // or the hosts a job was placed on.
    m_hosts = c.hosts;
    if (m_hosts.empty())
    {
        for (uint32_t h = 0; h < n; ++h)
        {
            m_hosts.push_back(h);
        }
    }
    CollectiveOp op = CollectiveOpFromString(c.operation);
    uint32_t channels = ChannelsFor(c);
    // --algorithm=auto, --protocol=auto: NCCL's tuner on this communicator
    std::string algorithm = c.algorithm;
    if (op == CollectiveOp::ALL_TO_ALL && FindNcclAlgorithm(algorithm) == NcclAlgorithm::RING)
    {
        // --algorithm's default names the reductions' rings; NCCL runs an all-to-all as
        // point-to-point sends, its one registered schedule (the knob table refuses others)
        algorithm.clear();
    }
    std::string protocol = c.protocol;
    m_tuner = nlohmann::json();
    if (IsTunerChoice(algorithm) || IsTunerChoice(protocol))
    {
        Ptr<NcclTuner> tuner = CreateObject<NcclTuner>();
        const NcclTuner::Topology t = TunerTopology(c, n);
        std::vector<NcclAlgorithm> algorithms;
        std::vector<NcclProtocol> protocols;
        NcclTuner::Result r;
        try
        {
            if (!IsTunerChoice(algorithm))
            {
                algorithms.push_back(NcclAlgorithmFromString(algorithm));
            }
            if (!IsTunerChoice(protocol))
            {
                protocols.push_back(NcclProtocolFromString(protocol));
            }
            r = tuner->Choose(op, c.bytes, t, algorithms, protocols);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("--algorithm=" + c.algorithm + " --protocol=" + c.protocol +
                                        " for --workload=" + c.operation + ": " + e.what());
        }
        algorithm = NcclAlgorithmToString(r.choice.algorithm);
        protocol = NcclProtocolToString(r.choice.protocol);
        const NcclTuningInput in = tuner->MakeInput(t);
        nlohmann::json simulated = nlohmann::json::array();
        for (NcclAlgorithm a : NcclTuner::SimulatedAlgorithms(op))
        {
            simulated.push_back(NcclAlgorithmToString(a));
        }
        m_tuner = {
            {"gpu_generation", NcclGpuGenerationToString(in.gpu)},
            {"nodes", in.nodes},
            {"graph_channels", in.graphs[static_cast<int>(NcclAlgorithm::RING)].channels},
            {"graph_bw_gbytes_per_s", in.graphs[static_cast<int>(NcclAlgorithm::RING)].bwInterGBps},
            {"algorithm", algorithm},
            {"protocol", protocol},
            {"predicted_us", r.choice.timeUs},
            {"simulated_algorithms", simulated},
            {"nccl_algorithm", NcclAlgorithmToString(r.fastest.algorithm)},
            {"nccl_protocol", NcclProtocolToString(r.fastest.protocol)},
            {"nccl_predicted_us", r.fastest.timeUs}};
    }
    Ptr<CollectiveAlgorithm> alg;
    try
    {
        alg = CollectiveAlgorithm::Create(op, algorithm);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("--algorithm=" + c.algorithm +
                                    " for --workload=" + c.operation + ": " + e.what());
    }
    // --protocol: wire bytes, step and (--protocol-latency) step latency; then --chunk
    // and --channels: the pipelining (ChunkBytes 0 = the unpipelined schedule)
    Ptr<CollectiveProtocol> proto = CollectiveProtocol::Create(protocol);
    m_protocolLatency = c.protocolLatency;
    if (!m_protocolLatency)
    {
        proto->SetAttribute("NetworkStepLatency", TimeValue(Time(0)));
        proto->SetAttribute("ScaleUpStepLatency", TimeValue(Time(0)));
        proto->SetAttribute("RingBaseLatency", TimeValue(Time(0)));
        proto->SetAttribute("TreeBaseLatency", TimeValue(Time(0)));
        proto->SetAttributeFailSafe("ChannelStepTime", TimeValue(Time(0)));
    }
    // NCCL's ring allreduce on GPU servers runs a short call on fewer channels, its
    // chunks aligned to 16 bytes, each channel's block at the graph's per-channel speed
    if (c.gpusPerServer > 1 && op == CollectiveOp::ALLREDUCE &&
        FindNcclAlgorithm(algorithm) == NcclAlgorithm::RING)
    {
        if (!c.channels || c.ncclChannelTuning)
        {
            channels = NcclChannelTuning::Channels(NcclAlgorithm::RING,
                                                   proto->GetProtocol(),
                                                   c.bytes,
                                                   n,
                                                   channels);
        }
        alg->SetAttribute("UnitAlignBytes", UintegerValue(16));
        if (m_protocolLatency)
        {
            uint32_t graphChannels = 0;
            double graphGBps = 0;
            RailRingOrder::NcclRingGraph(c.gpusPerServer, c.hostRate, graphChannels, graphGBps);
            proto->SetAttributeFailSafe(
                "ChannelLineRate",
                DataRateValue(DataRate(static_cast<uint64_t>(std::llround(graphGBps * 8e9)))));
        }
    }
    alg->SetProtocol(proto, c.gpusPerServer);
    const uint64_t chunk = c.chunk.value_or(proto->GetStepBytes());
    alg->SetAttribute("ChunkBytes", UintegerValue(chunk));
    alg->SetAttribute("Channels", UintegerValue(channels));
    // Server-aware algorithms (hierring, the rings, the tree) read the servers' size, the rings
    // PXN.
    alg->SetAttributeFailSafe("GpusPerServer", UintegerValue(c.gpusPerServer));
    alg->SetAttributeFailSafe("Pxn", BooleanValue(c.pxn));
    // NCCL's all-to-all: the channels of a peer on another server follow its NIC's rate
    alg->SetAttributeFailSafe("NetChannelsPerPeer",
                              UintegerValue(NcclP2pSchedule::NetChannelsPerPeer(c.hostRate)));
    // An algorithm that needs a property of the fabric (nvls: NVLink SHARP,
    // RdmaFabric::HasNvlinkSharp) asks it at Setup, and names it by --fabric's name.
    alg->SetAttributeFailSafe("RdmaFabric", PointerValue(fabric));
    alg->SetAttributeFailSafe("Fabric", StringValue(c.fabric));
    // An algorithm that needs the fabric's SHARP Aggregation Manager (collnet) takes it
    // from here; a fabric without one (RoCEv2) passes none, which it refuses.
    alg->SetAttributeFailSafe("AggregationManager",
                              PointerValue(fabric->GetObject<AggregationManager>()));
    m_transport = CreateObject<RdmaCollectiveTransport>();
    // Receives matched in advance, unless other messages share the connections.
    // (a skipped message posts no receive: fast-forward matches each receive as it comes)
    m_transport->SetAttribute("MatchInAdvance", BooleanValue(c.matchInAdvance && !c.fastForward));
    m_transport->Attach(fabric, m_hosts);
    m_app = CreateObject<CollectiveApplication>();
    m_app->SetAttribute("TagSpace", UintegerValue(m_transport->GetTagSpace()));
    m_app->SetAttribute("Iterations", UintegerValue(c.iterations));
    // (nvls and collnet send through a transport of their own on the inner one: they
    // skip nothing)
    if (c.fastForward)
    {
        m_fastForward = CreateObject<FastForwardTransport>();
        m_fastForward->SetInner(m_transport);
        m_app->SetTransport(m_fastForward);
    }
    else
    {
        m_app->SetTransport(m_transport);
    }
    try
    {
        // Communicator ranks are transport ranks, which the transport maps to m_hosts.
        m_app->AddJob(Communicator::AllHosts(n), alg, c.bytes);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("--algorithm=" + c.algorithm + " --ranks=" + std::to_string(n) +
                                    (c.pxn ? "" : " --pxn=0") + ": " + e.what());
    }
    m_app->SetRecordCallback(MakeCallback(&CollectiveWorkload::OnRecord, this));
    m_fallback = alg->GetFallbackReason();
    if (!m_fallback.empty())
    {
        m_fallback = alg->GetName() + ": " + m_fallback;
    }
    m_operation = c.operation;
    m_algorithm = algorithm.empty() ? alg->GetName() : algorithm;
    m_protocol = protocol;
    m_bytes = c.bytes;
    m_iterations = c.iterations;
    m_chunk = chunk;
    m_channels = channels;
    NS_LOG_INFO(m_operation << " " << m_algorithm << " on " << n << " ranks, " << m_bytes
                            << " bytes, " << m_iterations << " iterations");
}

void
CollectiveWorkload::SetRowCallback(RowCallback cb)
{
    m_rowCb = cb;
}

void
CollectiveWorkload::Start()
{
    NS_ABORT_MSG_IF(!m_app, "CollectiveWorkload::Start before Setup");
    m_app->Start();
}

bool
CollectiveWorkload::IsFinished() const
{
    // (the application marks its job finished just after recording its last iteration)
    return m_app && (m_app->IsFinished() || m_app->GetRecords().size() >= m_iterations);
}

void
CollectiveWorkload::SetFinishedCallback(Callback<void> cb)
{
    m_finishedCb = cb;
}

uint64_t
CollectiveWorkload::GetNTransfers() const
{
    return m_app ? m_app->GetAlgorithm(0)->GetNTransfers() : 0;
}

uint64_t
CollectiveWorkload::GetHeldTransfers() const
{
    return m_app ? m_app->GetAlgorithm(0)->GetNHeldTransfers() : 0;
}

uint64_t
CollectiveWorkload::GetCompletedTransfers() const
{
    return m_app ? m_app->GetAlgorithm(0)->GetCompletedTransfers() : 0;
}

Time
CollectiveWorkload::GetLastCompletion() const
{
    return m_app ? m_app->GetAlgorithm(0)->GetLastCompletion() : Time(-1);
}

bool
CollectiveWorkload::DependsOnlyOnDeliveriesAtSource() const
{
    return m_app && m_app->GetAlgorithm(0)->DependsOnlyOnDeliveriesAtSource();
}

void
CollectiveWorkload::FinishAcrossRanks(int64_t endNs)
{
    NS_ABORT_MSG_IF(!m_app, "CollectiveWorkload::FinishAcrossRanks before Setup");
    m_app->FinishAcrossRanks(endNs);
}

uint64_t
CollectiveWorkload::GetTotalTransfers() const
{
    return GetNTransfers() * m_iterations;
}

bool
CollectiveWorkload::IsPerRank() const
{
    return m_app && m_app->IsPerRank(0);
}

void
CollectiveWorkload::GetRunTimes(std::vector<int64_t>& startPs, std::vector<int64_t>& endPs) const
{
    startPs.clear();
    endPs.clear();
    if (!IsPerRank())
    {
        return;
    }
    for (const CollectiveAlgorithm::RunTimes& t : m_app->GetAlgorithm(0)->GetRunTimes())
    {
        startPs.push_back(t.firstStart.GetPicoSeconds());
        endPs.push_back(t.lastEnd.GetPicoSeconds());
    }
}

void
CollectiveWorkload::FinishRunsAcrossRanks(const std::vector<int64_t>& startNs,
                                          const std::vector<int64_t>& endNs)
{
    NS_ABORT_MSG_IF(!IsPerRank(),
                    "CollectiveWorkload::FinishRunsAcrossRanks without per-rank runs");
    m_app->FinishRunsAcrossRanks(0, startNs, endNs);
}

const std::string&
CollectiveWorkload::GetProtocol() const
{
    return m_protocol;
}

OutputCollectiveRow
CollectiveWorkload::ToOutputRow(const CollectiveRecord& r)
{
    OutputCollectiveRow row;
    row.opId = r.opId;
    row.algorithm = r.algorithm;
    row.ranks = r.ranks;
    row.bytes = r.bytes;
    row.startNs = r.startNs;
    row.endNs = r.endNs;
    // CollectiveRecord holds nccl-tests' GB/s; the CSV columns are Gbit/s.
    row.algbwGbps = 8.0 * r.algbwGBps;
    row.busbwGbps = 8.0 * r.busbwGBps;
    return row;
}

void
CollectiveWorkload::OnRecord(const CollectiveRecord& r)
{
    if (!m_rowCb.IsNull())
    {
        OutputCollectiveRow row = ToOutputRow(r);
        row.protocol = m_protocol;
        m_rowCb(row);
    }
    if (!m_finishedCb.IsNull() && m_app->GetRecords().size() >= m_iterations)
    {
        m_finishedCb();
    }
}

nlohmann::json
CollectiveWorkload::ToJson() const
{
    nlohmann::json all = nlohmann::json::array();
    if (!m_app)
    {
        return all;
    }
    std::vector<int64_t> durations;
    double algbw = 0;
    double busbw = 0;
    for (const CollectiveRecord& r : m_app->GetRecords())
    {
        durations.push_back(r.durationNs);
        algbw += 8.0 * r.algbwGBps;
        busbw += 8.0 * r.busbwGBps;
    }
    nlohmann::json j;
    j["operation"] = m_operation;
    j["algorithm"] = m_algorithm;
    if (!m_fallback.empty())
    {
        j["algorithm_fallback"] = m_fallback;
    }
    j["protocol"] = m_protocol;
    j["protocol_latency"] = m_protocolLatency;
    if (!m_tuner.is_null())
    {
        j["tuner"] = m_tuner;
    }
    j["ranks"] = m_hosts.size();
    j["hosts"] = "0.." + std::to_string(m_hosts.size() - 1);
    j["bytes"] = m_bytes;
    j["iterations"] = m_iterations;
    j["chunk_bytes"] = m_chunk;
    j["channels"] = m_channels;
    j["finished_iterations"] = durations.size();
    j["complete"] = m_app->IsFinished();
    j["durations_ns"] = durations;
    std::vector<int64_t> sorted = durations;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0;
    for (int64_t d : sorted)
    {
        mean += static_cast<double>(d);
    }
    std::size_t n = sorted.size();
    mean = n ? mean / n : 0.0;
    j["step_time_ns"] = {{"mean", mean},
                         {"p50", NearestRankPercentile(sorted, 0.50)},
                         {"p99", NearestRankPercentile(sorted, 0.99)},
                         {"max", n ? sorted.back() : 0}};
    // Means over iterations, in Gbit/s like collective.csv (nccl-tests' GB/s x 8).
    j["algbw_gbps"] = n ? algbw / n : 0.0;
    j["busbw_gbps"] = n ? busbw / n : 0.0;
    j["bandwidth_unit"] = "Gbit/s";
    all.push_back(j);
    return all;
}

Ptr<CollectiveApplication>
CollectiveWorkload::GetApplication() const
{
    return m_app;
}

Ptr<RdmaCollectiveTransport>
CollectiveWorkload::GetTransport() const
{
    return m_transport;
}

Ptr<FastForwardTransport>
CollectiveWorkload::GetFastForward() const
{
    return m_fastForward;
}

const std::vector<uint32_t>&
CollectiveWorkload::GetHosts() const
{
    return m_hosts;
}

} // namespace ns3
