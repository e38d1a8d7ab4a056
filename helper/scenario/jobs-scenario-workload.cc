/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "jobs-scenario-workload.h"

#include "scenario-runner.h"
#include "scenario-workload-registry.h"
#include "workload-options.h"

#include "ns3/config-error.h"
#include "ns3/lambda-callback.h"
#include "ns3/output-writer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/tcp-flow-transport.h"
#include "ns3/workload-registry.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ns3
{

namespace
{
WorkloadRegistration g_workload({"jobs",
                                 "the jobs of --jobs sharing the fabric: training models or "
                                 "collective loops, each placed on its GPUs, in its traffic "
                                 "class and partition, from its start time",
                                 WorkloadRegistry::OTHER,
                                 {}});
ScenarioWorkloadRegistration<JobsScenarioWorkload> g_component("jobs");

/// "--jobs=FILE: job 'NAME' (number N)"
std::string
JobPrefix(const ScenarioConfig& c, const JobSpec& spec, uint32_t index)
{
    return "--jobs=" + c.jobs + ": job '" + spec.name + "' (number " + std::to_string(index + 1) +
           ")";
}

double
Mean(const std::vector<int64_t>& v)
{
    double sum = 0;
    for (int64_t x : v)
    {
        sum += static_cast<double>(x);
    }
    return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

/// "0x8001"
std::string
Hex16(uint16_t v)
{
    char buf[8];
    std::snprintf(buf, sizeof(buf), "0x%04x", v);
    return buf;
}
} // namespace

void
JobsScenarioWorkload::RunBaselines(ScenarioConfig& c)
{
    // (--jobs applies only with --workload=jobs: the knob table checks it)
    if (c.jobs.empty() || !c.jobsBaseline || c.jobOnly >= 0)
    {
        return;
    }
    // The file and its placement are checked first: an error names the job as it is in
    // the whole file, before any simulation.
    std::vector<JobSpec> specs = JobSet::Load(c.jobs);
    JobSet::Place(specs, *ScenarioRunner::BuildTopology(c), c.jobs);
    c.jobBaselineNs.assign(specs.size(), {});
    for (uint32_t i = 0; i < specs.size(); ++i)
    {
        ScenarioConfig alone = c;
        alone.jobOnly = static_cast<int32_t>(i);
        alone.pcap = false;
        alone.hostFailures.clear(); // the job alone on a healthy fabric
        alone.portBytes = false;
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() /
            ("ai-fabric-job-baseline-" + std::to_string(getpid()) + "-" + std::to_string(i));
        alone.out = dir.string();
        nlohmann::json s;
        try
        {
            s = ScenarioRunner(alone).Run();
        }
        catch (const ConfigError&)
        {
            // (its message names the job as the shared run's would: the same file)
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
            throw;
        }
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        for (const auto& ns : s.at("jobs").at(0).at("iteration_ns"))
        {
            c.jobBaselineNs[i].push_back(ns.get<int64_t>());
        }
    }
}

void
JobsScenarioWorkload::Install(const ScenarioConfig& c, const Context& ctx)
{
    if (c.jobs.empty())
    {
        throw ConfigError("--workload=jobs needs --jobs=FILE (a JSON array of jobs; "
                          "doc/jobs.md)");
    }
    m_fabric = ctx.fabric;
    m_config = &c;
    m_ctx = ctx;
    std::vector<JobSpec> specs = JobSet::Load(c.jobs);
    JobSet::Place(specs, *ctx.fabric->GetGraph(), c.jobs);
    AssignPartitions(specs, c);
    m_taken.assign(ctx.fabric->GetNHosts(), false);
    m_jobOfHost.assign(ctx.fabric->GetNHosts(), UINT32_MAX);
    for (const JobSpec& spec : specs)
    {
        for (uint32_t h : spec.hosts)
        {
            m_taken[h] = true;
        }
    }
    for (uint32_t i = 0; i < specs.size(); ++i)
    {
        if (c.jobOnly >= 0 && static_cast<uint32_t>(c.jobOnly) != i)
        {
            continue;
        }
        Job job;
        job.spec = specs[i];
        job.index = i;
        job.trafficClass = job.spec.trafficClass.value_or(static_cast<uint8_t>(c.priority));
        if (i < c.jobBaselineNs.size())
        {
            job.aloneNs = c.jobBaselineNs[i];
        }
        if (job.trafficClass != c.priority)
        {
            SetClass(job, c);
        }
        InstallJob(job, c, ctx);
        for (uint32_t h : job.spec.hosts)
        {
            m_jobOfHost[h] = static_cast<uint32_t>(m_jobs.size());
        }
        m_jobs.push_back(std::move(job));
    }
    if (!c.hostFailures.empty())
    {
        WatchQueuePairs();
    }
}

void
JobsScenarioWorkload::WatchQueuePairs()
{
    // Only with --host-failure: each queue pair made on a job's host reports its error.
    const std::vector<uint32_t>& hostNodes = m_fabric->GetGraph()->GetHosts();
    auto onQp = [this](Ptr<RdmaQueuePair> qp) {
        qp->TraceConnectWithoutContext("Error",
                                       MakeCallback(&JobsScenarioWorkload::OnQueuePairError, this));
    };
    for (uint32_t h = 0; h < m_jobOfHost.size(); ++h)
    {
        Ptr<RdmaNic> nic = m_fabric->GetNodes().Get(hostNodes[h])->GetObject<RdmaNic>();
        if (m_jobOfHost[h] != UINT32_MAX && nic)
        {
            nic->TraceConnectWithoutContext("QpCreated",
                                            MakeLambdaCallback<void, Ptr<RdmaQueuePair>>(onQp));
        }
    }
}

void
JobsScenarioWorkload::OnQueuePairError(Ptr<const RdmaQueuePair> qp, uint64_t /* flushed */)
{
    for (const RdmaFabric::HostFailureRecord& r : m_fabric->GetHostFailures())
    {
        if (r.host == qp->GetLocalHost())
        {
            return; // the failed host's own: nobody is left there to see it
        }
    }
    const uint32_t index = m_jobOfHost.at(qp->GetLocalHost());
    Job& job = m_jobs.at(index);
    if (job.state != State::RUNNING || IsComplete(job))
    {
        return; // one failure per job: the first error aborts its communicator
    }
    job.failedNs = Simulator::Now().GetNanoSeconds();
    // Its communicator aborts (ncclCommAbort): nothing more is posted, and the messages
    // it had set aside count as done, so the run ends when the other jobs do.
    (job.training ? job.training->GetTransport()
     : job.chakra ? job.chakra->GetTransport()
                  : job.collective->GetTransport())
        ->Abort();
    // The failed host: the one of the job's hosts the fabric has failed (the queue pair's
    // own host, or its peer).
    for (const RdmaFabric::HostFailureRecord& r : m_fabric->GetHostFailures())
    {
        const auto& hosts = job.spec.hosts;
        if (r.at <= Simulator::Now() &&
            std::find(hosts.begin(), hosts.end(), r.host) != hosts.end())
        {
            job.failedHost = r.host;
            break;
        }
    }
    if (job.spec.onFailure == JobSpec::OnFailure::RESTART)
    {
        job.state = State::RESTARTING;
        Simulator::Schedule(job.spec.restartDelay, &JobsScenarioWorkload::Restart, this, index);
        return;
    }
    job.state = State::STOPPED;
    m_ctx.checkCompletion();
}

void
JobsScenarioWorkload::Restart(uint32_t index)
{
    Job& job = m_jobs.at(index);
    // The lowest host no job of the file has and no failure took replaces the failed one.
    std::vector<bool> failed(m_taken.size(), false);
    for (const RdmaFabric::HostFailureRecord& r : m_fabric->GetHostFailures())
    {
        failed[r.host] = true;
    }
    uint32_t spare = 0;
    while (spare < m_taken.size() && (m_taken[spare] || failed[spare]))
    {
        spare++;
    }
    if (spare == m_taken.size() || job.failedHost == UINT32_MAX)
    {
        job.state = State::STOPPED; // nowhere to restart
        m_ctx.checkCompletion();
        return;
    }
    m_taken[spare] = true;
    m_jobOfHost[spare] = index;
    job.replacement = spare;
    job.before = Iterations(job);
    m_retired.push_back(job.training ? Ptr<Object>(job.training)
                        : job.chakra ? Ptr<Object>(job.chakra)
                                     : Ptr<Object>(job.collective));
    job.training = nullptr;
    job.collective = nullptr;
    job.chakra = nullptr;
    std::replace(job.spec.hosts.begin(), job.spec.hosts.end(), job.failedHost, spare);
    const uint32_t total = job.spec.iterations.value_or(1);
    const auto done = static_cast<uint32_t>(job.before.size());
    JobSpec again = job.spec;
    again.iterations = total > done ? total - done : 0;
    again.start = Time(0);
    job.state = State::RESTARTED;
    job.restartedNs = Simulator::Now().GetNanoSeconds();
    if (job.trafficClass != m_config->priority)
    {
        SetClass(job, *m_config);
    }
    if (again.iterations.value() == 0)
    {
        m_ctx.checkCompletion();
        return;
    }
    Job runner;
    runner.spec = again;
    runner.index = job.index;
    InstallJob(runner, *m_config, m_ctx);
    job.training = runner.training;
    job.collective = runner.collective;
    job.chakra = runner.chakra;
}

void
JobsScenarioWorkload::AssignPartitions(const std::vector<JobSpec>& specs, const ScenarioConfig& c)
{
    // The fabric's manager (InfiniBand's Subnet Manager) assigns every job's hosts their
    // P_Key; hosts in no job stay in the default partition.
    std::vector<uint16_t> pKeys(m_fabric->GetNHosts(), 0);
    int32_t firstPartitioned = -1;
    for (uint32_t i = 0; i < specs.size(); ++i)
    {
        for (uint32_t h : specs[i].hosts)
        {
            pKeys[h] = specs[i].partition;
        }
        if (specs[i].partition != 0 && firstPartitioned < 0)
        {
            firstPartitioned = static_cast<int32_t>(i);
        }
    }
    if (firstPartitioned < 0)
    {
        return;
    }
    try
    {
        m_fabric->AssignPartitions(pKeys);
    }
    catch (const std::invalid_argument& e)
    {
        const JobSpec& s = specs[firstPartitioned];
        throw ConfigError(JobPrefix(c, s, firstPartitioned) + ": \"partition\": " +
                          Hex16(s.partition) + " is not allowed on --fabric=" + c.fabric + " (" +
                          e.what() + "); allowed with --fabric=infiniband");
    }
    m_partitions = true;
}

void
JobsScenarioWorkload::SetClass(const Job& job, const ScenarioConfig& c)
{
    // The job's connections (both ways) in its class: RoCEv2 priority / IB SL.
    const std::vector<uint32_t>& hosts = job.spec.hosts;
    try
    {
        for (std::size_t a = 0; a < hosts.size(); ++a)
        {
            for (std::size_t b = a + 1; b < hosts.size(); ++b)
            {
                m_fabric->SetPairClass(hosts[a], hosts[b], job.trafficClass);
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(JobPrefix(c, job.spec, job.index) +
                          ": \"class\": " + std::to_string(job.trafficClass) +
                          " is not allowed on --fabric=" + c.fabric + ": " + e.what());
    }
}

void
JobsScenarioWorkload::InstallJob(Job& job, const ScenarioConfig& c, const Context& ctx)
{
    const JobSpec& s = job.spec;
    try
    {
        switch (s.kind)
        {
        case JobSpec::Kind::TRAINING:
            InstallTraining(job, c, ctx);
            break;
        case JobSpec::Kind::PATTERN:
            InstallPattern(job, c, ctx);
            break;
        case JobSpec::Kind::COLLECTIVE:
            InstallCollective(job, c, ctx);
            break;
        case JobSpec::Kind::CHAKRA:
            InstallChakra(job, c, ctx);
            break;
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(JobPrefix(c, s, job.index) + ": " + e.what());
    }
}

TrainingWorkload::Options
JobsScenarioWorkload::TrainingOptions(const JobSpec& s,
                                      const std::string& file,
                                      const ScenarioConfig& c)
{
    TrainingWorkload::Options o = WorkloadOptions::Training(c);
    o.file = file;
    o.iterations = s.iterations.value_or(1);
    o.algorithm = s.algorithm;
    o.hosts = s.hosts;
    return o;
}

void
JobsScenarioWorkload::InstallTraining(Job& job, const ScenarioConfig& c, const Context& ctx)
{
    const JobSpec& s = job.spec;
    job.training = CreateObject<TrainingWorkload>();
    job.training->Setup(TrainingOptions(s, s.model, c), ctx.fabric);
    job.training->SetFinishedCallback(MakeLambdaCallback<void>(ctx.checkCompletion));
    Simulator::Schedule(s.start, &TrainingWorkload::Start, job.training);
}

void
JobsScenarioWorkload::InstallChakra(Job& job, const ScenarioConfig& c, const Context& ctx)
{
    const JobSpec& s = job.spec;
    job.chakra = CreateObject<ChakraWorkload>();
    job.chakra->Setup(TrainingOptions(s, s.trace, c), ctx.fabric);
    job.chakra->SetFinishedCallback(MakeLambdaCallback<void>(ctx.checkCompletion));
    Simulator::Schedule(s.start, &ChakraWorkload::Start, job.chakra);
}

void
JobsScenarioWorkload::InstallPattern(Job& job, const ScenarioConfig& c, const Context& ctx)
{
    const JobSpec& s = job.spec;
    if (ctx.tcp)
    {
        throw std::invalid_argument("a point-to-point pattern job posts RDMA messages; "
                                    "allowed with --transport=rdma");
    }
    // The pattern over the job's ranks, its host indices mapped to the job's hosts;
    // its random draws (permutation) from a stream of the job's own.
    PointToPointOptions o = WorkloadOptions::PointToPoint(c);
    o.bytes = s.bytes;
    o.fanin = s.fanin.value_or(c.fanin);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    rng->SetStream(1000 + job.index);
    job.messages = WorkloadRegistry::Get(s.workload).pattern(o, s.gpus, rng);
    for (auto& [src, dst] : job.messages.pairs)
    {
        src = s.hosts.at(src);
        dst = s.hosts.at(dst);
    }
    job.pattern = true;
    job.iterations = s.iterations.value_or(1);
    m_verb = c.GetVerb();
    Simulator::Schedule(s.start,
                        &JobsScenarioWorkload::PostRound,
                        this,
                        static_cast<uint32_t>(m_jobs.size()));
}

void
JobsScenarioWorkload::InstallCollective(Job& job, const ScenarioConfig& c, const Context& ctx)
{
    const JobSpec& s = job.spec;
    CollectiveWorkload::Options o = WorkloadOptions::Collective(c);
    o.operation = s.workload;
    o.algorithm = s.algorithm;
    o.bytes = s.bytes;
    o.iterations = s.iterations.value_or(1);
    o.ranks = 0;
    o.hosts = s.hosts;
    job.collective = CreateObject<CollectiveWorkload>();
    job.collective->Setup(o, ctx.fabric);
    job.collective->SetFinishedCallback(MakeLambdaCallback<void>(ctx.checkCompletion));
    Simulator::Schedule(s.start, &CollectiveWorkload::Start, job.collective);
}

void
JobsScenarioWorkload::PostRound(uint32_t index)
{
    Job& job = m_jobs.at(index);
    job.roundStartNs = Simulator::Now().GetNanoSeconds();
    for (const auto& [src, dst] : job.messages.pairs)
    {
        const uint64_t bytes = job.messages.bytes;
        const uint8_t kind = job.messages.kind;
        uint64_t id = 0;
        if (m_verb == ScenarioConfig::Verb::READ)
        {
            id = m_fabric->PostRead(dst, src, bytes, 0, kind); // dst reads src
        }
        else if (m_verb == ScenarioConfig::Verb::SEND)
        {
            id = m_fabric->PostSend(src, dst, bytes, 0, kind);
        }
        else
        {
            id = m_fabric->PostWrite(src, dst, bytes, 0, kind);
        }
        job.pending.insert(id);
    }
}

void
JobsScenarioWorkload::OnMessage(const RdmaFabric::MessageRecord& r, bool tcp)
{
    if (tcp)
    {
        return;
    }
    for (uint32_t i = 0; i < m_jobs.size(); ++i)
    {
        Job& job = m_jobs[i];
        if (!job.pattern || job.pending.erase(r.id) == 0)
        {
            continue;
        }
        if (job.pending.empty())
        {
            // The round (iteration) ends with its last message; the next one starts then.
            job.rounds.emplace_back(job.roundStartNs, r.end.GetNanoSeconds());
            if (job.rounds.size() < job.iterations)
            {
                Simulator::ScheduleNow(&JobsScenarioWorkload::PostRound, this, i);
            }
        }
        return;
    }
}

bool
JobsScenarioWorkload::HasWork() const
{
    return !m_jobs.empty();
}

bool
JobsScenarioWorkload::IsComplete(const Job& j)
{
    if (j.state == State::STOPPED || j.state == State::RESTARTING)
    {
        return false;
    }
    if (j.pattern)
    {
        return j.rounds.size() >= j.iterations;
    }
    if (j.state == State::RESTARTED && !j.training && !j.collective && !j.chakra)
    {
        return true; // it had finished every iteration when it failed
    }
    if (j.chakra)
    {
        return j.chakra->IsFinished();
    }
    return j.training ? j.training->IsFinished() : j.collective->IsFinished();
}

std::string
JobsScenarioWorkload::StateName(const Job& job)
{
    switch (job.state)
    {
    case State::STOPPED:
        return "stopped";
    case State::RESTARTING:
        return "restarting";
    case State::RESTARTED:
        return IsComplete(job) ? "restarted" : "restarted_incomplete";
    case State::RUNNING:
        break;
    }
    return IsComplete(job) ? "complete" : "incomplete";
}

bool
JobsScenarioWorkload::IsFinished() const
{
    for (const Job& j : m_jobs)
    {
        if (j.state != State::STOPPED && !IsComplete(j))
        {
            return false;
        }
    }
    return true;
}

std::vector<std::pair<int64_t, int64_t>>
JobsScenarioWorkload::Iterations(const Job& job)
{
    std::vector<std::pair<int64_t, int64_t>> v = job.before;
    if (job.pattern)
    {
        v.insert(v.end(), job.rounds.begin(), job.rounds.end());
    }
    else if (job.training)
    {
        for (const auto& it : job.training->GetEngine()->GetIterations())
        {
            v.emplace_back(it.startNs, it.endNs);
        }
    }
    else if (job.chakra)
    {
        for (const auto& it : job.chakra->GetEngine()->GetIterations())
        {
            v.emplace_back(it.startNs, it.endNs);
        }
    }
    else if (job.collective && job.collective->GetApplication())
    {
        for (const auto& r : job.collective->GetApplication()->GetRecords())
        {
            v.emplace_back(r.startNs, r.endNs);
        }
    }
    return v;
}

void
JobsScenarioWorkload::AddSummary(nlohmann::json& s) const
{
    nlohmann::json jobs = nlohmann::json::array();
    for (const Job& job : m_jobs)
    {
        const JobSpec& spec = job.spec;
        std::vector<int64_t> ns;
        for (const auto& [start, end] : Iterations(job))
        {
            ns.push_back(end - start);
        }
        nlohmann::json j;
        j["name"] = spec.name;
        j["workload"] = spec.workload;
        j["gpus"] = spec.gpus;
        j["placement"] = spec.GetPlacementName();
        j["hosts"] = spec.hosts;
        j["start_ns"] = spec.start.GetNanoSeconds();
        j["class"] = job.trafficClass;
        j["partition"] = spec.partition ? nlohmann::json(Hex16(spec.partition | 0x8000))
                                        : nlohmann::json(nullptr);
        j["complete"] = IsComplete(job);
        if (job.state != State::RUNNING)
        {
            // A host it ran on failed (--host-failure): when its communicator aborted,
            // which host, and where it started again
            j["state"] = StateName(job);
            j["failed_ns"] = job.failedNs;
            j["failed_host"] = job.failedHost;
            j["restarted_ns"] = job.restartedNs >= 0 ? nlohmann::json(job.restartedNs) : nullptr;
            j["replacement_host"] =
                job.replacement != UINT32_MAX ? nlohmann::json(job.replacement) : nullptr;
        }
        j["finished_iterations"] = ns.size();
        j["iteration_ns"] = ns;
        j["mean_iteration_ns"] = Mean(ns);
        if (job.training)
        {
            const nlohmann::json t = job.training->ToJson();
            j["exposed_comm_ns_mean"] = t.at("exposed_comm_ns").at("mean");
        }
        if (job.aloneNs.empty())
        {
            j["alone_iteration_ns"] = nullptr;
            j["slowdown"] = nullptr;
        }
        else
        {
            j["alone_iteration_ns"] = job.aloneNs;
            j["alone_mean_iteration_ns"] = Mean(job.aloneNs);
            j["slowdown"] =
                ns.empty() ? nlohmann::json(nullptr) : nlohmann::json(Mean(ns) / Mean(job.aloneNs));
        }
        jobs.push_back(j);
    }
    s["jobs"] = jobs;
    if (m_partitions)
    {
        // Packets the hosts' ports dropped for a foreign P_Key (IbHca PKeyViolation)
        s["partitions"] = {{"assigned_by", "subnet_manager"},
                           {"pkey_violations", m_fabric->GetPKeyViolations()}};
    }
}

void
JobsScenarioWorkload::WriteFiles(OutputWriter& writer)
{
    const std::string csv = (std::filesystem::path(writer.GetDirectory()) / "jobs.csv").string();
    writer.AddRunFile(csv);
    std::ofstream out(csv, std::ios::binary | std::ios::trunc);
    out << CSV_HEADER << '\n';
    for (const Job& job : m_jobs)
    {
        const auto its = Iterations(job);
        for (std::size_t k = 0; k < its.size(); ++k)
        {
            const int64_t d = its[k].second - its[k].first;
            out << job.index << ',' << job.spec.name << ',' << k << ',' << its[k].first << ','
                << its[k].second << ',' << d << ',';
            if (k < job.aloneNs.size() && job.aloneNs[k] > 0)
            {
                char buf[32];
                std::snprintf(buf,
                              sizeof(buf),
                              "%.6f",
                              static_cast<double>(d) / static_cast<double>(job.aloneNs[k]));
                out << job.aloneNs[k] << ',' << buf;
            }
            else
            {
                out << ',';
            }
            out << '\n';
        }
    }
    out.close();
    if (out.fail())
    {
        writer.AbandonAfterWriteError("cannot write " + csv);
    }
}

void
JobsScenarioWorkload::Dispose()
{
    for (Ptr<Object>& o : m_retired)
    {
        if (o)
        {
            o->Dispose();
        }
    }
    m_retired.clear();
    for (Job& j : m_jobs)
    {
        if (j.training)
        {
            j.training->Dispose();
            j.training = nullptr;
        }
        if (j.collective)
        {
            j.collective->Dispose();
            j.collective = nullptr;
        }
        if (j.chakra)
        {
            j.chakra->Dispose();
            j.chakra = nullptr;
        }
    }
    m_fabric = nullptr;
    m_ctx = Context{};
}

} // namespace ns3
