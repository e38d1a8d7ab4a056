/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-helper.h"

#include "ns3/double.h"
#include "ns3/fabric-topology.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyHelper");

NS_OBJECT_ENSURE_REGISTERED(TopologyHelper);

TypeId
TopologyHelper::GetTypeId()
{
    // Defaults: 100 Gb/s and 1 us cables, as in the HPCC-derived simulators' example
    // topologies.
    static TypeId tid =
        TypeId("ns3::TopologyHelper")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddAttribute("HostLinkRate",
                          "Rate of every host-to-switch (or router) cable.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&TopologyHelper::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("HostLinkDelay",
                          "Propagation delay of every host-to-switch cable (fibre ~5 ns/m).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&TopologyHelper::m_hostDelay),
                          MakeTimeChecker())
            .AddAttribute("FabricLinkRate",
                          "Rate of every switch-to-switch cable (DragonFly: local and global).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&TopologyHelper::m_fabricRate),
                          MakeDataRateChecker())
            .AddAttribute("FabricLinkDelay",
                          "Propagation delay of every switch-to-switch cable (DragonFly: "
                          "of the local ones; GlobalLinkDelay for the global ones).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&TopologyHelper::m_fabricDelay),
                          MakeTimeChecker())
            .AddAttribute("GpusPerServer",
                          "GPUs per server (fat-tree, leaf-spine, rail): every G consecutive "
                          "hosts are the GPUs of one server, joined by a scale-up crossbar; "
                          "1 = plain one-NIC hosts.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TopologyHelper::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("ScaleUpRate",
                          "Rate of every GPU-to-crossbar cable, per direction. Default 3600 "
                          "Gb/s: NVLink 4 (H100 SXM), 18 links x 50 GB/s = 900 GB/s "
                          "bidirectional per GPU (NVIDIA H100 datasheet), 450 GB/s = 3600 "
                          "Gb/s each way.",
                          DataRateValue(DataRate("3600Gbps")),
                          MakeDataRateAccessor(&TopologyHelper::m_scaleUpRate),
                          MakeDataRateChecker())
            .AddAttribute("ScaleUpDelay",
                          "Propagation delay of every GPU-to-crossbar cable. Default 150 ns: "
                          "GPU -> crossbar -> GPU is then 2 x 150 ns plus the crossbar's "
                          "forwarding latency (300 ns on RoCEv2), the ~0.6 us per NVLink "
                          "step of NCCL's tuning model (hwLat, NVLink, ring LL).",
                          TimeValue(NanoSeconds(150)),
                          MakeTimeAccessor(&TopologyHelper::m_scaleUpDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CableLengths",
                          "Cable length per tier in metres, 'L0[,L1[,L2]]': tier 0 host to "
                          "its first switch, 1 the next switch layer (leaf-spine, "
                          "edge-aggregation, torus/mesh router cables, DragonFly local), 2 "
                          "aggregation-core (DragonFly global); the last value repeats for "
                          "higher tiers. Each cable's delay is then its length x "
                          "PropagationDelayPerMetre, in place of HostLinkDelay, "
                          "FabricLinkDelay and GlobalLinkDelay; scale-up cables keep "
                          "ScaleUpDelay. '' (default) = those delays.",
                          StringValue(""),
                          MakeStringAccessor(&TopologyHelper::m_cableLengths),
                          MakeStringChecker())
            .AddAttribute("PropagationDelayPerMetre",
                          "Propagation delay per metre of cable (CableLengths). Default 5 ns: "
                          "light in silica fibre (group index ~1.47) travels ~2.04e8 m/s, "
                          "4.9 ns/m. Build() refuses 0.",
                          TimeValue(NanoSeconds(5)),
                          MakeTimeAccessor(&TopologyHelper::m_delayPerMetre),
                          MakeTimeChecker(Time(0), NanoSeconds(100)))
            .AddAttribute("ScaleUpEfficiency",
                          "Payload share of ScaleUpRate (dimensionless, (0, 1]; Build() refuses "
                          "others): the "
                          "GPU-to-crossbar cables carry ScaleUpRate x this, the signalling "
                          "rate less the scale-up link's own packet headers and flow control, "
                          "which the frames on the cable do not carry. Default 1 (the whole "
                          "rate). NVLink 4 (H100): 0.824, NCCL's 20.6 GB/s of payload per 25 "
                          "GB/s link (SM90_NVLINK_BW, src/graph/topo.h of NVIDIA/nccl).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&TopologyHelper::m_scaleUpEfficiency),
                          MakeDoubleChecker<double>());
    return tid;
}

Ptr<FabricTopology>
TopologyHelper::CreateTopology() const
{
    Ptr<TopologyGraph> graph = Build();
    Ptr<FabricTopology> topology = CreateObject<FabricTopology>();
    topology->Create(graph);
    return topology;
}

void
TopologyHelper::SetLinks(DataRate hostRate, Time hostDelay, DataRate fabricRate, Time fabricDelay)
{
    m_hostRate = hostRate;
    m_hostDelay = hostDelay;
    m_fabricRate = fabricRate;
    m_fabricDelay = fabricDelay;
}

std::vector<double>
TopologyHelper::ParseCableLengths(const std::string& text)
{
    std::vector<double> lengths;
    if (text.empty())
    {
        return lengths;
    }
    std::ostringstream max;
    max << MAX_CABLE_METRES;
    const std::string allowed = "allowed: 1 to 3 lengths in metres 'L0[,L1[,L2]]' (tier 0 host "
                                "cables, 1 the next switch layer, 2 aggregation-core), each a "
                                "number > 0 and <= " +
                                max.str();
    size_t start = 0;
    while (true)
    {
        const size_t comma = text.find(',', start);
        const std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        char* end = nullptr;
        const double v = item.empty() ? NAN : std::strtod(item.c_str(), &end);
        if (item.empty() || end != item.c_str() + item.size() || !(v > 0) ||
            !(v <= MAX_CABLE_METRES) || item.find_first_of("xX \t") != std::string::npos)
        {
            throw std::invalid_argument("cable lengths '" + text + "': '" + item +
                                        "' is not a length; " + allowed);
        }
        lengths.push_back(v);
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
    if (lengths.size() > 3)
    {
        throw std::invalid_argument("cable lengths '" + text +
                                    "': " + std::to_string(lengths.size()) + " values; " + allowed);
    }
    return lengths;
}

void
TopologyHelper::CheckPropagationDelay(Time perMetre)
{
    // (not against PicoSeconds(1): before Time::SetResolution(Time::PS) that is 0)
    if (!perMetre.IsStrictlyPositive() || perMetre > PicoSeconds(MAX_DELAY_PER_METRE_PS))
    {
        std::ostringstream os;
        os << "propagation delay " << perMetre.As(Time::NS)
           << " per metre is out of range; allowed: 1ps..100ns per metre (fibre ~5ns)";
        throw std::invalid_argument(os.str());
    }
}

Time
TopologyHelper::CableDelay(const std::vector<double>& lengths, Time perMetre, uint32_t tier)
{
    const double metres = lengths.at(std::min<size_t>(tier, lengths.size() - 1));
    return PicoSeconds(std::llround(metres * static_cast<double>(perMetre.GetPicoSeconds())));
}

void
TopologyHelper::ApplyCableLengths(TopologyGraph& graph) const
{
    const std::vector<double> lengths = ParseCableLengths(m_cableLengths);
    if (lengths.empty())
    {
        return;
    }
    CheckPropagationDelay(m_delayPerMetre);
    for (uint32_t id = 0; id < graph.GetNLinks(); ++id)
    {
        const uint32_t tier = graph.GetLink(id).tier;
        if (tier != TopologyGraph::NO_TIER)
        {
            graph.SetLinkDelay(id, CableDelay(lengths, m_delayPerMetre, tier));
        }
    }
}

uint64_t
TopologyHelper::SaturatingMultiply(uint64_t a, uint64_t b)
{
    uint64_t product;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

uint64_t
TopologyHelper::SaturatingAdd(uint64_t a, uint64_t b)
{
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

TopologyHelper::Size
TopologyHelper::AddServerCounts(Size s) const
{
    if (m_gpusPerServer > 1)
    {
        s.switches = SaturatingAdd(s.switches, s.hosts / m_gpusPerServer);
        s.cables = SaturatingAdd(s.cables, s.hosts);
    }
    return s;
}

Ptr<TopologyGraph>
TopologyHelper::AddServers(Ptr<TopologyGraph> graph, TopologyGraph::Shape& shape) const
{
    const uint32_t gpus = m_gpusPerServer;
    if (shape.type != "fattree" && shape.type != "leafspine" && shape.type != "rail")
    {
        throw std::invalid_argument("gpus per server = " + std::to_string(gpus) +
                                    " is not allowed for a " + shape.type +
                                    " (servers of more than one GPU: fattree, leafspine, rail)");
    }
    const uint32_t hosts = graph->GetNHosts();
    if (hosts % gpus != 0)
    {
        throw std::invalid_argument(std::to_string(hosts) + " hosts are not whole servers of " +
                                    std::to_string(gpus) +
                                    " GPUs (gpus per server must divide the host count)");
    }
    if (m_scaleUpRate.GetBitRate() == 0)
    {
        throw std::invalid_argument("scale-up rate 0 is not allowed (must be positive)");
    }
    if (!(m_scaleUpEfficiency > 0 && m_scaleUpEfficiency <= 1))
    {
        throw std::invalid_argument("scale-up efficiency " + std::to_string(m_scaleUpEfficiency) +
                                    " is not allowed (must be in (0, 1])");
    }
    const uint32_t servers = hosts / gpus;
    // The payload rate of the scale-up cables: the signalling rate less what the
    // scale-up link's own headers take (1: all of it, the rate as given).
    const DataRate scaleUp =
        m_scaleUpEfficiency == 1.0
            ? m_scaleUpRate
            : DataRate(static_cast<uint64_t>(std::llround(
                  static_cast<double>(m_scaleUpRate.GetBitRate()) * m_scaleUpEfficiency)));
    Ptr<TopologyGraph> g = Create<TopologyGraph>();
    for (uint32_t node = 0; node < graph->GetNNodes(); ++node)
    {
        if (graph->IsHost(node))
        {
            g->AddHost(graph->GetGroup(node));
        }
        else
        {
            g->AddSwitch(graph->GetTier(node), graph->GetGroup(node), graph->GetIndex(node));
        }
    }
    const uint32_t first = graph->GetNNodes();
    for (uint32_t s = 0; s < servers; ++s)
    {
        g->AddSwitch(0, s, s);
    }
    // The NIC cables first, in GPU order: crossbar port j is GPU j's NIC.
    std::vector<uint8_t> done(graph->GetNLinks(), 0);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        const auto& ports = graph->GetPorts(graph->GetHosts()[h]);
        if (ports.size() != 1)
        {
            throw std::invalid_argument("host " + std::to_string(h) + " has " +
                                        std::to_string(ports.size()) +
                                        " cables (a GPU's NIC has exactly one)");
        }
        const TopologyGraph::Link& l = graph->GetLink(ports[0].link);
        g->AddLink(first + h / gpus, ports[0].peer, l.rate, l.delay, l.tier);
        done[ports[0].link] = 1;
    }
    for (uint32_t id = 0; id < graph->GetNLinks(); ++id)
    {
        if (!done[id])
        {
            const TopologyGraph::Link& l = graph->GetLink(id);
            g->AddLink(l.a, l.b, l.rate, l.delay, l.tier);
        }
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        g->AddLink(g->GetHosts()[h], first + h / gpus, scaleUp, m_scaleUpDelay);
    }
    shape.gpusPerServer = gpus;
    shape.servers = servers;
    shape.firstScaleUpSwitch = first;
    shape.routing = "rail";
    std::ostringstream label;
    label << shape.label << ", " << servers << " servers x " << gpus << " GPUs";
    shape.label = label.str();
    return g;
}

Ptr<TopologyGraph>
TopologyHelper::Finish(Ptr<TopologyGraph> graph, const TopologyGraph::Shape& built) const
{
    TopologyGraph::Shape shape = built;
    if (m_gpusPerServer > 1)
    {
        graph = AddServers(graph, shape);
    }
    ApplyCableLengths(*graph);
    graph->SetShape(shape);
    graph->Validate();
    NS_LOG_INFO(graph->Describe());
    return graph;
}

} // namespace ns3
