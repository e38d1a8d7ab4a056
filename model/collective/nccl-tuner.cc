/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-tuner.h"

#include "ns3/boolean.h"
#include "ns3/collective-algorithm-registry.h"
#include "ns3/enum.h"
#include "ns3/rail-ring-order.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NcclTuner);

TypeId
NcclTuner::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NcclTuner")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<NcclTuner>()
            .AddAttribute("GpuGeneration",
                          "The GPUs' generation, which picks NCCL's per-generation bounds "
                          "(src/graph/tuning.cc: LL's bandwidth on one server, the LL128 and "
                          "tree bounds per channel, NVLS's efficiency). Default Hopper (sm90): "
                          "the H100 of the dgx-h100 cluster presets and of the issue's "
                          "reference cluster (8 x H100, 8 x 400 Gb/s); the presets set it.",
                          EnumValue(static_cast<int>(NcclGpuGeneration::HOPPER)),
                          MakeEnumAccessor(&NcclTuner::m_gpu),
                          MakeEnumChecker(static_cast<int>(NcclGpuGeneration::VOLTA),
                                          "Volta",
                                          static_cast<int>(NcclGpuGeneration::AMPERE),
                                          "Ampere",
                                          static_cast<int>(NcclGpuGeneration::HOPPER),
                                          "Hopper",
                                          static_cast<int>(NcclGpuGeneration::BLACKWELL),
                                          "Blackwell"))
            .AddAttribute("AmdCpu",
                          "The hosts' CPUs are AMD (NCCL's LL bound between servers and its "
                          "2 us instead of 1 us per network post, src/graph/tuning.cc). "
                          "Default false: DGX H100 and B300 servers have Intel Xeon CPUs "
                          "(NVIDIA DGX H100/B300 user guides).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NcclTuner::m_amdCpu),
                          MakeBooleanChecker());
    return tid;
}

NcclTuner::NcclTuner()
    : m_gpu(static_cast<int>(NcclGpuGeneration::HOPPER)),
      m_amdCpu(false)
{
}

NcclTuner::~NcclTuner() = default;

NcclGpuGeneration
NcclTuner::GetGpuGeneration() const
{
    return static_cast<NcclGpuGeneration>(m_gpu);
}

NcclTuningInput
NcclTuner::MakeInput(const Topology& t) const
{
    if (t.ranks == 0 || t.gpusPerServer == 0 || t.nicRate.GetBitRate() == 0)
    {
        throw std::invalid_argument("NCCL tuner: " + std::to_string(t.ranks) + " ranks, " +
                                    std::to_string(t.gpusPerServer) + " GPUs per server, NIC " +
                                    std::to_string(t.nicRate.GetBitRate()) +
                                    " b/s; each must be at least 1");
    }
    NcclTuningInput in;
    in.ranks = t.ranks;
    // NCCL's nodes: the servers the ranks are on (a partial last server counts)
    in.nodes = (t.ranks + t.gpusPerServer - 1) / t.gpusPerServer;
    in.gpu = GetGpuGeneration();
    in.amdCpu = m_amdCpu;
    in.commChannels = t.channels;
    in.nvswitch = t.gpusPerServer > 1;
    in.collnet = false;
    NcclGraphSummary graph;
    RailRingOrder::NcclRingGraph(t.gpusPerServer, t.nicRate, graph.channels, graph.bwInterGBps);
    graph.bwIntraGBps = graph.bwInterGBps; // a ring's search keeps both equal
    graph.latencyInterUs = 0;
    graph.intraNvlink = true;
    graph.intraWithinNvb = true;
    graph.interWithinPxb = true;
    graph.interWithinPxn = true;
    in.graphs[static_cast<int>(NcclAlgorithm::RING)] = graph;
    in.graphs[static_cast<int>(NcclAlgorithm::TREE)] = graph;
    return in;
}

std::vector<NcclAlgorithm>
NcclTuner::SimulatedAlgorithms(CollectiveOp op)
{
    const std::vector<std::string> names = CollectiveAlgorithmRegistry::GetNames(op);
    std::vector<NcclAlgorithm> out;
    for (uint32_t a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
    {
        const auto algo = static_cast<NcclAlgorithm>(a);
        if (std::find(names.begin(), names.end(), NcclAlgorithmToString(algo)) != names.end())
        {
            out.push_back(algo);
        }
    }
    return out;
}

NcclTuner::Result
NcclTuner::Choose(CollectiveOp op,
                  uint64_t bytes,
                  const Topology& topology,
                  const std::vector<NcclAlgorithm>& algorithms,
                  const std::vector<NcclProtocol>& protocols) const
{
    const NcclTuningModel model(MakeInput(topology));
    const std::vector<NcclAlgorithm> simulated = SimulatedAlgorithms(op);
    std::vector<NcclAlgorithm> allowed;
    for (NcclAlgorithm a : algorithms.empty() ? simulated : algorithms)
    {
        if (std::find(simulated.begin(), simulated.end(), a) != simulated.end())
        {
            allowed.push_back(a);
        }
    }
    Result r;
    r.fastest = model.Select(op, bytes, {}, protocols);
    if (!allowed.empty())
    {
        r.choice = model.Select(op, bytes, allowed, protocols);
    }
    if (r.choice.timeUs < 0)
    {
        auto list = [](const auto& v, auto str) {
            std::string s;
            for (const auto& x : v)
            {
                s += (s.empty() ? "" : ", ") + str(x);
            }
            return s.empty() ? std::string("any") : s;
        };
        throw std::invalid_argument(
            "NCCL's tuning model has no available pair for " + CollectiveOpToString(op) +
            " among algorithms " + list(allowed, NcclAlgorithmToString) + " and protocols " +
            list(protocols, NcclProtocolToString) + " (the simulator runs " +
            list(simulated, NcclAlgorithmToString) + ")");
    }
    return r;
}

} // namespace ns3
