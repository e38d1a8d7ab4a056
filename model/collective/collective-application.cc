/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-application.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveApplication");

NS_OBJECT_ENSURE_REGISTERED(CollectiveApplication);

namespace
{
constexpr uint32_t kJobBits = 12;
constexpr uint32_t kIterBits = 12;
constexpr uint32_t kMaxJobs = 1u << kJobBits;
} // namespace

TypeId
CollectiveApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveApplication")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<CollectiveApplication>()
            .AddAttribute("Iterations",
                          "Operations per job (training steps); taken when a job is added.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&CollectiveApplication::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeGap",
                          "Compute time between the end of one operation of a job and the start "
                          "of the next (forward + backward pass); taken when a job is added.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&CollectiveApplication::m_computeGap),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "IterationStart",
                "When a job's next iteration starts. per-rank: each rank (GPU) ComputeGap after "
                "its own part of the previous one is done (what it receives completed, what it "
                "sends posted), as a GPU launches its next collective kernel when its own "
                "previous kernel ended (CUDA stream order; NCCL's documentation, 'CUDA Stream "
                "Semantics'); the only choice that runs across MPI ranks. barrier: every rank "
                "ComputeGap after the whole previous operation ended (the model before). One "
                "iteration, or an algorithm with a transport of its own (nvls, collnet), "
                "runs as barrier.",
                EnumValue(CollectiveApplication::PER_RANK),
                MakeEnumAccessor(&CollectiveApplication::m_iterationStart),
                MakeEnumChecker(CollectiveApplication::PER_RANK,
                                "per-rank",
                                CollectiveApplication::BARRIER,
                                "barrier"))
            .AddAttribute("TagSpace",
                          "Top 8 bits of every tag this application posts, so that several "
                          "users of one transport can tell their messages apart.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CollectiveApplication::m_tagSpace),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("OperationFinished",
                            "A collective operation finished.",
                            MakeTraceSourceAccessor(&CollectiveApplication::m_finishedTrace),
                            "ns3::CollectiveApplication::RecordTracedCallback");
    return tid;
}

CollectiveApplication::CollectiveApplication()
    : m_iterations(1),
      m_computeGap(0),
      m_tagSpace(0)
{
}

CollectiveApplication::~CollectiveApplication() = default;

void
CollectiveApplication::DoDispose()
{
    if (m_transport)
    {
        m_transport->SetCallbacks(CollectiveTransport::MessageCallback(),
                                  CollectiveTransport::MessageCallback());
    }
    m_transport = nullptr;
    for (auto& j : m_jobs)
    {
        j.algorithm = nullptr;
    }
    m_recordCb = RecordCallback();
    Object::DoDispose();
}

void
CollectiveApplication::SetTransport(Ptr<CollectiveTransport> transport)
{
    m_transport = transport;
    m_transport->SetCallbacks(MakeCallback(&CollectiveApplication::OnDelivered, this),
                              MakeCallback(&CollectiveApplication::OnSent, this));
}

Ptr<CollectiveTransport>
CollectiveApplication::GetTransport() const
{
    return m_transport;
}

void
CollectiveApplication::CheckHosts(const Communicator& comm) const
{
    if (comm.GetSize() == 0)
    {
        throw std::invalid_argument("collective job on a communicator with zero ranks; at least "
                                    "1 rank is required");
    }
    if (m_transport && comm.GetMinTransportRanks() > m_transport->GetNRanks())
    {
        throw std::invalid_argument(
            "communicator uses host " + std::to_string(comm.GetMinTransportRanks() - 1) +
            " but the transport connects hosts 0.." + std::to_string(m_transport->GetNRanks() - 1));
    }
}

uint32_t
CollectiveApplication::AddJob(const Communicator& comm,
                              CollectiveOp op,
                              const std::string& algorithm,
                              uint64_t bytes,
                              Time startOffset)
{
    return AddJob(comm, CollectiveAlgorithm::Create(op, algorithm), bytes, startOffset);
}

uint32_t
CollectiveApplication::AddJob(const Communicator& comm,
                              Ptr<CollectiveAlgorithm> algorithm,
                              uint64_t bytes,
                              Time startOffset)
{
    CheckHosts(comm);
    if (m_jobs.size() >= kMaxJobs)
    {
        throw std::invalid_argument("more than " + std::to_string(kMaxJobs) +
                                    " collective jobs in one application");
    }
    if (startOffset.IsStrictlyNegative())
    {
        throw std::invalid_argument("collective job start offset " +
                                    std::to_string(startOffset.GetNanoSeconds()) +
                                    " ns is negative; must be >= 0");
    }
    if (m_transport)
    {
        // Across MPI ranks this process holds only the transfers of its own hosts.
        std::vector<bool> local(comm.GetSize());
        for (uint32_t r = 0; r < comm.GetSize(); ++r)
        {
            local[r] = m_transport->IsLocal(comm.GetHost(r));
        }
        algorithm->Setup(comm, bytes, local);
    }
    else
    {
        algorithm->Setup(comm, bytes);
    }
    Job j;
    j.algorithm = algorithm;
    j.iterations = m_iterations;
    j.perRank = m_iterationStart == PER_RANK && m_iterations > 1 && m_transport &&
                algorithm->CanStartRuns(m_transport);
    j.gap = m_computeGap;
    j.startOffset = startOffset;
    m_jobs.push_back(j);
    return static_cast<uint32_t>(m_jobs.size() - 1);
}

void
CollectiveApplication::Start()
{
    if (!m_transport)
    {
        throw std::invalid_argument("CollectiveApplication::Start without a transport");
    }
    for (uint32_t i = 0; i < m_jobs.size(); ++i)
    {
        CheckHosts(m_jobs[i].algorithm->GetCommunicator());
        Simulator::Schedule(m_jobs[i].startOffset, &CollectiveApplication::StartIteration, this, i);
    }
}

uint64_t
CollectiveApplication::MakeTagBase(uint8_t space, uint32_t job, uint32_t iteration)
{
    return (static_cast<uint64_t>(space) << 56) |
           (static_cast<uint64_t>(job & (kMaxJobs - 1)) << (32 + kIterBits)) |
           (static_cast<uint64_t>(iteration & ((1u << kIterBits) - 1)) << 32);
}

void
CollectiveApplication::Stop()
{
    NS_LOG_INFO("stopped: no further iteration starts");
    m_stopped = true;
    for (Job& j : m_jobs)
    {
        if (j.perRank)
        {
            j.algorithm->StopRuns(); // (the latest run a rank started is the last)
        }
    }
}

bool
CollectiveApplication::IsStopped() const
{
    return m_stopped;
}

void
CollectiveApplication::StartIteration(uint32_t job)
{
    if (m_stopped)
    {
        return;
    }
    Job& j = m_jobs[job];
    if (j.perRank)
    {
        NS_LOG_INFO("job " << job << " runs " << j.iterations << " iterations per rank");
        const uint8_t space = m_tagSpace;
        j.algorithm->StartRuns(
            m_transport,
            j.iterations,
            j.gap,
            [space, job](uint32_t run) { return MakeTagBase(space, job, run); },
            MakeCallback(&CollectiveApplication::RunDone, this).Bind(job));
        return;
    }
    j.startNs = Simulator::Now().GetNanoSeconds();
    j.opId = m_nextOpId++;
    NS_LOG_INFO("job " << job << " iteration " << j.iteration << " starts");
    j.algorithm->Start(m_transport,
                       MakeTagBase(m_tagSpace, job, j.iteration),
                       MakeCallback(&CollectiveApplication::IterationDone, this));
}

void
CollectiveApplication::IterationDone(uint64_t tagBase)
{
    uint32_t job = static_cast<uint32_t>((tagBase >> (32 + kIterBits)) & (kMaxJobs - 1));
    Job& j = m_jobs[job];
    RecordIteration(job, Simulator::Now().GetNanoSeconds());
    if (j.iteration < j.iterations)
    {
        Simulator::Schedule(j.gap, &CollectiveApplication::StartIteration, this, job);
    }
    else
    {
        j.finished = true;
    }
}

void
CollectiveApplication::RunDone(uint32_t job, uint32_t run)
{
    Job& j = m_jobs[job];
    const CollectiveAlgorithm::RunTimes& t = j.algorithm->GetRunTimes()[run];
    if (t.hostsDone < j.algorithm->GetCommunicator().GetSize())
    {
        return; // across MPI ranks: recorded after the run (FinishRunsAcrossRanks)
    }
    // from the later of its earliest rank's start and the last iteration's end, so that
    // the records of successive iterations tile the loop's time as the barrier's do
    j.startNs = std::max(t.firstStart.GetNanoSeconds(), j.lastEndNs);
    j.lastEndNs = t.lastEnd.GetNanoSeconds();
    j.opId = m_nextOpId++;
    RecordIteration(job, t.lastEnd.GetNanoSeconds());
    j.finished = j.iteration >= j.iterations;
}

bool
CollectiveApplication::IsPerRank(uint32_t job) const
{
    return m_jobs.at(job).perRank;
}

void
CollectiveApplication::FinishRunsAcrossRanks(uint32_t job,
                                             const std::vector<int64_t>& startNs,
                                             const std::vector<int64_t>& endNs)
{
    Job& j = m_jobs.at(job);
    for (uint32_t run = j.iteration; run < startNs.size() && run < endNs.size(); ++run)
    {
        if (startNs[run] < 0 || endNs[run] < 0)
        {
            break; // (not started or not ended: the run stopped before)
        }
        j.startNs = std::max(startNs[run], j.lastEndNs); // (as RunDone)
        j.lastEndNs = endNs[run];
        j.opId = m_nextOpId++;
        RecordIteration(job, endNs[run]);
    }
    j.finished = j.iteration >= j.iterations;
}

void
CollectiveApplication::OnDelivered(uint32_t /* src */,
                                   uint32_t /* dst */,
                                   uint64_t tag,
                                   uint64_t /* bytes */)
{
    if (static_cast<uint8_t>(tag >> 56) != m_tagSpace)
    {
        NS_LOG_LOGIC("ignoring message of tag space " << (tag >> 56));
        return;
    }
    uint32_t job = static_cast<uint32_t>((tag >> (32 + kIterBits)) & (kMaxJobs - 1));
    uint32_t iter = static_cast<uint32_t>((tag >> 32) & ((1u << kIterBits) - 1));
    NS_ABORT_MSG_IF(job >= m_jobs.size(), "delivery for unknown collective job " << job);
    Job& j = m_jobs[job];
    if (j.perRank)
    {
        j.algorithm->HandleRunDelivered(tag); // (its run from the tag)
        return;
    }
    NS_ABORT_MSG_IF(iter != (j.iteration & ((1u << kIterBits) - 1)) || !j.algorithm->IsRunning(),
                    "delivery for job " << job << " iteration " << iter
                                        << " which is not running (current " << j.iteration << ")");
    j.algorithm->HandleDelivered(static_cast<uint32_t>(tag & 0xffffffffULL));
}

void
CollectiveApplication::OnSent(uint32_t /* src */,
                              uint32_t /* dst */,
                              uint64_t tag,
                              uint64_t /* bytes */)
{
    if (static_cast<uint8_t>(tag >> 56) != m_tagSpace)
    {
        return;
    }
    uint32_t job = static_cast<uint32_t>((tag >> (32 + kIterBits)) & (kMaxJobs - 1));
    uint32_t iter = static_cast<uint32_t>((tag >> 32) & ((1u << kIterBits) - 1));
    if (job >= m_jobs.size())
    {
        return;
    }
    Job& j = m_jobs[job];
    if (j.perRank)
    {
        j.algorithm->HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL)); // (any run's)
        return;
    }
    if (iter != (j.iteration & ((1u << kIterBits) - 1)) || !j.algorithm->IsRunning())
    {
        return; // a late completion of an operation that ended at its last delivery
    }
    // the sender learns the chunk was delivered: its in-flight slot is free again
    j.algorithm->HandleSent(static_cast<uint32_t>(tag & 0xffffffffULL));
}

void
CollectiveApplication::RecordIteration(uint32_t job, int64_t endNs)
{
    Job& j = m_jobs[job];
    const Ptr<CollectiveAlgorithm>& a = j.algorithm;
    CollectiveRecord r = CollectiveMetrics::MakeRecord(j.opId,
                                                       a->GetOp(),
                                                       a->GetName(),
                                                       job,
                                                       j.iteration,
                                                       a->GetCommunicator().GetSize(),
                                                       a->GetBytes(),
                                                       j.startNs,
                                                       endNs);
    NS_LOG_INFO("job " << job << " iteration " << j.iteration << " took " << r.durationNs << " ns");
    m_records.push_back(r);
    m_finishedTrace(r);
    if (!m_recordCb.IsNull())
    {
        m_recordCb(r);
    }
    j.iteration++;
}

void
CollectiveApplication::FinishAcrossRanks(int64_t endNs)
{
    for (uint32_t job = 0; job < m_jobs.size(); ++job)
    {
        Job& j = m_jobs[job];
        if (j.finished || !j.algorithm->IsRunning())
        {
            continue;
        }
        RecordIteration(job, endNs);
        j.finished = j.iteration >= j.iterations;
    }
}

void
CollectiveApplication::SetRecordCallback(RecordCallback cb)
{
    m_recordCb = cb;
}

const std::vector<CollectiveRecord>&
CollectiveApplication::GetRecords() const
{
    return m_records;
}

uint32_t
CollectiveApplication::GetNJobs() const
{
    return static_cast<uint32_t>(m_jobs.size());
}

Ptr<CollectiveAlgorithm>
CollectiveApplication::GetAlgorithm(uint32_t job) const
{
    return m_jobs.at(job).algorithm;
}

bool
CollectiveApplication::IsFinished() const
{
    for (const auto& j : m_jobs)
    {
        if (!j.finished)
        {
            return false;
        }
    }
    return true;
}

} // namespace ns3
