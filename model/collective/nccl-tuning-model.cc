/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-tuning-model.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr int kBroadcast = 0;
constexpr int kReduce = 1;
constexpr int kAllGather = 2;
constexpr int kReduceScatter = 3;
constexpr int kAllReduce = 4;

constexpr int kTree = static_cast<int>(NcclAlgorithm::TREE);
constexpr int kRing = static_cast<int>(NcclAlgorithm::RING);
constexpr int kCollnetDirect = static_cast<int>(NcclAlgorithm::COLLNET_DIRECT);
constexpr int kCollnetChain = static_cast<int>(NcclAlgorithm::COLLNET_CHAIN);
constexpr int kNvls = static_cast<int>(NcclAlgorithm::NVLS);
constexpr int kNvlsTree = static_cast<int>(NcclAlgorithm::NVLS_TREE);
constexpr int kPat = static_cast<int>(NcclAlgorithm::PAT);

constexpr int kLl = static_cast<int>(NcclProtocol::LL);
constexpr int kLl128 = static_cast<int>(NcclProtocol::LL128);
constexpr int kSimple = static_cast<int>(NcclProtocol::SIMPLE);

constexpr int kHwNvlink = 0;
constexpr int kHwPci = 1;
constexpr int kHwNet = 2;

// NCCL 2.30 src/graph/tuning.cc, ncclTunerConstantsDefaults: latencies in us per
// [algorithm][protocol] (LL, LL128, Simple).
constexpr double kBaseLatency[NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS] = {
    {6.8, 14.0, 8.4}, // tree
    {6.6, 14.0, 8.4}, // ring
    {0, 0, 0},        // collnet direct
    {0, 0, 0},        // collnet chain
    {0, 0, 0},        // nvls
    {0, 0, 0},        // nvls tree
    {8.0, 8.0, 8.0},  // pat
};
// [NVLink, PCI, network][algorithm][protocol], us per step.
constexpr double kHwLatency[3][NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS] = {
    {{0.6, 1.25, 4.0},
     {0.6, 1.9, 3.4},
     {0, 0, 3.7},
     {0, 0, 2.8},
     {0, 0, 25},
     {0, 0, 25},
     {0, 0, 4.0}},
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}},
    {{5.0, 8.5, 14},
     {2.7, 4.0, 14.0},
     {0, 0, 31},
     {0, 0, 30},
     {0, 0, 18},
     {0, 0, 20.9},
     {0, 0, 14}},
};
// Bounds in GB/s. LL: [Volta/Intel, Ampere/AMD, Hopper, Blackwell][1 node, 2, more].
constexpr double kLlMaxBw[4][3] = {{39.0, 39.0, 20.4},
                                   {87.7, 22.5, 19.0},
                                   {141.0, 45.0, 35.0},
                                   {2 * 141.0, 2 * 45.0, 2 * 35.0}};
// Per channel, [generation][1 node, 2, more].
constexpr double kPerChMaxRingLl128Bw[4][3] = {{20.0, 20.0, 20.0},
                                               {20.0, 20.0, 20.0},
                                               {36.7, 36.7, 36.7},
                                               {40.0, 40.0, 40.0}};
constexpr double kPerChMaxTreeLl128Bw[4][3] = {{20.0, 20.0, 20.0},
                                               {20.0, 20.0, 20.0},
                                               {36.7, 36.7, 29.0},
                                               {55.6, 31.67, 20.0}};
constexpr double kPerChMaxTreeBw[4][3] = {{26.5, 18.5, 10.0},
                                          {24.0, 23.6, 17.8},
                                          {38.7, 41.4, 36.0},
                                          {70.0, 42.8, 24.0}};
constexpr double kPerChMaxNvlsTreeBw[4][3] = {{26.5, 18.5, 10.0},
                                              {24.0, 23.6, 17.8},
                                              {0.0, 57.7, 45.5},
                                              {0.0, 96.0, 80.0}};
// NVLS's share of the NVLink bandwidth per generation (0: no NVLS).
constexpr double kNvlsEfficiency[4] = {0.0, 0.0, 0.85, 0.74};
// Tree bandwidth corrections for medium sizes, [protocol][log2(bytes / 64)], 64 B .. 256 MB.
constexpr double kTreeCorrection[NCCL_NUM_PROTOCOLS][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
     .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};

const char* const kAlgorithmNames[NCCL_NUM_ALGORITHMS] =
    {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
const char* const kProtocolNames[NCCL_NUM_PROTOCOLS] = {"ll", "ll128", "simple"};

/// floor(log2(n)); -1 for n <= 0 (NCCL's log2i).
int
Log2i(int64_t n)
{
    int l = -1;
    while (n > 0)
    {
        n >>= 1;
        ++l;
    }
    return l;
}

} // namespace

std::string
NcclAlgorithmToString(NcclAlgorithm algorithm)
{
    return kAlgorithmNames[static_cast<int>(algorithm)];
}

std::string
NcclProtocolToString(NcclProtocol protocol)
{
    return kProtocolNames[static_cast<int>(protocol)];
}

std::string
NcclGpuGenerationToString(NcclGpuGeneration gpu)
{
    static const char* const names[] = {"volta", "ampere", "hopper", "blackwell"};
    return names[static_cast<int>(gpu)];
}

std::optional<NcclAlgorithm>
FindNcclAlgorithm(const std::string& name)
{
    for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
    {
        if (name == kAlgorithmNames[a])
        {
            return static_cast<NcclAlgorithm>(a);
        }
    }
    return std::nullopt;
}

NcclAlgorithm
NcclAlgorithmFromString(const std::string& name)
{
    if (const std::optional<NcclAlgorithm> found = FindNcclAlgorithm(name))
    {
        return *found;
    }
    std::string allowed;
    for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
    {
        allowed += (a ? ", " : "") + std::string(kAlgorithmNames[a]);
    }
    throw std::invalid_argument("NCCL algorithm '" + name + "' is not known; allowed: " + allowed);
}

NcclProtocol
NcclProtocolFromString(const std::string& name)
{
    for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
    {
        if (name == kProtocolNames[p])
        {
            return static_cast<NcclProtocol>(p);
        }
    }
    throw std::invalid_argument("NCCL protocol '" + name +
                                "' is not known; allowed: ll, ll128, simple");
}

NcclTuningModel::NcclTuningModel(const NcclTuningInput& input)
    : m_in(input)
{
    if (m_in.ranks == 0 || m_in.nodes == 0 || m_in.nodes > m_in.ranks)
    {
        throw std::invalid_argument("NCCL tuning model: " + std::to_string(m_in.ranks) +
                                    " ranks on " + std::to_string(m_in.nodes) +
                                    " nodes; allowed: 1 <= nodes <= ranks");
    }
    Tune();
}

int
NcclTuningModel::FunctionIndex(CollectiveOp op)
{
    switch (op)
    {
    case CollectiveOp::BROADCAST:
        return kBroadcast;
    case CollectiveOp::REDUCE:
        return kReduce;
    case CollectiveOp::ALL_GATHER:
        return kAllGather;
    case CollectiveOp::REDUCE_SCATTER:
        return kReduceScatter;
    case CollectiveOp::ALLREDUCE:
        return kAllReduce;
    case CollectiveOp::ALL_TO_ALL:
        break;
    }
    return -1; // NCCL runs all-to-all as send/receive pairs, outside this model
}

void
NcclTuningModel::Tune()
{
    const int nRanks = static_cast<int>(m_in.ranks);
    const int nNodes = static_cast<int>(m_in.nodes);
    if (nRanks <= 1)
    {
        return; // a single rank copies locally: every pair stays unavailable
    }
    const int gen = static_cast<int>(m_in.gpu);
    const int index2 = nNodes <= 2 ? nNodes - 1 : 2;
    // LL's bound: the GPU generation on one node, the CPU vendor between nodes.
    const int index1 = nNodes == 1 ? gen : (m_in.amdCpu ? 1 : 0);
    const double llMaxBw = kLlMaxBw[index1][index2];
    const double perChMaxTreeBw = kPerChMaxTreeBw[gen][index2];
    const double perChMaxRingLl128Bw = kPerChMaxRingLl128Bw[gen][index2];
    const double perChMaxTreeLl128Bw = kPerChMaxTreeLl128Bw[gen][index2];
    const double perChMaxNvlsTreeBw = kPerChMaxNvlsTreeBw[gen][index2];
    const double ppn = static_cast<double>(nRanks) / nNodes;
    const int localRanks = nRanks / nNodes;
    const bool hopperOrLater = gen >= static_cast<int>(NcclGpuGeneration::HOPPER);
    // Per network send the proxy's post: 1 us on Intel hosts, 2 on AMD.
    const double netOverhead = m_in.amdCpu ? 2.0 : 1.0;

    for (int coll = 0; coll < 5; ++coll)
    {
        const int nsteps = coll == kAllReduce                               ? 2 * (nRanks - 1)
                           : (coll == kReduceScatter || coll == kAllGather) ? nRanks - 1
                                                                            : nRanks;
        for (int a = 0; a < static_cast<int>(NCCL_NUM_ALGORITHMS); ++a)
        {
            if ((coll == kBroadcast || coll == kReduce) && a != kRing)
            {
                continue;
            }
            if ((coll == kReduceScatter || coll == kAllGather) && a != kPat && a != kRing &&
                a != kNvls && a != kCollnetDirect)
            {
                continue;
            }
            if (coll == kAllReduce && a == kPat)
            {
                continue;
            }
            const NcclGraphSummary& g = m_in.graphs[a];
            const int intraHw = g.intraNvlink ? kHwNvlink : kHwPci;
            const int hw = nNodes == 1 ? intraHw : kHwNet;
            for (int p = 0; p < static_cast<int>(NCCL_NUM_PROTOCOLS); ++p)
            {
                if ((a == kNvls || a == kNvlsTree) && p != kSimple)
                {
                    continue;
                }
                // PAT: one GPU per node, the host's network.
                if (a == kPat && (p != kSimple || nNodes != nRanks))
                {
                    continue;
                }
                const bool collnet = a == kCollnetDirect || a == kCollnetChain;
                double bw = nNodes <= 2 || collnet ? g.bwIntraGBps : g.bwInterGBps;
                if (a == kNvls || a == kNvlsTree)
                {
                    if (g.channels < 2)
                    {
                        continue; // NVLS needs two channels
                    }
                    double intraBw =
                        g.bwIntraGBps * kNvlsEfficiency[gen] * (g.channels - 1) / g.channels;
                    intraBw *= coll == kAllReduce ? 2.0 : (ppn - 1) / ppn; // two ops pipelined
                    const double interBw =
                        g.bwInterGBps * ((nNodes <= 2 && a == kNvlsTree) ? 2 : 1);
                    bw = std::min(
                        {intraBw,
                         interBw,
                         a == kNvlsTree ? perChMaxNvlsTreeBw : std::numeric_limits<double>::max()});
                }
                double busBw = g.channels * bw;
                if (a == kRing && p == kLl)
                {
                    busBw = std::min(llMaxBw, busBw * .5);
                }
                if (a == kRing && p == kLl128)
                {
                    busBw = std::min(busBw * 0.92, g.channels * perChMaxRingLl128Bw);
                }
                if (a == kTree && coll == kAllReduce)
                {
                    busBw = std::min(busBw * .92, g.channels * perChMaxTreeBw);
                }
                if (a == kTree && p == kLl)
                {
                    busBw = std::min(busBw * 1.0 / 3.8, llMaxBw);
                }
                if (a == kTree && p == kLl128)
                {
                    busBw = std::min(busBw * (nNodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                                     g.channels * perChMaxTreeLl128Bw);
                }
                if (a == kTree && m_in.treePatternSingleGpu)
                {
                    busBw *= .85;
                }
                if (a == kPat)
                {
                    busBw *= .75;
                }
                if (collnet && p != kSimple)
                {
                    busBw = 0;
                }
                if (a == kCollnetDirect && p == kSimple)
                {
                    if (coll == kAllGather || coll == kReduceScatter)
                    {
                        busBw = ppn * std::min(g.bwIntraGBps, g.bwInterGBps * 0.9);
                    }
                    else if (g.channels > 0)
                    {
                        // Full speed needs a NIC per GPU: GPUs per NIC-channel, halved.
                        double factor = ppn / g.channels;
                        factor -= (factor - 1) / 2;
                        busBw /= factor;
                        if (hopperOrLater)
                        {
                            busBw *= .85;
                        }
                    }
                }
                // Multi-node NVLS / CollNet allgather and reducescatter need the plugin's
                // collectives and a head per local rank.
                if ((a == kNvls || a == kCollnetDirect) && p == kSimple &&
                    (coll == kAllGather || coll == kReduceScatter) && nNodes > 1)
                {
                    if (!m_in.collnet || !m_in.collnetAllGatherReduceScatter ||
                        static_cast<uint32_t>(localRanks) > m_in.collnetHeads)
                    {
                        busBw = 0;
                    }
                }
                // Bus bandwidth to algorithm bandwidth.
                if (!(a != kRing && (coll == kAllGather || coll == kReduceScatter)))
                {
                    const double ratio = (a == kRing || a == kNvls || a == kNvlsTree)
                                             ? static_cast<double>(nRanks) / nsteps
                                             : .5;
                    busBw *= ratio;
                }
                m_bandwidth[coll][a][p] = busBw;

                double latency = kBaseLatency[a][p];
                double intraLat = kHwLatency[intraHw][a][p];
                // One GPU per node exposes every network hop: the tree's figures.
                double interLat =
                    ppn == 1 ? kHwLatency[kHwNet][kTree][p] : kHwLatency[kHwNet][a][p];
                interLat += g.latencyInterUs;
                if (p == kSimple)
                {
                    interLat += g.latencyInterUs; // the flush
                }
                if (a == kRing)
                {
                    double lat = kHwLatency[hw][a][p];
                    if (coll == kReduce || coll == kBroadcast)
                    {
                        if (g.sameChannels)
                        {
                            latency += lat;
                        }
                        else
                        {
                            if (p == kSimple)
                            {
                                lat = kHwLatency[hw][kTree][p];
                            }
                            latency += nsteps * lat;
                        }
                    }
                    else
                    {
                        double overhead = 0;
                        if (nNodes > 1)
                        {
                            overhead = netOverhead * (p == kSimple ? 3 : 1);
                        }
                        intraLat = std::max(intraLat, overhead);
                        const int nInterSteps = nNodes == 1          ? 0
                                                : coll == kAllReduce ? 2 * (nNodes - 1)
                                                                     : nNodes - 1;
                        latency += (nsteps - nInterSteps) * intraLat + nInterSteps * interLat;
                    }
                }
                else if (a == kTree)
                {
                    if (coll == kAllReduce)
                    {
                        latency += 2 * ((localRanks - 1) * intraLat + Log2i(nNodes) * interLat);
                    }
                }
                else if (a == kCollnetDirect)
                {
                    // 0.4 us of serialization per extra local rank.
                    latency +=
                        2 * (std::min(1, localRanks - 1) * intraLat + (localRanks - 1) * 0.4) +
                        interLat;
                }
                else if (a == kCollnetChain)
                {
                    latency += 2 * (localRanks - 1) * intraLat + interLat;
                }
                else if (a == kNvls)
                {
                    latency = intraLat + (nNodes > 1 ? interLat : 0);
                }
                else if (a == kNvlsTree)
                {
                    latency += intraLat + 2 * Log2i(nNodes) * interLat;
                }
                else if (a == kPat && (coll == kAllGather || coll == kReduceScatter))
                {
                    latency += Log2i(nNodes) * (interLat / 3.5) + nRanks * 2.8;
                }
                m_latency[coll][a][p] = latency;
            }
        }
    }

    // What NCCL enables by default.
    for (int coll = 0; coll < 5; ++coll)
    {
        for (int a = 0; a < static_cast<int>(NCCL_NUM_ALGORITHMS); ++a)
        {
            const NcclGraphSummary& g = m_in.graphs[a];
            bool algoEnabled = true;
            if (nNodes == 1 && a == kNvlsTree)
            {
                algoEnabled = false;
            }
            if (!m_in.collnet &&
                (a == kCollnetDirect || a == kCollnetChain || (a == kNvls && nNodes > 1)))
            {
                algoEnabled = false;
            }
            if (m_in.collnet && a == kCollnetChain && !m_in.collnetChain)
            {
                algoEnabled = false;
            }
            if (!m_in.nvswitch && a == kCollnetDirect)
            {
                algoEnabled = false;
            }
            for (int p = 0; p < static_cast<int>(NCCL_NUM_PROTOCOLS); ++p)
            {
                bool protoEnabled = true;
                if (p == kLl128)
                {
                    // LL128 needs ordered 128-byte stores end to end: on Hopper and later
                    // up to PXN paths, before up to PCIe switches; NVLink inside, sm70+.
                    protoEnabled = hopperOrLater ? g.interWithinPxn : g.interWithinPxb;
                    protoEnabled = protoEnabled && g.intraWithinNvb;
                }
                if (!protoEnabled || !algoEnabled)
                {
                    m_bandwidth[coll][a][p] = 0;
                }
            }
        }
    }
}

double
NcclTuningModel::GetBandwidth(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const
{
    const int f = FunctionIndex(op);
    return f < 0 ? 0 : m_bandwidth[f][static_cast<int>(a)][static_cast<int>(p)];
}

double
NcclTuningModel::GetLatency(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const
{
    const int f = FunctionIndex(op);
    return f < 0 ? 0 : m_latency[f][static_cast<int>(a)][static_cast<int>(p)];
}

double
NcclTuningModel::PredictTimeUs(CollectiveOp op,
                               NcclAlgorithm a,
                               NcclProtocol p,
                               uint64_t bytes) const
{
    double bw = GetBandwidth(op, a, p);
    double lat = GetLatency(op, a, p);
    if (bw == 0)
    {
        return -1;
    }
    const int logSize = Log2i(static_cast<int64_t>(bytes >> 6));
    if (a == NcclAlgorithm::TREE && op == CollectiveOp::ALLREDUCE && logSize >= 0 && logSize < 23)
    {
        bw *= kTreeCorrection[static_cast<int>(p)][logSize];
    }
    if (a == NcclAlgorithm::NVLS_TREE && op == CollectiveOp::ALLREDUCE && logSize >= 0 &&
        logSize < 24 && m_in.gpu == NcclGpuGeneration::BLACKWELL)
    {
        bw *= kTreeCorrection[static_cast<int>(p)][logSize];
    }
    const uint64_t channels = std::max<uint32_t>(m_in.commChannels, 1);
    if (a == NcclAlgorithm::RING && p == NcclProtocol::SIMPLE && m_in.nodes > 1 &&
        op == CollectiveOp::ALLREDUCE && bytes / (channels * m_in.ranks) >= 64)
    {
        lat *= m_in.gpu < NcclGpuGeneration::AMPERE ? 1.9 : 1.4; // the ring's plateau
    }
    return lat + static_cast<double>(bytes) / (1000 * bw);
}

NcclTuningModel::Choice
NcclTuningModel::Select(CollectiveOp op,
                        uint64_t bytes,
                        const std::vector<NcclAlgorithm>& allowedAlgorithms,
                        const std::vector<NcclProtocol>& allowedProtocols) const
{
    Choice best;
    for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
    {
        const auto algo = static_cast<NcclAlgorithm>(a);
        if (!allowedAlgorithms.empty() &&
            std::find(allowedAlgorithms.begin(), allowedAlgorithms.end(), algo) ==
                allowedAlgorithms.end())
        {
            continue;
        }
        for (uint32_t p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
        {
            const auto proto = static_cast<NcclProtocol>(p);
            if (!allowedProtocols.empty() &&
                std::find(allowedProtocols.begin(), allowedProtocols.end(), proto) ==
                    allowedProtocols.end())
            {
                continue;
            }
            const double t = PredictTimeUs(op, algo, proto, bytes);
            if (t >= 0 && (best.timeUs < 0 || t < best.timeUs))
            {
                best = {algo, proto, t};
            }
        }
    }
    return best;
}

} // namespace ns3
