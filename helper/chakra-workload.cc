/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "chakra-workload.h"

#include "ns3/log.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraWorkload");

NS_OBJECT_ENSURE_REGISTERED(ChakraWorkload);

TypeId
ChakraWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ChakraWorkload")
                            .SetParent<Object>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<ChakraWorkload>();
    return tid;
}

ChakraWorkload::ChakraWorkload() = default;

ChakraWorkload::~ChakraWorkload() = default;

void
ChakraWorkload::DoDispose()
{
    if (m_engine)
    {
        m_engine->Dispose();
    }
    m_engine = nullptr;
    if (m_transport)
    {
        m_transport->Dispose();
    }
    m_transport = nullptr;
    Object::DoDispose();
}

void
ChakraWorkload::Setup(const TrainingWorkload::Options& c, Ptr<RdmaFabric> fabric)
{
    if (c.file.empty())
    {
        throw std::invalid_argument("--chakra needs a PREFIX (a Chakra execution trace: "
                                    "PREFIX.0.et, PREFIX.1.et, ..., one file per rank)");
    }
    ChakraTrace trace;
    try
    {
        trace = ChakraTrace::Load(c.file);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string("--chakra: ") + e.what());
    }
    const uint32_t hosts =
        c.hosts.empty() ? fabric->GetNHosts() : static_cast<uint32_t>(c.hosts.size());
    if (trace.GetNRanks() != hosts)
    {
        throw std::invalid_argument("--chakra: " + c.file + ".0.et .. " + trace.files.back() +
                                    ": " + std::to_string(trace.GetNRanks()) +
                                    " ranks, but it runs on " + std::to_string(hosts) +
                                    " hosts (GPUs); allowed: one file per host");
    }
    m_transport = TrainingWorkload::AttachTransport(fabric, c.hosts, hosts);
    m_engine = CreateObject<ChakraEngine>();
    TrainingWorkload::ConfigureEngine(m_engine, c, c.iterations, m_transport);
    try
    {
        m_engine->Setup(trace, m_transport);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("--chakra=" + c.file + ": " + e.what());
    }
    m_prefix = c.file;
}

void
ChakraWorkload::SetFinishedCallback(Callback<void> cb)
{
    NS_ABORT_MSG_IF(!m_engine, "ChakraWorkload::SetFinishedCallback before Setup");
    m_engine->SetFinishedCallback(cb);
}

void
ChakraWorkload::Start()
{
    NS_ABORT_MSG_IF(!m_engine, "ChakraWorkload::Start before Setup");
    m_engine->Start();
}

bool
ChakraWorkload::IsFinished() const
{
    return m_engine && m_engine->IsFinished();
}

Ptr<ChakraEngine>
ChakraWorkload::GetEngine() const
{
    return m_engine;
}

Ptr<RdmaCollectiveTransport>
ChakraWorkload::GetTransport() const
{
    return m_transport;
}

namespace
{
/// The rank that finished last (the lowest of a tie).
uint32_t
CriticalRank(const ChakraEngine::IterationRecord& it)
{
    uint32_t crit = 0;
    for (uint32_t r = 0; r < it.finishNs.size(); ++r)
    {
        if (it.finishNs[r] > it.finishNs[crit])
        {
            crit = r;
        }
    }
    return crit;
}
} // namespace

nlohmann::json
ChakraWorkload::ToJson() const
{
    if (!m_engine)
    {
        return nullptr;
    }
    const ChakraTrace& t = m_engine->GetTrace();
    nlohmann::json j;
    j["prefix"] = m_prefix;
    j["ranks"] = t.GetNRanks();
    j["schema_version"] = t.versions.empty() ? "" : t.versions.front();
    std::array<uint64_t, 5> kinds{};
    for (const auto& nodes : t.ranks)
    {
        for (const ChakraNode& n : nodes)
        {
            kinds[n.kind]++;
        }
    }
    j["nodes"] = {{"metadata", kinds[ChakraNode::NOOP]},
                  {"compute", kinds[ChakraNode::COMPUTE]},
                  {"collective", kinds[ChakraNode::COLLECTIVE]},
                  {"send", kinds[ChakraNode::SEND]},
                  {"recv", kinds[ChakraNode::RECV]}};
    const auto& iters = m_engine->GetIterations();
    j["finished_iterations"] = iters.size();
    j["complete"] = m_engine->IsFinished();
    nlohmann::json per = nlohmann::json::array();
    double mean = 0;
    for (const auto& it : iters)
    {
        const uint32_t crit = CriticalRank(it);
        per.push_back({{"iteration", it.iteration},
                       {"iteration_ns", it.endNs - it.startNs},
                       {"critical_rank", crit},
                       {"gpu_compute_ns", it.gpuComputeNs[crit]}});
        mean += static_cast<double>(it.endNs - it.startNs);
    }
    j["iterations"] = per;
    j["mean_iteration_ns"] = iters.empty() ? 0.0 : mean / iters.size();
    nlohmann::json colls = nlohmann::json::array();
    for (const auto& s : m_engine->GetCommStats())
    {
        double m = 0;
        for (int64_t d : s.durationsNs)
        {
            m += static_cast<double>(d);
        }
        colls.push_back(
            {{"operation", s.operation},
             {"bytes", s.bytes},
             {"ranks", s.ranks},
             {"count", s.durationsNs.size()},
             {"mean_duration_ns", s.durationsNs.empty() ? 0.0 : m / s.durationsNs.size()}});
    }
    j["communications"] = colls;
    return j;
}

std::vector<std::string>
ChakraWorkload::GetCsvNames() const
{
    return {"chakra.csv"};
}

bool
ChakraWorkload::WriteCsv(const std::string& dir) const
{
    std::ofstream out(std::filesystem::path(dir) / "chakra.csv",
                      std::ios::binary | std::ios::trunc);
    out << CSV_HEADER << '\n';
    if (m_engine)
    {
        for (const auto& it : m_engine->GetIterations())
        {
            const uint32_t crit = CriticalRank(it);
            out << it.iteration << ',' << it.startNs << ',' << it.endNs << ','
                << it.endNs - it.startNs << ',' << crit << ',' << it.gpuComputeNs[crit] << '\n';
        }
    }
    out.close();
    return !out.fail();
}

} // namespace ns3
